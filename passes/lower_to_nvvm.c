/* lower_to_nvvm.c: ws-lower-to-nvvm, which turns a planned kernel into a
 * warp-specialized llvm.func kernel made of upstream nvvm/llvm/scf/arith ops.
 *
 * Layout of the lowered kernel:
 *   prologue (the kernel's ops before the loop, run by every thread)
 *   thread 0 initializes every mbarrier; fence.mbarrier_init; barrier
 *   if warp < compute warps:   setmaxnreg.inc; compute loop
 *   else:                      setmaxnreg.dec
 *     if warp == load warp and elected lane:   load loop (TMA issue)
 *     if warp == store warp and elected lane:  store loop (TMA store), drain
 * Each partition has its own copy of the loop, with an iteration counter i
 * that gives the ring slot (i % depth) and barrier phase ((i / depth) & 1).
 *
 * Descriptors become grid-constant byval kernel parameters (the 128-byte
 * CUtensorMap the launcher passes by value); shared memory is one dynamic
 * arena, the external global @ws_smem. Compute tiles live in registers:
 * thread t of T holds chunks j*T + t of V elements (16 bytes when the tile
 * allows), so consecutive threads touch consecutive 16-byte pieces of a
 * row-major slot, which is free of bank conflicts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "ws-c/Dialect.h"
#include "ws_builder.h"
#include "ws_lower_f8.h"
#include "ws_lower_store.h"
#include "ws_pass.h"
#include "ws_plan.h"
#include "../dialect/ws_text.h"

enum { MAX_MAPPED = 512, MAX_CHUNKS = 64, MAX_TILES = 64, WAIT_HINT_NS = 1000000,
       MAX_ARGS = 32, PRODUCER_FALLBACK_REGISTERS = 24 };

typedef struct value_map {
  MlirValue from[MAX_MAPPED], to[MAX_MAPPED];
  int n;
} value_map;

/* A tile of the compute partition, held as chunks of V elements. */
typedef struct tile_regs {
  MlirValue tile;
  MlirValue chunks[MAX_CHUNKS];
} tile_regs;

typedef struct lowering {
  ws_plan plan;
  MlirContext ctx;
  MlirLocation loc;
  MlirOperation old_func, new_func;
  value_map outer;
  MlirValue smem, tid;
  MlirValue views[MAX_ARGS]; /* store views, by the kernel's argument index */
  int compute;               /* index of the compute partition, or -1 */
  MlirType i32, ptr_shared, ptr_cluster;
  /* compute layout: `total` chunks of `vec` elements, chunk j of thread t
   * is chunk j * threads + t; when total is not a multiple of threads, the
   * last chunk of some threads lies past the tile (`last_valid` is false
   * there: it reads slot chunk 0 and writes nothing) */
  int threads, vec, chunks, total;
  MlirValue last_valid;
  tile_regs tiles[MAX_TILES];
  int num_tiles;
} lowering;

static void map_put(value_map *m, MlirValue from, MlirValue to) {
  if (m->n < MAX_MAPPED) {
    m->from[m->n] = from;
    m->to[m->n++] = to;
  }
}

static MlirValue map_get(const value_map *m, MlirValue v) {
  for (int i = m->n - 1; i >= 0; i--)
    if (mlirValueEqual(m->from[i], v))
      return m->to[i];
  return v;
}

/* Looks a value up in the loop's map, then the kernel's. */
static MlirValue lookup(const lowering *L, const value_map *local, MlirValue v) {
  MlirValue inner = local ? map_get(local, v) : v;
  return mlirValueEqual(inner, v) ? map_get(&L->outer, v) : inner;
}

/* Clones a scalar op at the builder, operands through the maps. */
static MlirOperation clone_mapped(lowering *L, ws_builder *b, MlirOperation op,
                                  value_map *local) {
  MlirOperation copy = mlirOperationClone(op);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(copy); i++)
    mlirOperationSetOperand(copy, i, lookup(L, local, mlirOperationGetOperand(op, i)));
  static const char *const plan_attrs[] = {"ws.partition", "ws.ring"};
  for (size_t a = 0; a < 2; a++)
    mlirOperationRemoveDiscardableAttributeByName(
        copy, mlirStringRefCreateFromCString(plan_attrs[a]));
  if (!mlirOperationIsNull(b->before))
    mlirBlockInsertOwnedOperationBefore(b->block, b->before, copy);
  else
    mlirBlockAppendOwnedOperation(b->block, copy);
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
    map_put(local ? local : &L->outer, mlirOperationGetResult(op, r),
            mlirOperationGetResult(copy, r));
  return copy;
}

/* ---- protocol pieces ----------------------------------------------------- */

static MlirValue c32(ws_builder *b, int64_t v) { return ws_const_i32(b, v); }

/* slot = i % depth, phase = ((i / depth) & 1) ^ start. */
static void slot_and_phase(ws_builder *b, MlirValue i, int depth, int start,
                           MlirValue *slot, MlirValue *phase) {
  MlirValue d = c32(b, depth);
  *slot = ws_arith(b, "arith.remui", i, d);
  MlirValue p = ws_arith(b, "arith.andi", ws_arith(b, "arith.divui", i, d), c32(b, 1));
  *phase = start ? ws_arith(b, "arith.xori", p, c32(b, 1)) : p;
}

/* Address of smem[base + slot * stride]. */
static MlirValue slot_ptr(lowering *L, ws_builder *b, int base, MlirValue slot,
                          int stride) {
  MlirValue off = ws_arith(b, "arith.addi", ws_arith(b, "arith.muli", slot, c32(b, stride)),
                           c32(b, base));
  return ws_byte_ptr(b, L->smem, off);
}

static void wait_parity(ws_builder *b, MlirValue bar, MlirValue phase) {
  MlirValue ops[3] = {bar, phase, c32(b, WAIT_HINT_NS)};
  ws_build_void(b, "nvvm.mbarrier.try_wait.parity", 3, ops, 0, NULL);
}

