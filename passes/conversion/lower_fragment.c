/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* lower_fragment.c: a matmul's consumer tiles in wgmma's accumulator
 * layout, for ws-lower-to-nvvm (ws_lower_fragment.h says how). Elementwise
 * ops become one scalar op per value, row reductions quad shuffles, loops
 * carry structs of the values. */
#include "ws_lower_fragment.h"

#include <stdio.h>
#include <stdlib.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/LLVM.h"
#include "ws-c/Dialect.h"
#include "ws_lower_f8.h"
#include "ws_lower_tile.h"
#include "ws_uniform_select.h"
#include "../plan/ws_plan.h"
#include "../../dialect/ws_text.h"

enum { QUAD = 4 };

void ws_fragments_free(ws_fragments *F) {
  free(F->items);
  F->items = NULL;
  F->num = F->cap = 0;
}

ws_fragment *ws_fragment_find(ws_fragments *F, MlirValue tile) {
  for (int f = F->num - 1; f >= 0; f--)
    if (mlirValueEqual(F->items[f].tile, tile))
      return &F->items[f];
  return NULL;
}

/* n and count of a tile type in the layout; false when it has neither
 * shape. */
static bool fragment_shape(const ws_fragments *F, MlirType t, int *n, int *count) {
  if (!mlirTypeIsARankedTensor(t) || mlirShapedTypeGetRank(t) != 2)
    return false;
  int64_t m = ws_shape_m(&F->layout);
  int64_t d0 = mlirShapedTypeGetDimSize(t, 0), d1 = mlirShapedTypeGetDimSize(t, 1);
  if (d0 == 1 && d1 == m) {
    *n = 0;
    *count = 2 * F->layout.parts;
  } else if (d0 == m && d1 % (8 * F->layout.col_groups) == 0 && d1 > 0) {
    *n = (int)d1;
    *count = F->layout.parts * ws_shape_cols(&F->layout, (int)d1) / 2;
  } else {
    return false;
  }
  return *count <= WS_MAX_FRAGMENT;
}

static ws_fragment *fragment_new_typed(ws_fragments *F, MlirValue key, MlirType type) {
  int n, count;
  if (!fragment_shape(F, type, &n, &count))
    return NULL;
  F->items = ws_grow(F->items, &F->cap, F->num + 1, sizeof *F->items);
  ws_fragment *f = &F->items[F->num++];
  f->tile = key;
  f->n = n;
  f->count = count;
  f->f8 = (MlirType){NULL};
  return f;
}

ws_fragment *ws_fragment_new(ws_fragments *F, MlirValue tile) {
  return fragment_new_typed(F, tile, mlirValueGetType(tile));
}

ws_mma_shape ws_fragments_shape(const ws_fragments *F, int n) {
  ws_mma_shape s = F->layout;
  s.n = n;
  s.per_thread = s.parts * ws_shape_cols(&s, n) / 2;
  return s;
}

/* A struct of `count` copies of `v`, or of the values. */
static MlirValue pack_values(ws_builder *b, MlirType type, const MlirValue *values, int count,
                             bool same) {
  MlirValue agg = ws_build_value(b, "llvm.mlir.undef", 0, NULL, type, 0, NULL);
  for (int i = 0; i < count; i++)
    agg = ws_insert_value(b, agg, values[same ? 0 : i], i);
  return agg;
}

MlirValue ws_fragment_pack(ws_builder *b, const ws_fragment *f) {
  MlirType e = mlirValueGetType(f->values[0]);
  return pack_values(b, ws_struct_type(b->ctx, f->count, e), f->values, f->count, false);
}

void ws_fragment_unpack(ws_builder *b, MlirValue agg, ws_fragment *f) {
  MlirType type = mlirValueGetType(agg);
  for (int i = 0; i < f->count; i++)
    f->values[i] = ws_extract_value(b, agg, i, mlirLLVMStructTypeGetElementType(type, i));
}

