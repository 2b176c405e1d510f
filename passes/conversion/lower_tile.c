/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* lower_tile.c: the compute partition's tiles in registers, for
 * ws-lower-to-nvvm (ws_lower_tile.h says how they are laid out). Elementwise
 * ops become one vector op per chunk, ring slots are read and written a
 * chunk at a time, f8 tiles compute widened to f32 (ws_lower_f8.h). */
#include <stdio.h>
#include <stdlib.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "ws-c/Dialect.h"
#include "ws_lower_f8.h"
#include "ws_lower_tile.h"
#include "ws_register_pressure.h"
#include "../../dialect/ws_text.h"

bool ws_has_tile_result(MlirOperation op) {
  return mlirOperationGetNumResults(op) == 1 &&
         mlirTypeIsARankedTensor(mlirValueGetType(mlirOperationGetResult(op, 0)));
}

ws_tile_regs *ws_tiles_find(ws_tiles *T, MlirValue tile) {
  for (int t = 0; t < T->num_tiles; t++)
    if (mlirValueEqual(T->tiles[t].tile, tile))
      return &T->tiles[t];
  return NULL;
}

/* A new entry of the tile table (which only maps values to their chunks:
 * registers are LLVM's to allocate, and ws_tiles_check_pressure bounds
 * how many the live tiles need). */
ws_tile_regs *ws_tiles_new(ws_tiles *T, MlirValue tile) {
  T->tiles = ws_grow(T->tiles, &T->cap, T->num_tiles + 1, sizeof *T->tiles);
  ws_tile_regs *t = &T->tiles[T->num_tiles++];
  t->tile = tile;
  return t;
}

void ws_tiles_free(ws_tiles *T) {
  free(T->tiles);
  T->tiles = NULL;
  T->num_tiles = T->cap = 0;
}

/* A chunk of `tile` in registers (f8 widened to f32, see ws_lower_f8.h). */
static MlirType chunk_type(const ws_tiles *T, MlirType tile) {
  int64_t v = T->vec;
  return mlirVectorTypeGet(1, &v, ws_register_element(mlirShapedTypeGetElementType(tile)));
}

/* A chunk as it lies in a ring slot: f8 elements are bytes. */
static MlirType slot_chunk_type(const ws_tiles *T, MlirType tile) {
  MlirType e = mlirShapedTypeGetElementType(tile);
  int64_t v = T->vec;
  return mlirVectorTypeGet(1, &v, ws_is_f8(e) ? mlirIntegerTypeGet(T->ctx, 8) : e);
}

/* Chunk j may lie past the tile only when it is the last and the chunk
 * count does not divide evenly. */
static bool chunk_may_be_past(const ws_tiles *T, int j) {
  return j == T->chunks - 1 && T->total % T->threads != 0;
}

/* Byte offset of chunk j of this thread within a slot of `elem_bytes`. */
static MlirValue chunk_offset(ws_tiles *T, ws_builder *b, int j, int elem_bytes) {
  int piece = T->vec * elem_bytes;
  MlirValue mine = ws_arith(b, "arith.muli", T->tid, ws_const_i32(b, piece));
  return ws_arith(b, "arith.addi", mine, ws_const_i32(b, j * T->threads * piece));
}

static MlirNamedAttribute alignment_attr(ws_tiles *T, const ws_ring *ring) {
  int eb = wsElementTypeByteWidth(mlirShapedTypeGetElementType(ring->tile));
  char text[32];
  snprintf(text, sizeof text, "%d : i64", T->vec * eb);
  return ws_named_text(T->ctx, "alignment", text);
}

/* Byte offset of chunk j of this thread in a slot whose rows TMA filled
 * as several boxes side by side (ws_ring_box_cols): the slot holds box
 * after box, each rows x box_cols, so element (r, c) lies at ((c / w) *
 * rows + r) * w + c % w for boxes w wide (a chunk never straddles two:
 * vec divides w). */
