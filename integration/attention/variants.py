#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes the attention integration variants (flash-attention forward:
O = softmax(Q K^T / sqrt(D)) V, online softmax, on wgmma) as .mlir files
plus a manifest line per variant: name head_dim block_m block_n dtype
causal layout.

Two layouts of Q, K, V and O:
  ragged: B x H x S x D tensors (any strides, so B x S x H x D storage is a
    view too), read through 1 x 1 x block x D boxes (TMA clips each head at
    S, filling zeros, and clips O's store); any S. Block (x, y, z) computes
    query rows x*block_m.. of head y of batch z; the last KV block's
    columns at or past S are masked (causal kernels need no such mask:
    a column past S is above the diagonal of every stored row).
  rows: (B*H*S) x D row-major views; S a multiple of block_m
    (ws.divisibility: the launcher refuses any other), no mask. Block
    (x, y) computes query rows x*block_m.. of batch x head y.
  varlen: a batch of sequences of any lengths, packed token-major (T x H x D
    for T tokens in all), with cumulative offsets %cu (an i32 array of B + 1
    entries: sequence b is tokens cu[b]..cu[b+1], read with memref.load).
    Each tensor comes as a window view (attention_run.py's SequenceWindows):
    (T + 1) x H x T x D, element (u, h, r, d) at token u + r, so that a box
    at window u = cu[b] and row r < 0 lies before the sequence: TMA reads
    zeros there and writes nothing. The last query block and the last KV
    block of a sequence are moved back to end at its end (their rows
    before it clipped, or computed twice with the same values, and the KV
    columns seen before masked), so no box reaches past the sequence and
    no block touches another one. Block (x, y, z) computes query rows
    x*block_m.. of head y of sequence z; a block past its sequence's end
    runs no KV step and its box lies past the window (row T), so it stores
    nothing. The kernel takes T (%total) and clamps the offsets to
    0 <= cu[b] <= cu[b + 1] <= T, so that no offsets, however wrong, move a
    box outside the tensor.
Ragged and rows kernels also take S, and every kernel the softmax scale in
the log2 domain. Causal
variants stop the KV loop after the diagonal block and mask the scores
above the diagonal with ws.iota. The row max is taken on the unscaled
scores, and the scale is folded into exp2's argument, s * scale - max,
one fused multiply-add (fastmath<contract>), as FlashAttention-3 does.

Two features, on ragged and varlen kernels, each a runtime scalar more:
  gqa: grouped-query heads. K and V have Hkv heads, Q and O have Hq, and
    %group = Hq / Hkv: query head y reads K/V head y / %group (index math
    on the load's coordinate). group = 1 is plain attention, Hkv = 1
    multi-query.
  softcap: Gemma 2's logit soft cap, cap * tanh(s / cap) on the scaled
    scores: %scale is then 1 / (sqrt(D) * cap) and %cap = cap * log2(e),
    so the scores are cap * log2(e) * tanh(s * %scale), with the
    special-function unit's tanh (fastmath<afn>: tanh.approx.f32); the
    mask applies to the tanh, and %cap is folded into exp2's argument as
    the scale is above.

Usage: variants.py OUTDIR"""
import os
import sys

# name, head dim, BLOCK_M, BLOCK_N, element type, causal, layout[, features]
VARIANTS = [
    ("att_f16_d128", 128, 128, 128, "f16", False, "rows"),
    ("att_bf16_d128", 128, 128, 128, "bf16", False, "rows"),
    ("att_f16_d128_causal", 128, 128, 128, "f16", True, "rows"),
    ("att_bf16_d128_causal", 128, 128, 128, "bf16", True, "rows"),
    ("att_f16_d64", 64, 128, 128, "f16", False, "rows"),
    ("att_bf16_d64_causal", 64, 128, 128, "bf16", True, "rows"),
    ("att_f16_d128_ragged", 128, 128, 128, "f16", False, "ragged"),
    ("att_bf16_d128_causal_ragged", 128, 128, 128, "bf16", True, "ragged"),
    ("att_bf16_d64_ragged", 64, 128, 128, "bf16", False, "ragged"),
    ("att_f16_d64_causal_ragged", 64, 128, 128, "f16", True, "ragged"),
    ("att_f16_d64_bn64", 64, 128, 64, "f16", False, "rows"),
    ("att_f16_d256_ragged", 256, 128, 64, "f16", False, "ragged"),
    ("att_bf16_d256_causal_ragged", 256, 128, 64, "bf16", True, "ragged"),
    ("att_f16_d128_gqa", 128, 128, 128, "f16", False, "ragged", ("gqa",)),
    ("att_bf16_d128_causal_gqa", 128, 128, 128, "bf16", True, "ragged", ("gqa",)),
    ("att_bf16_d64_gqa", 64, 128, 128, "bf16", False, "ragged", ("gqa",)),
    ("att_bf16_d128_softcap", 128, 128, 128, "bf16", False, "ragged", ("softcap",)),
    ("att_f16_d256_causal_gqa_softcap", 256, 128, 64, "f16", True, "ragged",
     ("gqa", "softcap")),
    ("att_f16_d128_varlen", 128, 128, 128, "f16", False, "varlen"),
    ("att_bf16_d128_causal_varlen", 128, 128, 128, "bf16", True, "varlen"),
    ("att_bf16_d64_causal_varlen", 64, 128, 128, "bf16", True, "varlen"),
    ("att_f16_d256_varlen_gqa", 256, 128, 64, "f16", False, "varlen", ("gqa",)),
    ("att_bf16_d128_causal_varlen_gqa_softcap", 128, 128, 128, "bf16", True, "varlen",
     ("gqa", "softcap")),
    ("att_e4m3_d128", 128, 128, 128, "e4m3", False, "ragged"),
    ("att_e4m3_d128_causal", 128, 128, 128, "e4m3", True, "ragged"),
    ("att_e4m3_d64", 64, 128, 128, "e4m3", False, "ragged"),
    ("att_e4m3_d256_gqa", 256, 128, 64, "e4m3", False, "ragged", ("gqa",)),
]
FEATURES = ("gqa", "softcap")
TORCH = {"f16": "float16", "bf16": "bfloat16", "e4m3": "float8_e4m3fn"}


def addressing(layout, bm, bn, d, t, gqa):
    """The descriptor types, the block's coordinates (ops), the KV loop's
    start, the coordinates of a Q/O tile and of a K/V tile, the rank, the
    query block's first row in the sequence, and the loop's ops that the
    K/V coordinates need."""
    if layout == "varlen":
        q = f"!ws.tensor_desc<tensor<1x1x{bm}x{d}x{t}>>"
        kv = f"!ws.tensor_desc<tensor<1x1x{bn}x{d}x{t}>>"
        ops = """      %bz = gpu.block_id z
      %c1x = arith.constant 1 : index
      %bz1 = arith.addi %bz, %c1x : index
      %cu0 = memref.load %cu[%bz] : memref<?xi32>
      %cu1 = memref.load %cu[%bz1] : memref<?xi32>
      %lo = arith.maxsi %cu0, %c0 : i32
      %seq_begin = arith.minsi %lo, %total : i32
      %hi = arith.maxsi %cu1, %seq_begin : i32
      %seq_end = arith.minsi %hi, %total : i32
      %seq = arith.subi %seq_end, %seq_begin : i32
      %qoff = arith.muli %bxi, %cbm : i32
      %live = arith.cmpi slt, %qoff, %seq : i32
      %qtail = arith.subi %seq, %cbm : i32
      %qlast = arith.minsi %qoff, %qtail : i32
      %qrow = arith.select %live, %qlast, %total : i32
      %ktail = arith.subi %seq, %cbn : i32"""
        head = "%byi"
        if gqa:
            ops += "\n      %kvh = arith.divui %byi, %group : i32"
            head = "%kvh"
        return (q, kv, ops, "%c0", "%seq_begin, %byi, %qrow, %c0", f"%seq_begin, {head}, %krow, %c0",
                4, "%qrow", "        %krow = arith.minsi %kv, %ktail : i32\n")
    if layout == "ragged":
        q = f"!ws.tensor_desc<tensor<1x1x{bm}x{d}x{t}>>"
        kv = f"!ws.tensor_desc<tensor<1x1x{bn}x{d}x{t}>>"
        ops = """      %bz = gpu.block_id z
      %bzi = arith.index_cast %bz : index to i32
      %qoff = arith.muli %bxi, %cbm : i32"""
        head = "%byi"
        if gqa:  # the K/V head this query head reads
            ops += "\n      %kvh = arith.divui %byi, %group : i32"
            head = "%kvh"
        return (q, kv, ops, "%c0", "%bzi, %byi, %qoff, %c0", f"%bzi, {head}, %kv, %c0", 4,
                "%qoff", "")
    assert not gqa, "grouped-query heads take the ragged or varlen layout"
    q = f"!ws.tensor_desc<tensor<{bm}x{d}x{t}>>"
    kv = f"!ws.tensor_desc<tensor<{bn}x{d}x{t}>>"
    ops = """      %base = arith.muli %byi, %seq : i32
      %qoff = arith.muli %bxi, %cbm : i32
      %row = arith.addi %base, %qoff : i32"""
    return q, kv, ops, "%base", "%row, %c0", "%kv, %c0", 2, "%row", ""


def capped_scores(s_t):
    """The soft cap's tanh(s * %scale) from the product %s, as %th."""
    return f"""        %qs = tensor.splat %scale : {s_t}
        %sx = arith.mulf %s, %qs : {s_t}
        %th = math.tanh %sx fastmath<afn> : {s_t}
"""


def row_max(scores, factor, s_t, row_t):
    """The ops from the masked scores to the running max %mn and exp2's
    argument %sd, the scores times `factor` (a positive scalar: the scale
    in the log2 domain, or cap * log2(e) for soft-capped scores). The max
    is taken on the unscaled scores and scaled once per row, and
    s * factor - max is one fused multiply-add (fastmath<contract>), as
    FlashAttention-3 does: the factor is positive, so the max commutes with
    it, and -inf stays -inf."""
    return f"""        %mx = "ws.reduce"({scores}) {{kind = "max", axis = 1 : i32}} : ({s_t}) -> {row_t}
        %scr = tensor.splat {factor} : {row_t}
        %mxs = arith.mulf %mx, %scr : {row_t}
        %mn = arith.maximumf %m, %mxs : {row_t}
        %mb = "ws.broadcast"(%mn) {{axis = 0 : i32}} : ({row_t}) -> {s_t}
        %sc = tensor.splat {factor} : {s_t}
        %ss = arith.mulf {scores}, %sc fastmath<contract> : {s_t}
        %sd = arith.subf %ss, %mb fastmath<contract> : {s_t}"""


def fp8_descales(kv_head):
    """An FP8 kernel's descale factors, one per head in each of the arrays
    %dq (query heads), %dk and %dv (K/V heads): the scores' factor %sqk =
    %scale * dq * dk (positive), folded as the scale is, and V's %vd,
    applied to the output."""
    return f"""
      %qd = memref.load %dq[%by] : memref<?xf32>
      %kvx = arith.index_cast {kv_head} : i32 to index
      %kd = memref.load %dk[%kvx] : memref<?xf32>
      %vd = memref.load %dv[%kvx] : memref<?xf32>
      %qkd = arith.mulf %qd, %kd : f32
      %sqk = arith.mulf %scale, %qkd : f32"""


def varlen_bound_and_mask(bm, bn, causal, raw, ninf, s_t):
    """A varlen kernel's KV loop bound (no step for a block past its
    sequence's end; up to the diagonal block when causal) and its mask:
    the columns of the moved-back last KV block that an earlier block
    already covered, and when causal the columns above the diagonal, with
    the query rows at %qrow and the KV columns at %krow."""
    i32 = f"tensor<{bm}x{bn}xi32>"
    bound = "      %end = arith.select %live, %seq, %c0 : i32"
    mask = f"""        %cols = "ws.iota"() {{axis = 1 : i32}} : () -> {i32}
        %seen = arith.subi %kv, %krow : i32
        %seens = tensor.splat %seen : {i32}
        %fresh = arith.cmpi sge, %cols, %seens : {i32}
{ninf}
        %sm = arith.select %fresh, {raw}, %ninf : tensor<{bm}x{bn}xi1>, {s_t}"""
    if causal:
        bound = """      %qend = arith.addi %qrow, %cbm : i32
      %kend = arith.minsi %qend, %seq : i32
      %end = arith.select %live, %kend, %c0 : i32"""
        mask = mask.replace("%sm = arith.select %fresh", "%sf = arith.select %fresh") + f"""
        %rows = "ws.iota"() {{axis = 0 : i32}} : () -> {i32}
        %kvrel = arith.subi %krow, %qrow : i32
        %kvsp = tensor.splat %kvrel : {i32}
        %kcol = arith.addi %cols, %kvsp : {i32}
        %above = arith.cmpi sgt, %kcol, %rows : {i32}
        %sm = arith.select %above, %ninf, %sf : tensor<{bm}x{bn}xi1>, {s_t}"""
    return bound, mask


def kernel(d, bm, bn, t, causal, layout, features=()):
    """The kernel text (see the module comment)."""
    gqa, softcap = "gqa" in features, "softcap" in features
    fp8 = t == "e4m3"
    assert not fp8 or (layout == "ragged" and not softcap), "FP8 kernels are ragged, uncapped"
    raw, factor = ("%th", "%cap") if softcap else ("%s", "%sqk" if fp8 else "%scale")
    ot = "bf16" if fp8 else t  # the output's type
    t = "f8E4M3FN" if fp8 else t
    q, kv, block_ops, start, q_at, kv_at, rank, qrow, kv_ops = addressing(layout, bm, bn, d, t,
                                                                          gqa)
    o = q.replace(f"x{t}>", f"x{ot}>")
    v, v_at, v_tile, pv = kv, kv_at, f"tensor<{bn}x{d}x{t}>", ""
    if fp8:  # V given transposed (D x S per head), K-major for the FP8 wgmma
        v = f"!ws.tensor_desc<tensor<1x1x{d}x{bn}x{t}>>"
        v_at = kv_at.replace("%kv, %c0", "%c0, %kv")
        v_tile, pv = f"tensor<{d}x{bn}x{t}>", " {transpose_b}"
        block_ops += fp8_descales("%kvh" if gqa else "%byi")
    coords = ", ".join(["i32"] * rank)
    s_t, row_t = f"tensor<{bm}x{bn}xf32>", f"tensor<1x{bm}xf32>"
    o_t = f"tensor<{bm}x{d}xf32>"
    ninf = f"        %ninf = arith.constant dense<0xFF800000> : {s_t}"
    end = "%end"
    if layout == "varlen":
        bound, mask = varlen_bound_and_mask(bm, bn, causal, raw, ninf, s_t)
        scores = "%sm"
    elif causal:  # KV blocks up to and including the diagonal one
        bound = """      %qend = arith.addi %qoff, %cbm : i32
      %end = arith.minsi %qend, %seq : i32""" if layout == "ragged" else f"""\
      %qend = arith.addi %qoff, %cbm : i32
      %last = arith.minsi %qend, %seq : i32
      %end = arith.addi {start}, %last : i32"""
        mask = f"""        %rows = "ws.iota"() {{axis = 0 : i32}} : () -> tensor<{bm}x{bn}xi32>
        %cols = "ws.iota"() {{axis = 1 : i32}} : () -> tensor<{bm}x{bn}xi32>
        %kvrel = arith.subi %kv, {qrow} : i32
        %kvs = tensor.splat %kvrel : tensor<{bm}x{bn}xi32>
        %kcol = arith.addi %cols, %kvs : tensor<{bm}x{bn}xi32>
        %above = arith.cmpi sgt, %kcol, %rows : tensor<{bm}x{bn}xi32>
{ninf}
        %sm = arith.select %above, %ninf, {raw} : tensor<{bm}x{bn}xi1>, {s_t}"""
        scores = "%sm"
    elif layout == "ragged":  # the last KV block's columns at or past S
        bound, end = "", "%seq"
        mask = f"""        %cols = "ws.iota"() {{axis = 1 : i32}} : () -> tensor<{bm}x{bn}xi32>
        %left = arith.subi %seq, %kv : i32
        %lefts = tensor.splat %left : tensor<{bm}x{bn}xi32>
        %inside = arith.cmpi slt, %cols, %lefts : tensor<{bm}x{bn}xi32>
{ninf}
        %sm = arith.select %inside, {raw}, %ninf : tensor<{bm}x{bn}xi1>, {s_t}"""
        scores = "%sm"
    else:
        bound = f"      %end = arith.addi {start}, %seq : i32"
        mask = ""
        scores = raw
    seq_attr = f" {{ws.divisibility = {bm} : i32}}" if layout == "rows" else ""
    extra = (", %group: i32" if gqa else "") + (", %cap: f32" if softcap else "") + \
        (", %dq: memref<?xf32>, %dk: memref<?xf32>, %dv: memref<?xf32>" if fp8 else "")
    out = "%out"
    epilogue = ""
    if fp8:  # V's descale, once per output
        out = "%outv"
        epilogue = f"""      %vds = tensor.splat %vd : {o_t}
      %outv = arith.mulf %out, %vds : {o_t}
"""
    sizes = "%cu: memref<?xi32>, %total: i32" if layout == "varlen" else f"%seq: i32{seq_attr}"
    return f"""module attributes {{gpu.container_module}} {{
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {{
    gpu.func @attention(%q: {q}, %k: {kv}, %v: {v}, %o: {o},
                        {sizes}, %scale: f32{extra}) kernel
        attributes {{ws.num_warps = 8 : i32}} {{
      %c0 = arith.constant 0 : i32
      %cbm = arith.constant {bm} : i32
      %cbn = arith.constant {bn} : i32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bxi = arith.index_cast %bx : index to i32
      %byi = arith.index_cast %by : index to i32
{block_ops}{chr(10) + bound if bound else ""}
      %tq = "ws.load"(%q, {q_at}) : ({q}, {coords}) -> tensor<{bm}x{d}x{t}>
      %zs = arith.constant dense<0.0> : {s_t}
      %zo = arith.constant dense<0.0> : {o_t}
      %m0 = arith.constant dense<0xFF800000> : {row_t}
      %l0 = arith.constant dense<0.0> : {row_t}
      %r:3 = scf.for %kv = {start} to {end} step %cbn iter_args(%acc = %zo, %m = %m0, %l = %l0)
          -> ({o_t}, {row_t}, {row_t}) : i32 {{
{kv_ops}        %tk = "ws.load"(%k, {kv_at}) : ({kv}, {coords}) -> tensor<{bn}x{d}x{t}>
        %tv = "ws.load"(%v, {v_at}) : ({v}, {coords}) -> {v_tile}
        %s = "ws.dot"(%tq, %tk, %zs) {{transpose_b}} : (tensor<{bm}x{d}x{t}>, tensor<{bn}x{d}x{t}>, {s_t}) -> {s_t}
{capped_scores(s_t) if softcap else ""}{mask}
{row_max(scores, factor, s_t, row_t)}
        %p = math.exp2 %sd fastmath<afn> : {s_t}
        %ls = "ws.reduce"(%p) {{kind = "sum", axis = 1 : i32}} : ({s_t}) -> {row_t}
        %dm = arith.subf %m, %mn : {row_t}
        %alpha = math.exp2 %dm fastmath<afn> : {row_t}
        %la = arith.mulf %l, %alpha : {row_t}
        %ln = arith.addf %la, %ls : {row_t}
        %ab = "ws.broadcast"(%alpha) {{axis = 0 : i32}} : ({row_t}) -> {o_t}
        %accs = arith.mulf %acc, %ab : {o_t}
        %pt = arith.truncf %p : {s_t} to tensor<{bm}x{bn}x{t}>
        %o2 = "ws.dot"(%pt, %tv, %accs){pv} : (tensor<{bm}x{bn}x{t}>, {v_tile}, {o_t}) -> {o_t}
        scf.yield %o2, %mn, %ln : {o_t}, {row_t}, {row_t}
      }} {{ws.warp_specialize}}
      %lb = "ws.broadcast"(%r#2) {{axis = 0 : i32}} : ({row_t}) -> {o_t}
      %out = arith.divf %r#0, %lb : {o_t}
{epilogue}      %ot = arith.truncf {out} : {o_t} to tensor<{bm}x{d}x{ot}>
      "ws.store"(%o, {q_at}, %ot) : ({o}, {coords}, tensor<{bm}x{d}x{ot}>) -> ()
      gpu.return
    }}
  }}
}}
"""


def main():
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        sys.exit("usage: variants.py OUTDIR (writes every attention variant and a manifest there)")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "manifest"), "w") as manifest:
        for name, d, bm, bn, t, causal, layout, *rest in VARIANTS:
            features = rest[0] if rest else ()
            with open(os.path.join(out, name + ".mlir"), "w") as f:
                f.write(kernel(d, bm, bn, t, causal, layout, features))
            manifest.write(f"{name} {d} {bm} {bn} {TORCH[t]} "
                           f"{'causal' if causal else 'full'} {layout} "
                           f"{','.join(features) or '-'}\n")


if __name__ == "__main__":
    main()