MlirValue ws_splat_scalar(ws_builder *b, MlirValue tile, MlirOperation where) {
  MlirOperation def =
      mlirValueIsAOpResult(tile) ? mlirOpResultGetOwner(tile) : (MlirOperation){NULL};
  if (mlirOperationIsNull(def) || !ws_is_splat_tile(def)) {
    ws_emit_op_error(mlirOperationIsNull(def) ? where : def,
                     "is a tile the consumer warpgroups cannot rebuild; only "
                     "splats can be");
    return (MlirValue){NULL};
  }
  if (ws_op_is(def, "tensor.splat"))
    return mlirOperationGetOperand(def, 0);
  MlirAttribute value =
      mlirOperationGetInherentAttributeByName(def, mlirStringRefCreateFromCString("value"));
  MlirNamedAttribute attr = ws_named(b->ctx, "value", mlirDenseElementsAttrGetSplatValue(value));
  return ws_build_value(b, "arith.constant", 0, NULL, ws_tile_element(tile), 1, &attr);
}

/* ---- ops --------------------------------------------------------------- */

/* Whether every use of `tile` is wgmma's register A (the third operand of
 * a ws.mma without ring_a), arith.extf, or a loop's init or yield that
 * carries it to the next step (the step pipeline's P). */
static bool feeds_register_a(MlirValue tile) {
  for (MlirOpOperand use = mlirValueGetFirstUse(tile); !mlirOpOperandIsNull(use);
       use = mlirOpOperandGetNextUse(use)) {
    MlirOperation user = mlirOpOperandGetOwner(use);
    bool a = wsOperationIsA(user, "mma") && mlirOpOperandGetOperandNumber(use) == 2 &&
             !ws_has_attr(user, "ring_a");
    if (!a && !ws_op_is(user, "arith.extf") && !ws_op_is(user, "scf.yield") &&
        !ws_op_is(user, "scf.for"))
      return false;
  }
  return true;
}

/* arith.truncf of an f32 tile to FP8 for wgmma's register A: the same
 * values, marked with the format (ws_fragment.f8), rounded where they are
 * read. */
static bool quantize(ws_fragments *F, MlirOperation op) {
  MlirValue result = mlirOperationGetResult(op, 0);
  if (!feeds_register_a(result)) {
    ws_emit_op_error(op, "makes an FP8 tile from a matmul's accumulator, which ws does not "
                         "lower but as a ws.dot's A: truncate it to bf16, f16 or f32 "
                         "(arith.truncf) for the store");
    return false;
  }
  ws_fragment *in = ws_fragment_find(F, mlirOperationGetOperand(op, 0));
  if (!in || !mlirTypeIsNull(in->f8) || !mlirTypeIsAF32(mlirValueGetType(in->values[0]))) {
    ws_emit_op_error(op, "makes an FP8 tile of a tile that is not the consumers' f32 values; "
                         "truncate an f32 tile (the probabilities of attention) to feed a "
                         "ws.dot as its A");
    return false;
  }
  int in_index = (int)(in - F->items);
  ws_fragment *out = ws_fragment_new(F, result);
  if (!out) {
    ws_emit_op_error(op, "makes an FP8 tile that is neither M x N nor 1 x M of the consumers' "
                         "rows");
    return false;
  }
  in = &F->items[in_index];
  for (int v = 0; v < out->count; v++)
    out->values[v] = in->values[v];
  out->f8 = ws_tile_element(result);
  return true;
}

/* The values of FP8 tile f rounded to its format, in place (arith.extf
 * reads them so). f stays an FP8 tile: a dot that reads it after rounds
 * the rounded values again, exactly. */
static void round_f8(ws_builder *b, ws_fragment *f) {
  MlirType f32 = mlirF32TypeGet(b->ctx);
  for (int v = 0; v + 1 < f->count; v += 2) {
    MlirValue wide = ws_f8_round(b, ws_build_vector(b, 2, &f->values[v]), f->f8);
    for (int e = 0; e < 2; e++) {
      MlirValue ops[2] = {wide, ws_const_i32(b, e)};
      f->values[v + e] = ws_build_value(b, "llvm.extractelement", 2, ops, f32, 0, NULL);
    }
  }
}

