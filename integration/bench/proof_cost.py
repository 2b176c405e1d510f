#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""What ws-check-protocol costs: each kernel through `ws-opt --ws-pipeline`
(to a cubin) with the check and with check-protocol=false, in one process
each. Prints the check's wall time (--mlir-timing), its share of the
pipeline, and the peak RSS of both runs (wait4), per kernel and as the
maximum and median over every kernel given.

The goal (issue: the proof scales): the check adds at most 10% of the
pipeline's wall time, or 0.1 s when that is larger, and at most 100 MB of
peak memory, on every kernel. Kernels ws rejects with a located error are
counted apart (the pipeline stops before the check).

  proof_cost.py WS_OPT FILE.mlir...         kernels (`// -----` splits a file)
      [--fuzz N --seed S]                   and N pipeline-fuzz kernels
      [--gpu-fuzz N --matmuls M --seed S]   and the GPU fuzz's kernels
      [--method order|states]               the check's method
Needs no GPU."""
import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "test", "robustness"))
sys.path.insert(0, os.path.join(here, "..", "fuzz"))
import kernelgen  # noqa: E402
import matmul_gen  # noqa: E402

GOAL_SHARE, GOAL_FLOOR_S, GOAL_MB = 0.10, 0.1, 100.0
TIMING = re.compile(r"^\s*([0-9.]+) \(\s*[0-9.]+%\)\s+(ws-check-protocol|Total)\s*$", re.M)


def run(cmd):
    """Runs cmd; returns (exit code, stderr, wall s, peak RSS MB)."""
    with tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        err.seek(0)
        text = err.read().decode(errors="replace")
    return os.waitstatus_to_exitcode(status), text, wall, usage.ru_maxrss / 1024.0


def measure(ws_opt, path, method):
    """The pipeline with the check (of `method`) and without it."""
    if method == "order":
        with_check = [ws_opt, path, "--ws-pipeline"]
    else:  # the same passes, the check by another method
        with_check = [ws_opt, path, "--pass-pipeline=builtin.module(ws-pipeline{stage=plan "
                      "check-protocol=false}, ws-check-protocol{method=%s}, ws-pipeline{"
                      "stage=lower check-protocol=false})" % method]
    code, err, wall, rss = run(with_check + ["--mlir-timing", "-o", os.devnull])
    if code != 0:
        return None, err
    times = {name: float(s) for s, name in TIMING.findall(err)}
    code2, err2, wall2, rss2 = run([ws_opt, path, "--ws-pipeline=check-protocol=false", "-o", os.devnull])
    if code2 != 0:
        return None, err2
    return {"check": times.get("ws-check-protocol", 0.0), "total": times.get("Total", wall),
            "wall": wall, "wall_off": wall2, "rss": rss, "rss_off": rss2}, ""


def split(path, workdir):
    """The kernels of a file, one per `// -----` part."""
    text = open(path).read()
    parts = [p for p in re.split(r"^// -----\s*$", text, flags=re.M) if "gpu.func" in p]
    if len(parts) <= 1:
        return [(os.path.basename(path), path)]
    out = []
    for i, p in enumerate(parts):
        name = re.search(r"gpu\.func @(\w+)", p).group(1)
        q = os.path.join(workdir, "%s_%d_%s.mlir" % (os.path.basename(path)[:-5], i, name))
        with open(q, "w") as f:
            f.write(p)
        out.append(("%s:%s" % (os.path.basename(path), name), q))
    return out


def generated(args, workdir):
    out = []
    for i in range(args.fuzz):
        k = kernelgen.make_valid(random.Random("%d/%d" % (args.seed, i)), False, i)
        q = os.path.join(workdir, "fuzz%d.mlir" % i)
        with open(q, "w") as f:
            f.write(k.text)
        out.append(("fuzz%d" % i, q))
    for i in range(args.gpu_fuzz + args.matmuls):
        if i < args.gpu_fuzz:
            text = kernelgen.make_valid(random.Random("gpu/%d/%d" % (args.seed, i)), True, i).text
        else:
            text = matmul_gen.draw(random.Random("gpu-mm/%d/%d" % (args.seed, i)), i - args.gpu_fuzz)[1]
        q = os.path.join(workdir, "gpu%d.mlir" % i)
        with open(q, "w") as f:
            f.write(text)
        out.append(("gpu%d" % i, q))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ws_opt")
    ap.add_argument("files", nargs="*")
    ap.add_argument("--fuzz", type=int, default=0)
    ap.add_argument("--gpu-fuzz", type=int, default=0)
    ap.add_argument("--matmuls", type=int, default=0)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--method", default="order", choices=["order", "states"])
    ap.add_argument("--quiet", action="store_true", help="no row per kernel")
    args = ap.parse_args()
    workdir = tempfile.mkdtemp(prefix="proof_cost.")
    kernels = [k for f in args.files for k in split(f, workdir)] + generated(args, workdir)
    rows, rejected, misses = [], 0, []
    if not args.quiet:
        print("%-44s %9s %9s %7s %9s %9s %8s" % ("kernel", "check s", "pipeline", "share",
                                                  "RSS MB", "off MB", "+MB"))
    for name, path in kernels:
        m, err = measure(args.ws_opt, path, args.method)
        if m is None:
            rejected += 1
            if not re.search(r"^\S+:\d+:\d+: error: ", err, re.M) or "cannot be checked" in err:
                misses.append("%s: %s" % (name, err.strip().splitlines()[0] if err.strip() else "?"))
            continue
        share = m["check"] / m["total"] if m["total"] else 0.0
        extra = m["rss"] - m["rss_off"]
        rows.append((name, m["check"], m["total"], share, extra))
        if m["check"] > max(GOAL_SHARE * m["total"], GOAL_FLOOR_S) or extra > GOAL_MB:
            misses.append("%s: %.3f s of %.3f s, +%.0f MB" % (name, m["check"], m["total"], extra))
        if not args.quiet:
            print("%-44s %9.4f %9.4f %6.1f%% %9.0f %9.0f %+8.0f" % (
                name[:44], m["check"], m["total"], 100 * share, m["rss"], m["rss_off"], extra))
    if not rows:
        print("no kernel compiled")
        return 1
    shares = [r[3] for r in rows]
    checks = [r[1] for r in rows]
    extras = [r[4] for r in rows]
    print("proof cost (method=%s): %d kernels proved, %d rejected before the check" % (
        args.method, len(rows), rejected))
    print("  check's share of ws-pipeline: max %.1f%%, median %.1f%%; check's time: max %.4f s, "
          "median %.4f s" % (100 * max(shares), 100 * statistics.median(shares), max(checks),
                             statistics.median(checks)))
    print("  peak memory added by the check: max %+.0f MB, median %+.0f MB" % (
        max(extras), statistics.median(extras)))
    for miss in misses:
        print("  over the goal: " + miss)
    print("goal (<= 10%% of the pipeline or 0.1 s, <= 100 MB): %s" % ("met" if not misses else "MISSED"))
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
