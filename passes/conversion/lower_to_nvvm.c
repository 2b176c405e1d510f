/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* lower_to_nvvm.c: ws-lower-to-nvvm, which turns a kernel that
 * ws-specialize specialized into an llvm.func kernel of upstream
 * nvvm/llvm/scf/arith ops, rewriting one op at a time in place:
 *
 *   gpu.func -> llvm.func: descriptors become grid-constant byval
 *     parameters (the 128-byte CUtensorMap the launcher passes by value),
 *     each stored one followed by its store view (ws_lower_store.h); the
 *     register cap and block size become nvvm.maxnreg and nvvm.reqntid
 *   ws.init_barrier     nvvm.mbarrier.init of each slot's barrier
 *   ws.slot_phase       arith: n % depth, ((n / depth) & 1) ^ start
 *   ws.wait             nvvm.mbarrier.try_wait.parity
 *   ws.arrive(_expect_tx) nvvm.mbarrier.arrive(.expect_tx)
 *   ws.tma_load         nvvm.cp.async.bulk.tensor.shared.cluster.global
 *   ws.tma_store        the exact store (TMA, or element by element)
 *   ws.read_slot/write_slot and ops on tiles: vector loads, stores and ops
 *                       (lower_tile.c, ws_lower_tile.h)
 *   ws.mma              nvvm.wgmma.mma_async per m64 part and K step of 16
 *                       (ws_lower_mma.h); the scf.for that carries its
 *                       accumulator carries an !llvm.struct of f32 instead
 *   ws.tc_mma           nvvm.tcgen05.mma per K step of 16 (sm_100a,
 *                       ws_lower_tcgen05.h; block-scaled: .block_scale);
 *                       ws.commit nvvm.tcgen05.commit
 *   ws.tmem_copy        nvvm.tcgen05.cp.32x128b.warpx4 of a scale atom
 *   ws.tmem_load        nvvm.tcgen05.ld into wgmma's fragment layout
 *   ws.tmem_(de)alloc   nvvm.tcgen05.alloc/dealloc of the plan's columns
 *
 * Barriers and ring slots live in one dynamic shared-memory arena, the
 * external global @ws_smem, at the offsets of the kernel's ws.channels and
 * ws.rings. Tiles live in the registers of the compute partition, laid
 * out as ws_lower_tile.h says. Everything else (scf structure,
 * upstream nvvm ops, scalars) is already what the lowered kernel runs.
 *
 * The tensor-memory ops are in lower_tmem.c, the slot reads and writes in
 * lower_slots.c, sharing lower_to_nvvm_internal.h. */
#include "lower_to_nvvm_internal.h"

MlirValue lower_c32(ws_builder *b, int64_t v) { return ws_const_i32(b, v); }

/* ---- plan references --------------------------------------------------- */

/* The table index an op names in `key`; -1 after a located error when it is
 * missing or past the table. */
int lower_table_index(MlirOperation op, const char *key, int limit, const char *table) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(key));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a)) {
    ws_emit_op_error(op,
                     "needs an integer '%s' attribute (an index into the "
                     "kernel's %s)",
                     key, table);
    return -1;
  }
  int64_t v = mlirIntegerAttrGetValueInt(a);
  if (v < 0 || v >= limit) {
    ws_emit_op_error(op, "names %s %lld; the kernel's %s has %d", key, (long long)v, table, limit);
    return -1;
  }
  return (int)v;
}

static int channel_of(const lowering *L, MlirOperation op) {
  return lower_table_index(op, "channel", L->plan.num_channels, "ws.channels");
}

int lower_ring_of(const lowering *L, MlirOperation op) {
  return lower_table_index(op, "ring", L->plan.num_rings, "ws.rings");
}

/* "full" or "empty": 1, 0; -1 after an error. */
static int barrier_kind(MlirOperation op) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("barrier"));
  if (!mlirAttributeIsNull(a) && mlirAttributeIsAString(a)) {
    if (ws_ref_eq(mlirStringAttrGetValue(a), "full"))
      return 1;
    if (ws_ref_eq(mlirStringAttrGetValue(a), "empty"))
      return 0;
  }
  ws_emit_op_error(op, "needs barrier = \"full\" or \"empty\"");
  return -1;
}

int lower_int_attr(MlirOperation op, const char *key) { return ws_int_attr(op, key, -1); }

/* ---- protocol ops ------------------------------------------------------ */

/* Address of smem[base + slot * stride]. */
MlirValue lower_slot_ptr(lowering *L, ws_builder *b, int base, MlirValue slot, int stride) {
  return ws_smem_slot_ptr(b, L->tiles.smem, base, slot, stride);
}

/* The barrier `op` names, at its slot operand 0. */
static MlirValue barrier_ptr(lowering *L, ws_builder *b, MlirOperation op, int ch, bool full) {
  const ws_channel *c = &L->plan.channels[ch];
  return lower_slot_ptr(L, b, full ? c->full : c->empty, mlirOperationGetOperand(op, 0), 8);
}

static bool lower_init_barrier(lowering *L, ws_builder *b, MlirOperation op) {
  int ch = channel_of(L, op), full = barrier_kind(op), count = lower_int_attr(op, "count");
  if (ch < 0 || full < 0)
    return false;
  if (count < 1) {
    ws_emit_op_error(op, "needs a positive 'count' (arrivals per phase)");
    return false;
  }
  const ws_channel *c = &L->plan.channels[ch];
  for (int s = 0; s < c->depth; s++) {
    MlirValue ops[2] = {ws_byte_ptr_const(b, L->tiles.smem, (full ? c->full : c->empty) + 8 * s),
                        lower_c32(b, count)};
    ws_build_void(b, "nvvm.mbarrier.init", 2, ops, 0, NULL);
  }
  return true;
}

/* slot = n % depth, phase = ((n / depth) & 1) ^ start. */
static bool lower_slot_phase(lowering *L, ws_builder *b, MlirOperation op) {
  (void)L;
  int depth = lower_int_attr(op, "depth"), start = lower_int_attr(op, "start_phase");
  if (depth < 1 || (start != 0 && start != 1)) {
    ws_emit_op_error(op, "needs depth >= 1 and start_phase 0 or 1");
    return false;
  }
  MlirValue n = mlirOperationGetOperand(op, 0), d = lower_c32(b, depth);
  MlirValue slot = ws_arith(b, "arith.remui", n, d);
  MlirValue p = ws_arith(b, "arith.andi", ws_arith(b, "arith.divui", n, d), lower_c32(b, 1));
  MlirValue phase = start ? ws_arith(b, "arith.xori", p, lower_c32(b, 1)) : p;
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), slot);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 1), phase);
  return true;
}

static bool lower_wait(lowering *L, ws_builder *b, MlirOperation op) {
  int ch = channel_of(L, op), full = barrier_kind(op);
  if (ch < 0 || full < 0)
    return false;
  MlirValue ops[3] = {barrier_ptr(L, b, op, ch, full), mlirOperationGetOperand(op, 1),
                      lower_c32(b, WAIT_HINT_NS)};
  ws_build_void(b, "nvvm.mbarrier.try_wait.parity", 3, ops, 0, NULL);
  return true;
}

/* Every tcgen05 op of a kernel acts for the same CTAs, as PTX requires
 * (a pair's: cta_group::2). */
