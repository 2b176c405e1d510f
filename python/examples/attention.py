# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Flash attention from Python against PyTorch's SDPA: torch.ops.ws.attention
(the custom op ws.torch_ops registers) on B x H x S x D tensors, causal and
not, f16 and bf16, checked against scaled_dot_product_attention in fp32 and
timed against SDPA's faster backend of flash attention and cuDNN on the
same inputs: one process, uniform [-1, 1], triton.testing.do_bench (L2
flushed).

    python3 python/examples/attention.py
"""

import math

import torch
import ws.torch_ops  # noqa: F401  (registers torch.ops.ws)

CASES = [(4, 16, 4096, 128, torch.float16, False), (4, 16, 4096, 128, torch.bfloat16, True),
         (8, 16, 2048, 64, torch.float16, True), (1, 32, 8192, 128, torch.bfloat16, False),
         (2, 8, 1000, 128, torch.float16, True)]


def sdpa_time(do_bench, sdpa_kernel, backend, q, k, v, causal):
    """SDPA's time with one backend (inf where it cannot run these inputs)."""
    try:
        with sdpa_kernel(backend):
            return do_bench(lambda: torch.nn.functional.scaled_dot_product_attention(
                q, k, v, is_causal=causal))
    except RuntimeError:
        return math.inf


def main():
    from triton.testing import do_bench
    from torch.nn.attention import SDPBackend, sdpa_kernel
    ok, weakest = True, None
    for batch, heads, seq, dim, dtype, causal in CASES:
        q, k, v = (torch.empty(batch, heads, seq, dim, device="cuda", dtype=dtype).uniform_(-1, 1)
                   for _ in range(3))
        o = torch.ops.ws.attention(q, k, v, causal)
        want = torch.nn.functional.scaled_dot_product_attention(
            q.float(), k.float(), v.float(), is_causal=causal)
        err = (o.float() - want).abs().max().item()
        good = err < 2e-2
        ok &= good
        t_ws = do_bench(lambda: torch.ops.ws.attention(q, k, v, causal))
        t_sdpa, backend = min(
            (sdpa_time(do_bench, sdpa_kernel, b, q, k, v, causal), b.name)
            for b in (SDPBackend.FLASH_ATTENTION, SDPBackend.CUDNN_ATTENTION))
        flops = 4 * batch * heads * seq * seq * dim / (2 if causal else 1)
        ratio = t_sdpa / t_ws
        name = "B%d H%d S%d D%d %s%s" % (batch, heads, seq, dim, str(dtype)[6:],
                                         " causal" if causal else "")
        weakest = min(weakest or (ratio, name), (ratio, name))
        print("%s: max error %.3g (%s); ws %.0f TFLOP/s, SDPA %.0f (%s, %.2fx)" % (
            name, err, "ok" if good else "WRONG", flops / t_ws / 1e9, flops / t_sdpa / 1e9,
            backend.lower(), ratio))
    print("weakest: %s at %.2fx SDPA" % (weakest[1], weakest[0]))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