static void arrive(lowering *L, ws_builder *b, MlirValue bar) {
  ws_build_value(b, "nvvm.mbarrier.arrive", 1, &bar,
                 mlirIntegerTypeGet(L->ctx, 64), 0, NULL);
}

static void fence_async_shared(ws_builder *b) {
  MlirNamedAttribute attrs[2] = {
      ws_named_text(b->ctx, "kind", "#nvvm.proxy_kind<async.shared>"),
      ws_named_text(b->ctx, "space", "#nvvm.shared_space<cta>"),
  };
  ws_build_void(b, "nvvm.fence.proxy", 0, NULL, 2, attrs);
}

static void setmaxnreg(ws_builder *b, bool increase, int regs) {
  char count[32];
  snprintf(count, sizeof count, "%d : i32", regs);
  MlirNamedAttribute attrs[2] = {
      ws_named_text(b->ctx, "action", increase ? "#nvvm<action increase>"
                                               : "#nvvm<action decrease>"),
      ws_named_text(b->ctx, "regCount", count),
  };
  ws_build_void(b, "nvvm.setmaxregister", 0, NULL, 2, attrs);
}

static void bulk_wait(ws_builder *b, int pending, bool read) {
  char group[32];
  snprintf(group, sizeof group, "%d : i32", pending);
  MlirNamedAttribute attrs[2] = {ws_named_text(b->ctx, "group", group),
                                 ws_named(b->ctx, "read", mlirUnitAttrGet(b->ctx))};
  ws_build_void(b, "nvvm.cp.async.bulk.wait_group", 0, NULL, read ? 2 : 1, attrs);
}

/* TMA coordinates run innermost first; ws.load/ws.store list them outermost
 * first. */
static void reversed_coords(lowering *L, MlirOperation op, int first, int rank,
                            value_map *local, MlirValue *out) {
  for (int d = 0; d < rank; d++)
    out[d] = lookup(L, local, mlirOperationGetOperand(op, first + rank - 1 - d));
}

/* ---- partitions ---------------------------------------------------------- */

/* A partition's loop: same bounds as the source loop, plus the counter. */
static MlirBlock open_loop(lowering *L, ws_builder *b, value_map *local,
                           MlirValue *counter) {
  MlirOperation loop = L->plan.loop;
  MlirValue lb = lookup(L, NULL, mlirOperationGetOperand(loop, 0));
  MlirValue ub = lookup(L, NULL, mlirOperationGetOperand(loop, 1));
  MlirValue step = lookup(L, NULL, mlirOperationGetOperand(loop, 2));
  MlirValue zero = c32(b, 0);
  MlirBlock body;
  ws_build_for(b, lb, ub, step, 1, &zero, &body);
  map_put(local, mlirBlockGetArgument(ws_loop_body(loop), 0),
          mlirBlockGetArgument(body, 0));
  *counter = mlirBlockGetArgument(body, 1);
  return body;
}

static void close_loop(ws_builder *b, MlirBlock body, MlirValue counter) {
  MlirValue next = ws_arith(b, "arith.addi", counter, c32(b, 1));
  ws_build_terminator(body, b->loc, "scf.yield", 1, &next);
}

static bool in_partition(const lowering *L, MlirOperation op, int part) {
  return (ws_op_partitions(&L->plan, op) >> part) & 1;
}

static bool is_scalar(MlirOperation op) {
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
    if (mlirTypeIsARankedTensor(mlirValueGetType(mlirOperationGetResult(op, r))))
      return false;
  return !wsOperationIsInDialect(op);
}

/* Walks the source loop body for one partition from `op` on: clones the
 * partition's scalar ops at b and returns its next tile op (a ws op or an
 * op on tiles), or a null op at the end of the body. */
static MlirOperation next_tile_op(lowering *L, ws_builder *b, value_map *local,
                                  MlirOperation op, int part) {
  for (; !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!in_partition(L, op, part) || ws_op_is(op, "scf.yield"))
      continue;
    if (!is_scalar(op))
      return op;
    clone_mapped(L, b, op, local);
  }
  return op;
}

/* The first tile op of a partition in the source loop (see next_tile_op). */
static MlirOperation first_tile_op(lowering *L, ws_builder *b, value_map *local,
                                   int part) {
  return next_tile_op(L, b, local, mlirBlockGetFirstOperation(ws_loop_body(L->plan.loop)),
                      part);
}

static MlirOperation after(lowering *L, ws_builder *b, value_map *local,
                           MlirOperation op, int part) {
  return next_tile_op(L, b, local, mlirOperationGetNextInBlock(op), part);
}

