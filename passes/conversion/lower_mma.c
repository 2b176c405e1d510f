/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* lower_mma.c: wgmma for ws.mma and the accumulator's fragments written to
 * shared memory (see ws_lower_mma.h for the layouts). */
#include "ws_lower_mma.h"
#include "ws_lower_f8.h"

#include <stdio.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "ws-c/Dialect.h"
#include "ws_lower_store.h"
#include "../../dialect/ws_text.h"

enum { WARPGROUP_THREADS = 128, MMA_M = 64 };

static MlirValue c32(ws_builder *b, int64_t v) { return ws_const_i32(b, v); }

static MlirValue c64(ws_builder *b, int64_t v) {
  return ws_const_int(b, v, mlirIntegerTypeGet(b->ctx, 64));
}

static MlirType struct_of_f32(MlirContext ctx, int count) {
  return ws_struct_type(ctx, count, mlirF32TypeGet(ctx));
}

MlirType ws_mma_acc_type(MlirContext ctx, const ws_mma_shape *s) {
  return struct_of_f32(ctx, s->per_thread);
}

/* values [first, first + count) of `from` as a struct of their own */
static MlirValue regroup(ws_builder *b, MlirValue from, int first, int count, MlirType to) {
  MlirValue agg = ws_build_value(b, "llvm.mlir.undef", 0, NULL, to, 0, NULL);
  MlirType f32 = mlirF32TypeGet(b->ctx);
  for (int i = 0; i < count; i++)
    agg = ws_insert_value(b, agg, ws_extract_value(b, from, first + i, f32), i);
  return agg;
}

/* A wgmma matrix descriptor of the swizzled tile at shared address `addr`:
 * start address >> 4 in bits 0-13, leading byte offset >> 4 in 16-29,
 * stride byte offset >> 4 in 32-45, swizzle mode in 62-63 (1: 128B, 2: 64B,
 * 3: 32B). K-major (A, and B with transpose_b): the leading offset is
 * unused when K fits one span (1), the stride is one 8-row atom. N-major
 * (B given K x N) and M-major (A given K x M): the leading offset is the
 * distance between boxes of one span of N or M (k rows of span bytes),
 * the stride one 8-row atom of K. */
static MlirValue descriptor(ws_builder *b, int span, int leading, MlirValue addr) {
  int mode = span == 128 ? 1 : span == 64 ? 2 : 3;
  uint64_t fixed =
      ((uint64_t)(leading >> 4) << 16) | ((uint64_t)(8 * span >> 4) << 32) | ((uint64_t)mode << 62);
  MlirValue wide =
      ws_build_value(b, "arith.extui", 1, &addr, mlirIntegerTypeGet(b->ctx, 64), 0, NULL);
  MlirValue start =
      ws_arith(b, "arith.andi", ws_arith(b, "arith.shrui", wide, c64(b, 4)), c64(b, 0x3FFF));
  return ws_arith(b, "arith.ori", start, c64(b, (int64_t)fixed));
}

static MlirValue wgmma(ws_builder *b, const ws_mma_shape *s, MlirValue acc, MlirValue da,
                       MlirValue db, bool zero_acc) {
  char shape[64], type_a[48], type_b[48];
  snprintf(shape, sizeof shape, "#nvvm.shape<m = %d, n = %d, k = %d>", MMA_M, s->n, s->form->k);
  snprintf(type_a, sizeof type_a, "#nvvm.wgmma_type<%s>", s->form->nvvm_a);
  snprintf(type_b, sizeof type_b, "#nvvm.wgmma_type<%s>", s->form->nvvm_b);
  MlirNamedAttribute attrs[9] = {
      ws_named_text(b->ctx, "shape", shape),
      ws_named_text(b->ctx, "typeA", type_a),
      ws_named_text(b->ctx, "typeB", type_b),
      ws_named_text(b->ctx, "typeD", "#nvvm.wgmma_type<f32>"),
      ws_named_text(b->ctx, "scaleD",
                    zero_acc ? "#nvvm.wgmma_scale_out<zero>" : "#nvvm.wgmma_scale_out<one>"),
      ws_named_text(b->ctx, "scaleA", "#nvvm.wgmma_scale_in<one>"),
      ws_named_text(b->ctx, "scaleB", "#nvvm.wgmma_scale_in<one>"),
      /* row A: K-major, col A: M-major (transposed); col B: K-major, row
       * B: N-major (transposed) */
      ws_named_text(b->ctx, "layoutA",
                    s->a_m_major ? "#nvvm.mma_layout<col>" : "#nvvm.mma_layout<row>"),
      ws_named_text(b->ctx, "layoutB",
                    s->b_n_major ? "#nvvm.mma_layout<row>" : "#nvvm.mma_layout<col>"),
  };
  MlirValue ops[3] = {acc, da, db};
  return ws_build_value(b, "nvvm.wgmma.mma_async", 3, ops, mlirValueGetType(acc), 9, attrs);
}

