# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""torch.ops.ws.attention's backward on the GPU: dq, dk and dv against
torch.autograd through an f32 reference, within twice PyTorch's own error
in the same dtype (SDPA's backward in that dtype against the same
reference); grouped-query heads, both causal alignments, key padding, the
soft cap, ragged and tiny lengths; bit-identical gradients run to run;
torch.compile(fullgraph=True) training steps; a small attention layer
trained on ws and on SDPA; a transformers model's backward. Says
"skipped: no GPU" without one; the rules alone are test_attention_args.py's."""

import pytest

# test_gpu_attention's import skips this module as it skips itself ("skipped:
# no GPU", no PyTorch 2.4, no CUDA Python bindings) and registers torch.ops.ws
from test_gpu_attention import bshd, reference, tiny_llama  # noqa: E402
import torch  # noqa: E402


def leaves(batch, heads, kv_heads, qlen, kvlen, dim, dtype):
    """q, k, v (B x H x S x D views of B x S x H x D storage, uniform) that
    need gradients, and the output's gradient."""
    q = bshd(batch, qlen, heads, dim, dtype).requires_grad_()
    k = bshd(batch, kvlen, kv_heads, dim, dtype).requires_grad_()
    v = bshd(batch, kvlen, kv_heads, dim, dtype).requires_grad_()
    grad = torch.empty(batch, heads, qlen, dim, device="cuda", dtype=dtype).uniform_(-1, 1)
    return q, k, v, grad


def grads_of(fn, q, k, v, grad):
    """(output, dq, dk, dv) of fn(q, k, v) with q, k, v detached leaves
    of their own (in fn's dtype)."""
    q, k, v = (t.detach().requires_grad_() for t in (q, k, v))
    out = fn(q, k, v)
    out.backward(grad.to(out.dtype))
    return out, q.grad, k.grad, v.grad


def error(got, want):
    return (got.float() - want).abs().max().item() / max(want.abs().max().item(), 1e-6)


def check_against_torch(options, q, k, v, grad, start=None, end=None, seq_start=None):
    """ws's gradients within twice the error of PyTorch's own in q's dtype
    (the reference run in that dtype), against the reference in f32."""
    causal, align = options.get("causal", False), options.get("causal_align", "top_left")
    scale, softcap = options.get("scale"), options.get("softcap")

    def ref(a, b, c):
        return reference(a, b, c, causal, align, start, end, scale, softcap,
                         seq_start=seq_start)

    def ref_low(a, b, c):  # the reference's products in the operands' dtype
        return reference(a, b, c, causal, align, start, end, scale, softcap, low=True,
                         seq_start=seq_start)

    want = grads_of(ref, *(t.float() for t in (q, k, v)), grad.float())
    torch_own = grads_of(ref_low, q, k, v, grad)
    got = grads_of(lambda a, b, c: torch.ops.ws.attention(a, b, c, kv_start=start, kv_end=end,
                                                          seq_start=seq_start, **options),
                   q, k, v, grad)
    for name, g, t, w in zip(("o", "dq", "dk", "dv"), got, torch_own, want):
        assert g.shape == w.shape and g.dtype == q.dtype, name
        assert torch.isfinite(g).all(), name
        assert error(g, w) <= 2 * error(t, w) + 2e-3, (name, error(g, w), error(t, w))


CASES = [  # batch, Hq, Hkv, Sq, Skv, D, dtype, options
    (2, 8, 2, 300, 300, 128, torch.bfloat16, dict(causal=True)),
    (2, 4, 4, 257, 257, 128, torch.bfloat16, {}),
    (2, 8, 1, 200, 200, 64, torch.float16, {}),
    (1, 4, 2, 513, 513, 64, torch.bfloat16, dict(causal=True)),
    (2, 4, 2, 130, 700, 128, torch.float16, dict(causal=True, causal_align="bottom_right")),
    (2, 4, 4, 256, 256, 128, torch.bfloat16, dict(softcap=30.0, scale=0.05)),
    (1, 2, 1, 190, 190, 64, torch.float16, dict(causal=True, softcap=20.0)),
    (1, 1, 1, 1, 1, 64, torch.float16, dict(causal=True)),
    (1, 1, 1, 1, 300, 128, torch.bfloat16, {}),
    (1, 1, 1, 129, 5, 128, torch.float16, {}),
    (1, 2, 2, 40, 40, 64, torch.bfloat16, dict(causal=True)),
]


