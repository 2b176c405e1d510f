/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* lower_slots.c: ws.read_slot and ws.write_slot, by what a slot holds (a consumer
 * fragment, a row vector, elements), and the row, iota, mma_done, split-K
 * and stream-K ops the compute partition reads them with: part of
 * ws-lower-to-nvvm (lower_to_nvvm.c). */
#include "lower_to_nvvm_internal.h"

/* ws.write_slot of a consumer tile: each thread writes its fragment,
 * row-major; of a ring in parts, the columns of part `part`. */
static void write_fragment(lowering *L, ws_builder *b, const ws_ring *ring, MlirValue slot,
                           const ws_fragment *f, int part) {
  MlirValue tile = lower_slot_ptr(L, b, ring->offset, slot, ring->slot_bytes);
  ws_mma_shape s = ws_fragments_shape(&L->frags, f->n);
  int part_cols = ring->parts > 1 ? (int)mlirShapedTypeGetDimSize(ring->tile, 1) : 0;
  ws_emit_fragment_store(b, &s, lower_mma_thread(L, b), tile, f->values,
                         mlirShapedTypeGetElementType(ring->tile), ring->swizzle, part, part_cols);
}

/* The byte offset in a 1 x M slot of a row vector's value `value` of this
 * thread (ws_lower_fragment.h: value 2 p + h is row 64 p + 16 w + l / 4 +
 * 8 h, row0 the thread's first row), of `eb`-byte elements. */
static MlirValue row_vector_offset(ws_builder *b, const ws_mma_shape *s, MlirValue row0, int value,
                                   int eb) {
  int p = value / 2, h = value % 2;
  MlirValue row = ws_arith(b, "arith.addi", row0, lower_c32(b, p * s->part_rows + 8 * h));
  return ws_arith(b, "arith.muli", row, lower_c32(b, eb));
}

/* ws.write_slot of a 1 x M row vector the consumers computed (attention's
 * log-sum-exp, for the store warp): the four threads of a row's quad hold
 * its value alike, so the first of them writes it, at the row's place in
 * the slot. False after a located error. */
static bool write_row_vector(lowering *L, ws_builder *b, MlirOperation op, const ws_ring *ring,
                             const ws_fragment *f) {
  MlirType e = mlirShapedTypeGetElementType(ring->tile);
  if (ws_is_f8(e) || f->f8.ptr) {
    ws_emit_op_error(op,
                     "writes a 1 x %d row vector of FP8 for the store warp; a row vector "
                     "the consumers store is f32, f16 or bf16",
                     ws_shape_m(&L->frags.layout));
    return false;
  }
  MlirValue slot =
      lower_slot_ptr(L, b, ring->offset, mlirOperationGetOperand(op, 1), ring->slot_bytes);
  ws_mma_shape s = ws_fragments_shape(&L->frags, 8);
  MlirValue thread = lower_mma_thread(L, b), row0, col0;
  ws_fragment_origin(b, &s, thread, &row0, &col0);
  MlirValue lane_in_quad = ws_arith(b, "arith.andi", thread, lower_c32(b, 3));
  MlirBlock then_block;
  ws_build_if(b, ws_cmpi(b, "eq", lane_in_quad, lower_c32(b, 0)), &then_block, NULL);
  ws_builder first = ws_builder_before(mlirBlockGetTerminator(then_block));
  int eb = wsElementTypeByteWidth(e);
  for (int v = 0; v < 2 * s.parts; v++) {
    MlirValue ops[2] = {f->values[v],
                        ws_byte_ptr(&first, slot, row_vector_offset(&first, &s, row0, v, eb))};
    ws_build_void(&first, "llvm.store", 2, ops, 0, NULL);
  }
  return true;
}

/* The only user of `v` when it is a ws.broadcast, else a null op. */
static MlirOperation broadcast_user(MlirValue v) {
  MlirOpOperand u = mlirValueGetFirstUse(v);
  if (mlirOpOperandIsNull(u) || !mlirOpOperandIsNull(mlirOpOperandGetNextUse(u)))
    return (MlirOperation){NULL};
  MlirOperation user = mlirOpOperandGetOwner(u);
  return wsOperationIsA(user, "broadcast") ? user : (MlirOperation){NULL};
}

/* True when every use of a tile is a tensor.extract (a block's scale read
 * as one scalar). */