static void emit_load_partition(lowering *L, ws_builder *outer, int part) {
  value_map local = {.n = 0};
  MlirValue i;
  MlirBlock body = open_loop(L, outer, &local, &i);
  ws_builder b = ws_builder_at_end(body, L->loc);
  bool started[WS_MAX_CHANNELS] = {false};
  MlirValue slot[WS_MAX_CHANNELS], full[WS_MAX_CHANNELS];
  for (MlirOperation op = first_tile_op(L, &b, &local, part); !mlirOperationIsNull(op);
       op = after(L, &b, &local, op, part)) {
    int r = ws_ring_of_value(&L->plan, mlirOperationGetResult(op, 0));
    if (r < 0)
      continue; /* nobody uses the tile: ws-plan-memory dropped the load */
    const ws_ring *ring = &L->plan.rings[r];
    const ws_channel *c = &L->plan.channels[ring->channel];
    int ch = ring->channel;
    if (!started[ch]) {
      MlirValue phase;
      slot_and_phase(&b, i, c->depth, c->producer_phase, &slot[ch], &phase);
      wait_parity(&b, slot_ptr(L, &b, c->empty, slot[ch], 8), phase);
      full[ch] = slot_ptr(L, &b, c->full, slot[ch], 8);
      MlirValue ops[2] = {full[ch], c32(&b, c->expect_tx)};
      ws_build_void(&b, "nvvm.mbarrier.arrive.expect_tx", 2, ops, 0, NULL);
      started[ch] = true;
    }
    MlirValue dst = slot_ptr(L, &b, ring->offset, slot[ch], ring->slot_bytes);
    MlirValue dst7 = ws_build_value(&b, "llvm.addrspacecast", 1, &dst, L->ptr_cluster, 0, NULL);
    int rank = (int)mlirOperationGetNumOperands(op) - 1;
    MlirValue ops[8];
    ops[0] = dst7;
    ops[1] = lookup(L, &local, mlirOperationGetOperand(op, 0));
    reversed_coords(L, op, 1, rank, &local, ops + 2);
    ops[2 + rank] = full[ch];
    char seg[64];
    snprintf(seg, sizeof seg, "array<i32: 1, 1, %d, 1, 0, 0, 0, 0>", rank);
    MlirNamedAttribute attrs[1] = {ws_named_text(L->ctx, "operandSegmentSizes", seg)};
    ws_build_void(&b, "nvvm.cp.async.bulk.tensor.shared.cluster.global", 3 + rank,
                  ops, 1, attrs);
  }
  close_loop(&b, body, i);
}

static void emit_store_partition(lowering *L, ws_builder *outer, int part) {
  value_map local = {.n = 0};
  MlirValue i;
  MlirBlock body = open_loop(L, outer, &local, &i);
  ws_builder b = ws_builder_at_end(body, L->loc);
  bool started[WS_MAX_CHANNELS] = {false};
  MlirValue slot[WS_MAX_CHANNELS];
  for (MlirOperation op = first_tile_op(L, &b, &local, part); !mlirOperationIsNull(op);
       op = after(L, &b, &local, op, part)) {
    int n = (int)mlirOperationGetNumOperands(op);
    int r = ws_ring_of_value(&L->plan, mlirOperationGetOperand(op, n - 1));
    if (r < 0) {
      ws_emit_op_error(op, "stores a tile that has no ring; run ws-plan-memory");
      return;
    }
    const ws_ring *ring = &L->plan.rings[r];
    const ws_channel *c = &L->plan.channels[ring->channel];
    int ch = ring->channel;
    if (!started[ch]) {
      MlirValue phase;
      slot_and_phase(&b, i, c->depth, c->consumer_phase, &slot[ch], &phase);
      wait_parity(&b, slot_ptr(L, &b, c->full, slot[ch], 8), phase);
      started[ch] = true;
    }
    MlirValue desc = mlirOperationGetOperand(op, 0);
    if (!mlirValueIsABlockArgument(desc) ||
        !mlirBlockEqual(mlirBlockArgumentGetOwner(desc),
                        mlirRegionGetFirstBlock(mlirOperationGetRegion(L->old_func, 0)))) {
      ws_emit_op_error(op, "stores through a descriptor that is not a kernel "
                           "argument; pass descriptors as gpu.func arguments");
      return;
    }
    if (ring->swizzle) {
      ws_emit_op_error(op, "stores from a swizzled ring, which the exact store "
                           "cannot read yet");
      return;
    }
    ws_store_site site = {
        .map = lookup(L, &local, desc),
        .view = L->views[mlirBlockArgumentGetArgNumber(desc)],
        .src = slot_ptr(L, &b, ring->offset, slot[ch], ring->slot_bytes),
        .rank = n - 2,
        .elem_bytes = wsElementTypeByteWidth(mlirShapedTypeGetElementType(ring->tile)),
    };
    for (int d = 0; d < site.rank; d++) {
      site.coords[d] = lookup(L, &local, mlirOperationGetOperand(op, 1 + d));
      site.box[d] = mlirShapedTypeGetDimSize(ring->tile, d);
    }
    ws_emit_exact_store(&b, &site);
  }
  /* One bulk group per step; release the slot read depth-1 steps ago. */
  ws_build_void(&b, "nvvm.cp.async.bulk.commit.group", 0, NULL, 0, NULL);
  for (int ch = 0; ch < L->plan.num_channels; ch++) {
    const ws_channel *c = &L->plan.channels[ch];
    if (!started[ch])
      continue;
    bulk_wait(&b, c->drain, true);
    MlirValue lag = c32(&b, c->drain);
    MlirValue ready = ws_cmpi(&b, "uge", i, lag);
    MlirBlock then_block;
    ws_build_if(&b, ready, &then_block, NULL);
    ws_builder t = ws_builder_before(mlirBlockGetTerminator(then_block));
    MlirValue old = ws_arith(&t, "arith.subi", i, lag);
    MlirValue old_slot = ws_arith(&t, "arith.remui", old, c32(&t, c->depth));
    arrive(L, &t, slot_ptr(L, &t, c->empty, old_slot, 8));
  }
  close_loop(&b, body, i);
  bulk_wait(outer, 0, false);
}

/* ---- compute ------------------------------------------------------------- */

static tile_regs *find_tile(lowering *L, MlirValue tile) {
  for (int t = 0; t < L->num_tiles; t++)
    if (mlirValueEqual(L->tiles[t].tile, tile))
      return &L->tiles[t];
  return NULL;
}

static tile_regs *new_tile(lowering *L, MlirValue tile) {
  if (L->num_tiles == MAX_TILES)
    return NULL;
  tile_regs *t = &L->tiles[L->num_tiles++];
  t->tile = tile;
  return t;
}

/* A chunk of `tile` in registers (f8 widened to f32, see ws_lower_f8.h). */
static MlirType chunk_type(const lowering *L, MlirType tile) {
  int64_t v = L->vec;
  return mlirVectorTypeGet(1, &v, ws_register_element(mlirShapedTypeGetElementType(tile)));
}