MlirNamedAttribute lower_tc_group(lowering *L) {
  return ws_named_cta_group(L->ctx, "group", ws_plan_mma_ctas(&L->plan));
}

/* The multicast mask of every CTA of the cluster (i16, a bit per rank). */
static MlirValue every_cta_mask(lowering *L, ws_builder *b) {
  return ws_const_int(b, (1 << ws_plan_cluster_size(&L->plan)) - 1, mlirIntegerTypeGet(L->ctx, 16));
}

/* ws.arrive {cluster}: each warp's arrival on the barrier at the same
 * offset in every CTA of the cluster, its own included (ws.arrive
 * {leader}: the leader's, rank 0, only): once every lane is done with the
 * slot (bar.warp.sync), lane 0 arrives through nvvm.mapa to each rank's
 * shared memory. One arrival a warp, not a thread, and a release at CTA
 * scope (as CUTLASS arrives remotely): at cluster scope each arrival waits
 * for the thread's memory operations to reach the cluster, which halved
 * the matmul's throughput. */
static void arrive_in_cluster(lowering *L, ws_builder *b, MlirValue bar, int ranks) {
  MlirValue all = lower_c32(b, -1);
  ws_build_void(b, "nvvm.bar.warp.sync", 1, &all, 0, NULL);
  MlirValue lane = ws_build_value(b, "nvvm.read.ptx.sreg.laneid", 0, NULL, L->i32, 0, NULL);
  MlirBlock then_block;
  ws_build_if(b, ws_cmpi(b, "eq", lane, lower_c32(b, 0)), &then_block, NULL);
  ws_builder t = ws_builder_before(mlirBlockGetTerminator(then_block));
  for (int rank = 0; rank < ranks; rank++) {
    MlirValue ops[2] = {bar, lower_c32(&t, rank)};
    MlirValue at = ws_build_value(&t, "nvvm.mapa", 2, ops, L->ptr_cluster, 0, NULL);
    ws_build_void(&t, "nvvm.mbarrier.arrive", 1, &at, 0, NULL);
  }
}

/* ws.arrive: the thread's mbarrier arrive (with `cluster`, on the barrier
 * of every CTA; with `leader`, on the leader's); ws.commit (sm_100a): a
 * tcgen05.commit, whose arrival lands once the thread's MMAs are done
 * (with `cluster`, multicast to the barrier of every CTA). */
static bool lower_arrive(lowering *L, ws_builder *b, MlirOperation op) {
  int ch = channel_of(L, op), full = barrier_kind(op);
  if (ch < 0 || full < 0)
    return false;
  MlirValue bar = barrier_ptr(L, b, op, ch, full);
  if (wsOperationIsA(op, "commit")) {
    bool multicast = ws_has_attr(op, "cluster");
    MlirValue ops[2] = {bar, multicast ? every_cta_mask(L, b) : (MlirValue){NULL}};
    MlirNamedAttribute group = lower_tc_group(L);
    ws_build_void(b, "nvvm.tcgen05.commit", multicast ? 2 : 1, ops, 1, &group);
  } else if (ws_has_attr(op, "cluster") || ws_has_attr(op, "leader")) {
    arrive_in_cluster(L, b, bar, ws_has_attr(op, "leader") ? 1 : ws_plan_cluster_size(&L->plan));
  } else {
    ws_build_value(b, "nvvm.mbarrier.arrive", 1, &bar, mlirIntegerTypeGet(L->ctx, 64), 0, NULL);
  }
  return true;
}

static bool lower_arrive_expect_tx(lowering *L, ws_builder *b, MlirOperation op) {
  int ch = channel_of(L, op), bytes = lower_int_attr(op, "bytes");
  if (ch < 0)
    return false;
  if (bytes < 0) {
    ws_emit_op_error(op, "needs a 'bytes' attribute (the transaction count)");
    return false;
  }
  MlirValue ops[2] = {barrier_ptr(L, b, op, ch, true), lower_c32(b, bytes)};
  ws_build_void(b, "nvvm.mbarrier.arrive.expect_tx", 2, ops, 0, NULL);
  return true;
}

/* Operands desc, coords..., slot: the coordinate count, the descriptor's
 * rank: the rank of the ring's tile, or more when the box has leading unit
 * extents that the tile drops (ws-verify checked them). */
static int tma_rank(lowering *L, MlirOperation op, int ring) {
  int rank = (int)mlirOperationGetNumOperands(op) - 2;
  int tile_rank = (int)mlirShapedTypeGetRank(L->plan.rings[ring].tile);
  if (rank < tile_rank || rank > 5) {
    ws_emit_op_error(op, "has %d coordinates for a ring of rank %d", rank, tile_rank);
    return -1;
  }
  return rank;
}

/* Extent d of the box a rank-`rank` TMA op of ring r moves. */
static int64_t tma_box_extent(const ws_ring *ring, int rank, int d) {
  int drop = rank - (int)mlirShapedTypeGetRank(ring->tile);
  return d < drop ? 1 : mlirShapedTypeGetDimSize(ring->tile, d - drop);
}

static MlirValue ring_slot_ptr(lowering *L, ws_builder *b, int r, MlirValue slot) {
  const ws_ring *ring = &L->plan.rings[r];
  return lower_slot_ptr(L, b, ring->offset, slot, ring->slot_bytes);
}

/* Box j (an i32) of a ring's slot: its shared address and its coordinates
 * (outermost first, as ws ops list them), the inner one advanced by j
 * boxes. */
static MlirValue box_at(lowering *L, ws_builder *b, MlirOperation op, int r, int rank, MlirValue j,
                        MlirValue *coords) {
  const ws_ring *ring = &L->plan.rings[r];
  for (int d = 0; d < rank; d++)
    coords[d] = mlirOperationGetOperand(op, 1 + d);
  coords[rank - 1] = ws_arith(b, "arith.addi", coords[rank - 1],
                              ws_arith(b, "arith.muli", j, lower_c32(b, ws_ring_box_cols(ring))));
  MlirValue slot = ring_slot_ptr(L, b, r, mlirOperationGetOperand(op, rank + 1));
  int box_bytes = ws_tile_bytes(ring->tile) / ws_ring_boxes(ring);
  return ws_byte_ptr(b, slot, ws_arith(b, "arith.muli", j, lower_c32(b, box_bytes)));
}

/* A split ring's share of a box: this CTA's part of the tile's rows (its
 * rank-th of cluster-size parts) moves its outer coordinate. A multicast
 * part also moves its destination within the slot, which holds the whole
 * tile in every CTA: the copy lands in each (the mask returned) and
 * completes on the slot's full barrier in each. A pair's part fills its
 * own slot, which holds just that part (no mask). */
static MlirValue split_part(lowering *L, ws_builder *b, const ws_ring *ring, int rank,
                            MlirValue *coords, MlirValue *dst) {
  int size = ws_plan_cluster_size(&L->plan);
  int rows = (int)mlirShapedTypeGetDimSize(ring->tile, 0) / size;
  int row_bytes = ws_tile_bytes(ring->tile) / ws_ring_boxes(ring) /
                  (int)mlirShapedTypeGetDimSize(ring->tile, 0);
  MlirValue me = ws_build_value(b, "nvvm.read.ptx.sreg.cluster.ctarank", 0, NULL, L->i32, 0, NULL);
  int outer = rank - (int)mlirShapedTypeGetRank(ring->tile); /* the tile's rows */
  coords[outer] =
      ws_arith(b, "arith.addi", coords[outer], ws_arith(b, "arith.muli", me, lower_c32(b, rows)));
  if (ring->split != WS_SPLIT_MULTICAST)
    return (MlirValue){NULL};
  *dst = ws_byte_ptr(b, *dst, ws_arith(b, "arith.muli", me, lower_c32(b, rows * row_bytes)));
  return every_cta_mask(L, b);
}

