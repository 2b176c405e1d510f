/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* lower_tile_rows.c: a row kernel's reductions in the compute warps'
 * chunks (ws_lower_tile.h says how rows lie in them). A ws.reduce along
 * the rows combines each thread's values of a row, then the lanes that
 * share it (butterfly shuffles, so every lane ends with the row's value),
 * and where a row spans warps, the warps' parts through the row scratch
 * ws-plan-memory reserved: every warp writes its part, the compute warps
 * meet at named barrier 1, and every thread combines the parts of its row
 * in one order, so all of them hold the same value. Successive reductions
 * alternate between the scratch's two buffers, so a buffer is written
 * again only after every thread passed the barrier of the reduction in
 * between, which it reaches after its reads; a loop body with an odd
 * number of them adds a barrier after the last, since the next
 * iteration's first uses the same buffer. */
#include <stdio.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/LLVM.h"
#include "ws-c/Dialect.h"
#include "ws_lower_store.h"
#include "ws_lower_tile.h"
#include "../../dialect/ws_text.h"

enum { WARP = 32, ROW_BARRIER = 1 };

bool ws_tiles_is_row_vector(const ws_tiles *T, MlirType type) {
  return T->rows && mlirTypeIsARankedTensor(type) && mlirShapedTypeGetRank(type) == 2 &&
         mlirShapedTypeGetDimSize(type, 0) == 1 && mlirShapedTypeGetDimSize(type, 1) == T->rows &&
         !(T->rows == 1 && T->cols == 1);
}

/* Whether v holds a row vector: one of its type, or a loop's carried one,
 * retyped to its struct by ws_tiles_carried_loop. */
static bool holds_row_vector(ws_tiles *T, MlirValue v) {
  MlirType t = mlirValueGetType(v);
  return ws_tiles_is_row_vector(T, t) || (mlirTypeIsALLVMStructType(t) && ws_tiles_find(T, v));
}

bool ws_tiles_is_col_vector(const ws_tiles *T, MlirType type) {
  return T->rows > 1 && T->rows != T->cols && mlirTypeIsARankedTensor(type) &&
         mlirShapedTypeGetRank(type) == 2 && mlirShapedTypeGetDimSize(type, 0) == 1 &&
         mlirShapedTypeGetDimSize(type, 1) == T->cols;
}

/* The row kernel's tile: a reduction's operand or a broadcast's result. */
static MlirType row_tile_of(MlirOperation op) {
  if (wsOperationIsA(op, "reduce"))
    return mlirValueGetType(mlirOperationGetOperand(op, 0));
  if (wsOperationIsA(op, "broadcast"))
    return mlirValueGetType(mlirOperationGetResult(op, 0));
  return (MlirType){NULL};
}

void ws_tiles_find_rows(ws_tiles *T, const MlirOperation *ops, size_t n) {
  MlirType t = {NULL}; /* a reduction's tile, else the first broadcast's */
  for (size_t i = 0; i < n; i++) {
    bool reduce = wsOperationIsA(ops[i], "reduce");
    if (reduce || mlirTypeIsNull(t))
      t = row_tile_of(ops[i]);
    if (reduce)
      break;
  }
  if (mlirTypeIsNull(t))
    return;
  T->rows = (int)mlirShapedTypeGetDimSize(t, 0);
  T->cols = (int)mlirShapedTypeGetDimSize(t, 1);
}

/* A square tile's 1 x R row vectors and rows of values per column would
 * look alike: refused where a broadcast along axis 1 needs the latter. */
static bool check_square(const ws_tiles *T, const MlirOperation *ops, size_t n) {
  for (size_t i = 0; i < n && T->rows == T->cols && T->rows > 1; i++)
    if (wsOperationIsA(ops[i], "broadcast") && ws_int_attr(ops[i], "axis", 0) == 1) {
      ws_emit_op_error(ops[i],
                       "spreads a 1 x %d row over the rows of a square %d x %d "
                       "tile; a row kernel tells its row vectors (1 x rows) from "
                       "its rows of values per column (1 x columns) by their "
                       "length, so give the tile more or fewer rows than columns",
                       T->cols, T->rows, T->cols);
      return false;
    }
  return true;
}

bool ws_tiles_check_rows(ws_tiles *T, const MlirOperation *ops, size_t n, int scratch_bytes) {
  if (!T->rows)
    return true;
  MlirOperation first = {NULL};
  for (size_t i = 0; i < n && mlirOperationIsNull(first); i++)
    if (!mlirTypeIsNull(row_tile_of(ops[i])))
      first = ops[i];
  if (!check_square(T, ops, n))
    return false;
  T->cpr = T->cols / T->vec;
  bool fits = T->cpr < T->threads ? T->threads % T->cpr == 0 : T->cpr % T->threads == 0;
  if (!fits || T->total % T->threads) {
    ws_emit_op_error(first,
                     "works on rows of %d elements, %d chunks of %d over the compute "
                     "warps' %d threads, which the chunks cannot follow: a row's "
                     "chunks must divide the threads or be a multiple of them, and "
                     "the tile's %d chunks a multiple of the threads; use a power of "
                     "two for the row length and the rows",
                     T->cols, T->cpr, T->vec, T->threads, T->total);
    return false;
  }
  T->row_q = T->cpr > T->threads ? T->cpr / T->threads : 1;
  T->row_threads = T->cpr < T->threads ? T->cpr : T->threads;
  T->cross_reduces = 0;
  for (size_t i = 0; i < n; i++)
    if (wsOperationIsA(ops[i], "reduce") && T->row_threads > WARP)
      T->cross_reduces++;
  int warps = T->threads / WARP;
  long long need = ws_row_scratch_need(T->rows, warps);
  if (T->cross_reduces && scratch_bytes < need) {
    ws_emit_op_error(first,
                     "reduces rows that span warps, which needs %d bytes of row "
                     "scratch; the plan reserves %d (run ws-plan-memory)",
                     (int)need, scratch_bytes);
    return false;
  }
  return true;
}

/* The row (an i32) of this thread's chunk j. */
static MlirValue row_of_chunk(ws_tiles *T, ws_builder *b, int j) {
  MlirValue k = ws_arith(b, "arith.addi", T->tid, ws_const_i32(b, j * T->threads));
  return ws_arith(b, "arith.divui", k, ws_const_i32(b, T->cpr));
}

static void row_barrier(ws_tiles *T, ws_builder *b) {
  MlirValue ops[2] = {ws_const_i32(b, ROW_BARRIER), ws_const_i32(b, T->threads)};
  MlirNamedAttribute seg = ws_named_text(T->ctx, "operandSegmentSizes", "array<i32: 1, 1, 0>");
  ws_build_void(b, "nvvm.barrier", 2, ops, 1, &seg);
}

/* The f32 at float index `index` (an i32) of the row scratch. */
static MlirValue scratch_ptr(ws_tiles *T, ws_builder *b, MlirValue index) {
  MlirValue at = ws_arith(b, "arith.addi", ws_const_i32(b, T->scratch),
                          ws_arith(b, "arith.muli", index, ws_const_i32(b, 4)));
  return ws_byte_ptr(b, T->smem, at);
}

/* The rows' parts (part[s], the thread's s-th row, every lane of a warp
 * holding its warp's part) combined across the `span` warps of each row
 * through buffer `buffer` of the row scratch: slot row * span + the warp's
 * place in its row. */
static void combine_warps(ws_tiles *T, ws_builder *b, MlirValue *part, int slots,
                          const char *combine, int buffer) {
  int span = T->row_threads / WARP;
  MlirValue warp = ws_arith(b, "arith.divui", T->tid, ws_const_i32(b, WARP));
  MlirValue place = ws_arith(b, "arith.remui", warp, ws_const_i32(b, span));
  MlirValue base[WS_MAX_CHUNKS];
  MlirType f32 = mlirF32TypeGet(T->ctx);
  for (int s = 0; s < slots; s++) {
    MlirValue row = row_of_chunk(T, b, s * T->row_q);
    base[s] = ws_arith(b, "arith.addi", ws_const_i32(b, buffer * T->rows * span),
                       ws_arith(b, "arith.muli", row, ws_const_i32(b, span)));
    /* every lane writes its warp's part to the same word: one store */
    MlirValue ops[2] = {part[s], scratch_ptr(T, b, ws_arith(b, "arith.addi", base[s], place))};
    ws_build_void(b, "llvm.store", 2, ops, 0, NULL);
  }
  row_barrier(T, b);
  for (int s = 0; s < slots; s++) {
    MlirValue acc = {NULL};
    for (int w = 0; w < span; w++) {
      MlirValue p = scratch_ptr(T, b, ws_arith(b, "arith.addi", base[s], ws_const_i32(b, w)));
      MlirValue v = ws_build_value(b, "llvm.load", 1, &p, f32, 0, NULL);
      acc = mlirValueIsNull(acc) ? v : ws_arith(b, combine, acc, v);
    }
    part[s] = acc;
  }
}

bool ws_tiles_reduce(ws_tiles *T, ws_builder *b, MlirOperation op) {
  MlirValue tile = mlirOperationGetOperand(op, 0);
  MlirType element = ws_tile_element(tile);
  const char *combine = ws_reduce_combiner(op, element);
  ws_tile_regs *in = ws_tiles_find(T, tile);
  if (!mlirTypeIsAF32(element) || !combine) {
    ws_emit_op_error(op, "reduces a tile of another element type than f32; the compute "
                         "warps reduce in f32 (arith.extf the tile first)");
    return false;
  }
  if (!in || !T->rows || mlirShapedTypeGetDimSize(mlirValueGetType(tile), 0) != T->rows ||
      mlirShapedTypeGetDimSize(mlirValueGetType(tile), 1) != T->cols) {
    ws_emit_op_error(op,
                     "reduces a tile of another shape than the loop's first reduced "
                     "tile (%d x %d); a row kernel's reductions share one tile shape",
                     T->rows, T->cols);
    return false;
  }
  int in_index = (int)(in - T->tiles), slots = T->chunks / T->row_q;
  MlirValue part[WS_MAX_CHUNKS];
  for (int s = 0; s < slots; s++) {
    MlirValue acc = {NULL};
    for (int j = s * T->row_q; j < (s + 1) * T->row_q; j++)
      for (int lane = 0; lane < T->vec; lane++) {
        MlirValue ops[2] = {T->tiles[in_index].chunks[j], ws_const_i32(b, lane)};
        MlirValue v = ws_build_value(b, "llvm.extractelement", 2, ops, element, 0, NULL);
        acc = mlirValueIsNull(acc) ? v : ws_arith(b, combine, acc, v);
      }
    for (int offset = 1; offset < T->row_threads && offset < WARP; offset *= 2)
      acc = ws_arith(b, combine, acc, ws_shuffle(b, "bfly", acc, ws_const_i32(b, offset)));
    part[s] = acc;
  }
  if (T->row_threads > WARP) {
    combine_warps(T, b, part, slots, combine, T->reduces_seen % 2);
    if (++T->reduces_seen == T->cross_reduces && T->cross_reduces % 2)
      row_barrier(T, b); /* the next iteration's first reduction reuses buffer 0 */
  }
  ws_tile_regs *out = ws_tiles_new(T, mlirOperationGetResult(op, 0));
  for (int j = 0; j < T->chunks; j++)
    out->chunks[j] = part[j / T->row_q];
  return true;
}

/* ws.broadcast along axis 1: a row of values per column (or, in a tile of
 * one row, the tile itself) is already held chunk by chunk. */
static bool broadcast_cols(ws_tiles *T, ws_builder *b, MlirOperation op) {
  MlirValue v = mlirOperationGetOperand(op, 0), result = mlirOperationGetResult(op, 0);
  MlirType vt = mlirValueGetType(v), rt = mlirValueGetType(result);
  ws_tile_regs *in = ws_tiles_operand(T, b, v);
  if (!in || mlirShapedTypeGetDimSize(vt, 1) != T->cols ||
      mlirShapedTypeGetDimSize(rt, 0) != T->rows || mlirShapedTypeGetDimSize(rt, 1) != T->cols) {
    ws_emit_op_error(op,
                     "spreads a row over a tile of another shape than the row "
                     "kernel's %d x %d tile",
                     T->rows, T->cols);
    return false;
  }
  int in_index = (int)(in - T->tiles);
  ws_tile_regs *out = ws_tiles_new(T, result);
  for (int j = 0; j < T->chunks; j++)
    out->chunks[j] = T->tiles[in_index].chunks[j];
  return true;
}

MlirValue ws_tiles_col_offset(ws_tiles *T, ws_builder *b, int j, int elem_bytes) {
  MlirValue k = ws_arith(b, "arith.addi", T->tid, ws_const_i32(b, (j % T->row_q) * T->threads));
  if (T->cpr < T->threads) /* a row within cpr threads: every cpr-th has its first chunk */
    k = ws_arith(b, "arith.remui", k, ws_const_i32(b, T->cpr));
  return ws_arith(b, "arith.muli", k, ws_const_i32(b, T->vec * elem_bytes));
}

bool ws_tiles_broadcast(ws_tiles *T, ws_builder *b, MlirOperation op) {
  if (ws_int_attr(op, "axis", 0) == 1)
    return broadcast_cols(T, b, op);
  MlirValue v = mlirOperationGetOperand(op, 0), result = mlirOperationGetResult(op, 0);
  ws_tile_regs *in = ws_tiles_operand(T, b, v);
  MlirType rt = mlirValueGetType(result);
  if (!in || !holds_row_vector(T, v) || mlirShapedTypeGetDimSize(rt, 0) != T->rows ||
      mlirShapedTypeGetDimSize(rt, 1) != T->cols) {
    ws_emit_op_error(op,
                     "spreads a tile that is not a row vector of the loop's reduced "
                     "tile (1 x %d, spread to %d x %d)",
                     T->rows, T->rows, T->cols);
    return false;
  }
  int in_index = (int)(in - T->tiles);
  int64_t vec = T->vec;
  MlirType vt = mlirVectorTypeGet(1, &vec, ws_tile_element(result));
  ws_tile_regs *out = ws_tiles_new(T, result);
  for (int j = 0; j < T->chunks; j++) {
    MlirValue scalar = T->tiles[in_index].chunks[j];
    out->chunks[j] = j % T->row_q ? out->chunks[j - 1] : ws_tiles_splat(T, b, scalar, vt);
  }
  return true;
}

bool ws_tiles_row_vector_op(ws_tiles *T, ws_builder *b, MlirOperation op) {
  intptr_t n = mlirOperationGetNumOperands(op);
  int in_index[8];
  if (n > 8) {
    ws_emit_op_error(op, "has more than 8 operands; the compute partition takes at most 8");
    return false;
  }
  for (intptr_t k = 0; k < n; k++) {
    ws_tile_regs *t = ws_tiles_operand(T, b, mlirOperationGetOperand(op, k));
    if (!t)
      return false;
    in_index[k] = (int)(t - T->tiles);
  }
  MlirValue result = mlirOperationGetResult(op, 0);
  ws_tile_regs *out = ws_tiles_new(T, result);
  for (int j = 0; j < T->chunks; j++) {
    if (j % T->row_q) { /* the same row as chunk j - 1 */
      out->chunks[j] = out->chunks[j - 1];
      continue;
    }
    MlirOperation copy = ws_clone_before(b, op);
    for (intptr_t k = 0; k < n; k++)
      mlirOperationSetOperand(copy, k, T->tiles[in_index[k]].chunks[j]);
    mlirValueSetType(mlirOperationGetResult(copy, 0), ws_tile_element(result));
    out->chunks[j] = mlirOperationGetResult(copy, 0);
  }
  return true;
}

/* The coordinates of a row vector's element `row` (an i32) moved by ws.load
 * or ws.store `op`: the op's coordinates, row added to the innermost
 * (the M values are viewed as 1 x M). */
static void row_coords(ws_builder *b, MlirOperation op, int rank, MlirValue row,
                       MlirValue *coords) {
  for (int d = 0; d < rank; d++)
    coords[d] = mlirOperationGetOperand(op, 1 + d);
  coords[rank - 1] = ws_arith(b, "arith.addi", coords[rank - 1], row);
}

bool ws_tiles_store_rows(ws_tiles *T, ws_builder *b, MlirOperation op, MlirValue view) {
  int n = (int)mlirOperationGetNumOperands(op), rank = n - 2;
  MlirValue v = mlirOperationGetOperand(op, n - 1);
  ws_tile_regs *in = holds_row_vector(T, v) ? ws_tiles_operand(T, b, v) : NULL;
  if (!in || rank < 1 || rank > 5) {
    ws_emit_op_error(op,
                     "stores a tile that is not a row vector of the loop's %d x %d "
                     "tile; the compute warps store only row vectors themselves",
                     T->rows, T->cols);
    return false;
  }
  int in_index = (int)(in - T->tiles);
  MlirValue lead = ws_arith(b, "arith.remui", T->tid, ws_const_i32(b, T->row_threads));
  MlirValue first = ws_cmpi(b, "eq", lead, ws_const_i32(b, 0));
  for (int j = 0; j < T->chunks; j += T->row_q) {
    MlirValue row = row_of_chunk(T, b, j);
    MlirValue mine =
        ws_arith(b, "arith.andi", first, ws_cmpi(b, "ult", row, ws_const_i32(b, T->rows)));
    MlirBlock then_block;
    ws_build_if(b, mine, &then_block, NULL);
    ws_builder t = ws_builder_before(mlirBlockGetTerminator(then_block));
    MlirValue coords[5];
    row_coords(&t, op, rank, row, coords);
    ws_emit_element_store(&t, view, rank, coords, T->tiles[in_index].chunks[j]);
  }
  return true;
}

bool ws_tiles_load_rows(ws_tiles *T, ws_builder *b, MlirOperation op, MlirValue view) {
  int rank = (int)mlirOperationGetNumOperands(op) - 1;
  MlirValue result = mlirOperationGetResult(op, 0);
  MlirType e = ws_tile_element(result);
  if (!ws_tiles_is_row_vector(T, mlirValueGetType(result)) || rank < 1 || rank > 5 ||
      !(mlirTypeIsAF32(e) || mlirTypeIsAInteger(e))) {
    ws_emit_op_error(op,
                     "loads a tile that is not an f32 or integer row vector of the "
                     "loop's %d x %d tile; the compute warps load only those themselves",
                     T->rows, T->cols);
    return false;
  }
  MlirNamedAttribute f32_zero = ws_named_text(T->ctx, "value", "0.0 : f32");
  MlirValue zero = mlirTypeIsAF32(e) ? ws_build_value(b, "arith.constant", 0, NULL, e, 1, &f32_zero)
                                     : ws_const_int(b, 0, e);
  ws_tile_regs *out = ws_tiles_new(T, result);
  for (int j = 0; j < T->chunks; j++) {
    if (j % T->row_q) { /* the same row as chunk j - 1 */
      out->chunks[j] = out->chunks[j - 1];
      continue;
    }
    MlirValue row = row_of_chunk(T, b, j), coords[5];
    row_coords(b, op, rank, row, coords);
    out->chunks[j] = ws_emit_element_load(b, view, rank, coords, zero);
  }
  return true;
}

/* A loop's carried row vector travels as a struct of this thread's values
 * of it, one per row it holds (chunks / row_q of them). */
static MlirType row_struct(ws_tiles *T, MlirType tile) {
  return ws_struct_type(T->ctx, T->chunks / T->row_q, mlirShapedTypeGetElementType(tile));
}

static MlirValue pack_rows(ws_tiles *T, ws_builder *b, const ws_tile_regs *in, MlirType type) {
  MlirValue agg = ws_build_value(b, "llvm.mlir.undef", 0, NULL, type, 0, NULL);
  for (int j = 0; j < T->chunks; j += T->row_q)
    agg = ws_insert_value(b, agg, in->chunks[j], j / T->row_q);
  return agg;
}

static void unpack_rows(ws_tiles *T, ws_builder *b, MlirValue agg, MlirType element) {
  ws_tile_regs *out = ws_tiles_new(T, agg);
  for (int j = 0; j < T->chunks; j++)
    out->chunks[j] =
        j % T->row_q ? out->chunks[j - 1] : ws_extract_value(b, agg, j / T->row_q, element);
}

bool ws_tiles_carried_loop(ws_tiles *T, MlirOperation loop) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(loop, 0));
  ws_builder before = ws_builder_before(loop);
  ws_builder after = ws_builder_before(mlirOperationGetNextInBlock(loop));
  ws_builder start = ws_builder_before(mlirBlockGetFirstOperation(body));
  for (intptr_t i = 0; i < mlirOperationGetNumResults(loop); i++) {
    MlirValue result = mlirOperationGetResult(loop, i), arg = mlirBlockGetArgument(body, 1 + i);
    MlirType t = mlirValueGetType(result);
    if (!mlirTypeIsARankedTensor(t))
      continue;
    char buf[96];
    if (!ws_tiles_is_row_vector(T, t)) {
      ws_emit_op_error(loop,
                       "carries a %s tile, which is not a 1 x %d row vector of the row "
                       "kernel's tile",
                       ws_type_str(t, buf, sizeof buf), T->rows);
      return false;
    }
    ws_tile_regs *init = ws_tiles_operand(T, &before, mlirOperationGetOperand(loop, 3 + i));
    if (!init)
      return false;
    MlirType type = row_struct(T, t), e = mlirShapedTypeGetElementType(t);
    mlirOperationSetOperand(loop, 3 + i, pack_rows(T, &before, init, type));
    mlirValueSetType(arg, type);
    mlirValueSetType(result, type);
    unpack_rows(T, &start, arg, e);
    unpack_rows(T, &after, result, e);
  }
  return true;
}

bool ws_tiles_yield(ws_tiles *T, MlirOperation yield) {
  ws_builder b = ws_builder_before(yield);
  MlirOperation parent = mlirOperationGetParentOperation(yield);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(yield); i++) {
    MlirValue v = mlirOperationGetOperand(yield, i);
    if (!mlirTypeIsARankedTensor(mlirValueGetType(v)))
      continue;
    MlirType type = i < mlirOperationGetNumResults(parent)
                        ? mlirValueGetType(mlirOperationGetResult(parent, i))
                        : (MlirType){NULL};
    ws_tile_regs *in = ws_tiles_operand(T, &b, v);
    if (!in || mlirTypeIsNull(type) || !mlirTypeIsALLVMStructType(type)) {
      if (in)
        ws_emit_op_error(yield, "yields a tile the compute warps do not carry in registers");
      return false;
    }
    mlirOperationSetOperand(yield, i, pack_rows(T, &b, in, type));
  }
  return true;
}