@pytest.mark.parametrize("batch,heads,kv_heads,qlen,kvlen,dim,dtype,options", CASES)
def test_gradients_against_torch(batch, heads, kv_heads, qlen, kvlen, dim, dtype, options):
    torch.manual_seed(qlen * 31 + kvlen)
    q, k, v, grad = leaves(batch, heads, kv_heads, qlen, kvlen, dim, dtype)
    check_against_torch(options, q, k, v, grad)


@pytest.mark.parametrize("causal", [False, True])
def test_gradients_with_key_padding(causal):
    torch.manual_seed(5)
    q, k, v, grad = leaves(3, 4, 2, 200, 200, 64, torch.bfloat16)
    start = torch.tensor([0, 37, 0], dtype=torch.int32, device="cuda")
    end = torch.tensor([200, 200, 121], dtype=torch.int32, device="cuda")
    check_against_torch(dict(causal=causal, causal_align="bottom_right"), q, k, v, grad,
                        start, end)


@pytest.mark.parametrize("dim,softcap", [(64, None), (128, None), (128, 20.0)])
def test_gradients_of_a_packed_batch(dim, softcap):
    """seq_start: sequences packed in each row (ending inside a block, on
    its edge, of one token), each query's gradient from its own sequence's
    keys only, grouped heads summed."""
    from ws.attention_args import sequence_starts
    torch.manual_seed(dim)
    lengths = ([1, 130, 5, 200, 64], [128, 272])
    ids = torch.stack([torch.cat([torch.full((n,), i) for i, n in enumerate(row)])
                       for row in lengths]).cuda()
    q, k, v, grad = leaves(2, 4, 2, 400, 400, dim, torch.bfloat16)
    check_against_torch(dict(causal=True, softcap=softcap), q, k, v, grad,
                        seq_start=sequence_starts(ids))


def test_very_negative_scores_past_the_last_key_stay_finite():
    """Keys past Skv (zero-filled) in the last block of a full member: with
    every score near -18 nats, 2^-lse on them is past f16's range, so dQ
    masks them as the forward does instead of multiplying inf by K's
    zeros (a review of the kernel found the mask missing)."""
    torch.manual_seed(11)
    q = (1.5 + 0.3 * torch.randn(1, 2, 128, 64, device="cuda")).half().requires_grad_()
    k = (-1.5 + 0.3 * torch.randn(1, 2, 100, 64, device="cuda")).half().requires_grad_()
    v = torch.empty(1, 2, 100, 64, device="cuda", dtype=torch.float16).uniform_(-1, 1) \
        .requires_grad_()
    grad = torch.empty(1, 2, 128, 64, device="cuda", dtype=torch.float16).uniform_(-1, 1)
    check_against_torch({}, q, k, v, grad)


def test_gradients_are_bit_identical_run_to_run():
    torch.manual_seed(9)
    q, k, v, grad = leaves(2, 8, 2, 1000, 1000, 128, torch.bfloat16)
    first = grads_of(lambda a, b, c: torch.ops.ws.attention(a, b, c, True), q, k, v, grad)
    for _ in range(10):
        again = grads_of(lambda a, b, c: torch.ops.ws.attention(a, b, c, True), q, k, v, grad)
        for a, b in zip(first, again):
            assert torch.equal(a, b)