static MlirValue boxed_chunk_offset(ws_tiles *T, ws_builder *b, const ws_ring *ring, int j,
                                    int elem_bytes, int rows) {
  MlirType t = ring->tile;
  int cols = (int)mlirShapedTypeGetDimSize(t, mlirShapedTypeGetRank(t) - 1);
  int w = ws_ring_box_cols(ring);
  MlirValue k = ws_arith(b, "arith.addi", T->tid, ws_const_i32(b, j * T->threads));
  MlirValue e = ws_arith(b, "arith.muli", k, ws_const_i32(b, T->vec));
  MlirValue r = ws_arith(b, "arith.divui", e, ws_const_i32(b, cols));
  MlirValue c = ws_arith(b, "arith.remui", e, ws_const_i32(b, cols));
  MlirValue box = ws_arith(b, "arith.divui", c, ws_const_i32(b, w));
  MlirValue within = ws_arith(b, "arith.remui", c, ws_const_i32(b, w));
  MlirValue row =
      ws_arith(b, "arith.addi", ws_arith(b, "arith.muli", box, ws_const_i32(b, rows)), r);
  MlirValue at =
      ws_arith(b, "arith.addi", ws_arith(b, "arith.muli", row, ws_const_i32(b, w)), within);
  return ws_arith(b, "arith.muli", at, ws_const_i32(b, elem_bytes));
}

static MlirValue chunk_ptr(ws_tiles *T, ws_builder *b, const ws_ring *ring, MlirValue slot, int j) {
  int eb = wsElementTypeByteWidth(mlirShapedTypeGetElementType(ring->tile));
  MlirValue base = ws_smem_slot_ptr(b, T->smem, ring->offset, slot, ring->slot_bytes);
  int rows = ws_tile_bytes(ring->tile) / eb /
             (int)mlirShapedTypeGetDimSize(ring->tile, mlirShapedTypeGetRank(ring->tile) - 1);
  MlirValue offset = ws_ring_boxes(ring) > 1 && rows > 1 /* else box-major is row-major */
                         ? boxed_chunk_offset(T, b, ring, j, eb, rows)
                         : chunk_offset(T, b, j, eb);
  if (chunk_may_be_past(T, j)) /* read chunk 0 instead: in the slot, unused */
    offset =
        ws_build_value(b, "arith.select", 3,
                       (MlirValue[]){T->last_valid, offset, ws_const_i32(b, 0)}, T->i32, 0, NULL);
  return ws_byte_ptr(b, base, offset);
}

static MlirValue load_chunk(ws_tiles *T, ws_builder *b, const ws_ring *ring, MlirValue ptr) {
  MlirNamedAttribute align = alignment_attr(T, ring);
  MlirValue v = ws_build_value(b, "llvm.load", 1, &ptr, slot_chunk_type(T, ring->tile), 1, &align);
  MlirType e = mlirShapedTypeGetElementType(ring->tile);
  return ws_is_f8(e) ? ws_f8_widen(b, v, e) : v;
}

static void store_chunk(ws_tiles *T, ws_builder *b, const ws_ring *ring, MlirValue ptr, MlirValue v,
                        int j) {
  MlirType e = mlirShapedTypeGetElementType(ring->tile);
  ws_builder at = *b;
  if (chunk_may_be_past(T, j)) {
    MlirBlock then_block;
    ws_build_if(b, T->last_valid, &then_block, NULL);
    at = ws_builder_before(mlirBlockGetTerminator(then_block));
  }
  if (ws_is_f8(e))
    v = ws_f8_narrow(&at, v, e);
  MlirNamedAttribute align = alignment_attr(T, ring);
  MlirValue ops[2] = {v, ptr};
  ws_build_void(&at, "llvm.store", 2, ops, 1, &align);
}

MlirValue ws_tiles_splat(ws_tiles *T, ws_builder *b, MlirValue scalar, MlirType vt) {
  MlirValue v = ws_build_value(b, "llvm.mlir.poison", 0, NULL, vt, 0, NULL);
  for (int lane = 0; lane < T->vec; lane++) {
    MlirValue ops[3] = {v, scalar, ws_const_i32(b, lane)};
    v = ws_build_value(b, "llvm.insertelement", 3, ops, vt, 0, NULL);
  }
  return v;
}

/* A tensor.splat of a scalar as one chunk vector: the scalar inserted into
 * every lane. NULL after a located error. */
static MlirValue broadcast_scalar(ws_tiles *T, ws_builder *b, MlirOperation def, MlirType vt) {
  MlirValue scalar = mlirOperationGetOperand(def, 0);
  MlirType e = mlirShapedTypeGetElementType(mlirValueGetType(mlirOperationGetResult(def, 0)));
  if (ws_is_f8(e)) {
    ws_emit_op_error(def, "splats a scalar into an f8 tile, which the compute partition "
                          "holds widened to f32; splat an f32 scalar and arith.truncf the tile");
    return (MlirValue){NULL};
  }
  return ws_tiles_splat(T, b, scalar, vt);
}

