#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""What torch.ops.ws.matmul's tuning costs a model author: the seconds of
the first call of a Llama-style layer's linear shapes (N x K of its
projections) at one M, then at a new M in the same bucket (nothing to
tune), then at an M in a new bucket. Run it in a fresh cache folder
(WS_CACHE_DIR) with the kernels compiled (python -m ws cache fill), and
with WS_TUNE_BUDGET / WS_TUNE_CONFIGS set or not, to compare.

Usage: tuning_cost.py"""
import os
import time

import torch

import ws.torch_ops  # noqa: F401

# q/k/v/o and the MLP of a 16/4-head, D = 128 model with hidden 2048
LINEARS = [(2048, 2048), (512, 2048), (8192, 2048), (2048, 8192)]


def first_calls(m):
    start = time.perf_counter()
    for n, k in LINEARS:
        a = torch.empty(m, k, device="cuda", dtype=torch.bfloat16).uniform_(-1, 1)
        b = torch.empty(n, k, device="cuda", dtype=torch.bfloat16).uniform_(-1, 1)
        torch.ops.ws.matmul(a, b)
    torch.cuda.synchronize()
    return time.perf_counter() - start


def main():
    budget = "WS_TUNE_BUDGET=%s WS_TUNE_CONFIGS=%s" % (
        os.environ.get("WS_TUNE_BUDGET", "-"), os.environ.get("WS_TUNE_CONFIGS", "-"))
    for label, m in (("first M (8192)", 8192), ("same bucket (7000)", 7000),
                     ("new bucket (2048)", 2048)):
        print("%-20s %6.2f s  (%d linear shapes, %s)" % (label, first_calls(m), len(LINEARS),
                                                        budget), flush=True)


if __name__ == "__main__":
    main()