/* The full barrier a copy into the slot completes on: the CTA's own, or,
 * in a channel whose full barrier is the leader's, the leader's (the
 * mapa address of rank 0, which a cta_group::2 copy may signal). */
static MlirValue copy_barrier(lowering *L, ws_builder *b, const ws_channel *c, MlirValue slot) {
  MlirValue full = lower_slot_ptr(L, b, c->full, slot, 8);
  if (c->full_to != WS_REACH_LEADER)
    return full;
  MlirValue ops[2] = {full, lower_c32(b, 0)};
  MlirValue leader = ws_build_value(b, "nvvm.mapa", 2, ops, L->ptr_cluster, 0, NULL);
  MlirValue bits =
      ws_build_value(b, "llvm.ptrtoint", 1, &leader, mlirIntegerTypeGet(L->ctx, 64), 0, NULL);
  return ws_build_value(b, "llvm.inttoptr", 1, &bits, L->ptr_shared, 0, NULL);
}

/* The 64-bit L2 cache policy of a ws.tma_load with an l2 attribute (the
 * chip's encoding of createpolicy.fractional with fraction 1.0, as
 * CUTLASS's CacheHintSm90 spells it), or null. */
static MlirValue l2_cache_hint(ws_builder *b, MlirOperation op) {
  ws_l2_policy p = ws_l2_policy_of(op);
  if (p != WS_L2_FIRST && p != WS_L2_LAST)
    return (MlirValue){NULL};
  return ws_const_int(
      b, p == WS_L2_LAST ? (int64_t)0x14F0000000000000LL : (int64_t)0x12F0000000000000LL,
      mlirIntegerTypeGet(b->ctx, 64));
}

/* One TMA load per box, all completing on the slot's full barrier (a
 * split ring's: this CTA's part of each box, a multicast one into every
 * CTA; a pair's channel's, on the leader's barrier: .cta_group::2). */
static bool lower_tma_load(lowering *L, ws_builder *b, MlirOperation op) {
  int r = lower_ring_of(L, op);
  int rank = r < 0 ? -1 : tma_rank(L, op, r);
  if (rank < 0)
    return false;
  const ws_ring *ring = &L->plan.rings[r];
  const ws_channel *c = &L->plan.channels[ring->channel];
  MlirValue slot = mlirOperationGetOperand(op, rank + 1);
  MlirValue full = copy_barrier(L, b, c, slot);
  bool multicast = ring->split == WS_SPLIT_MULTICAST;
  MlirValue policy = l2_cache_hint(b, op);
  bool hint = !mlirValueIsNull(policy);
  char seg[64];
  snprintf(seg, sizeof seg, "array<i32: 1, 1, %d, 1, 0, %d, %d, 0>", rank, multicast, hint);
  MlirNamedAttribute attrs[2] = {ws_named_text(L->ctx, "operandSegmentSizes", seg),
                                 ws_named_cta_group(L->ctx, "group", 2)};
  for (int j = 0; j < ws_ring_boxes(ring); j++) {
    MlirValue ops[9], coords[5];
    MlirValue dst = box_at(L, b, op, r, rank, lower_c32(b, j), coords);
    MlirValue mask = ring->split ? split_part(L, b, ring, rank, coords, &dst) : (MlirValue){NULL};
    for (int d = 0; d < rank; d++) /* TMA takes the innermost first */
      ops[2 + d] = coords[rank - 1 - d];
    ops[0] = ws_build_value(b, "llvm.addrspacecast", 1, &dst, L->ptr_cluster, 0, NULL);
    ops[1] = mlirOperationGetOperand(op, 0);
    ops[2 + rank] = full;
    ops[3 + rank] = mask;
    ops[3 + rank + multicast] = policy;
    ws_build_void(b, "nvvm.cp.async.bulk.tensor.shared.cluster.global", 3 + rank + multicast + hint,
                  ops, c->full_to == WS_REACH_LEADER ? 2 : 1, attrs);
  }
  return true;
}

/* The store view of a store's descriptor, or of a row vector's load (null
 * after a located error). */
MlirValue lower_store_view_of(lowering *L, MlirOperation op) {
  MlirValue desc = mlirOperationGetOperand(op, 0);
  for (int v = 0; v < L->num_views; v++)
    if (mlirValueEqual(L->descs[v], desc))
      return L->views[v];
  ws_emit_op_error(op,
                   "%s through a descriptor that is not a kernel argument; pass "
                   "descriptors as gpu.func arguments",
                   wsOperationIsA(op, "load") ? "loads" : "stores");
  return (MlirValue){NULL};
}

/* The element path that stores shaped as `site` share in a kernel of many
 * stores: the function made for the first of them. */
static MlirOperation shared_element_path(lowering *L, const ws_store_site *site) {
  for (int i = 0; i < L->num_paths; i++)
    if (ws_same_element_path(&L->paths[i], site))
      return L->paths[i].element_path;
  MlirStringRef kernel = mlirStringAttrGetValue(
      mlirOperationGetAttributeByName(L->old_func, mlirStringRefCreateFromCString("sym_name")));
  char name[160];
  snprintf(name, sizeof name, "%.*s_store_elements_%d", (int)kernel.length, kernel.data,
           L->num_paths);
  L->paths = ws_grow(L->paths, &L->paths_cap, L->num_paths + 1, sizeof *L->paths);
  ws_store_site *p = &L->paths[L->num_paths++];
  *p = *site;
  p->element_path = ws_build_element_path(L->new_func, site, name);
  return p->element_path;
}

/* The exact store of each box (ws_lower_store.h). */
static bool lower_tma_store(lowering *L, ws_builder *b, MlirOperation op) {
  int r = lower_ring_of(L, op);
  int rank = r < 0 ? -1 : tma_rank(L, op, r);
  if (rank < 0)
    return false;
  const ws_ring *ring = &L->plan.rings[r];
  MlirValue desc = mlirOperationGetOperand(op, 0);
  MlirValue view = lower_store_view_of(L, op);
  if (mlirValueIsNull(view))
    return false;
  ws_store_site site = {
      .map = desc,
      .view = view,
      .rank = rank,
      .elem_bytes = wsElementTypeByteWidth(mlirShapedTypeGetElementType(ring->tile)),
      .swizzle = ring->swizzle,
      .element = mlirShapedTypeGetElementType(ring->tile),
      .add = ws_string_attr_is(op, "reduce", "add"),
  };
  for (int d = 0; d < rank; d++)
    site.box[d] = tma_box_extent(ring, rank, d);
  site.box[rank - 1] = ws_ring_box_cols(ring);
  if (L->store_sites > WS_INLINE_STORE_SITES) {
    site.element_path = shared_element_path(L, &site);
    if (mlirOperationIsNull(site.element_path)) {
      ws_emit_op_error(op, "could not build the element path its stores share");
      return false;
    }
  }
  /* a loop over the boxes, so that the element path is emitted once */
  MlirBlock body;
  ws_build_for(b, lower_c32(b, 0), lower_c32(b, ws_ring_boxes(ring)), lower_c32(b, 1), 0, NULL,
               &body);
  ws_build_terminator(body, b->loc, "scf.yield", 0, NULL);
  ws_builder in = ws_builder_before(mlirBlockGetTerminator(body));
  site.src = box_at(L, &in, op, r, rank, mlirBlockGetArgument(body, 0), site.coords);
  ws_emit_exact_store(&in, &site);
  return true;
}

