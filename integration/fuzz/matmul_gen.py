# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Draws matmul kernels for the GPU differential fuzz: a tile configuration
wgmma and the budget take (M tile 64/128/256 over 4 or 8 warps, N tile a
multiple of 8 up to 256, or of 16 for a K x N B, K tile 16/32/48/64/128), f16 or
bf16, B given N x K or K x N, with or without a ReLU epilogue, the C tile
stored whole or box by box (ws.store_boxes), rendered by
integration/matmul/variants.py; persistent ones (draw_persistent); in
clusters of two (draw_cluster); and sm_100a ones for tcgen05
(draw_tcgen05). Every draw must compile."""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "matmul"))
import variants  # noqa: E402
import fp8  # noqa: E402  (integration/matmul/fp8.py: FP8 kernels, scaled per tensor)


def store_boxes(rng):
    """Whether a kernel hands its C tile to the store warp box by box
    (ws.store_boxes): drawn last, so that a seed's other draws stay as
    they were before it existed."""
    return rng.random() < 0.4


def draw(rng, index):
    """(spec, .mlir text) of matmul kernel number `index`."""
    warps = rng.choice([4, 8])
    bm = rng.choice([64, 128]) if warps == 4 else rng.choice([128, 128, 256])
    rows = bm // (warps // 4)
    layout = rng.choice(["nk", "kn"])
    step = 16 if layout == "kn" else 8
    most = 256 if rows == 64 else 128  # at most 128 accumulator registers
    bn = step * rng.randint(1, most // step)
    bk = rng.choice([16, 32, 48, 64, 128])
    dtype = rng.choice(["f16", "bf16"])
    epilogue = rng.choice(["none", "relu"])
    boxes = store_boxes(rng)
    name = "mm%03d_%dx%dx%d_w%d_%s_%s_%s%s" % (index, bm, bn, bk, warps, dtype, layout, epilogue,
                                               "_sb" if boxes else "")
    spec = {"kind": "matmul", "name": name, "bm": bm, "bn": bn, "bk": bk, "warps": warps,
            "dtype": dtype, "layout": layout, "epilogue": epilogue,
            "rank": 2, "out_type": dtype}
    return spec, variants.render(name, bm, bn, bk, warps, dtype, epilogue, layout,
                                 store_boxes=boxes)


def draw_persistent(rng, index):
    """(spec, .mlir text) of persistent matmul number `index`: a tile loop
    over a grouped tile order on 8 warps (two consumer warpgroups), M tile
    128, N tile 64 to 256 (ping-pong up to 128 unless cooperative is
    forced), with an epilogue that may load a bias row, an f32 bias per row
    or a residual (with alpha and beta); split-K (ws.split_k) now and then."""
    bm, warps = 128, 8
    layout = rng.choice(["nk", "kn"])
    bn = rng.choice([64, 128, 192, 256]) if layout == "nk" else rng.choice([64, 128, 256])
    bk = rng.choice([32, 64])
    dtype = rng.choice(["f16", "bf16"])
    epilogue = rng.choice(["none", "relu", "alpha", "bias_relu", "bias_col", "residual"])
    # the planner runs N <= 128 ping-pong; force the other way now and then
    overlap = rng.choice([None, None, "cooperative"]) if bn <= 128 else None
    split_k = rng.random() < 0.3  # ws.split_k: K ranges split over blocks
    boxes = store_boxes(rng)
    name = "pmm%03d_%dx%dx%d_%s_%s_%s%s%s%s" % (index, bm, bn, bk, dtype, layout, epilogue,
                                                "_coop" if overlap else "",
                                                "_sk" if split_k else "", "_sb" if boxes else "")
    spec = {"kind": "matmul", "persistent": True, "name": name, "bm": bm, "bn": bn, "bk": bk,
            "warps": warps, "dtype": dtype, "layout": layout, "epilogue": epilogue,
            "rank": 2, "out_type": dtype, "split_k": split_k}
    return spec, variants.render(name, bm, bn, bk, warps, dtype, epilogue, layout,
                                 persistent=True, overlap=overlap, split_k=split_k,
                                 store_boxes=boxes)


def draw_cluster(rng, index):
    """(spec, .mlir text) of cluster matmul number `index` (ws.cluster, two
    blocks sharing an operand through TMA multicast): tiled in pairs along
    x (sharing B) or y (sharing A), or persistent over pairs of M tiles
    (sharing B); the shared tile's rows split into parts of a multiple of
    8."""
    persistent = rng.random() < 0.4
    layout = rng.choice(["nk", "kn"])
    dtype = rng.choice(["f16", "bf16"])
    if persistent:
        bm, warps, cluster = 128, 8, (2, 1)
        bn = rng.choice([64, 128, 256]) if layout == "kn" else rng.choice([64, 128, 192, 256])
        bk = rng.choice([32, 64])
        epilogue = rng.choice(["none", "relu", "alpha", "bias_relu", "bias_col", "residual"])
    else:
        cluster = rng.choice([(2, 1), (1, 2)])
        warps = rng.choice([4, 8])
        bm = 128 if warps == 8 else rng.choice([64, 128])
        most = 256 if bm // (warps // 4) == 64 else 128
        bn = 16 * rng.randint(1, most // 16)
        bk = rng.choice([16, 32, 64, 128]) if layout == "kn" else rng.choice([32, 64, 128])
        epilogue = rng.choice(["none", "relu"])
    boxes = store_boxes(rng)
    name = "%smc%03d_%dx%dx%d_w%d_%s_%s_%s_c%dx%d%s" % ("p" if persistent else "", index, bm, bn,
                                                       bk, warps, dtype, layout, epilogue,
                                                       *cluster, "_sb" if boxes else "")
    spec = {"kind": "matmul", "persistent": persistent, "name": name, "bm": bm, "bn": bn,
            "bk": bk, "warps": warps, "dtype": dtype, "layout": layout, "epilogue": epilogue,
            "rank": 2, "out_type": dtype, "cluster": list(cluster)}
    return spec, variants.render(name, bm, bn, bk, warps, dtype, epilogue, layout,
                                 persistent=persistent, cluster=cluster, store_boxes=boxes)


def draw_fp8(rng, index):
    """(spec, .mlir text) of FP8 matmul number `index` on sm_90a: A and B
    e4m3 or e5m2 (any mix), both K-major, K tile 32/64/128, M tile 64 on 4
    warps or 128 on 8, N tile a multiple of 8 (at most 128 accumulator
    registers), a bf16 or f16 C scaled per tensor by two f32 arguments,
    tiled or persistent."""
    warps = rng.choice([4, 8])
    bm = 64 if warps == 4 else 128
    bn = 8 * rng.randint(1, 256 // 8)
    bk = rng.choice([32, 64, 128])
    ta, tb = rng.choice(["f8E4M3FN", "f8E5M2"]), rng.choice(["f8E4M3FN", "f8E5M2"])
    tc = rng.choice(["bf16", "f16"])
    persistent = warps == 8 and rng.choice([False, True])
    name = "f8mm%03d_%dx%dx%d_w%d_%s_%s_%s%s" % (index, bm, bn, bk, warps, ta[2:6], tb[2:6], tc,
                                                "_p" if persistent else "")
    spec = {"kind": "matmul", "persistent": persistent, "name": name, "bm": bm, "bn": bn,
            "bk": bk, "warps": warps, "dtype": tc, "a_type": ta, "b_type": tb,
            "layout": "nk", "epilogue": "scales", "rank": 2, "out_type": tc}
    return spec, fp8.render(name, bm, bn, bk, warps, ta, tb, tc, "tensor",
                            "persistent" if persistent else "tile")


def draw_tcgen05(rng, index):
    """(spec, .mlir text) of sm_100a matmul number `index`: what tcgen05
    takes (M tile 128, N tile a multiple of 16 with at most 128 accumulator
    columns per epilogue warpgroup, K tile 16/32/48/64, or 128 where shared
    memory has room, B given N x K),
    f16 or bf16, tiled or persistent, with any of the epilogues, and a
    third of them pairs (ws.cluster 2 x 1: one tcgen05.mma of 256 rows for
    two blocks, B split between them). It runs only on a GPU of compute
    capability 10.0."""
    pair = rng.random() < 1 / 3
    warps = rng.choice([4, 8])
    bn = 16 * rng.randint(1, (128 * (warps // 4)) // 16)
    dtype = rng.choice(["f16", "bf16"])
    epilogue = rng.choice(["none", "relu", "alpha", "bias_relu", "bias_col", "residual"])
    persistent = rng.choice([False, True])
    # a K tile of 128 fits shared memory only where the C tile may lie over
    # the rings and no residual slot comes after them
    wide = not persistent and epilogue != "residual"
    bk = rng.choice([16, 32, 48, 64, 128] if wide else [16, 32, 48, 64])
    cluster = (2, 1) if pair else None
    name = "tc%03d_%dx%dx%d_w%d_%s_%s%s%s" % (index, 128, bn, bk, warps, dtype, epilogue,
                                             "_p" if persistent else "", "_c2" if pair else "")
    spec = {"kind": "matmul", "chip": "sm_100a", "persistent": persistent, "name": name,
            "bm": 128, "bn": bn, "bk": bk, "warps": warps, "dtype": dtype, "layout": "nk",
            "epilogue": epilogue, "rank": 2, "out_type": dtype}
    if pair:
        spec["cluster"] = list(cluster)
    return spec, variants.render(name, 128, bn, bk, warps, dtype, epilogue, "nk",
                                 persistent=persistent, chip="sm_100a", cluster=cluster)
