/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* specialize.c: ws-specialize, which replaces a planned loop (its
 * protocol fixed by ws-insert-barriers) by one branch per partition, each with its own copy of the
 * loop and every step of the protocol as an op at the place it runs:
 *
 *   %tid = nvvm.read.ptx.sreg.tid.x, %warp = %tid / 32
 *   scf.if %tid == 0 { ws.init_barrier (each channel's full and empty
 *                      barriers); nvvm.fence.mbarrier.init }
 *   nvvm.barrier0 (a cluster kernel: nvvm.cluster.arrive.relaxed and wait;
 *                  with tensor memory, nvvm.cluster.arrive and wait)
 *   scf.if %warp < compute warps {                     compute partition
 *     nvvm.setmaxregister increase
 *     scf.for ... iter_args(%n = 0) {
 *       each incoming channel: ws.spec_slot_phase, ws.wait full, ws.read_slot of
 *         its rings, nvvm.fence.proxy (TMA refills the slot), ws.arrive empty
 *       the partition's ops
 *       each outgoing channel: ws.spec_slot_phase, ws.wait empty, ws.write_slot,
 *         nvvm.fence.proxy (a TMA store reads the slot), ws.arrive full
 *     }
 *   } else {
 *     nvvm.setmaxregister decrease
 *     scf.if %warp == its warp && nvvm.elect.sync {     each load partition
 *       scf.for { ws.spec_slot_phase, ws.wait empty, ws.arrive_expect_tx,
 *                 ws.tma_load of each ring }
 *     }
 *     scf.if %warp == its warp && nvvm.elect.sync {     each store partition
 *       scf.for { ws.spec_slot_phase, ws.wait full, ws.tma_store of each ring,
 *                 bulk commit, bulk wait_group.read drain, ws.arrive empty
 *                 on the slot stored drain iterations ago }
 *       bulk wait_group 0
 *     }
 *   }
 *
 * On sm_100a a matmul has an MMA partition (one warp) and tensor memory:
 *
 *   scf.if %warp == mma warp { ws.tmem_alloc; relinquish; tcgen05.fence
 *                              before }   (before nvvm.barrier0; after it,
 *                              every thread: tcgen05.fence spec_after)
 *   compute (the epilogue): ws.wait full of the accumulator channel,
 *     tcgen05.fence spec_after, ws.tmem_load, tcgen05.fence before, ws.arrive
 *     empty, then the epilogue as above
 *   scf.if %warp == mma warp && elected { ws.wait empty of the accumulator
 *     buffer, tcgen05.fence spec_after, scf.for { ws.wait full, [ws.tmem_copy of
 *     each block-scale ring,] ws.tc_mma, ws.commit empty }, ws.commit full
 *     of the accumulator buffer }
 *   tcgen05.fence before; nvvm.barrier0; scf.if %warp == mma warp {
 *     tcgen05.fence spec_after; ws.tmem_dealloc }
 *
 * A C tile held in parts (ws_ring.parts: store-boxes) goes through its
 * channel one part per iteration: the compute partition waits, writes
 * (ws.write_slot {part = j}), fences and publishes part j before part
 * j + 1 (publish_parts), and the store warp waits for each part and stores
 * it at the tile's column plus the part's, a bulk group each (store_parts).
 *
 * A cluster kernel (ws.cluster) releases its cluster channels' slots with
 * ws.arrive {cluster}, an arrival on the barrier of every CTA, and ends
 * with a cluster barrier, so that no CTA exits while a peer may still
 * write into its slots or arrive on its barriers. A pair on sm_100a (a
 * ring split "pair") issues one MMA for both CTAs from the leader:
 *
 *   load: scf.if %rank == 0 { ws.arrive_expect_tx } (the pair's bytes, on
 *     the leader's barrier, where both CTAs' ws.tma_load complete), then
 *     after its loop ws.wait empty of its last depth iterations (the
 *     leader's commits land asynchronously, also in the peer)
 *   mma: scf.if %rank == 0 { the loop above, its ws.commit {cluster} }
 *   epilogue: ws.arrive {leader} on the accumulator's empty barrier
 *   the dealloc's barrier is the cluster's, and the exit
 *
 * %n counts iterations; ws.slot_phase turns it into a slot and a phase.
 * Barriers and slots are named by index into the kernel's ws.channels and
 * ws.rings, so ws-lower-to-nvvm rewrites each op on its own. Structure is
 * scf and upstream nvvm wherever an op needs no plan table.
 *
 * Every kernel goes through the one slicer: its crossings become tagged
 * protocol ops in the loop (rewrite_crossings.c, with the wgmma consumers'
 * side in rewrite_wgmma.c and tensor memory's in rewrite_tcgen05.c), then
 * each partition's branch keeps its own ops (slice.c). A K loop with two
 * stages gives its consumers a rotated loop of their own, built whole
 * (specialize_lag.c, specialize_pipeline.c).
 *
 * This file holds the pass, the frame (barrier inits, the partitions'
 * branches, the exit) and the value map; the rest is by concern:
 * specialize_protocol.c (the protocol ops), specialize_partitions.c (the
 * TMA warps' bulk groups, the channel transfers), specialize_matmul.c
 * (the wgmma ops, turns, the prologue's slots), specialize_tcgen05.c
 * (tensor memory's allocation), all through specialize_internal.h. */
#include "specialize_internal.h"

static size_t value_hash(MlirValue v) {
  uintptr_t p = (uintptr_t)v.ptr;
  return (size_t)((p >> 3) * 0x9E3779B97F4A7C15ull);
}

/* The slot holding `v`, or the empty slot where it would go. */
struct mapped *spec_map_find(const value_map *m, MlirValue v) {
  size_t mask = (size_t)m->cap - 1;
  for (size_t i = value_hash(v) & mask;; i = (i + 1) & mask)
    if (!m->slots[i].from.ptr || mlirValueEqual(m->slots[i].from, v))
      return &m->slots[i];
}

/* Doubles the table (from 256 slots), keeping it at most half full. */
static void map_grow(value_map *m) {
  value_map old = *m;
  m->cap = old.cap ? 2 * old.cap : 256;
  m->slots = calloc((size_t)m->cap, sizeof *m->slots);
  if (!m->slots)
    abort(); /* as MLIR does when memory runs out */
  m->n = 0;
  for (long i = 0; i < old.cap; i++)
    if (old.slots[i].from.ptr)
      spec_map_put(m, old.slots[i].from, old.slots[i].to);
  free(old.slots);
}

void spec_map_put(value_map *m, MlirValue from, MlirValue to) {
  if (2 * (m->n + 1) > m->cap)
    map_grow(m);
  struct mapped *e = spec_map_find(m, from);
  if (!e->from.ptr)
    m->n++;
  *e = (struct mapped){from, to};
}

/* The map for the next partition's copy: emptied, its memory kept. */
value_map *spec_fresh_map(specializer *S) {
  if (S->map.slots)
    memset(S->map.slots, 0, (size_t)S->map.cap * sizeof *S->map.slots);
  S->map.n = 0;
  return &S->map;
}

void spec_map_free(value_map *m) {
  free(m->slots);
  m->slots = NULL;
  m->n = m->cap = 0;
}

MlirValue spec_map_get(const value_map *m, MlirValue v) {
  if (m->cap) {
    const struct mapped *e = spec_map_find(m, v);
    if (e->from.ptr)
      return e->to;
  }
  return v; /* defined before the loop: the copy is in the same block */
}

MlirValue spec_c32(ws_builder *b, int64_t v) { return ws_const_i32(b, v); }

MlirNamedAttribute spec_int_attr(MlirContext ctx, const char *name, int value) {
  return ws_named(ctx, name, mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 32), value));
}

/* Room for n values (a loop's carried ones: as many as it has), which the
 * caller frees. */
MlirValue *spec_values(int n) { return ws_zalloc((size_t)n, sizeof(MlirValue)); }

/* A flag per channel of the plan, all false, which the caller frees: the
 * channels a copy of the loop has touched. */
bool *spec_channel_flags(const specializer *S) {
  return ws_zalloc((size_t)S->plan->num_channels, sizeof(bool));
}

/* The loop's stages (ws.stage) say which K loop the consumers run: two
 * stages over one run of ws.dot are the lagged loop (the math a step
 * behind its wgmmas, specialize_lag.c), over two runs the pipelined one
 * (the second run and the math on its product a step behind,
 * specialize_pipeline.c). */
bool spec_is_lagged(const ws_plan *plan) {
  return ws_loop_stages(plan->loop) > 1 && ws_loop_dot_runs(plan->loop) == 1;
}

MlirNamedAttribute spec_barrier_attr(MlirContext ctx, bool full) {
  return ws_named(ctx, "barrier",
                  mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(full ? "full" : "empty")));
}

/* ---- the loop copies ------------------------------------------------------- */

/* A builder like `b` whose ops take `loop`'s location: a loop's copy is
 * where remarks about what it carries point (a persistent kernel's
 * accumulator at its K loop, not the tile loop around it). */
ws_builder spec_at_loop_of(const ws_builder *b, MlirOperation loop) {
  ws_builder copy = *b;
  copy.loc = mlirOperationGetLocation(loop);
  return copy;
}

static const char *const plan_attrs[] = {"ws.partition", "ws.stage", "ws.ring"};

/* Maps the operands of an op (the walk's userData is the map) and, with
 * `strip`, takes its plan attributes off: an op inside a clone's regions
 * (an scf.if of the protocol reads the step's count from outside it). The
 * clone's own values are no key of the map. */
typedef struct remap {
  const value_map *m;
  bool strip;
} remap;

static MlirWalkResult remap_op(MlirOperation op, void *data) {
  const remap *r = data;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
    MlirValue v = mlirOperationGetOperand(op, i), to = spec_map_get(r->m, v);
    if (!mlirValueEqual(v, to))
      mlirOperationSetOperand(op, i, to);
  }
  for (size_t a = 0; r->strip && a < sizeof plan_attrs / sizeof plan_attrs[0]; a++)
    mlirOperationRemoveDiscardableAttributeByName(op,
                                                  mlirStringRefCreateFromCString(plan_attrs[a]));
  return MlirWalkResultAdvance;
}

void spec_remap_operands(MlirOperation op, const value_map *m) {
  remap how = {m, false};
  mlirOperationWalk(op, remap_op, &how, MlirWalkPreOrder);
}

/* Clones `op` at b with its operands through the map, and those of the
 * ops in its regions; the plan attributes stay behind (the tables on the
 * kernel replace them). */
MlirOperation spec_clone_mapped(ws_builder *b, MlirOperation op, value_map *m) {
  MlirOperation copy = mlirOperationClone(op);
  remap how = {m, true};
  mlirOperationWalk(copy, remap_op, &how, MlirWalkPreOrder);
  if (!mlirOperationIsNull(b->before))
    mlirBlockInsertOwnedOperationBefore(b->block, b->before, copy);
  else
    mlirBlockAppendOwnedOperation(b->block, copy);
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
    spec_map_put(m, mlirOperationGetResult(op, r), mlirOperationGetResult(copy, r));
  return copy;
}

/* An op on scalars alone: index math, cloned into each partition that uses
 * it. An op that reads a tile (tensor.extract of one element) is not: the
 * tile comes from its ring first. */
bool spec_is_scalar(MlirOperation op) {
  return !ws_touches_tiles(op) && !wsOperationIsInDialect(op);
}

bool spec_in_partition(const specializer *S, MlirOperation op, int part) {
  return (ws_op_partitions(S->plan, op) >> part) & 1 && !ws_op_is(op, "scf.yield");
}

/* The partition's ops of the source loop, in order, one at a time: scalar
 * ops are cloned at b on the way; the next tile op is returned (null at
 * the end). */
MlirOperation spec_next_tile_op(specializer *S, ws_builder *b, value_map *m, MlirOperation op,
                                int part) {
  for (; !mlirOperationIsNull(op) && !mlirOperationEqual(op, S->plan->loop);
       op = mlirOperationGetNextInBlock(op)) {
    if (!spec_in_partition(S, op, part))
      continue;
    if (!spec_is_scalar(op))
      return op;
    spec_clone_mapped(b, op, m);
  }
  return mlirOperationIsNull(op) || mlirOperationEqual(op, S->plan->loop) ? (MlirOperation){NULL}
                                                                          : op;
}

MlirOperation spec_first_tile_op(specializer *S, ws_builder *b, value_map *m, int part) {
  return spec_next_tile_op(S, b, m, mlirBlockGetFirstOperation(ws_loop_body(S->plan->loop)), part);
}

MlirOperation spec_after(specializer *S, ws_builder *b, value_map *m, MlirOperation op, int part) {
  return spec_next_tile_op(S, b, m, mlirOperationGetNextInBlock(op), part);
}

/* The L2 policy of a load's copies: the one its l2 attribute names
 * (ws-verify checked it; "evict_normal" is the default), else, in a row
 * kernel with a second pass, the first loop's chunks of a tensor the
 * second pass reads again stay in L2 ("evict_last"), so that the second
 * read finds them there, and the second pass's are their last use
 * ("evict_first"). NULL: the default. */
static const char *l2_policy(const specializer *S, MlirOperation load) {
  if (!wsOperationIsA(load, "load"))
    return NULL;
  if (ws_has_attr(load, "l2")) {
    ws_l2_policy p = ws_l2_policy_of(load);
    return p > WS_L2_NORMAL ? ws_l2_policy_names[p] : NULL;
  }
  if (mlirOperationIsNull(S->second))
    return NULL;
  MlirOperation parent = mlirOperationGetParentOperation(load);
  if (mlirOperationEqual(parent, S->second))
    return ws_l2_policy_names[WS_L2_FIRST];
  if (!mlirOperationEqual(parent, S->plan->loop))
    return NULL;
  for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetOperand(load, 0));
       !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
    if (wsOperationIsA(mlirOpOperandGetOwner(u), "load") &&
        mlirOperationEqual(mlirOperationGetParentOperation(mlirOpOperandGetOwner(u)), S->second))
      return ws_l2_policy_names[WS_L2_LAST];
  return NULL;
}

