#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes the matmul integration variants (C = A @ B^T, or A @ B with B given
K x N, on wgmma) as .mlir files plus a manifest line per variant: name bm
bn bk warps dtype epilogue layout sched (tile: one block per tile;
persistent: a tile loop over a grid of any size, ping-pong or cooperative
as the planner picks; cooperative: persistent with ws.overlap forcing it).

Clusters (ws.cluster): "tile_c2x1" and "tile_c1x2" are tiled kernels in
clusters of two blocks along x (sharing B: multicast, or on sm_100a one
tcgen05.mma for the pair) or y (sharing A);
"persistent_c2" a persistent kernel whose tile loop runs over pairs of M
tiles, one cluster of two a pair (sharing B).

Usage: variants.py OUTDIR [--chip=sm_100a]   (sm_100a: the tcgen05 set)"""
import os
import sys

# name, BM, BN, BK, warps, element type, epilogue, B layout (nk: N x K with
# transpose_b; kn: K x N)
VARIANTS = [
    ("mm_128x256x64_w8", 128, 256, 64, 8, "f16", "none", "nk"),
    ("mm_128x128x64_w4", 128, 128, 64, 4, "f16", "none", "nk"),
    ("mm_128x128x64_w8", 128, 128, 64, 8, "f16", "none", "nk"),
    ("mm_64x256x64_w4", 64, 256, 64, 4, "f16", "none", "nk"),
    ("mm_128x256x64_w8_bf16", 128, 256, 64, 8, "bf16", "none", "nk"),
    ("mm_128x128x32_w8", 128, 128, 32, 8, "f16", "none", "nk"),
    ("mm_128x256x64_w8_relu", 128, 256, 64, 8, "f16", "relu", "nk"),
    ("mm_128x256x64_w8_kn", 128, 256, 64, 8, "f16", "none", "kn"),
    ("mm_128x128x64_w8_bf16_kn", 128, 128, 64, 8, "bf16", "none", "kn"),
    ("mm_64x96x32_w4_kn", 64, 96, 32, 4, "f16", "relu", "kn"),
    ("mm_128x128x128_w8", 128, 128, 128, 8, "f16", "none", "nk"),
    ("mm_64x128x48_w4_kn", 64, 128, 48, 4, "bf16", "none", "kn"),
    # the accumulator scaled by a runtime alpha (an f32 kernel argument)
    ("mm_128x256x64_w8_alpha", 128, 256, 64, 8, "f16", "alpha", "nk"),
    ("mm_128x128x64_w8_bf16_kn_alpha", 128, 128, 64, 8, "bf16", "alpha", "kn"),
    # fused epilogue operands: a bias row (per column) with ReLU, an f32
    # bias per row, a residual with alpha and beta
    ("mm_128x256x64_w8_bias_relu", 128, 256, 64, 8, "f16", "bias_relu", "nk"),
    ("mm_128x128x64_w8_bias_col", 128, 128, 64, 8, "bf16", "bias_col", "nk"),
    ("mm_128x128x64_w8_residual", 128, 128, 64, 8, "f16", "residual", "nk"),
]
# persistent: one block per SM loops over the tiles (a ws.tile_loop with the
# K loop inside), in a grouped order; same fields
PERSISTENT = [
    ("pmm_128x256x64_w8", 128, 256, 64, 8, "f16", "none", "nk"),
    ("pmm_128x128x64_w8", 128, 128, 64, 8, "f16", "none", "nk"),
    ("pmm_128x256x64_w8_bf16_relu", 128, 256, 64, 8, "bf16", "relu", "nk"),
    ("pmm_128x128x64_w8_kn_alpha", 128, 128, 64, 8, "f16", "alpha", "kn"),
    ("pmm_128x256x64_w8_bias_relu", 128, 256, 64, 8, "f16", "bias_relu", "nk"),
    ("pmm_128x128x64_w8_bf16_bias_col", 128, 128, 64, 8, "bf16", "bias_col", "kn"),
    ("pmm_128x256x64_w8_residual", 128, 256, 64, 8, "f16", "residual", "nk"),
    ("pmm_128x128x64_w8_residual", 128, 128, 64, 8, "bf16", "residual", "nk"),
    # the benchmark's bf16 kernels
    ("pmm_128x256x64_w8_bf16", 128, 256, 64, 8, "bf16", "none", "nk"),
    ("pmm_128x128x64_w8_bf16", 128, 128, 64, 8, "bf16", "none", "nk"),
]
# persistent with the overlap forced (ws.overlap): 128x128 tiles, where the
# planner picks ping-pong, run cooperatively too; same fields
COOPERATIVE = [
    ("pmm_128x128x64_w8_coop", 128, 128, 64, 8, "f16", "none", "nk"),
    ("pmm_128x128x64_w8_coop_bias_relu", 128, 128, 64, 8, "f16", "bias_relu", "nk"),
]
# sm_100a (tcgen05, tensor memory; compiled and proved, run only on a
# Blackwell GPU): M = 128, B given N x K, at most 128 accumulator columns
# per epilogue warpgroup; same fields. Written instead of the sets above by
# variants.py --chip=sm_100a.
BLACKWELL = [
    ("bw_128x128x64_w4", 128, 128, 64, 4, "f16", "none", "nk"),
    ("bw_128x256x64_w8", 128, 256, 64, 8, "f16", "none", "nk"),
    ("bw_128x256x64_w8_bf16", 128, 256, 64, 8, "bf16", "none", "nk"),
    ("bw_128x128x128_w8_bf16", 128, 128, 128, 8, "bf16", "none", "nk"),
    ("bw_128x256x64_w8_bias_relu", 128, 256, 64, 8, "f16", "bias_relu", "nk"),
    ("bw_128x128x64_w4_bf16_bias_col", 128, 128, 64, 4, "bf16", "bias_col", "nk"),
    ("bw_128x256x64_w8_residual", 128, 256, 64, 8, "f16", "residual", "nk"),
    ("bw_128x128x64_w8_alpha", 128, 128, 64, 8, "f16", "alpha", "nk"),
    # B given K x N: tcgen05.mma reads it N-major
    ("bw_128x128x64_w8_kn", 128, 128, 64, 8, "f16", "none", "kn"),
    ("bw_128x256x64_w8_bf16_kn_relu", 128, 256, 64, 8, "bf16", "relu", "kn"),
]
BLACKWELL_PERSISTENT = [
    ("pbw_128x256x64_w8", 128, 256, 64, 8, "f16", "none", "nk"),
    ("pbw_128x128x64_w4", 128, 128, 64, 4, "f16", "none", "nk"),
    ("pbw_128x256x64_w8_bf16_relu", 128, 256, 64, 8, "bf16", "relu", "nk"),
    ("pbw_128x256x64_w8_bias_relu", 128, 256, 64, 8, "f16", "bias_relu", "nk"),
    ("pbw_128x128x64_w8_bf16_residual", 128, 128, 64, 8, "bf16", "residual", "nk"),
    ("pbw_128x128x64_w4_kn_alpha", 128, 128, 64, 4, "f16", "alpha", "kn"),
]
# sm_100a pairs (ws.cluster of two along x): the pair issues one
# tcgen05.mma of 256 rows (cta_group::2), each CTA holding its 128 rows of
# A and half of B; same fields, the schedule names the cluster
BLACKWELL_PAIRS = [
    ("bw_128x256x64_w8_c2x1", 128, 256, 64, 8, "f16", "none", "nk", "tile_c2x1"),
    ("bw_128x128x64_w4_bf16_bias_relu_c2x1", 128, 128, 64, 4, "bf16", "bias_relu", "nk",
     "tile_c2x1"),
    ("pbw_128x256x64_w8_c2", 128, 256, 64, 8, "f16", "none", "nk", "persistent_c2"),
    ("pbw_128x128x64_w8_bf16_residual_c2", 128, 128, 64, 8, "bf16", "residual", "nk",
     "persistent_c2"),
]
# clusters of two (TMA multicast of the operand the pair shares); same
# fields, the schedule names the cluster
CLUSTERED = [
    ("mm_128x256x64_w8_c2x1", 128, 256, 64, 8, "f16", "none", "nk", "tile_c2x1"),
    ("mm_128x256x64_w8_bf16_c1x2", 128, 256, 64, 8, "bf16", "none", "nk", "tile_c1x2"),
    ("mm_128x128x64_w8_kn_c2x1", 128, 128, 64, 8, "f16", "bias_relu", "kn", "tile_c2x1"),
    ("pmm_128x256x64_w8_c2", 128, 256, 64, 8, "f16", "none", "nk", "persistent_c2"),
    ("pmm_128x128x64_w8_c2", 128, 128, 64, 8, "f16", "none", "nk", "persistent_c2"),
    ("pmm_128x128x64_w8_bf16_c2", 128, 128, 64, 8, "bf16", "none", "nk", "persistent_c2"),
    ("pmm_128x256x64_w8_bf16_residual_c2", 128, 256, 64, 8, "bf16", "residual", "nk",
     "persistent_c2"),
]
# split-K (ws.split_k = true on the tile loop): persistent kernels whose
# tiles' K ranges are split over blocks when the grid has more blocks than
# tiles; same fields, the schedule last ("persistent_sk", or
# "cooperative_sk" with the overlap forced)
SPLIT_K = [
    ("pmm_128x256x64_w8_sk", 128, 256, 64, 8, "f16", "none", "nk", "persistent_sk"),
    ("pmm_128x256x64_w8_bf16_sk", 128, 256, 64, 8, "bf16", "none", "nk", "persistent_sk"),
    ("pmm_128x128x64_w8_sk_bias_relu", 128, 128, 64, 8, "f16", "bias_relu", "nk",
     "persistent_sk"),
    ("pmm_128x128x64_w8_coop_sk_residual", 128, 128, 64, 8, "bf16", "residual", "kn",
     "cooperative_sk"),
]
# stream-K (ws.split_k = "stream" on the tile loop): persistent kernels
# whose last two waves' K steps are shared out evenly over the blocks when
# there are at least as many tiles as blocks; same fields, "persistent_st",
# or "cooperative_st" with the overlap forced
STREAM_K = [(v[0].replace("_sk", "_st"),) + v[1:8] + (v[8].replace("_sk", "_st"),)
            for v in SPLIT_K]
# the C tile handed to the store warp box by box (ws.store_boxes = true on
# the marked loop: each TMA box of it stored as soon as it is written);
# same fields, "_sb" in the schedule
STORE_BOXES = [
    ("mm_128x256x64_w8_sb", 128, 256, 64, 8, "f16", "none", "nk", "tile_sb"),
    ("mm_128x256x64_w8_bf16_bias_relu_sb", 128, 256, 64, 8, "bf16", "bias_relu", "nk",
     "tile_sb"),
    ("mm_64x96x32_w4_kn_sb", 64, 96, 32, 4, "f16", "relu", "kn", "tile_sb"),
    ("mm_128x256x64_w8_c2x1_sb", 128, 256, 64, 8, "f16", "none", "nk", "tile_c2x1_sb"),
    ("pmm_128x256x64_w8_sb", 128, 256, 64, 8, "f16", "none", "nk", "persistent_sb"),
    ("pmm_128x128x64_w8_bf16_residual_sb", 128, 128, 64, 8, "bf16", "residual", "nk",
     "persistent_sb"),
    ("pmm_128x128x64_w8_coop_sb", 128, 128, 64, 8, "f16", "alpha", "kn", "cooperative_sb"),
    ("pmm_128x256x64_w8_bf16_sk_sb", 128, 256, 64, 8, "bf16", "none", "nk",
     "persistent_sb_sk"),
]


def tile_coordinates(bm, bn, persistent, paired=False):
    """The lines that set %m and %n: from the block index, or (persistent)
    from the tile id %t through ws.tile_coords, in the grouped order whose
    group ws-tile-order picks for the tile (16 rows of 128x256 tiles, 8 of
    128x128 on an H100). Paired (a cluster of two along x): %t numbers
    pairs of M tiles, and ws.tile_coords gives each block of the pair its
    row (the kernel's ws.cluster says so)."""
    if not persistent:
        return [
            "      %bx = gpu.block_id x",
            "      %by = gpu.block_id y",
            "      %bxi = arith.index_cast %bx : index to i32",
            "      %byi = arith.index_cast %by : index to i32",
            "      %m = arith.muli %bxi, %cbm : i32",
            "      %n = arith.muli %byi, %cbn : i32",
        ]
    return [f'        %m, %n = "ws.tile_coords"(%t, %M, %N) {{tile = array<i32: {bm}, {bn}>}} '
            ': (i32, i32, i32) -> (i32, i32)']


def paired_tile_loop_header(bm, bn):
    """A cluster of two along x: the loop runs from the cluster's index over
    pairs of M tiles (tiles_m rounded up to even) in steps of the clusters,
    so both blocks of a cluster take the same pair, and the same N tile."""
    return [
        "      %c1 = arith.constant 1 : i32",
        "      %c2 = arith.constant 2 : i32",
        "      %mp = arith.addi %M, %cbm : i32",
        "      %mp1 = arith.subi %mp, %c1 : i32",
        "      %tiles_m1 = arith.divui %mp1, %cbm : i32",
        "      %tiles_m2 = arith.addi %tiles_m1, %c1 : i32",
        "      %tiles_m = arith.divui %tiles_m2, %c2 : i32",
        "      %np = arith.addi %N, %cbn : i32",
        "      %np1 = arith.subi %np, %c1 : i32",
        "      %tiles_n = arith.divui %np1, %cbn : i32",
        "      %num_tiles = arith.muli %tiles_m, %tiles_n : i32",
        "      %cx = gpu.cluster_id x",
        "      %ncx = gpu.cluster_dim x",
        "      %first = arith.index_cast %cx : index to i32",
        "      %grid = arith.index_cast %ncx : index to i32",
        "      scf.for %t = %first to %num_tiles step %grid : i32 {",
    ]


def tile_loop_header(bm, bn):
    """Before a persistent kernel's tile loop: the tile counts, and the loop
    from the block index over every tile in steps of the grid."""
    return [
        "      %c1 = arith.constant 1 : i32",
        "      %mp = arith.addi %M, %cbm : i32",
        "      %mp1 = arith.subi %mp, %c1 : i32",
        "      %tiles_m = arith.divui %mp1, %cbm : i32",
        "      %np = arith.addi %N, %cbn : i32",
        "      %np1 = arith.subi %np, %c1 : i32",
        "      %tiles_n = arith.divui %np1, %cbn : i32",
        "      %num_tiles = arith.muli %tiles_m, %tiles_n : i32",
        "      %bx = gpu.block_id x",
        "      %gx = gpu.grid_dim x",
        "      %first = arith.index_cast %bx : index to i32",
        "      %grid = arith.index_cast %gx : index to i32",
        "      scf.for %t = %first to %num_tiles step %grid : i32 {",
    ]


def kernel_prologue(bm, bn, bk, warps, acc, persistent, cluster=None):
    """From the kernel's attributes to the tile's %m and %n: the constants,
    the accumulator's zero, and (persistent) the tile loop's header; a
    cluster (x, y) in ws.cluster (persistent: pairs along x)."""
    shape = f", ws.cluster = array<i32: {cluster[0]}, {cluster[1]}>" if cluster else ""
    lines = [
        f"        attributes {{ws.num_warps = {warps} : i32{shape}}} {{",
        "      %c0 = arith.constant 0 : i32",
        f"      %cbk = arith.constant {bk} : i32",
        f"      %cbm = arith.constant {bm} : i32",
        f"      %cbn = arith.constant {bn} : i32",
        f"      %zero = arith.constant dense<0.0> : {acc}",
    ]
    paired = persistent and cluster is not None
    if persistent:
        lines += paired_tile_loop_header(bm, bn) if paired else tile_loop_header(bm, bn)
    return lines + tile_coordinates(bm, bn, persistent, paired)


def operands(bm, bn, t, epilogue):
    """The epilogue's tensor operands: (argument, descriptor type, tile)."""
    if epilogue == "bias_relu":
        tile = f"tensor<1x{bn}x{t}>"
        return [("bias", f"!ws.tensor_desc<{tile}>", tile)]
    if epilogue == "bias_col":
        tile = f"tensor<1x{bm}xf32>"
        return [("rowbias", f"!ws.tensor_desc<{tile}>", tile)]
    if epilogue == "residual":
        tile = f"tensor<{bm}x{bn}x{t}>"
        return [("res", f"!ws.tensor_desc<{tile}>", tile)]
    return []


def cluster_of(sched):
    """The ws.cluster of a schedule name ("tile_c2x1": (2, 1); "persistent_c2":
    (2, 1)), or None."""
    if "_c" not in sched:
        return None
    shape = sched.split("_c")[1]
    return tuple(int(x) for x in shape.split("x")) if "x" in shape else (int(shape), 1)


def render(name, bm, bn, bk, warps, t, epilogue, layout, persistent=False, overlap=None,
           chip="sm_90a", cluster=None, split_k=False, store_boxes=False):
    a = f"!ws.tensor_desc<tensor<{bm}x{bk}x{t}>>"
    b_tile = f"tensor<{bn}x{bk}x{t}>" if layout == "nk" else f"tensor<{bk}x{bn}x{t}>"
    b = f"!ws.tensor_desc<{b_tile}>"
    b_coords = "%n, %k" if layout == "nk" else "%k, %n"
    transpose = " {transpose_b}" if layout == "nk" else ""
    c = f"!ws.tensor_desc<tensor<{bm}x{bn}x{t}>>"
    acc = f"tensor<{bm}x{bn}xf32>"
    lines = [
        "// Generated by integration/matmul/variants.py",
        "module attributes {gpu.container_module} {",
        f'  gpu.module @kernels [#nvvm.target<chip = "{chip}">] {{',
        f"    gpu.func @{name}(%a: {a}, %b: {b}, %c: {c}, "
        + "".join(f"%{arg}: {desc}, " for arg, desc, _ in operands(bm, bn, t, epilogue))
        + ("%M: i32, %N: i32, " if persistent else "") + "%K: i32"
        + (", %alpha: f32" if epilogue in ("alpha", "residual") else "")
        + (", %beta: f32" if epilogue == "residual" else "") + ") kernel",
    ] + kernel_prologue(bm, bn, bk, warps, acc, persistent, cluster)
    lines += [
        f"      %acc = scf.for %k = %c0 to %K step %cbk iter_args(%acc0 = %zero) -> ({acc}) : i32 {{",
        f'        %ta = "ws.load"(%a, %m, %k) : ({a}, i32, i32) -> tensor<{bm}x{bk}x{t}>',
        f'        %tb = "ws.load"(%b, {b_coords}) : ({b}, i32, i32) -> {b_tile}',
        f'        %d = "ws.dot"(%ta, %tb, %acc0){transpose} : (tensor<{bm}x{bk}x{t}>, {b_tile}, {acc}) -> {acc}',
        f"        scf.yield %d : {acc}",
        "      }" + ("" if persistent else
                     " {ws.warp_specialize%s}" % (", ws.store_boxes = true" if store_boxes else "")),
    ]
    result = "%acc"
    for arg, desc, tile in operands(bm, bn, t, epilogue):
        coords = {"bias": "%c0, %n", "rowbias": "%c0, %m", "res": "%m, %n"}[arg]
        lines.append(f'      %{arg}_t = "ws.load"(%{arg}, {coords}) : ({desc}, i32, i32) -> {tile}')
    if epilogue == "bias_relu":  # relu(acc + bias[n])
        lines += [
            f'      %bias_b = "ws.broadcast"(%bias_t) {{axis = 1 : i32}} : (tensor<1x{bn}x{t}>) -> tensor<{bm}x{bn}x{t}>',
            f"      %bias_f = arith.extf %bias_b : tensor<{bm}x{bn}x{t}> to {acc}",
            f"      %biased = arith.addf %acc, %bias_f : {acc}",
            f"      %relu = arith.maximumf %biased, %zero : {acc}",
        ]
        result = "%relu"
    elif epilogue == "bias_col":  # acc + rowbias[m], an f32 bias per row
        lines += [
            f'      %rowbias_b = "ws.broadcast"(%rowbias_t) {{axis = 0 : i32}} : (tensor<1x{bm}xf32>) -> {acc}',
            f"      %biased = arith.addf %acc, %rowbias_b : {acc}",
        ]
        result = "%biased"
    elif epilogue == "residual":  # alpha acc + beta res
        lines += [
            f"      %res_f = arith.extf %res_t : tensor<{bm}x{bn}x{t}> to {acc}",
            f"      %al = tensor.splat %alpha : {acc}",
            f"      %be = tensor.splat %beta : {acc}",
            f"      %scaled = arith.mulf %acc, %al : {acc}",
            f"      %res_s = arith.mulf %res_f, %be : {acc}",
            f"      %sum = arith.addf %scaled, %res_s : {acc}",
        ]
        result = "%sum"
    if epilogue == "relu":
        lines.append(f"      %relu = arith.maximumf %acc, %zero : {acc}")
        result = "%relu"
    elif epilogue == "alpha":
        lines.append(f"      %al = tensor.splat %alpha : {acc}")
        lines.append(f"      %scaled = arith.mulf %acc, %al : {acc}")
        result = "%scaled"
    lines += [
        f"      %out = arith.truncf {result} : {acc} to tensor<{bm}x{bn}x{t}>",
        f'      "ws.store"(%c, %m, %n, %out) : ({c}, i32, i32, tensor<{bm}x{bn}x{t}>) -> ()',
    ]
    if persistent:
        forced = f'ws.overlap = "{overlap}", ' if overlap else ""
        split = {False: "", True: ", ws.split_k = true",
                 "stream": ', ws.split_k = "stream"'}[split_k]
        boxes = ", ws.store_boxes = true" if store_boxes else ""
        lines.append("      } {" + forced + "ws.warp_specialize" + split + boxes + "}")
    lines += [
        "      gpu.return",
        "    }",
        "  }",
        "}",
    ]
    return "\n".join(lines) + "\n"


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--chip")]
    if len(args) != 1 or args[0].startswith("-"):
        sys.exit("usage: variants.py OUTDIR [--chip=sm_100a] (writes every matmul variant of "
                 "the chip and a manifest there)")
    chip = "sm_100a" if "--chip=sm_100a" in sys.argv[1:] else "sm_90a"
    out = args[0]
    os.makedirs(out, exist_ok=True)
    sets = ((("tile", BLACKWELL), ("persistent", BLACKWELL_PERSISTENT), (None, BLACKWELL_PAIRS))
            if chip == "sm_100a"
            else (("tile", VARIANTS), ("persistent", PERSISTENT), ("cooperative", COOPERATIVE),
                  (None, CLUSTERED), (None, SPLIT_K), (None, STREAM_K),
                  (None, STORE_BOXES)))
    with open(os.path.join(out, "chip"), "w") as f:
        f.write(chip + "\n")
    with open(os.path.join(out, "manifest"), "w") as manifest:
        for set_sched, variants in sets:
            for v in variants:
                sched = set_sched or v[8]  # a clustered variant names its own
                plain = sched.replace("_sb", "")  # the schedule without store boxes
                v = v[:8]
                persistent = not sched.startswith("tile")
                with open(os.path.join(out, v[0] + ".mlir"), "w") as f:
                    f.write(render(*v, persistent=persistent,
                                   overlap="cooperative" if sched.startswith("cooperative")
                                   else None,
                                   chip=chip, cluster=cluster_of(plain),
                                   split_k="stream" if plain.endswith("_st")
                                   else plain.endswith("_sk"),
                                   store_boxes=plain != sched))
                manifest.write(" ".join(str(x) for x in v + (sched,)) + "\n")


if __name__ == "__main__":
    main()
