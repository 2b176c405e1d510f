#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Matmul benchmark on the GPU, in one process: f16 in, f32 accumulate, f16
out, C = A @ B^T (B given N x K). ws's compiled kernels run next to
torch through the ws package (integration/suite_kernels.py), and ws, cuBLAS (torch.matmul) and Triton's warp-specialized
matmuls (best of a few configurations, tiled and persistent) all run on the
same uniform [-1, 1] inputs under the same timer, triton.testing.do_bench,
which flushes L2 before every run. Prints TFLOP/s per shape and the ratios,
weakest shape included.

Usage: matmul_bench.py [--rounds R] DIR VARIANT [VARIANT...]
  R interleaved rounds (3 unless given): each round times every shape,
  element type and kernel once, and the tables give each figure's median
  over the rounds with its min-max. f16 variants run on f16 inputs, bf16
  ones on bf16 (Triton's is timed in f16 only).
  DIR holds VARIANT.mlir (compile_matmul.sh writes them) and the manifest;
  each variant runs from VARIANT.wsmod where `python -m ws compile` wrote
  one (a GPU machine without MLIR), else compiled by the ws package. A
  persistent variant runs on its resident grid. Variants with the
  bias_relu epilogue run the fused bias + ReLU comparison (first), the
  others the plain matmul at every shape."""
import os
import sys

import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from suite_kernels import matmul_launcher, suite_kernel  # noqa: E402

# M, N, K: square, short K, tall, wide, skinny M, long K; then ragged N (a C
# row ending inside a 16-byte granule, and a vocabulary-sized N)
SHAPES = [(2048, 2048, 2048), (4096, 4096, 4096), (8192, 8192, 8192), (8192, 8192, 1024),
          (16384, 4096, 4096), (1024, 8192, 8192), (256, 8192, 8192), (4096, 4096, 16384)]
RAGGED = [(4096, 4095, 4096), (2048, 50257, 1024)]
BIAS_SHAPES = [(4096, 4096, 4096), (8192, 8192, 1024)]


class WsKernel:
    """One compiled variant (suite_kernels.py) of bm x bn C tiles."""

    def __init__(self, folder, name, bm, bn, epilogue="none", dtype="f16"):
        self.kernel = suite_kernel(folder, name)
        self.name, self.bm, self.bn = name, bm, bn
        self.epilogue, self.dtype = epilogue, dtype

    def launcher(self, a, b, c, m, n, k, bias=None):
        """A launch of C = A @ B^T into c's first n columns (c's rows may be
        padded), with a 1 x N bias row for the bias_relu epilogue."""
        tensors = [a, b, c[:, :n]]
        if self.epilogue == "bias_relu":
            tensors.append(bias.view(1, -1))
        return matmul_launcher(self.kernel, self.bm, self.bn, tensors, m, n, k)


@triton.jit
def triton_ws_matmul(a_desc, b_desc, c_desc, K, BM: tl.constexpr, BN: tl.constexpr,
                     BK: tl.constexpr, STAGES: tl.constexpr):
    row = tl.program_id(0) * BM
    col = tl.program_id(1) * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, K, BK, num_stages=STAGES, warp_specialize=True):
        a = a_desc.load([row, k])
        b = b_desc.load([col, k])
        acc = tl.dot(a, b.T, acc)
    c_desc.store([row, col], acc.to(tl.float16))


@triton.jit
def triton_ws_persistent(a_desc, b_desc, c_desc, M, N, K, BM: tl.constexpr,
                         BN: tl.constexpr, BK: tl.constexpr, STAGES: tl.constexpr,
                         GRID: tl.constexpr, scale=1.0, SCALED: tl.constexpr = False,
                         OUT: tl.constexpr = tl.float16):
    tiles_m = tl.cdiv(M, BM)
    tiles_n = tl.cdiv(N, BN)
    in_group = 8 * tiles_n
    for t in tl.range(tl.program_id(0), tiles_m * tiles_n, GRID, num_stages=STAGES,
                      warp_specialize=True):
        first_m = (t // in_group) * 8
        size = min(tiles_m - first_m, 8)
        row = (first_m + (t % in_group) % size) * BM
        col = ((t % in_group) // size) * BN
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, K, BK):
            acc = tl.dot(a_desc.load([row, k]), b_desc.load([col, k]).T, acc)
        if SCALED:  # an FP8 matmul's per-tensor scale (fp8.py)
            acc = acc * scale
        c_desc.store([row, col], acc.to(OUT))


# BM, BN, BK, stages, warps, persistent
TRITON_CONFIGS = [(128, 256, 64, 3, 8, False), (128, 128, 64, 4, 8, False),
                  (128, 128, 64, 4, 4, False), (128, 256, 64, 3, 8, True),
                  (128, 128, 64, 4, 8, True)]


# every figure, ws's, cuBLAS's and Triton's, under the same timer settings
TIMER = {"warmup": 25, "rep": 200}


def tflops(m, n, k, ms):
    return 2.0 * m * n * k / (ms * 1e-3) / 1e12


def close(c, ref):
    return torch.allclose(c.float(), ref.float(), rtol=2e-2, atol=1e-1)


def time_it(run, c, ref):
    """TFLOP/s of `run` once it is shown to compute `ref` into `c`, else None."""
    c.fill_(0)
    run()
    torch.cuda.synchronize()
    if not close(c, ref):
        return None
    return triton.testing.do_bench(run, **TIMER)


def bench_triton(a, b, c, ref, m, n, k, sms, configs=TRITON_CONFIGS):
    """The best TFLOP/s of Triton's WS matmul over configs, and that config."""
    best = (0.0, configs[0])
    for config in configs:
        bm, bn, bk, stages, warps, persistent = config
        name = f"{'persistent ' if persistent else ''}{bm}x{bn}x{bk} s{stages} w{warps}"
        ad = TensorDescriptor.from_tensor(a, [bm, bk])
        bd = TensorDescriptor.from_tensor(b, [bn, bk])
        cd = TensorDescriptor.from_tensor(c, [bm, bn])
        if persistent:
            def run():
                triton_ws_persistent[(sms,)](ad, bd, cd, m, n, k, bm, bn, bk, stages, sms,
                                             num_warps=warps)
        else:
            def run():
                triton_ws_matmul[(triton.cdiv(m, bm), triton.cdiv(n, bn))](
                    ad, bd, cd, k, bm, bn, bk, stages, num_warps=warps)
        try:
            ms = time_it(run, c, ref)
        except Exception as e:  # a configuration Triton cannot compile
            print(f"  triton {name}: {type(e).__name__}", flush=True)
            continue
        if ms is None:
            print(f"  triton {name}: wrong result, skipped", flush=True)
            continue
        t = tflops(m, n, k, ms)
        if t > best[0]:
            best = (t, config)
    return best