/* Where K step kk starts in a K-major tile of `rows` rows whose K row is cut
 * into boxes of `span` bytes (box after box, rows x span each). */
int ws_mma_k_step_offset(int kk, int step_bytes, int span, int rows) {
  int at = kk * step_bytes;
  return at / span * rows * span + at % span;
}

/* The accumulator of a thread from its parts' structs (m64 each). */
static MlirValue join_parts(ws_builder *b, const ws_mma_shape *s, const MlirValue *parts,
                            MlirType type) {
  if (s->parts == 1)
    return parts[0];
  int per_part = s->n / 2;
  MlirValue all = ws_build_value(b, "llvm.mlir.undef", 0, NULL, type, 0, NULL);
  MlirType f32 = mlirF32TypeGet(b->ctx);
  for (int p = 0; p < s->parts; p++)
    for (int i = 0; i < per_part; i++)
      all = ws_insert_value(b, all, ws_extract_value(b, parts[p], i, f32), p * per_part + i);
  return all;
}

MlirValue ws_emit_wgmma(ws_builder *b, const ws_mma_shape *s, MlirValue warpgroup, MlirValue a_addr,
                        MlirValue b_addr, MlirValue acc, bool zero_acc) {
  int eb = wsElementTypeByteWidth(s->element);
  int k_step = s->form->k, step_bytes = k_step * eb, m = s->rows * s->warpgroups;
  /* K-major: within a box, row r of A lies at r x span; M-major: the m64
   * part j of the tile (its columns 64 j..) is box j, k rows of span */
  int wg_bytes = s->a_m_major ? s->parts * s->k * s->swizzle : s->rows * s->swizzle;
  MlirValue mine =
      ws_arith(b, "arith.addi", a_addr, ws_arith(b, "arith.muli", warpgroup, c32(b, wg_bytes)));
  MlirValue da0 = descriptor(b, s->swizzle, s->a_m_major ? s->k * s->swizzle : 16, mine);
  MlirValue db0 = descriptor(b, s->b_swizzle, s->b_n_major ? s->k * s->b_swizzle : 16, b_addr);
  int per_part = s->n / 2;
  MlirType part_type = struct_of_f32(b->ctx, per_part);
  MlirValue parts[2];
  for (int p = 0; p < s->parts; p++) {
    MlirValue d = s->parts == 1 ? acc : regroup(b, acc, p * per_part, per_part, part_type);
    for (int kk = 0; kk < s->k / k_step; kk++) {
      /* within a swizzled row, a K step is a plain address advance; an
       * M-major A and an N-major B advance by 16 rows */
      int a_at = s->a_m_major
                     ? p * s->k * s->swizzle + kk * k_step * s->swizzle
                     : p * MMA_M * s->swizzle + ws_mma_k_step_offset(kk, step_bytes, s->swizzle, m);
      int b_at = s->b_n_major ? kk * k_step * s->b_swizzle
                              : ws_mma_k_step_offset(kk, step_bytes, s->b_swizzle, s->n);
      MlirValue da = ws_arith(b, "arith.addi", da0, c64(b, a_at >> 4));
      MlirValue db = ws_arith(b, "arith.addi", db0, c64(b, b_at >> 4));
      d = wgmma(b, s, d, da, db, zero_acc && kk == 0);
    }
    parts[p] = d;
  }
  return join_parts(b, s, parts, mlirValueGetType(acc));
}

/* Two 16-bit values as the 32-bit register wgmma's A fragment takes. */
static MlirValue pack_pair(ws_builder *b, MlirValue lo, MlirValue hi) {
  MlirValue halves[2] = {lo, hi};
  MlirValue v = ws_build_vector(b, 2, halves);
  return ws_build_value(b, "llvm.bitcast", 1, &v, mlirIntegerTypeGet(b->ctx, 32), 0, NULL);
}