/* A TMA op on ring r: desc, coordinates through the map (the innermost
 * moved by `inner_shift` elements: a part of the tile), then the slot; a
 * load with an L2 policy says so (l2 = "evict_last" or "evict_first"). */
void spec_tma_op(specializer *S, ws_builder *b, const char *name, MlirOperation op, int num_coords,
                 value_map *m, int ring, MlirValue slot, int inner_shift) {
  MlirValue ops[8];
  int n = 0;
  for (; n < 1 + num_coords; n++)
    ops[n] = spec_map_get(m, mlirOperationGetOperand(op, n));
  if (inner_shift)
    ops[num_coords] = ws_arith(b, "arith.addi", ops[num_coords], spec_c32(b, inner_shift));
  ops[n++] = slot;
  const char *policy = l2_policy(S, op);
  MlirAttribute reduce =
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("reduce"));
  MlirNamedAttribute attrs[3] = {spec_int_attr(S->ctx, "ring", ring)};
  int num_attrs = 1;
  if (policy)
    attrs[num_attrs++] =
        ws_named(S->ctx, "l2", mlirStringAttrGet(S->ctx, mlirStringRefCreateFromCString(policy)));
  if (!mlirAttributeIsNull(reduce)) /* a store that adds its tile (TMA's reduce-add) */
    attrs[num_attrs++] = ws_named(S->ctx, "reduce", reduce);
  ws_builder at = *b;
  at.loc = mlirOperationGetLocation(op);
  ws_build_void(&at, name, n, ops, num_attrs, attrs);
}

