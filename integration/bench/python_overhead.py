# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The Python runtime's call overhead against Triton's, in one process: the
host time of a loop of launches of a small elementwise add (no CUDA graph),
ws through `kernel[grid](...)` and Triton through its JIT launcher, each
loop timed after a warm-up and a synchronize, the median of 5 rounds.

    python3 integration/bench/python_overhead.py
"""

import os
import statistics
import sys
import time

import torch
import triton
import triton.language as tl

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
import ws  # noqa: E402

CALLS = 20000


@triton.jit
def triton_add(a, b, c, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(c + offs, tl.load(a + offs, mask=mask) + tl.load(b + offs, mask=mask), mask=mask)


def per_call_us(launch):
    for _ in range(200):
        launch()
    torch.cuda.synchronize()
    rounds = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(CALLS):
            launch()
        torch.cuda.synchronize()
        rounds.append((time.perf_counter() - start) / CALLS * 1e6)
    return statistics.median(rounds)


def main():
    os.chdir(ROOT)
    add = ws.compile("integration/add.mlir").add
    a, b = torch.rand(32, 64, device="cuda"), torch.rand(32, 64, device="cuda")
    c = torch.empty_like(a)
    n = a.numel()
    ws_us = per_call_us(lambda: add[1](a, b, c, 64))
    triton_us = per_call_us(lambda: triton_add[(1,)](a, b, c, n, BLOCK=2048))
    torch_us = per_call_us(lambda: torch.add(a, b, out=c))
    print("call overhead (host us per launch, %d launches, median of 5): ws %.2f, Triton %.2f, "
          "torch.add %.2f; ws / Triton = %.2fx (goal: at most 1.2x)"
          % (CALLS, ws_us, triton_us, torch_us, ws_us / triton_us))


if __name__ == "__main__":
    main()