/* A chunk as it lies in a ring slot: f8 elements are bytes. */
static MlirType slot_chunk_type(const lowering *L, MlirType tile) {
  MlirType e = mlirShapedTypeGetElementType(tile);
  int64_t v = L->vec;
  return mlirVectorTypeGet(1, &v, ws_is_f8(e) ? mlirIntegerTypeGet(L->ctx, 8) : e);
}

/* Chunk j may lie past the tile only when it is the last and the chunk
 * count does not divide evenly. */
static bool chunk_may_be_past(const lowering *L, int j) {
  return j == L->chunks - 1 && L->total % L->threads != 0;
}

/* Byte offset of chunk j of this thread within a slot of `elem_bytes`. */
static MlirValue chunk_offset(lowering *L, ws_builder *b, int j, int elem_bytes) {
  int piece = L->vec * elem_bytes;
  MlirValue mine = ws_arith(b, "arith.muli", L->tid, c32(b, piece));
  return ws_arith(b, "arith.addi", mine, c32(b, j * L->threads * piece));
}

static MlirNamedAttribute alignment_attr(lowering *L, const ws_ring *ring) {
  int eb = wsElementTypeByteWidth(mlirShapedTypeGetElementType(ring->tile));
  char text[32];
  snprintf(text, sizeof text, "%d : i64", L->vec * eb);
  return ws_named_text(L->ctx, "alignment", text);
}

static MlirValue chunk_ptr(lowering *L, ws_builder *b, const ws_ring *ring,
                           MlirValue slot, int j) {
  int eb = wsElementTypeByteWidth(mlirShapedTypeGetElementType(ring->tile));
  MlirValue base = slot_ptr(L, b, ring->offset, slot, ring->slot_bytes);
  MlirValue offset = chunk_offset(L, b, j, eb);
  if (chunk_may_be_past(L, j)) /* read chunk 0 instead: in the slot, unused */
    offset = ws_build_value(b, "arith.select", 3,
                            (MlirValue[]){L->last_valid, offset, c32(b, 0)}, L->i32, 0, NULL);
  return ws_byte_ptr(b, base, offset);
}

static MlirValue load_chunk(lowering *L, ws_builder *b, const ws_ring *ring,
                            MlirValue ptr) {
  MlirNamedAttribute align = alignment_attr(L, ring);
  MlirValue v = ws_build_value(b, "llvm.load", 1, &ptr, slot_chunk_type(L, ring->tile),
                               1, &align);
  MlirType e = mlirShapedTypeGetElementType(ring->tile);
  return ws_is_f8(e) ? ws_f8_widen(b, v, e) : v;
}

static void store_chunk(lowering *L, ws_builder *b, const ws_ring *ring, MlirValue ptr,
                        MlirValue v, int j) {
  MlirType e = mlirShapedTypeGetElementType(ring->tile);
  ws_builder at = *b;
  if (chunk_may_be_past(L, j)) {
    MlirBlock then_block;
    ws_build_if(b, L->last_valid, &then_block, NULL);
    at = ws_builder_before(mlirBlockGetTerminator(then_block));
  }
  if (ws_is_f8(e))
    v = ws_f8_narrow(&at, v, e);
  MlirNamedAttribute align = alignment_attr(L, ring);
  MlirValue ops[2] = {v, ptr};
  ws_build_void(&at, "llvm.store", 2, ops, 1, &align);
}

/* The compute partition's side of every channel it touches. Incoming:
 * wait until the slot is full, read each ring's chunks into registers, fence
 * (TMA refills the slot) and release it. Outgoing: wait until the slot is
 * empty, write the chunks, fence (a TMA store reads the slot) and publish. */
static void transfer(lowering *L, ws_builder *b, MlirValue i, bool incoming) {
  for (int ch = 0; ch < L->plan.num_channels; ch++) {
    const ws_channel *c = &L->plan.channels[ch];
    if ((incoming ? c->to : c->from) != L->compute)
      continue;
    MlirValue slot, phase;
    slot_and_phase(b, i, c->depth, incoming ? c->consumer_phase : c->producer_phase,
                   &slot, &phase);
    wait_parity(b, slot_ptr(L, b, incoming ? c->full : c->empty, slot, 8), phase);
    for (int r = 0; r < L->plan.num_rings; r++) {
      const ws_ring *ring = &L->plan.rings[r];
      if (ring->channel != ch)
        continue;
      MlirValue tile = mlirOperationGetResult(ring->producer, 0);
      tile_regs *t = incoming ? new_tile(L, tile) : find_tile(L, tile);
      for (int j = 0; t && j < L->chunks; j++) {
        MlirValue p = chunk_ptr(L, b, ring, slot, j);
        if (incoming)
          t->chunks[j] = load_chunk(L, b, ring, p);
        else
          store_chunk(L, b, ring, p, t->chunks[j], j);
      }
    }
    if (incoming ? c->release_fence : c->publish_fence)
      fence_async_shared(b);
    arrive(L, b, slot_ptr(L, b, incoming ? c->empty : c->full, slot, 8));
  }
}

/* A splat constant tile becomes one splat vector shared by all chunks (an
 * f8 splat becomes the f32 vector of its value); NULL for anything else. */
