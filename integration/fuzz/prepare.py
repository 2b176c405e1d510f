#!/usr/bin/env python3
"""Generates COUNT kernels for the GPU differential fuzz (kernelgen.py with
gpu=True), compiles each to a launcher with ws-opt, compiles every launcher
with -Wall -Wextra -Werror, and writes DIR/manifest.json (one spec per
kernel, for run.py). Needs no GPU. A kernel ws-opt rejects is a failure
here: the generator only draws kernels that must compile."""
import argparse
import concurrent.futures
import json
import os
import random
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "test", "robustness"))
import kernelgen  # noqa: E402


def build(args, i):
    rng = random.Random("gpu/%d/%d" % (args.seed, i))
    k = kernelgen.make_valid(rng, True, i)
    base = os.path.join(args.dir, k.name)
    with open(base + ".mlir", "w") as f:
        f.write(k.text)
    p = subprocess.run([args.ws_opt, base + ".mlir", "--emit=launcher", "-o", base],
                       capture_output=True, text=True)
    if p.returncode != 0:
        with open(base + ".err", "w") as f:
            f.write(p.stderr)
        return None, "%s: ws-opt failed (exit %d): %s" % (k.name, p.returncode, p.stderr.strip()[-3000:])
    cuda = os.environ.get("WS_CUDA_ROOT", "/usr/local/cuda")
    c = subprocess.run(["gcc", "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-fPIC",
                        "-I" + os.path.join(cuda, "include"), "-c", base + ".c", "-o", base + ".o"],
                       capture_output=True, text=True)
    if c.returncode != 0:
        return None, "%s: launcher does not compile: %s" % (k.name, c.stderr.strip()[:600])
    spec = {"name": k.name, "rank": k.rank, "box": k.box, "inputs": k.inputs,
            "out_type": k.out_type, "steps": k.steps, "result": k.result,
            "start": k.start, "step": k.step, "warps": k.warps,
            "transcendental": k.transcendental}
    return spec, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ws_opt")
    ap.add_argument("dir")
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    specs, errors = [], []
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        for spec, err in pool.map(lambda i: build(args, i), range(args.count)):
            if err:
                errors.append(err)
            else:
                specs.append(spec)
    with open(os.path.join(args.dir, "manifest.json"), "w") as f:
        json.dump({"seed": args.seed, "kernels": specs}, f)
    ranks = sorted(set(s["rank"] for s in specs))
    types = sorted(set(t for s in specs for t in s["inputs"] + [s["out_type"]]))
    for e in errors:
        print("FAIL " + e)
    print("gpu fuzz: seed %d: %d kernels compiled to launchers (-Wall -Wextra -Werror), "
          "ranks %s, types %s; %d failed" % (args.seed, len(specs), ranks, " ".join(types), len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