/* ---- a matmul ----------------------------------------------------------- */

/* The tile type of a ws.mma's A in registers (its third operand): its own
 * type, or, when a loop carries it (a pipelined loop's P, already a
 * struct of its values), M x K of the struct's element type, K from its
 * fragment. Null when there is none. */
static MlirType register_a_tile(lowering *L, MlirOperation op) {
  if (mlirOperationGetNumOperands(op) != 3)
    return (MlirType){NULL};
  MlirValue a = mlirOperationGetOperand(op, 2);
  MlirType t = mlirValueGetType(a);
  if (mlirTypeIsARankedTensor(t))
    return t;
  const ws_fragment *f = ws_fragment_find(&L->frags, a);
  if (!f || !f->n || !mlirTypeIsALLVMStructType(t))
    return (MlirType){NULL};
  int64_t shape[2] = {mlirShapedTypeGetDimSize(mlirValueGetType(mlirOperationGetResult(op, 0)), 0),
                      f->n};
  MlirType element =
      mlirTypeIsNull(f->f8) ? mlirLLVMStructTypeGetElementType(t, 0) : f->f8; /* carried as f32 */
  return mlirRankedTensorTypeGet(2, shape, element, mlirAttributeGetNull());
}

/* The wgmma shape of a ws.mma: N from its accumulator, K from A, the
 * swizzles from its rings. Every ws.mma of a kernel shares the consumers'
 * row layout (warpgroups, rows per warpgroup), which the first one sets. */
static bool mma_shape(lowering *L, MlirOperation op, ws_mma_shape *out) {
  bool registers = !ws_has_attr(op, "ring_a");
  int ra = registers ? -1 : lower_table_index(op, "ring_a", L->plan.num_rings, "ws.rings");
  int rb = lower_table_index(op, "ring_b", L->plan.num_rings, "ws.rings");
  if ((!registers && ra < 0) || rb < 0)
    return false;
  MlirType a_tile = registers ? register_a_tile(L, op) : L->plan.rings[ra].tile;
  if (mlirTypeIsNull(a_tile)) {
    ws_emit_op_error(op, "has no ring_a, so its third operand must be A in registers");
    return false;
  }
  const ws_ring *b = &L->plan.rings[rb];
  MlirType acc = mlirValueGetType(mlirOperationGetResult(op, 0));
  bool a_m_major = !registers && ws_has_attr(op, "transpose_a");
  ws_mma_shape s = {
      .warpgroups = L->compute < 0                       ? 0
                    : L->plan.parts[L->compute].pingpong ? 1 /* each holds the whole tile */
                                                         : L->plan.parts[L->compute].num_warps / 4,
      .n = (int)mlirShapedTypeGetDimSize(acc, 1),
      .k = (int)mlirShapedTypeGetDimSize(a_tile, a_m_major ? 0 : 1),
      .element = mlirShapedTypeGetElementType(a_tile),
      .form = ws_mma_find_form(ws_mma_engine_of(op), mlirShapedTypeGetElementType(a_tile),
                               mlirShapedTypeGetElementType(b->tile)),
      .swizzle = registers ? 0 : L->plan.rings[ra].swizzle,
      .a_m_major = a_m_major,
      .b_n_major = !ws_has_attr(op, "transpose_b"),
      .b_swizzle = b->swizzle,
      .warp_rows = 16,
      .part_rows = 64,
      .col_groups = 1,
  };
  int eb = wsElementTypeByteWidth(s.element);
  int m = (int)mlirShapedTypeGetDimSize(acc, 0);
  s.rows = s.warpgroups ? m / s.warpgroups : 0;
  s.parts = s.rows / 64;
  s.per_thread = s.parts * s.n / 2;
  int b_rows = s.b_n_major ? s.k : s.n, b_cols = s.b_n_major ? s.n : s.k;
  /* an M-major A: each m64 part is one 128-byte box (16-bit) */
  bool a_fits = registers || (a_m_major ? s.swizzle == 128 && 64 * eb == 128 &&
                                              mlirShapedTypeGetDimSize(a_tile, 1) == m
                                        : s.swizzle == ws_swizzle_span(s.k * eb));
  bool fits = s.form && s.warpgroups && s.rows * s.warpgroups == m && s.rows % 64 == 0 &&
              s.per_thread <= WS_MAX_FRAGMENT && a_fits &&
              b->swizzle == (s.b_n_major ? ws_swizzle_span(s.n * eb) : ws_swizzle_span(s.k * eb)) &&
              b->swizzle && mlirShapedTypeGetDimSize(b->tile, 0) == b_rows &&
              mlirShapedTypeGetDimSize(b->tile, 1) == b_cols;
  if (!fits) {
    ws_emit_op_error(op, "does not match its rings and warpgroups: wgmma needs "
                         "A and B of one of its forms, "
                         "A (M x K, or K x M with transpose_a) swizzled by its K row (M "
                         "boxes of 128 bytes) or in registers, B (N x K with "
                         "transpose_b, else K x N) swizzled by its K row or N boxes, and "
                         "64 or 128 rows of M per consumer warpgroup");
    return false;
  }
  if (L->matmul && (s.warpgroups != L->frags.layout.warpgroups || s.rows != L->frags.layout.rows)) {
    ws_emit_op_error(op, "has another row layout than the kernel's other ws.mma");
    return false;
  }
  if (!L->matmul)
    L->frags.layout = s;
  L->matmul = true;
  *out = s;
  return true;
}

/* The thread's index among the consumers that share one accumulator: all
 * of them, or its own warpgroup's when they take alternate tiles
 * (ping-pong, where each warpgroup holds the whole tile). */
MlirValue lower_mma_thread(lowering *L, ws_builder *b) {
  if (L->compute >= 0 && L->plan.parts[L->compute].pingpong)
    return ws_arith(b, "arith.remui", L->tiles.tid, lower_c32(b, 128));
  return L->tiles.tid;
}

/* The shared-window address of a ring's slot, as wgmma descriptors take it. */
MlirValue lower_slot_address(lowering *L, ws_builder *b, int r, MlirValue slot) {
  return ws_build_value(b, "llvm.ptrtoint", 1, (MlirValue[]){ring_slot_ptr(L, b, r, slot)}, L->i32,
                        0, NULL);
}

/* The accumulator a ws.mma starts from, as a struct: carried (already a
 * struct), a tile in registers (packed), or a splat; *zero when it is a
 * splat of 0.0, which wgmma's first K step ignores (scale-d 0). */