/* A lagged loop's iteration runs two K steps: the second at k + step (a
 * phantom past the loop's end when the steps are odd in number: its loads
 * read zeros from past the tensor, its math is skipped). Maps the
 * induction variable to k + step for the second step's ops and returns its
 * count, n + 1. */
MlirValue spec_second_step(specializer *S, ws_builder *b, value_map *m, MlirValue n) {
  MlirOperation loop = S->plan->loop;
  MlirValue iv = mlirBlockGetArgument(ws_loop_body(loop), 0);
  spec_map_put(m, iv,
               ws_arith(b, "arith.addi", spec_map_get(m, iv), mlirOperationGetOperand(loop, 2)));
  return ws_arith(b, "arith.addi", n, spec_c32(b, 1));
}

/* ---- the kernel ------------------------------------------------------------ */

static void init_barriers(specializer *S, ws_builder *b, MlirValue tid, MlirValue warp) {
  MlirBlock then_block;
  ws_build_if(b, ws_cmpi(b, "eq", tid, spec_c32(b, 0)), &then_block, NULL);
  ws_builder t = ws_builder_before(mlirBlockGetTerminator(then_block));
  for (int ch = 0; ch < S->plan->num_channels; ch++) {
    const ws_channel *c = &S->plan->channels[ch];
    for (int full = 1; full >= 0; full--) {
      MlirNamedAttribute attrs[3] = {
          spec_int_attr(S->ctx, "channel", ch), spec_barrier_attr(S->ctx, full),
          spec_int_attr(S->ctx, "count", full ? c->full_arrivals : c->empty_arrivals)};
      ws_build_void(&t, "ws.init_barrier", 0, NULL, 3, attrs);
    }
  }
  ws_build_void(&t, "nvvm.fence.mbarrier.init", 0, NULL, 0, NULL);
  if (S->plan->tmem.tile.ptr)
    spec_alloc_tmem(S, b, warp);
  spec_sync_threads(S, b, true);
  if (S->plan->tmem.tile.ptr)
    spec_tcgen05_fence(b, false);
}