/* A splat tile (ws_is_splat_tile) becomes one vector shared by all chunks
 * (an f8 splat constant becomes the f32 vector of its value); NULL for
 * anything else. */
static ws_tile_regs *materialize_splat(ws_tiles *T, ws_builder *b, MlirValue tile) {
  if (!mlirValueIsAOpResult(tile))
    return NULL;
  MlirOperation def = mlirOpResultGetOwner(tile);
  if (!ws_is_splat_tile(def)) {
    ws_emit_op_error(def, "is a tile the compute partition cannot rebuild; "
                          "only splats can be");
    return NULL;
  }
  bool row = ws_tiles_is_row_vector(T, mlirValueGetType(tile));
  MlirType vt = row ? ws_tile_element(tile) : chunk_type(T, mlirValueGetType(tile));
  MlirValue v;
  if (row && ws_op_is(def, "tensor.splat")) {
    v = mlirOperationGetOperand(def, 0); /* a row vector's chunks are scalars */
  } else if (ws_op_is(def, "tensor.splat")) {
    v = broadcast_scalar(T, b, def, vt);
    if (mlirValueIsNull(v))
      return NULL;
  } else {
    MlirAttribute value =
        mlirOperationGetInherentAttributeByName(def, mlirStringRefCreateFromCString("value"));
    MlirAttribute element = mlirDenseElementsAttrGetSplatValue(value);
    if (ws_is_f8(mlirShapedTypeGetElementType(mlirValueGetType(tile))))
      element = mlirFloatAttrDoubleGet(T->ctx, mlirF32TypeGet(T->ctx),
                                       mlirFloatAttrGetValueDouble(element));
    MlirNamedAttribute attr =
        ws_named(T->ctx, "value", row ? element : mlirDenseElementsAttrSplatGet(vt, element));
    v = ws_build_value(b, "arith.constant", 0, NULL, vt, 1, &attr);
  }
  ws_tile_regs *t = ws_tiles_new(T, tile);
  for (int j = 0; j < T->chunks; j++)
    t->chunks[j] = v;
  return t;
}

MlirType ws_tile_element(MlirValue v) { return mlirShapedTypeGetElementType(mlirValueGetType(v)); }

/* extf/truncf with an f8 side: the f8 side is f32 in registers, so the op
 * becomes a plain f32 conversion (exact) and, into f8, a rounding. Returns
 * the result chunk, or a null value when `op` is no such conversion. */
static MlirValue convert_f8_chunk(ws_tiles *T, ws_builder *b, MlirOperation op, MlirValue chunk) {
  MlirType from = ws_tile_element(mlirOperationGetOperand(op, 0));
  MlirType to = ws_tile_element(mlirOperationGetResult(op, 0));
  bool ext = ws_op_is(op, "arith.extf"), trunc = ws_op_is(op, "arith.truncf");
  if (!(ext || trunc) || !(ws_is_f8(from) || ws_is_f8(to)))
    return (MlirValue){NULL};
  MlirType f32 = mlirF32TypeGet(T->ctx);
  int64_t v = T->vec;
  if (ws_is_f8(from)) /* extf f8 -> f16, bf16 or f32 */
    return ws_f8_extend(b, chunk, to);
  if (!mlirTypeIsAF32(from)) /* truncf f16 or bf16 -> f8 */
    chunk = ws_build_value(b, "arith.extf", 1, &chunk, mlirVectorTypeGet(1, &v, f32), 0, NULL);
  return ws_f8_round(b, chunk, to);
}

/* Ops that would mean something else on the f32 form of an f8 tile. */
static bool rejects_f8(MlirOperation op) {
  bool f8 = ws_is_f8(ws_tile_element(mlirOperationGetResult(op, 0)));
  for (intptr_t k = 0; k < mlirOperationGetNumOperands(op); k++)
    f8 |= ws_is_f8(ws_tile_element(mlirOperationGetOperand(op, k)));
  if (!f8 || !ws_op_is(op, "arith.bitcast"))
    return false;
  ws_emit_op_error(op, "reinterprets the bits of an f8 tile, which the "
                       "compute partition holds widened to f32; use "
                       "arith.extf/arith.truncf");
  return true;
}

