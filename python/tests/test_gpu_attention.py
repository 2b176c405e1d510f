# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""torch.ops.ws.attention on the GPU, each case against an f32 reference
with the same mask: grouped-query heads, B x S x H x D views in and out,
out= with guard bytes around it, both causal alignments, key padding, the
soft cap, D = 256, and the edges (S = 1, no key, one head). Says "skipped:
no GPU" without one; the rules alone are test_attention_args.py's."""

import math

import pytest

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("skipped: no GPU", allow_module_level=True)
if not hasattr(torch.library, "register_fake"):
    pytest.skip("skipped: ws.torch_ops needs PyTorch 2.4", allow_module_level=True)
try:
    import cuda.bindings.driver  # noqa: F401
except ImportError:
    pytest.skip("skipped: no CUDA Python bindings (pip install cuda-python)",
                allow_module_level=True)

import ws.torch_ops  # noqa: E402,F401  registers torch.ops.ws

GUARD = -77.0  # what no attention output holds: each output lies in [-1, 1]


def bshd(batch, seq, heads, dim, dtype):
    """Uniform B x H x S x D views of B x S x H x D storage."""
    return torch.empty(batch, seq, heads, dim, device="cuda", dtype=dtype).uniform_(-1, 1) \
        .transpose(1, 2)


