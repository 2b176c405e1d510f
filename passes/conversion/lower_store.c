/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* lower_store.c: the exact tile store of ws_lower_store.h. Interior tiles
 * keep the one-instruction TMA path (the bandwidth figures depend on it);
 * only a tile that reaches a partial granule, or starts at a negative
 * coordinate (where a TMA store faults), takes the element loop, which is
 * bounded by the tile and by the tensor, so it never writes outside. */
#include "ws_lower_store.h"

#include <stdio.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

static MlirType i64_type(ws_builder *b) { return mlirIntegerTypeGet(b->ctx, 64); }

static MlirValue const64(ws_builder *b, int64_t v) { return ws_const_int(b, v, i64_type(b)); }

static MlirValue widen(ws_builder *b, MlirValue v32) {
  return ws_build_value(b, "arith.extsi", 1, &v32, i64_type(b), 0, NULL);
}

/* Word `index` of the store view. */
static MlirValue view_word(ws_builder *b, MlirValue view, int index) {
  MlirValue p = ws_byte_ptr_const(b, view, index * 8);
  MlirNamedAttribute align = ws_named_text(b->ctx, "alignment", "8 : i64");
  return ws_build_value(b, "llvm.load", 1, &p, i64_type(b), 1, &align);
}

MlirValue ws_slot_offset(ws_builder *b, MlirValue row, MlirValue col, int rows, int cols,
                         int elem_bytes, int span) {
  if (!span)
    return ws_arith(
        b, "arith.muli",
        ws_arith(b, "arith.addi", ws_arith(b, "arith.muli", row, ws_const_i32(b, cols)), col),
        ws_const_i32(b, elem_bytes));
  int box_cols = span / elem_bytes;
  MlirValue box = ws_arith(b, "arith.divui", col, ws_const_i32(b, box_cols));
  MlirValue within = ws_arith(b, "arith.remui", col, ws_const_i32(b, box_cols));
  MlirValue o = ws_arith(b, "arith.addi",
                         ws_arith(b, "arith.addi",
                                  ws_arith(b, "arith.muli", box, ws_const_i32(b, rows * span)),
                                  ws_arith(b, "arith.muli", row, ws_const_i32(b, span))),
                         ws_arith(b, "arith.muli", within, ws_const_i32(b, elem_bytes)));
  MlirValue piece_bits =
      ws_arith(b, "arith.andi", ws_arith(b, "arith.shrui", o, ws_const_i32(b, 3)),
               ws_const_i32(b, (span / 16 - 1) << 4));
  return ws_arith(b, "arith.xori", o, piece_bits);
}

static void emit_tma_store(ws_builder *b, const ws_store_site *s) {
  MlirValue ops[7];
  ops[0] = s->map;
  ops[1] = s->src;
  for (int d = 0; d < s->rank; d++) /* TMA takes the innermost first */
    ops[2 + d] = s->coords[s->rank - 1 - d];
  char seg[64];
  if (s->add) { /* cp.reduce.async.bulk.tensor .add: each element added atomically */
    snprintf(seg, sizeof seg, "array<i32: 1, 1, %d, 0>", s->rank);
    MlirNamedAttribute attrs[2] = {ws_named_text(b->ctx, "operandSegmentSizes", seg),
                                   ws_named_text(b->ctx, "redKind", "#nvvm.tma_redux_kind<add>")};
    ws_build_void(b, "nvvm.cp.async.bulk.tensor.reduce", 2 + s->rank, ops, 2, attrs);
    return;
  }
  snprintf(seg, sizeof seg, "array<i32: 1, 1, %d, 0, 0>", s->rank);
  MlirNamedAttribute attrs[1] = {ws_named_text(b->ctx, "operandSegmentSizes", seg)};
  ws_build_void(b, "nvvm.cp.async.bulk.tensor.global.shared.cta", 2 + s->rank, ops, 1, attrs);
}

/* An scf.for over [lb, ub) with step 1; returns a builder in its body and
 * the induction variable (the body is already terminated). */
