#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""One member of the shipped matmul family and cuBLAS on the same inputs,
three launches each, for a profiler to pick one launch of either.

  matmul_profile.py M N K KERNEL BM BN [KEY=VALUE...] [--dtype f16|bf16]

KERNEL is matmul (persistent) or matmul_tiled; KEY=VALUE are the member's
other template fields or pipeline options (BK=128, overlap=cooperative,
num_stages=6). It checks the member against torch.matmul (matmul_bench's
tolerance) and exits 1 when it is wrong. Under Nsight Compute, the third
launch of each (the first two warm the caches of the driver and cuBLAS):

  ncu --set full -k regex:'^matmul' --launch-skip 2 --launch-count 1 \\
      python3 integration/bench/matmul_profile.py 256 8192 8192 matmul 128 128 overlap=cooperative
  ncu --set full -k regex:nvjet --launch-skip 2 --launch-count 1 \\
      python3 integration/bench/matmul_profile.py 256 8192 8192 matmul 128 128 overlap=cooperative

(cuBLAS's Hopper kernels are named nvjet_sm90_...). Inputs are uniform in
[-1, 1], as in the benchmarks: the clock a kernel keeps under the power
limit depends on the data it moves.
"""
import argparse
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
import ws  # noqa: E402
from ws.families import tile_grid  # noqa: E402
from ws.tune import config_text  # noqa: E402


def option(text):
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError("expected KEY=VALUE, got %r" % text)
    return key, int(value) if value.lstrip("-").isdigit() else value


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("m", type=int)
    p.add_argument("n", type=int)
    p.add_argument("k", type=int)
    p.add_argument("kernel", choices=("matmul", "matmul_tiled"))
    p.add_argument("bm", type=int)
    p.add_argument("bn", type=int)
    p.add_argument("options", nargs="*", type=option, metavar="KEY=VALUE")
    p.add_argument("--dtype", choices=("f16", "bf16"), default="f16")
    args = p.parse_args(argv)
    import torch
    from matmul_bench import close  # the benchmark's tolerance
    config = dict({"BK": 64}, BM=args.bm, BN=args.bn, **dict(args.options))
    family = ws.Template(ws.kernel_source("matmul.mlir"), defaults={"DTYPE": args.dtype})
    kernel = getattr(family.compile(config, chip="sm_90a"), args.kernel)
    tdt = {"f16": torch.float16, "bf16": torch.bfloat16}[args.dtype]
    m, n, k = args.m, args.n, args.k
    a = torch.empty(m, k, device="cuda", dtype=tdt).uniform_(-1, 1)
    b = torch.empty(n, k, device="cuda", dtype=tdt).uniform_(-1, 1)
    c = torch.empty(m, n, device="cuda", dtype=tdt)
    grid = None if kernel.signature.persistent else tile_grid(config, a, b, c, m, n, k)
    for _ in range(3):
        kernel.launch(grid, a, b, c, m, n, k)
    torch.cuda.synchronize()
    for _ in range(3):
        ref = torch.matmul(a, b.t())
    torch.cuda.synchronize()
    ok = close(c, ref)
    print("%s %dx%dx%d %s: max error %g (%s)" % (
        args.kernel, m, n, k, config_text(config),
        (c.float() - ref.float()).abs().max().item(), "ok" if ok else "WRONG"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