bool ws_fragments_elementwise(ws_fragments *F, ws_builder *b, MlirOperation op) {
  intptr_t n = mlirOperationGetNumOperands(op);
  MlirValue result = mlirOperationGetResult(op, 0);
  bool lowered = false;
  if (ws_op_is(op, "arith.select") && !ws_fragments_uniform_select(F, b, op, &lowered))
    return false;
  if (lowered)
    return true;
  if (n > 8) {
    ws_emit_op_error(op, "has more than 8 operands, which a matmul's consumer tiles do not "
                         "take");
    return false;
  }
  if (ws_is_f8(ws_tile_element(result)) && ws_op_is(op, "arith.truncf"))
    return quantize(F, op);
  if (ws_is_f8(ws_tile_element(result))) {
    ws_emit_op_error(op, "makes an FP8 tile from a matmul's accumulator, which ws does not "
                         "lower: truncate it to bf16, f16 or f32 (arith.truncf) for the "
                         "store, or an f32 tile to FP8 (arith.truncf) for a ws.dot's A");
    return false;
  }
  int in_index[8]; /* entries, not pointers: the table grows */
  MlirValue splat[8];
  for (intptr_t k = 0; k < n; k++) {
    MlirValue v = mlirOperationGetOperand(op, k);
    ws_fragment *f = ws_fragment_find(F, v);
    if (f && !mlirTypeIsNull(f->f8)) {
      if (!ws_op_is(op, "arith.extf")) {
        ws_emit_op_error(op, "reads an FP8 tile made by arith.truncf, which feeds a ws.dot "
                             "as its A or arith.extf only");
        return false;
      }
      round_f8(b, f);
    }
    in_index[k] = f ? (int)(f - F->items) : -1;
    splat[k] = f ? (MlirValue){NULL} : ws_splat_scalar(b, v, op);
    if (!f && mlirValueIsNull(splat[k]))
      return false;
  }
  ws_fragment *out = ws_fragment_new(F, result);
  if (!out) {
    char t[96];
    ws_emit_op_error(op,
                     "makes a %s tile, which is neither M x N nor 1 x M of the "
                     "consumers' %d rows",
                     ws_type_str(mlirValueGetType(result), t, sizeof t), ws_shape_m(&F->layout));
    return false;
  }
  MlirType from_type = n ? mlirValueGetType(mlirOperationGetOperand(op, 0)) : (MlirType){NULL};
  if (ws_op_is(op, "arith.extf") && in_index[0] >= 0 && mlirTypeIsAShaped(from_type) &&
      ws_is_f8(mlirShapedTypeGetElementType(from_type))) {
    for (int v = 0; v < out->count; v++) /* f8 is f32 in registers */
      out->values[v] = ws_f8_extend(b, F->items[in_index[0]].values[v], ws_tile_element(result));
    return true;
  }
  for (int v = 0; v < out->count; v++) {
    MlirOperation copy = ws_clone_before(b, op);
    for (intptr_t k = 0; k < n; k++)
      mlirOperationSetOperand(copy, k,
                              in_index[k] >= 0 ? F->items[in_index[k]].values[v] : splat[k]);
    mlirValueSetType(mlirOperationGetResult(copy, 0), ws_tile_element(result));
    out->values[v] = mlirOperationGetResult(copy, 0);
  }
  return true;
}

/* Each row's reduction: the thread's own values of the row, then the
 * other three lanes of its quad (lanes 4q..4q+3 share rows). */
bool ws_fragments_reduce(ws_fragments *F, ws_builder *b, MlirOperation op) {
  ws_fragment *in = ws_fragment_find(F, mlirOperationGetOperand(op, 0));
  MlirType element = ws_tile_element(mlirOperationGetResult(op, 0));
  const char *combine = ws_reduce_combiner(op, element);
  if (!in || in->n == 0 || !combine || ws_int_attr(op, "axis", -1) != 1) {
    ws_emit_op_error(op, "reduces a tile that is not an M x N tile of the consumers "
                         "along its rows (axis = 1; kind max, min or sum)");
    return false;
  }
  if (F->layout.col_groups > 1) {
    ws_emit_op_error(op, "reduces along rows that several warpgroups share (each holds "
                         "some of the columns read from tensor memory); not lowered");
    return false;
  }
  int in_index = (int)(in - F->items), n = in->n;
  ws_fragment *out = ws_fragment_new(F, mlirOperationGetResult(op, 0));
  if (!out) {
    ws_emit_op_error(op, "reduces into a tile that is not 1 x M of the consumers' rows");
    return false;
  }
  in = &F->items[in_index];
  for (int p = 0; p < F->layout.parts; p++)
    for (int h = 0; h < 2; h++) {
      MlirValue acc = {NULL};
      for (int j = 0; j < n / 8; j++)
        for (int e = 0; e < 2; e++) {
          MlirValue v = in->values[p * n / 2 + 4 * j + 2 * h + e];
          acc = mlirValueIsNull(acc) ? v : ws_arith(b, combine, acc, v);
        }
      for (int offset = 1; offset < QUAD; offset *= 2)
        acc = ws_arith(b, combine, acc, ws_shuffle(b, "bfly", acc, ws_const_i32(b, offset)));
      out->values[2 * p + h] = acc;
    }
  return true;
}

