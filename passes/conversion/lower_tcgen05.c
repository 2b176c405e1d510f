/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* lower_tcgen05.c: tcgen05.mma for ws.tc_mma and tcgen05.ld for
 * ws.tmem_load on sm_100a (see ws_lower_tcgen05.h for the layouts). */
#include "ws_lower_tcgen05.h"

#include <stdio.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "ws-c/Dialect.h"
#include "../../dialect/ws_text.h"

enum { WARPGROUP_THREADS = 128, TC_M = 128, PART_LANES = 16, WARP_LANES = 32 };

static MlirValue c32(ws_builder *b, int64_t v) { return ws_const_i32(b, v); }

ws_mma_shape ws_tcgen05_layout(MlirContext ctx, int warpgroups, int n) {
  ws_mma_shape s = {
      .warpgroups = warpgroups,
      .rows = TC_M,
      .parts = WARP_LANES / PART_LANES,
      .n = n,
      .element = mlirF16TypeGet(ctx),
      .warp_rows = WARP_LANES,
      .part_rows = PART_LANES,
      .col_groups = warpgroups,
  };
  s.per_thread = s.parts * ws_shape_cols(&s, n) / 2;
  return s;
}

/* Bits of kind::f16's and kind::f8f6f4's instruction descriptor (PTX ISA,
 * "Instruction descriptor"): D format in 4-5 (1: f32), A and B formats in
 * 7-9 and 10-12 (the form's codes: f16 0, bf16 1; e4m3 0, e5m2 1), A and
 * B major-ness in 15 and 16 (0: K-major, 1: MN-major), N >> 3 in 17-22,
 * M >> 4 in 24-28. */
uint32_t ws_tcgen05_idesc(const ws_mma_form *form, int n, bool b_n_major, int ctas) {
  return (1u << 4) | (form->code_a << 7) | (form->code_b << 10) | ((uint32_t)b_n_major << 16) |
         ((uint32_t)(n >> 3) << 17) | ((uint32_t)(TC_M * ctas >> 4) << 24);
}

/* kind::mxf8f6f4's descriptor differs (PTX ISA, same section): no D format
 * (always f32); B's and A's scale byte (which K block of 32 of the step's
 * scale columns) in 4-5 and 29-30; the scales' type in 23 (1: ue8m0);
 * M >> 7 in 27-28 (a pair's 256 rows: 2). Formats, major-ness and N as
 * above. */
uint32_t ws_tcgen05_scaled_idesc(const ws_mma_form *form, int n, bool b_n_major, int ctas,
                                 int block) {
  return ((uint32_t)block << 4) | (form->code_a << 7) | (form->code_b << 10) |
         ((uint32_t)b_n_major << 16) | ((uint32_t)(n >> 3) << 17) | (1u << 23) |
         ((uint32_t)(TC_M * ctas >> 7) << 27) | ((uint32_t)block << 29);
}

/* A tcgen05 shared-memory descriptor of the swizzled tile at shared address
 * `addr` (i32): start >> 4, the leading and stride offsets >> 4 (as for
 * wgmma: K-major, the leading offset unused (16) and the stride one 8-row
 * atom of 8 x span bytes; N-major, the leading offset the distance between
 * boxes of one span of N, k rows of span bytes, and the stride one atom of
 * 8 rows of K), the swizzle mode (128B: 2, 64B: 4, 32B: 6, none for rows of
 * 16 bytes: 0). */
static MlirValue smem_descriptor(ws_builder *b, MlirValue addr, int span, int leading) {
  MlirType i8 = mlirIntegerTypeGet(b->ctx, 8), i1 = mlirIntegerTypeGet(b->ctx, 1);
  MlirValue start =
      ws_arith(b, "arith.andi", ws_arith(b, "arith.shrui", addr, c32(b, 4)), c32(b, 0x3FFF));
  MlirValue ops[6] = {start,
                      c32(b, leading >> 4),
                      c32(b, 8 * span >> 4),
                      ws_const_int(b, 0, i8),
                      ws_const_int(b, 0, i1),
                      ws_const_int(b,
                                   span == 128  ? 2
                                   : span == 64 ? 4
                                   : span == 32 ? 6
                                                : 0,
                                   i8)};
  return ws_build_value(b, "nvvm.tcgen05.mma_smem_desc", 6, ops, mlirIntegerTypeGet(b->ctx, 64), 0,
                        NULL);
}