/* Clones an elementwise op once per chunk, on vectors; a splat constant
 * becomes one vector for all chunks; an op with an f8 result computes in
 * f32 and is rounded to the format. */
bool ws_tiles_vectorize(ws_tiles *T, ws_builder *b, MlirOperation op) {
  MlirValue result = mlirOperationGetResult(op, 0);
  if (ws_op_is(op, "arith.constant") || ws_op_is(op, "tensor.splat"))
    return materialize_splat(T, b, result) != NULL; /* a located error if no splat */
  if (ws_tiles_is_row_vector(T, mlirValueGetType(result)))
    return ws_tiles_row_vector_op(T, b, op);
  intptr_t n = mlirOperationGetNumOperands(op);
  int in_index[8]; /* entries, not pointers: the table grows */
  if (n > 8) {
    ws_emit_op_error(op, "has more than 8 operands; the compute partition "
                         "takes at most 8");
    return false;
  }
  if (rejects_f8(op))
    return false;
  for (intptr_t k = 0; k < n; k++) {
    MlirValue v = mlirOperationGetOperand(op, k);
    ws_tile_regs *t = ws_tiles_find(T, v);
    if (!t)
      t = materialize_splat(T, b, v);
    if (!t)
      return false;
    in_index[k] = (int)(t - T->tiles);
  }
  ws_tile_regs *out = ws_tiles_new(T, result), *in[8];
  for (intptr_t k = 0; k < n; k++)
    in[k] = &T->tiles[in_index[k]];
  MlirType rt = ws_tile_element(result);
  /* a row of values per column: chunk j holds chunk j % row_q's columns */
  int distinct = ws_tiles_is_col_vector(T, mlirValueGetType(result)) ? T->row_q : T->chunks;
  for (int j = 0; j < T->chunks; j++) {
    if (j >= distinct) {
      out->chunks[j] = out->chunks[j % distinct];
      continue;
    }
    MlirValue converted = convert_f8_chunk(T, b, op, in[0]->chunks[j]);
    if (!mlirValueIsNull(converted)) {
      out->chunks[j] = converted;
      continue;
    }
    MlirOperation copy = ws_clone_before(b, op);
    for (intptr_t k = 0; k < n; k++)
      mlirOperationSetOperand(copy, k, in[k]->chunks[j]);
    mlirValueSetType(mlirOperationGetResult(copy, 0), chunk_type(T, mlirValueGetType(result)));
    out->chunks[j] = mlirOperationGetResult(copy, 0);
    if (ws_is_f8(rt))
      out->chunks[j] = ws_f8_round(b, out->chunks[j], rt);
  }
  return true;
}

/* V and the chunk count for the compute tiles: 16-byte pieces of the widest
 * element where the tile allows. Splats take whatever layout their users
 * have, so they are left out. */
bool ws_tiles_layout(ws_tiles *T, int threads, const MlirOperation *ops, size_t n,
                     int scratch_bytes) {
  T->threads = threads;
  ws_tiles_find_rows(T, ops, n);
  int widest = 1;
  long numel = 0;
  MlirOperation first = {NULL};
  for (size_t i = 0; i < n; i++) {
    MlirOperation op = ops[i];
    if (!ws_has_tile_result(op) || ws_is_splat_tile(op))
      continue;
    MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
    int eb = wsElementTypeByteWidth(mlirShapedTypeGetElementType(t));
    if (eb == 0)
      eb = 4; /* i1 masks and other internal element types */
    if (ws_tiles_is_row_vector(T, t))
      continue;                         /* one scalar per chunk, in the tile's layout */
    if (ws_tiles_is_col_vector(T, t)) { /* the columns of the tile's chunks */
      widest = eb > widest ? eb : widest;
      continue;
    }
    long n = 1;
    for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); d++)
      n *= mlirShapedTypeGetDimSize(t, d);
    if (numel && n != numel) {
      ws_emit_op_error(op,
                       "tile of %ld elements differs from the other compute "
                       "tiles (%ld); compute tiles must all have one size",
                       n, numel);
      return false;
    }
    if (!numel)
      first = op;
    numel = n;
    if (eb > widest)
      widest = eb;
  }
  if (numel == 0)
    return true;
  T->vec = 16 / widest;
  while (T->vec > 1 && (numel % T->vec || (T->rows && T->cols % T->vec)))
    T->vec /= 2; /* a row kernel's chunk stays within a row */
  T->total = (int)(numel / T->vec);
  T->chunks = (T->total + T->threads - 1) / T->threads;
  if (T->chunks > WS_MAX_CHUNKS) {
    ws_emit_op_error(first,
                     "compute tiles of %ld elements need %d chunks per "
                     "thread; at most %d are supported",
                     numel, T->chunks, WS_MAX_CHUNKS);
    return false;
  }
  return ws_tiles_check_rows(T, ops, n, scratch_bytes);
}

