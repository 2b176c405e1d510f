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
bucket of shapes (ws.families.matmul_key: M's tile count rounded up to a
power of two, N, K, the dtype), bounded by WS_TUNE_BUDGET seconds and
WS_TUNE_CONFIGS members when set, the winners kept on disk; its persistent
members run on their balanced grid (Kernel.balanced_grid). TMA reads rows
of 16-byte multiples, so a K that is not a multiple of 8 is padded with
zeros (a copy of both operands). It has a backward, built from the op
itself: dA = dC @ B and dB = dC^T @ A, each a ws.matmul.

torch.ops.ws.attention(q, k, v, causal=False, scale=None, softcap=None,
causal_align="top_left", kv_start=None, kv_end=None): flash attention
forward, softmax(q k^T * scale) v, on the model's tensors as they are:
- q is B x Hq x Sq x D, k and v B x Hkv x Skv x D: grouped-query and
  multi-query heads read K/V head h // (Hq / Hkv), nothing repeated;
- any strides TMA can read (B x S x H x D storage seen through
  .transpose(1, 2), a slice of a fused QKV projection); the output takes
  q's layout (dense, its dimensions in the order of q's strides), so that
  transposing it back costs no copy; torch.ops.ws.attention_out(q, k, v,
  out, ...) writes into a tensor of the caller's instead;
- D 64, 128 or 256, f16 or bf16; scale defaults to 1/sqrt(D);
- softcap: the logit soft cap, softcap * tanh(s / softcap) on the scaled
  scores (Gemma 2's);
- causal with causal_align "top_left" (query i sees keys 0..i) or
  "bottom_right" (keys 0..i + Skv - Sq: a chunk of new queries against a
  cache, as chunked prefill and a speculative verify step need);
- kv_start, kv_end: per-batch int32 key bounds, key j of batch b seen when
  kv_start[b] <= j < kv_end[b] (left or right padding: a padded batch
  exact without a mask tensor). A query row that sees no key gets zeros;
- seq_start: a packed batch (several sequences one after another in each
  row, causal, Sq = Skv): B x Sq int32, token i of row b starting its
  sequence at seq_start[b, i]; query i sees the keys seq_start[b, i]..i
  (ws.attention_args.sequence_starts makes it from sequence ids).
torch.ops.ws.attention_lse(...) also returns each query row's log-sum-exp
(B x Hq x Sq f32, log2 domain), what a backward recomputes P from.
The rules (ws.attention_args) hold for fake tensors too, so torch.compile
refuses at trace time what a launch would.

It has a backward (D 64 and 128): where a gradient may be asked for,
torch.ops.ws.attention runs attention_lse, whose autograd formula is
torch.ops.ws.attention_bwd(grad, q, k, v, o, lse, ...) -> (dq, dk, dv):
attention_bwd.mlir's three kernels (Delta = rowsum(dO * O); dK and dV, a
block per 128 keys, grouped-query heads summed in the block; dQ, a block
per 128 queries), every sum in a fixed order (deterministic). Without a
gradient it runs attention_fwd, the forward alone.
"""

from typing import Optional

import torch
from torch import Tensor

from .attention_args import attention_shapes, check_backward_head_dim, check_grad_args, \
    check_out, check_packed, dense_like, kernel_scalars, lse_rows, needs_bounds, needs_grad, \
    packed_starts, softmax_scale, tma_strides_ok
from .families import ATTENTION_BLOCK, ATTENTION_BWD_KEYS, ATTENTION_BWD_QUERY_ROWS, \
    ATTENTION_DELTA_ROWS, attention_bwd_kernels, attention_kernel, matmul_family

try:
    from torch.library import register_autograd, register_fake
except ImportError as e:  # torch before 2.4
    raise ImportError("ws.torch_ops needs torch.library.register_fake and register_autograd "
                      "(PyTorch 2.4 or later; this is %s)" % torch.__version__) from e

DTYPES = {torch.float16: "f16", torch.bfloat16: "bf16"}

# the ops live as long as this library: the module keeps it. Their tags
# are custom_op's: Inductor keeps the strides the caller gave (attention
# takes views whose strides TMA can read; another layout could be refused),
# and they are safe for torch.compile to trace.
_TAGS = tuple(getattr(torch.Tag, t) for t in ("needs_fixed_stride_order", "pt2_compliant_tag")
              if hasattr(torch.Tag, t))
_LIB = torch.library.Library("ws", "DEF")
_NO_ARRAY = {}  # an empty i32 array per device: no padding bound given
_LIB.define("matmul(Tensor a, Tensor b) -> Tensor", tags=_TAGS)
_ATTENTION_ARGS = ("bool causal=False, float? scale=None, float? softcap=None, "
                   "str causal_align=\"top_left\", Tensor? kv_start=None, Tensor? kv_end=None, "
                   "Tensor? seq_start=None")
_LIB.define("attention(Tensor q, Tensor k, Tensor v, %s) -> Tensor" % _ATTENTION_ARGS,
            tags=_TAGS)
_LIB.define("attention_fwd(Tensor q, Tensor k, Tensor v, %s) -> Tensor" % _ATTENTION_ARGS,
            tags=_TAGS)
_LIB.define("attention_bwd(Tensor grad, Tensor q, Tensor k, Tensor v, Tensor o, Tensor lse, "
            "%s) -> (Tensor, Tensor, Tensor)" % _ATTENTION_ARGS, tags=_TAGS)
_LIB.define("attention_out(Tensor q, Tensor k, Tensor v, Tensor(a!) out, %s) -> ()"
            % _ATTENTION_ARGS, tags=_TAGS)
_LIB.define("attention_lse(Tensor q, Tensor k, Tensor v, %s) -> (Tensor, Tensor)"
            % _ATTENTION_ARGS, tags=_TAGS)


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


def _mask_arrays(device, kv_start, kv_end, seq_start):
    """The kernels' %starts and %ends (the tensors given, or an empty i32
    array, one per device, kept, for a bound not given) and a packed
    member's %seqf (None when seq_start is): a packed batch's %starts is
    seq_start, each token's (ws.attention_args.packed_starts)."""
    none = _NO_ARRAY.get(device)
    if none is None:
        none = _NO_ARRAY.setdefault(device, torch.empty(0, dtype=torch.int32, device=device))
    if seq_start is not None:
        starts, seqf = packed_starts(seq_start)
        return starts, none, seqf
    return (none if kv_start is None else kv_start), (none if kv_end is None else kv_end), None