/* A row vector spread along the rows (axis 0); a bias the epilogue read
 * from its slot already has its fragment (ws-lower-to-nvvm's
 * read_fragment). */
bool ws_fragments_broadcast(ws_fragments *F, ws_builder *b, MlirOperation op) {
  MlirValue result = mlirOperationGetResult(op, 0);
  if (ws_fragment_find(F, result))
    return true;
  MlirValue v = mlirOperationGetOperand(op, 0);
  ws_fragment *in = ws_fragment_find(F, v);
  MlirValue splat = in ? (MlirValue){NULL} : ws_splat_scalar(b, v, op);
  if ((in && in->n != 0) || (!in && mlirValueIsNull(splat)) || ws_int_attr(op, "axis", -1) != 0) {
    ws_emit_op_error(op, "broadcasts a tile that is neither a 1 x M row vector of the "
                         "consumers spread along the rows (axis = 0) nor a bias the "
                         "epilogue read from its slot");
    return false;
  }
  int in_index = in ? (int)(in - F->items) : -1;
  ws_fragment *out = ws_fragment_new(F, result);
  if (!out || out->n == 0) {
    ws_emit_op_error(op, "broadcasts into a tile that is not M x N of the consumers' rows");
    return false;
  }
  int cols = ws_shape_cols(&F->layout, out->n);
  for (int p = 0; p < F->layout.parts; p++)
    for (int j = 0; j < cols / 8; j++)
      for (int h = 0; h < 2; h++)
        for (int e = 0; e < 2; e++)
          out->values[p * cols / 2 + 4 * j + 2 * h + e] =
              in_index >= 0 ? F->items[in_index].values[2 * p + h] : splat;
  return true;
}

/* Each value's row (axis 0) or column (axis 1) in the M x N tile. */
bool ws_fragments_iota(ws_fragments *F, ws_builder *b, MlirOperation op, MlirValue thread) {
  MlirValue result = mlirOperationGetResult(op, 0);
  ws_fragment *out = ws_fragment_new(F, result);
  int axis = ws_int_attr(op, "axis", -1);
  if (!out || out->n == 0 || (axis != 0 && axis != 1)) {
    ws_emit_op_error(op, "makes an index tile that is not M x N of the consumers' rows");
    return false;
  }
  ws_mma_shape s = ws_fragments_shape(F, out->n);
  MlirValue row0, col0;
  ws_fragment_origin(b, &s, thread, &row0, &col0);
  int cols = ws_shape_cols(&s, out->n);
  for (int p = 0; p < F->layout.parts; p++)
    for (int j = 0; j < cols / 8; j++)
      for (int h = 0; h < 2; h++)
        for (int e = 0; e < 2; e++)
          out->values[p * cols / 2 + 4 * j + 2 * h + e] =
              axis == 0 ? ws_arith(b, "arith.addi", row0, ws_const_i32(b, s.part_rows * p + 8 * h))
                        : ws_arith(b, "arith.addi", col0, ws_const_i32(b, 8 * j + e));
  return true;
}

/* ---- loops ------------------------------------------------------------- */

MlirValue ws_fragment_struct(ws_fragments *F, ws_builder *b, MlirValue tile, MlirType type,
                             MlirOperation where) {
  ws_fragment *f = ws_fragment_find(F, tile);
  if (f)
    return ws_fragment_pack(b, f);
  if (ws_is_zero_splat(tile))
    return ws_build_value(b, "llvm.mlir.zero", 0, NULL, type, 0, NULL);
  MlirValue s = ws_splat_scalar(b, tile, where);
  return mlirValueIsNull(s)
             ? s
             : pack_values(b, type, &s, (int)mlirLLVMStructTypeGetNumElementTypes(type), true);
}

