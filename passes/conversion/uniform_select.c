/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* uniform_select.c: selects whose mask is the same over the whole tile,
 * tested once per tile (ws_uniform_select.h). */
#include "ws_uniform_select.h"
#include "ws_lower_tile.h"

#include <stdint.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include "../plan/ws_plan.h"
#include "../../dialect/ws_text.h"

enum { MAX_DEPTH = 8 };

/* The values of an index tile lie in [base + lo, base + hi], base an i64
 * scalar (null: 0), computed exactly in i64. */
typedef struct index_range {
  MlirValue base;
  int64_t lo, hi;
} index_range;

static MlirOperation defining_op(MlirValue v) {
  return mlirValueIsAOpResult(v) ? mlirOpResultGetOwner(v) : (MlirOperation){NULL};
}

static MlirValue i64_const(ws_builder *b, int64_t v) {
  return ws_const_int(b, v, mlirIntegerTypeGet(b->ctx, 64));
}

/* base1 op base2 with null meaning 0 ("arith.addi" or "arith.subi"). */
static MlirValue combine_bases(ws_builder *b, const char *name, MlirValue x, MlirValue y) {
  if (mlirValueIsNull(y))
    return x;
  if (mlirValueIsNull(x))
    x = i64_const(b, 0);
  return ws_arith(b, name, x, y);
}

/* The range of an i32 tile's values, or false when they do not follow
 * from the forms above. Scalars are built at b, before the select. */
static bool range_of(ws_builder *b, MlirValue tile, int depth, index_range *r) {
  MlirOperation def = defining_op(tile);
  if (mlirOperationIsNull(def) || depth > MAX_DEPTH || !mlirTypeIsAShaped(mlirValueGetType(tile)))
    return false;
  MlirType type = mlirValueGetType(tile);
  if (!mlirTypeIsAInteger(mlirShapedTypeGetElementType(type)) ||
      mlirIntegerTypeGetWidth(mlirShapedTypeGetElementType(type)) != 32)
    return false;
  if (ws_op_is(def, "ws.iota")) {
    MlirAttribute axis =
        mlirOperationGetAttributeByName(def, mlirStringRefCreateFromCString("axis"));
    int64_t a = mlirAttributeIsNull(axis) ? -1 : mlirIntegerAttrGetValueInt(axis);
    if (a < 0 || a >= mlirShapedTypeGetRank(type))
      return false;
    *r = (index_range){{NULL}, 0, mlirShapedTypeGetDimSize(type, a) - 1};
    return true;
  }
  if (ws_is_splat_tile(def)) {
    MlirValue s = ws_splat_scalar(b, tile, def);
    if (mlirValueIsNull(s))
      return false;
    *r = (index_range){
        ws_build_value(b, "arith.extsi", 1, &s, mlirIntegerTypeGet(b->ctx, 64), 0, NULL), 0, 0};
    return true;
  }
  bool add = ws_op_is(def, "arith.addi"), sub = ws_op_is(def, "arith.subi");
  index_range x, y;
  if ((!add && !sub) || !range_of(b, mlirOperationGetOperand(def, 0), depth + 1, &x) ||
      !range_of(b, mlirOperationGetOperand(def, 1), depth + 1, &y))
    return false;
  r->base = combine_bases(b, add ? "arith.addi" : "arith.subi", x.base, y.base);
  r->lo = add ? x.lo + y.lo : x.lo - y.hi;
  r->hi = add ? x.hi + y.hi : x.hi - y.lo;
  return true;
}

/* base + offset as an i64 scalar. */
static MlirValue bound(ws_builder *b, const index_range *r, int64_t offset) {
  MlirValue c = i64_const(b, offset);
  return mlirValueIsNull(r->base) ? c : ws_arith(b, "arith.addi", r->base, c);
}

/* True where both ends of the range lie in i32: the i32 values the tile
 * holds (wrapping adds) are then the exact ones the range bounds. */
static MlirValue fits_i32(ws_builder *b, MlirValue lo, MlirValue hi) {
  MlirValue above = ws_cmpi(b, "sge", lo, i64_const(b, INT32_MIN));
  MlirValue below = ws_cmpi(b, "sle", hi, i64_const(b, INT32_MAX));
  return ws_arith(b, "arith.andi", above, below);
}

/* The scalar conditions under which `cmp` (an index mask's arith.cmpi,
 * ws_is_index_mask) holds for every element (*all) and for none (*none);
 * false when a splat's scalar cannot be rebuilt. */