static MlirValue mma_acc(lowering *L, ws_builder *b, MlirOperation op, const ws_mma_shape *s,
                         bool *zero) {
  MlirValue acc = mlirOperationGetOperand(op, 1);
  MlirType type = ws_mma_acc_type(L->ctx, s);
  *zero = false;
  if (mlirTypeEqual(mlirValueGetType(acc), type))
    return acc;
  if (!ws_fragment_find(&L->frags, acc) && ws_is_zero_splat(acc)) {
    *zero = true;
    return ws_build_value(b, "llvm.mlir.undef", 0, NULL, type, 0, NULL);
  }
  return ws_fragment_struct(&L->frags, b, acc, type, op);
}

/* ws.mma: wgmma of A (ring_a's slot: the B slot, or the third operand; or
 * registers) by ring_b's slot. The result is the wgmma's struct; its
 * values are the fragment of the tile for the math that reads it. */
static bool lower_mma(lowering *L, ws_builder *b, MlirOperation op) {
  ws_mma_shape s;
  bool zero;
  if (!mma_shape(L, op, &s))
    return false;
  MlirValue acc = mma_acc(L, b, op, &s, &zero);
  if (mlirValueIsNull(acc))
    return false;
  int rb = ws_int_attr(op, "ring_b", 0);
  MlirValue slot = mlirOperationGetOperand(op, 0);
  MlirValue d;
  if (ws_has_attr(op, "ring_a")) {
    MlirValue a_slot = mlirOperationGetNumOperands(op) == 3 ? mlirOperationGetOperand(op, 2) : slot;
    d = ws_emit_wgmma(b, &s, L->warpgroup,
                      lower_slot_address(L, b, ws_int_attr(op, "ring_a", 0), a_slot),
                      lower_slot_address(L, b, rb, slot), acc, zero);
  } else {
    ws_fragment *a = ws_fragment_find(&L->frags, mlirOperationGetOperand(op, 2));
    MlirType e = a ? mlirValueGetType(a->values[0]) : (MlirType){NULL};
    bool fits = a && a->n == s.k &&
                (!mlirTypeIsNull(a->f8) ? mlirTypeEqual(a->f8, s.element)
                                        : mlirTypeIsAF16(e) || mlirTypeIsABF16(e));
    if (!fits) {
      ws_emit_op_error(op, "takes A from registers, which must be an M x K tile the "
                           "consumers computed: f16 or bf16, or f32 truncated to FP8");
      return false;
    }
    if (zero)
      acc = ws_build_value(b, "llvm.mlir.zero", 0, NULL, ws_mma_acc_type(L->ctx, &s), 0, NULL);
    d = ws_emit_wgmma_rs(b, &s, a->values, lower_slot_address(L, b, rb, slot), acc);
  }
  MlirValue result = mlirOperationGetResult(op, 0);
  ws_fragment *f = ws_fragment_new(&L->frags, result);
  if (f) { /* unpacked where it is made; read after the wgmma wait */
    ws_fragment_unpack(b, d, f);
    f->tile = d;
  }
  mlirValueReplaceAllUsesOfWith(result, d);
  return true;
}

/* Any result a tile (an scf.for carrying an accumulator). */
static bool has_tile_results(MlirOperation op) {
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
    if (mlirTypeIsARankedTensor(mlirValueGetType(mlirOperationGetResult(op, r))))
      return true;
  return false;
}

static bool has_tile_operands(MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
    if (mlirTypeIsARankedTensor(mlirValueGetType(mlirOperationGetOperand(op, i))))
      return true;
  return false;
}

/* ---- the kernel -------------------------------------------------------- */

/* "ptr" for descriptors, the LLVM spelling of scalars otherwise. */
static bool llvm_arg_type(MlirType t, char *buf, size_t cap) {
  if (wsTypeIsATensorDesc(t)) {
    snprintf(buf, cap, "ptr");
    return true;
  }
  if (wsTypeIsAKernelArray(t)) {
    snprintf(buf, cap, WS_KERNEL_ARRAY_PARAMS);
    return true;
  }
  if (mlirTypeIsAIndex(t)) { /* as upstream's GPU lowering passes it */
    snprintf(buf, cap, "i64");
    return true;
  }
  if (mlirTypeIsAInteger(t) || mlirTypeIsAF32(t) || mlirTypeIsAF16(t) || mlirTypeIsABF16(t) ||
      mlirTypeIsAF64(t)) {
    ws_type_str(t, buf, cap);
    return true;
  }
  return false;
}

/* An index argument arrives as i64: its uses read it through a cast back
 * to index, which the upstream lowering of index to i64 folds away. */
static void pass_index_as_i64(lowering *L, MlirBlock entry, MlirValue arg) {
  ws_builder b = ws_builder_before(mlirBlockGetFirstOperation(entry));
  MlirValue as_index = ws_build_value(&b, "builtin.unrealized_conversion_cast", 1, &arg,
                                      mlirIndexTypeGet(L->ctx), 0, NULL);
  MlirOperation cast = mlirOpResultGetOwner(as_index);
  mlirValueReplaceAllUsesOfWith(arg, as_index);
  mlirOperationSetOperand(cast, 0, arg);
  mlirValueSetType(arg, mlirIntegerTypeGet(L->ctx, 64));
}

/* The bytes the kernel's parameters take, each at its alignment: a
 * tensor map's 128 (64-aligned), a store view's 96, an array's address and
 * count, a scalar's 4 or 8. False, after a located error with the
 * arithmetic, when they pass the chip's budget. */
static bool check_param_bytes(lowering *L, MlirBlock entry) {
  long long bytes = 0;
  int maps = 0, views = 0, arrays = 0, scalars = 0;
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(entry); i++) {
    MlirValue arg = mlirBlockGetArgument(entry, i);
    MlirType t = mlirValueGetType(arg);
    int size = 8, align = 8;
    if (wsTypeIsATensorDesc(t)) {
      size = 128, align = 64, maps++;
      if (ws_desc_has_view(arg)) {
        bytes = (bytes + align - 1) / align * align + size;
        size = 96, align = 8, views++;
      }
    } else if (wsTypeIsAKernelArray(t)) {
      size = 16, arrays++;
    } else {
      scalars++;
      if (mlirTypeIsAInteger(t) || mlirTypeIsAFloat(t))
        size = align = mlirTypeIsAInteger(t) ? (int)mlirIntegerTypeGetWidth(t) / 8
                                             : (int)mlirFloatTypeGetWidth(t) / 8;
    }
    bytes = (bytes + align - 1) / align * align + size;
  }
  const ws_target *target = ws_target_of(L->old_func);
  int budget = target ? target->param_bytes : 4096;
  if (bytes <= budget)
    return true;
  char chip[64];
  ws_emit_op_error(L->old_func,
                   "takes %lld bytes of parameters (%d tensor maps of 128 bytes, %d store views "
                   "of 96, %d arrays of 16, %d scalars, each aligned), more than the %d a "
                   "kernel's parameters may take on %s; pass fewer arguments",
                   bytes, maps, views, arrays, scalars, budget,
                   ws_target_chip(L->old_func, chip, sizeof chip));
  return false;
}

/* Turns the gpu.func into an llvm.func that takes over its body: the entry
 * block's descriptor arguments become pointers, each stored one followed by
 * its store view. */