typedef void (*emit_fn)(specializer *, ws_builder *, int);

/* if (warp == its first warp && elected) { partition }, for each partition
 * of the role: TMA partitions run on one lane. */
static void emit_workers(specializer *S, ws_builder *b, MlirValue warp, ws_role role,
                         emit_fn emit) {
  for (int part = 0; part < S->plan->num_parts; part++) {
    if (S->plan->parts[part].role != role)
      continue;
    MlirValue mine = ws_cmpi(b, "eq", warp, spec_c32(b, S->plan->parts[part].first_warp));
    MlirValue elected =
        ws_build_value(b, "nvvm.elect.sync", 0, NULL, mlirIntegerTypeGet(S->ctx, 1), 0, NULL);
    MlirBlock then_block;
    ws_build_if(b, ws_arith(b, "arith.andi", mine, elected), &then_block, NULL);
    ws_builder t = ws_builder_before(mlirBlockGetTerminator(then_block));
    emit(S, &t, part);
  }
}

/* The MMA warp's slice; a pair's runs on the cluster's leader alone (its
 * peer's MMA warp only allocates tensor memory). */
static void slice_mma_warp(specializer *S, ws_builder *b, int part) {
  ws_builder issuer = ws_plan_is_pair(S->plan) ? spec_leader_only(S, b) : *b;
  spec_slice_partition(S, &issuer, part);
}

