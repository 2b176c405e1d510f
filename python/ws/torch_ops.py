# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""ws's matmul and attention as PyTorch custom ops, which torch.compile
traces through their fake (shape-only) functions and calls as they are:

    import ws.torch_ops
    c = torch.ops.ws.matmul(a, b)               # a @ b.T, autotuned per shape
    o = torch.ops.ws.attention(q, k, v, True)   # causal flash attention

Importing this module registers them (a torch.library.Library with each op's
schema, its kernel, its fake function and its autograd formula; PyTorch 2.4
or later), not torch.library.custom_op, whose Python wrappers cost more host
time a call (4-11 us more from call to launch, measured on the H200), which
bounds a short kernel. The kernels are the
families in ws/kernels, compiled on first use (or read from the cache: a
machine without MLIR needs them compiled elsewhere, see docs/python.md).

torch.ops.ws.matmul(a, b): a (M x K) and b (N x K), both f16 or both bf16 on
one CUDA device; returns a @ b.T (M x N, same dtype), f32 accumulation. The
matmul family (matmul.mlir) is tuned over ws.families.MATMUL_CONFIGS per
(M, N, K, dtype) with ws.autotune, the winners kept on disk; its persistent
members run on their balanced grid (Kernel.balanced_grid). TMA reads rows
of 16-byte multiples, so a K that is not a multiple of 8 is padded with
zeros (a copy of both operands). It has a backward, built from the op
itself: dA = dC @ B and dB = dC^T @ A, each a ws.matmul.

torch.ops.ws.attention(q, k, v, causal=False, scale=None): q, k, v of shape
B x H x S x D (any strides TMA can take), D 64 or 128, f16 or bf16; returns
softmax(q k^T * scale) v (scale defaults to 1/sqrt(D)), B x H x S x D.
Forward only: ws has no attention backward kernel yet, and a backward
through it raises NotImplementedError.
"""

import math
from typing import Optional

import torch
from torch import Tensor

from .families import ATTENTION_BLOCK, ATTENTION_HEAD_DIMS, attention_kernel, matmul_family

try:
    from torch.library import register_autograd, register_fake
except ImportError as e:  # torch before 2.4
    raise ImportError("ws.torch_ops needs torch.library.register_fake and register_autograd "
                      "(PyTorch 2.4 or later; this is %s)" % torch.__version__) from e

DTYPES = {torch.float16: "f16", torch.bfloat16: "bf16"}
LOG2E = math.log2(math.e)

# the ops live as long as this library: the module keeps it. Their tags
# are custom_op's: Inductor keeps the strides the caller gave (attention
# takes views whose strides TMA can read; another layout could be refused),
# and they are safe for torch.compile to trace.
_TAGS = tuple(getattr(torch.Tag, t) for t in ("needs_fixed_stride_order", "pt2_compliant_tag")
              if hasattr(torch.Tag, t))
_LIB = torch.library.Library("ws", "DEF")
_LIB.define("matmul(Tensor a, Tensor b) -> Tensor", tags=_TAGS)
_LIB.define("attention(Tensor q, Tensor k, Tensor v, bool causal=False, float? scale=None) "
            "-> Tensor", tags=_TAGS)


def _dtype_of(op, *tensors):
    dtype = tensors[0].dtype
    if dtype not in DTYPES or any(t.dtype != dtype for t in tensors):
        raise ValueError("ws.%s: the operands must be all float16 or all bfloat16 (got %s)"
                         % (op, ", ".join(str(t.dtype) for t in tensors)))
    if not all(t.is_cuda and t.device == tensors[0].device for t in tensors):
        raise ValueError("ws.%s: the operands must be on one CUDA device" % op)
    return DTYPES[dtype]


def matmul(a: Tensor, b: Tensor) -> Tensor:
    """a @ b.T with ws's autotuned matmul family (see the module)."""
    dtype = _dtype_of("matmul", a, b)
    if a.dim() != 2 or b.dim() != 2 or a.shape[1] != b.shape[1]:
        raise ValueError("ws.matmul: a is M x K and b is N x K (got %s and %s)"
                         % (tuple(a.shape), tuple(b.shape)))
    m, k = a.shape
    n = b.shape[0]
    if k % 8:  # zeros in K add nothing to a @ b.T
        a, b = (torch.nn.functional.pad(x, (0, 8 - k % 8)) for x in (a, b))
        k = a.shape[1]
    a, b = a.contiguous(), b.contiguous()
    # C's rows are padded to 16 bytes, which TMA's stores need
    pitch = -(-n // 8) * 8
    c = torch.empty(m, pitch, dtype=a.dtype, device=a.device)
    if m and n:
        matmul_family(dtype)(a, b, c[:, :n], m, n, k)
    return c if pitch == n else c[:, :n].contiguous()


def _matmul_fake(a, b):
    return a.new_empty((a.shape[0], b.shape[0]))


def _matmul_setup(ctx, inputs, output):
    ctx.save_for_backward(*inputs)


def _matmul_backward(ctx, grad):
    """C = A B^T: dA = dC B and dB = dC^T A, each as ws.matmul(x, y) =
    x y^T with the transposes made contiguous."""
    a, b = ctx.saved_tensors
    grad_a = grad_b = None
    if ctx.needs_input_grad[0]:
        grad_a = torch.ops.ws.matmul(grad, b.t())
    if ctx.needs_input_grad[1]:
        grad_b = torch.ops.ws.matmul(grad.t(), a.t())
    return grad_a, grad_b


def attention(q: Tensor, k: Tensor, v: Tensor, causal: bool = False,
              scale: Optional[float] = None) -> Tensor:
    """Flash-attention forward with ws's kernel (see the module)."""
    dtype = _dtype_of("attention", q, k, v)
    shape = q.shape
    if len(shape) != 4 or k.shape != shape or v.shape != shape:
        raise ValueError("ws.attention: q, k and v are B x H x S x D, all one shape (got %s, "
                         "%s, %s)" % (tuple(q.shape), tuple(k.shape), tuple(v.shape)))
    batch, heads, seq, dim = shape
    if dim not in ATTENTION_HEAD_DIMS:
        raise ValueError("ws.attention: the head dimension must be one of %s (got %d)"
                         % (", ".join(map(str, ATTENTION_HEAD_DIMS)), dim))
    o = q.new_empty(shape)
    if batch and heads and seq:
        scale = 1.0 / math.sqrt(dim) if scale is None else scale
        attention_kernel(dim, dtype, causal).launch(
            (-(-seq // ATTENTION_BLOCK), heads, batch), q, k, v, o, seq, scale * LOG2E)
    return o


def _attention_fake(q, k, v, causal=False, scale=None):
    return q.new_empty(q.shape)


def _attention_backward(ctx, grad):
    raise NotImplementedError("ws.attention is forward only: ws has no attention backward "
                              "kernel yet (call it under torch.no_grad(), or on tensors that "
                              "need no gradient)")


# each op's kernel for every device (the op refuses one that is not CUDA
# itself, with its own words), its fake function and its autograd formula
for _name, _kernel, _fake, _backward, _setup in (
        ("matmul", matmul, _matmul_fake, _matmul_backward, _matmul_setup),
        ("attention", attention, _attention_fake, _attention_backward,
         lambda ctx, inputs, output: None)):
    _LIB.impl(_name, _kernel, "CompositeExplicitAutograd")
    register_fake("ws::" + _name, _fake, lib=_LIB)
    register_autograd("ws::" + _name, _backward, setup_context=_setup, lib=_LIB)