static ws_builder open_for(ws_builder *b, MlirValue lb, MlirValue ub, MlirValue *iv) {
  MlirBlock body;
  MlirValue one = ws_const_int(b, 1, mlirValueGetType(lb));
  ws_build_for(b, lb, ub, one, 0, NULL, &body);
  ws_build_terminator(body, b->loc, "scf.yield", 0, NULL);
  *iv = mlirBlockGetArgument(body, 0);
  return ws_builder_before(mlirBlockGetTerminator(body));
}

static ws_builder open_if(ws_builder *b, MlirValue cond) {
  MlirBlock then_block;
  ws_build_if(b, cond, &then_block, NULL);
  return ws_builder_before(mlirBlockGetTerminator(then_block));
}

/* What every row of the element path shares, computed once per tile. */
typedef struct element_copy {
  const ws_store_site *s;
  MlirValue base, sizes[5], strides[5];
  MlirValue coords[5]; /* the tile's coordinates, widened to i64 */
  MlirValue lo, hi;    /* in-bounds columns of the tile: [lo, hi) */
  MlirValue elem_bytes;
  int rows; /* of the box: the product of its outer extents */
} element_copy;

/* Copies the row at local row index `row` of the tile: the outer
 * coordinates are checked, then only the in-bounds columns are copied. */
static void copy_row(ws_builder *b, const element_copy *c, MlirValue row) {
  const ws_store_site *s = c->s;
  int inner = s->rank - 1;
  MlirValue ok = {NULL};
  MlirValue offset = const64(b, 0), rest = row;
  for (int d = inner - 1; d >= 0; d--) {
    MlirValue extent = ws_const_i32(b, s->box[d]);
    MlirValue local = ws_arith(b, "arith.remui", rest, extent);
    rest = ws_arith(b, "arith.divui", rest, extent);
    MlirValue g = ws_arith(b, "arith.addi", c->coords[d], widen(b, local));
    MlirValue inside = ws_cmpi(b, "ult", g, c->sizes[d]);
    ok = mlirValueIsNull(ok) ? inside : ws_arith(b, "arith.andi", ok, inside);
    offset = ws_arith(b, "arith.addi", offset, ws_arith(b, "arith.muli", g, c->strides[d]));
  }
  ws_builder in = mlirValueIsNull(ok) ? *b : open_if(b, ok);
  MlirValue col;
  ws_builder body = open_for(&in, c->lo, c->hi, &col);
  MlirValue col32 =
      ws_build_value(&body, "arith.trunci", 1, &col, mlirIntegerTypeGet(b->ctx, 32), 0, NULL);
  MlirValue from = ws_byte_ptr(
      &body, s->src,
      ws_slot_offset(&body, row, col32, c->rows, (int)s->box[inner], s->elem_bytes, s->swizzle));
  MlirType word = s->add ? s->element : mlirIntegerTypeGet(b->ctx, (unsigned)s->elem_bytes * 8);
  MlirValue v = ws_build_value(&body, "llvm.load", 1, &from, word, 0, NULL);
  MlirValue column = ws_arith(&body, "arith.addi", c->coords[inner], col);
  MlirValue at = ws_arith(
      &body, "arith.addi", c->base,
      ws_arith(&body, "arith.addi", offset, ws_arith(&body, "arith.muli", column, c->elem_bytes)));
  MlirValue to =
      ws_build_value(&body, "llvm.inttoptr", 1, &at, ws_type(b->ctx, "!llvm.ptr<1>"), 0, NULL);
  if (s->add) { /* the edge's elements added one by one, as TMA adds the interior's */
    MlirValue ops[2] = {to, v};
    MlirNamedAttribute attrs[2] = {ws_named_text(b->ctx, "bin_op", "11 : i64"),   /* fadd */
                                   ws_named_text(b->ctx, "ordering", "2 : i64")}; /* monotonic */
    ws_build_value(&body, "llvm.atomicrmw", 2, ops, s->element, 2, attrs);
    return;
  }
  MlirValue ops[2] = {v, to};
  ws_build_void(&body, "llvm.store", 2, ops, 0, NULL);
}