static bool uniform_conditions(ws_builder *b, MlirOperation cmp, MlirValue *all, MlirValue *none) {
  enum { SLT = 2, SLE = 3, SGT = 4 }; /* arith::CmpIPredicate; SGE = 5 */
  MlirAttribute p =
      mlirOperationGetInherentAttributeByName(cmp, mlirStringRefCreateFromCString("predicate"));
  int64_t pred = mlirIntegerAttrGetValueInt(p);
  index_range x, y;
  if (!range_of(b, mlirOperationGetOperand(cmp, 0), 0, &x) ||
      !range_of(b, mlirOperationGetOperand(cmp, 1), 0, &y))
    return false;
  MlirValue xl = bound(b, &x, x.lo), xh = bound(b, &x, x.hi);
  MlirValue yl = bound(b, &y, y.lo), yh = bound(b, &y, y.hi);
  /* x < y everywhere when x's top is below y's bottom, and so on */
  switch (pred) {
  case SLT:
    *all = ws_cmpi(b, "slt", xh, yl);
    *none = ws_cmpi(b, "sge", xl, yh);
    break;
  case SLE:
    *all = ws_cmpi(b, "sle", xh, yl);
    *none = ws_cmpi(b, "sgt", xl, yh);
    break;
  case SGT:
    *all = ws_cmpi(b, "sgt", xl, yh);
    *none = ws_cmpi(b, "sle", xh, yl);
    break;
  default:
    *all = ws_cmpi(b, "sge", xl, yh);
    *none = ws_cmpi(b, "slt", xh, yl);
    break;
  }
  MlirValue exact = ws_arith(b, "arith.andi", fits_i32(b, xl, xh), fits_i32(b, yl, yh));
  *all = ws_arith(b, "arith.andi", *all, exact);
  *none = ws_arith(b, "arith.andi", *none, exact);
  return true;
}

/* Operand k of the select as `count` values: its fragment's, or a splat's
 * scalar repeated; false after a located error. */
static bool operand_values(ws_fragments *F, ws_builder *b, MlirOperation op, int k, int count,
                           MlirValue *out) {
  ws_fragment *f = ws_fragment_find(F, mlirOperationGetOperand(op, k));
  MlirValue s = f ? (MlirValue){NULL} : ws_splat_scalar(b, mlirOperationGetOperand(op, k), op);
  if (!f && mlirValueIsNull(s))
    return false;
  for (int v = 0; v < count; v++)
    out[v] = f ? f->values[v] : s;
  return true;
}

bool ws_fragments_uniform_select(ws_fragments *F, ws_builder *b, MlirOperation op, bool *lowered) {
  *lowered = false;
  MlirValue cond = mlirOperationGetOperand(op, 0);
  ws_fragment *pred = ws_fragment_find(F, cond);
  MlirValue all, none;
  /* the masks the step pipeline's estimate also takes as free (ws_plan.h) */
  if (!ws_is_index_mask(cond) || !pred || !uniform_conditions(b, defining_op(cond), &all, &none))
    return true; /* scalars it built for nothing are dead: canonicalize drops them */
  int count = pred->count;
  MlirValue yes[WS_MAX_FRAGMENT], no[WS_MAX_FRAGMENT], picked[WS_MAX_FRAGMENT];
  if (!operand_values(F, b, op, 1, count, yes) || !operand_values(F, b, op, 2, count, no))
    return false;
  MlirType types[WS_MAX_FRAGMENT];
  MlirType element = ws_tile_element(mlirOperationGetResult(op, 0));
  for (int v = 0; v < count; v++)
    types[v] = element;
  /* if all { yes } else { if none { no } else { select per element } } */
  MlirBlock all_block, rest, none_block, mixed;
  MlirOperation outer = ws_build_if_values(b, all, count, types, &all_block, &rest);
  ws_build_terminator(all_block, b->loc, "scf.yield", count, yes);
  ws_builder in_rest = ws_builder_at_end(rest, b->loc);
  MlirOperation inner = ws_build_if_values(&in_rest, none, count, types, &none_block, &mixed);
  ws_build_terminator(none_block, b->loc, "scf.yield", count, no);
  ws_builder in_mixed = ws_builder_at_end(mixed, b->loc);
  for (int v = 0; v < count; v++) {
    MlirValue operands[3] = {pred->values[v], yes[v], no[v]};
    picked[v] = ws_build_value(&in_mixed, "arith.select", 3, operands, element, 0, NULL);
  }
  ws_build_terminator(mixed, b->loc, "scf.yield", count, picked);
  for (int v = 0; v < count; v++)
    picked[v] = mlirOperationGetResult(inner, v);
  ws_build_terminator(rest, b->loc, "scf.yield", count, picked);
  ws_fragment *out = ws_fragment_new(F, mlirOperationGetResult(op, 0));
  if (!out) {
    ws_emit_op_error(op, "selects a tile that is neither M x N nor 1 x M of the consumers' "
                         "rows");
    return false;
  }
  for (int v = 0; v < count; v++)
    out->values[v] = mlirOperationGetResult(outer, v);
  *lowered = true;
  return true;
}
