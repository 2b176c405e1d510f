#!/usr/bin/env python3
"""Writes the attention integration variants (flash-attention forward:
O = softmax(Q K^T / sqrt(D)) V, online softmax, on wgmma) as .mlir files
plus a manifest line per variant: name head_dim block_m block_n dtype
causal.

Each kernel takes Q, K, V and O as (B*H*S) x D row-major tensors (views of
a larger one allowed), the sequence length S (ws.divisibility = block_m:
the launcher refuses any other) and the softmax scale in the log2 domain.
Block (x, y) computes query rows x*block_m.. of batch x head y. Causal
variants stop the KV loop after the diagonal block and mask the scores
above the diagonal with ws.iota.

Usage: variants.py OUTDIR"""
import os
import sys

# name, head dim, BLOCK_M, BLOCK_N, element type, causal
VARIANTS = [
    ("att_f16_d128", 128, 128, 128, "f16", False),
    ("att_bf16_d128", 128, 128, 128, "bf16", False),
    ("att_f16_d128_causal", 128, 128, 128, "f16", True),
    ("att_bf16_d128_causal", 128, 128, 128, "bf16", True),
    ("att_f16_d64", 64, 128, 128, "f16", False),
    ("att_bf16_d64_causal", 64, 128, 128, "bf16", True),
]
TORCH = {"f16": "float16", "bf16": "bfloat16"}


def kernel(d, bm, bn, t, causal):
    """The kernel text (see the module comment)."""
    q = f"!ws.tensor_desc<tensor<{bm}x{d}x{t}>>"
    kv = f"!ws.tensor_desc<tensor<{bn}x{d}x{t}>>"
    s_t, row_t = f"tensor<{bm}x{bn}xf32>", f"tensor<1x{bm}xf32>"
    o_t = f"tensor<{bm}x{d}xf32>"
    if causal:  # KV blocks up to and including the diagonal one
        bound = f"""      %qend = arith.addi %qoff, %cbm : i32
      %last = arith.minsi %qend, %seq : i32
      %end = arith.addi %base, %last : i32"""
        mask = f"""        %rows = "ws.iota"() {{axis = 0 : i32}} : () -> tensor<{bm}x{bn}xi32>
        %cols = "ws.iota"() {{axis = 1 : i32}} : () -> tensor<{bm}x{bn}xi32>
        %kvrel = arith.subi %kv, %row : i32
        %kvs = tensor.splat %kvrel : tensor<{bm}x{bn}xi32>
        %kcol = arith.addi %cols, %kvs : tensor<{bm}x{bn}xi32>
        %above = arith.cmpi sgt, %kcol, %rows : tensor<{bm}x{bn}xi32>
        %ninf = arith.constant dense<0xFF800000> : {s_t}
        %sm = arith.select %above, %ninf, %ss : tensor<{bm}x{bn}xi1>, {s_t}"""
        scores = "%sm"
    else:
        bound = "      %end = arith.addi %base, %seq : i32"
        mask = ""
        scores = "%ss"
    return f"""module attributes {{gpu.container_module}} {{
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {{
    gpu.func @attention(%q: {q}, %k: {kv}, %v: {kv}, %o: {q},
                        %seq: i32 {{ws.divisibility = {bm} : i32}}, %scale: f32) kernel
        attributes {{ws.num_warps = 8 : i32}} {{
      %c0 = arith.constant 0 : i32
      %cbm = arith.constant {bm} : i32
      %cbn = arith.constant {bn} : i32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bxi = arith.index_cast %bx : index to i32
      %byi = arith.index_cast %by : index to i32
      %base = arith.muli %byi, %seq : i32
      %qoff = arith.muli %bxi, %cbm : i32
      %row = arith.addi %base, %qoff : i32
{bound}
      %tq = "ws.load"(%q, %row, %c0) : ({q}, i32, i32) -> tensor<{bm}x{d}x{t}>
      %zs = arith.constant dense<0.0> : {s_t}
      %zo = arith.constant dense<0.0> : {o_t}
      %m0 = arith.constant dense<0xFF800000> : {row_t}
      %l0 = arith.constant dense<0.0> : {row_t}
      %r:3 = scf.for %kv = %base to %end step %cbn iter_args(%acc = %zo, %m = %m0, %l = %l0)
          -> ({o_t}, {row_t}, {row_t}) : i32 {{
        %tk = "ws.load"(%k, %kv, %c0) : ({kv}, i32, i32) -> tensor<{bn}x{d}x{t}>
        %tv = "ws.load"(%v, %kv, %c0) : ({kv}, i32, i32) -> tensor<{bn}x{d}x{t}>
        %s = "ws.dot"(%tq, %tk, %zs) {{transpose_b}} : (tensor<{bm}x{d}x{t}>, tensor<{bn}x{d}x{t}>, {s_t}) -> {s_t}
        %sc = tensor.splat %scale : {s_t}
        %ss = arith.mulf %s, %sc : {s_t}
{mask}
        %mx = "ws.reduce"({scores}) {{kind = "max", axis = 1 : i32}} : ({s_t}) -> {row_t}
        %mn = arith.maximumf %m, %mx : {row_t}
        %mb = "ws.broadcast"(%mn) {{axis = 0 : i32}} : ({row_t}) -> {s_t}
        %sd = arith.subf {scores}, %mb : {s_t}
        %p = math.exp2 %sd : {s_t}
        %ls = "ws.reduce"(%p) {{kind = "sum", axis = 1 : i32}} : ({s_t}) -> {row_t}
        %dm = arith.subf %m, %mn : {row_t}
        %alpha = math.exp2 %dm : {row_t}
        %la = arith.mulf %l, %alpha : {row_t}
        %ln = arith.addf %la, %ls : {row_t}
        %ab = "ws.broadcast"(%alpha) {{axis = 0 : i32}} : ({row_t}) -> {o_t}
        %accs = arith.mulf %acc, %ab : {o_t}
        %pt = arith.truncf %p : {s_t} to tensor<{bm}x{bn}x{t}>
        %o2 = "ws.dot"(%pt, %tv, %accs) : (tensor<{bm}x{bn}x{t}>, tensor<{bn}x{d}x{t}>, {o_t}) -> {o_t}
        scf.yield %o2, %mn, %ln : {o_t}, {row_t}, {row_t}
      }} {{ws.warp_specialize}}
      %lb = "ws.broadcast"(%r#2) {{axis = 0 : i32}} : ({row_t}) -> {o_t}
      %out = arith.divf %r#0, %lb : {o_t}
      %ot = arith.truncf %out : {o_t} to tensor<{bm}x{d}x{t}>
      "ws.store"(%o, %row, %c0, %ot) : ({q}, i32, i32, tensor<{bm}x{d}x{t}>) -> ()
      gpu.return
    }}
  }}
}}
"""


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "manifest"), "w") as manifest:
        for name, d, bm, bn, t, causal in VARIANTS:
            with open(os.path.join(out, name + ".mlir"), "w") as f:
                f.write(kernel(d, bm, bn, t, causal))
            manifest.write(f"{name} {d} {bm} {bn} {TORCH[t]} {'causal' if causal else 'full'}\n")


if __name__ == "__main__":
    main()