/* The compute partitions' warps come first, one range after another
 * (several where an elementwise loop's compute is split), each under its
 * branch on the warp index and its setmaxnreg.inc; the TMA partitions
 * share the warpgroup after them and drop to one count. */
static void emit_partitions(specializer *S, ws_builder *b, MlirValue warp) {
  ws_builder workers = *b;
  bool compute = false;
  for (int c = 0; c < S->plan->num_parts; c++) {
    const ws_partition *p = &S->plan->parts[c];
    if (p->role != WS_ROLE_COMPUTE)
      continue;
    MlirBlock then_block, else_block;
    ws_build_if(&workers,
                ws_cmpi(&workers, "ult", warp, spec_c32(&workers, p->first_warp + p->num_warps)),
                &then_block, &else_block);
    ws_builder t = ws_builder_before(mlirBlockGetTerminator(then_block));
    spec_setmaxnreg(&t, true, p->registers);
    spec_slice_partition(S, &t, c);
    workers = ws_builder_before(mlirBlockGetTerminator(else_block));
    compute = true;
  }
  for (int q = 0; q < S->plan->num_parts && compute; q++)
    if (S->plan->parts[q].role != WS_ROLE_COMPUTE) {
      spec_setmaxnreg(&workers, false, S->plan->parts[q].registers);
      break;
    }
  emit_workers(S, &workers, warp, WS_ROLE_LOAD, spec_slice_partition);
  emit_workers(S, &workers, warp, WS_ROLE_MMA, slice_mma_warp);
  emit_workers(S, &workers, warp, WS_ROLE_STORE, spec_slice_partition);
}

