#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""One run of torch.ops.ws.attention's backward (attention_bwd.mlir's three
kernels) on a small ragged case, grouped heads, causal, key padding: the
gradients against an f32 reference on the CPU, so that it runs under
compute-sanitizer (racecheck, synccheck, memcheck) with only ws's kernels
and torch's copies on the GPU. Prints "ok" or raises.

Usage: compute-sanitizer --tool racecheck python3 attention_bwd_check.py"""
import math

import torch

import ws.torch_ops  # noqa: F401


def reference(q, k, v, start, end):
    heads, kv_heads = q.shape[1], k.shape[1]
    k, v = (t.repeat_interleave(heads // kv_heads, dim=1) for t in (k, v))
    s = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
    i, j = torch.arange(q.shape[2])[:, None], torch.arange(k.shape[2])
    seen = (j <= i + k.shape[2] - q.shape[2]) & (j >= start[:, None, None, None].long()) \
        & (j < end[:, None, None, None].long())
    return torch.softmax(s.masked_fill(~seen, float("-inf")), -1).nan_to_num(0.0) @ v


def main():
    torch.manual_seed(0)
    shapes = ((2, 4, 77, 64), (2, 2, 150, 64), (2, 2, 150, 64))
    q, k, v = (torch.empty(s).uniform_(-1, 1) for s in shapes)
    grad = torch.empty(shapes[0]).uniform_(-1, 1)
    start, end = torch.tensor([0, 20], dtype=torch.int32), torch.tensor([150, 140],
                                                                         dtype=torch.int32)
    leaves = [t.cuda().bfloat16().requires_grad_() for t in (q, k, v)]
    out = torch.ops.ws.attention(*leaves, True, causal_align="bottom_right",
                                 kv_start=start.cuda(), kv_end=end.cuda())
    out.backward(grad.cuda().bfloat16())
    ref = [t.clone().requires_grad_() for t in (q, k, v)]
    reference(*ref, start, end).backward(grad)
    for name, got, want in zip(("dq", "dk", "dv"), leaves, ref):
        err = (got.grad.float().cpu() - want.grad).abs().max().item()
        assert err < 5e-2 * want.grad.abs().max().item(), (name, err)
    print("ok")


if __name__ == "__main__":
    main()