/* Two f32 values as their two f8 bytes (vector<2xi8>, the first value
 * first), rounded to nearest and saturated. */
static MlirValue f8_pair(ws_builder *b, MlirValue lo, MlirValue hi, MlirType f8) {
  MlirValue halves[2] = {lo, hi};
  return ws_f8_narrow(b, ws_build_vector(b, 2, halves), f8);
}

/* Two pairs of bytes as one 32-bit word, the first pair low. */
static MlirValue join_pairs(ws_builder *b, MlirValue first, MlirValue second) {
  int64_t four = 4;
  MlirNamedAttribute mask = ws_named_text(b->ctx, "mask", "array<i32: 0, 1, 2, 3>");
  MlirValue ops[2] = {first, second};
  MlirValue bytes =
      ws_build_value(b, "llvm.shufflevector", 2, ops,
                     mlirVectorTypeGet(1, &four, mlirIntegerTypeGet(b->ctx, 8)), 1, &mask);
  return ws_build_value(b, "llvm.bitcast", 1, &bytes, mlirIntegerTypeGet(b->ctx, 32), 0, NULL);
}

/* Where a thread's bytes of an 8-bit A fragment come from in its quad (the
 * four lanes of a row): the first and second source lane, and the byte
 * selector of prmt that takes the low halves of their words (lanes 0 and
 * 1 of the quad) or the high ones (lanes 2 and 3). */
typedef struct f8_quad {
  MlirValue first, second, selector;
} f8_quad;

static f8_quad f8_quad_sources(ws_builder *b) {
  MlirType i32 = mlirIntegerTypeGet(b->ctx, 32);
  MlirValue lane = ws_build_value(b, "nvvm.read.ptx.sreg.laneid", 0, NULL, i32, 0, NULL);
  MlirValue c = ws_arith(b, "arith.andi", lane, c32(b, 3));
  MlirValue base = ws_arith(b, "arith.subi", lane, c);
  f8_quad q;
  q.first = ws_arith(b, "arith.addi", base,
                     ws_arith(b, "arith.muli", ws_arith(b, "arith.andi", c, c32(b, 1)), c32(b, 2)));
  q.second = ws_arith(b, "arith.addi", q.first, c32(b, 1));
  MlirValue ops[3] = {ws_cmpi(b, "uge", c, c32(b, 2)), c32(b, 0x7632), c32(b, 0x5410)};
  q.selector = ws_build_value(b, "arith.select", 3, ops, i32, 0, NULL);
  return q;
}

/* One register of an 8-bit A fragment (mma's k32 layout: thread c of a
 * quad holds four consecutive columns 4 c.. of its row, the second
 * register of a pair the same 16 columns on) from accumulator-layout
 * values, where thread c holds columns 2 c, 2 c + 1 of each group of 8.
 * `word` packs this thread's pairs of two groups of 8 (f8 bytes, the
 * first group low); columns 4 c, 4 c + 1 and 4 c + 2, 4 c + 3 are pairs of
 * lanes 2 (c % 2) and 2 (c % 2) + 1, in the first group for c < 2 and the
 * second otherwise: two shuffles and one prmt. */
static MlirValue f8_register(ws_builder *b, const f8_quad *q, MlirValue word) {
  MlirValue ops[3] = {ws_shuffle(b, "idx", word, q->first), ws_shuffle(b, "idx", word, q->second),
                      q->selector};
  MlirNamedAttribute attrs[2] = {
      ws_named_text(b->ctx, "mode", "#nvvm.permute_mode<default>"),
      ws_named_text(b->ctx, "operandSegmentSizes", "array<i32: 1, 1, 1>"),
  };
  return ws_build_value(b, "nvvm.prmt", 3, ops, mlirIntegerTypeGet(b->ctx, 32), 2, attrs);
}

/* The registers of an 8-bit A (f32 values in the accumulator layout, K a
 * multiple of 32) for each part and K step of 32: rows h = 0, 1 of columns
 * 4 c.., then of columns 16 + 4 c... */