/* The loop must be the kernel's last op before gpu.return, at its top
 * level: the partitions replace it there. Ping-pong consumers need the
 * tile loop they take turns at. */
static bool check_placement(const ws_plan *plan) {
  MlirOperation tile = ws_plan_tile_loop(plan);
  for (int p = 0; p < plan->num_parts && mlirOperationIsNull(tile); p++)
    if (plan->parts[p].pingpong) { /* ping-pong takes turns at the tiles */
      ws_emit_op_error(plan->loop, "has ping-pong consumers but no persistent tile loop "
                                   "around it; mark the loop over tiles around it");
      return false;
    }
  MlirOperation top = mlirOperationIsNull(tile) ? plan->loop : tile;
  MlirBlock block = mlirOperationGetBlock(top);
  MlirOperation parent = mlirBlockGetParentOperation(block);
  if (!mlirOperationEqual(parent, plan->func)) {
    char at[64];
    if (ws_op_is(parent, "scf.for") &&
        mlirOperationEqual(mlirOperationGetParentOperation(parent), plan->func))
      ws_emit_op_error(top,
                       "must be at the top level of its kernel to be specialized; in a "
                       "persistent kernel, mark the loop over tiles around it (at %s) "
                       "instead",
                       ws_loc_str(mlirOperationGetLocation(parent), at, sizeof at));
    else
      ws_emit_op_error(top, "must be at the top level of its kernel to be "
                            "specialized");
    return false;
  }
  MlirOperation next = mlirOperationGetNextInBlock(top);
  while (mlirOperationIsNull(tile) && !mlirOperationIsNull(next) &&
         ws_has_attr(next, "ws.partition"))
    next = mlirOperationGetNextInBlock(next); /* an epilogue: a matmul's, a row kernel's */
  if (!ws_op_is(next, "gpu.return")) {
    ws_emit_op_error(next, "follows the warp-specialized loop; only gpu.return "
                           "may come after it");
    return false;
  }
  return true;
}

bool ws_specialize(ws_plan *plan, bool crossings_only) {
  if (!check_placement(plan))
    return false;
  specializer S = {.plan = plan, .ctx = mlirOperationGetContext(plan->loop)};
  S.i32 = mlirIntegerTypeGet(S.ctx, 32);
  S.prologue_slot = spec_values(plan->num_rings);
  S.second = ws_plan_second_pass(plan);
  crossings *rewritten = spec_rewrite_crossings(&S, plan);
  if (S.failed || crossings_only) {
    spec_keep_crossings(rewritten); /* the rewritten loop stays for the test to read */
    free(S.prologue_slot);
    return !S.failed;
  }
  MlirOperation loop = plan->loop, tile = ws_plan_tile_loop(plan);
  ws_builder b = ws_builder_before(mlirOperationIsNull(tile) ? loop : tile);
  MlirValue tid = ws_build_value(&b, "nvvm.read.ptx.sreg.tid.x", 0, NULL, S.i32, 0, NULL);
  MlirValue warp = ws_arith(&b, "arith.divui", tid, spec_c32(&b, WARP_THREADS));
  init_barriers(&S, &b, tid, warp);
  emit_partitions(&S, &b, warp);
  if (plan->tmem.tile.ptr)
    spec_dealloc_tmem(&S, &b, warp);
  else if (ws_plan_cluster_size(plan) > 1) /* no CTA leaves while a peer may write to it */
    spec_sync_threads(&S, &b, false);
  spec_map_free(&S.map);
  free(S.prologue_slot);
  if (S.failed) {
    spec_keep_crossings(rewritten);
    return false;
  }
  {
    /* the epilogue after the loop (and what the one slicer's rewrite put
     * after a tile loop), copied into its partitions: erased last to
     * first, then the loop */
    ws_op_list epilogue = {0};
    for (MlirOperation op = mlirOperationGetNextInBlock(mlirOperationIsNull(tile) ? loop : tile);
         !ws_op_is(op, "gpu.return"); op = mlirOperationGetNextInBlock(op))
      ws_op_list_push(&epilogue, op);
    while (epilogue.len > 0)
      mlirOperationDestroy(epilogue.items[--epilogue.len]);
    ws_op_list_free(&epilogue);
  }
  ws_op_list prologue = {0};
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirOperationGetBlock(loop));
       !mlirOperationEqual(op, loop); op = mlirOperationGetNextInBlock(op))
    if (wsOperationIsA(op, "load") && ws_op_partitions(plan, op))
      ws_op_list_push(&prologue, op);
  mlirOperationDestroy(mlirOperationIsNull(tile) ? loop : tile); /* the tile loop holds all */
  while (prologue.len > 0) /* the loads the loop read, copied into the load warp */
    mlirOperationDestroy(prologue.items[--prologue.len]);
  ws_op_list_free(&prologue);
  spec_erase_crossings(rewritten); /* the protocol put before the loop, now in the partitions */
  plan->loop = (MlirOperation){NULL};
  for (int r = 0; r < plan->num_rings; r++)
    plan->rings[r].producer = (MlirOperation){NULL};
  plan->tables = plan->func;
  plan->persistent = !mlirOperationIsNull(tile);
  ws_plan_write_partitions(plan);
  ws_plan_write_channels(plan);
  ws_plan_write_ring_table(plan);
  ws_plan_write_tmem(plan);
  ws_plan_write_kernel(plan);
  return true;
}

