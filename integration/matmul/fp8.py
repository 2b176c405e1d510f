#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""FP8 matmuls on wgmma (sm_90a): C = (A @ B^T) scaled, A and B e4m3 or
e5m2, both K-major (B given N x K), accumulated in f32, C bf16 or f16.
Three scalings, each written in the tile language:

  per tensor  two f32 kernel arguments sa, sb: C = sa * sb * (A @ B^T)
  row-wise    an M vector of A's row scales and an N vector of B's column
              scales, loaded in the epilogue like a bias and spread with
              ws.broadcast: C[i][j] = sa[i] * sb[j] * (A @ B^T)[i][j]
  mx          (sm_100a) the OCP MX recipe in the MMA itself: an 8-bit
              exponent (ue8m0) per row and 32 of K of A and of B, given as
              MX atoms (32 x 16 bytes per 128 rows and 128 of K, see
              mx_scales) and passed to ws.dot as scale operands
  blocks      DeepGEMM's recipe: a scale per row of A and per 128 columns of K
              (1 x 128), and per 128 x 128 block of B, given per column of B
              and per 128 of K (each block's scale repeated over its 128
              columns: a K/128 x N tensor); each 128-deep K block's product
              (a ws.dot into a fresh accumulator) is scaled and added into
              the f32 accumulator on the CUDA cores (math.fma), so FP8
              wgmma's reduced-precision accumulation never runs past 128 of
              K. A K that is not a multiple of 128 ends in a partial block
              (TMA reads zeros)