void ws_emit_tcgen05_mma(ws_builder *b, const ws_mma_form *form, int n, int k, int a_span,
                         int b_span, bool b_n_major, int ctas, MlirValue a_addr, MlirValue b_addr,
                         MlirValue d, MlirValue accumulate, const MlirValue *scales) {
  int eb = wsDtypeGetByteWidth(form->a), step_bytes = form->k * eb;
  MlirValue yes = ws_const_int(b, 1, mlirIntegerTypeGet(b->ctx, 1));
  char kind[64];
  snprintf(kind, sizeof kind, scales ? "#nvvm.block_scale_kind<%s>" : "#nvvm.tcgen05_mma_kind<%s>",
           form->kind);
  MlirNamedAttribute attrs[3] = {
      ws_named_text(b->ctx, "kind", kind),
      ws_named_cta_group(b->ctx, "ctaGroup", ctas),
      scales ? ws_named_text(b->ctx, "blockScale", "#nvvm.tcgen05_mma_block_scale<default>")
             : ws_named_text(b->ctx, "operandSegmentSizes", "array<i32: 1, 1, 1, 1, 1, 0, 0>"),
  };
  for (int kk = 0; kk < k / form->k; kk++) {
    /* a block-scaled step's scales: byte kk of each scale column */
    uint32_t bits = scales ? ws_tcgen05_scaled_idesc(form, n, b_n_major, ctas, kk)
                           : ws_tcgen05_idesc(form, n, b_n_major, ctas);
    MlirValue a_at = ws_arith(b, "arith.addi", a_addr,
                              c32(b, ws_mma_k_step_offset(kk, step_bytes, a_span, TC_M)));
    /* an N-major B advances by the step's rows of K */
    int b_off =
        b_n_major ? kk * form->k * b_span : ws_mma_k_step_offset(kk, step_bytes, b_span, n / ctas);
    MlirValue b_at = ws_arith(b, "arith.addi", b_addr, c32(b, b_off));
    MlirValue ops[7] = {d,
                        smem_descriptor(b, a_at, a_span, 16),
                        smem_descriptor(b, b_at, b_span, b_n_major ? k * b_span : 16),
                        c32(b, (int64_t)bits),
                        kk == 0 ? accumulate : yes,
                        scales ? scales[0] : d,
                        scales ? scales[1] : d};
    if (scales)
      ws_build_void(b, "nvvm.tcgen05.mma.block_scale", 7, ops, 3, attrs);
    else
      ws_build_void(b, "nvvm.tcgen05.mma", 5, ops, 3, attrs);
  }
}

void ws_emit_tcgen05_scale_copy(ws_builder *b, int ctas, MlirValue addr, MlirValue taddr) {
  MlirNamedAttribute attrs[3] = {
      ws_named_text(b->ctx, "shape", "#nvvm.tcgen05_cp_shape<shape_32x128b>"),
      ws_named_text(b->ctx, "multicast", "#nvvm.tcgen05_cp_multicast<warpx4>"),
      ws_named_cta_group(b->ctx, "group", ctas),
  };
  MlirValue ops[2] = {taddr, smem_descriptor(b, addr, 16, 16)};
  ws_build_void(b, "nvvm.tcgen05.cp", 2, ops, 3, attrs);
}

void ws_emit_tmem_load(ws_builder *b, const ws_mma_shape *s, MlirValue base, MlirValue thread,
                       MlirValue filled, MlirValue *values) {
  MlirType i32 = mlirIntegerTypeGet(b->ctx, 32), f32 = mlirF32TypeGet(b->ctx);
  MlirValue warp =
      ws_arith(b, "arith.remui", ws_arith(b, "arith.divui", thread, c32(b, 32)), c32(b, 4));
  MlirValue wg = ws_arith(b, "arith.divui", thread, c32(b, WARPGROUP_THREADS));
  int cols = ws_shape_cols(s, s->n), regs = cols / 2; /* 4 per 8 columns, per part */
  MlirValue column = ws_arith(b, "arith.muli", wg, c32(b, cols));
  MlirValue addr0 =
      ws_arith(b, "arith.addi", ws_build_value(b, "llvm.ptrtoint", 1, &base, i32, 0, NULL), column);
  MlirNamedAttribute shape =
      ws_named_text(b->ctx, "shape", "#nvvm.tcgen05_ldst_shape<shape_16x256b>");
  /* Each part in loads of a power of two of 8-column chunks (.x1 to .x32,
   * what tcgen05.ld takes), widest first. */
  MlirValue loaded[2 * 8];
  int first[2 * 8], width[2 * 8], num = 0;
  for (int p = 0; p < s->parts; p++) {
    /* lane in the address's high 16 bits: this warp's 32, then the part's 16 */
    MlirValue lane = ws_arith(b, "arith.addi", ws_arith(b, "arith.muli", warp, c32(b, WARP_LANES)),
                              c32(b, p * PART_LANES));
    MlirValue row = ws_arith(b, "arith.addi", addr0, ws_arith(b, "arith.shli", lane, c32(b, 16)));
    for (int j = 0; j < cols / 8;) {
      int x = 32;
      while (x > cols / 8 - j)
        x /= 2;
      MlirValue at = ws_arith(b, "arith.addi", row, c32(b, 8 * j));
      MlirValue ptr = ws_build_value(b, "llvm.inttoptr", 1, &at, mlirValueGetType(base), 0, NULL);
      int64_t n_regs = 4 * x;
      loaded[num] = ws_build_value(b, "nvvm.tcgen05.ld", 1, &ptr,
                                   mlirVectorTypeGet(1, &n_regs, i32), 1, &shape);
      first[num] = p * regs + 4 * j;
      width[num++] = 4 * x;
      j += x;
    }
  }
  MlirNamedAttribute wait = ws_named_text(b->ctx, "kind", "#nvvm.tcgen05_wait<load>");
  ws_build_void(b, "nvvm.tcgen05.wait", 0, NULL, 1, &wait);
  MlirValue zero = ws_build_value(b, "llvm.mlir.zero", 0, NULL, f32, 0, NULL);
  for (int l = 0; l < num; l++)
    for (int r = 0; r < width[l]; r++) {
      MlirValue ops[2] = {loaded[l], c32(b, r)};
      MlirValue bits = ws_build_value(b, "llvm.extractelement", 2, ops, i32, 0, NULL);
      MlirValue v = ws_build_value(b, "llvm.bitcast", 1, &bits, f32, 0, NULL);
      MlirValue pick[3] = {filled, v, zero};
      values[first[l] + r] = ws_build_value(b, "arith.select", 3, pick, f32, 0, NULL);
    }
}