static tile_regs *materialize_splat(lowering *L, ws_builder *b, MlirValue tile) {
  if (!mlirValueIsAOpResult(tile))
    return NULL;
  MlirOperation def = mlirOpResultGetOwner(tile);
  MlirAttribute value = mlirOperationGetInherentAttributeByName(
      def, mlirStringRefCreateFromCString("value"));
  if (!ws_op_is(def, "arith.constant") || mlirAttributeIsNull(value) ||
      !mlirAttributeIsADenseElements(value) || !mlirDenseElementsAttrIsSplat(value)) {
    ws_emit_op_error(def, "is a tile the compute partition cannot rebuild; "
                          "only splat constants can be");
    return NULL;
  }
  MlirType vt = chunk_type(L, mlirValueGetType(tile));
  MlirAttribute element = mlirDenseElementsAttrGetSplatValue(value);
  if (ws_is_f8(mlirShapedTypeGetElementType(mlirValueGetType(tile))))
    element = mlirFloatAttrDoubleGet(L->ctx, mlirF32TypeGet(L->ctx),
                                     mlirFloatAttrGetValueDouble(element));
  MlirNamedAttribute attr = ws_named(L->ctx, "value", mlirDenseElementsAttrSplatGet(vt, element));
  MlirValue v = ws_build_value(b, "arith.constant", 0, NULL, vt, 1, &attr);
  tile_regs *t = new_tile(L, tile);
  for (int j = 0; t && j < L->chunks; j++)
    t->chunks[j] = v;
  return t;
}

static MlirType tile_element(MlirValue v) {
  return mlirShapedTypeGetElementType(mlirValueGetType(v));
}

/* extf/truncf with an f8 side: the f8 side is f32 in registers, so the op
 * becomes a plain f32 conversion (exact) and, into f8, a rounding. Returns
 * the result chunk, or a null value when `op` is no such conversion. */
static MlirValue convert_f8_chunk(lowering *L, ws_builder *b, MlirOperation op,
                                  MlirValue chunk) {
  MlirType from = tile_element(mlirOperationGetOperand(op, 0));
  MlirType to = tile_element(mlirOperationGetResult(op, 0));
  bool ext = ws_op_is(op, "arith.extf"), trunc = ws_op_is(op, "arith.truncf");
  if (!(ext || trunc) || !(ws_is_f8(from) || ws_is_f8(to)))
    return (MlirValue){NULL};
  MlirType f32 = mlirF32TypeGet(L->ctx);
  int64_t v = L->vec;
  if (ws_is_f8(from)) { /* extf f8 -> f16, bf16 or f32 */
    if (mlirTypeIsAF32(to))
      return chunk;
    return ws_build_value(b, "arith.truncf", 1, &chunk, mlirVectorTypeGet(1, &v, to), 0, NULL);
  }
  if (!mlirTypeIsAF32(from)) /* truncf f16 or bf16 -> f8 */
    chunk = ws_build_value(b, "arith.extf", 1, &chunk, mlirVectorTypeGet(1, &v, f32), 0, NULL);
  return ws_f8_round(b, chunk, to);
}

/* Ops that would mean something else on the f32 form of an f8 tile. */
static bool rejects_f8(MlirOperation op) {
  bool f8 = ws_is_f8(tile_element(mlirOperationGetResult(op, 0)));
  for (intptr_t k = 0; k < mlirOperationGetNumOperands(op); k++)
    f8 |= ws_is_f8(tile_element(mlirOperationGetOperand(op, k)));
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
static bool vectorize(lowering *L, ws_builder *b, MlirOperation op, value_map *local) {
  MlirValue result = mlirOperationGetResult(op, 0);
  if (ws_op_is(op, "arith.constant"))
    return materialize_splat(L, b, result) != NULL;
  intptr_t n = mlirOperationGetNumOperands(op);
  tile_regs *in[8];
  if (n > 8) {
    ws_emit_op_error(op, "has more than 8 operands; the compute partition "
                         "takes at most 8");
    return false;
  }
  if (rejects_f8(op))
    return false;
  for (intptr_t k = 0; k < n; k++) {
    MlirValue v = mlirOperationGetOperand(op, k);
    in[k] = find_tile(L, v);
    if (!in[k])
      in[k] = materialize_splat(L, b, v);
    if (!in[k])
      return false;
  }
  tile_regs *out = new_tile(L, result);
  if (!out) {
    ws_emit_op_error(op, "needs more than %d tiles in registers; split the loop",
                     MAX_TILES);
    return false;
  }
  MlirType rt = tile_element(result);
  for (int j = 0; j < L->chunks; j++) {
    MlirValue converted = convert_f8_chunk(L, b, op, in[0]->chunks[j]);
    if (!mlirValueIsNull(converted)) {
      out->chunks[j] = converted;
      continue;
    }
    MlirOperation copy = clone_mapped(L, b, op, local);
    for (intptr_t k = 0; k < n; k++)
      mlirOperationSetOperand(copy, k, in[k]->chunks[j]);
    mlirValueSetType(mlirOperationGetResult(copy, 0),
                     chunk_type(L, mlirValueGetType(result)));
    out->chunks[j] = mlirOperationGetResult(copy, 0);
    if (ws_is_f8(rt))
      out->chunks[j] = ws_f8_round(b, out->chunks[j], rt);
  }
  return true;
}

static bool emit_compute_partition(lowering *L, ws_builder *outer) {
  value_map local = {.n = 0};
  MlirValue i;
  if (L->chunks && chunk_may_be_past(L, L->chunks - 1)) {
    MlirValue last = ws_arith(outer, "arith.addi", L->tid,
                              c32(outer, (L->chunks - 1) * L->threads));
    L->last_valid = ws_cmpi(outer, "ult", last, c32(outer, L->total));
  }
  MlirBlock body = open_loop(L, outer, &local, &i);
  ws_builder b = ws_builder_at_end(body, L->loc);
  L->num_tiles = 0;
  transfer(L, &b, i, true);
  for (MlirOperation op = first_tile_op(L, &b, &local, L->compute); !mlirOperationIsNull(op);
       op = after(L, &b, &local, op, L->compute)) {
    if (!vectorize(L, &b, op, &local))
      return false;
  }
  transfer(L, &b, i, false);
  close_loop(&b, body, i);
  return true;
}

/* V and the chunk count for the compute tiles: 16-byte pieces of the widest
 * element where the tile allows. */
static bool choose_compute_layout(lowering *L) {
  if (L->compute < 0)
    return true; /* no compute partition: nothing to lay out */
  L->threads = L->plan.parts[L->compute].num_warps * 32;
  int widest = 1;
  long numel = 0;
  MlirBlock src = ws_loop_body(L->plan.loop);
  for (MlirOperation op = mlirBlockGetFirstOperation(src); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!in_partition(L, op, L->compute) || is_scalar(op))
      continue;
    MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
    long n = 1;
    for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); d++)
      n *= mlirShapedTypeGetDimSize(t, d);
    if (numel && n != numel) {
      ws_emit_op_error(op, "tile of %ld elements differs from the other compute "
                           "tiles (%ld); compute tiles must all have one size",
                       n, numel);
      return false;
    }
    numel = n;
    int eb = wsElementTypeByteWidth(mlirShapedTypeGetElementType(t));
    if (eb == 0)
      eb = 4; /* i1 masks and other internal element types */
    if (eb > widest)
      widest = eb;
  }
  if (numel == 0)
    return true;
  L->vec = 16 / widest;
  while (L->vec > 1 && numel % L->vec)
    L->vec /= 2;
  L->total = (int)(numel / L->vec);
  L->chunks = (L->total + L->threads - 1) / L->threads;
  if (L->chunks > MAX_CHUNKS) {
    ws_emit_op_error(L->plan.loop, "compute tiles of %ld elements need %d "
                                   "chunks per thread; at most %d are supported",
                     numel, L->chunks, MAX_CHUNKS);
    return false;
  }
  return true;
}