static bool read_by_extracts_only(MlirValue tile) {
  MlirOpOperand u = mlirValueGetFirstUse(tile);
  if (mlirOpOperandIsNull(u))
    return false;
  for (; !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
    if (!ws_op_is(mlirOpOperandGetOwner(u), "tensor.extract"))
      return false;
  return true;
}

/* A 1 x M tile the consumers compute with (not only spread by one
 * ws.broadcast): the 1 x M row vector of its values, each thread those of
 * its rows (ws_lower_fragment.h), read from the slot. */
static bool read_row_vector(lowering *L, ws_builder *b, MlirOperation op, const ws_ring *ring) {
  MlirValue tile = mlirOperationGetResult(op, 0);
  ws_fragment *f = ws_fragment_new(&L->frags, tile);
  MlirType e = mlirShapedTypeGetElementType(ring->tile);
  if (!f || f->n || ws_is_f8(e)) {
    ws_emit_op_error(op,
                     "reads a 1 x %lld tile the consumers compute with; that takes a "
                     "1 x %d row vector (one value per row of the ws.dot) of f32, f16 or "
                     "bf16",
                     (long long)mlirShapedTypeGetDimSize(ring->tile, 1),
                     ws_shape_m(&L->frags.layout));
    return false;
  }
  MlirValue slot =
      lower_slot_ptr(L, b, ring->offset, mlirOperationGetOperand(op, 0), ring->slot_bytes);
  ws_mma_shape s = ws_fragments_shape(&L->frags, 8);
  MlirValue row0, col0;
  ws_fragment_origin(b, &s, lower_mma_thread(L, b), &row0, &col0);
  int eb = wsElementTypeByteWidth(e);
  for (int v = 0; v < 2 * s.parts; v++)
    f->values[v] = ws_load_at(b, slot, row_vector_offset(b, &s, row0, v, eb), e, eb);
  return true;
}

/* The elements a read tile's tensor.extract users take (a block's scale),
 * each loaded by every thread where the ring's layout puts it, here, while
 * the slot is held; the extracts become those values. Their indices are
 * constants (ws-partition-schedule checks). */
bool lower_read_elements(lowering *L, ws_builder *b, MlirOperation op, const ws_ring *ring) {
  MlirType e = mlirShapedTypeGetElementType(ring->tile);
  if (ws_is_f8(e) || mlirShapedTypeGetRank(ring->tile) != 2) {
    ws_emit_op_error(op, "reads a tile whose elements the consumers cannot extract: a 2-D "
                         "tile of f32, f16, bf16, i8 or i32");
    return false;
  }
  int eb = wsElementTypeByteWidth(e);
  MlirValue slot =
      lower_slot_ptr(L, b, ring->offset, mlirOperationGetOperand(op, 0), ring->slot_bytes);
  for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, 0));
       !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirOperation extract = mlirOpOperandGetOwner(u);
    MlirValue idx[2];
    for (int d = 0; d < 2; d++) {
      MlirOperation def = mlirOpResultGetOwner(mlirOperationGetOperand(extract, 1 + d));
      MlirAttribute v =
          mlirOperationGetAttributeByName(def, mlirStringRefCreateFromCString("value"));
      idx[d] = lower_c32(b, mlirIntegerAttrGetValueInt(v));
    }
    MlirValue offset =
        ws_slot_offset(b, idx[0], idx[1], (int)mlirShapedTypeGetDimSize(ring->tile, 0),
                       (int)mlirShapedTypeGetDimSize(ring->tile, 1), eb, ring->swizzle);
    MlirValue value = ws_load_at(b, slot, offset, e, eb);
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(extract, 0), value);
  }
  return true;
}

/* ws.read_slot in the consumer warpgroups (an epilogue operand, or a tile
 * the K loop computes with: an A for wgmma's register form, a block's
 * scales): each thread loads the values its fragment meets, as a fragment
 * of the tile (a residual M x N, an A M x K) or, for a 1 x K row read only
 * by a ws.broadcast, of the broadcast (which then has nothing left to do).
 * The loads happen here, before the slot is released. */