static bool create_function(lowering *L) {
  MlirRegion old_body = mlirOperationGetRegion(L->old_func, 0);
  MlirBlock entry = mlirRegionGetFirstBlock(old_body);
  intptr_t n = mlirBlockGetNumArguments(entry);
  if (!check_param_bytes(L, entry))
    return false;
  L->descs = ws_zalloc((size_t)n, sizeof *L->descs);
  L->views = ws_zalloc((size_t)n, sizeof *L->views);
  char ty[64];
  ws_text sig_t, attrs_t; /* as long as the kernel has arguments */
  ws_text_grown(&sig_t);
  ws_text_grown(&attrs_t);
  ws_text_appendf(&sig_t, "!llvm.func<void (");
  ws_text_appendf(&attrs_t, "[");
  for (intptr_t i = 0; i < n; i++) {
    MlirValue arg = mlirBlockGetArgument(entry, i);
    MlirType t = mlirValueGetType(arg);
    if (!llvm_arg_type(t, ty, sizeof ty)) {
      char tb[64];
      ws_emit_error_at(mlirValueGetLocation(arg),
                       "kernel argument of type %s "
                       "cannot be passed to the lowered kernel; use i32, i64, index, "
                       "a float type, or memref<?xi32> or memref<?xf32> (an array read "
                       "with memref.load)",
                       ws_type_str(t, tb, sizeof tb));
      return false;
    }
    bool desc = wsTypeIsATensorDesc(t);
    ws_text_appendf(&sig_t, "%s%s", i ? ", " : "", ty);
    ws_text_appendf(&attrs_t, "%s%s", i ? ", " : "",
                    desc ? "{llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, "
                           "nvvm.grid_constant}"
                    : wsTypeIsAKernelArray(t) ? WS_KERNEL_ARRAY_PARAM_ATTRS
                                              : "{}");
    if (desc && ws_desc_has_view(arg)) { /* its store view follows it */
      ws_text_appendf(&sig_t, ", ptr");
      ws_text_appendf(&attrs_t,
                      ", {llvm.align = 8 : i64, llvm.byval = "
                      "!llvm.array<%d x i64>, nvvm.grid_constant}",
                      WS_STORE_VIEW_WORDS);
    }
  }
  ws_text_appendf(&sig_t, ")>");
  ws_text_appendf(&attrs_t, "]");
  /* Retype in place; inserting views shifts the arguments after them. */
  MlirType ptr = ws_type(L->ctx, "!llvm.ptr");
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(entry); i++) {
    MlirValue arg = mlirBlockGetArgument(entry, i);
    if (mlirTypeIsAIndex(mlirValueGetType(arg)))
      pass_index_as_i64(L, entry, arg);
    if (wsTypeIsAKernelArray(mlirValueGetType(arg))) {
      ws_pass_kernel_array(entry, arg);
      i++; /* past its count */
      continue;
    }
    if (!wsTypeIsATensorDesc(mlirValueGetType(arg)))
      continue;
    bool view = ws_desc_has_view(arg);
    mlirValueSetType(arg, ptr);
    if (view) {
      L->descs[L->num_views] = arg;
      L->views[L->num_views++] =
          mlirBlockInsertArgument(entry, ++i, ptr, mlirValueGetLocation(arg));
    }
  }
  MlirAttribute name =
      mlirOperationGetAttributeByName(L->old_func, mlirStringRefCreateFromCString("sym_name"));
  char threads[64], maxnreg[32];
  snprintf(threads, sizeof threads, "array<i32: %d>", L->plan.block_threads);
  snprintf(maxnreg, sizeof maxnreg, "%d : i32", L->plan.maxnreg);
  MlirNamedAttribute attrs[9] = {
      ws_named(L->ctx, "sym_name", name),
      ws_named_text(L->ctx, "function_type", sig_t.buf),
      ws_named_text(L->ctx, "arg_attrs", attrs_t.buf),
      ws_named_text(L->ctx, "linkage", "#llvm.linkage<external>"),
      ws_named_text(L->ctx, "CConv", "#llvm.cconv<ccc>"),
      ws_named(L->ctx, "nvvm.kernel", mlirUnitAttrGet(L->ctx)),
      ws_named_text(L->ctx, "nvvm.maxnreg", maxnreg),
      ws_named_text(L->ctx, "nvvm.reqntid", threads),
      {{NULL}, {NULL}},
  };
  int num_attrs = 8;
  char cluster[64];
  if (ws_plan_cluster_size(&L->plan) > 1) { /* .reqnctapercluster: any launch makes clusters */
    snprintf(cluster, sizeof cluster, "array<i32: %d, %d, 1>", L->plan.cluster[0],
             L->plan.cluster[1]);
    attrs[num_attrs++] = ws_named_text(L->ctx, "nvvm.cluster_dim", cluster);
  }
  ws_builder before = ws_builder_before(L->old_func);
  L->new_func = ws_build(&before, "llvm.func", 0, NULL, 0, NULL, num_attrs, attrs, 1);
  mlirRegionTakeBody(mlirOperationGetRegion(L->new_func, 0), old_body);
  ws_text_release(&sig_t);
  ws_text_release(&attrs_t);
  return true;
}

/* The dynamic shared-memory arena: one external, 1024-aligned array. */
static void ensure_smem_global(lowering *L, MlirOperation module) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute sym =
        mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("sym_name"));
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

/* The PTX version the chip's lowering needs (ws_target.h: setmaxnreg and
 * TMA, tcgen05). */
static void set_target_features(MlirOperation module) {
  char chip[64], text[320];
  const ws_target *target = ws_target_find(ws_target_chip(module, chip, sizeof chip));
  if (!target)
    return; /* ws-verify refused it */
  snprintf(text, sizeof text, "[#nvvm.target<O = 3, chip = \"%s\", features = \"%s\">]",
           target->chip, target->ptx_features);
  MlirAttribute a =
      mlirAttributeParseGet(mlirOperationGetContext(module), mlirStringRefCreateFromCString(text));
  if (!mlirAttributeIsNull(a))
    mlirOperationSetAttributeByName(module, mlirStringRefCreateFromCString("targets"), a);
}

typedef bool (*op_lowering)(lowering *, ws_builder *, MlirOperation);

/* Each protocol op and its rewrite. */
static const struct {
  const char *name;
  op_lowering lower;
} protocol_lowerings[] = {
    {"init_barrier", lower_init_barrier},
    {"slot_phase", lower_slot_phase},
    {"wait", lower_wait},
    {"arrive", lower_arrive},
    {"arrive_expect_tx", lower_arrive_expect_tx},
    {"tma_load", lower_tma_load},
    {"tma_store", lower_tma_store},
    {"read_slot", lower_read_slot},
    {"write_slot", lower_write_slot},
    {"mma", lower_mma},
    {"mma_done", lower_mma_done},
    {"split_k_sum", lower_k_sum},
    {"stream_k_sum", lower_k_sum},
    {"stream_k_unit", lower_stream_k_unit},
    {"broadcast", lower_row_op},
    {"reduce", lower_row_op},
    {"store", lower_row_vector_access},
    {"load", lower_row_vector_access},
    {"iota", lower_iota},
    {"tmem_alloc", lower_tmem_alloc},
    {"tmem_dealloc", lower_tmem_dealloc},
    {"commit", lower_arrive},
    {"tc_mma", lower_tc_mma},
    {"tmem_copy", lower_tmem_copy},
    {"tmem_load", lower_tmem_load},
};