static void f8_registers(ws_builder *b, const ws_mma_shape *s, const MlirValue *a_values,
                         MlirValue *regs) {
  f8_quad q = f8_quad_sources(b);
  int a_part = s->k / 2, steps = s->k / 32, n = 0;
  for (int p = 0; p < s->parts; p++)
    for (int kk = 0; kk < steps; kk++)
      for (int half = 0; half < 2; half++) /* columns 16 half.. of the step */
        for (int h = 0; h < 2; h++) {
          MlirValue pairs[2];
          for (int t = 0; t < 2; t++) {
            int at = p * a_part + 4 * (4 * kk + 2 * half + t) + 2 * h;
            pairs[t] = f8_pair(b, a_values[at], a_values[at + 1], s->element);
          }
          regs[n++] = f8_register(b, &q, join_pairs(b, pairs[0], pairs[1]));
        }
}

/* One wgmma of the register form: d (n / 2 f32) += the four registers of
 * A by the B descriptor. Upstream nvvm.wgmma.mma_async takes A as a
 * descriptor only, so this one is inline PTX (the form the upstream op
 * itself becomes): the accumulator tied in and out, scale-d 1, B
 * transposed when it is N-major (16-bit forms; the 8-bit ones take B
 * K-major only and have no such operand). */
static MlirValue wgmma_rs(ws_builder *b, const ws_mma_shape *s, MlirValue d, const MlirValue *a,
                          MlirValue db) {
  int count = s->n / 2;
  char text[4096], cons[2048];
  ws_text t, c;
  ws_text_init(&t, text, sizeof text);
  ws_text_init(&c, cons, sizeof cons);
  bool f8 = ws_is_f8(s->element);
  ws_text_appendf(&t,
                  "{\n.reg .pred p;\nsetp.ne.b32 p, $%d, 0;\n"
                  "wgmma.mma_async.sync.aligned.m%dn%dk%d.f32.%s.%s {",
                  2 * count + 5, MMA_M, s->n, s->form->k, s->form->nvvm_a, s->form->nvvm_b);
  for (int i = 0; i < count; i++) {
    ws_text_appendf(&t, "%s$%d", i ? ", " : "", i);
    ws_text_appendf(&c, "=f,");
  }
  ws_text_appendf(&t, "}, {$%d, $%d, $%d, $%d}, $%d, p, 1, 1", 2 * count, 2 * count + 1,
                  2 * count + 2, 2 * count + 3, 2 * count + 4);
  if (!f8)
    ws_text_appendf(&t, ", %d", s->b_n_major ? 1 : 0);
  ws_text_appendf(&t, ";\n}");
  for (int i = 0; i < count; i++)
    ws_text_appendf(&c, "%d,", i);
  ws_text_appendf(&c, "r,r,r,r,l,r");
  MlirValue ops[WS_MMA_MAX_ACC + 6];
  MlirType f32 = mlirF32TypeGet(b->ctx);
  for (int i = 0; i < count; i++)
    ops[i] = ws_extract_value(b, d, i, f32);
  for (int r = 0; r < 4; r++)
    ops[count + r] = a[r];
  ops[count + 4] = db;
  ops[count + 5] = c32(b, 1);
  return mlirOperationGetResult(
      ws_build_inline_asm(b, text, cons, count + 6, ops, mlirValueGetType(d)), 0);
}

MlirValue ws_pin_register(ws_builder *b, MlirValue v) {
  bool f32 = mlirTypeIsAF32(mlirValueGetType(v));
  return mlirOperationGetResult(
      ws_build_inline_asm(b, "", f32 ? "=f,0" : "=r,0", 1, &v, mlirValueGetType(v)), 0);
}

/* The registers wgmma reads (A's packed pairs and the accumulator), each
 * pinned, then wgmma.fence: the PTX order that lets the wgmmas run back to
 * back. PTX wants every register a wgmma reads written before the fence
 * that precedes it; without the pins LLVM is free to sink A's packing (and
 * the accumulator's rescale) past the fence, and ptxas then injects a
 * warpgroup.arrive before each wgmma, serializing them. */
static MlirValue fence_wgmma_registers(ws_builder *b, MlirValue *regs, int num_regs, MlirValue acc,
                                       int acc_count) {
  for (int i = 0; i < num_regs; i++)
    regs[i] = ws_pin_register(b, regs[i]);
  MlirType f32 = mlirF32TypeGet(b->ctx);
  MlirValue pinned = ws_build_value(b, "llvm.mlir.undef", 0, NULL, mlirValueGetType(acc), 0, NULL);
  for (int i = 0; i < acc_count; i++)
    pinned = ws_insert_value(b, pinned, ws_pin_register(b, ws_extract_value(b, acc, i, f32)), i);
  ws_build_void(b, "nvvm.wgmma.fence.aligned", 0, NULL, 0, NULL);
  return pinned;
}

