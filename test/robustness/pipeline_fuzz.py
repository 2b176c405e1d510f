#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Whole-pipeline fuzz: random well-formed kernels (kernelgen.py) through
`ws-opt --emit=cubin`, so through every ws pass, the upstream lowering and
ptxas. Each must end in a cubin or in a located error; a crash, a hang, a
sanitizer report or an error without a location fails and saves the case.

The seed changes per run (time-based) and is printed; replay one with
--seed S (and --only I for a single case)."""
import argparse
import concurrent.futures
import os
import random
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernelgen  # noqa: E402

LOCATED_ERROR = re.compile(r"^\S+:\d+:\d+: error: ", re.M)
ANY_ERROR = re.compile(r"error", re.I)
SANITIZER = re.compile(r"AddressSanitizer|LeakSanitizer|runtime error:|UndefinedBehaviorSanitizer")
TIMEOUT_S = 120


def run_case(ws_opt, workdir, seed, index):
    rng = random.Random("%d/%d" % (seed, index))
    k = kernelgen.make_valid(rng, False, index)
    path = os.path.join(workdir, "case%d.mlir" % index)
    with open(path, "w") as f:
        f.write(k.text)
    try:
        p = subprocess.run([ws_opt, path, "--emit=cubin", "-o", path + ".cubin"],
                           capture_output=True, text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return index, "fail", "hang: no answer in %d s" % TIMEOUT_S, k.text
    err = p.stderr
    if SANITIZER.search(err):
        return index, "fail", "sanitizer report", k.text
    if p.returncode == 0:
        with open(path + ".cubin", "rb") as f:
            if f.read(4) != b"\x7fELF":
                return index, "fail", "exit 0 without a cubin", k.text
        if ANY_ERROR.search(err):
            return index, "fail", "exit 0 with an error printed", k.text
        os.remove(path + ".cubin")
        os.remove(path)
        return index, "compiled", "", ""
    if p.returncode == 1 and LOCATED_ERROR.search(err):
        unlocated = [l for l in err.splitlines() if "error" in l.lower() and not LOCATED_ERROR.match(l)]
        if unlocated:
            return index, "fail", "unlocated error: " + unlocated[0], k.text
        os.remove(path)
        first = LOCATED_ERROR.search(err)
        line = err[first.start():].splitlines()[0]
        reason = re.sub(r"^\S+:\d+:\d+: error: ", "", line)
        return index, "rejected", reason, ""
    return index, "fail", "exit %d: %s" % (p.returncode, err.strip()[-400:]), k.text


def family(reason):
    """Groups rejections by the start of their message."""
    return re.sub(r"[0-9]+", "N", reason)[:70]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ws-opt", required=True)
    ap.add_argument("--count", type=int, default=500)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--only", type=int, default=None)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else int(os.environ.get("WS_FUZZ_SEED", time.time_ns() % 1000000007))
    os.makedirs(args.workdir, exist_ok=True)
    cases = [args.only] if args.only is not None else list(range(args.count))
    print("pipeline fuzz: seed %d, %d cases (replay: --seed %d [--only I])" % (seed, len(cases), seed))
    counts = {"compiled": 0, "rejected": 0, "fail": 0}
    reasons = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for index, outcome, why, text in pool.map(lambda i: run_case(args.ws_opt, args.workdir, seed, i), cases):
            counts[outcome] += 1
            if outcome == "rejected":
                reasons[family(why)] = reasons.get(family(why), 0) + 1
            if outcome == "fail":
                print("FAIL case %d (--seed %d --only %d): %s; saved %s" % (
                    index, seed, index, why, os.path.join(args.workdir, "case%d.mlir" % index)))
    for r, n in sorted(reasons.items(), key=lambda x: -x[1]):
        print("  rejected %4d: %s" % (n, r))
    print("pipeline fuzz: %d compiled, %d rejected with a located error" % (counts["compiled"], counts["rejected"]))
    print("%d passed, %d failed" % (counts["compiled"] + counts["rejected"], counts["fail"]))
    return 1 if counts["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