static op_lowering protocol_lowering(MlirOperation op) {
  for (size_t i = 0; i < sizeof protocol_lowerings / sizeof protocol_lowerings[0]; i++)
    if (wsOperationIsA(op, protocol_lowerings[i].name))
      return protocol_lowerings[i].lower;
  return NULL;
}

/* Rewrites one op in place (replacements before it); false after an
 * error. Ops that stay as they are return true without being marked dead. */
static bool rewrite_op(lowering *L, MlirOperation op) {
  ws_builder b = ws_builder_before(op);
  b.loc = mlirOperationGetLocation(op);
  op_lowering lower = protocol_lowering(op);
  bool ok;
  if (lower)
    ok = lower(L, &b, op);
  else if (wsOperationIsInDialect(op)) {
    ws_emit_op_error(op, "is outside any warp-specialized loop and cannot be "
                         "lowered; mark its loop ws.warp_specialize");
    return false;
  } else if (ws_op_is(op, "memref.load") || ws_op_is(op, "memref.dim")) {
    ok = ws_lower_kernel_array_op(&b, op);
  } else if (ws_op_is(op, "gpu.return")) {
    ws_build_void(&b, "llvm.return", 0, NULL, 0, NULL);
    ok = true;
  } else if (ws_op_is(op, "scf.for") && has_tile_results(op)) {
    return L->matmul ? ws_fragments_carried_loop(&L->frags, op)
                     : ws_tiles_carried_loop(&L->tiles, op);
  } else if (!L->matmul && ws_op_is(op, "scf.yield") && has_tile_operands(op)) {
    return ws_tiles_yield(&L->tiles, op);
  } else if (L->matmul && ws_op_is(op, "scf.if") && has_tile_results(op)) {
    return ws_fragments_carried_if(&L->frags, op);
  } else if (L->matmul && ws_op_is(op, "tensor.extract")) {
    ok = true; /* its value was loaded with its tile (lower_read_elements) */
  } else if (L->matmul && ws_op_is(op, "scf.yield")) {
    return ws_fragments_yield(&L->frags, op);
  } else if (L->matmul && ws_has_tile_result(op)) {
    /* splats are rebuilt where they are used (ws_splat_scalar rejects others) */
    ok = ws_op_is(op, "arith.constant") || ws_op_is(op, "tensor.splat") ||
         ws_fragments_elementwise(&L->frags, &b, op);
  } else if (ws_has_tile_result(op)) {
    ok = ws_tiles_vectorize(&L->tiles, &b, op);
  } else {
    return true;
  }
  if (ok)
    ws_op_list_push(&L->dead, op);
  return ok;
}

static MlirWalkResult collect_op(MlirOperation op, void *user_data) {
  lowering *L = user_data;
  if (!mlirOperationEqual(op, L->new_func))
    ws_op_list_push(&L->ops, op);
  return MlirWalkResultAdvance;
}

/* Registers per thread of a consumer tile in wgmma's accumulator layout
 * over *ctx threads: an M x N tile M N / threads values, a 1 x M row
 * vector 4 M / threads (a quad shares each row), a broadcast or an iota
 * none; 16-bit values pair up. */
static int fragment_registers(MlirValue tile, const void *ctx) {
  int threads = *(const int *)ctx;
  MlirType t = mlirValueGetType(tile);
  if (mlirShapedTypeGetRank(t) != 2 || threads <= 0 ||
      (mlirValueIsAOpResult(tile) && wsOperationIsA(mlirOpResultGetOwner(tile), "broadcast")) ||
      ws_is_index_tile(tile) || ws_is_index_mask(tile))
    return 0; /* a broadcast reads its row vector's registers; index tiles
                 (an iota, math on it) are rebuilt from the thread index
                 where a compare uses them, and their masks tested once per
                 tile (uniform_select.c) */
  int64_t rows = mlirShapedTypeGetDimSize(t, 0), cols = mlirShapedTypeGetDimSize(t, 1);
  int64_t values = rows == 1 ? 4 * cols / threads : rows * cols / threads;
  MlirType e = mlirShapedTypeGetElementType(t);
  int bytes =
      mlirTypeIsAInteger(e) && mlirIntegerTypeGetWidth(e) == 1 ? 1 : wsElementTypeByteWidth(e);
  return (int)((values * (bytes ? bytes : 4) + 3) / 4);
}

/* --ws-explain adds up the compute warps' live tiles against the
 * registers setmaxnreg gives them: a matmul's consumer fragments (the
 * accumulators, an attention kernel's S, P, O and row vectors), or an
 * elementwise kernel's chunks (after ws_tiles_layout). An estimate (LLVM
 * fuses elementwise chains, ptxas allocates), so a remark, not a refusal. */
static void explain_register_pressure(lowering *L, const ws_partition *c) {
  int budget = c->registers ? c->registers : L->plan.maxnreg;
  if (!L->matmul) {
    ws_tiles_explain_pressure(&L->tiles, L->ops.items, L->ops.len, budget, L->explain);
    return;
  }
  int threads = c->pingpong ? 128 : c->num_warps * 32;
  ws_register_pressure p = {.registers_of = fragment_registers,
                            .ctx = &threads,
                            .who = "the consumer warpgroups' tiles",
                            .budget = budget};
  ws_explain_register_pressure(&p, L->ops.items, (size_t)L->ops.len, L->explain);
}

/* The kernel's entry: the arena's address, the thread index, for a
 * kernel whose wgmma reads A from shared memory the warpgroup whose rows
 * of A the thread's wgmma reads (tid / 128, broadcast from lane 0 so that
 * ptxas knows it is the same in every lane and keeps each wgmma descriptor
 * built from it in uniform registers: computed from the thread index
 * itself, each descriptor took a 64-bit add and two moves into uniform
 * registers before every wgmma, 28 more instructions a K step in a
 * 128x128 tile's consumer warp; 0 under ping-pong, where each warpgroup
 * holds a whole tile), and whether this thread's last chunk lies inside
 * the tile. */
static void emit_entry(lowering *L) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(L->new_func, 0));
  ws_builder b = ws_builder_before(mlirBlockGetFirstOperation(entry));
  b.loc = L->loc;
  MlirNamedAttribute global = ws_named_text(L->ctx, "global_name", "@ws_smem");
  L->tiles.smem = ws_build_value(&b, "llvm.mlir.addressof", 0, NULL, L->ptr_shared, 1, &global);
  L->tiles.tid = ws_build_value(&b, "nvvm.read.ptx.sreg.tid.x", 0, NULL, L->i32, 0, NULL);
  if (L->compute_parts > 1) /* each compute partition's threads hold its tiles from 0 on */
    L->tiles.tid = ws_arith(&b, "arith.remui", L->tiles.tid,
                            lower_c32(&b, L->plan.parts[L->compute].num_warps * 32));
  bool pingpong = L->compute >= 0 && L->plan.parts[L->compute].pingpong;
  for (long i = 0; i < L->ops.len; i++)
    if (wsOperationIsA(L->ops.items[i], "mma") && ws_has_attr(L->ops.items[i], "ring_a")) {
      L->warpgroup =
          pingpong
              ? lower_c32(&b, 0)
              : ws_shuffle(&b, "idx", ws_arith(&b, "arith.divui", L->tiles.tid, lower_c32(&b, 128)),
                           lower_c32(&b, 0));
      break;
    }
  ws_tiles_entry(&L->tiles, &b);
}