/* ---- the kernel ---------------------------------------------------------- */

/* "ptr" for descriptors, the LLVM spelling of scalars otherwise. */
static bool llvm_arg_type(MlirType t, char *buf, size_t cap) {
  if (wsTypeIsATensorDesc(t)) {
    snprintf(buf, cap, "ptr");
    return true;
  }
  if (mlirTypeIsAInteger(t) || mlirTypeIsAF32(t) || mlirTypeIsAF16(t) ||
      mlirTypeIsABF16(t) || mlirTypeIsAF64(t)) {
    ws_type_str(t, buf, cap);
    return true;
  }
  return false;
}

static bool create_function(lowering *L) {
  MlirBlock old_entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(L->old_func, 0));
  intptr_t n = mlirBlockGetNumArguments(old_entry);
  char sig[2048], arg_attrs[8192], ty[64];
  ws_text sig_t, attrs_t;
  ws_text_init(&sig_t, sig, sizeof sig);
  ws_text_init(&attrs_t, arg_attrs, sizeof arg_attrs);
  ws_text_appendf(&sig_t, "!llvm.func<void (");
  ws_text_appendf(&attrs_t, "[");
  MlirType types[2 * MAX_ARGS];
  MlirLocation locs[2 * MAX_ARGS];
  intptr_t index[MAX_ARGS], num_params = 0;
  if (n > MAX_ARGS) {
    ws_emit_op_error(L->old_func, "has more than %d arguments", MAX_ARGS);
    return false;
  }
  for (intptr_t i = 0; i < n; i++) {
    MlirValue arg = mlirBlockGetArgument(old_entry, i);
    MlirType t = mlirValueGetType(arg);
    if (!llvm_arg_type(t, ty, sizeof ty)) {
      char tb[64];
      ws_emit_error_at(mlirValueGetLocation(arg), "kernel argument of type %s "
                       "cannot be passed to the lowered kernel; use i32, i64 "
                       "or a float type", ws_type_str(t, tb, sizeof tb));
      return false;
    }
    bool desc = wsTypeIsATensorDesc(t);
    MlirType ptr = ws_type(L->ctx, "!llvm.ptr");
    ws_text_appendf(&sig_t, "%s%s", i ? ", " : "", ty);
    ws_text_appendf(&attrs_t, "%s%s", i ? ", " : "",
                    desc ? "{llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, "
                           "nvvm.grid_constant}"
                         : "{}");
    index[i] = num_params;
    types[num_params] = desc ? ptr : t;
    locs[num_params++] = mlirValueGetLocation(arg);
    if (desc && wsTensorDescIsStored(arg)) { /* its store view follows it */
      ws_text_appendf(&sig_t, ", ptr");
      ws_text_appendf(&attrs_t, ", {llvm.align = 8 : i64, llvm.byval = "
                                "!llvm.array<%d x i64>, nvvm.grid_constant}",
                      WS_STORE_VIEW_WORDS);
      types[num_params] = ptr;
      locs[num_params++] = mlirValueGetLocation(arg);
    }
  }
  ws_text_appendf(&sig_t, ")>");
  ws_text_appendf(&attrs_t, "]");
  MlirAttribute name = mlirOperationGetAttributeByName(
      L->old_func, mlirStringRefCreateFromCString("sym_name"));
  char threads[64], maxnreg[32];
  snprintf(threads, sizeof threads, "array<i32: %d>", L->plan.block_threads);
  snprintf(maxnreg, sizeof maxnreg, "%d : i32", L->plan.maxnreg);
  MlirNamedAttribute attrs[9] = {
      ws_named(L->ctx, "sym_name", name),
      ws_named_text(L->ctx, "function_type", sig),
      ws_named_text(L->ctx, "arg_attrs", arg_attrs),
      ws_named_text(L->ctx, "linkage", "#llvm.linkage<external>"),
      ws_named_text(L->ctx, "CConv", "#llvm.cconv<ccc>"),
      ws_named(L->ctx, "nvvm.kernel", mlirUnitAttrGet(L->ctx)),
      ws_named_text(L->ctx, "nvvm.maxnreg", maxnreg),
      ws_named_text(L->ctx, "nvvm.reqntid", threads),
  };
  ws_builder before = ws_builder_before(L->old_func);
  L->new_func = ws_build(&before, "llvm.func", 0, NULL, 0, NULL, 8, attrs, 1);
  MlirBlock entry = mlirBlockCreate(num_params, types, locs);
  mlirRegionAppendOwnedBlock(mlirOperationGetRegion(L->new_func, 0), entry);
  for (intptr_t i = 0; i < n; i++) {
    map_put(&L->outer, mlirBlockGetArgument(old_entry, i),
            mlirBlockGetArgument(entry, index[i]));
    bool viewed = i + 1 < n ? index[i + 1] == index[i] + 2 : num_params == index[i] + 2;
    if (viewed)
      L->views[i] = mlirBlockGetArgument(entry, index[i] + 1);
  }
  return true;
}