def _attention_launch(q, k, v, o, causal, scale, softcap, causal_align, kv_start, kv_end,
                      seq_start, lse=None):
    """Runs attention.mlir into `o` (B x Hq x Sq x D, any strides TMA can
    write), and each row's log-sum-exp into `lse` (B x Hq x 1 x Sq f32)
    when given; the operands' rules are checked."""
    batch, heads, kv_heads, qlen, kvlen, dim = attention_shapes(
        q, k, v, causal_align, kv_start, kv_end, scale, softcap)
    check_packed(q, k, causal, kv_start, kv_end, seq_start)
    check_out(q, o)
    if not (batch and heads and qlen):
        return
    if not kvlen:  # no key: every row sees none, and stores zeros
        o.zero_()
        if lse is not None:
            lse.fill_(-1e30)
        return
    _dtype_of("attention", q, k, v)  # on CUDA
    starts, ends, seqf = _mask_arrays(q.device, kv_start, kv_end, seq_start)
    diag, factor, cap = kernel_scalars(qlen, kvlen, dim, causal, causal_align, scale, softcap)
    bounded = needs_bounds(qlen, kvlen, causal, causal_align, kv_start, kv_end)
    attention_kernel(dim, DTYPES[q.dtype], softcap=bool(softcap), causal=bool(causal),
                     bounded=bounded, lse=lse is not None, packed=seqf is not None).launch(
        (-(-qlen // ATTENTION_BLOCK), heads, batch), q, k, v, o,
        *(() if lse is None else (lse,)), *(() if seqf is None else (seqf,)), qlen, kvlen,
        starts, ends, diag, heads // kv_heads, factor, cap)


def attention(q: Tensor, k: Tensor, v: Tensor, causal: bool = False,
              scale: Optional[float] = None, softcap: Optional[float] = None,
              causal_align: str = "top_left", kv_start: Optional[Tensor] = None,
              kv_end: Optional[Tensor] = None, seq_start: Optional[Tensor] = None) -> Tensor:
    """Flash attention with ws's kernels (see the module); returns a new
    tensor in q's layout. Where a gradient may be asked for, the forward
    keeps the row log-sum-exp for the backward (attention_lse, whose
    autograd formula is ws's backward); elsewhere it runs the forward
    alone (attention_fwd). A composite op, so that autograd and
    torch.compile see whichever of the two runs."""
    if needs_grad(q, k, v):
        return torch.ops.ws.attention_lse(q, k, v, causal, scale, softcap, causal_align,
                                          kv_start, kv_end, seq_start)[0]
    return torch.ops.ws.attention_fwd(q, k, v, causal, scale, softcap, causal_align, kv_start,
                                      kv_end, seq_start)


def attention_fwd(q: Tensor, k: Tensor, v: Tensor, causal: bool = False,
                  scale: Optional[float] = None, softcap: Optional[float] = None,
                  causal_align: str = "top_left", kv_start: Optional[Tensor] = None,
                  kv_end: Optional[Tensor] = None, seq_start: Optional[Tensor] = None) -> Tensor:
    """The forward alone, saving nothing for a backward (torch.ops.ws.attention
    without a gradient)."""
    o = dense_like(q)
    _attention_launch(q, k, v, o, causal, scale, softcap, causal_align, kv_start, kv_end,
                      seq_start)
    return o


def attention_out(q: Tensor, k: Tensor, v: Tensor, out: Tensor, causal: bool = False,
                  scale: Optional[float] = None, softcap: Optional[float] = None,
                  causal_align: str = "top_left", kv_start: Optional[Tensor] = None,
                  kv_end: Optional[Tensor] = None, seq_start: Optional[Tensor] = None) -> None:
    """torch.ops.ws.attention writing into `out` (B x Hq x Sq x D, any
    strides TMA can write); no gradient."""
    _attention_launch(q, k, v, out, causal, scale, softcap, causal_align, kv_start, kv_end,
                      seq_start)


def _lse_like(q):
    """B x Hq x Sq f32 for the log-sum-exp, a view of B x Hq x 1 x Sq' whose
    rows TMA stores (Sq' = Sq rounded up to 4: 16-byte rows); returns
    (the B x Hq x 1 x Sq view the kernel writes, the B x Hq x Sq one)."""
    rows = lse_rows(q)
    return rows, rows[:, :, 0]


def attention_lse(q: Tensor, k: Tensor, v: Tensor, causal: bool = False,
                  scale: Optional[float] = None, softcap: Optional[float] = None,
                  causal_align: str = "top_left", kv_start: Optional[Tensor] = None,
                  kv_end: Optional[Tensor] = None, seq_start: Optional[Tensor] = None):
    """torch.ops.ws.attention that also returns each query row's
    log-sum-exp (B x Hq x Sq f32, in the log2 domain: log2 of the sum of
    exp(score * scale)), what a backward recomputes P from."""
    o = dense_like(q)
    rows, lse = _lse_like(q)
    _attention_launch(q, k, v, o, causal, scale, softcap, causal_align, kv_start, kv_end,
                      seq_start, rows)
    return o, lse


def _attention_lse_fake(q, k, v, causal=False, scale=None, softcap=None,
                        causal_align="top_left", kv_start=None, kv_end=None, seq_start=None):
    _fake_rules(q, k, v, causal, scale, softcap, causal_align, kv_start, kv_end, seq_start)
    return dense_like(q), _lse_like(q)[1]


def _fake_rules(q, k, v, causal, scale, softcap, causal_align, kv_start, kv_end, seq_start):
    """The rules a launch checks, at trace time."""
    attention_shapes(q, k, v, causal_align, kv_start, kv_end, scale, softcap)
    check_packed(q, k, causal, kv_start, kv_end, seq_start)


def _attention_fake(q, k, v, causal=False, scale=None, softcap=None, causal_align="top_left",
                    kv_start=None, kv_end=None, seq_start=None):
    _fake_rules(q, k, v, causal, scale, softcap, causal_align, kv_start, kv_end, seq_start)
    return dense_like(q)


def _attention_out_fake(q, k, v, out, causal=False, scale=None, softcap=None,
                        causal_align="top_left", kv_start=None, kv_end=None, seq_start=None):
    _fake_rules(q, k, v, causal, scale, softcap, causal_align, kv_start, kv_end, seq_start)
    check_out(q, out)


# the options after q, k and v, with their defaults (autograd's inputs may
# stop at the last one given)
_OPTION_DEFAULTS = (False, None, None, "top_left", None, None, None)


def attention_bwd(grad: Tensor, q: Tensor, k: Tensor, v: Tensor, o: Tensor, lse: Tensor,
                  causal: bool = False, scale: Optional[float] = None,
                  softcap: Optional[float] = None, causal_align: str = "top_left",
                  kv_start: Optional[Tensor] = None, kv_end: Optional[Tensor] = None,
                  seq_start: Optional[Tensor] = None):
    """The gradients (dq, dk, dv) of attention(q, k, v, ...) = o, given the
    output's gradient and attention_lse's log-sum-exp: attention_bwd.mlir's
    three kernels (Delta, then dK and dV, then dQ), each sum in a fixed
    order, so that the same inputs give the same bits. Each gradient takes
    its operand's layout."""
    batch, heads, kv_heads, qlen, kvlen, dim = attention_shapes(
        q, k, v, causal_align, kv_start, kv_end, scale, softcap)
    check_packed(q, k, causal, kv_start, kv_end, seq_start)
    check_grad_args(q, grad, o, lse)
    dq, dk, dv = dense_like(q), dense_like(k), dense_like(v)
    if not (batch and heads and qlen and kvlen):  # no score: no gradient
        for t in (dq, dk, dv):
            t.zero_()
        return dq, dk, dv
    dtype = _dtype_of("attention", q, k, v, grad, o)
    grad, o = (t if tma_strides_ok(t) else t.contiguous() for t in (grad, o))
    # the log-sum-exp as the B x Hq x 1 x Sq rows the kernels read
    lse4 = lse.as_strided((batch, heads, 1, qlen), (lse.stride(0), lse.stride(1),
                                                     lse.stride(1), lse.stride(2)))
    if not tma_strides_ok(lse4):
        lse4 = lse_rows(q)
        lse4.copy_(lse.unsqueeze(2))
    delta = lse_rows(q)
    starts, ends, seqf = _mask_arrays(q.device, kv_start, kv_end, seq_start)
    packed = () if seqf is None else (seqf,)
    diag, factor, cap = kernel_scalars(qlen, kvlen, dim, causal, causal_align, scale, softcap)
    bounded = needs_bounds(qlen, kvlen, causal, causal_align, kv_start, kv_end)
    kernels = attention_bwd_kernels(dim, dtype, softcap=bool(softcap), causal=bool(causal),
                                    bounded=bounded, packed=seqf is not None)
    dscale = softmax_scale(dim, scale)
    # Delta's blocks: about four waves of 132 SMs over all heads
    row_blocks = max(1, min(-(-qlen // ATTENTION_DELTA_ROWS), -(-528 // (batch * heads))))
    kernels.attention_delta.launch((row_blocks, heads, batch), o, grad, delta, qlen)
    kernels.attention_dkdv.launch((-(-kvlen // ATTENTION_BWD_KEYS), kv_heads, batch), q, k, v,
                                  grad, lse4, delta, dk, dv, *packed, qlen, kvlen, starts, ends,
                                  diag,
                                  heads // kv_heads, factor, cap, dscale)
    kernels.attention_dq.launch((-(-qlen // ATTENTION_BWD_QUERY_ROWS), heads, batch), q, k, v,
                                grad, lse4, delta, dq, *packed, qlen, kvlen, starts, ends, diag,
                                heads // kv_heads, factor, cap, dscale)
    return dq, dk, dv


def _attention_bwd_fake(grad, q, k, v, o, lse, causal=False, scale=None, softcap=None,
                        causal_align="top_left", kv_start=None, kv_end=None, seq_start=None):
    _fake_rules(q, k, v, causal, scale, softcap, causal_align, kv_start, kv_end, seq_start)
    check_grad_args(q, grad, o, lse)
    check_backward_head_dim(q.shape[-1])  # at trace time, as a launch would
    return dense_like(q), dense_like(k), dense_like(v)


def _attention_lse_setup(ctx, inputs, output):
    """Keeps what attention_bwd needs: q, k, v, o, the log-sum-exp and the
    options."""
    inputs = tuple(inputs) + _OPTION_DEFAULTS[len(inputs) - 3:]
    q, k, v = inputs[:3]
    ctx.options = inputs[3:7]
    starts, ends, seq_start = inputs[7:10]
    ctx.save_for_backward(q, k, v, output[0], output[1], starts, ends, seq_start)


def _attention_lse_backward(ctx, grad, grad_lse):
    """ws's attention backward; the log-sum-exp is a constant to autograd
    (as SDPA's own is): a gradient reaching it is not propagated."""
    q, k, v, o, lse, starts, ends, seq_start = ctx.saved_tensors
    dq, dk, dv = torch.ops.ws.attention_bwd(grad, q, k, v, o, lse, *ctx.options, starts, ends,
                                            seq_start)
    return dq, dk, dv, None, None, None, None, None, None, None


# each op's kernel for every device (the op refuses one that is not CUDA
# itself, with its own words), its fake function and its autograd formula
for _name, _kernel, _fake, _backward, _setup in (
        ("matmul", matmul, _matmul_fake, _matmul_backward, _matmul_setup),
        ("attention_lse", attention_lse, _attention_lse_fake, _attention_lse_backward,
         _attention_lse_setup)):
    _LIB.impl(_name, _kernel, "CompositeExplicitAutograd")
    register_fake("ws::" + _name, _fake, lib=_LIB)
    register_autograd("ws::" + _name, _backward, setup_context=_setup, lib=_LIB)
_LIB.impl("attention", attention, "CompositeImplicitAutograd")
for _name, _kernel, _fake in (("attention_fwd", attention_fwd, _attention_fake),
                              ("attention_out", attention_out, _attention_out_fake),
                              ("attention_bwd", attention_bwd, _attention_bwd_fake)):
    _LIB.impl(_name, _kernel, "CompositeExplicitAutograd")
    register_fake("ws::" + _name, _fake, lib=_LIB)
