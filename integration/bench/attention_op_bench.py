#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""torch.ops.ws.attention as a model calls it, against SDPA on the same
tensors in one process: B x H x S x D views of B x S x H x D projections,
grouped-query heads given as they are (SDPA with enable_gqa), causal
top-left and bottom-right (a chunk of queries against a longer cache),
uniform inputs, triton.testing.do_bench (L2 flushed). Prints each shape's
time, TFLOP/s (4 * B * Hq * Sq * Skv * D, halved for a causal square) and
SDPA's time over ws's; the weakest ratio last.

The op's time is the whole call from Python (its rules, the launch) as a
model pays it; --kernel also times the kernel's own launch (prepared
arguments, no rules) to show the op's overhead.

Usage: attention_op_bench.py [--kernel]   (needs ws's kernels in the cache:
python -m ws families on a machine with MLIR)"""
import argparse
import math

import torch
import triton.testing
from torch.nn.attention.bias import causal_lower_right

import ws.torch_ops  # noqa: F401
from ws.families import ATTENTION_BLOCK, attention_kernel

# name, batch, Hq, Hkv, Sq, Skv, D, causal ("tl", "br" or None), dtype
SHAPES = [
    ("llama-311m", 4, 16, 4, 2048, 2048, 128, "tl", torch.bfloat16),
    ("full-d128", 2, 16, 16, 4096, 4096, 128, None, torch.bfloat16),
    ("causal-d128", 2, 16, 16, 4096, 4096, 128, "tl", torch.bfloat16),
    ("gqa-32/8", 4, 32, 8, 2048, 2048, 128, "tl", torch.bfloat16),
    ("full-d64", 2, 16, 16, 4096, 4096, 64, None, torch.float16),
    ("causal-d64", 2, 16, 16, 4096, 4096, 64, "tl", torch.float16),
    ("full-d256", 2, 16, 16, 4096, 4096, 256, None, torch.bfloat16),
    ("chunk-512/4096", 4, 16, 4, 512, 4096, 128, "br", torch.bfloat16),
]


def views(batch, seq, heads, dim, dtype):
    return torch.empty(batch, seq, heads, dim, device="cuda", dtype=dtype).uniform_(-1, 1) \
        .transpose(1, 2)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kernel", action="store_true",
                        help="also time the kernel's own launch, without the op's rules")
    args = parser.parse_args()
    print("%-15s %9s %9s %8s %8s %9s" % ("shape", "ws ms", "sdpa ms", "ws TF/s", "sdpa TF/s",
                                         "sdpa/ws") + ("  kernel ms" if args.kernel else ""))
    ratios = []
    for name, batch, hq, hkv, sq, skv, dim, causal, dtype in SHAPES:
        q = views(batch, sq, hq, dim, dtype)
        k, v = views(batch, skv, hkv, dim, dtype), views(batch, skv, hkv, dim, dtype)
        align = "bottom_right" if causal == "br" else "top_left"
        ours = lambda: torch.ops.ws.attention(q, k, v, causal is not None,  # noqa: E731
                                              causal_align=align)
        mask = causal_lower_right(sq, skv) if causal == "br" else None
        theirs = lambda: torch.nn.functional.scaled_dot_product_attention(  # noqa: E731
            q, k, v, attn_mask=mask, is_causal=causal == "tl", enable_gqa=hq != hkv)
        want = theirs().float()
        err = (ours().float() - want).abs().max().item()
        assert err < 2e-2, (name, err)
        t_ws, t_sdpa = triton.testing.do_bench(ours), triton.testing.do_bench(theirs)
        flops = 4.0 * batch * hq * sq * skv * dim / (2 if causal == "tl" else 1)
        if causal == "br":  # the chunk's rows see skv - sq + i + 1 keys
            flops = 4.0 * batch * hq * dim * sum(skv - sq + i + 1 for i in range(sq))
        line = "%-15s %9.4f %9.4f %8.0f %8.0f %9.3f" % (
            name, t_ws, t_sdpa, flops / t_ws / 1e9, flops / t_sdpa / 1e9, t_sdpa / t_ws)
        if args.kernel:
            kernel = attention_kernel(dim, "bf16" if dtype == torch.bfloat16 else "f16",
                                      causal=causal is not None)
            o = torch.empty_like(q.transpose(1, 2)).transpose(1, 2)
            none = torch.empty(0, dtype=torch.int32, device="cuda")
            diag = skv if causal is None else (skv - sq if causal == "br" else 0)
            launch = lambda: kernel.launch(  # noqa: E731
                (-(-sq // ATTENTION_BLOCK), hq, batch), q, k, v, o, sq, skv, none, none,
                diag, hq // hkv, math.log2(math.e) / math.sqrt(dim), 0.0)
            line += "  %9.4f" % triton.testing.do_bench(launch)
        print(line, flush=True)
        ratios.append((t_sdpa / t_ws, name))
    print("weakest: %s at %.3fx SDPA" % (min(ratios)[1], min(ratios)[0]))


if __name__ == "__main__":
    main()