/* Every compute partition lays out its tiles as the first does (one
 * layout for the kernel's tile ops), over its own threads from thread 0:
 * so each has the first one's warps and starts at a multiple of them, as
 * ws-insert-barriers lays them out. */
static bool check_compute_parts(lowering *L) {
  for (int p = 0; p < L->plan.num_parts; p++) {
    const ws_partition *c = &L->plan.parts[p];
    if (c->role != WS_ROLE_COMPUTE)
      continue;
    int warps = L->plan.parts[L->compute].num_warps;
    if (c->num_warps != warps || c->first_warp % warps) {
      ws_emit_op_error(L->plan.tables,
                       "has compute partition \"%s\" of %d warps from warp %d; every compute "
                       "partition has the first one's %d warps, from a multiple of them",
                       c->name, c->num_warps, c->first_warp, warps);
      return false;
    }
    L->compute_parts++;
  }
  return true;
}

static bool lower_with(lowering *L, MlirOperation func) {
  MlirOperation loop;
  if (ws_marked_loops(func, &loop, 1) == 1) {
    ws_emit_op_error(loop, "is marked ws.warp_specialize but was not planned; "
                           "run ws-partition-schedule, ws-plan-memory, "
                           "ws-insert-barriers and ws-specialize first (or see their "
                           "remarks)");
    return false;
  }
  if (!ws_plan_read_kernel(func, &L->plan) || !ws_plan_check(&L->plan))
    return false;
  if (!L->plan.maxnreg || !L->plan.block_threads) {
    ws_emit_op_error(func, "has no register cap or block size; run "
                           "ws-insert-barriers");
    return false;
  }
  L->old_func = func;
  L->compute = ws_plan_find_role(&L->plan, WS_ROLE_COMPUTE);
  if (!check_compute_parts(L))
    return false;
  L->loc = mlirOperationGetLocation(func);
  L->ctx = mlirOperationGetContext(func);
  L->i32 = mlirIntegerTypeGet(L->ctx, 32);
  L->ptr_shared = ws_type(L->ctx, "!llvm.ptr<3>");
  L->ptr_cluster = ws_type(L->ctx, "!llvm.ptr<7>");
  mlirOperationWalk(func, collect_op, L, MlirWalkPreOrder);
  for (long i = 0; i < L->ops.len; i++)
    L->store_sites += wsOperationIsA(L->ops.items[i], "tma_store");
  for (long i = 0; i < L->ops.len; i++)
    if (wsOperationIsA(L->ops.items[i], "mma") &&
        !mma_shape(L, L->ops.items[i], &(ws_mma_shape){0}))
      return false;
  if (L->plan.tmem.tile.ptr && L->compute >= 0) { /* the epilogue reads tensor memory */
    L->frags.layout =
        ws_tcgen05_layout(L->ctx, L->plan.parts[L->compute].num_warps / 4, L->plan.tmem.columns);
    L->matmul = true;
  }
  L->frags.ctx = L->ctx;
  L->tiles.ctx = L->ctx;
  L->tiles.i32 = L->i32;
  L->tiles.scratch = L->plan.row_scratch;
  const ws_partition *c = L->compute >= 0 ? &L->plan.parts[L->compute] : NULL;
  bool laid_out = L->matmul || !c ||
                  ws_tiles_layout(&L->tiles, c->num_warps * 32, L->ops.items, L->ops.len,
                                  L->plan.row_scratch_bytes);
  if (laid_out && c && L->explain)
    explain_register_pressure(L, c);
  if (!laid_out || !create_function(L))
    return false;
  MlirOperation module = mlirOperationGetParentOperation(func);
  ensure_smem_global(L, module);
  emit_entry(L);
  bool ok = true;
  for (long i = 0; i < L->ops.len && ok; i++)
    ok = rewrite_op(L, L->ops.items[i]);
  if (!ok)
    return false;
  for (size_t i = L->dead.len; i-- > 0;)
    mlirOperationDestroy(L->dead.items[i]);
  set_target_features(module);
  mlirOperationDestroy(L->old_func);
  return true;
}

/* The lowering state is large (register tiles): one heap copy per kernel,
 * so concurrent pass instances share nothing. */
static bool lower_kernel(MlirOperation func, const ws_pass_env *explain) {
  lowering *state = calloc(1, sizeof *state);
  if (!state) {
    ws_emit_op_error(func, "out of memory while lowering");
    return false;
  }
  state->explain = explain;
  bool ok = lower_with(state, func);
  ws_tiles_free(&state->tiles);
  ws_fragments_free(&state->frags);
  ws_op_list_free(&state->ops);
  ws_op_list_free(&state->dead);
  ws_plan_release(&state->plan);
  free(state->paths);
  free(state->descs);
  free(state->views);
  free(state);
  return ok;
}

typedef struct kernel_list {
  ws_op_list kernels; /* grows: a module may hold any number of kernels */
  bool stray;         /* a ws op outside any kernel the lowering visits */
  MlirOperation first_stray;
} kernel_list;

/* Specialized kernels, kernels with a marked loop left, and ws ops
 * anywhere else. */
static MlirWalkResult collect_kernel(MlirOperation op, void *user_data) {
  kernel_list *k = user_data;
  if (ws_op_is(op, "gpu.func")) {
    MlirOperation loop;
    if (ws_is_specialized_kernel(op) || ws_marked_loops(op, &loop, 1)) {
      ws_op_list_push(&k->kernels, op);
      return MlirWalkResultSkip;
    }
  } else if (wsOperationIsInDialect(op) && !k->stray) {
    k->stray = true;
    k->first_stray = op;
  }
  return MlirWalkResultAdvance;
}

static bool run_lower(MlirOperation root, const ws_pass_options *opts, const ws_pass_env *env) {
  if (!ws_verify_root(root, ""))
    return false;
  kernel_list k = {.stray = false};
  mlirOperationWalk(root, collect_kernel, &k, MlirWalkPreOrder);
  bool ok = !k.stray;
  if (k.stray)
    ws_emit_op_error(k.first_stray, "is outside any warp-specialized loop "
                                    "and cannot be lowered; mark its loop "
                                    "ws.warp_specialize");
  for (long i = 0; !k.stray && i < k.kernels.len; i++)
    ok &= lower_kernel(k.kernels.items[i], ws_option_bool(opts, "explain") ? env : NULL);
  ws_op_list_free(&k.kernels);
  if (ok)
    ws_lower_fast_math(root);
  return ok;
}

static MlirDialectHandle (*const lowered_dialects[])(void) = {mlirGetDialectHandle__llvm__,
                                                              mlirGetDialectHandle__nvvm__};

static const ws_option_spec lower_options[] = {
    {"explain", WS_OPTION_BOOL, "false",
     "remark on the registers the compute partition's live tiles need at their peak", NULL, 0, 0},
};

const ws_pass_def ws_lower_to_nvvm_pass_def = {
    .argument = "ws-lower-to-nvvm",
    .summary = "Rewrite each op of a specialized kernel (ws.wait, ws.tma_load, "
               "tiles...) into nvvm/llvm/scf/arith ops: an llvm.func kernel",
    WS_PASS_OPTIONS(lower_options),
    .run = run_lower,
    .dependent_dialects = lowered_dialects,
    .num_dependent_dialects = 2,
};