Per tensor and row-wise come in two accumulations, as cuBLAS's do
(torch._scaled_mm's use_fast_accum): "fast" accumulates the whole K in
wgmma's accumulator; "promoted" (scalings tensor+p, rows+p) makes each
128-deep K block's product in a fresh accumulator and adds it into the f32
one on the CUDA cores, as the block-scaled kernel does, which keeps the
error flat in K. The consumer warpgroups of a promoting kernel take turns
at their wgmmas, so one's promotion runs under the other's wgmmas.

  fp8.py compile WS_OPT DIR   the kernels as DIR/NAME.mlir, PTX and launchers;
                              checks that the PTX has the FP8 wgmma
  fp8.py run DIR              on the GPU: each kernel against torch at
                              ragged and large sizes, K = 0, C padded with
                              guard bytes that must stay untouched
  fp8.py sanitize DIR         compute-sanitizer's racecheck, synccheck and
                              memcheck on one kernel of each scaling
                              (fp8.py small DIR NAME: one ragged shape)
  fp8.py accuracy DIR NAMES   the error of the named kernels and of cuBLAS
                              against K (512 to 16384), M = N = 2048
  fp8.py profile DIR NAME M N K
                              three launches of one kernel, for ncu
  fp8.py bench DIR            TFLOP/s against torch._scaled_mm with the same
                              scales (cuBLAS), in one process, uniform
                              [-1, 1] inputs cast to e4m3, L2 flushed
                              (triton.testing.do_bench); and the error of
                              each against an f32 reference on the
                              dequantized inputs
"""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, ".."))  # suite_kernels.py
sys.path.insert(0, here)  # the matmul suite's variants.py
import variants  # noqa: E402
from kernel_set import gpu_chip, main as kernel_main  # noqa: E402

# name, BM, BN, BK, warps, A type, B type, C type, scaling, schedule, chip
E4, E5 = "f8E4M3FN", "f8E5M2"
KERNELS = [
    ("fp8_pt_128x256x128_w8", 128, 256, 128, 8, E4, E4, "bf16", "tensor", "tile", "sm_90a"),
    ("fp8_pt_128x128x128_w8_e5m2", 128, 128, 128, 8, E4, E5, "f16", "tensor", "tile", "sm_90a"),
    ("fp8_rw_128x256x128_w8", 128, 256, 128, 8, E4, E4, "bf16", "rows", "tile", "sm_90a"),
    ("fp8_pt_64x128x128_w4", 64, 128, 128, 4, E4, E4, "bf16", "tensor", "tile", "sm_90a"),
    ("pfp8_pt_128x256x128_w8", 128, 256, 128, 8, E4, E4, "bf16", "tensor", "persistent",
     "sm_90a"),
    ("pfp8_pt_128x128x128_w8", 128, 128, 128, 8, E4, E4, "bf16", "tensor", "persistent",
     "sm_90a"),
    ("pfp8_rw_128x256x128_w8", 128, 256, 128, 8, E4, E4, "bf16", "rows", "persistent", "sm_90a"),
    # N = 2112 is 11 tiles of 192: no ragged last column of tiles
    ("pfp8_pt_128x192x128_w8", 128, 192, 128, 8, E4, E4, "bf16", "tensor", "persistent",
     "sm_90a"),
    ("pfp8_rw_128x192x128_w8", 128, 192, 128, 8, E4, E4, "bf16", "rows", "persistent", "sm_90a"),
    ("fp8_bs_128x128x128_w8", 128, 128, 128, 8, E4, E4, "bf16", "blocks", "tile", "sm_90a"),
    ("pfp8_bs_128x128x128_w8", 128, 128, 128, 8, E4, E4, "bf16", "blocks", "persistent",
     "sm_90a"),
    ("pfp8_bs_128x192x128_w8", 128, 192, 128, 8, E4, E4, "bf16", "blocks", "persistent",
     "sm_90a"),
    ("fp8_ptp_128x128x128_w8_e5m2", 128, 128, 128, 8, E5, E4, "f16", "tensor+p", "tile",
     "sm_90a"),
    ("pfp8_ptp_128x128x128_w8", 128, 128, 128, 8, E4, E4, "bf16", "tensor+p", "persistent",
     "sm_90a"),
    ("pfp8_ptp_128x192x128_w8", 128, 192, 128, 8, E4, E4, "bf16", "tensor+p", "persistent",
     "sm_90a"),
    ("pfp8_rwp_128x192x128_w8", 128, 192, 128, 8, E4, E4, "bf16", "rows+p", "persistent",
     "sm_90a"),
    # persistent over pairs of M tiles in clusters of two (B multicast)
    ("pfp8_pt_128x256x128_w8_c2", 128, 256, 128, 8, E4, E4, "bf16", "tensor", "persistent_c2",
     "sm_90a"),
    ("pfp8_bs_128x128x128_w8_c2", 128, 128, 128, 8, E4, E4, "bf16", "blocks", "persistent_c2",
     "sm_90a"),
    # split-K (ws.split_k): a thin output's tiles split their K range over
    # blocks
    ("pfp8_pt_128x256x128_w8_sk", 128, 256, 128, 8, E4, E4, "bf16", "tensor", "persistent_sk",
     "sm_90a"),
    ("pfp8_pt_128x128x128_w8_sk", 128, 128, 128, 8, E4, E4, "bf16", "tensor", "persistent_sk",
     "sm_90a"),
    ("pfp8_bs_128x128x128_w8_sk", 128, 128, 128, 8, E4, E4, "bf16", "blocks", "persistent_sk",
     "sm_90a"),
    # sm_100a: tcgen05.mma kind::f8f6f4 into tensor memory, the scales in the
    # epilogue (compiled and proved here; they run on a GPU of compute
    # capability 10.0)
    ("bwfp8_pt_128x256x128_w8", 128, 256, 128, 8, E4, E4, "bf16", "tensor", "tile", "sm_100a"),
    ("bwfp8_rw_128x128x128_w4_e5m2", 128, 128, 128, 4, E4, E5, "f16", "rows", "tile",
     "sm_100a"),
    ("pbwfp8_pt_128x256x128_w8", 128, 256, 128, 8, E4, E4, "bf16", "tensor", "persistent",
     "sm_100a"),
    ("pbwfp8_rw_128x128x128_w4", 128, 128, 128, 4, E5, E4, "bf16", "rows", "persistent",
     "sm_100a"),
    # an sm_100a pair: one tcgen05.mma kind::f8f6f4 of 256 rows for both CTAs
    # of a cluster of two (cta_group::2), persistent over pairs of M tiles
    ("pbwfp8_pt_128x256x128_w8_c2", 128, 256, 128, 8, E4, E4, "bf16", "tensor",
     "persistent_c2", "sm_100a"),
    # sm_100a, MX block scales in the MMA (tcgen05.mma.block_scale
    # kind::mxf8f6f4, the scales copied to tensor memory by tcgen05.cp)
    ("bwmx_128x256x128_w8", 128, 256, 128, 8, E4, E4, "bf16", "mx", "tile", "sm_100a"),
    ("pbwmx_128x128x128_w4_e5m2", 128, 128, 128, 4, E4, E5, "bf16", "mx", "persistent",
     "sm_100a"),
    # seed 003's kernel: MX block scales in a pair's one MMA (cta_group::2),
    # each CTA's scales copied into its own tensor memory by the leader's
    # tcgen05.cp.cta_group::2; tiled 128x256 and persistent 128x128
    ("bwmx_128x256x128_w8_c2x1", 128, 256, 128, 8, E4, E4, "bf16", "mx", "tile_c2x1",
     "sm_100a"),
    ("pbwmx_128x128x128_w4_c2", 128, 128, 128, 4, E4, E4, "bf16", "mx", "persistent_c2",
     "sm_100a"),
]


def render(name, bm, bn, bk, warps, ta, tb, tc, scaling, sched, chip="sm_90a"):
    """The kernel: the matmul suite's tile order and persistent tile loop
    (variants.py), FP8 operands, the scaling in the epilogue (or, for
    block scales, in the loop)."""
    persistent = sched.startswith("persistent")
    promoted = scaling.endswith("+p")
    scaling = scaling[:-2] if promoted else scaling
    a_tile, b_tile = f"tensor<{bm}x{bk}x{ta}>", f"tensor<{bn}x{bk}x{tb}>"
    c_tile, acc = f"tensor<{bm}x{bn}x{tc}>", f"tensor<{bm}x{bn}xf32>"
    a, b, c = (f"!ws.tensor_desc<{t}>" for t in (a_tile, b_tile, c_tile))
    # B's block scale: where an N tile lies inside one 128-column block, one
    # scalar per K block, read as element 0 of a 1 x 4 box at the tile's
    # first column (DeepGEMM's form); else each column's scale
    one_block = scaling == "blocks" and 128 % bn == 0
    ra, rb = f"tensor<1x{bm}xf32>", "tensor<1x4xf32>" if one_block else f"tensor<1x{bn}xf32>"
    args = f"%a: {a}, %b: {b}, "
    if scaling in ("rows", "blocks"):
        args += f"%rsa: !ws.tensor_desc<{ra}>, %rsb: !ws.tensor_desc<{rb}>, "
    if scaling == "mx":
        args += f"%sfa: !ws.tensor_desc<{MX_ATOM}>, %sfb: !ws.tensor_desc<{MX_ATOM}>, "
    args += f"%c: {c}, " + ("%M: i32, %N: i32, " if persistent else "") + "%K: i32"
    if scaling == "tensor":
        args += ", %sa: f32, %sb: f32"
    lines = [
        "// Generated by integration/matmul/fp8.py",
        "module attributes {gpu.container_module} {",
        f'  gpu.module @kernels [#nvvm.target<chip = "{chip}">] {{',
        f"    gpu.func @{name}({args}) kernel",
    ]
    prologue = variants.kernel_prologue(bm, bn, bk, warps, acc, persistent,
                                        variants.cluster_of(sched))
    if one_block:  # after the attributes line
        prologue.insert(1, "      %i0 = arith.constant 0 : index")
    lines += prologue
    lines += [
        f"      %acc = scf.for %k = %c0 to %K step %cbk iter_args(%acc0 = %zero) -> ({acc}) : i32 {{",
        f'        %ta = "ws.load"(%a, %m, %k) : ({a}, i32, i32) -> {a_tile}',
        f'        %tb = "ws.load"(%b, %n, %k) : ({b}, i32, i32) -> {b_tile}',
    ]
    if one_block:  # one K block per step: its product scaled by sa[row] * sb, promoted
        lines += [
            "        %kb = arith.divui %k, %cbk : i32",
            f'        %bsa = "ws.load"(%rsa, %kb, %m) : (!ws.tensor_desc<{ra}>, i32, i32) -> {ra}',
            f'        %bsb = "ws.load"(%rsb, %kb, %n) : (!ws.tensor_desc<{rb}>, i32, i32) -> {rb}',
            f'        %p = "ws.dot"(%ta, %tb, %zero) {{transpose_b}} : ({a_tile}, {b_tile}, {acc}) -> {acc}',
            f"        %sb = tensor.extract %bsb[%i0, %i0] : {rb}",
            f"        %sbr = tensor.splat %sb : {ra}",
            f"        %s = arith.mulf %bsa, %sbr : {ra}",
            f'        %sc = "ws.broadcast"(%s) {{axis = 0 : i32}} : ({ra}) -> {acc}',
            f"        %d = math.fma %p, %sc, %acc0 : {acc}",
        ]
    elif scaling == "blocks":  # one K block per step: its product, scaled, promoted
        lines += [
            "        %kb = arith.divui %k, %cbk : i32",
            f'        %bsa = "ws.load"(%rsa, %kb, %m) : (!ws.tensor_desc<{ra}>, i32, i32) -> {ra}',
            f'        %bsb = "ws.load"(%rsb, %kb, %n) : (!ws.tensor_desc<{rb}>, i32, i32) -> {rb}',
            f'        %p = "ws.dot"(%ta, %tb, %zero) {{transpose_b}} : ({a_tile}, {b_tile}, {acc}) -> {acc}',
            f'        %pa = "ws.broadcast"(%bsa) {{axis = 0 : i32}} : ({ra}) -> {acc}',
            f'        %pb = "ws.broadcast"(%bsb) {{axis = 1 : i32}} : ({rb}) -> {acc}',
            f"        %p1 = arith.mulf %p, %pa : {acc}",
            f"        %d = math.fma %p1, %pb, %acc0 : {acc}",
        ]
    elif scaling == "mx":  # the step's atoms: A's (row block, K block), then B's
        lines += mx_atom_loads(bm, bn)
        atoms = [f"%sa{i}" for i in range(bm // 128)] + [f"%sb{i}" for i in range(bn // 128)]
        lines.append(f'        %d = "ws.dot"(%ta, %tb, %acc0, {", ".join(atoms)}) {{transpose_b}} : '
                     f'({a_tile}, {b_tile}, {acc}, {", ".join([MX_ATOM] * len(atoms))}) -> {acc}')
    elif promoted:  # one K block per step: its product promoted, unscaled
        lines += [
            f'        %p = "ws.dot"(%ta, %tb, %zero) {{transpose_b}} : ({a_tile}, {b_tile}, {acc}) -> {acc}',
            f"        %d = arith.addf %acc0, %p : {acc}",
        ]
    else:
        lines.append(f'        %d = "ws.dot"(%ta, %tb, %acc0) {{transpose_b}} : ({a_tile}, {b_tile}, {acc}) -> {acc}')
    lines += [
        f"        scf.yield %d : {acc}",
        "      }" + ("" if persistent else " {ws.warp_specialize}"),
    ]
    if scaling in ("blocks", "mx"):
        pass  # the loop scaled every block
    elif scaling == "tensor":
        lines += [f"      %sa_t = tensor.splat %sa : {acc}",
                  f"      %sb_t = tensor.splat %sb : {acc}",
                  f"      %scaled_a = arith.mulf %acc, %sa_t : {acc}",
                  f"      %scaled = arith.mulf %scaled_a, %sb_t : {acc}"]
    else:
        lines += [f'      %rsa_t = "ws.load"(%rsa, %c0, %m) : (!ws.tensor_desc<{ra}>, i32, i32) -> {ra}',
                  f'      %rsb_t = "ws.load"(%rsb, %c0, %n) : (!ws.tensor_desc<{rb}>, i32, i32) -> {rb}',
                  f'      %sa_b = "ws.broadcast"(%rsa_t) {{axis = 0 : i32}} : ({ra}) -> {acc}',
                  f'      %sb_b = "ws.broadcast"(%rsb_t) {{axis = 1 : i32}} : ({rb}) -> {acc}',
                  f"      %scaled_a = arith.mulf %acc, %sa_b : {acc}",
                  f"      %scaled = arith.mulf %scaled_a, %sb_b : {acc}"]
    result = "%acc" if scaling in ("blocks", "mx") else "%scaled"
    lines += [f"      %out = arith.truncf {result} : {acc} to {c_tile}",
              f'      "ws.store"(%c, %m, %n, %out) : ({c}, i32, i32, {c_tile}) -> ()']
    if persistent:  # (a block-scaled tile holds its product beside the
        # accumulator: the planner runs it cooperative, not ping-pong)
        split = ", ws.split_k = true" if sched.endswith("_sk") else ""
        lines.append("      } {ws.warp_specialize" + split + "}")
    lines += ["      gpu.return", "    }", "  }", "}"]
    return "\n".join(lines) + "\n"


MX_ATOM = "tensor<32x16xi8>"


def mx_atom_loads(bm, bn):
    """The K step's MX atoms: a scale tensor holds the atom of row block r
    (128 rows) and K block q (128 of K) at rows 32 r.. and bytes 16 q.."""
    lines = ["        %c32 = arith.constant 32 : i32",
             "        %c16 = arith.constant 16 : i32",
             "        %kq = arith.divui %k, %cbk : i32",
             "        %kx = arith.muli %kq, %c16 : i32"]
    for side, origin, count in (("a", "%m", bm // 128), ("b", "%n", bn // 128)):
        lines += [f"        %r{side}q = arith.divui {origin}, %c128 : i32",
                  f"        %r{side}0 = arith.muli %r{side}q, %c32 : i32"]
        for i in range(count):
            row = f"%r{side}0"
            if i:
                lines.append(f"        %r{side}{i} = arith.addi %r{side}{i - 1}, %c32 : i32")
                row = f"%r{side}{i}"
            lines.append(f'        %s{side}{i} = "ws.load"(%sf{side}, {row}, %kx) : '
                         f'(!ws.tensor_desc<{MX_ATOM}>, i32, i32) -> {MX_ATOM}')
    return ["        %c128 = arith.constant 128 : i32"] + lines


def ptx_wants(k):
    """The FP8 wgmma of the kernel's A and B types (sm_90a), or tcgen05.mma
    kind::f8f6f4 and no wgmma (sm_100a)."""
    group = 2 if "_c2" in k[9] else 1  # a pair's MMA is both CTAs' (cta_group::2)
    if k[8] == "mx":
        return ["tcgen05.mma.cta_group::%d.kind::mxf8f6f4.block_scale" % group,
                "tcgen05.cp.cta_group::%d.32x128b.warpx4" % group,
                "tcgen05.ld.sync.aligned.16x256b"]
    if k[10] == "sm_100a":
        return ["tcgen05.mma.cta_group::%d.kind::f8f6f4" % group, "tcgen05.ld.sync.aligned.16x256b"]
    return ["wgmma.mma_async.sync.aligned.m64n%dk32.f32.%s.%s" % (
        k[2], "e4m3" if k[5] == "f8E4M3FN" else "e5m2", "e4m3" if k[6] == "f8E4M3FN" else "e5m2")]


class Kernel:
    """One compiled kernel loaded into this process, launched on torch tensors."""

    def __init__(self, folder, spec):
        from suite_kernels import suite_kernel
        (self.name, self.bm, self.bn, bk, warps, self.ta, self.tb, self.tc, scaling, _,
         self.chip) = spec
        self.promoted = scaling.endswith("+p")  # each K block's product promoted
        self.scaling = scaling[:-2] if self.promoted else scaling
        self.kernel = suite_kernel(folder, self.name)

    def launcher(self, a, b, c, sa, sb):
        """A callable that launches C = scaled A @ B^T (a: M x K, b: N x K)."""
        from suite_kernels import matmul_launcher
        m, k = a.shape
        n = b.shape[0]
        tensors = [a, b, c]
        scalars = ()
        if self.scaling == "rows":
            tensors[2:2] = [sa.view(1, -1), sb.view(1, -1)]
        elif self.scaling in ("blocks", "mx"):  # K/128 x M and K/128 x N; MX atoms
            tensors[2:2] = [sa, sb]
        else:
            scalars = (float(sa), float(sb))
        return matmul_launcher(self.kernel, self.bm, self.bn, tensors, m, n, k, scalars)


def block_scales(a, b, draw):
    """Scales drawn per (K block, row of A) and per (K block, 128-column
    block of B), B's given per column (K/128 x N), and the reference: the
    sum over K blocks of each block's product times its scales."""
    import torch
    m, k = a.shape
    n = b.shape[0]
    blocks = max(1, (k + 127) // 128)
    sa = draw(blocks, (m + 3) // 4 * 4)[:, :m]  # rows 16-byte aligned
    sb_blocks = draw(blocks, (n + 127) // 128)
    pitch = (n + 3) // 4 * 4
    sb = sb_blocks.repeat_interleave(128, dim=1)[:, :pitch].contiguous()[:, :n]
    ref = torch.zeros(m, n, device=a.device)
    af, bf = a.float(), b.float()
    for kb in range(0, k, 128):
        ref += (af[:, kb:kb + 128] @ bf[:, kb:kb + 128].T) * sa[kb // 128][:, None] * \
            sb[kb // 128][None, :]
    return sa, sb, ref




def mx_atoms(e):
    """Exponents e (rows x K/32, uint8) as MX atoms: the atom of row block
    r and K block q (128 rows, 128 of K) is 32 x 16 bytes at rows 32 r..
    and bytes 16 q.. of the result, byte 4 i + j of its row t the exponent
    of row 128 r + 32 i + t and K block of 32 4 q + j (ws.dot's atom
    layout). Returned as int8, the launcher's i8."""
    import torch
    rows, blocks = e.shape
    r_blocks, q_blocks = max(1, (rows + 127) // 128), max(1, (blocks + 3) // 4)
    full = torch.full((r_blocks * 128, q_blocks * 4), 127, dtype=torch.uint8, device=e.device)
    full[:rows, :blocks] = e
    # [r, i, t, q, j] -> [r, t, q, i, j]
    atoms = full.view(r_blocks, 4, 32, q_blocks, 4).permute(0, 2, 3, 1, 4)
    return atoms.reshape(r_blocks * 32, q_blocks * 16).contiguous().view(torch.int8)


def mx_scales(a, b, draw):
    """Exponents drawn (draw(rows, blocks): uint8 values) per row and 32 of
    K of A and of B, as MX atoms, and the reference: the product of the
    inputs each scaled by 2^(e - 127)."""
    import torch
    blocks = (a.shape[1] + 31) // 32
    ea, eb = draw(a.shape[0], blocks), draw(b.shape[0], blocks)

    def dequantized(x, e):
        scale = torch.pow(2.0, e.float() - 127).repeat_interleave(32, dim=1)
        return x.float() * scale[:, :x.shape[1]]
    ref = dequantized(a, ea) @ dequantized(b, eb).T
    return mx_atoms(ea), mx_atoms(eb), ref


def torch_types():
    import torch
    return {"f16": torch.float16, "bf16": torch.bfloat16, "f8E4M3FN": torch.float8_e4m3fn,
            "f8E5M2": torch.float8_e5m2, "f32": torch.float32}


def run(folder, only=None, shapes=None):
    import torch
    torch.zeros(1, device="cuda")  # torch's context current: the modules load into it
    torch.manual_seed(0)
    dt = torch_types()
    shapes = shapes or [(128, 256, 128), (300, 500, 208), (1000, 700, 1024), (256, 512, 0),
                        (2048, 2048, 2048), (64, 64, 32), (256, 512, 4096)]
    passed = failed = skipped = 0
    chip = gpu_chip()
    for line in open(os.path.join(folder, "manifest")):
        if only and line.split()[0] != only:
            continue
        if line.split()[-1] != chip:  # sm_100a kernels run on a GPU of compute capability 10.0
            skipped += 1
            continue
        k = Kernel(folder, line.split())
        for m, n, kk in shapes:
            # multiples of 1/8 in [-1, 1]: exact in e4m3 and e5m2, exact sums
            a = (torch.randint(-8, 9, (m, kk), device="cuda") / 8).to(dt[k.ta])
            b = (torch.randint(-8, 9, (n, kk), device="cuda") / 8).to(dt[k.tb])
            if k.scaling == "rows":
                sa = torch.randint(1, 5, (m,), device="cuda").float() / 4
                sb = torch.randint(1, 5, (n,), device="cuda").float() / 2
                ref = (a.float() @ b.float().T) * sa[:, None] * sb[None, :]
            elif k.scaling == "blocks":
                sa, sb, ref = block_scales(a, b, lambda *s: torch.randint(1, 5, s, device="cuda")
                                           .float() / 4)
            elif k.scaling == "mx":  # exponents 125..129: scales 1/4..4, exact
                sa, sb, ref = mx_scales(a, b, lambda *s: torch.randint(
                    125, 130, s, device="cuda").to(torch.uint8))
            else:
                sa, sb = 0.5, 1.25
                ref = (a.float() @ b.float().T) * sa * sb
            guard, ldc = 2, (n + 7) // 8 * 8 + 8
            sentinel = -12345.0
            cbuf = torch.full((m + 2 * guard, ldc), sentinel, device="cuda", dtype=dt[k.tc])
            c = cbuf[guard:guard + m, :n]
            k.launcher(a, b, c, sa, sb)()
            torch.cuda.synchronize()
            ref = ref.to(dt[k.tc]).float()
            bad = int(((c.float() - ref).abs() > 1e-2 + 1e-2 * ref.abs()).sum())
            mask = torch.ones_like(cbuf, dtype=torch.bool)
            mask[guard:guard + m, :n] = False
            outside = int((cbuf[mask].float() != cbuf.new_tensor(sentinel).float()).sum())
            ok = bad == 0 and outside == 0
            print(f"{'PASS' if ok else 'FAIL'} {k.name} {m}x{n}x{kk}: {bad} of {m * n} "
                  f"elements wrong, {outside} elements outside C changed", flush=True)
            passed += ok
            failed += not ok
    print(f"fp8: {passed} passed, {failed} failed, {skipped} kernels skipped (built for "
          f"another chip than this GPU's {chip})")
    return failed == 0


# the FP8 issue's shapes: square, then DeepSeek-V3's GEMMs as DeepGEMM benchmarks them
BENCH_SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (4096, 7168, 2048), (4096, 2112, 7168),
                (4096, 24576, 1536), (4096, 7168, 16384), (4096, 4096, 7168), (128, 7168, 16384)]


# What each kind of ws kernel is held against: cuBLAS (torch._scaled_mm) with
# the same scales and the same accumulation (use_fast_accum: whole-K in
# wgmma's accumulator, or promoted), and, for block scales, cuBLAS row-wise
# (cuBLAS has no 128 x 128 block scales on the H100) and ws's own fastest
# per-tensor kernel
KINDS = [("tensor", "per tensor, fast accumulation", "pt fast"),
         ("tensor+p", "per tensor, promoted", "pt"),
         ("rows", "row-wise, fast accumulation", "rw fast"),
         ("rows+p", "row-wise, promoted", "rw"),
         ("blocks", "block scales (promoted)", "rw")]


# BM, BN, BK, stages, warps
TRITON_CONFIGS = [(128, 256, 128, 3, 8), (128, 128, 128, 4, 8)]


def triton_runner(a, b, c, scale, config, sms):
    """Triton's persistent warp-specialized matmul of the matmul benchmark
    (integration/bench/matmul_bench.py: TMA descriptors,
    tl.range(warp_specialize=True), ws's grouped tile order) on FP8 A and B,
    C = scale * (A @ B^T) in bf16; tl.dot's default accumulation for FP8."""
    import triton.language as tl
    from triton.tools.tensor_descriptor import TensorDescriptor
    sys.path.insert(0, os.path.join(here, "..", "bench"))
    from matmul_bench import triton_ws_persistent
    bm, bn, bk, stages, warps = config
    m, k = a.shape
    n = b.shape[0]
    ad = TensorDescriptor.from_tensor(a, [bm, bk])
    bd = TensorDescriptor.from_tensor(b, [bn, bk])
    cd = TensorDescriptor.from_tensor(c, [bm, bn])
    return lambda: triton_ws_persistent[(sms,)](ad, bd, cd, m, n, k, bm, bn, bk, stages, sms,
                                                scale, SCALED=True, OUT=tl.bfloat16,
                                                num_warps=warps)


def bench(folder, names):
    """TFLOP/s at BENCH_SHAPES, in one process, on the same uniform [-1, 1]
    inputs cast to e4m3, each timed by triton.testing.do_bench (L2 flushed
    before every run, median): every named ws kernel, cuBLAS per tensor and
    row-wise in both accumulations, and Triton's FP8 matmul. Each kind of ws
    kernel (KINDS) is quoted by its fastest kernel per shape against its
    cuBLAS counterpart; errors are max |C - ref| / max |ref| against an f32
    product of the dequantized inputs. Ends with one table per kind and the
    weakest shape of each."""
    import torch
    from triton.testing import do_bench
    torch.zeros(1, device="cuda")
    torch.manual_seed(0)
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    specs = {line.split()[0]: line.split() for line in open(os.path.join(folder, "manifest"))}
    kernels = [Kernel(folder, specs[n]) for n in names]

    def tflops(m, n, k, ms):
        return 2.0 * m * n * k / (ms * 1e-3) / 1e12

    def rel_err(c, want):
        return float((c.float() - want).abs().max() / want.abs().max())

    rows = []  # (shape, {column: (tflops, err)})
    for m, n, kk in BENCH_SHAPES:
        a = (torch.rand(m, kk, device="cuda") * 2 - 1).to(torch.float8_e4m3fn)
        b = (torch.rand(n, kk, device="cuda") * 2 - 1).to(torch.float8_e4m3fn)
        af, bf = a.float(), b.float()
        prod = af @ bf.T
        sa, sb = torch.tensor(0.75, device="cuda"), torch.tensor(1.5, device="cuda")
        rsa = torch.rand(m, device="cuda") + 0.5
        rsb = torch.rand(n, device="cuda") + 0.5
        want = {"tensor": prod * 0.75 * 1.5, "rows": prod * rsa[:, None] * rsb[None, :]}
        bsa, bsb, want["blocks"] = block_scales(a, b, lambda *s: torch.rand(*s, device="cuda")
                                                + 0.5)
        del prod
        got = {}
        for fast in (False, True):
            for kind, scales in (("pt", (sa, sb)), ("rw", (rsa[:, None], rsb[None, :]))):
                def cublas(scales=scales, fast=fast):
                    return torch._scaled_mm(a, b.T, scale_a=scales[0], scale_b=scales[1],
                                            out_dtype=torch.bfloat16, use_fast_accum=fast)
                c = cublas()
                col = kind + (" fast" if fast else "")
                got["cuBLAS " + col] = (tflops(m, n, kk, do_bench(cublas, warmup=25, rep=200)),
                                        rel_err(c, want["tensor" if kind == "pt" else "rows"]))
        best = None
        for config in TRITON_CONFIGS:
            c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
            try:
                run = triton_runner(a, b, c, 0.75 * 1.5, config, sms)
                run()
                torch.cuda.synchronize()
                t = tflops(m, n, kk, do_bench(run, warmup=25, rep=200))
            except Exception as e:  # a configuration Triton cannot build here
                print(f"Triton {config}: {type(e).__name__}: {str(e)[:120]}", flush=True)
                continue
            if best is None or t > best[0]:
                best = (t, rel_err(c, want["tensor"]))
        if best:
            got["Triton"] = best
        for k in kernels:
            c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
            if k.scaling == "rows":
                launch = k.launcher(a, b, c, rsa, rsb)
            elif k.scaling == "blocks":
                launch = k.launcher(a, b, c, bsa, bsb)
            else:
                launch = k.launcher(a, b, c, 0.75, 1.5)
            launch()
            torch.cuda.synchronize()
            got[k.name] = (tflops(m, n, kk, do_bench(launch, warmup=25, rep=200)),
                           rel_err(c, want[k.scaling]))
        rows.append((f"{m}x{n}x{kk}", got))
        print(f"{m}x{n}x{kk}: " + "; ".join(f"{col} {t:.0f} ({e:.1e})"
                                             for col, (t, e) in got.items()), flush=True)

    def kind_of(k):
        return k.scaling + ("+p" if k.promoted else "")

    fastest_pt = {}  # shape: ws's fastest per-tensor kernel, either accumulation
    for shape, got in rows:
        fastest_pt[shape] = max((got[k.name][0] for k in kernels if k.scaling == "tensor"),
                                default=0)
    for kind, title, base in KINDS:
        mine = [k for k in kernels if kind_of(k) == kind]
        if not mine:
            continue
        print(f"\n{title}: ws's fastest of {', '.join(k.name for k in mine)}, "
              f"against cuBLAS {base}")
        extra = " | / ws per tensor" if kind == "blocks" else ""
        print(f"| M x N x K | cuBLAS {base} (err) | Triton | ws (err) | ws / cuBLAS{extra} |")
        print("|---|---|---|---|---|" + ("---|" if extra else ""))
        weakest = None
        for shape, got in rows:
            name = max((k.name for k in mine), key=lambda x: got[x][0])
            t, e = got[name]
            tb, eb = got["cuBLAS " + base]
            ratio = t / tb
            weakest = min(weakest or (9, ""), (ratio, shape))
            tri = f"{got['Triton'][0]:.0f}" if "Triton" in got else "-"
            cell = f" | {t / fastest_pt[shape]:.2f}x" if extra and fastest_pt[shape] else ""
            print(f"| {shape} | {tb:.0f} ({eb:.1e}) | {tri} | {t:.0f} ({e:.1e}, {name}) | "
                  f"{ratio:.2f}x{cell} |")
        print(f"weakest shape: {weakest[1]} at {weakest[0]:.2f}x cuBLAS {base}")


ACCURACY_KS = (512, 2048, 8192, 16384)


def accuracy(folder, names):
    """The error (max |C - ref| / max |ref| against an f32 product of the
    dequantized inputs) against K, at M = N = 2048, uniform [-1, 1] inputs
    cast to e4m3: every named ws kernel with its scaling's scales, and
    cuBLAS per tensor in both accumulations. Shows which accumulations stay
    flat in K and which grow."""
    import torch
    torch.zeros(1, device="cuda")
    torch.manual_seed(0)
    specs = {line.split()[0]: line.split() for line in open(os.path.join(folder, "manifest"))}
    kernels = [Kernel(folder, specs[n]) for n in names]
    m = n = 2048
    cols = ["cuBLAS pt fast", "cuBLAS pt"] + [k.name for k in kernels]
    print("| K | " + " | ".join(cols) + " |")
    print("|---|" + "---|" * len(cols))
    for kk in ACCURACY_KS:
        a = (torch.rand(m, kk, device="cuda") * 2 - 1).to(torch.float8_e4m3fn)
        b = (torch.rand(n, kk, device="cuda") * 2 - 1).to(torch.float8_e4m3fn)
        prod = a.float() @ b.float().T
        one = torch.tensor(1.0, device="cuda")
        errs = []
        for fast in (True, False):
            c = torch._scaled_mm(a, b.T, scale_a=one, scale_b=one, out_dtype=torch.bfloat16,
                                 use_fast_accum=fast)
            errs.append(float((c.float() - prod).abs().max() / prod.abs().max()))
        for k in kernels:
            c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
            if k.scaling == "rows":
                sa, sb, want = torch.ones(m, device="cuda"), torch.ones(n, device="cuda"), prod
            elif k.scaling == "blocks":
                sa, sb, want = block_scales(a, b, lambda *s: torch.rand(*s, device="cuda") + 0.5)
            else:
                sa, sb, want = 1.0, 1.0, prod
            k.launcher(a, b, c, sa, sb)()
            torch.cuda.synchronize()
            errs.append(float((c.float() - want).abs().max() / want.abs().max()))
        print(f"| {kk} | " + " | ".join(f"{e:.1e}" for e in errs) + " |", flush=True)


def profile(folder, name, m, n, k):
    """Three launches of one kernel at M x N x K (uniform [-1, 1] inputs cast
    to e4m3), for a profiler to pick one: ncu --launch-skip 2."""
    import torch
    torch.zeros(1, device="cuda")
    spec = [line.split() for line in open(os.path.join(folder, "manifest"))
            if line.split()[0] == name][0]
    kern = Kernel(folder, spec)
    a = (torch.rand(m, k, device="cuda") * 2 - 1).to(torch.float8_e4m3fn)
    b = (torch.rand(n, k, device="cuda") * 2 - 1).to(torch.float8_e4m3fn)
    c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    if kern.scaling == "rows":
        sa, sb = torch.rand(m, device="cuda") + 0.5, torch.rand(n, device="cuda") + 0.5
    elif kern.scaling == "blocks":
        sa, sb, _ = block_scales(a, b, lambda *s: torch.rand(*s, device="cuda") + 0.5)
    else:
        sa, sb = 0.75, 1.5
    run = kern.launcher(a, b, c, sa, sb)
    for _ in range(3):
        run()
    torch.cuda.synchronize()
    print(f"profiled {name} at {m}x{n}x{k}")


SANITIZED = ["pfp8_pt_128x256x128_w8", "fp8_rw_128x256x128_w8", "pfp8_bs_128x128x128_w8",
             "pfp8_ptp_128x128x128_w8"]


def sanitize(folder):
    """Each sanitizer on one kernel of each scaling, at one ragged shape."""
    import subprocess
    failed = 0
    for tool in ("racecheck", "synccheck", "memcheck"):
        for name in SANITIZED:
            r = subprocess.run(["compute-sanitizer", "--tool", tool, sys.executable,
                                os.path.abspath(__file__), "small", folder, name],
                               capture_output=True, text=True, timeout=900)
            log = r.stdout + r.stderr
            summary = [l for l in log.splitlines() if "SUMMARY" in l]
            ok = r.returncode == 0 and any(
                "0 hazards displayed (0 errors, 0 warnings)" in l or "ERROR SUMMARY: 0 errors" in l
                for l in summary) and "fp8: 1 passed, 0 failed" in log
            failed += not ok
            print(f"compute-sanitizer --tool {tool} {name}: "
                  f"{' '.join(summary[-1].split()) if summary else log[-300:]}", flush=True)
    print(f"fp8 sanitizers: {3 * len(SANITIZED) - failed} passed, {failed} failed")
    return failed == 0


if __name__ == "__main__":
    kernel_main(__doc__, KERNELS, render, ptx_wants, "FP8 matmuls", {
        "run": run,
        "small": lambda folder, name: run(folder, name, [(200, 300, 272)]),
        "sanitize": sanitize,
        "profile": lambda folder, name, m, n, k: profile(folder, name, int(m), int(n), int(k)),
        "bench": lambda folder, *names: bench(folder, names),
        "accuracy": lambda folder, *names: accuracy(folder, names),
    })