/* The tables ws-insert-barriers completes, and the kernel's launch shape:
 * without them there is no protocol to write out. */
static bool has_protocol(const ws_plan *plan) {
  for (int c = 0; c < plan->num_channels; c++)
    if (plan->channels[c].full_arrivals == 0)
      return false;
  for (int p = 0; p < plan->num_parts; p++)
    if (plan->parts[p].registers == 0)
      return false;
  return plan->maxnreg > 0 && plan->block_threads > 0;
}

static bool specialize_loop(MlirOperation loop, const ws_pass_options *opts,
                            const ws_pass_env *env) {
  (void)env;
  ws_plan plan;
  if (!ws_plan_read_planned(loop, &plan))
    return true; /* not scheduled or not planned */
  bool ok = ws_plan_check(&plan);
  if (ok && !has_protocol(&plan)) {
    ws_emit_op_error(loop, "has a memory plan but no protocol (its ws.channels lack "
                           "full_arrivals, or its ws.partitions registers); run "
                           "ws-insert-barriers before ws-specialize");
    ok = false;
  }
  ok = ok && ws_specialize(&plan, ws_option_bool(opts, "crossings-only"));
  ws_plan_release(&plan);
  return ok;
}

static bool run_specialize(MlirOperation root, const ws_pass_options *opts,
                           const ws_pass_env *env) {
  return ws_run_on_marked_loops(root, specialize_loop, opts, env);
}

static MlirDialectHandle (*const protocol_dialects[])(void) = {
    mlirGetDialectHandle__arith__, mlirGetDialectHandle__nvvm__, mlirGetDialectHandle__scf__};

static const ws_option_spec specialize_options[] = {
    {"crossings-only", WS_OPTION_BOOL, "false",
     "stop once the loop's crossings are protocol ops tagged with their partitions, before "
     "slicing it (for tests; a kernel the one slicer does not take yet is specialized whole)",
     NULL, 0, 0},
};

const ws_pass_def ws_specialize_pass_def = {
    .argument = "ws-specialize",
    WS_PASS_OPTIONS(specialize_options),
    .summary = "Replace each planned loop by one branch per partition, each with its own "
               "copy of the loop, and write the protocol that ws-insert-barriers fixed as "
               "ops where they run (ws.wait, ws.spec_arrive, ws.tma_load, ws.read_slot...)",
    .dependent_dialects = protocol_dialects,
    .num_dependent_dialects = 3,
    .run = run_specialize,
};