ws_tile_regs *ws_tiles_operand(ws_tiles *T, ws_builder *b, MlirValue tile) {
  ws_tile_regs *t = ws_tiles_find(T, tile);
  return t ? t : materialize_splat(T, b, tile);
}

/* ws.read_slot of ring r: this thread's chunks of the slot into registers. */
bool ws_tiles_read_slot(ws_tiles *T, ws_builder *b, MlirOperation op, const ws_ring *ring, int r) {
  if (!mlirTypeEqual(ring->tile, mlirValueGetType(mlirOperationGetResult(op, 0)))) {
    ws_emit_op_error(op, "reads a tile of another type than ring %d holds", r);
    return false;
  }
  if (ring->swizzle) {
    ws_emit_op_error(op,
                     "reads ring %d, which is swizzled for wgmma; registers read "
                     "row-major rings only",
                     r);
    return false;
  }
  ws_tile_regs *t = ws_tiles_new(T, mlirOperationGetResult(op, 0));
  MlirValue slot = mlirOperationGetOperand(op, 0);
  if (ws_tiles_is_col_vector(T, ring->tile)) { /* a weight: each chunk's columns */
    int eb = wsElementTypeByteWidth(mlirShapedTypeGetElementType(ring->tile));
    MlirValue base = ws_smem_slot_ptr(b, T->smem, ring->offset, slot, ring->slot_bytes);
    for (int j = 0; j < T->chunks; j++)
      t->chunks[j] =
          j >= T->row_q
              ? t->chunks[j % T->row_q]
              : load_chunk(T, b, ring, ws_byte_ptr(b, base, ws_tiles_col_offset(T, b, j, eb)));
    return true;
  }
  for (int j = 0; j < T->chunks; j++)
    t->chunks[j] = load_chunk(T, b, ring, chunk_ptr(T, b, ring, slot, j));
  return true;
}

/* ws.write_slot of ring r from a tile in registers: this thread's chunks. */
bool ws_tiles_write_slot(ws_tiles *T, ws_builder *b, MlirOperation op, const ws_ring *ring, int r) {
  MlirValue tile = mlirOperationGetOperand(op, 0);
  if (ws_tiles_is_row_vector(T, mlirValueGetType(tile)) ||
      ws_tiles_is_col_vector(T, mlirValueGetType(tile))) {
    ws_emit_op_error(op, "hands a 1 x N row (a row vector or a row of values per column) "
                         "to another partition; the compute warps store row vectors "
                         "themselves, and a row per column only spreads over the rows "
                         "(ws.broadcast, axis = 1)");
    return false;
  }
  if (ring->swizzle) {
    ws_emit_op_error(op,
                     "writes ring %d, which is swizzled, from a tile that is not "
                     "a wgmma fragment; only fragments are written swizzled",
                     r);
    return false;
  }
  ws_tile_regs *t = ws_tiles_find(T, tile);
  if (!t)
    t = materialize_splat(T, b, tile);
  if (!t)
    return false;
  if (!mlirTypeEqual(ring->tile, mlirValueGetType(tile))) {
    ws_emit_op_error(op, "writes a tile of another type than ring %d holds", r);
    return false;
  }
  MlirValue slot = mlirOperationGetOperand(op, 1);
  for (int j = 0; j < T->chunks; j++)
    store_chunk(T, b, ring, chunk_ptr(T, b, ring, slot, j), t->chunks[j], j);
  return true;
}

/* At the kernel's entry: whether this thread's last chunk lies inside the
 * tile (when the chunks do not divide evenly among the threads). */