def manifest(folder):
    rows = {}
    with open(os.path.join(folder, "manifest")) as f:
        for line in f:
            v = line.split()
            rows[v[0]] = (int(v[1]), int(v[2]), v[6], v[5])  # bm, bn, epilogue, dtype
    return rows


def bench_bias_relu(kernels):
    """relu(A @ B^T + bias): ws's fused epilogue against torch.addmm + relu
    and cuBLASLt's fused bias + ReLU (torch._addmm_activation)."""
    rows = []
    for m, n, k in BIAS_SHAPES:
        a = torch.empty(m, k, device="cuda", dtype=torch.float16).uniform_(-1, 1)
        b = torch.empty(n, k, device="cuda", dtype=torch.float16).uniform_(-1, 1)
        bias = torch.empty(n, device="cuda", dtype=torch.float16).uniform_(-1, 1)
        c = torch.empty(m, n, device="cuda", dtype=torch.float16)
        ref = torch.relu(torch.addmm(bias, a, b.T))
        t_addmm = tflops(m, n, k, triton.testing.do_bench(
            lambda: torch.relu(torch.addmm(bias, a, b.T)), **TIMER))
        t_lt = tflops(m, n, k, triton.testing.do_bench(
            lambda: torch._addmm_activation(bias, a, b.T, use_gelu=False), **TIMER))
        ours = []
        for kern in kernels:
            if kern.epilogue != "bias_relu":
                continue
            ms = time_it(kern.launcher(a, b, c, m, n, k, bias=bias), c, ref)
            t = tflops(m, n, k, ms) if ms else 0.0
            print(f"  ws {kern.name} bias+relu at {m}x{n}x{k}: "
                  f"{'%.1f TFLOP/s' % t if ms else 'WRONG RESULT'}", flush=True)
            ours.append((t, kern.name))
        if ours:
            best, v = max(ours)
            rows.append((f"{m}x{n}x{k}", best, v, t_addmm, t_lt))
    if rows:
        print("\n| bias + ReLU, M x N x K | ws best (TFLOP/s) | ws kernel | addmm + relu | "
              "_addmm_activation | ws / addmm+relu | ws / _addmm_activation |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for shape, best, v, t1, t2 in rows:
            print(f"| {shape} | {best:.1f} | {v} | {t1:.1f} | {t2:.1f} | {best / t1:.3f}x | "
                  f"{best / t2:.3f}x |")


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2] if len(xs) % 2 else (xs[len(xs) // 2 - 1] + xs[len(xs) // 2]) / 2


def spread(xs):
    """A figure over the rounds: its median, and the min-max."""
    return f"{median(xs):.1f} ({min(xs):.0f}-{max(xs):.0f})"


def measure_round(kernels, dtype, shapes, sms, results, triton_pick):
    """One round over SHAPES (and RAGGED) in dtype: cuBLAS, Triton's best
    configuration (picked in the first round, then that one again) and every
    ws kernel of that element type, each appended to results[(shape, who)]."""
    for m, n, k in shapes:
        # C rows padded to 16 bytes (TMA needs it); C's view is M x N
        a = torch.empty(m, k, device="cuda", dtype=dtype).uniform_(-1, 1)
        b = torch.empty(n, k, device="cuda", dtype=dtype).uniform_(-1, 1)
        c_rows = torch.empty(m, (n + 7) // 8 * 8, device="cuda", dtype=dtype)
        c = c_rows[:, :n]
        ref = torch.matmul(a, b.T)
        shape = (m, n, k)
        results.setdefault((shape, "cuBLAS"), []).append(tflops(m, n, k, triton.testing.do_bench(
            lambda: torch.matmul(a, b.T), **TIMER)))
        if n % 8 == 0 and dtype == torch.float16:
            configs = [triton_pick[shape]] if shape in triton_pick else TRITON_CONFIGS
            tri, cfg = bench_triton(a, b, c, ref, m, n, k, sms, configs)
            triton_pick.setdefault(shape, cfg)
            results.setdefault((shape, "Triton"), []).append(tri)
        for kern in kernels:
            ms = time_it(kern.launcher(a, b, c_rows, m, n, k), c, ref)
            if not ms:
                print(f"  ws {kern.name} at {m}x{n}x{k}: WRONG RESULT", flush=True)
            results.setdefault((shape, kern.name), []).append(tflops(m, n, k, ms) if ms else 0.0)


def report(kernels, shapes, results, what):
    """The table of one element type: per shape ws's best kernel (by median),
    cuBLAS and Triton, each the median over the rounds with the min-max, and
    the ratio of medians; then the weakest of the main shapes."""
    print(f"\n{what}: median TFLOP/s over the rounds (min-max)")
    print("| M x N x K | ws best | ws kernel | cuBLAS | Triton WS | ws / cuBLAS | "
          "ws / Triton WS |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    ratios = []
    for shape in shapes:
        best = max((kern.name for kern in kernels), key=lambda v: median(results[(shape, v)]))
        ws, cub = results[(shape, best)], results[(shape, "cuBLAS")]
        tri = results.get((shape, "Triton"))
        r = median(ws) / median(cub)
        ratios.append((r, "x".join(map(str, shape))))
        print(f"| {'x'.join(map(str, shape))} | {spread(ws)} | {best} | {spread(cub)} | "
              f"{spread(tri) if tri else '-'} | {r:.3f}x | "
              f"{'%.3fx' % (median(ws) / median(tri)) if tri and median(tri) else '-'} |")
    weakest = min(ratios[:len(SHAPES)])
    print(f"weakest of the {len(SHAPES)} shapes ({what}): {weakest[1]}, ws / cuBLAS "
          f"{weakest[0]:.3f}x")
    print(f"\n{what}, every ws kernel: median TFLOP/s over the rounds")
    print("| M x N x K | " + " | ".join(kern.name for kern in kernels) + " |")
    print("| --- |" + " --- |" * len(kernels))
    for shape in shapes:
        print(f"| {'x'.join(map(str, shape))} | " +
              " | ".join(f"{median(results[(shape, kern.name)]):.1f}" for kern in kernels) + " |")


def main():
    args = sys.argv[1:]
    rounds = 3
    if args[:1] == ["--rounds"]:
        rounds, args = int(args[1]), args[2:]
    folder, names = args[0], args[1:]
    info = manifest(folder)
    torch.manual_seed(0)
    torch.empty(1, device="cuda")  # torch's context is current from here on
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    kernels = [WsKernel(folder, v, *info[v]) for v in names]
    bench_bias_relu(kernels)
    plain = [kern for kern in kernels if kern.epilogue == "none"]
    types = [(t, [kern for kern in plain if kern.dtype == name])
             for name, t in (("f16", torch.float16), ("bf16", torch.bfloat16))]
    types = [(t, ks) for t, ks in types if ks]
    results, picks = {}, {}
    for r in range(rounds):  # interleaved: every shape and type once a round
        print(f"round {r + 1} of {rounds}", flush=True)
        for dtype, ks in types:
            measure_round(ks, dtype, SHAPES + RAGGED, sms, results.setdefault(dtype, {}),
                          picks)
    for dtype, ks in types:
        report(ks, SHAPES + RAGGED, results[dtype], str(dtype).replace("torch.", ""))


if __name__ == "__main__":
    main()