static bool read_fragment(lowering *L, ws_builder *b, MlirOperation op, const ws_ring *ring) {
  MlirValue tile = mlirOperationGetResult(op, 0);
  if (read_by_extracts_only(tile))
    return lower_read_elements(L, b, op, ring);
  MlirOperation bcast = broadcast_user(tile);
  int64_t rows = mlirShapedTypeGetDimSize(ring->tile, 0);
  if (mlirOperationIsNull(bcast) && rows == 1)
    return read_row_vector(L, b, op, ring);
  int64_t cols = mlirShapedTypeGetDimSize(ring->tile, 1);
  int m = ws_shape_m(&L->frags.layout);
  ws_fragment_source source = WS_FRAGMENT_FROM_TILE;
  if (!mlirOperationIsNull(bcast) && rows == 1)
    source = ws_int_attr(bcast, "axis", 1) ? WS_FRAGMENT_FROM_ROW_VECTOR
                                           : WS_FRAGMENT_FROM_COLUMN_VECTOR;
  MlirValue into = source == WS_FRAGMENT_FROM_TILE ? tile : mlirOperationGetResult(bcast, 0);
  ws_fragment *f = ws_fragment_new(&L->frags, into);
  bool fits = f && f->n &&
              (source == WS_FRAGMENT_FROM_TILE         ? rows == m && cols == f->n
               : source == WS_FRAGMENT_FROM_ROW_VECTOR ? cols == f->n
                                                       : cols == m);
  if (!fits) {
    ws_emit_op_error(op,
                     "reads a tile that is neither %d rows by the consumers' fragment "
                     "columns nor a 1 x K row a ws.broadcast spreads over one",
                     m);
    return false;
  }
  MlirValue slot =
      lower_slot_ptr(L, b, ring->offset, mlirOperationGetOperand(op, 0), ring->slot_bytes);
  ws_mma_shape s = ws_fragments_shape(&L->frags, f->n);
  ws_emit_fragment_load(b, &s, lower_mma_thread(L, b), slot,
                        mlirShapedTypeGetElementType(ring->tile), ring->swizzle, source, f->values);
  return true;
}

/* ws.read_slot: a matmul epilogue operand as fragments (read_fragment), or
 * this thread's chunks of the slot into registers. */
bool lower_read_slot(lowering *L, ws_builder *b, MlirOperation op) {
  int r = lower_ring_of(L, op);
  if (r < 0)
    return false;
  if (L->matmul)
    return read_fragment(L, b, op, &L->plan.rings[r]);
  return ws_tiles_read_slot(&L->tiles, b, op, &L->plan.rings[r], r);
}

/* ws.iota: each element's row or column, in the consumers' fragment
 * layout or the compute partition's chunks. */
bool lower_iota(lowering *L, ws_builder *b, MlirOperation op) {
  if (L->matmul)
    return ws_fragments_iota(&L->frags, b, op, lower_mma_thread(L, b));
  return ws_tiles_iota(&L->tiles, b, op);
}

/* ws.broadcast and ws.reduce: on the consumers' fragments, or on the rows
 * of an elementwise loop's tile (a row kernel). */
bool lower_row_op(lowering *L, ws_builder *b, MlirOperation op) {
  bool reduce = wsOperationIsA(op, "reduce");
  if (!L->matmul)
    return reduce ? ws_tiles_reduce(&L->tiles, b, op) : ws_tiles_broadcast(&L->tiles, b, op);
  return reduce ? ws_fragments_reduce(&L->frags, b, op) : ws_fragments_broadcast(&L->frags, b, op);
}

/* ws.load or ws.store left in an elementwise loop's compute partition (or
 * before or after its loop): a row kernel's row vector, read or written
 * element by element (ws_row_kernel.h). */
bool lower_row_vector_access(lowering *L, ws_builder *b, MlirOperation op) {
  bool load = wsOperationIsA(op, "load");
  if (L->matmul) {
    ws_emit_op_error(op,
                     "is a ws.%s the %s warp does not issue, in a matmul; only a row "
                     "kernel's compute warps move tiles themselves (row vectors)",
                     load ? "load" : "store", load ? "load" : "store");
    return false;
  }
  MlirValue view = lower_store_view_of(L, op);
  return !mlirValueIsNull(view) && (load ? ws_tiles_load_rows(&L->tiles, b, op, view)
                                         : ws_tiles_store_rows(&L->tiles, b, op, view));
}

/* ws.mma_done: the product's values, each pinned after the wgmma wait
 * before it, so that no math on them moves above the wait. */
bool lower_mma_done(lowering *L, ws_builder *b, MlirOperation op) {
  ws_fragment *out = ws_fragment_new(&L->frags, mlirOperationGetResult(op, 0));
  const ws_fragment *in = ws_fragment_find(&L->frags, mlirOperationGetOperand(op, 0));
  if (!in || !out || in->count != out->count) {
    ws_emit_op_error(op, "reads a tile that is not a product the consumers hold");
    return false;
  }
  for (int i = 0; i < in->count; i++)
    out->values[i] = ws_pin_register(b, in->values[i]);
  return true;
}