def reference(q, k, v, causal=False, align="top_left", start=None, end=None, scale=None,
              softcap=None, low=False, seq_start=None):
    """The same attention in f32 with an explicit mask; a row that sees no
    key is zeros, as ws's. `low`: the products in q's dtype instead (the
    softmax in f32), as PyTorch's own low-precision attention runs;
    `seq_start`: a packed batch's (query i sees no key before
    seq_start[b, i])."""
    batch, heads, qlen, dim = q.shape
    kv_heads, kvlen = k.shape[1], k.shape[2]
    q, k, v = (t if low else t.float() for t in (q, k, v))
    k, v = (t.repeat_interleave(heads // kv_heads, dim=1) for t in (k, v))
    s = (q @ k.transpose(-1, -2)).float() * (1 / math.sqrt(dim) if scale is None else scale)
    if softcap:
        s = softcap * torch.tanh(s / softcap)
    j = torch.arange(kvlen, device="cuda")
    seen = torch.ones(batch, 1, qlen, kvlen, dtype=torch.bool, device="cuda")
    if start is not None:
        seen &= (j >= start.long()[:, None]).view(batch, 1, 1, kvlen)
    if end is not None:
        seen &= (j < end.long()[:, None]).view(batch, 1, 1, kvlen)
    if seq_start is not None:
        seen = seen & (j[None, None, :] >= seq_start.long()[:, :, None]).view(
            batch, 1, qlen, kvlen)
    if causal:
        diag = kvlen - qlen if align == "bottom_right" else 0
        i = torch.arange(qlen, device="cuda")
        seen &= (j[None, :] <= i[:, None] + diag).view(1, 1, qlen, kvlen)
    p = torch.softmax(s.masked_fill(~seen, float("-inf")), dim=-1).nan_to_num(0.0)
    return p.to(v.dtype) @ v


def close(got, want):
    err = (got.float() - want).abs().max().item()
    assert err < 2e-2, err


CASES = [  # batch, Hq, Hkv, Sq, Skv, D, dtype, options
    (2, 8, 2, 300, 300, 128, torch.bfloat16, dict(causal=True)),
    (2, 8, 1, 200, 200, 64, torch.float16, {}),
    (1, 4, 4, 1000, 1000, 256, torch.bfloat16, dict(causal=True)),
    (2, 4, 2, 130, 700, 128, torch.float16, dict(causal=True, causal_align="bottom_right")),
    (3, 2, 2, 1, 517, 64, torch.bfloat16, dict(causal=True, causal_align="bottom_right")),
    (2, 4, 4, 256, 256, 128, torch.bfloat16, dict(softcap=30.0, scale=0.05)),
    (1, 1, 1, 1, 1, 64, torch.float16, dict(causal=True)),
    (1, 1, 1, 129, 5, 128, torch.float16, {}),
]


@pytest.mark.parametrize("batch,heads,kv_heads,qlen,kvlen,dim,dtype,options", CASES)
def test_against_the_reference(batch, heads, kv_heads, qlen, kvlen, dim, dtype, options):
    q = bshd(batch, qlen, heads, dim, dtype)
    k, v = bshd(batch, kvlen, kv_heads, dim, dtype), bshd(batch, kvlen, kv_heads, dim, dtype)
    o = torch.ops.ws.attention(q, k, v, **options)
    assert o.transpose(1, 2).is_contiguous()  # q's layout: back to B x S x H x D, no copy
    want = reference(q, k, v, options.get("causal", False),
                     options.get("causal_align", "top_left"), None, None,
                     options.get("scale"), options.get("softcap"))
    close(o, want)


@pytest.mark.parametrize("causal", [False, True])
def test_key_padding_left_and_right(causal):
    """A padded batch: each sequence's keys between kv_start and kv_end
    (left padding for one, right for another, none, a single key, and an
    empty one whose rows are zeros); only the rows that see a key count."""
    batch, heads, seq, dim = 5, 4, 333, 128
    q, k, v = (bshd(batch, seq, heads, dim, torch.bfloat16) for _ in range(3))
    start = torch.tensor([100, 0, 0, 332, 200], dtype=torch.int32, device="cuda")
    end = torch.tensor([333, 250, 333, 333, 200], dtype=torch.int32, device="cuda")
    o = torch.ops.ws.attention(q, k, v, causal, kv_start=start, kv_end=end)
    close(o, reference(q, k, v, causal, "top_left", start, end))
    assert o[4].abs().max().item() == 0.0  # no key seen: zeros, not NaN
    only_start = torch.ops.ws.attention(q, k, v, causal, kv_start=start)
    close(only_start, reference(q, k, v, causal, "top_left", start, None))


def packed_ids(lengths, device="cuda"):
    """The sequence ids of a row that packs sequences of these lengths."""
    return torch.cat([torch.full((n,), i) for i, n in enumerate(lengths)]).to(device)


PACKED_CASES = [  # Hq, Hkv, D, dtype, options, each row's sequence lengths
    (8, 2, 128, torch.bfloat16, {}, ([1, 130, 5, 300, 264], [700])),
    (4, 4, 64, torch.float16, {}, ([128, 128, 64, 380], [300, 1, 399])),
    (4, 1, 256, torch.bfloat16, {}, ([200, 500], [699, 1])),
    (4, 2, 128, torch.bfloat16, dict(softcap=20.0), ([129, 127, 444], [350, 350])),
]


@pytest.mark.parametrize("heads,kv_heads,dim,dtype,options,lengths", PACKED_CASES)
def test_a_packed_batch(heads, kv_heads, dim, dtype, options, lengths):
    """seq_start: several causal sequences a row, of lengths that end inside
    a block, on a block's edge, of one token, and a row of one sequence;
    each query sees its own sequence's keys only."""
    from ws.attention_args import sequence_starts
    seq = sum(lengths[0])
    starts = sequence_starts(torch.stack([packed_ids(n) for n in lengths]))
    q = bshd(len(lengths), seq, heads, dim, dtype)
    k, v = bshd(len(lengths), seq, kv_heads, dim, dtype), bshd(len(lengths), seq, kv_heads, dim,
                                                               dtype)
    o = torch.ops.ws.attention(q, k, v, True, seq_start=starts, **options)
    close(o, reference(q, k, v, True, softcap=options.get("softcap"), seq_start=starts))
    o2, lse = torch.ops.ws.attention_lse(q, k, v, True, None, options.get("softcap"),
                                         seq_start=starts)
    assert torch.equal(o, o2) and torch.isfinite(lse).all()
    with pytest.raises(ValueError, match="seq_start"):
        torch.ops.ws.attention(q, k, v, False, seq_start=starts)


def test_out_writes_only_its_tensor():
    """attention_out into a B x S x H x D tensor with a padded row pitch,
    in a buffer of guard values: every byte outside `out` stays put."""
    batch, heads, seq, dim = 2, 6, 257, 64
    q, k, v = (bshd(batch, seq, heads, dim, torch.float16) for _ in range(3))
    buffer = torch.full((batch * seq * heads * (dim + 8) + 64,), GUARD, device="cuda",
                        dtype=torch.float16)
    body = buffer[32:32 + batch * seq * heads * (dim + 8)].view(batch, seq, heads, dim + 8)
    out = body[..., :dim].transpose(1, 2)
    torch.ops.ws.attention_out(q, k, v, out, True)
    close(out, reference(q, k, v, True))
    assert (buffer[:32] == GUARD).all() and (buffer[-32:] == GUARD).all()
    assert (body[..., dim:] == GUARD).all()


def test_compiled_with_grouped_heads_and_views():
    """torch.compile(fullgraph=True) traces the op through its fake rules,
    the output's layout included, and refuses at trace time what the op
    refuses."""
    q = bshd(2, 256, 8, 128, torch.bfloat16)
    k, v = bshd(2, 256, 2, 128, torch.bfloat16), bshd(2, 256, 2, 128, torch.bfloat16)

    def layer(q, k, v):
        o = torch.ops.ws.attention(q, k, v, True)
        return o.transpose(1, 2).reshape(2, 256, 8 * 128)

    got = torch.compile(layer, fullgraph=True)(q, k, v)
    close(got.view(2, 256, 8, 128).transpose(1, 2), reference(q, k, v, True))
    bad = bshd(2, 256, 3, 128, torch.bfloat16)
    with pytest.raises(Exception, match="must divide the query heads"):
        torch.compile(layer, fullgraph=True)(q, bad, bad)


def tiny_llama(implementation):
    """A 2-layer Llama-style model, random weights (seeded), 8 query heads
    over 2 K/V heads, D = 128, bf16, nothing downloaded."""
    transformers = pytest.importorskip("transformers")
    config = transformers.LlamaConfig(vocab_size=512, hidden_size=1024, intermediate_size=2048,
                                      num_hidden_layers=2, num_attention_heads=8,
                                      num_key_value_heads=2, max_position_embeddings=1024)
    torch.manual_seed(0)
    return transformers.AutoModelForCausalLM.from_config(
        config, attn_implementation=implementation, dtype=torch.bfloat16).cuda().eval()


def models():
    from ws import hf_attention
    hf_attention.register()
    return tiny_llama("ws"), tiny_llama("sdpa"), hf_attention


def agree(got, want, rows):
    """Logits within bf16 tolerance of SDPA's model, and the same top-1 at
    99% of the positions whose top-1 SDPA's model decides by more than 1%
    of the logits' scale (a random model's logits are flat: where its top
    two are closer than that, bf16 rounding alone picks either)."""
    got, want = got[rows].float(), want[rows].float()
    scale = want.abs().max().item()
    assert (got - want).abs().max().item() <= 3e-2 * scale
    top2 = want.topk(2, dim=-1).values
    decided = (top2[..., 0] - top2[..., 1]) > 1e-2 * scale
    assert decided.float().mean().item() >= 0.25, "too few decided positions to judge"
    same = got.argmax(-1) == want.argmax(-1)
    assert same[decided].float().mean().item() >= 0.99


def test_transformers_model_eager_and_compiled():
    ws_model, sdpa_model, hf = models()
    ids = torch.randint(0, 512, (2, 300), device="cuda")
    with torch.no_grad():
        want = sdpa_model(ids).logits
        hf.calls.clear()
        agree(ws_model(ids).logits, want, slice(None))
        assert hf.calls == {"ws": 2}  # each layer on ws, no fallback
        compiled = torch.compile(ws_model, fullgraph=True)
        agree(compiled(ids).logits, want, slice(None))


def test_transformers_model_left_padded_batch():
    """A left-padded batch: the real tokens' logits match SDPA's model with
    the same mask; the pads never reach a real token."""
    ws_model, sdpa_model, hf = models()
    ids = torch.randint(0, 512, (3, 257), device="cuda")
    mask = torch.ones_like(ids)
    mask[0, :100] = 0
    mask[2, :256] = 0
    with torch.no_grad():
        want = sdpa_model(ids, attention_mask=mask).logits
        hf.calls.clear()
        got = ws_model(ids, attention_mask=mask).logits
    assert hf.calls == {"ws": 2}
    agree(got, want, mask.bool())


def test_transformers_model_packed_batch():
    """Sequences packed in each row, told by position_ids alone (no mask):
    transformers' packed-sequence mask reaches ws as each token's sequence
    start, eager and compiled, and the logits match SDPA's model."""
    ws_model, sdpa_model, hf = models()
    lengths = ([100, 29, 128, 43], [300])
    ids = torch.randint(0, 512, (2, 300), device="cuda")
    positions = torch.stack([torch.cat([torch.arange(n) for n in row]) for row in lengths]).cuda()
    with torch.no_grad():
        want = sdpa_model(ids, position_ids=positions, use_cache=False).logits
        hf.calls.clear()
        agree(ws_model(ids, position_ids=positions, use_cache=False).logits, want, slice(None))
        assert hf.calls == {"ws": 2}
        compiled = torch.compile(ws_model, fullgraph=True)
        agree(compiled(ids, position_ids=positions, use_cache=False).logits, want, slice(None))


def test_transformers_generate_prefill_on_ws_decode_said():
    ws_model, sdpa_model, hf = models()
    ids = torch.randint(0, 512, (2, 200), device="cuda")
    hf.calls.clear()
    hf._SAID.clear()
    with torch.no_grad(), pytest.warns(UserWarning, match="query length of 1"):
        got = ws_model.generate(ids, max_new_tokens=4, do_sample=False)
    want = sdpa_model.generate(ids, max_new_tokens=4, do_sample=False)
    assert hf.calls["ws"] == 2 and hf.calls["sdpa"] == 2 * 3  # prefill, then 3 decode steps
    assert (got[:, 200] == want[:, 200]).all()  # the prefill's token


@pytest.mark.parametrize("batch,heads,kv_heads,qlen,kvlen,dim,dtype,options", [
    (2, 8, 2, 300, 300, 128, torch.bfloat16, dict(causal=True)),
    (2, 4, 2, 130, 701, 64, torch.float16, dict(causal=True, causal_align="bottom_right")),
    (1, 2, 2, 257, 257, 256, torch.bfloat16, dict(softcap=20.0)),
])
def test_the_log_sum_exp(batch, heads, kv_heads, qlen, kvlen, dim, dtype, options):
    """attention_lse's second output: log2 of each row's sum of
    exp(score * scale), the scores masked and capped as the output's."""
    q = bshd(batch, qlen, heads, dim, dtype)
    k, v = bshd(batch, kvlen, kv_heads, dim, dtype), bshd(batch, kvlen, kv_heads, dim, dtype)
    o, lse = torch.ops.ws.attention_lse(q, k, v, **options)
    causal, align = options.get("causal", False), options.get("causal_align", "top_left")
    close(o, reference(q, k, v, causal, align, None, None, None, options.get("softcap")))
    kk = k.float().repeat_interleave(heads // kv_heads, dim=1)
    s = q.float() @ kk.transpose(-1, -2) / math.sqrt(dim)
    if options.get("softcap"):
        s = options["softcap"] * torch.tanh(s / options["softcap"])
    if causal:
        diag = kvlen - qlen if align == "bottom_right" else 0
        i, j = torch.arange(qlen, device="cuda")[:, None], torch.arange(kvlen, device="cuda")
        s = s.masked_fill(j[None, :] > i + diag, float("-inf"))
    want = torch.logsumexp(s, dim=-1) / math.log(2)
    assert lse.shape == (batch, heads, qlen) and lse.dtype == torch.float32
    assert (lse - want).abs().max().item() < 1e-2