/* The dynamic shared-memory arena: one external, 1024-aligned array. */
static void ensure_smem_global(lowering *L, MlirOperation module) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute sym = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("sym_name"));
    if (ws_op_is(op, "llvm.mlir.global") && !mlirAttributeIsNull(sym) &&
        ws_ref_eq(mlirStringAttrGetValue(sym), "ws_smem"))
      return;
  }
  MlirNamedAttribute attrs[5] = {
      ws_named_text(L->ctx, "sym_name", "\"ws_smem\""),
      ws_named_text(L->ctx, "global_type", "!llvm.array<0 x i8>"),
      ws_named_text(L->ctx, "linkage", "#llvm.linkage<external>"),
      ws_named_text(L->ctx, "addr_space", "3 : i32"),
      ws_named_text(L->ctx, "alignment", "1024 : i64"),
  };
  ws_builder b = ws_builder_at_end(body, L->loc);
  MlirOperation first = mlirBlockGetFirstOperation(body);
  if (!mlirOperationIsNull(first))
    b = ws_builder_before(first);
  ws_build(&b, "llvm.mlir.global", 0, NULL, 0, NULL, 5, attrs, 1);
}

/* Clones the kernel's ops before the loop; tiles there are splat constants
 * that the compute partition rebuilds, so they are left out. */
static bool emit_prologue(lowering *L, ws_builder *b) {
  MlirBlock entry = mlirOperationGetBlock(L->plan.loop);
  if (!mlirOperationEqual(mlirBlockGetParentOperation(entry), L->old_func)) {
    ws_emit_op_error(L->plan.loop, "must be at the top level of its kernel to "
                                   "be lowered");
    return false;
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(entry);
       !mlirOperationEqual(op, L->plan.loop); op = mlirOperationGetNextInBlock(op)) {
    if (!is_scalar(op))
      continue;
    if (mlirOperationGetNumRegions(op)) {
      ws_emit_op_error(op, "has regions; the ops before a warp-specialized "
                           "loop must be plain scalar ops");
      return false;
    }
    clone_mapped(L, b, op, NULL);
  }
  MlirOperation after = mlirOperationGetNextInBlock(L->plan.loop);
  if (!ws_op_is(after, "gpu.return")) {
    ws_emit_op_error(after, "follows the warp-specialized loop; only "
                            "gpu.return may come after it");
    return false;
  }
  return true;
}

static void init_barriers(lowering *L, ws_builder *b) {
  MlirBlock then_block;
  ws_build_if(b, ws_cmpi(b, "eq", L->tid, c32(b, 0)), &then_block, NULL);
  ws_builder t = ws_builder_before(mlirBlockGetTerminator(then_block));
  for (int ch = 0; ch < L->plan.num_channels; ch++) {
    const ws_channel *c = &L->plan.channels[ch];
    for (int s = 0; s < c->depth; s++) {
      MlirValue full[2] = {ws_byte_ptr_const(&t, L->smem, c->full + 8 * s),
                           c32(&t, c->full_arrivals)};
      ws_build_void(&t, "nvvm.mbarrier.init", 2, full, 0, NULL);
      MlirValue empty[2] = {ws_byte_ptr_const(&t, L->smem, c->empty + 8 * s),
                            c32(&t, c->empty_arrivals)};
      ws_build_void(&t, "nvvm.mbarrier.init", 2, empty, 0, NULL);
    }
  }
  ws_build_void(&t, "nvvm.fence.mbarrier.init", 0, NULL, 0, NULL);
  ws_build_void(b, "nvvm.barrier0", 0, NULL, 0, NULL);
}

static void emit_worker_at(lowering *L, ws_builder *b, MlirValue warp, int part,
                           void (*emit)(lowering *, ws_builder *, int)) {
  MlirValue mine = ws_cmpi(b, "eq", warp, c32(b, L->plan.parts[part].first_warp));
  MlirValue elected = ws_build_value(b, "nvvm.elect.sync", 0, NULL,
                                     mlirIntegerTypeGet(L->ctx, 1), 0, NULL);
  MlirBlock then_block;
  ws_build_if(b, ws_arith(b, "arith.andi", mine, elected), &then_block, NULL);
  ws_builder t = ws_builder_before(mlirBlockGetTerminator(then_block));
  emit(L, &t, part);
}

/* if (warp == w && elected) { partition loop }, for each partition of the
 * role. */
static void emit_worker(lowering *L, ws_builder *b, MlirValue warp, ws_role role,
                        void (*emit)(lowering *, ws_builder *, int)) {
  for (int part = 0; part < L->plan.num_parts; part++)
    if (L->plan.parts[part].role == role)
      emit_worker_at(L, b, warp, part, emit);
}