/* ws.split_k_sum and ws.stream_k_sum: the consumers' accumulator plus
 * the other blocks' partial sums (the tile's owner) or as it is
 * (ws_lower_split_k.h). Each consumer warpgroup meets at named barrier 2
 * + its index: barrier 0 is the block's and 1 the consumers' epilogue
 * barrier. */
bool lower_k_sum(lowering *L, ws_builder *b, MlirOperation op) {
  const ws_fragment *in = ws_fragment_find(&L->frags, mlirOperationGetOperand(op, 0));
  ws_fragment *out = ws_fragment_new(&L->frags, mlirOperationGetResult(op, 0));
  if (!in || !out || in->count != out->count || in->count % 4 || !in->n) {
    ws_emit_op_error(op, "sums a tile that is not the consumers' accumulator");
    return false;
  }
  int holders = L->frags.layout.warpgroups * 128;
  long long slot_bytes = ws_int_attr(L->old_func, "ws.workspace_per_block", 0);
  if (slot_bytes < (long long)in->count * holders * 4 + 4 * L->frags.layout.warpgroups) {
    ws_emit_op_error(op,
                     "needs the kernel's ws.workspace_per_block (set by ws-split-k) to "
                     "hold its %d x %d f32 values and a flag per warpgroup; it is %lld",
                     in->count, holders, slot_bytes);
    return false;
  }
  ws_split_k_site s = {
      .workspace = mlirOperationGetOperand(op, 1),
      .holder = lower_mma_thread(L, b),
      .barrier =
          ws_arith(b, "arith.addi", ws_arith(b, "arith.divui", L->tiles.tid, lower_c32(b, 128)),
                   lower_c32(b, 2)),
      .holders = holders,
      .count = in->count,
      .slot_bytes = slot_bytes,
  };
  MlirValue x = mlirOperationGetOperand(op, 2), y = mlirOperationGetOperand(op, 3);
  if (wsOperationIsA(op, "stream_k_sum"))
    ws_emit_stream_k_sum(b, &s, x, y, mlirOperationGetOperand(op, 4), in->values, out->values);
  else
    ws_emit_split_k_sum(b, &s, x, y, in->values, out->values);
  return true;
}

/* ws.stream_k_unit: its arithmetic, in every partition that computes it. */
bool lower_stream_k_unit(lowering *L, ws_builder *b, MlirOperation op) {
  (void)L;
  MlirValue in[5], out[4];
  for (int i = 0; i < 5; i++)
    in[i] = mlirOperationGetOperand(op, i);
  ws_emit_stream_k_unit(b, in, out);
  for (int i = 0; i < 4; i++)
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, i), out[i]);
  return true;
}

/* ws.write_slot: a wgmma fragment, a row vector of the consumers, or this
 * thread's chunks of a tile. */
bool lower_write_slot(lowering *L, ws_builder *b, MlirOperation op) {
  int r = lower_ring_of(L, op);
  if (r < 0)
    return false;
  const ws_ring *ring = &L->plan.rings[r];
  MlirValue tile = mlirOperationGetOperand(op, 0);
  const ws_fragment *f = L->matmul ? ws_fragment_find(&L->frags, tile) : NULL;
  if (f && f->n && ring->parts > 1) {
    int part = lower_int_attr(op, "part");
    if (part < 0 || part >= ring->parts || ws_fragments_shape(&L->frags, f->n).col_groups != 1 ||
        !mlirTypeEqual(ws_tile_column_part(mlirValueGetType(tile), ring->parts), ring->tile)) {
      ws_emit_op_error(op,
                       "writes part %d into ring %d, which holds parts 0 to %d of its "
                       "tile (one TMA box each); the tile written must be a wgmma "
                       "fragment %d times as wide as the ring's",
                       part, r, ring->parts - 1, ring->parts);
      return false;
    }
    write_fragment(L, b, ring, mlirOperationGetOperand(op, 1), f, part);
    return true;
  }
  if (f && f->n && mlirTypeEqual(ring->tile, mlirValueGetType(tile))) {
    write_fragment(L, b, ring, mlirOperationGetOperand(op, 1), f, 0);
    return true;
  }
  if (f && !f->n && mlirTypeEqual(ring->tile, mlirValueGetType(tile)))
    return write_row_vector(L, b, op, ring, f);
  return ws_tiles_write_slot(&L->tiles, b, op, ring, r);
}