static void emit_element_store(ws_builder *b, const ws_store_site *s) {
  element_copy c = {.s = s, .base = view_word(b, s->view, 0)};
  for (int d = 0; d < s->rank; d++) {
    c.sizes[d] = view_word(b, s->view, 2 + d);
    c.strides[d] = view_word(b, s->view, 7 + d);
    c.coords[d] = widen(b, s->coords[d]);
  }
  /* Columns [max(0, -x0), min(box, size - x0)) are inside the tensor. */
  int inner = s->rank - 1;
  MlirValue x0 = c.coords[inner], zero = const64(b, 0);
  c.lo = ws_arith(b, "arith.maxsi", zero, ws_arith(b, "arith.subi", zero, x0));
  c.hi = ws_arith(b, "arith.minsi", const64(b, s->box[inner]),
                  ws_arith(b, "arith.subi", c.sizes[inner], x0));
  c.elem_bytes = const64(b, s->elem_bytes);
  int64_t rows = 1;
  for (int d = 0; d < inner; d++)
    rows *= s->box[d];
  c.rows = (int)rows;
  /* a tile with no column inside the tensor (split-K moves a store it must
   * not make to column -2^30) writes nothing, and skips the rows */
  ws_builder some = open_if(b, ws_cmpi(b, "slt", c.lo, c.hi));
  MlirValue row;
  ws_builder body = open_for(&some, ws_const_i32(&some, 0), ws_const_i32(&some, rows), &row);
  copy_row(&body, &c, row);
}

/* llvm.call of the site's element path with its view, box and coordinates. */
static void call_element_path(ws_builder *b, const ws_store_site *s) {
  MlirValue ops[2 + 5] = {s->view, s->src};
  for (int d = 0; d < s->rank; d++)
    ops[2 + d] = s->coords[d];
  MlirAttribute name =
      mlirOperationGetAttributeByName(s->element_path, mlirStringRefCreateFromCString("sym_name"));
  char callee[160], segments[64];
  MlirStringRef n = mlirStringAttrGetValue(name);
  snprintf(callee, sizeof callee, "@%.*s", (int)n.length, n.data);
  snprintf(segments, sizeof segments, "array<i32: %d, 0>", 2 + s->rank);
  MlirNamedAttribute attrs[3] = {ws_named_text(b->ctx, "callee", callee),
                                 ws_named_text(b->ctx, "operandSegmentSizes", segments),
                                 ws_named_text(b->ctx, "op_bundle_sizes", "array<i32>")};
  ws_build_void(b, "llvm.call", 2 + s->rank, ops, 3, attrs);
}

bool ws_same_element_path(const ws_store_site *a, const ws_store_site *b) {
  if (a->rank != b->rank || a->elem_bytes != b->elem_bytes || a->swizzle != b->swizzle ||
      a->add != b->add || (a->add && !mlirTypeEqual(a->element, b->element)))
    return false;
  for (int d = 0; d < a->rank; d++)
    if (a->box[d] != b->box[d])
      return false;
  return true;
}

MlirOperation ws_build_element_path(MlirOperation after, const ws_store_site *s, const char *name) {
  char text[512];
  int n = snprintf(text, sizeof text,
                   "llvm.func internal @%s(%%view: !llvm.ptr, %%src: !llvm.ptr<3>", name);
  for (int d = 0; d < s->rank && n > 0 && (size_t)n < sizeof text; d++)
    n += snprintf(text + n, sizeof text - (size_t)n, ", %%c%d: i32", d);
  if (n > 0 && (size_t)n < sizeof text)
    snprintf(text + n, sizeof text - (size_t)n,
             ") attributes {passthrough = [\"noinline\"]} {\n  llvm.return\n}");
  MlirContext ctx = mlirOperationGetContext(after);
  MlirOperation fn = mlirOperationCreateParse(ctx, mlirStringRefCreateFromCString(text),
                                              mlirStringRefCreateFromCString("element path"));
  if (mlirOperationIsNull(fn))
    return fn;
  mlirBlockInsertOwnedOperationAfter(mlirOperationGetBlock(after), after, fn);
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0));
  ws_builder b = ws_builder_before(mlirBlockGetTerminator(entry));
  ws_store_site site = *s;
  site.view = mlirBlockGetArgument(entry, 0);
  site.src = mlirBlockGetArgument(entry, 1);
  for (int d = 0; d < s->rank; d++)
    site.coords[d] = mlirBlockGetArgument(entry, 2 + d);
  site.element_path = (MlirOperation){NULL};
  emit_element_store(&b, &site);
  return fn;
}