/* A tile value that crosses a region's edge (an scf.for's or scf.if's
 * result, a loop's block argument) becomes a struct of its values; the
 * fragment of its type's tile is unpacked at `at`. False after a located
 * error at `op`. */
static bool carry_as_struct(ws_fragments *F, MlirOperation op, MlirValue v, MlirType tile,
                            ws_builder *at) {
  int n, count;
  if (!fragment_shape(F, tile, &n, &count)) {
    char buf[96];
    ws_emit_op_error(op,
                     "carries a %s tile, which is neither M x N nor 1 x M of the "
                     "consumers' %d rows",
                     ws_type_str(tile, buf, sizeof buf), ws_shape_m(&F->layout));
    return false;
  }
  MlirType e = mlirShapedTypeGetElementType(tile);
  mlirValueSetType(v, ws_struct_type(F->ctx, count, ws_register_element(e)));
  ws_fragment *f = fragment_new_typed(F, v, tile);
  ws_fragment_unpack(at, v, f);
  if (ws_is_f8(e)) /* carried as its f32 values, rounded where read */
    f->f8 = e;
  return true;
}

bool ws_fragments_carried_loop(ws_fragments *F, MlirOperation loop) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(loop, 0));
  ws_builder before = ws_builder_before(loop);
  ws_builder after = ws_builder_before(mlirOperationGetNextInBlock(loop));
  ws_builder start = ws_builder_before(mlirBlockGetFirstOperation(body));
  for (intptr_t i = 0; i < mlirOperationGetNumResults(loop); i++) {
    MlirValue result = mlirOperationGetResult(loop, i);
    MlirType t = mlirValueGetType(result);
    if (!mlirTypeIsARankedTensor(t))
      continue;
    if (!carry_as_struct(F, loop, mlirBlockGetArgument(body, 1 + i), t, &start) ||
        !carry_as_struct(F, loop, result, t, &after))
      return false;
    MlirValue init = ws_fragment_struct(F, &before, mlirOperationGetOperand(loop, 3 + i),
                                        mlirValueGetType(result), loop);
    if (mlirValueIsNull(init))
      return false;
    mlirOperationSetOperand(loop, 3 + i, init);
  }
  return true;
}

bool ws_fragments_carried_if(ws_fragments *F, MlirOperation op) {
  ws_builder after = ws_builder_before(mlirOperationGetNextInBlock(op));
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++) {
    MlirValue result = mlirOperationGetResult(op, i);
    MlirType t = mlirValueGetType(result);
    if (mlirTypeIsARankedTensor(t) && !carry_as_struct(F, op, result, t, &after))
      return false;
  }
  return true;
}

bool ws_fragments_yield(ws_fragments *F, MlirOperation yield) {
  ws_builder b = ws_builder_before(yield);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(yield); i++) {
    MlirValue v = mlirOperationGetOperand(yield, i);
    if (!mlirTypeIsARankedTensor(mlirValueGetType(v)))
      continue; /* a count, or a struct a wgmma gave */
    /* the parent's result is a struct already (carried_loop, carried_if):
     * a tile in registers is packed, a splat (the inits an scf.if that
     * skips a loop yields) built; ws_fragment_struct does either */
    MlirOperation parent = mlirOperationGetParentOperation(yield);
    MlirType type = i < mlirOperationGetNumResults(parent)
                        ? mlirValueGetType(mlirOperationGetResult(parent, i))
                        : (MlirType){NULL};
    if (mlirTypeIsNull(type) || !mlirTypeIsALLVMStructType(type)) {
      ws_emit_op_error(yield, "yields a tile the consumers do not hold in registers");
      return false;
    }
    MlirValue packed = ws_fragment_struct(F, &b, v, type, yield);
    if (mlirValueIsNull(packed))
      return false; /* ws_splat_scalar said why */
    mlirOperationSetOperand(yield, i, packed);
  }
  return true;
}