MlirValue ws_emit_wgmma_rs(ws_builder *b, const ws_mma_shape *s, const MlirValue *a_values,
                           MlirValue b_addr, MlirValue acc) {
  int eb = wsElementTypeByteWidth(s->element);
  int k_step = s->form->k, step_bytes = k_step * eb;
  MlirValue db0 = descriptor(b, s->b_swizzle, s->b_n_major ? s->k * s->b_swizzle : 16, b_addr);
  int per_part = s->n / 2, a_part = s->k / 2, steps = s->k / k_step;
  /* 16-bit: K step kk of part p is columns 16 kk.. of A: fragment values
   * j = 2 kk, 2 kk + 1 (a0-a3 the rows h = 0, 1 of j; a4-a7 of j + 1), in
   * pairs; 8-bit: f8_registers */
  MlirValue regs[WS_MMA_MAX_ACC]; /* parts x K / 4: at most 2 x 256 / 4 */
  int num_regs = s->parts * steps * 4;
  if (ws_is_f8(s->element))
    f8_registers(b, s, a_values, regs);
  else
    for (int p = 0; p < s->parts; p++)
      for (int kk = 0; kk < steps; kk++)
        for (int r = 0; r < 4; r++) {
          int at = p * a_part + 4 * (2 * kk + r / 2) + 2 * (r % 2);
          regs[(p * steps + kk) * 4 + r] = pack_pair(b, a_values[at], a_values[at + 1]);
        }
  acc = fence_wgmma_registers(b, regs, num_regs, acc, s->per_thread);
  MlirType part_type = struct_of_f32(b->ctx, per_part);
  MlirValue parts[2];
  for (int p = 0; p < s->parts; p++) {
    MlirValue d = s->parts == 1 ? acc : regroup(b, acc, p * per_part, per_part, part_type);
    for (int kk = 0; kk < steps; kk++) {
      int b_at = s->b_n_major ? kk * k_step * s->b_swizzle
                              : ws_mma_k_step_offset(kk, step_bytes, s->b_swizzle, s->n);
      MlirValue db = ws_arith(b, "arith.addi", db0, c64(b, b_at >> 4));
      d = wgmma_rs(b, s, d, &regs[(p * steps + kk) * 4], db);
    }
    parts[p] = d;
  }
  return join_parts(b, s, parts, mlirValueGetType(acc));
}

void ws_fragment_origin(ws_builder *b, const ws_mma_shape *s, MlirValue thread, MlirValue *row0,
                        MlirValue *col0) {
  MlirValue wg = ws_arith(b, "arith.divui", thread, c32(b, WARPGROUP_THREADS));
  MlirValue t = ws_arith(b, "arith.remui", thread, c32(b, WARPGROUP_THREADS));
  MlirValue warp = ws_arith(b, "arith.divui", t, c32(b, 32));
  MlirValue lane = ws_arith(b, "arith.remui", t, c32(b, 32));
  bool split = s->col_groups > 1; /* the warpgroups share rows, not columns */
  *row0 =
      ws_arith(b, "arith.addi",
               ws_arith(b, "arith.addi", ws_arith(b, "arith.muli", wg, c32(b, split ? 0 : s->rows)),
                        ws_arith(b, "arith.muli", warp, c32(b, s->warp_rows))),
               ws_arith(b, "arith.divui", lane, c32(b, 4)));
  *col0 = ws_arith(
      b, "arith.addi", ws_arith(b, "arith.muli", wg, c32(b, split ? ws_shape_cols(s, s->n) : 0)),
      ws_arith(b, "arith.muli", ws_arith(b, "arith.remui", lane, c32(b, 4)), c32(b, 2)));
}

