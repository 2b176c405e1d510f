#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""A Llama-style transformers model with ws's attention against the same
model on SDPA, in one process on the same inputs: random weights (seeded,
nothing downloaded), bf16, a batch of random tokens. Eager and
torch.compile'd, each timed with triton.testing.do_bench; prints each
time and SDPA's over ws's, and the attention function's own time against
the kernel's (the op's overhead). --train also times a training step
(the loss of the tokens as their own labels, and its backward through
every weight: ws's attention backward against SDPA's). --matmul routes
every linear layer of the ws model to torch.ops.ws.matmul as well, and
first times its first forward (the matmuls tuned, warm-started from the
shipped table of winners, ws/tuned/matmul.json) and a forward at a new
sequence length in the same M buckets (nothing to tune).

Models: "311m" (4 layers, hidden 2048, 16 query heads over 4 K/V heads,
D = 128, batch 4 x 2048) and "8l-4096" (8 layers, hidden 4096, 32 over 8
heads, D = 128, batch 2 x 2048). The linear layers are torch's in both.

Usage: model_bench.py [--train] [--matmul] [311m|8l-4096 ...]"""
import functools
import sys
import time

import torch
import transformers
import triton.testing

from ws import hf_attention

MODELS = {
    "311m": (dict(hidden_size=2048, intermediate_size=8192, num_hidden_layers=4,
                  num_attention_heads=16, num_key_value_heads=4), 4, 2048),
    "8l-4096": (dict(hidden_size=4096, intermediate_size=14336, num_hidden_layers=8,
                     num_attention_heads=32, num_key_value_heads=8), 2, 2048),
}


def build(sizes, implementation):
    config = transformers.LlamaConfig(vocab_size=32000, max_position_embeddings=4096, **sizes)
    torch.manual_seed(0)
    return transformers.AutoModelForCausalLM.from_config(
        config, attn_implementation=implementation, dtype=torch.bfloat16).cuda().eval()


def ws_linear(module, x):
    """A linear layer on torch.ops.ws.matmul (x @ W^T, W N x K as stored)."""
    y = torch.ops.ws.matmul(x.reshape(-1, x.shape[-1]), module.weight)
    if module.bias is not None:
        y = y + module.bias
    return y.view(*x.shape[:-1], y.shape[-1])


def route_linears(model):
    """Every nn.Linear of `model` on ws_linear."""
    for module in model.modules():
        if isinstance(module, torch.nn.Linear):
            module.forward = functools.partial(ws_linear, module)


def first_forward_seconds(model, ids):
    """(wall seconds, matmul keys tuned) of one forward, tuning included."""
    from ws.families import matmul_family
    tuned = len(matmul_family("bf16").results)
    start = time.perf_counter()
    with torch.no_grad():
        model(ids)
    torch.cuda.synchronize()
    return time.perf_counter() - start, len(matmul_family("bf16").results) - tuned


def attention_call_times(model, batch, seq):
    """(the attention function's ms, torch.ops.ws.attention_out's ms) on
    one layer's shapes, as the model calls them."""
    cfg = model.config
    heads, kv_heads = cfg.num_attention_heads, cfg.num_key_value_heads
    dim = cfg.hidden_size // heads
    q = torch.empty(batch, seq, heads, dim, device="cuda", dtype=torch.bfloat16).uniform_(-1, 1)
    k, v = (torch.empty(batch, seq, kv_heads, dim, device="cuda",
                        dtype=torch.bfloat16).uniform_(-1, 1) for _ in range(2))
    q, k, v = (t.transpose(1, 2) for t in (q, k, v))
    layer = model.model.layers[0].self_attn
    out = torch.empty(batch, seq, heads, dim, device="cuda", dtype=torch.bfloat16)
    function = triton.testing.do_bench(
        lambda: hf_attention.attention_forward(layer, q, k, v, None, scaling=dim ** -0.5))
    kernel = triton.testing.do_bench(
        lambda: torch.ops.ws.attention_out(q, k, v, out.transpose(1, 2), True, dim ** -0.5,
                                           None, "bottom_right", None, None))
    return function, kernel


def training_step_times(models, ids):
    """{(impl, mode): ms} of one training step (forward with the tokens as
    labels, backward into every weight's gradient), eager and compiled, and
    the losses' difference relative to SDPA's."""
    times, losses = {}, {}
    for impl, model in models.items():
        model.train()

        def step(run=model):
            model.zero_grad(set_to_none=True)
            loss = run(ids, labels=ids).loss
            loss.backward()
            return loss

        losses[impl] = step().item()
        times[impl, "eager"] = triton.testing.do_bench(step)
        compiled = torch.compile(model, fullgraph=True)
        step(compiled)
        times[impl, "compiled"] = triton.testing.do_bench(lambda: step(compiled))
        model.eval()
        model.zero_grad(set_to_none=True)
    return times, abs(losses["ws"] - losses["sdpa"]) / abs(losses["sdpa"])


def main():
    hf_attention.register()
    train = "--train" in sys.argv[1:]
    matmul = "--matmul" in sys.argv[1:]
    names = [a for a in sys.argv[1:] if a not in ("--train", "--matmul")] or list(MODELS)
    for name in names:
        sizes, batch, seq = MODELS[name]
        ids = torch.randint(0, 32000, (batch, seq), device="cuda")
        models = {impl: build(sizes, impl) for impl in ("ws", "sdpa")}
        if matmul:
            route_linears(models["ws"])
            first, tuned = first_forward_seconds(models["ws"], ids)
            again, retuned = first_forward_seconds(models["ws"], ids[:, :seq - 128])
            print("%s with ws.matmul: first forward %.2f s (%d matmul shapes tuned); at "
                  "%d tokens a sequence %.2f s (%d tuned)"
                  % (name, first, tuned, seq - 128, again, retuned), flush=True)
        with torch.no_grad():
            want = models["sdpa"](ids).logits.float()
            got = models["ws"](ids).logits.float()
            err = (got - want).abs().max().item() / want.abs().max().item()
            times = {}
            for impl, model in models.items():
                times[impl, "eager"] = triton.testing.do_bench(lambda: model(ids))
                compiled = torch.compile(model, fullgraph=True)
                compiled(ids)
                times[impl, "compiled"] = triton.testing.do_bench(lambda: compiled(ids))
        print("%s: batch %d x %d, logits' max error relative to SDPA's model %.2e"
              % (name, batch, seq, err))
        for mode in ("eager", "compiled"):
            print("  %-9s ws %8.3f ms  sdpa %8.3f ms  sdpa/ws %.3f"
                  % (mode, times["ws", mode], times["sdpa", mode],
                     times["sdpa", mode] / times["ws", mode]))
        function, kernel = attention_call_times(models["ws"], batch, seq)
        print("  attention function %.4f ms, the op alone %.4f ms (%.1f%% over)"
              % (function, kernel, 100 * (function / kernel - 1)), flush=True)
        if train:
            step, loss_err = training_step_times(models, ids)
            print("  training step: losses differ by %.2e of SDPA's" % loss_err)
            for mode in ("eager", "compiled"):
                print("  train %-9s ws %8.3f ms  sdpa %8.3f ms  sdpa/ws %.3f"
                      % (mode, step["ws", mode], step["sdpa", mode],
                         step["sdpa", mode] / step["ws", mode]), flush=True)
        del models


if __name__ == "__main__":
    main()