def test_no_grad_runs_the_forward_alone():
    q, k, v, _ = leaves(1, 2, 2, 64, 64, 64, torch.float16)
    with torch.no_grad():
        o = torch.ops.ws.attention(q, k, v)
    assert o.grad_fn is None
    o = torch.ops.ws.attention(q, k, v)
    assert o.grad_fn is not None


def test_compiled_training_step():
    """torch.compile(fullgraph=True) traces forward and backward through
    the op: the same gradients as eager."""
    torch.manual_seed(3)
    q, k, v, grad = leaves(2, 8, 2, 384, 384, 128, torch.bfloat16)

    def step(a, b, c):
        return torch.ops.ws.attention(a, b, c, True)

    eager = grads_of(step, q, k, v, grad)
    compiled = grads_of(torch.compile(step, fullgraph=True), q, k, v, grad)
    for a, b in zip(eager, compiled):
        assert torch.equal(a, b)


class Layer(torch.nn.Module):
    """A small causal self-attention layer with its projections."""

    def __init__(self, attention, dim=256, heads=4, head_dim=64):
        super().__init__()
        self.qkv = torch.nn.Linear(dim, 3 * heads * head_dim)
        self.out = torch.nn.Linear(heads * head_dim, dim)
        self.heads, self.head_dim, self.attention = heads, head_dim, attention

    def forward(self, x):
        batch, seq, _ = x.shape
        q, k, v = self.qkv(x).view(batch, seq, 3, self.heads, self.head_dim).unbind(2)
        o = self.attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2))
        return self.out(o.transpose(1, 2).reshape(batch, seq, -1))


def train(attention, steps=40):
    """Fits the layer to a fixed teacher (the same layer, other weights, on
    SDPA) with Adam; the losses of each step."""
    torch.manual_seed(1)
    sdpa = lambda q, k, v: torch.nn.functional.scaled_dot_product_attention(  # noqa: E731
        q, k, v, is_causal=True)
    teacher = Layer(sdpa).cuda().to(torch.bfloat16)
    x = torch.randn(4, 200, 256, device="cuda", dtype=torch.bfloat16)
    with torch.no_grad():
        target = teacher(x).float()
    torch.manual_seed(0)
    layer = Layer(attention).cuda().to(torch.bfloat16)
    opt = torch.optim.Adam(layer.parameters(), lr=1e-3)
    losses = []
    for _ in range(steps):
        loss = torch.nn.functional.mse_loss(layer(x).float(), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def test_a_layer_trains_as_with_sdpa():
    ws_losses = train(lambda q, k, v: torch.ops.ws.attention(q, k, v, True))
    sdpa_losses = train(lambda q, k, v: torch.nn.functional.scaled_dot_product_attention(
        q, k, v, is_causal=True))
    assert ws_losses[-1] < 0.5 * ws_losses[0], ws_losses  # it learns
    for a, b in zip(ws_losses, sdpa_losses):  # as SDPA's does
        assert abs(a - b) <= 5e-2 * abs(b), (ws_losses, sdpa_losses)


def test_transformers_model_backward():
    """A training step of the small Llama-style model: the loss and the
    weights' gradients as with SDPA, the attention on ws."""
    from ws import hf_attention
    hf_attention.register()
    ws_model, sdpa_model = tiny_llama("ws").train(), tiny_llama("sdpa").train()
    ids = torch.randint(0, 512, (2, 300), device="cuda")
    hf_attention.calls.clear()
    ws_loss = ws_model(ids, labels=ids).loss
    ws_loss.backward()
    assert hf_attention.calls == {"ws": 2}
    sdpa_loss = sdpa_model(ids, labels=ids).loss
    sdpa_loss.backward()
    assert abs(ws_loss.item() - sdpa_loss.item()) <= 1e-2 * abs(sdpa_loss.item())
    for (name, a), b in zip(ws_model.named_parameters(), sdpa_model.parameters()):
        if "self_attn" in name:  # the gradients that pass through attention's backward
            assert error(a.grad, b.grad.float()) <= 5e-2, name
