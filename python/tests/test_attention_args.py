# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""torch.ops.ws.attention's operand rules and runtime scalars
(ws.attention_args), without a GPU: the same functions are the op's fake
(shape-only) rules under torch.compile, so what passes here traces there.
The kernel's results are test_gpu.py's."""

import math

import pytest

torch = pytest.importorskip("torch")

from ws.attention_args import (LOG2E, attention_shapes, check_out, dense_like,  # noqa: E402
                               kernel_scalars)


def bshd(batch, seq, heads, dim, dtype=torch.bfloat16):
    """A B x H x S x D view of B x S x H x D storage, as a model's
    projections give it."""
    return torch.zeros(batch, seq, heads, dim, dtype=dtype).transpose(1, 2)


def test_grouped_query_heads_need_no_repeat():
    q, k = bshd(2, 100, 16, 128), bshd(2, 300, 4, 128)
    assert attention_shapes(q, k, k) == (2, 16, 4, 100, 300, 128)
    mqa = bshd(2, 300, 1, 128)
    assert attention_shapes(q, mqa, mqa)[2] == 1
    with pytest.raises(ValueError, match=r"K/V heads \(3\) must divide the query heads \(16\)"):
        attention_shapes(q, bshd(2, 300, 3, 128), bshd(2, 300, 3, 128))


def test_operand_shapes_are_checked():
    q = bshd(2, 100, 4, 64)
    with pytest.raises(ValueError, match="k and v need q's batch and head dimension"):
        attention_shapes(q, bshd(3, 100, 4, 64), bshd(3, 100, 4, 64))
    with pytest.raises(ValueError, match="one shape"):
        attention_shapes(q, bshd(2, 100, 4, 64), bshd(2, 101, 4, 64))
    with pytest.raises(ValueError, match="head dimension must be one of 64, 128, 256"):
        attention_shapes(*(bshd(1, 8, 1, 96),) * 3)
    with pytest.raises(ValueError, match="all float16 or all bfloat16"):
        attention_shapes(q, bshd(2, 100, 4, 64, torch.float16), bshd(2, 100, 4, 64))
    with pytest.raises(ValueError, match="all float16 or all bfloat16"):
        attention_shapes(*(bshd(1, 8, 1, 64, torch.float32),) * 3)


def test_strides_tma_cannot_read_are_refused():
    # a slice of a fused QKV projection: B x S x 3 x H x D, q = [:, :, 0]
    qkv = torch.zeros(2, 50, 3, 8, 64, dtype=torch.float16)
    q, k, v = (qkv[:, :, i].transpose(1, 2) for i in range(3))
    assert attention_shapes(q, k, v) == (2, 8, 8, 50, 50, 64)
    d_major = torch.zeros(1, 2, 64, 40, dtype=torch.float16).transpose(2, 3)
    with pytest.raises(ValueError, match="TMA cannot read q's strides"):
        attention_shapes(d_major, k[:1, :2], v[:1, :2])
    odd = torch.zeros(1, 2, 40, 65, dtype=torch.float16)[..., :64]  # rows of 130 bytes
    fine = torch.zeros(1, 2, 40, 64, dtype=torch.float16)
    with pytest.raises(ValueError, match=r"TMA cannot read k's strides \(5200, 2600, 65, 1\)"):
        attention_shapes(fine, odd, fine)


def test_options_are_checked():
    q = bshd(3, 10, 2, 64)
    with pytest.raises(ValueError, match="causal_align is 'top_left' or 'bottom_right'"):
        attention_shapes(q, q, q, causal_align="bottom-right")
    lengths = torch.tensor([1, 2, 3], dtype=torch.int32)
    assert attention_shapes(q, q, q, kv_start=lengths, kv_end=lengths)[0] == 3
    for bad in (lengths[:2], lengths.long(), lengths.view(3, 1)):
        with pytest.raises(ValueError, match="kv_end must be a 1-D int32 tensor of one entry "
                                             r"per batch \(3\)"):
            attention_shapes(q, q, q, kv_end=bad)
    for name in ("scale", "softcap"):
        for bad in (0.0, -1.0, float("nan")):
            with pytest.raises(ValueError, match="%s must be positive" % name):
                attention_shapes(q, q, q, **{name: bad})


def test_the_output_takes_the_layout_of_q():
    q = bshd(2, 100, 16, 128)
    o = dense_like(q)
    assert o.shape == q.shape and o.stride() == q.stride()
    assert o.transpose(1, 2).is_contiguous()  # back to B x S x H x D, no copy
    plain = torch.zeros(2, 16, 100, 128, dtype=torch.float16)
    assert dense_like(plain).is_contiguous()
    sliced = torch.zeros(2, 50, 3, 8, 64, dtype=torch.float16)[:, :, 0].transpose(1, 2)
    o = dense_like(sliced)  # not dense itself: the output is, in its order
    assert o.transpose(1, 2).is_contiguous() and o.shape == sliced.shape


def test_out_is_checked():
    q = bshd(2, 100, 4, 64)
    check_out(q, torch.zeros(2, 100, 4, 64, dtype=torch.bfloat16).transpose(1, 2))
    for bad in (torch.zeros(2, 4, 100, 64, dtype=torch.float16),
                torch.zeros(2, 4, 101, 64, dtype=torch.bfloat16),
                torch.zeros(2, 4, 64, 100, dtype=torch.bfloat16).transpose(2, 3)):
        with pytest.raises(ValueError, match="out must be a torch.bfloat16 tensor of q's shape"):
            check_out(q, bad)


def test_causal_alignment_sets_the_diagonal():
    # query i sees key j when j <= i + diag
    assert kernel_scalars(100, 300, 128, False, "top_left", None, None)[0] == 300
    assert kernel_scalars(100, 300, 128, True, "top_left", None, None)[0] == 0
    assert kernel_scalars(100, 300, 128, True, "bottom_right", None, None)[0] == 200
    assert kernel_scalars(300, 300, 128, True, "bottom_right", None, None)[0] == 0


def test_scale_and_soft_cap_factors():
    _, factor, cap = kernel_scalars(8, 8, 64, False, "top_left", None, None)
    assert factor == pytest.approx(LOG2E / 8) and cap == 0.0
    _, factor, _ = kernel_scalars(8, 8, 64, False, "top_left", 0.5, None)
    assert factor == pytest.approx(0.5 * LOG2E)
    # cap * tanh(s * scale / cap), in the log2 domain
    _, factor, cap = kernel_scalars(8, 8, 256, False, "top_left", None, 50.0)
    assert factor == pytest.approx(1 / (16 * 50.0)) and cap == pytest.approx(50.0 / math.log(2))


def test_which_member_needs_key_bounds():
    from ws.attention_args import needs_bounds
    ones = torch.ones(2, dtype=torch.int32)
    assert not needs_bounds(100, 100, False, "top_left", None, None)
    assert not needs_bounds(100, 300, True, "bottom_right", None, None)
    assert not needs_bounds(100, 300, True, "top_left", None, None)
    # top-left with more queries than keys: row 299 would see keys past 100
    assert needs_bounds(300, 100, True, "top_left", None, None)
    assert not needs_bounds(300, 100, False, "top_left", None, None)
    assert needs_bounds(100, 100, False, "top_left", ones, None)
    assert needs_bounds(100, 100, True, "top_left", None, ones)


def test_the_backwards_operands():
    """attention_bwd's grad and o take q's shape and dtype, lse is
    B x Hq x Sq float32; the rows the kernels read are 16 bytes apart."""
    from ws.attention_args import check_grad_args, lse_rows, softmax_scale
    q = torch.empty(2, 4, 37, 64, dtype=torch.bfloat16)
    lse = torch.empty(2, 4, 37)
    check_grad_args(q, torch.empty_like(q), torch.empty_like(q), lse)
    with pytest.raises(ValueError, match="backward's grad must be"):
        check_grad_args(q, torch.empty(2, 4, 36, 64, dtype=torch.bfloat16), q, lse)
    with pytest.raises(ValueError, match="backward's o must be"):
        check_grad_args(q, q, q.float(), lse)
    with pytest.raises(ValueError, match=r"lse must be a float32 tensor of shape \(2, 4, 37\)"):
        check_grad_args(q, q, q, lse.double())
    rows = lse_rows(q)
    assert rows.shape == (2, 4, 1, 37) and rows.stride() == (160, 40, 40, 1)
    assert softmax_scale(64, None) == 0.125 and softmax_scale(64, 0.5) == 0.5


def test_the_backward_refuses_d256_with_the_reason():
    """The rule the backward's fake function applies at trace time."""
    from ws.attention_args import check_backward_head_dim
    check_backward_head_dim(64)
    check_backward_head_dim(128)
    with pytest.raises(ValueError, match="D = 256 a block's dK and dV"):
        check_backward_head_dim(256)


