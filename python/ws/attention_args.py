# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The rules and the arguments of torch.ops.ws.attention, apart from the op
so that they hold without a GPU and without torch.library: the same rules
apply to real tensors, to torch.compile's fake ones and to the CPU tests.

attention_shapes() checks q, k, v and the options and gives the sizes;
kernel_scalars() turns the options into attention.mlir's runtime scalars;
dense_like() makes the output in q's layout. See ws/kernels/attention.mlir
for what each scalar means to the kernel.
"""

import math
from typing import Optional

import torch

from .families import ATTENTION_BWD_HEAD_DIMS, ATTENTION_HEAD_DIMS, backward_head_dim_error

CAUSAL_ALIGNS = ("top_left", "bottom_right")
LOG2E = math.log2(math.e)
_DTYPES = (torch.float16, torch.bfloat16)


def tma_strides_ok(t) -> bool:
    """Whether TMA can read or write `t` as it is: its innermost stride 1
    element, every other stride of a dimension longer than 1 a multiple of
    16 bytes (the launcher checks the base's 16 bytes as well)."""
    size = t.element_size()
    return (t.shape[-1] == 1 or t.stride(-1) == 1) and all(
        t.stride(d) * size % 16 == 0 for d in range(t.dim() - 1) if t.shape[d] > 1)


def attention_shapes(q, k, v, causal_align: str = "top_left", kv_start=None, kv_end=None,
                     scale: Optional[float] = None, softcap: Optional[float] = None):
    """Checks the operands of torch.ops.ws.attention: q B x Hq x Sq x D, k and
    v B x Hkv x Skv x D with Hkv dividing Hq, D one of ATTENTION_HEAD_DIMS,
    all float16 or all bfloat16 on one device, strides TMA can read;
    kv_start and kv_end None or one int32 per batch; scale and softcap
    positive. Returns (B, Hq, Hkv, Sq, Skv, D); raises ValueError naming the
    rule."""
    if q.dtype not in _DTYPES or k.dtype != q.dtype or v.dtype != q.dtype:
        raise ValueError("ws.attention: the operands must be all float16 or all bfloat16 "
                         "(got %s, %s, %s)" % (q.dtype, k.dtype, v.dtype))
    if k.device != q.device or v.device != q.device:
        raise ValueError("ws.attention: the operands must be on one device (got %s, %s, %s)"
                         % (q.device, k.device, v.device))
    if q.dim() != 4 or k.dim() != 4 or tuple(k.shape) != tuple(v.shape):
        raise ValueError("ws.attention: q is B x Hq x Sq x D, k and v B x Hkv x Skv x D, one "
                         "shape (got %s, %s, %s)"
                         % (tuple(q.shape), tuple(k.shape), tuple(v.shape)))
    batch, heads, qlen, dim = q.shape
    kv_heads, kvlen = k.shape[1], k.shape[2]
    if k.shape[0] != batch or k.shape[3] != dim:
        raise ValueError("ws.attention: k and v need q's batch and head dimension (q %s, k %s)"
                         % (tuple(q.shape), tuple(k.shape)))
    if kv_heads < 1 or heads % kv_heads:
        raise ValueError("ws.attention: the K/V heads (%d) must divide the query heads (%d), "
                         "as grouped-query attention's do" % (kv_heads, heads))
    if dim not in ATTENTION_HEAD_DIMS:
        raise ValueError("ws.attention: the head dimension must be one of %s (got %d)"
                         % (", ".join(map(str, ATTENTION_HEAD_DIMS)), dim))
    for name, t in (("q", q), ("k", k), ("v", v)):
        if not tma_strides_ok(t):
            raise ValueError("ws.attention: TMA cannot read %s's strides %s: the head "
                             "dimension's must be 1 and every other a multiple of 16 bytes"
                             % (name, tuple(t.stride())))
    if causal_align not in CAUSAL_ALIGNS:
        raise ValueError("ws.attention: causal_align is %s (got %r)"
                         % (" or ".join(map(repr, CAUSAL_ALIGNS)), causal_align))
    for name, t in (("kv_start", kv_start), ("kv_end", kv_end)):
        if t is not None and (t.dim() != 1 or t.shape[0] != batch or t.dtype != torch.int32
                              or t.device != q.device):
            raise ValueError("ws.attention: %s must be a 1-D int32 tensor of one entry per "
                             "batch (%d) on q's device (got %s of %s on %s)"
                             % (name, batch, tuple(t.shape), t.dtype, t.device))
    for name, x in (("scale", scale), ("softcap", softcap)):
        if x is not None and not x > 0:
            raise ValueError("ws.attention: %s must be positive (got %r)" % (name, x))
    return batch, heads, kv_heads, qlen, kvlen, dim


def check_packed(q, k, causal: bool, kv_start, kv_end, seq_start):
    """Checks seq_start, a packed batch's (several sequences one after
    another in each row): None, or B x Sq int32 on q's device, token i of
    row b starting its sequence at key seq_start[b, i]; it needs causal
    attention over as many keys as queries, and no per-batch key bounds
    beside it."""
    if seq_start is None:
        return
    batch, qlen = q.shape[0], q.shape[2]
    if seq_start.dim() != 2 or tuple(seq_start.shape) != (batch, qlen) \
            or seq_start.dtype != torch.int32 or seq_start.device != q.device:
        raise ValueError("ws.attention: seq_start must be a B x Sq int32 tensor (%d x %d) on "
                         "q's device (got %s of %s on %s)"
                         % (batch, qlen, tuple(seq_start.shape), seq_start.dtype,
                            seq_start.device))
    if not causal or k.shape[2] != qlen or kv_start is not None or kv_end is not None:
        raise ValueError("ws.attention: seq_start (a packed batch) takes causal attention "
                         "with as many keys as queries (%d and %d) and no kv_start or kv_end"
                         % (k.shape[2], qlen))


def sequence_starts(sequence_ids):
    """seq_start from a packed batch's sequence ids (B x S integers, a run
    of equal ids a sequence, as transformers' find_packed_sequence_indices
    gives them): each token's first token of its run, as B x S int32,
    computed on the device without a sync."""
    ids = sequence_ids
    first = torch.ones_like(ids, dtype=torch.bool)
    first[:, 1:] = ids[:, 1:] != ids[:, :-1]
    index = torch.arange(ids.shape[-1], device=ids.device, dtype=torch.int32).expand_as(ids)
    marks = torch.where(first, index, torch.zeros_like(index))
    return marks.cummax(dim=-1).values.to(torch.int32)


def packed_starts(seq_start):
    """A packed batch's starts as the kernels read them: the int32 array
    (B * Sq, dense) and the f32 rows (B x 1 x 1 x Sq, rows 16 bytes apart)."""
    dense = seq_start.contiguous()
    rows = row_vector(seq_start, seq_start.shape[0], 1, seq_start.shape[1])
    rows[:, 0, 0].copy_(dense)
    return dense.view(-1), rows


def check_out(q, out):
    """Checks attention_out's `out`: q's shape, dtype and device, strides TMA
    can write (a B x S x H x D tensor's transposed view, say)."""
    if tuple(out.shape) != tuple(q.shape) or out.dtype != q.dtype or out.device != q.device \
            or not tma_strides_ok(out):
        raise ValueError("ws.attention: out must be a %s tensor of q's shape %s on %s, with "
                         "strides TMA can write (got %s of %s on %s, strides %s)"
                         % (q.dtype, tuple(q.shape), q.device, tuple(out.shape), out.dtype,
                            out.device, tuple(out.stride())))


def needs_grad(q, k, v) -> bool:
    """Whether a gradient may be asked for of attention on q, k and v:
    grad mode is on and one of them requires one (then the forward keeps
    the log-sum-exp for the backward)."""
    return torch.is_grad_enabled() and (q.requires_grad or k.requires_grad or v.requires_grad)


def check_grad_args(q, grad, o, lse):
    """Checks attention_bwd's grad and o (q's shape and dtype) and lse
    (B x Hq x Sq float32), all on q's device."""
    for name, t in (("grad", grad), ("o", o)):
        if tuple(t.shape) != tuple(q.shape) or t.dtype != q.dtype or t.device != q.device:
            raise ValueError("ws.attention: the backward's %s must be a %s tensor of q's shape "
                             "%s on %s (got %s of %s on %s)"
                             % (name, q.dtype, tuple(q.shape), q.device, tuple(t.shape),
                                t.dtype, t.device))
    if tuple(lse.shape) != tuple(q.shape[:3]) or lse.dtype != torch.float32 \
            or lse.device != q.device:
        raise ValueError("ws.attention: the backward's lse must be a float32 tensor of shape "
                         "%s (B x Hq x Sq) on %s (got %s of %s on %s)"
                         % (tuple(q.shape[:3]), q.device, tuple(lse.shape), lse.dtype,
                            lse.device))


def check_backward_head_dim(dim: int):
    """Refuses a head dimension the backward lacks (ws.families'
    ATTENTION_BWD_HEAD_DIMS), with the reason."""
    if dim not in ATTENTION_BWD_HEAD_DIMS:
        raise ValueError(backward_head_dim_error(dim))


def row_vector(like, batch: int, heads: int, length: int):
    """An empty B x H x 1 x S f32 tensor on like's device, a view of
    B x H x 1 x S' with S' = S rounded up to 4, so that TMA's rows are 16
    bytes apart."""
    return like.new_empty((batch, heads, 1, -(-length // 4) * 4),
                          dtype=torch.float32)[..., :length]


def lse_rows(q):
    """The log-sum-exp's and Delta's rows: row_vector(B, Hq, Sq)."""
    batch, heads, qlen = q.shape[:3]
    return row_vector(q, batch, heads, qlen)


def softmax_scale(dim: int, scale: Optional[float]) -> float:
    """The softmax scale: the one given, or 1/sqrt(D)."""
    return 1.0 / math.sqrt(dim) if scale is None else scale


def diagonal(qlen: int, kvlen: int, causal: bool, causal_align: str) -> int:
    """attention.mlir's %diag: query i sees key j when j <= i + diag (0
    top-left, Skv - Sq bottom-right, Skv when not causal: no key is past
    it)."""
    if not causal:
        return kvlen
    return kvlen - qlen if causal_align == "bottom_right" else 0


def kernel_scalars(qlen: int, kvlen: int, dim: int, causal: bool, causal_align: str,
                   scale: Optional[float], softcap: Optional[float]):
    """attention.mlir's %diag, %scale and %cap for these options: the
    diagonal; the scores' factor in the log2 domain, or with the soft cap
    tanh's factor and the cap's."""
    diag = diagonal(qlen, kvlen, causal, causal_align)
    scale = softmax_scale(dim, scale)
    if softcap:  # cap * tanh(s * scale / cap)
        return diag, scale / softcap, softcap * LOG2E
    return diag, scale * LOG2E, 0.0


def needs_bounds(qlen: int, kvlen: int, causal: bool, causal_align: str, kv_start,
                 kv_end) -> bool:
    """Whether the launch needs attention.mlir's BOUNDED member: per-batch
    key bounds were given, or a causal diagonal lets a stored query row see
    keys past Skv (top-left with Sq > Skv)."""
    if kv_start is not None or kv_end is not None:
        return True
    return causal and qlen + diagonal(qlen, kvlen, causal, causal_align) > kvlen


def dense_like(q):
    """An empty tensor of q's shape, dense, its dimensions in the order of
    q's strides (ties keep their order): a B x H x S x D view of
    B x S x H x D storage gets an output of that storage, which transposes
    back without a copy."""
    order = sorted(range(q.dim()), key=lambda d: -q.stride(d))
    out = q.new_empty([q.shape[d] for d in order])
    return out.permute([order.index(d) for d in range(q.dim())])
