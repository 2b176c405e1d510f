#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""torch.ops.ws.attention's backward against SDPA's cuDNN and
FlashAttention-2 backends on the same tensors in one process: B x H x S x D
views of B x S x H x D projections, uniform inputs, triton.testing.do_bench
(L2 flushed). Each backend's forward runs once; the timed call is the
backward alone, torch.autograd.grad of that output (ws's Delta, dK/dV and
dQ kernels). TFLOP/s count the backward as 2.5x the forward's FLOPs
(4 * B * Hq * S^2 * D, halved when causal). Prints each shape's times,
TFLOP/s and ws's speed over each backend's; the weakest ratios last.

--kernels also prints how ws's backward time splits over its three
kernels (torch.profiler's CUDA times of one backward).

Usage: attention_bwd_bench.py [--kernels]   (needs ws's kernels in the
cache: python -m ws families on a machine with MLIR)"""
import sys

import torch
import triton.testing
from torch.nn.attention import SDPBackend, sdpa_kernel

import ws.torch_ops  # noqa: F401

# name, batch, Hq, Hkv, S, D, causal, dtype
SHAPES = [
    ("full-d128", 2, 16, 16, 4096, 128, False, torch.bfloat16),
    ("causal-d128", 2, 16, 16, 4096, 128, True, torch.bfloat16),
    ("llama-311m", 4, 16, 4, 2048, 128, True, torch.bfloat16),
    ("gqa-32/8", 4, 32, 8, 2048, 128, True, torch.bfloat16),
    ("full-d64", 2, 16, 16, 4096, 64, False, torch.float16),
    ("causal-d64", 2, 16, 16, 4096, 64, True, torch.float16),
]
BACKENDS = (("cudnn", SDPBackend.CUDNN_ATTENTION), ("fa2", SDPBackend.FLASH_ATTENTION))


def views(batch, seq, heads, dim, dtype):
    return torch.empty(batch, seq, heads, dim, device="cuda", dtype=dtype).uniform_(-1, 1) \
        .transpose(1, 2).requires_grad_()


def backward_of(out, inputs, grad):
    return lambda: torch.autograd.grad(out, inputs, grad, retain_graph=True)


def kernel_split(run):
    """{kernel name: share of the CUDA time} of one run of ws's backward."""
    run()
    torch.cuda.synchronize()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        run()
        torch.cuda.synchronize()
    times = {}
    for event in prof.events():
        if event.device_type == torch.autograd.DeviceType.CUDA and "attention" in event.name:
            times[event.name] = times.get(event.name, 0.0) + event.device_time
    total = sum(times.values())
    return {name: t / total for name, t in sorted(times.items())}


def main():
    print("%-12s %8s %8s %8s %8s %8s %8s %9s %9s" % (
        "shape", "ws ms", "cudnn ms", "fa2 ms", "ws TF/s", "cudnn", "fa2", "ws/cudnn",
        "ws/fa2"))
    ratios = {"cudnn": [], "fa2": []}
    for name, batch, hq, hkv, seq, dim, causal, dtype in SHAPES:
        q = views(batch, seq, hq, dim, dtype)
        k, v = views(batch, seq, hkv, dim, dtype), views(batch, seq, hkv, dim, dtype)
        grad = torch.empty(batch, hq, seq, dim, device="cuda", dtype=dtype).uniform_(-1, 1)
        out = torch.ops.ws.attention(q, k, v, causal)
        times = {"ws": triton.testing.do_bench(backward_of(out, (q, k, v), grad))}
        if "--kernels" in sys.argv[1:]:
            split = kernel_split(backward_of(out, (q, k, v), grad))
            print("%-12s %s" % (name, ", ".join("%s %.0f%%" % (n, 100 * f)
                                               for n, f in split.items())))
        mine = torch.autograd.grad(out, (q, k, v), grad)
        for label, backend in BACKENDS:
            # FA2 and cuDNN take grouped heads repeated (as a model without
            # enable_gqa support passes them)
            kk, vv = (t.detach().repeat_interleave(hq // hkv, dim=1).requires_grad_()
                      for t in (k, v))
            with sdpa_kernel(backend):
                theirs = torch.nn.functional.scaled_dot_product_attention(q, kk, vv,
                                                                          is_causal=causal)
            times[label] = triton.testing.do_bench(backward_of(theirs, (q, kk, vv), grad))
            dq = torch.autograd.grad(theirs, (q,), grad, retain_graph=True)[0]
            err = (mine[0].float() - dq.float()).abs().max().item()
            assert err < 5e-2 * dq.float().abs().max().item(), (name, label, err)
        flops = 2.5 * 4.0 * batch * hq * seq * seq * dim / (2 if causal else 1)
        print("%-12s %8.3f %8.3f %8.3f %8.0f %8.0f %8.0f %9.3f %9.3f" % (
            name, times["ws"], times["cudnn"], times["fa2"], flops / times["ws"] / 1e9,
            flops / times["cudnn"] / 1e9, flops / times["fa2"] / 1e9,
            times["cudnn"] / times["ws"], times["fa2"] / times["ws"]), flush=True)
        for label in ratios:
            ratios[label].append((times[label] / times["ws"], name))
    for label, found in ratios.items():
        print("weakest against %s: %s at %.3fx" % (label, min(found)[1], min(found)[0]))


if __name__ == "__main__":
    main()