void ws_tiles_entry(ws_tiles *T, ws_builder *b) {
  if (T->chunks && chunk_may_be_past(T, T->chunks - 1)) {
    MlirValue last =
        ws_arith(b, "arith.addi", T->tid, ws_const_i32(b, (T->chunks - 1) * T->threads));
    T->last_valid = ws_cmpi(b, "ult", last, ws_const_i32(b, T->total));
  }
}

/* Registers per thread a tile of element type `e` takes in the layout (f8
 * is held widened to f32). */
static int tile_registers(const ws_tiles *T, MlirType e) {
  int bytes = ws_is_f8(e) ? 4 : wsElementTypeByteWidth(e);
  return (T->chunks * T->vec * bytes + 3) / 4;
}

static int registers_of_tile(MlirValue tile, const void *ctx) {
  const ws_tiles *T = ctx;
  if (mlirValueIsAOpResult(tile) && wsOperationIsA(mlirOpResultGetOwner(tile), "broadcast") &&
      ws_int_attr(mlirOpResultGetOwner(tile), "axis", 0) == 1)
    return 0; /* the spread row's own chunks, counted where that row lives */
  if (ws_tiles_is_row_vector(T, mlirValueGetType(tile)))
    return T->chunks / T->row_q;                         /* a scalar per row this thread holds */
  if (ws_tiles_is_col_vector(T, mlirValueGetType(tile))) /* row_q chunks */
    return (T->row_q * T->vec * wsElementTypeByteWidth(ws_tile_element(tile)) + 3) / 4;
  return tile_registers(ctx, ws_tile_element(tile));
}

void ws_tiles_explain_pressure(const ws_tiles *T, const MlirOperation *ops, size_t n, int registers,
                               const ws_pass_env *env) {
  ws_register_pressure p = {.registers_of = registers_of_tile,
                            .ctx = T,
                            .who = "the compute partition's tiles",
                            .budget = registers};
  ws_explain_register_pressure(&p, ops, n, env);
}

bool ws_tiles_iota(ws_tiles *T, ws_builder *b, MlirOperation op) {
  MlirValue result = mlirOperationGetResult(op, 0);
  MlirType type = mlirValueGetType(result);
  if (ws_tiles_is_row_vector(T, type) || ws_tiles_is_col_vector(T, type)) {
    ws_emit_op_error(op,
                     "makes a 1 x N row in a row kernel; ws.iota makes tiles "
                     "of the rows (%d x %d)",
                     T->rows, T->cols);
    return false;
  }
  int axis = ws_int_attr(op, "axis", 0);
  int64_t cols = mlirShapedTypeGetDimSize(type, mlirShapedTypeGetRank(type) - 1);
  int64_t v = T->vec;
  MlirType vt = mlirVectorTypeGet(1, &v, mlirIntegerTypeGet(T->ctx, 32));
  /* lane offsets 0..vec-1 and the row length, as vectors */
  char text[512];
  ws_text t;
  ws_text_init(&t, text, sizeof text);
  ws_text_appendf(&t, "dense<[");
  for (int k = 0; k < T->vec; k++)
    ws_text_appendf(&t, "%s%d", k ? ", " : "", k);
  ws_text_appendf(&t, "]> : vector<%dxi32>", T->vec);
  MlirNamedAttribute lanes_attr = ws_named_text(T->ctx, "value", text);
  MlirValue lanes = ws_build_value(b, "arith.constant", 0, NULL, vt, 1, &lanes_attr);
  char splat[96];
  snprintf(splat, sizeof splat, "dense<%lld> : vector<%dxi32>", (long long)cols, T->vec);
  MlirNamedAttribute cols_attr = ws_named_text(T->ctx, "value", splat);
  MlirValue row_len = ws_build_value(b, "arith.constant", 0, NULL, vt, 1, &cols_attr);
  ws_tile_regs *out = ws_tiles_new(T, result);
  for (int j = 0; j < T->chunks; j++) {
    /* the chunk's first element: (j * threads + tid) * vec */
    MlirValue first = ws_arith(b, "arith.muli",
                               ws_arith(b, "arith.addi", T->tid, ws_const_i32(b, j * T->threads)),
                               ws_const_i32(b, T->vec));
    MlirValue at = ws_arith(b, "arith.addi", ws_tiles_splat(T, b, first, vt), lanes);
    out->chunks[j] = ws_arith(b, axis ? "arith.remui" : "arith.divui", at, row_len);
  }
  return true;
}