void ws_emit_fragment_store(ws_builder *b, const ws_mma_shape *s, MlirValue thread, MlirValue tile,
                            const MlirValue *values, MlirType element_type, int span, int part,
                            int part_cols) {
  int eb = wsElementTypeByteWidth(element_type);
  MlirValue row0, col0;
  ws_fragment_origin(b, s, thread, &row0, &col0);
  char align[32];
  snprintf(align, sizeof align, "%d : i64", 2 * eb);
  MlirNamedAttribute align_attr = ws_named_text(b->ctx, "alignment", align);
  int m = ws_shape_m(s), cols = ws_shape_cols(s, s->n);
  /* the 8-column chunks j written, and the slot's width */
  int first = part_cols ? part * part_cols : 0, width = part_cols ? part_cols : s->n;
  int end = part_cols ? (first + width) / 8 : cols / 8;
  for (int p = 0; p < s->parts; p++)
    for (int h = 0; h < 2; h++) {
      MlirValue row = ws_arith(b, "arith.addi", row0, c32(b, p * s->part_rows + 8 * h));
      for (int j = first / 8; j < end; j++) {
        MlirValue v = ws_build_vector(b, 2, &values[p * cols / 2 + 4 * j + 2 * h]);
        MlirValue col = ws_arith(b, "arith.addi", col0, c32(b, 8 * j - first));
        MlirValue at = ws_byte_ptr(b, tile, ws_slot_offset(b, row, col, m, width, eb, span));
        MlirValue ops[2] = {v, at};
        ws_build_void(b, "llvm.store", 2, ops, 1, &align_attr);
      }
    }
}

/* Element `e` of a pair loaded from shared memory; an f8 pair (bytes) is
 * widened to f32 first, the form f8 tiles take in registers. */
static MlirValue pair_element(ws_builder *b, MlirValue pair, MlirType element_type, int e) {
  MlirType scalar = element_type;
  if (ws_is_f8(element_type)) {
    pair = ws_f8_widen(b, pair, element_type);
    scalar = mlirF32TypeGet(b->ctx);
  }
  MlirValue ops[2] = {pair, c32(b, e)};
  return ws_build_value(b, "llvm.extractelement", 2, ops, scalar, 0, NULL);
}

void ws_emit_fragment_load(ws_builder *b, const ws_mma_shape *s, MlirValue thread, MlirValue tile,
                           MlirType element_type, int span, ws_fragment_source source,
                           MlirValue *values) {
  int eb = wsElementTypeByteWidth(element_type);
  MlirValue row0, col0;
  ws_fragment_origin(b, s, thread, &row0, &col0);
  int64_t two = 2;
  MlirType in_memory = ws_is_f8(element_type) ? mlirIntegerTypeGet(b->ctx, 8) : element_type;
  MlirType pair = mlirVectorTypeGet(1, &two, in_memory);
  int m = ws_shape_m(s), cols = ws_shape_cols(s, s->n);
  for (int p = 0; p < s->parts; p++)
    for (int h = 0; h < 2; h++) {
      MlirValue row = ws_arith(b, "arith.addi", row0, c32(b, p * s->part_rows + 8 * h));
      int at = p * cols / 2 + 2 * h;
      if (source == WS_FRAGMENT_FROM_COLUMN_VECTOR) { /* one value per row */
        MlirValue v =
            ws_load_at(b, tile, ws_arith(b, "arith.muli", row, c32(b, eb)), in_memory, eb);
        if (ws_is_f8(element_type)) { /* the byte as a pair, widened */
          MlirValue ops[3] = {ws_build_value(b, "llvm.mlir.undef", 0, NULL, pair, 0, NULL), v,
                              c32(b, 0)};
          v = pair_element(b, ws_build_value(b, "llvm.insertelement", 3, ops, pair, 0, NULL),
                           element_type, 0);
        }
        for (int j = 0; j < cols / 8; j++)
          values[at + 4 * j] = values[at + 4 * j + 1] = v;
        continue;
      }
      for (int j = 0; j < cols / 8; j++) {
        MlirValue col = ws_arith(b, "arith.addi", col0, c32(b, 8 * j));
        MlirValue offset = source == WS_FRAGMENT_FROM_ROW_VECTOR
                               ? ws_arith(b, "arith.muli", col, c32(b, eb))
                               : ws_slot_offset(b, row, col, m, s->n, eb, span);
        MlirValue v = ws_load_at(b, tile, offset, pair, 2 * eb);
        for (int e = 0; e < 2; e++)
          values[at + 4 * j + e] = pair_element(b, v, element_type, e);
      }
    }
}
