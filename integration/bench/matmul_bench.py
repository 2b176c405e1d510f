#!/usr/bin/env python3
"""Matmul benchmark on the GPU: fp16 in, f32 accumulate, fp16 out,
C = A @ B^T, M = N = K in SIZES. In one run it times ws's compiled variants
(their harness binaries, --bench), cuBLAS (torch.matmul) and Triton's
warp-specialized TMA matmul (tl.range(..., warp_specialize=True), best of a
few tile configurations), and prints TFLOP/s and ratios.

Usage: matmul_bench.py BUILD_DIR VARIANT [VARIANT...]
  BUILD_DIR holds VARIANT.test, the harness run_matmul.sh builds."""
import re
import subprocess
import sys

import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

SIZES = [2048, 4096, 8192]
ITERS = {2048: 200, 4096: 50, 8192: 10}


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


# BM, BN, BK, stages, warps
TRITON_CONFIGS = [(128, 256, 64, 3, 8), (128, 128, 64, 4, 8), (128, 128, 64, 4, 4),
                  (128, 256, 64, 4, 8)]


def tflops(n, ms):
    return 2.0 * n * n * n / (ms * 1e-3) / 1e12


def bench_triton(a, b, c, n):
    best = (0.0, None)
    for bm, bn, bk, stages, warps in TRITON_CONFIGS:
        ad = TensorDescriptor.from_tensor(a, [bm, bk])
        bd = TensorDescriptor.from_tensor(b, [bn, bk])
        cd = TensorDescriptor.from_tensor(c, [bm, bn])
        grid = (triton.cdiv(n, bm), triton.cdiv(n, bn))

        def run():
            triton_ws_matmul[grid](ad, bd, cd, n, bm, bn, bk, stages, num_warps=warps)

        try:
            run()
            torch.cuda.synchronize()
            ref = a @ b.T
            if not torch.allclose(c.float(), ref.float(), rtol=2e-2, atol=1e-1):
                print(f"  triton {bm}x{bn}x{bk} s{stages} w{warps}: wrong result, skipped")
                continue
            ms = triton.testing.do_bench(run, warmup=25, rep=200)
        except Exception as e:  # a configuration Triton cannot compile
            print(f"  triton {bm}x{bn}x{bk} s{stages} w{warps}: {type(e).__name__}")
            continue
        t = tflops(n, ms)
        if t > best[0]:
            best = (t, f"{bm}x{bn}x{bk} s{stages} w{warps}")
    return best


def bench_ws(build, variant, n):
    out = subprocess.run([f"{build}/{variant}.test", str(n), str(n), str(n), "--bench",
                          str(ITERS[n])], capture_output=True, text=True, timeout=120)
    m = re.search(r"([0-9.]+) TFLOP/s", out.stdout)
    return float(m.group(1)) if m else 0.0


def main():
    build, variants = sys.argv[1], sys.argv[2:]
    torch.manual_seed(0)
    rows = []
    for n in SIZES:
        a = torch.randn(n, n, device="cuda", dtype=torch.float16)
        b = torch.randn(n, n, device="cuda", dtype=torch.float16)
        c = torch.empty(n, n, device="cuda", dtype=torch.float16)
        cublas = tflops(n, triton.testing.do_bench(lambda: torch.matmul(a, b.T), warmup=25,
                                                   rep=200))
        tri, tri_cfg = bench_triton(a, b, c, n)
        ours = [(bench_ws(build, v, n), v) for v in variants]
        for t, v in ours:
            print(f"  ws {v} at {n}: {t:.1f} TFLOP/s")
        best, best_v = max(ours)
        rows.append((n, best, best_v, cublas, tri, tri_cfg))
    print("\n| M=N=K | ws best (TFLOP/s) | ws config | cuBLAS | Triton WS best | Triton config "
          "| ws / cuBLAS | ws / Triton WS |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for n, best, v, cub, tri, cfg in rows:
        print(f"| {n} | {best:.1f} | {v} | {cub:.1f} | {tri:.1f} | {cfg} | "
              f"{best / cub:.3f}x | {best / tri if tri else 0:.3f}x |")


if __name__ == "__main__":
    main()