def test_a_packed_batchs_sequence_starts():
    """seq_start from sequence ids (transformers' packed-sequence indices),
    the rows the kernels read, and the rules of the argument."""
    from ws.attention_args import check_packed, packed_starts, sequence_starts
    ids = torch.tensor([[0, 0, 1, 1, 1, 2], [4, 4, 4, 4, 4, 4]])
    starts = sequence_starts(ids)
    assert starts.dtype == torch.int32
    assert starts.tolist() == [[0, 0, 2, 2, 2, 5], [0, 0, 0, 0, 0, 0]]
    flat, rows = packed_starts(starts)
    assert flat.tolist() == [0, 0, 2, 2, 2, 5, 0, 0, 0, 0, 0, 0]
    assert rows.shape == (2, 1, 1, 6) and rows.dtype == torch.float32
    assert rows.stride()[0] * 4 % 16 == 0 and rows[:, 0, 0].tolist() == starts.tolist()
    q = bshd(2, 6, 4, 64)
    check_packed(q, q, True, None, None, starts)
    check_packed(q, q, False, None, None, None)  # no packed batch: nothing to check
    with pytest.raises(ValueError, match="seq_start must be a B x Sq int32 tensor"):
        check_packed(q, q, True, None, None, starts.long())
    with pytest.raises(ValueError, match="seq_start must be a B x Sq int32 tensor"):
        check_packed(q, q, True, None, None, starts[:, :5])
    with pytest.raises(ValueError, match="takes causal attention with as many keys"):
        check_packed(q, q, False, None, None, starts)
    with pytest.raises(ValueError, match="takes causal attention with as many keys"):
        check_packed(q, bshd(2, 7, 4, 64), True, None, None, starts)
    with pytest.raises(ValueError, match="no kv_start or kv_end"):
        check_packed(q, q, True, torch.zeros(2, dtype=torch.int32), None, starts)
