#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""One kernel family, autotuned, against cuBLAS at every shape of the matmul
benchmark (integration/bench/matmul_bench.py's SHAPES), f16 and bf16.

The family is python/ws/kernels/matmul.mlir (C = A @ B^T with ${BM},
${BN}, ${BK} and ${DTYPE} fields, as a persistent kernel and a tiled one)
over the configs torch.ops.ws.matmul tunes (ws.families.MATMUL_CONFIGS:
both kernels at three tile shapes with the planner's choices, a
cooperative persistent 128x128, a 6-slot cooperative tiled 128x128 and a
stream-K persistent 128x256, each with the three L2 policies, the tiled ones also with their C tile
stored box by box, store_boxes);
with --wide, both kernels at five tile shapes, each with the planner's
own choices (ws.planner_configs(): ring depths and overlaps) and each L2
policy. The persistent members run on their balanced grid (tiles=
ws.families.tile_count: the fewest blocks that take the tiles in as many
rounds as one block per SM does). ws.autotune compiles every config (a refused one is
skipped with its reason), times the survivors on each shape and keeps the
winner. The winner's time in the tuning is the least of many noisy
figures, so the table times it again: R rounds (6 unless
given) of the winner and cuBLAS (torch.matmul), a shape at a time after
a discarded settling run of each, each side first in every other round,
one process, the same uniform [-1, 1] inputs, triton.testing.do_bench (L2
flushed); medians, and in how many rounds ws was the faster side. The
table's ratio is cuBLAS's median over ws's; "paired" is the median of the
rounds' own ratios (each round times both sides back to back, so a drift
of the clock over the rounds, which moves both, cancels), then their mean
with its 95% interval (Student's t). The weakest shape is given by both
the table's ratio and the paired median.

Usage:
  matmul_autotune.py [--wide] --compile compile every config into the cache
                                        ($WS_CACHE_DIR; needs libws-c.so)
  matmul_autotune.py [--wide] [--rounds R]
                                        tune and time on the GPU (a machine
                                        without MLIR reads the cache)
"""
import argparse
import os
import statistics
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
import ws  # noqa: E402
from ws.families import L2_POLICIES, MATMUL_CONFIGS, tile_count, tile_grid  # noqa: E402

TILES = [(128, 256, 64), (256, 128, 64), (128, 128, 64), (128, 192, 64), (128, 128, 128)]
DTYPES = ("f16", "bf16")


def family(dtype, wide):
    """The family of one element type, tuned over MATMUL_CONFIGS or (wide)
    TILES x the planner's choices x the L2 policies."""
    configs = MATMUL_CONFIGS if not wide else [
        dict(kernel=kernel, BM=bm, BN=bn, BK=bk, **knobs, **l2)
        for kernel in ("matmul", "matmul_tiled") for bm, bn, bk in TILES
        for knobs in ws.planner_configs() for l2 in L2_POLICIES]
    return ws.autotune(ws.Template(ws.kernel_source("matmul.mlir"), defaults={"DTYPE": dtype}),
                       configs,
                       grid=tile_grid, tiles=tile_count, chip="sm_90a")


def compile_all(wide):
    for dtype in DTYPES:
        cands = family(dtype, wide).candidates()
        kept = [c for c in cands if c.kernel]
        print("%s: %d configs, %d distinct kernels" % (dtype, len(cands), len(kept)))
        reasons = {}
        for c in cands:
            if c.skipped:
                why = ("over the shared-memory budget" if "budget" in c.skipped else
                       "duplicates another" if c.skipped.startswith("the same code") else
                       c.skipped.split("error: ")[-1][:100])
                reasons[why] = reasons.get(why, 0) + 1
        for why, n in sorted(reasons.items()):
            print("  skipped %d: %s" % (n, why))
    return 0


def bench(rounds, wide):
    import torch
    from triton.testing import do_bench
    from matmul_bench import SHAPES, close, median, tflops  # the benchmark's shapes and figures
    torch.manual_seed(0)
    weakest, weakest_paired = [], []
    for dtype in DTYPES:
        tdt = {"f16": torch.float16, "bf16": torch.bfloat16}[dtype]
        tuned = family(dtype, wide)
        inputs = []
        for m, n, k in SHAPES:
            a = torch.empty(m, k, device="cuda", dtype=tdt).uniform_(-1, 1)
            b = torch.empty(n, k, device="cuda", dtype=tdt).uniform_(-1, 1)
            c = torch.empty(m, n, device="cuda", dtype=tdt)
            best = tuned.tune(a, b, c, m, n, k)
            c.fill_(float("nan"))  # the check sees this launch's C, not the tuning's
            tuned(a, b, c, m, n, k)
            torch.cuda.synchronize()
            ok = close(c, torch.matmul(a, b.t()))
            inputs.append((m, n, k, a, b, c, best, ok))
            print("%s %dx%dx%d: winner %s (%s), %d timed" % (
                dtype, m, n, k, best.name, "exact" if ok else "WRONG",
                sum(1 for x in tuned.results[tuned.key(a, b, c, m, n, k)] if x.ms)),
                flush=True)
        times = {}
        for m, n, k, a, b, c, best, ok in inputs:  # a shape at a time
            sides = [("ws", lambda: tuned(a, b, c, m, n, k)),
                     ("cuBLAS", lambda: torch.matmul(a, b.t()))]
            # settle first: the clock a shape starts at is the one the last
            # shape's kernels left (a 30 us 2048^3 launch after 4096x4096x16384
            # ones timed 3-8% under its own figure), so each side runs a
            # discarded do_bench before the rounds; then each side goes
            # first in every other round
            for side, fn in sides:
                do_bench(fn)
            for r in range(rounds):
                for side, fn in sides[::-1] if r % 2 else sides:
                    times.setdefault((m, n, k, side), []).append(do_bench(fn))
        print("\n%s: median TFLOP/s over %d rounds" % (dtype, rounds))
        print("| M x N x K | ws autotuned | winner | cuBLAS | ws / cuBLAS | paired: median; mean "
              "(95% interval) | rounds ws ahead |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for m, n, k, a, b, c, best, ok in inputs:
            t_ws = median(times[(m, n, k, "ws")])
            t_blas = median(times[(m, n, k, "cuBLAS")])
            ratio = t_blas / t_ws
            # how often ws was the faster side within a round: a median
            # ratio near 1 with ws ahead in half the rounds is a tie
            ahead = sum(w < b for w, b in zip(times[(m, n, k, "ws")],
                                              times[(m, n, k, "cuBLAS")]))
            paired = [b / w for w, b in zip(times[(m, n, k, "ws")], times[(m, n, k, "cuBLAS")])]
            mid, (mean, low, high) = median(paired), interval(paired)
            name = "%s %dx%dx%d" % (dtype, m, n, k)
            weakest.append((ratio, name, ahead))
            weakest_paired.append((mid, name, mean, low, high))
            print("| %dx%dx%d | %.0f | %s | %.0f | %.3f%s | %.3f; %.3f (%.3f-%.3f) | %d of %d |" % (
                m, n, k, tflops(m, n, k, t_ws), best.name, tflops(m, n, k, t_blas),
                ratio, "" if ok else " WRONG", mid, mean, low, high, ahead, rounds))
    w = min(weakest)
    print("\nweakest shape: %s at %.3fx cuBLAS (ws ahead in %d of %d rounds)"
          % (w[1], w[0], w[2], rounds))
    w = min(weakest_paired)
    print("weakest shape, paired: %s at %.3fx cuBLAS (mean %.3f, 95%% interval %.3f-%.3f)"
          % (w[1], w[0], w[2], w[3], w[4]))
    return 0


# Student's t at 97.5% by degrees of freedom (1-30; 1.96 past them)
T_975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
         2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
         2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def interval(xs):
    """The mean of xs and its 95% interval (Student's t: the rounds are
    few; they are not quite independent either, so the interval is if
    anything too narrow). One round has none: NaN."""
    mean = statistics.mean(xs)
    if len(xs) < 2:
        return mean, float("nan"), float("nan")
    q = T_975[len(xs) - 2] if len(xs) - 1 <= len(T_975) else 1.96
    half = q * statistics.stdev(xs) / len(xs) ** 0.5
    return mean, mean - half, mean + half


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wide", action="store_true",
                        help="the five tiles x the planner's choices x the L2 policies")
    parser.add_argument("--compile", action="store_true",
                        help="compile every config into the cache ($WS_CACHE_DIR) and stop")
    parser.add_argument("--rounds", type=int, default=6, help="timing rounds (default 6)")
    args = parser.parse_args(argv)
    return compile_all(args.wide) if args.compile else bench(args.rounds, args.wide)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