void ws_emit_exact_store(ws_builder *b, const ws_store_site *s) {
  MlirValue limit = view_word(b, s->view, 1);
  MlirValue end =
      ws_arith(b, "arith.addi", widen(b, s->coords[s->rank - 1]), const64(b, s->box[s->rank - 1]));
  MlirValue element_path = ws_cmpi(b, "sgt", end, limit);
  /* A TMA store with a negative coordinate dies with an illegal instruction
   * on the H100 (a load clips it); such a tile takes the element path. */
  for (int d = 0; d < s->rank; d++)
    element_path =
        ws_arith(b, "arith.ori", element_path, ws_cmpi(b, "slt", s->coords[d], ws_const_i32(b, 0)));
  MlirBlock edge, interior;
  ws_build_if(b, element_path, &edge, &interior);
  ws_builder e = ws_builder_before(mlirBlockGetTerminator(edge));
  if (mlirOperationIsNull(s->element_path))
    emit_element_store(&e, s);
  else
    call_element_path(&e, s);
  ws_builder t = ws_builder_before(mlirBlockGetTerminator(interior));
  emit_tma_store(&t, s);
}

/* Whether element `coords` lies inside the tensor behind `view`, and its
 * global address (an i64) in *at. */
static MlirValue element_inside(ws_builder *b, MlirValue view, int rank, const MlirValue *coords,
                                MlirValue *at) {
  MlirValue inside = {NULL};
  *at = view_word(b, view, 0);
  for (int d = 0; d < rank; d++) {
    MlirValue g = widen(b, coords[d]); /* negative: far above any size, unsigned */
    MlirValue in = ws_cmpi(b, "ult", g, view_word(b, view, 2 + d));
    inside = d ? ws_arith(b, "arith.andi", inside, in) : in;
    *at = ws_arith(b, "arith.addi", *at, ws_arith(b, "arith.muli", g, view_word(b, view, 7 + d)));
  }
  return inside;
}

static MlirValue global_ptr(ws_builder *b, MlirValue at) {
  return ws_build_value(b, "llvm.inttoptr", 1, &at, ws_type(b->ctx, "!llvm.ptr<1>"), 0, NULL);
}

void ws_emit_element_store(ws_builder *b, MlirValue view, int rank, const MlirValue *coords,
                           MlirValue value) {
  MlirValue at, inside = element_inside(b, view, rank, coords, &at);
  ws_builder then = open_if(b, inside);
  MlirValue ops[2] = {value, global_ptr(&then, at)};
  ws_build_void(&then, "llvm.store", 2, ops, 0, NULL);
}

MlirValue ws_emit_element_load(ws_builder *b, MlirValue view, int rank, const MlirValue *coords,
                               MlirValue zero) {
  MlirType type = mlirValueGetType(zero);
  MlirValue at, inside = element_inside(b, view, rank, coords, &at);
  MlirBlock then_block, else_block;
  MlirOperation op = ws_build_if_values(b, inside, 1, &type, &then_block, &else_block);
  ws_builder then = ws_builder_at_end(then_block, b->loc);
  MlirValue ptr = global_ptr(&then, at);
  MlirValue v = ws_build_value(&then, "llvm.load", 1, &ptr, type, 0, NULL);
  ws_build_terminator(then_block, b->loc, "scf.yield", 1, &v);
  ws_build_terminator(else_block, b->loc, "scf.yield", 1, &zero);
  return mlirOperationGetResult(op, 0);
}