static bool emit_partitions(lowering *L, ws_builder *b, MlirValue warp) {
  if (L->compute < 0) {
    emit_worker(L, b, warp, WS_ROLE_LOAD, emit_load_partition);
    emit_worker(L, b, warp, WS_ROLE_STORE, emit_store_partition);
    return true;
  }
  const ws_partition *compute = &L->plan.parts[L->compute];
  MlirBlock then_block, else_block;
  ws_build_if(b, ws_cmpi(b, "ult", warp, c32(b, compute->num_warps)), &then_block,
              &else_block);
  ws_builder t = ws_builder_before(mlirBlockGetTerminator(then_block));
  setmaxnreg(&t, true, compute->registers);
  if (!emit_compute_partition(L, &t))
    return false;
  /* The TMA partitions share the warpgroup after the compute warps; they
   * all drop to the same count. */
  ws_builder e = ws_builder_before(mlirBlockGetTerminator(else_block));
  int producer = 0;
  while (producer < L->plan.num_parts && L->plan.parts[producer].role == WS_ROLE_COMPUTE)
    producer++;
  setmaxnreg(&e, false, producer < L->plan.num_parts ? L->plan.parts[producer].registers
                                                     : PRODUCER_FALLBACK_REGISTERS);
  emit_worker(L, &e, warp, WS_ROLE_LOAD, emit_load_partition);
  emit_worker(L, &e, warp, WS_ROLE_STORE, emit_store_partition);
  return true;
}

/* PTX 8.0 brings setmaxnreg and the TMA forms used here (8.6 for sm_100a). */
static void set_target_features(MlirOperation module) {
  MlirAttribute targets = mlirOperationGetAttributeByName(
      module, mlirStringRefCreateFromCString("targets"));
  char buf[256], chip[32] = "sm_90a", text[320];
  ws_attr_str(mlirArrayAttrGetElement(targets, 0), buf, sizeof buf);
  const char *p = strstr(buf, "chip = \"");
  if (p)
    snprintf(chip, sizeof chip, "%.*s", (int)strcspn(p + 8, "\""), p + 8);
  snprintf(text, sizeof text, "[#nvvm.target<O = 3, chip = \"%s\", features = \"%s\">]",
           chip, strcmp(chip, "sm_100a") == 0 ? "+ptx86" : "+ptx80");
  MlirAttribute a = mlirAttributeParseGet(mlirOperationGetContext(module),
                                          mlirStringRefCreateFromCString(text));
  if (!mlirAttributeIsNull(a))
    mlirOperationSetAttributeByName(module, mlirStringRefCreateFromCString("targets"), a);
}

static bool lower_with(lowering *L, MlirOperation loop) {
  if (ws_plan_read(loop, &L->plan) && !ws_plan_check(&L->plan))
    return false;
  if (!L->plan.maxnreg) {
    ws_emit_op_error(loop, "is marked ws.warp_specialize but was not planned; "
                           "run ws-partition-schedule, ws-plan-memory and "
                           "ws-insert-barriers first (or see their remarks)");
    return false;
  }
  L->old_func = L->plan.func;
  L->compute = ws_plan_find_role(&L->plan, WS_ROLE_COMPUTE);
  L->loc = mlirOperationGetLocation(L->old_func);
  L->ctx = mlirOperationGetContext(loop);
  L->i32 = mlirIntegerTypeGet(L->ctx, 32);
  L->ptr_shared = ws_type(L->ctx, "!llvm.ptr<3>");
  L->ptr_cluster = ws_type(L->ctx, "!llvm.ptr<7>");
  if (!choose_compute_layout(L) || !create_function(L))
    return false;
  MlirOperation module = mlirOperationGetParentOperation(L->old_func);
  ensure_smem_global(L, module);
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(L->new_func, 0));
  ws_builder b = ws_builder_at_end(entry, L->loc);
  MlirNamedAttribute global = ws_named_text(L->ctx, "global_name", "@ws_smem");
  L->smem = ws_build_value(&b, "llvm.mlir.addressof", 0, NULL, L->ptr_shared, 1, &global);
  L->tid = ws_build_value(&b, "nvvm.read.ptx.sreg.tid.x", 0, NULL, L->i32, 0, NULL);
  bool ok = emit_prologue(L, &b);
  if (ok) {
    MlirValue warp = ws_arith(&b, "arith.divui", L->tid, c32(&b, 32));
    init_barriers(L, &b);
    ok = emit_partitions(L, &b, warp);
  }
  ws_build_terminator(entry, L->loc, "llvm.return", 0, NULL);
  if (!ok) {
    mlirOperationDestroy(L->new_func);
    return false;
  }
  set_target_features(module);
  mlirOperationDestroy(L->old_func);
  return true;
}

/* The lowering state is large (value maps, register tiles): one heap copy
 * per kernel, so concurrent pass instances share nothing. */
static bool lower_kernel(MlirOperation loop, const ws_pass_options *opts,
                         const ws_pass_env *env) {
  (void)opts;
  (void)env;
  lowering *state = calloc(1, sizeof *state);
  if (!state) {
    ws_emit_op_error(loop, "out of memory while lowering");
    return false;
  }
  bool ok = lower_with(state, loop);
  free(state);
  return ok;
}

/* Every ws op must have been inside a planned loop. */
static MlirWalkResult find_leftover(MlirOperation op, void *user_data) {
  if (wsOperationIsInDialect(op)) {
    *(MlirOperation *)user_data = op;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

static bool run_lower(MlirOperation root, const ws_pass_options *opts,
                      const ws_pass_env *env) {
  if (!ws_run_on_marked_loops(root, lower_kernel, opts, env))
    return false;
  MlirOperation leftover = {NULL};
  mlirOperationWalk(root, find_leftover, &leftover, MlirWalkPreOrder);
  if (!mlirOperationIsNull(leftover)) {
    ws_emit_op_error(leftover, "is outside any warp-specialized loop and cannot "
                               "be lowered; mark its loop ws.warp_specialize");
    return false;
  }
  return true;
}

const ws_pass_def ws_lower_to_nvvm_pass_def = {
    .argument = "ws-lower-to-nvvm",
    .summary = "Lower planned warp-specialized kernels to llvm.func kernels "
               "of nvvm/llvm/scf/arith ops",
    .run = run_lower,
};
