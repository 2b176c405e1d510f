/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_lower_tcgen05.h: how ws-lower-to-nvvm runs a matmul on sm_100a's
 * tcgen05 and reads its accumulator from tensor memory. Internal.
 *
 * The accumulator of an M = 128 matmul lies in tensor memory with row i in
 * lane i and column j in 32-bit column j of its buffer. The epilogue warps
 * read it with tcgen05.ld.16x256b, whose registers are laid out as wgmma's
 * accumulator (value 4 j + 2 h + e of a 16-row part: row lane / 4 + 8 h,
 * column 8 j + 2 (lane % 4) + e): warp w of a warpgroup reads lanes
 * 32 w..32 w + 31 as two parts of 16, and with several warpgroups each
 * reads its share of the columns (ws_mma_shape's col_groups). So the
 * fragment code of ws_lower_fragment.h runs the epilogue unchanged.
 *
 * A and B lie in their ring slots K-major and swizzled as for wgmma
 * (ws_lower_mma.h); the shared-memory descriptors are tcgen05's (upstream
 * nvvm.tcgen05.mma_smem_desc), one pair per K step of 16. */
#ifndef WS_LOWER_TCGEN05_H
#define WS_LOWER_TCGEN05_H

#include "../support/ws_builder.h"
#include "ws_lower_mma.h"

/* The fragment layout of `warpgroups` epilogue warpgroups reading an
 * M = 128 x N accumulator from tensor memory (k, swizzles unused). */
ws_mma_shape ws_tcgen05_layout(MlirContext ctx, int warpgroups, int n);

/* The 32-bit instruction descriptor of tcgen05.mma for the form's kind
 * (kind::f16 or kind::f8f6f4) with an f32 accumulator, A and B of the
 * form's types, A K-major, B K-major or (b_n_major) N-major, M = 128 for
 * each of `ctas` CTAs (2: a pair's MMA, cta_group::2, M = 256). */
uint32_t ws_tcgen05_idesc(const ws_mma_form *form, int n, bool b_n_major, int ctas);

/* kind::mxf8f6f4's descriptor: as above with the scales (ue8m0) read from
 * byte `block` of their tensor-memory columns. */
uint32_t ws_tcgen05_scaled_idesc(const ws_mma_form *form, int n, bool b_n_major, int ctas,
                                 int block);

/* One thread issues D (+)= A @ B for a K-major A (128 x k) at shared
 * address a_addr and B (n x k, or k x n when b_n_major) at b_addr (i32,
 * swizzled by a_span and b_span bytes, the slot starts), into the
 * tensor-memory address d (!llvm.ptr<6>). With ctas = 2 it is a pair's MMA
 * (cta_group::2, M = 256): each CTA holds 128 rows of A and n / 2 rows of
 * B at those addresses in its own shared memory, and gets its rows of D
 * in its own tensor memory. k / form->k tcgen05.mma of the
 * form's kind, the first accumulating when `accumulate` (i1) holds, the
 * others always. With `scales` (A's and B's first scale columns, tensor-
 * memory addresses) the form is block-scaled: tcgen05.mma.block_scale,
 * K step kk of 32 scaled by byte kk of the columns. */
void ws_emit_tcgen05_mma(ws_builder *b, const ws_mma_form *form, int n, int k, int a_span,
                         int b_span, bool b_n_major, int ctas, MlirValue a_addr, MlirValue b_addr,
                         MlirValue d, MlirValue accumulate, const MlirValue *scales);

/* One thread copies an MX scale atom (32 rows of 16 bytes, unswizzled, at
 * shared address `addr`) to the tensor-memory columns at `taddr`:
 * tcgen05.cp.32x128b.warpx4, each 32-lane quarter of the columns a copy,
 * so lane 32 q + r's column c holds the atom's row r, bytes 4 c..4 c + 3
 * (the scale of row 32 c + r of the 128, for K blocks 0..3), the layout
 * kind::mxf8f6f4 reads with M = 128 (PTX ISA, "Scale factor A"). With
 * ctas = 2 (a pair, cta_group::2) the leader's one copy does so in both
 * CTAs, each CTA's atom at `addr` into its own columns at `taddr`: a pair's
 * MMA reads A's scales of each CTA's 128 rows and all of B's from its own
 * tensor memory (seed 003's 2-CTA layouts). */
void ws_emit_tcgen05_scale_copy(ws_builder *b, int ctas, MlirValue addr, MlirValue taddr);

/* The calling thread's values of the accumulator at tensor-memory address
 * `base` (!llvm.ptr<6>, lane 0 and the buffer's first column), in layout
 * `s` (ws_tcgen05_layout); `thread` is its index among the epilogue
 * threads. tcgen05.ld per part, then tcgen05.wait::ld. With `filled`
 * (i1) false every value is 0.0 (a K loop that ran no step). */
void ws_emit_tmem_load(ws_builder *b, const ws_mma_shape *s, MlirValue base, MlirValue thread,
                       MlirValue filled, MlirValue *values);

#endif
