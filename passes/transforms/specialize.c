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
 *       each incoming channel: ws.slot_phase, ws.wait full, ws.read_slot of
 *         its rings, nvvm.fence.proxy (TMA refills the slot), ws.arrive empty
 *       the partition's ops
 *       each outgoing channel: ws.slot_phase, ws.wait empty, ws.write_slot,
 *         nvvm.fence.proxy (a TMA store reads the slot), ws.arrive full
 *     }
 *   } else {
 *     nvvm.setmaxregister decrease
 *     scf.if %warp == its warp && nvvm.elect.sync {     each load partition
 *       scf.for { ws.slot_phase, ws.wait empty, ws.arrive_expect_tx,
 *                 ws.tma_load of each ring }
 *     }
 *     scf.if %warp == its warp && nvvm.elect.sync {     each store partition
 *       scf.for { ws.slot_phase, ws.wait full, ws.tma_store of each ring,
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
 *                              every thread: tcgen05.fence after)
 *   compute (the epilogue): ws.wait full of the accumulator channel,
 *     tcgen05.fence after, ws.tmem_load, tcgen05.fence before, ws.arrive
 *     empty, then the epilogue as above
 *   scf.if %warp == mma warp && elected { ws.wait empty of the accumulator
 *     buffer, tcgen05.fence after, scf.for { ws.wait full, [ws.tmem_copy of
 *     each block-scale ring,] ws.tc_mma, ws.commit empty }, ws.commit full
 *     of the accumulator buffer }
 *   tcgen05.fence before; nvvm.barrier0; scf.if %warp == mma warp {
 *     tcgen05.fence after; ws.tmem_dealloc }
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
 * scf and upstream nvvm wherever an op needs no plan table. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/NVVM.h"
#include "mlir-c/Dialect/SCF.h"
#include "ws-c/Dialect.h"
#include "../support/ws_builder.h"
#include "../support/ws_l2_policy.h"
#include "../support/ws_op_list.h"
#include "../support/ws_pass.h"
#include "../plan/ws_plan.h"
#include "../plan/ws_row_kernel.h"
#include "ws_specialize.h"
#include "../../dialect/ws_text.h"

enum { WARP_THREADS = 32, WS_LAG_MAX_VALUES = 16, WS_MAX_ROW_CARRIED = 16 };

/* What each value of the source loop became in a partition's copy: an
 * open-addressing hash table keyed by the value, so that a lookup costs
 * the same in a loop of any size (a linear scan made specialization
 * quadratic in the kernel). A later put of the same value replaces it. */
typedef struct value_map {
  struct mapped {
    MlirValue from, to;
  } *slots;    /* from.ptr NULL: empty */
  long n, cap; /* cap: a power of two */
} value_map;

typedef struct specializer {
  const ws_plan *plan;
  value_map map; /* the partition being emitted's (fresh_map); freed at the end */
  MlirValue prologue_slot[WS_MAX_RINGS]; /* the consumers' slot of each prologue ring */
  MlirValue pair_step;  /* a lagged K loop's step per iteration (two K steps), shared by
                           every partition's copy; null when the loop has no lag */
  MlirOperation second; /* a row kernel's second pass (ws_plan_second_pass), or null */
  MlirContext ctx;
  MlirType i32;
  bool failed;
} specializer;

static size_t value_hash(MlirValue v) {
  uintptr_t p = (uintptr_t)v.ptr;
  return (size_t)((p >> 3) * 0x9E3779B97F4A7C15ull);
}

/* The slot holding `v`, or the empty slot where it would go. */
static struct mapped *map_find(const value_map *m, MlirValue v) {
  size_t mask = (size_t)m->cap - 1;
  for (size_t i = value_hash(v) & mask;; i = (i + 1) & mask)
    if (!m->slots[i].from.ptr || mlirValueEqual(m->slots[i].from, v))
      return &m->slots[i];
}

static void map_put(value_map *m, MlirValue from, MlirValue to);

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
      map_put(m, old.slots[i].from, old.slots[i].to);
  free(old.slots);
}

static void map_put(value_map *m, MlirValue from, MlirValue to) {
  if (2 * (m->n + 1) > m->cap)
    map_grow(m);
  struct mapped *e = map_find(m, from);
  if (!e->from.ptr)
    m->n++;
  *e = (struct mapped){from, to};
}

/* The map for the next partition's copy: emptied, its memory kept. */
static value_map *fresh_map(specializer *S) {
  if (S->map.slots)
    memset(S->map.slots, 0, (size_t)S->map.cap * sizeof *S->map.slots);
  S->map.n = 0;
  return &S->map;
}

static void map_free(value_map *m) {
  free(m->slots);
  m->slots = NULL;
  m->n = m->cap = 0;
}

static MlirValue map_get(const value_map *m, MlirValue v) {
  if (m->cap) {
    const struct mapped *e = map_find(m, v);
    if (e->from.ptr)
      return e->to;
  }
  return v; /* defined before the loop: the copy is in the same block */
}

static MlirValue c32(ws_builder *b, int64_t v) { return ws_const_i32(b, v); }

static MlirNamedAttribute int_attr(MlirContext ctx, const char *name, int value) {
  return ws_named(ctx, name, mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 32), value));
}

static MlirNamedAttribute barrier_attr(MlirContext ctx, bool full) {
  return ws_named(ctx, "barrier",
                  mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(full ? "full" : "empty")));
}

/* ---- protocol ops ---------------------------------------------------------- */

static void slot_phase(specializer *S, ws_builder *b, MlirValue n, int ch, int start,
                       MlirValue *slot, MlirValue *phase) {
  MlirNamedAttribute attrs[2] = {int_attr(S->ctx, "depth", S->plan->channels[ch].depth),
                                 int_attr(S->ctx, "start_phase", start)};
  MlirType types[2] = {S->i32, S->i32};
  MlirOperation op = ws_build(b, "ws.slot_phase", 1, &n, 2, types, 2, attrs, 0);
  *slot = mlirOperationGetResult(op, 0);
  if (phase)
    *phase = mlirOperationGetResult(op, 1);
}

/* The ring of channel ch that holds its tile in parts (a C tile published
 * box by box: ws_ring.parts, its channel's only ring), or -1. */
static int parted_ring(const ws_plan *plan, int ch) {
  for (int r = 0; r < plan->num_rings; r++)
    if (plan->rings[r].channel == ch && plan->rings[r].parts > 1)
      return r;
  return -1;
}

/* The channel iteration of part j of the tile counted n: n * parts + j
 * (a constant when n is). */
static MlirValue part_iteration(ws_builder *b, MlirValue n, int parts, int j) {
  long long k;
  if (ws_constant_int(n, &k))
    return c32(b, k * parts + j);
  return ws_arith(b, "arith.addi", ws_arith(b, "arith.muli", n, c32(b, parts)), c32(b, j));
}

static void wait_barrier(specializer *S, ws_builder *b, int ch, bool full, MlirValue slot,
                         MlirValue phase) {
  MlirNamedAttribute attrs[2] = {int_attr(S->ctx, "channel", ch), barrier_attr(S->ctx, full)};
  MlirValue ops[2] = {slot, phase};
  ws_build_void(b, "ws.wait", 2, ops, 2, attrs);
}

/* One arrival on a barrier of the slot: `name` is ws.arrive (the thread's
 * own) or ws.commit (tcgen05.commit: once the thread's MMAs are done). In
 * a cluster kernel the channel says whose barrier it reaches: every CTA's
 * (`cluster`: a multicast ring's release, a pair's commit) or the
 * leader's (`leader`: a pair's epilogue handing its rows back). */
static void signal(specializer *S, ws_builder *b, const char *name, int ch, bool full,
                   MlirValue slot) {
  const ws_channel *c = &S->plan->channels[ch];
  ws_reach reach = full ? c->full_to : c->empty_to;
  MlirNamedAttribute attrs[3] = {
      int_attr(S->ctx, "channel", ch), barrier_attr(S->ctx, full),
      ws_named(S->ctx, reach == WS_REACH_LEADER ? "leader" : "cluster", mlirUnitAttrGet(S->ctx))};
  ws_build_void(b, name, 1, &slot, reach == WS_REACH_OWN ? 2 : 3, attrs);
}

/* A builder inside `if (this CTA is its cluster's leader)`: rank 0 of a
 * pair arrives on the full barrier every CTA's copies complete on, and
 * issues the pair's MMAs. */
static ws_builder leader_only(specializer *S, ws_builder *b) {
  MlirValue rank =
      ws_build_value(b, "nvvm.read.ptx.sreg.cluster.ctarank", 0, NULL, S->i32, 0, NULL);
  MlirBlock then_block;
  ws_build_if(b, ws_cmpi(b, "eq", rank, c32(b, 0)), &then_block, NULL);
  return ws_builder_before(mlirBlockGetTerminator(then_block));
}

static void arrive(specializer *S, ws_builder *b, int ch, bool full, MlirValue slot) {
  signal(S, b, "ws.arrive", ch, full, slot);
}

/* Every thread of the block (nvvm.barrier0), or of every CTA of the
 * cluster: a cluster kernel's barriers are arrived on and written by its
 * peers, so their initialization must be visible to them before any may
 * touch them, and no CTA may exit while a peer might still do so. With
 * `relaxed` (the barrier after the inits) the cluster arrive is relaxed:
 * the nvvm.fence.mbarrier.init before it orders the inits (the pattern PTX
 * gives that fence for; a releasing arrive cost the 2x1 tiled 128x256
 * kernel 0.1-0.9 us a launch on the H100), and nothing else written before
 * it is read by another thread after it, except tcgen05.alloc's address:
 * a kernel with tensor memory keeps the releasing arrive. */
static void sync_threads(specializer *S, ws_builder *b, bool relaxed) {
  if (ws_plan_cluster_size(S->plan) < 2) {
    ws_build_void(b, "nvvm.barrier0", 0, NULL, 0, NULL);
    return;
  }
  MlirNamedAttribute aligned = ws_named(S->ctx, "aligned", mlirUnitAttrGet(S->ctx));
  ws_build_void(
      b, relaxed && !S->plan->tmem.tile.ptr ? "nvvm.cluster.arrive.relaxed" : "nvvm.cluster.arrive",
      0, NULL, 1, &aligned);
  ws_build_void(b, "nvvm.cluster.wait", 0, NULL, 1, &aligned);
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
      ws_named_text(b->ctx, "action",
                    increase ? "#nvvm<action increase>" : "#nvvm<action decrease>"),
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

/* ---- the loop copies ------------------------------------------------------- */

/* A builder like `b` whose ops take `loop`'s location: a loop's copy is
 * where remarks about what it carries point (a persistent kernel's
 * accumulator at its K loop, not the tile loop around it). */
static ws_builder at_loop_of(const ws_builder *b, MlirOperation loop) {
  ws_builder copy = *b;
  copy.loc = mlirOperationGetLocation(loop);
  return copy;
}

/* A copy of `loop` (the plan's, or a row kernel's second pass) by `step`,
 * counting its iterations from `start`; *copy is the new loop. With
 * `carry` (an elementwise loop's compute partition) the copy also carries
 * the source loop's values after the count: a row kernel's row vectors,
 * which that partition alone computes. */
static MlirBlock copy_loop(specializer *S, ws_builder *b, value_map *m, MlirOperation loop,
                           MlirValue step, MlirValue start, bool carry, MlirValue *counter,
                           MlirOperation *copy) {
  MlirBlock src = ws_loop_body(loop), body;
  int carried = carry ? (int)mlirOperationGetNumResults(loop) : 0;
  MlirValue inits[1 + WS_MAX_ROW_CARRIED];
  if (carried > WS_MAX_ROW_CARRIED) {
    ws_emit_op_error(loop, "carries %d row vectors; at most %d", carried, WS_MAX_ROW_CARRIED);
    S->failed = true;
    carried = 0;
  }
  inits[0] = start;
  for (int i = 0; i < carried; i++)
    inits[1 + i] = map_get(m, mlirOperationGetOperand(loop, 3 + i));
  ws_builder here = at_loop_of(b, loop);
  *copy =
      ws_build_for(&here, map_get(m, mlirOperationGetOperand(loop, 0)),
                   map_get(m, mlirOperationGetOperand(loop, 1)), step, 1 + carried, inits, &body);
  map_put(m, mlirBlockGetArgument(src, 0), mlirBlockGetArgument(body, 0));
  for (int i = 0; i < carried; i++)
    map_put(m, mlirBlockGetArgument(src, 1 + i), mlirBlockGetArgument(body, 2 + i));
  *counter = mlirBlockGetArgument(body, 1);
  return body;
}

/* The partition's copy of the plan's loop, counting from `start` (0, or
 * where the previous tile's copy stopped), two K steps an iteration in a
 * lagged loop. */
static MlirBlock open_loop(specializer *S, ws_builder *b, value_map *m, MlirValue start, bool carry,
                           MlirValue *counter, MlirOperation *copy) {
  MlirOperation loop = S->plan->loop;
  MlirValue step = mlirValueIsNull(S->pair_step) ? mlirOperationGetOperand(loop, 2) : S->pair_step;
  return copy_loop(S, b, m, loop, step, start, carry, counter, copy);
}

/* Ends the copy's body: the next count, and the values it carries (the
 * source loop's yield through the map). */
static void close_loop(specializer *S, ws_builder *b, MlirBlock body, MlirValue counter,
                       value_map *m) {
  MlirValue next[1 + WS_MAX_ROW_CARRIED];
  int carried = (int)mlirBlockGetNumArguments(body) - 2;
  MlirOperation yield = mlirBlockGetTerminator(ws_loop_body(S->plan->loop));
  next[0] = ws_arith(b, "arith.addi", counter, c32(b, 1));
  for (int i = 0; i < carried; i++)
    next[1 + i] = map_get(m, mlirOperationGetOperand(yield, i));
  ws_build_terminator(body, b->loc, "scf.yield", 1 + carried, next);
}

/* Clones `op` at b with its operands through the map; the plan attributes
 * stay behind (the tables on the kernel replace them). */
static MlirOperation clone_mapped(ws_builder *b, MlirOperation op, value_map *m) {
  MlirOperation copy = mlirOperationClone(op);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(copy); i++)
    mlirOperationSetOperand(copy, i, map_get(m, mlirOperationGetOperand(op, i)));
  static const char *const plan_attrs[] = {"ws.partition", "ws.ring"};
  for (size_t a = 0; a < 2; a++)
    mlirOperationRemoveDiscardableAttributeByName(copy,
                                                  mlirStringRefCreateFromCString(plan_attrs[a]));
  if (!mlirOperationIsNull(b->before))
    mlirBlockInsertOwnedOperationBefore(b->block, b->before, copy);
  else
    mlirBlockAppendOwnedOperation(b->block, copy);
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
    map_put(m, mlirOperationGetResult(op, r), mlirOperationGetResult(copy, r));
  return copy;
}

/* An op on scalars alone: index math, cloned into each partition that uses
 * it. An op that reads a tile (tensor.extract of one element) is not: the
 * tile comes from its ring first. */
static bool is_scalar(MlirOperation op) {
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
    if (mlirTypeIsARankedTensor(mlirValueGetType(mlirOperationGetResult(op, r))))
      return false;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
    if (mlirTypeIsARankedTensor(mlirValueGetType(mlirOperationGetOperand(op, i))))
      return false;
  return !wsOperationIsInDialect(op);
}

static bool in_partition(const specializer *S, MlirOperation op, int part) {
  return (ws_op_partitions(S->plan, op) >> part) & 1 && !ws_op_is(op, "scf.yield");
}

/* The partition's ops of the source loop, in order, one at a time: scalar
 * ops are cloned at b on the way; the next tile op (or a row kernel's
 * second pass, which the caller copies) is returned (null at the end). */
static MlirOperation next_tile_op(specializer *S, ws_builder *b, value_map *m, MlirOperation op,
                                  int part) {
  for (; !mlirOperationIsNull(op) && !mlirOperationEqual(op, S->plan->loop);
       op = mlirOperationGetNextInBlock(op)) {
    if (!in_partition(S, op, part))
      continue;
    if (!is_scalar(op) || mlirOperationEqual(op, S->second))
      return op;
    clone_mapped(b, op, m);
  }
  return mlirOperationIsNull(op) || mlirOperationEqual(op, S->plan->loop) ? (MlirOperation){NULL}
                                                                          : op;
}

static MlirOperation first_tile_op(specializer *S, ws_builder *b, value_map *m, int part) {
  return next_tile_op(S, b, m, mlirBlockGetFirstOperation(ws_loop_body(S->plan->loop)), part);
}

/* The partition's ops before the loop in its block (the prologue's loads),
 * like first_tile_op. */
static MlirOperation first_prologue_op(specializer *S, ws_builder *b, value_map *m, int part) {
  return next_tile_op(S, b, m, mlirBlockGetFirstOperation(mlirOperationGetBlock(S->plan->loop)),
                      part);
}

/* The partition's ops after the loop (a matmul's epilogue), like
 * first_tile_op. */
static MlirOperation first_epilogue_op(specializer *S, ws_builder *b, value_map *m, int part) {
  return next_tile_op(S, b, m, mlirOperationGetNextInBlock(S->plan->loop), part);
}

static MlirOperation after(specializer *S, ws_builder *b, value_map *m, MlirOperation op,
                           int part) {
  return next_tile_op(S, b, m, mlirOperationGetNextInBlock(op), part);
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
static void tma_op(specializer *S, ws_builder *b, const char *name, MlirOperation op,
                   int num_coords, value_map *m, int ring, MlirValue slot, int inner_shift) {
  MlirValue ops[8];
  int n = 0;
  for (; n < 1 + num_coords; n++)
    ops[n] = map_get(m, mlirOperationGetOperand(op, n));
  if (inner_shift)
    ops[num_coords] = ws_arith(b, "arith.addi", ops[num_coords], c32(b, inner_shift));
  ops[n++] = slot;
  const char *policy = l2_policy(S, op);
  MlirNamedAttribute attrs[2] = {
      int_attr(S->ctx, "ring", ring),
      ws_named(S->ctx, "l2",
               policy ? mlirStringAttrGet(S->ctx, mlirStringRefCreateFromCString(policy))
                      : mlirUnitAttrGet(S->ctx))};
  ws_builder at = *b;
  at.loc = mlirOperationGetLocation(op);
  ws_build_void(&at, name, n, ops, policy ? 2 : 1, attrs);
}

/* A lagged loop's iteration runs two K steps: the second at k + step (a
 * phantom past the loop's end when the steps are odd in number: its loads
 * read zeros from past the tensor, its math is skipped). Maps the
 * induction variable to k + step for the second step's ops and returns its
 * count, n + 1. */
static MlirValue second_step(specializer *S, ws_builder *b, value_map *m, MlirValue n) {
  MlirOperation loop = S->plan->loop;
  MlirValue iv = mlirBlockGetArgument(ws_loop_body(loop), 0);
  map_put(m, iv, ws_arith(b, "arith.addi", map_get(m, iv), mlirOperationGetOperand(loop, 2)));
  return ws_arith(b, "arith.addi", n, c32(b, 1));
}

/* ---- partitions ------------------------------------------------------------ */

/* if (n >= base + lag) release the slot of channel ch used lag iterations
 * ago; base (null: 0) is where this copy of the loop started counting, so
 * that a persistent kernel's tile never releases the previous tile's
 * slots twice. */
static void release_lagging(specializer *S, ws_builder *b, MlirValue n, int ch, int lag,
                            MlirValue base) {
  MlirValue by = c32(b, lag);
  MlirValue first = mlirValueIsNull(base) ? by : ws_arith(b, "arith.addi", base, by);
  MlirBlock then_block;
  ws_build_if(b, ws_cmpi(b, "uge", n, first), &then_block, NULL);
  ws_builder t = ws_builder_before(mlirBlockGetTerminator(then_block));
  MlirValue old;
  slot_phase(S, &t, ws_arith(&t, "arith.subi", n, by), ch, S->plan->channels[ch].consumer_phase,
             &old, NULL);
  if (S->plan->channels[ch].release_fence)
    fence_async_shared(&t);
  arrive(S, &t, ch, false, old);
}

/* Whether the store partition's pass stored a tile whole on some channel
 * (`started`), which its bulk group then covers; a tile held in parts
 * commits and releases each part itself (store_parts). */
static bool stored_whole(const specializer *S, const bool *started) {
  for (int ch = 0; ch < S->plan->num_channels; ch++)
    if (started[ch])
      return true;
  return false;
}

/* The store partition's release: one bulk group per iteration; the slot
 * stored `drain` iterations ago has been read once all but `drain` groups
 * are. */
static void release_stored_slots(specializer *S, ws_builder *b, MlirValue n, const bool *started) {
  if (!stored_whole(S, started))
    return; /* a tile stored in parts: each part committed and released its own */
  ws_build_void(b, "nvvm.cp.async.bulk.commit.group", 0, NULL, 0, NULL);
  for (int ch = 0; ch < S->plan->num_channels; ch++) {
    if (!started[ch])
      continue;
    bulk_wait(b, S->plan->channels[ch].drain, true);
    release_lagging(S, b, n, ch, S->plan->channels[ch].drain, (MlirValue){NULL});
  }
}

/* The store warp's side of a C tile held in parts (publish_parts): each
 * part's slot waited for and stored (its columns: the tile's first column
 * plus the part's), in a bulk group of its own; in a persistent kernel
 * the slot stored `drain` parts ago is released once read. */
static void store_parts(specializer *S, ws_builder *b, value_map *m, MlirValue n, MlirOperation op,
                        int r) {
  const ws_ring *ring = &S->plan->rings[r];
  const ws_channel *c = &S->plan->channels[ring->channel];
  bool release = !mlirOperationIsNull(ws_plan_tile_loop(S->plan));
  int num = (int)mlirOperationGetNumOperands(op);
  int cols = (int)mlirShapedTypeGetDimSize(ring->tile, mlirShapedTypeGetRank(ring->tile) - 1);
  for (int j = 0; j < ring->parts; j++) {
    MlirValue it = part_iteration(b, n, ring->parts, j), slot, phase;
    slot_phase(S, b, it, ring->channel, c->consumer_phase, &slot, &phase);
    wait_barrier(S, b, ring->channel, true, slot, phase);
    tma_op(S, b, "ws.tma_store", op, num - 2, m, r, slot, j * cols);
    ws_build_void(b, "nvvm.cp.async.bulk.commit.group", 0, NULL, 0, NULL);
    if (release) {
      bulk_wait(b, c->drain, true);
      release_lagging(S, b, it, ring->channel, c->drain, (MlirValue){NULL});
    }
  }
}

/* One pass over a TMA partition's ops from `op` on: each ws.load fills the
 * ring of its result, each ws.store drains the ring of its tile. The first
 * op on a channel waits for the slot of iteration n (empty for a load,
 * which then expects the channel's bytes; full for a store); the others
 * share that slot. `started` marks the channels touched. */
static void emit_tma_ops(specializer *S, ws_builder *b, value_map *m, MlirValue n, MlirOperation op,
                         int part, bool *started) {
  bool store = S->plan->parts[part].role == WS_ROLE_STORE;
  MlirValue slot[WS_MAX_CHANNELS];
  for (; !mlirOperationIsNull(op); op = after(S, b, m, op, part)) {
    int num = (int)mlirOperationGetNumOperands(op);
    int r = ws_ring_of_value(S->plan, store ? mlirOperationGetOperand(op, num - 1)
                                            : mlirOperationGetResult(op, 0));
    if (r < 0 && !store)
      continue; /* nobody uses the tile: ws-plan-memory dropped the load */
    if (r < 0) {
      ws_emit_op_error(op, "stores a tile that has no ring; run ws-plan-memory");
      S->failed = true;
      return;
    }
    int ch = S->plan->rings[r].channel;
    const ws_channel *c = &S->plan->channels[ch];
    if (store && S->plan->rings[r].parts > 1) {
      store_parts(S, b, m, n, op, r); /* releases its own slots */
      continue;
    }
    if (!started[ch]) {
      MlirValue phase;
      slot_phase(S, b, n, ch, store ? c->consumer_phase : c->producer_phase, &slot[ch], &phase);
      wait_barrier(S, b, ch, store, slot[ch], phase);
      if (!store) {
        MlirNamedAttribute attrs[2] = {int_attr(S->ctx, "channel", ch),
                                       int_attr(S->ctx, "bytes", c->expect_tx)};
        ws_builder expect = c->full_to == WS_REACH_LEADER ? leader_only(S, b) : *b;
        ws_build_void(&expect, "ws.arrive_expect_tx", 1, &slot[ch], 2, attrs);
      }
      started[ch] = true;
    }
    tma_op(S, b, store ? "ws.tma_store" : "ws.tma_load", op, store ? num - 2 : num - 1, m, r,
           slot[ch], 0);
  }
}

/* ---- a row kernel's second pass ---------------------------------------------- */

/* The partition's copy of the second pass, counting its own iterations
 * from 0 in *n (its channels are its own); the body's builder. */
static ws_builder open_second_pass(specializer *S, ws_builder *b, value_map *m, MlirValue *n,
                                   MlirBlock *body) {
  MlirOperation copy;
  *body = copy_loop(S, b, m, S->second, mlirOperationGetOperand(S->second, 2), c32(b, 0), false, n,
                    &copy);
  return ws_builder_at_end(*body, b->loc);
}

/* Whether the partition has a tile op in `loop`'s body: a store warp that
 * only the second pass feeds has no copy of the first loop to run. */
static bool has_tile_ops(const specializer *S, MlirOperation loop, int part) {
  for (MlirOperation op = mlirBlockGetFirstOperation(ws_loop_body(loop)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (in_partition(S, op, part) && !is_scalar(op))
      return true;
  return false;
}

/* A TMA partition's copy of the second pass: its loads or stores, as in
 * the loop (emit_tma_ops), on the second pass's channels. */
static void emit_tma_second_pass(specializer *S, ws_builder *outer, value_map *m, int part) {
  bool store = S->plan->parts[part].role == WS_ROLE_STORE;
  bool started[WS_MAX_CHANNELS] = {false};
  MlirValue n;
  MlirBlock body;
  ws_builder b = open_second_pass(S, outer, m, &n, &body);
  emit_tma_ops(S, &b, m, n,
               next_tile_op(S, &b, m, mlirBlockGetFirstOperation(ws_loop_body(S->second)), part),
               part, started);
  if (store)
    release_stored_slots(S, &b, n, started);
  close_loop(S, &b, body, n, m);
}

/* What follows the loop in a TMA partition of a row kernel: its scalars,
 * and its copy of the second pass. */
static void emit_tma_after_loop(specializer *S, ws_builder *outer, value_map *m, int part) {
  for (MlirOperation op = first_epilogue_op(S, outer, m, part); !mlirOperationIsNull(op);
       op = after(S, outer, m, op, part))
    if (mlirOperationEqual(op, S->second))
      emit_tma_second_pass(S, outer, m, part);
}

/* ---- a persistent kernel's tile loop ---------------------------------------- */

/* A persistent kernel: the partition's copy of the tile loop, carrying
 * `num` counters from `inits` (the counts of the channels it uses, which
 * continue from tile to tile: phases are never reset), with the tile id
 * mapped and the partition's ops before the K loop (the tile's
 * coordinates) cloned. The tile's ops go before the returned body's end. */
typedef struct tile_nest {
  MlirOperation loop; /* null: not persistent, everything goes at `at` */
  MlirBlock body;
  ws_builder at;
} tile_nest;

static tile_nest open_tile_loop(specializer *S, ws_builder *outer, value_map *m, int part, int num,
                                MlirValue *inits) {
  tile_nest t = {.at = *outer};
  MlirOperation tile = ws_plan_tile_loop(S->plan);
  if (mlirOperationIsNull(tile))
    return t;
  t.loop = ws_build_for(outer, mlirOperationGetOperand(tile, 0), mlirOperationGetOperand(tile, 1),
                        mlirOperationGetOperand(tile, 2), num, inits, &t.body);
  MlirBlock src = ws_loop_body(tile);
  map_put(m, mlirBlockGetArgument(src, 0), mlirBlockGetArgument(t.body, 0));
  for (int k = 0; k < num; k++)
    inits[k] = mlirBlockGetArgument(t.body, 1 + k);
  t.at = ws_builder_at_end(t.body, outer->loc);
  for (MlirOperation op = mlirBlockGetFirstOperation(src); !mlirOperationEqual(op, S->plan->loop);
       op = mlirOperationGetNextInBlock(op))
    if (in_partition(S, op, part))
      clone_mapped(&t.at, op, m);
  return t;
}

/* Ends the tile loop's body: the counters go on to the next tile. */
static void close_tile_loop(tile_nest *t, int num, MlirValue *next) {
  if (!mlirOperationIsNull(t->loop))
    ws_build_terminator(t->body, t->at.loc, "scf.yield", num, next);
}

/* True when the partition feeds a matmul's epilogue (a bias, a residual). */
static bool loads_epilogue(const specializer *S, int part) {
  for (int ch = 0; ch < S->plan->num_channels; ch++)
    if (S->plan->channels[ch].from == part && ws_plan_is_matmul(S->plan) &&
        ws_channel_is_epilogue(S->plan, ch))
      return true;
  return false;
}

/* True when the partition's epilogue reads operands another one loads. */
static bool takes_epilogue_operands(const specializer *S, int part) {
  for (int ch = 0; ch < S->plan->num_channels; ch++)
    if (S->plan->channels[ch].to == part && ws_channel_is_epilogue(S->plan, ch))
      return true;
  return false;
}

/* A pair's load warp, once its last copy is issued: a peer's tcgen05.commit
 * releases its slots (an arrival that lands whenever the MMAs are done),
 * so before its CTA may exit it waits for the release of every slot it
 * filled: the empty phases of its next `depth` iterations from `end`. */
static void await_last_releases(specializer *S, ws_builder *b, MlirValue end, const bool *started) {
  for (int ch = 0; ch < S->plan->num_channels; ch++) {
    const ws_channel *c = &S->plan->channels[ch];
    if (!started[ch] || c->full_to != WS_REACH_LEADER)
      continue;
    for (int i = 0; i < c->depth; i++) {
      MlirValue slot, phase;
      slot_phase(S, b, ws_arith(b, "arith.addi", end, c32(b, i)), ch, c->producer_phase, &slot,
                 &phase);
      wait_barrier(S, b, ch, false, slot, phase);
    }
  }
}

/* A TMA partition: its own copy of the loop (see emit_tma_ops), inside its
 * copy of the tile loop when the kernel is persistent (the producer then
 * runs ahead into the next tile as far as the ring lets it); then the
 * loads of a matmul's epilogue operands, once per block or tile (counted
 * by the tile loop's second counter). A store partition releases slots a
 * drain behind and drains before it exits. */
static void emit_tma_partition(specializer *S, ws_builder *outer, int part) {
  bool store = S->plan->parts[part].role == WS_ROLE_STORE;
  bool epilogue = loads_epilogue(S, part);
  value_map *m = fresh_map(S);
  MlirValue counts[2] = {c32(outer, 0), c32(outer, 0)}, n; /* K steps, tiles */
  bool started[WS_MAX_CHANNELS] = {false}, fetched[WS_MAX_CHANNELS] = {false};
  if (!store && mlirOperationIsNull(ws_plan_tile_loop(S->plan)))
    emit_tma_ops(S, outer, m, counts[0], first_prologue_op(S, outer, m, part), part, fetched);
  if (!mlirOperationIsNull(S->second) && !has_tile_ops(S, S->plan->loop, part)) {
    emit_tma_after_loop(S, outer, m, part); /* a partition the second pass alone needs */
    if (store)
      bulk_wait(outer, 0, false); /* drain before exit */
    return;
  }
  tile_nest t = open_tile_loop(S, outer, m, part, epilogue ? 2 : 1, counts);
  MlirOperation copy;
  MlirBlock body = open_loop(S, &t.at, m, counts[0], false, &n, &copy);
  ws_builder b = ws_builder_at_end(body, outer->loc);
  emit_tma_ops(S, &b, m, n, first_tile_op(S, &b, m, part), part, started);
  if (store)
    release_stored_slots(S, &b, n, started);
  if (!mlirValueIsNull(S->pair_step)) { /* a lagged loop: its second K step */
    n = second_step(S, &b, m, n);
    memset(started, 0, sizeof started);
    emit_tma_ops(S, &b, m, n, first_tile_op(S, &b, m, part), part, started);
  }
  close_loop(S, &b, body, n, m);
  if (epilogue)
    emit_tma_ops(S, &t.at, m, counts[1], first_epilogue_op(S, &t.at, m, part), part, fetched);
  if (!mlirOperationIsNull(S->second))
    emit_tma_after_loop(S, outer, m, part);
  if (!mlirOperationIsNull(t.loop)) {
    MlirValue next[2] = {mlirOperationGetResult(copy, 0),
                         epilogue ? ws_arith(&t.at, "arith.addi", counts[1], c32(&t.at, 1))
                                  : counts[1]};
    close_tile_loop(&t, epilogue ? 2 : 1, next);
  }
  if (store)
    bulk_wait(outer, 0, false); /* drain before exit */
  else
    await_last_releases(
        S, outer, mlirOperationGetResult(mlirOperationIsNull(t.loop) ? copy : t.loop, 0), started);
}

/* ws.read_slot of ring r's `slot`, at the location of the load that fills
 * it, standing for that load's tile in the partition's copy. */
static void read_ring(specializer *S, ws_builder *b, value_map *m, int r, MlirValue slot) {
  const ws_ring *ring = &S->plan->rings[r];
  MlirNamedAttribute attr = int_attr(S->ctx, "ring", r);
  ws_builder at = *b;
  at.loc = mlirOperationGetLocation(ring->producer);
  map_put(m, mlirOperationGetResult(ring->producer, 0),
          ws_build_value(&at, "ws.read_slot", 1, &slot, ring->tile, 1, &attr));
}

/* The compute partition's hand-off of a C tile held in parts (store-boxes):
 * each part through its own slot, written (ws.write_slot {part = j}: its
 * columns of the tile), fenced and published before the next is written,
 * so that the store warp stores the first parts while the rest are
 * written. */
static void publish_parts(specializer *S, ws_builder *b, value_map *m, MlirValue n, int r) {
  const ws_ring *ring = &S->plan->rings[r];
  int ch = ring->channel;
  const ws_channel *c = &S->plan->channels[ch];
  for (int j = 0; j < ring->parts; j++) {
    MlirValue slot, phase;
    slot_phase(S, b, part_iteration(b, n, ring->parts, j), ch, c->producer_phase, &slot, &phase);
    wait_barrier(S, b, ch, false, slot, phase);
    MlirNamedAttribute attrs[2] = {int_attr(S->ctx, "ring", r), int_attr(S->ctx, "part", j)};
    ws_builder at = *b;
    at.loc = mlirOperationGetLocation(ring->producer);
    MlirValue ops[2] = {map_get(m, mlirOperationGetResult(ring->producer, 0)), slot};
    ws_build_void(&at, "ws.write_slot", 2, ops, 2, attrs);
    if (c->publish_fence)
      fence_async_shared(b);
    arrive(S, b, ch, true, slot);
  }
}

/* False for a channel that moves no tile through shared memory: a turn
 * (consumers to themselves) or a tensor-memory accumulator's hand-off. */
static bool channel_has_ring(const ws_plan *plan, int ch) {
  for (int r = 0; r < plan->num_rings; r++)
    if (plan->rings[r].channel == ch)
      return true;
  return false;
}

/* The compute partition's side of each channel it touches: incoming, wait
 * for the slot to fill, read its rings into registers (mapped to the tiles
 * they carry), fence when TMA refills it, release it; outgoing, wait for an
 * empty slot, write the rings, fence when a TMA store reads it, publish.
 * The channels of the loop (`second` false; `epilogue_only`: a matmul's
 * epilogue's alone) or of a row kernel's second pass (`second` true). */
static void transfer(specializer *S, ws_builder *b, value_map *m, MlirValue n, int part,
                     bool incoming, bool epilogue_only, bool second) {
  for (int ch = 0; ch < S->plan->num_channels; ch++) {
    const ws_channel *c = &S->plan->channels[ch];
    if ((incoming ? c->to : c->from) != part || !channel_has_ring(S->plan, ch) ||
        (epilogue_only && !ws_channel_is_epilogue(S->plan, ch)) ||
        ws_channel_is_prologue(S->plan, ch) || ws_channel_is_second_pass(S->plan, ch) != second)
      continue;
    if (!incoming && parted_ring(S->plan, ch) >= 0) {
      publish_parts(S, b, m, n, parted_ring(S->plan, ch));
      continue;
    }
    MlirValue slot, phase;
    slot_phase(S, b, n, ch, incoming ? c->consumer_phase : c->producer_phase, &slot, &phase);
    wait_barrier(S, b, ch, incoming, slot, phase);
    for (int r = 0; r < S->plan->num_rings; r++) {
      const ws_ring *ring = &S->plan->rings[r];
      if (ring->channel != ch)
        continue;
      if (incoming) {
        read_ring(S, b, m, r, slot);
        continue;
      }
      MlirNamedAttribute attr = int_attr(S->ctx, "ring", r);
      ws_builder at = *b;
      at.loc = mlirOperationGetLocation(ring->producer);
      MlirValue ops[2] = {map_get(m, mlirOperationGetResult(ring->producer, 0)), slot};
      ws_build_void(&at, "ws.write_slot", 2, ops, 1, &attr);
    }
    if (incoming ? c->release_fence : c->publish_fence)
      fence_async_shared(b);
    arrive(S, b, ch, !incoming, slot);
  }
}

static void prologue_channels(specializer *S, ws_builder *b, int part, bool release);

/* Clones the compute partition's ops of an elementwise loop from `op` on
 * (its body, or what comes before or after it): math, and the row vectors
 * it loads or stores itself. False after a located error. */
static bool clone_compute_ops(specializer *S, ws_builder *b, value_map *m, MlirOperation op,
                              int part);

/* The compute partition's copy of a row kernel's second pass: its tiles in
 * from their rings, its math on them and on the first loop's row vectors,
 * its tiles out, on the second pass's channels. */
static bool emit_compute_second_pass(specializer *S, ws_builder *outer, value_map *m, int part) {
  MlirValue n;
  MlirBlock body;
  ws_builder b = open_second_pass(S, outer, m, &n, &body);
  transfer(S, &b, m, n, part, true, false, true);
  bool ok = clone_compute_ops(
      S, &b, m, next_tile_op(S, &b, m, mlirBlockGetFirstOperation(ws_loop_body(S->second)), part),
      part);
  transfer(S, &b, m, n, part, false, false, true);
  close_loop(S, &b, body, n, m);
  return ok;
}

static bool clone_compute_ops(specializer *S, ws_builder *b, value_map *m, MlirOperation op,
                              int part) {
  for (; !mlirOperationIsNull(op); op = after(S, b, m, op, part)) {
    if (mlirOperationEqual(op, S->second)) {
      if (!emit_compute_second_pass(S, b, m, part))
        return false;
      continue;
    }
    if (wsOperationIsInDialect(op) && !wsOperationIsA(op, "iota") &&
        !wsOperationIsA(op, "reduce") && !wsOperationIsA(op, "broadcast") &&
        !ws_store_is_row_vector(op) && !ws_load_is_row_vector(op)) {
      ws_emit_op_error(op, "cannot run in the compute partition of an "
                           "elementwise loop");
      return false;
    }
    clone_mapped(b, op, m);
  }
  return true;
}

/* An elementwise loop's compute partition: the tiles loaded before the
 * loop read once into registers (a row kernel's weight from its slot, its
 * row vectors from global memory), then its copy of the loop (tiles in
 * from the rings, math, tiles out; a row vector it stores itself), with
 * the row vectors the loop carries, then what follows the loop (math on
 * those, their stores), then the prologue's slots released. */
static void emit_compute_partition(specializer *S, ws_builder *outer, int part) {
  value_map *m = fresh_map(S);
  prologue_channels(S, outer, part, false);
  for (int r = 0; r < S->plan->num_rings; r++)
    if (S->plan->channels[S->plan->rings[r].channel].to == part &&
        ws_ring_is_prologue(S->plan, &S->plan->rings[r]))
      read_ring(S, outer, m, r, S->prologue_slot[r]);
  if (!clone_compute_ops(S, outer, m, first_prologue_op(S, outer, m, part), part)) {
    S->failed = true;
    return;
  }
  MlirValue n;
  MlirOperation copy;
  MlirBlock body = open_loop(S, outer, m, c32(outer, 0), true, &n, &copy);
  ws_builder b = ws_builder_at_end(body, outer->loc);
  transfer(S, &b, m, n, part, true, false, false);
  if (!clone_compute_ops(S, &b, m, first_tile_op(S, &b, m, part), part)) {
    S->failed = true;
    return;
  }
  transfer(S, &b, m, n, part, false, false, false);
  close_loop(S, &b, body, n, m);
  for (intptr_t i = 0; i < mlirOperationGetNumResults(S->plan->loop); i++)
    map_put(m, mlirOperationGetResult(S->plan->loop, i), mlirOperationGetResult(copy, 1 + i));
  if (!clone_compute_ops(S, outer, m, first_epilogue_op(S, outer, m, part), part))
    S->failed = true;
  prologue_channels(S, outer, part, true);
}

/* ---- a matmul --------------------------------------------------------------- */

/* True when ws-plan-memory put the epilogue tile over the loop's rings. */
static bool epilogue_reuses_rings(const specializer *S) {
  long long end = 0;
  for (int r = 0; r < S->plan->num_rings; r++) {
    const ws_ring *ring = &S->plan->rings[r];
    long long last = ring->offset + ws_ring_bytes(S->plan, ring);
    if (!ws_ring_is_epilogue(S->plan, ring) && last > end)
      end = last;
  }
  for (int r = 0; r < S->plan->num_rings; r++)
    if (ws_ring_is_epilogue(S->plan, &S->plan->rings[r]) && S->plan->rings[r].offset < end)
      return true;
  return false;
}

static void wgmma_wait(ws_builder *b, int pending) {
  char group[32];
  snprintf(group, sizeof group, "%d : i64", pending);
  MlirNamedAttribute attr = ws_named_text(b->ctx, "group", group);
  ws_build_void(b, "nvvm.wgmma.wait.group.sync.aligned", 0, NULL, 1, &attr);
}

/* ws.dot as ws.mma on the slot of B's ring: A from the same slot of its
 * own ring, from the slot a prologue ring holds for the whole loop (a
 * third operand), or from registers (a tile, the third operand). */
static bool emit_mma(specializer *S, ws_builder *b, value_map *m, MlirOperation dot,
                     MlirValue slot) {
  MlirValue a = mlirOperationGetOperand(dot, 0);
  int ra = ws_ring_of_value(S->plan, a);
  int rb = ws_ring_of_value(S->plan, mlirOperationGetOperand(dot, 1));
  if (rb < 0 || (ra >= 0 && ws_ring_is_prologue(S->plan, &S->plan->rings[ra]) &&
                 mlirValueIsNull(S->prologue_slot[ra]))) {
    ws_emit_op_error(dot, "reads a tile that has no ring; run ws-plan-memory");
    return false;
  }
  MlirValue ops[3] = {slot, map_get(m, mlirOperationGetOperand(dot, 2)), {NULL}};
  int num_ops = 2;
  if (ra < 0)
    ops[num_ops++] = map_get(m, a); /* A in registers */
  else if (ws_ring_is_prologue(S->plan, &S->plan->rings[ra]))
    ops[num_ops++] = S->prologue_slot[ra];
  MlirNamedAttribute attrs[3];
  int num_attrs = 0;
  if (ra >= 0)
    attrs[num_attrs++] = int_attr(S->ctx, "ring_a", ra);
  attrs[num_attrs++] = int_attr(S->ctx, "ring_b", rb);
  if (ws_has_attr(dot, "transpose_b"))
    attrs[num_attrs++] = ws_named(S->ctx, "transpose_b", mlirUnitAttrGet(S->ctx));
  ws_builder at = *b;
  at.loc = mlirOperationGetLocation(dot);
  MlirValue d = ws_build_value(&at, "ws.mma", num_ops, ops,
                               mlirValueGetType(mlirOperationGetResult(dot, 0)), num_attrs, attrs);
  map_put(m, mlirOperationGetResult(dot, 0), d);
  return true;
}

/* The wgmma groups of one K step, read off the source loop: a ws.dot's
 * result is pending from its issue until the next wait, and so is a
 * carried tile the previous step yielded from a ws.dot, until the step's
 * first wait. Math that reads a pending value commits and waits first. */
typedef struct mma_groups {
  MlirOperation loop;
  ws_op_list issued; /* ws.dot ops issued since the last commit and wait */
  bool fenced;       /* no register math since the last wgmma fence */
  bool committed;    /* the issued wgmmas are committed (a turn was passed) */
  bool released;     /* the step waited: the previous step's slot is free */
} mma_groups;

static bool is_pending(const mma_groups *g, MlirValue v) {
  if (mlirValueIsAOpResult(v)) {
    MlirOperation def = mlirOpResultGetOwner(v);
    for (long k = 0; k < g->issued.len; k++)
      if (mlirOperationEqual(g->issued.items[k], def))
        return true;
    return false;
  }
  MlirBlock body = ws_loop_body(g->loop);
  intptr_t i = mlirBlockArgumentGetArgNumber(v);
  if (g->released || !mlirBlockEqual(mlirBlockArgumentGetOwner(v), body) || i == 0)
    return false;
  MlirValue y = mlirOperationGetOperand(mlirBlockGetTerminator(body), i - 1);
  return mlirValueIsAOpResult(y) && wsOperationIsA(mlirOpResultGetOwner(y), "dot");
}

static bool uses_pending(const mma_groups *g, MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
    if (is_pending(g, mlirOperationGetOperand(op, i)))
      return true;
  return false;
}

/* Commits the issued wgmmas and waits for all of them; the previous
 * iteration's slot is then free (every wgmma that read it is done). */
static void retire_groups(specializer *S, ws_builder *b, mma_groups *g, MlirValue n, int in,
                          MlirValue base) {
  if (g->issued.len && !g->committed)
    ws_build_void(b, "nvvm.wgmma.commit.group.sync.aligned", 0, NULL, 0, NULL);
  wgmma_wait(b, 0);
  if (!g->released)
    release_lagging(S, b, n, in, 1, base);
  g->issued.len = 0;
  g->committed = false;
  g->released = true;
}

/* Consumers that take turns at their wgmmas (ws_partition.turns): turn c
 * is warpgroup c mod W's (W warpgroups: 2 or 3), and turns run in order.
 * A warpgroup's turn W n + w is its wgmmas from the last run of step n - 1
 * to the first run of step n (a run: wgmmas with no register math between
 * them); its turn after the loop is the last run of the last step. */
typedef struct turn_order {
  int ch;              /* the turn channel; -1: the consumers do not take turns */
  MlirValue warpgroup; /* 0 .. warpgroups - 1 */
  int warpgroups;
} turn_order;

/* Wait for turn c - 1 to end: turn c may start. */
static void take_turn_after(specializer *S, ws_builder *b, const turn_order *t, MlirValue c) {
  MlirValue slot, phase;
  slot_phase(S, b, ws_arith(b, "arith.subi", c, c32(b, 1)), t->ch,
             S->plan->channels[t->ch].consumer_phase, &slot, &phase);
  wait_barrier(S, b, t->ch, true, slot, phase);
}

/* End turn c: the other warpgroup's turn c + 1 may start. */
static void end_turn(specializer *S, ws_builder *b, const turn_order *t, MlirValue c) {
  MlirValue slot;
  slot_phase(S, b, c, t->ch, S->plan->channels[t->ch].producer_phase, &slot, NULL);
  arrive(S, b, t->ch, true, slot);
}

/* Turn W n + w + offset of this warpgroup at step n. */
static MlirValue turn_at(ws_builder *b, const turn_order *t, MlirValue n, int offset) {
  return ws_arith(b, "arith.addi", ws_arith(b, "arith.muli", n, c32(b, t->warpgroups)),
                  ws_arith(b, "arith.addi", t->warpgroup, c32(b, offset)));
}

/* True when op makes the A of a ws.dot in registers (wgmma's register
 * form). wgmma reads those registers while it runs, so the previous step's
 * wgmma, which read the same registers, must be done before op rewrites
 * them: its slot reads may come first, its math not. */
static bool feeds_register_a(MlirOperation op) {
  if (mlirOperationGetNumResults(op) != 1)
    return false;
  for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, 0));
       !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
    if (wsOperationIsA(mlirOpOperandGetOwner(u), "dot") && mlirOpOperandGetOperandNumber(u) == 0)
      return true;
  return false;
}

/* Register math on a tile the loop loads (an A computed from it, read
 * by wgmma's register form): the tile is read from its slot of channel
 * `in`, or from the prologue ring's slot, into registers where it is
 * first used. */
static void read_ring_operands(specializer *S, ws_builder *b, value_map *m, MlirOperation op,
                               int in, MlirValue slot) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
    MlirValue v = mlirOperationGetOperand(op, i);
    int r = ws_ring_of_value(S->plan, v);
    if (r < 0 || !mlirValueEqual(map_get(m, v), v))
      continue;
    const ws_ring *ring = &S->plan->rings[r];
    MlirValue from = ring->channel == in ? slot : S->prologue_slot[r];
    if (mlirValueIsNull(from))
      continue;
    read_ring(S, b, m, r, from);
  }
}

/* The consumer warpgroups' K loop: per K step, wait for the slot, then the
 * partition's ops in order. Each ws.dot is a wgmma (after a fence when
 * register math ran since the last one); math that reads a wgmma's result
 * first commits and waits for the group, which also frees the previous
 * step's slot. A plain matmul's step ends by committing and waiting until
 * at most one group is in flight, which frees the previous step's slot
 * (one this copy of the loop took: from `base` on). The loop carries the
 * step count and the source loop's carried tiles; a carried wgmma result
 * is pending at the next step's start. Counts from `start`; returns the
 * loop, or a null op after an error. */
static MlirOperation emit_k_loop(specializer *S, ws_builder *at, value_map *m, int part, int in,
                                 MlirValue start, MlirValue base, const turn_order *turns) {
  MlirOperation loop = S->plan->loop;
  MlirBlock src = ws_loop_body(loop);
  MlirOperation yield = mlirBlockGetTerminator(src);
  int carried = (int)mlirOperationGetNumResults(loop);
  MlirValue *inits = malloc((size_t)(carried + 1) * 2 * sizeof *inits);
  if (!inits)
    abort();
  MlirValue *next = inits + carried + 1;
  inits[0] = start;
  for (int i = 0; i < carried; i++)
    inits[1 + i] = map_get(m, mlirOperationGetOperand(loop, 3 + i));
  MlirBlock body;
  ws_builder here = at_loop_of(at, loop);
  MlirOperation copy = ws_build_for(&here, map_get(m, mlirOperationGetOperand(loop, 0)),
                                    map_get(m, mlirOperationGetOperand(loop, 1)),
                                    mlirOperationGetOperand(loop, 2), 1 + carried, inits, &body);
  map_put(m, mlirBlockGetArgument(src, 0), mlirBlockGetArgument(body, 0));
  for (int i = 0; i < carried; i++)
    map_put(m, mlirBlockGetArgument(src, 1 + i), mlirBlockGetArgument(body, 2 + i));
  mma_groups g = {.loop = loop};
  MlirValue n = mlirBlockGetArgument(body, 1);
  ws_builder b = ws_builder_at_end(body, at->loc);
  MlirValue slot, phase;
  slot_phase(S, &b, n, in, S->plan->channels[in].consumer_phase, &slot, &phase);
  wait_barrier(S, &b, in, true, slot, phase);
  ws_build_void(&b, "nvvm.wgmma.fence.aligned", 0, NULL, 0, NULL);
  g.fenced = true;
  bool ok = true;
  int runs = turns->ch >= 0 ? ws_loop_dot_runs(loop) : 0, run = -1;
  bool in_run = false;
  for (MlirOperation op = first_tile_op(S, &b, m, part); ok && !mlirOperationIsNull(op);
       op = after(S, &b, m, op, part)) {
    if (!wsOperationIsA(op, "dot")) {
      if (in_run && run == 0 && runs > 1) { /* the turn's last wgmmas are issued */
        ws_build_void(&b, "nvvm.wgmma.commit.group.sync.aligned", 0, NULL, 0, NULL);
        g.committed = true;
        end_turn(S, &b, turns, turn_at(&b, turns, n, 0));
      }
      in_run = false;
      if (uses_pending(&g, op))
        retire_groups(S, &b, &g, n, in, base);
      read_ring_operands(S, &b, m, op, in, slot);
      if (feeds_register_a(op) && !g.released) /* the last step's wgmma may still read A */
        retire_groups(S, &b, &g, n, in, base);
      clone_mapped(&b, op, m);
      g.fenced = false; /* register math: fence before the next wgmma */
      continue;
    }
    if (!in_run && ++run == runs - 1 && runs > 1) /* the step's last run: the next turn */
      take_turn_after(S, &b, turns, turn_at(&b, turns, n, turns->warpgroups));
    in_run = true;
    if (!g.fenced)
      ws_build_void(&b, "nvvm.wgmma.fence.aligned", 0, NULL, 0, NULL);
    g.fenced = true;
    ok = emit_mma(S, &b, m, op, slot);
    ws_op_list_push(&g.issued, op);
  }
  if (ok && g.issued.len && !g.committed)
    ws_build_void(&b, "nvvm.wgmma.commit.group.sync.aligned", 0, NULL, 0, NULL);
  ws_op_list_free(&g.issued);
  if (ok && !g.released) {
    wgmma_wait(&b, 1);
    release_lagging(S, &b, n, in, 1, base); /* the previous step's wgmma is done */
  }
  next[0] = ws_arith(&b, "arith.addi", n, c32(&b, 1));
  for (int i = 0; i < carried; i++)
    next[1 + i] = map_get(m, mlirOperationGetOperand(yield, i));
  ws_build_terminator(body, at->loc, "scf.yield", 1 + carried, next);
  free(inits);
  return ok ? copy : (MlirOperation){NULL};
}

/* ---- a lagged K loop (ws_partition.lag) ---------------------------------------
 *
 * The consumers issue a step's wgmmas (into one of two products) and run
 * the math of the step before while the tensor cores run them. One
 * iteration runs two steps, each product in registers of its own:
 *
 *   scf.for %k = lb to ub step 2 s iter_args(n, accs, %pb, %kb, %real) {
 *     wait full(n); ws.mma (slot n) -> %pa; commit; wait_group 1
 *     scf.if n > start { step n - 1's math on ws.mma_done %pb at %kb,
 *                        reading slot n - 1; release slot n - 1 }
 *     wait full(n + 1); ws.mma (slot n + 1) -> %pb'; commit; wait_group 1
 *     step n's math on ws.mma_done %pa at %k, reading slot n; release slot n
 *     wait_group 0
 *     yield n + 2, accs, %pb', k + s, k + s < ub
 *   }
 *   scf.if n > start { read slot n - 1; scf.if %real { its math }; release }
 *
 * Every wgmma is retired before the iteration ends: ptxas serializes every
 * wgmma of a kernel (C7514) whose loop reads, as %pb, registers a wgmma
 * still in flight from the previous iteration writes, even once a
 * wait_group has retired it. So step n + 1's wgmmas drain at the end of
 * the iteration, and step n - 1's math overlaps step n's wgmmas instead.
 * (The wait_group 1 after step n's wgmmas retires nothing, but without it
 * ptxas waits for them before the math reads %pb: C7517.)
 *
 * Step n + 1 is a phantom when the steps are odd in number: the load warp
 * fills its slot with zeros from past the tensor, and %real = false skips
 * its math (which might not take zeros gracefully); its slot is released
 * all the same. */

/* The step's last ws.dot: the math on its products comes after it. */
static MlirOperation last_dot(MlirOperation loop) {
  MlirOperation last = {NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(ws_loop_body(loop)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (wsOperationIsA(op, "dot"))
      last = op;
  return last;
}

/* The tiles a step reads from the rings are read anew for another step. */
static void forget_ring_reads(specializer *S, value_map *m) {
  for (int r = 0; r < S->plan->num_rings; r++)
    if (!mlirOperationIsNull(S->plan->rings[r].producer)) {
      MlirValue v = mlirOperationGetResult(S->plan->rings[r].producer, 0);
      map_put(m, v, v);
    }
}

/* One step's wgmmas: wait for slot n, then the partition's ops up to the
 * last ws.dot at k (scalars and the splats a dot reads cloned, each ws.dot
 * a ws.mma on the slot into its fresh product, products[i]; the math
 * waits for math_step), then commit. Returns the slot, or null after an
 * error. */
static MlirValue issue_step(specializer *S, ws_builder *b, value_map *m, int part, int in,
                            MlirValue n, MlirValue *products) {
  MlirOperation stop = last_dot(S->plan->loop);
  MlirValue slot, phase;
  slot_phase(S, b, n, in, S->plan->channels[in].consumer_phase, &slot, &phase);
  wait_barrier(S, b, in, true, slot, phase);
  ws_build_void(b, "nvvm.wgmma.fence.aligned", 0, NULL, 0, NULL);
  int k = 0;
  for (MlirOperation op = first_tile_op(S, b, m, part); !mlirOperationIsNull(op);
       op = after(S, b, m, op, part)) {
    if (!wsOperationIsA(op, "dot")) {
      if (ws_feeds_dot(op))
        clone_mapped(b, op, m); /* a splat */
      continue;
    }
    if (!emit_mma(S, b, m, op, slot))
      return (MlirValue){NULL};
    products[k++] = map_get(m, mlirOperationGetResult(op, 0));
    if (mlirOperationEqual(op, stop))
      break;
  }
  ws_build_void(b, "nvvm.wgmma.commit.group.sync.aligned", 0, NULL, 0, NULL);
  return slot;
}

/* The ring tiles a step's math reads, read from `slot` (mapped). */
static void read_math_operands(specializer *S, ws_builder *b, value_map *m, int part, int in,
                               MlirValue slot) {
  for (MlirOperation op = mlirBlockGetFirstOperation(ws_loop_body(S->plan->loop));
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (in_partition(S, op, part) && !wsOperationIsA(op, "dot"))
      read_ring_operands(S, b, m, op, in, slot);
}

/* The products of a step whose wgmmas a wait retired, each through
 * ws.mma_done (the math reads what it returns), into ready[]. */
static void products_done(ws_builder *b, int num, const MlirValue *products, MlirValue *ready) {
  for (int i = 0; i < num; i++)
    ready[i] =
        ws_build_value(b, "ws.mma_done", 1, &products[i], mlirValueGetType(products[i]), 0, NULL);
}

/* One step's math at k on its ready products: the partition's scalars at
 * k, then every op but the ws.dots (math before them, such as a block
 * scale's, and after them), reading ring tiles from `slot` where not
 * already read; accs (the carried tiles) in and out. */
static void math_step(specializer *S, ws_builder *b, value_map *m, int part, int in, MlirValue k,
                      MlirValue slot, const MlirValue *products, MlirValue *accs) {
  MlirOperation loop = S->plan->loop;
  MlirBlock src = ws_loop_body(loop);
  map_put(m, mlirBlockGetArgument(src, 0), k);
  int carried = (int)mlirOperationGetNumResults(loop);
  for (int i = 0; i < carried; i++)
    map_put(m, mlirBlockGetArgument(src, 1 + i), accs[i]);
  int j = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(src); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (wsOperationIsA(op, "dot"))
      map_put(m, mlirOperationGetResult(op, 0), products[j++]);
  for (MlirOperation op = first_tile_op(S, b, m, part); !mlirOperationIsNull(op);
       op = after(S, b, m, op, part)) {
    if (wsOperationIsA(op, "dot"))
      continue;
    read_ring_operands(S, b, m, op, in, slot);
    clone_mapped(b, op, m);
  }
  MlirOperation yield = mlirBlockGetTerminator(src);
  for (int i = 0; i < carried; i++)
    accs[i] = map_get(m, mlirOperationGetOperand(yield, i));
}

/* Step `n`'s slot back to the load warp (its wgmmas and reads are done). */
static void release_slot(specializer *S, ws_builder *b, int in, MlirValue n) {
  MlirValue slot;
  slot_phase(S, b, n, in, S->plan->channels[in].consumer_phase, &slot, NULL);
  if (S->plan->channels[in].release_fence)
    fence_async_shared(b);
  arrive(S, b, in, false, slot);
}

/* scf.if cond -> (types of accs): the then block's builder in *then_b and
 * the else block already yielding accs; the caller ends the then block. */
static MlirOperation if_accs(ws_builder *b, MlirValue cond, int num, const MlirValue *accs,
                             MlirBlock *then_block, ws_builder *then_b) {
  MlirType types[WS_LAG_MAX_VALUES];
  for (int i = 0; i < num; i++)
    types[i] = mlirValueGetType(accs[i]);
  MlirBlock else_block;
  MlirOperation op = ws_build_if_values(b, cond, num, types, then_block, &else_block);
  ws_build_terminator(else_block, b->loc, "scf.yield", num, accs);
  *then_b = ws_builder_at_end(*then_block, b->loc);
  return op;
}

/* The lagged K loop of the consumers (see above), counting from `start`;
 * maps the source loop's results and returns the count after it, or null
 * after an error. */
static MlirValue emit_lagged_k_loop(specializer *S, ws_builder *at, value_map *m, int part, int in,
                                    MlirValue start) {
  MlirOperation loop = S->plan->loop;
  MlirBlock src = ws_loop_body(loop);
  int carried = (int)mlirOperationGetNumResults(loop), np = 0;
  MlirValue init[WS_LAG_MAX_VALUES], prod_a[WS_LAG_MAX_VALUES], prod_b[WS_LAG_MAX_VALUES];
  for (MlirOperation op = mlirBlockGetFirstOperation(src); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (wsOperationIsA(op, "dot"))
      prod_b[np++] = map_get(m, mlirOperationGetOperand(op, 2)); /* its zeros */
  if (1 + carried + np + 2 > WS_LAG_MAX_VALUES) {
    ws_emit_op_error(loop, "carries too many tiles for a lagged loop");
    return (MlirValue){NULL};
  }
  /* iter args: n, accs, the odd steps' products, their k, whether real */
  int nv = 0;
  init[nv++] = start;
  for (int i = 0; i < carried; i++)
    init[nv++] = map_get(m, mlirOperationGetOperand(loop, 3 + i));
  for (int i = 0; i < np; i++)
    init[nv++] = prod_b[i];
  init[nv++] = map_get(m, mlirOperationGetOperand(loop, 0));
  init[nv++] = ws_const_int(at, 0, mlirIntegerTypeGet(S->ctx, 1));
  MlirBlock body;
  ws_builder here = at_loop_of(at, loop);
  MlirOperation copy =
      ws_build_for(&here, map_get(m, mlirOperationGetOperand(loop, 0)),
                   map_get(m, mlirOperationGetOperand(loop, 1)), S->pair_step, nv, init, &body);
  ws_builder b = ws_builder_at_end(body, at->loc);
  MlirValue k = mlirBlockGetArgument(body, 0), n = mlirBlockGetArgument(body, 1);
  MlirValue accs[WS_LAG_MAX_VALUES];
  for (int i = 0; i < carried; i++)
    accs[i] = mlirBlockGetArgument(body, 2 + i);
  for (int i = 0; i < np; i++)
    prod_b[i] = mlirBlockGetArgument(body, 2 + carried + i);
  MlirValue k_b = mlirBlockGetArgument(body, 2 + carried + np);
  MlirValue iv = mlirBlockGetArgument(src, 0);
  /* step n: its wgmmas, then step n - 1's math */
  map_put(m, iv, k);
  MlirValue slot_a = issue_step(S, &b, m, part, in, n, prod_a);
  if (mlirValueIsNull(slot_a))
    return slot_a;
  wgmma_wait(&b, 1); /* retires nothing (%pb is done), but ends ptxas's stage */
  MlirBlock then_block;
  ws_builder t;
  MlirOperation first = if_accs(&b, ws_cmpi(&b, "ugt", n, start), carried, accs, &then_block, &t);
  MlirValue prev = ws_arith(&t, "arith.subi", n, c32(&t, 1)), prev_slot;
  slot_phase(S, &t, prev, in, S->plan->channels[in].consumer_phase, &prev_slot, NULL);
  forget_ring_reads(S, m);
  MlirValue step_accs[WS_LAG_MAX_VALUES], ready[WS_LAG_MAX_VALUES];
  memcpy(step_accs, accs, sizeof(MlirValue) * (size_t)carried);
  products_done(&t, np, prod_b, ready);
  math_step(S, &t, m, part, in, k_b, prev_slot, ready, step_accs);
  release_slot(S, &t, in, prev);
  ws_build_terminator(then_block, b.loc, "scf.yield", carried, step_accs);
  for (int i = 0; i < carried; i++)
    accs[i] = mlirOperationGetResult(first, i);
  /* step n + 1: its wgmmas, then step n's math */
  map_put(m, iv, k);
  MlirValue n1 = second_step(S, &b, m, n), k1 = map_get(m, iv);
  if (mlirValueIsNull(issue_step(S, &b, m, part, in, n1, prod_b)))
    return (MlirValue){NULL};
  wgmma_wait(&b, 1);
  forget_ring_reads(S, m);
  products_done(&b, np, prod_a, ready);
  math_step(S, &b, m, part, in, k, slot_a, ready, accs);
  release_slot(S, &b, in, n);
  wgmma_wait(&b, 0); /* nothing in flight across the back edge */
  MlirValue next[WS_LAG_MAX_VALUES];
  nv = 0;
  next[nv++] = ws_arith(&b, "arith.addi", n, c32(&b, 2));
  for (int i = 0; i < carried; i++)
    next[nv++] = accs[i];
  for (int i = 0; i < np; i++)
    next[nv++] = prod_b[i];
  next[nv++] = k1;
  next[nv++] = ws_cmpi(&b, "slt", k1, map_get(m, mlirOperationGetOperand(loop, 1)));
  ws_build_terminator(body, b.loc, "scf.yield", nv, next);
  /* after the loop: the last odd step's math, if it was real */
  MlirValue count = mlirOperationGetResult(copy, 0);
  for (int i = 0; i < carried; i++)
    accs[i] = mlirOperationGetResult(copy, 1 + i);
  for (int i = 0; i < np; i++)
    prod_b[i] = mlirOperationGetResult(copy, 1 + carried + i);
  MlirValue k_last = mlirOperationGetResult(copy, 1 + carried + np);
  MlirValue real = mlirOperationGetResult(copy, 2 + carried + np);
  MlirOperation last =
      if_accs(at, ws_cmpi(at, "ugt", count, start), carried, accs, &then_block, &t);
  prev = ws_arith(&t, "arith.subi", count, c32(&t, 1));
  slot_phase(S, &t, prev, in, S->plan->channels[in].consumer_phase, &prev_slot, NULL);
  forget_ring_reads(S, m);
  /* the slot's reads and ws.mma_done are protocol: outside %real's if */
  read_math_operands(S, &t, m, part, in, prev_slot);
  products_done(&t, np, prod_b, ready);
  MlirBlock math_block;
  ws_builder mb;
  MlirOperation odd = if_accs(&t, real, carried, accs, &math_block, &mb);
  memcpy(step_accs, accs, sizeof(MlirValue) * (size_t)carried);
  math_step(S, &mb, m, part, in, k_last, prev_slot, ready, step_accs);
  ws_build_terminator(math_block, b.loc, "scf.yield", carried, step_accs);
  for (int i = 0; i < carried; i++)
    step_accs[i] = mlirOperationGetResult(odd, i);
  release_slot(S, &t, in, prev);
  ws_build_terminator(then_block, b.loc, "scf.yield", carried, step_accs);
  for (int i = 0; i < carried; i++)
    map_put(m, mlirOperationGetResult(loop, i), mlirOperationGetResult(last, i));
  return count;
}

/* ---- a pipelined loop (ws_partition.pipelined) ------------------------------
 *
 * A step with two runs of ws.dot (S = Q K^T; the math; O += P V) runs
 * rotated, so that a warpgroup's softmax of step n + 1 runs while the
 * tensor cores run its P V of step n (FlashAttention-3's intra-warpgroup
 * overlap). The step's math splits in two: the late math reads the second
 * run's product carried from the step before (O's rescale), directly or
 * through other math; the early math is the rest (the softmax).
 *
 *   scf.if lb < ub {
 *     wait full(start); ws.mma S (slot start); commit; wait_group 0
 *     step 0's early math on ws.mma_done S
 *     scf.for %k = lb + s to ub step s iter_args(n = start, X) {
 *       wait full(n + 1); ws.mma S (slot n + 1); commit
 *       step n's late math; fence; ws.mma P V (slot n, X); commit
 *       wait_group 1; step n + 1's early math on ws.mma_done S
 *       wait_group 0; release slot n; P V's product through ws.mma_done
 *       yield n + 1, X of step n + 1
 *     }
 *     the last step's late math; ws.mma P V (its slot); commit;
 *     wait_group 0; release it
 *   }
 *
 * X are the tiles a step's late math, second run or yield read from its
 * early math or its carried tiles (P, O, the row statistics and the
 * rescale factor). The late math runs under S's wgmmas, as it does in
 * FlashAttention-3. Consumers that take turns make S of step n + 1, the
 * late math and P V of step n one turn. Nothing is in flight across the
 * back edge. */

enum { PIPE_MAX_DOTS = 8 };

/* The ws.dot ops of a step's first and second run. */
typedef struct step_runs {
  MlirOperation first[PIPE_MAX_DOTS], second[PIPE_MAX_DOTS];
  int num_first, num_second;
} step_runs;

static bool in_ops(const MlirOperation *ops, int n, MlirOperation op) {
  for (int i = 0; i < n; i++)
    if (mlirOperationEqual(ops[i], op))
      return true;
  return false;
}

/* Reads the two runs off the loop body (ws_loop_dot_runs's order). */
static bool read_step_runs(MlirOperation loop, step_runs *r) {
  r->num_first = r->num_second = 0;
  ws_step_walk w = ws_step_walk_begin(loop);
  while (ws_step_next(&w)) {
    if (!w.dot)
      continue;
    MlirOperation op = w.op;
    int run = w.run;
    if (run > 2 || (run == 1 ? r->num_first : r->num_second) == PIPE_MAX_DOTS)
      return false;
    if (run == 1)
      r->first[r->num_first++] = op;
    else
      r->second[r->num_second++] = op;
  }
  return r->num_first && r->num_second;
}

/* Issues one run's ws.dot ops as ws.mma on `slot` (the splats they read
 * cloned on the way); the results are mapped. */
static bool issue_run(specializer *S, ws_builder *b, value_map *m, int part,
                      const MlirOperation *dots, int num, MlirValue slot) {
  for (MlirOperation op = first_tile_op(S, b, m, part); !mlirOperationIsNull(op);
       op = after(S, b, m, op, part)) {
    if (!wsOperationIsA(op, "dot")) {
      if (ws_feeds_dot(op) && ws_is_splat_tile(op))
        clone_mapped(b, op, m);
      continue;
    }
    if (in_ops(dots, num, op) && !emit_mma(S, b, m, op, slot))
      return false;
  }
  return true;
}

/* Each run's product through ws.mma_done, once a wait retired it. */
static void run_done(ws_builder *b, value_map *m, const MlirOperation *dots, int num) {
  for (int i = 0; i < num; i++) {
    MlirValue src = mlirOperationGetResult(dots[i], 0), p = map_get(m, src);
    map_put(m, src, ws_build_value(b, "ws.mma_done", 1, &p, mlirValueGetType(p), 0, NULL));
  }
}

/* True when v is a result of one of the second run's ws.dot ops. */
static bool from_second_run(const step_runs *r, MlirValue v) {
  return mlirValueIsAOpResult(v) && in_ops(r->second, r->num_second, mlirOpResultGetOwner(v));
}

static bool marked(const value_map *set, MlirValue v) {
  return set->cap && map_find(set, v)->from.ptr;
}

/* True for math that is as cheap to redo where it is used as to carry:
 * a ws.broadcast of a row vector, an index tile, a splat. */
static bool rebuilt_where_used(MlirOperation op) {
  return wsOperationIsA(op, "broadcast") || wsOperationIsA(op, "iota") || ws_is_splat_tile(op);
}

/* Marks in `late` the math ops that read a carried tile the second run
 * yields (O), directly or through other math, and the cheap ops (a
 * ws.broadcast of the rescale factor) whose every user is late: each value
 * they make, and those carried tiles, map to themselves. */
static void mark_late_math(const specializer *S, const step_runs *r, value_map *late) {
  MlirBlock body = ws_loop_body(S->plan->loop);
  MlirOperation yield = mlirBlockGetTerminator(body);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(yield); i++)
    if (from_second_run(r, mlirOperationGetOperand(yield, i)))
      map_put(late, mlirBlockGetArgument(body, 1 + i), mlirBlockGetArgument(body, 1 + i));
  ws_op_list ops = {0};
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    ws_op_list_push(&ops, op);
    bool reads = false;
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(op) && !reads; i++)
      reads = marked(late, mlirOperationGetOperand(op, i));
    for (intptr_t i = 0; reads && i < mlirOperationGetNumResults(op); i++)
      map_put(late, mlirOperationGetResult(op, i), mlirOperationGetResult(op, i));
  }
  for (long k = ops.len; k-- > 0;) { /* users come after: one backward pass */
    MlirOperation op = ops.items[k];
    if (mlirOperationGetNumResults(op) != 1 || !rebuilt_where_used(op) ||
        marked(late, mlirOperationGetResult(op, 0)))
      continue;
    bool all_late = true, any = false;
    for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, 0));
         !mlirOpOperandIsNull(u) && all_late; u = mlirOpOperandGetNextUse(u)) {
      MlirOperation user = mlirOpOperandGetOwner(u);
      any = true;
      all_late = mlirOperationGetNumResults(user) && !wsOperationIsA(user, "dot") &&
                 marked(late, mlirOperationGetResult(user, 0));
    }
    if (any && all_late)
      map_put(late, mlirOperationGetResult(op, 0), mlirOperationGetResult(op, 0));
  }
  ws_op_list_free(&ops);
}

static bool is_late(const value_map *late, MlirOperation op) {
  return mlirOperationGetNumResults(op) && marked(late, mlirOperationGetResult(op, 0));
}

/* The step's early or late math (every tile op but the ws.dots), reading
 * ring tiles from `slot` where not already read. */
static void emit_step_math(specializer *S, ws_builder *b, value_map *m, int part, int in,
                           MlirValue slot, const value_map *late, bool late_part) {
  for (MlirOperation op = first_tile_op(S, b, m, part); !mlirOperationIsNull(op);
       op = after(S, b, m, op, part)) {
    if (wsOperationIsA(op, "dot") || is_late(late, op) != late_part)
      continue;
    read_ring_operands(S, b, m, op, in, slot);
    clone_mapped(b, op, m);
  }
}

/* Adds v to xs (X above) when it is a tile of the step (the early math's,
 * the first run's or a carried one) and not there yet; false when xs is
 * full. */
static bool add_step_input(const step_runs *r, const value_map *late, MlirBlock body, MlirValue v,
                           MlirValue *xs, int cap, int *num) {
  if (!mlirTypeIsARankedTensor(mlirValueGetType(v)) || from_second_run(r, v))
    return true;
  if (mlirValueIsAOpResult(v)) {
    MlirOperation def = mlirOpResultGetOwner(v);
    if (!mlirBlockEqual(mlirOperationGetBlock(def), body) || is_late(late, def) ||
        wsOperationIsA(def, "load") || ws_is_splat_tile(def))
      return true; /* from outside, rebuilt, or read from its slot by the ws.mma */
  } else if (!mlirBlockEqual(mlirBlockArgumentGetOwner(v), body)) {
    return true;
  }
  for (int j = 0; j < *num; j++)
    if (mlirValueEqual(xs[j], v))
      return true;
  if (*num == cap)
    return false;
  xs[(*num)++] = v;
  return true;
}

/* X: what the late math, the second run and the yield read from the rest
 * of the step; false when there are more than `cap`. */
static bool collect_step_inputs(const step_runs *r, const value_map *late, MlirOperation loop,
                                MlirValue *xs, int cap, int *num) {
  MlirBlock body = ws_loop_body(loop);
  *num = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    bool reader =
        ws_op_is(op, "scf.yield") || in_ops(r->second, r->num_second, op) || is_late(late, op);
    for (intptr_t i = 0; reader && i < mlirOperationGetNumOperands(op); i++)
      if (!add_step_input(r, late, body, mlirOperationGetOperand(op, i), xs, cap, num))
        return false;
  }
  return true;
}

/* The yield's values of the step the map holds, into out[]. */
static void step_results(specializer *S, value_map *m, MlirValue *out) {
  MlirOperation yield = mlirBlockGetTerminator(ws_loop_body(S->plan->loop));
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(yield); i++)
    out[i] = map_get(m, mlirOperationGetOperand(yield, i));
}

/* A step's late math, then its second run on `slot` (fenced: the late
 * math wrote registers its wgmmas read), committed. */
static bool late_math_and_second_run(specializer *S, ws_builder *b, value_map *m, int part, int in,
                                     MlirValue slot, const value_map *late, const step_runs *r) {
  forget_ring_reads(S, m);
  emit_step_math(S, b, m, part, in, slot, late, true);
  ws_build_void(b, "nvvm.wgmma.fence.aligned", 0, NULL, 0, NULL);
  bool ok = issue_run(S, b, m, part, r->second, r->num_second, slot);
  ws_build_void(b, "nvvm.wgmma.commit.group.sync.aligned", 0, NULL, 0, NULL);
  return ok;
}

/* The pipelined loop of the consumers (see above), counting from `start`;
 * maps the source loop's results and returns the count after it, or null
 * after an error. */
static MlirValue emit_pipelined_k_loop(specializer *S, ws_builder *at, value_map *m, int part,
                                       int in, MlirValue start, const turn_order *turns) {
  MlirOperation loop = S->plan->loop;
  MlirBlock src = ws_loop_body(loop);
  MlirValue iv = mlirBlockGetArgument(src, 0);
  int carried = (int)mlirOperationGetNumResults(loop), nx = 0;
  step_runs r;
  value_map late = {0};
  MlirValue xs[WS_LAG_MAX_VALUES], vals[WS_LAG_MAX_VALUES + 1];
  bool ok = read_step_runs(loop, &r) && carried + 1 <= WS_LAG_MAX_VALUES;
  if (ok)
    mark_late_math(S, &r, &late);
  if (!ok || !collect_step_inputs(&r, &late, loop, xs, WS_LAG_MAX_VALUES - 1, &nx)) {
    map_free(&late);
    ws_emit_op_error(loop,
                     "cannot be pipelined: it needs two runs of at most %d ws.dot "
                     "ops and carries at most %d tiles from one step's math to its "
                     "second run",
                     PIPE_MAX_DOTS, WS_LAG_MAX_VALUES - 1);
    return (MlirValue){NULL};
  }
  MlirValue lb = map_get(m, mlirOperationGetOperand(loop, 0));
  MlirValue ub = map_get(m, mlirOperationGetOperand(loop, 1));
  MlirValue step = mlirOperationGetOperand(loop, 2);
  /* scf.if lb < ub -> (count, the loop's results) */
  MlirType types[WS_LAG_MAX_VALUES + 1];
  types[0] = S->i32;
  vals[0] = start;
  for (int i = 0; i < carried; i++) {
    types[1 + i] = mlirValueGetType(mlirOperationGetResult(loop, i));
    vals[1 + i] = map_get(m, mlirOperationGetOperand(loop, 3 + i));
  }
  MlirBlock then_block, else_block;
  MlirOperation any = ws_build_if_values(at, ws_cmpi(at, "slt", lb, ub), 1 + carried, types,
                                         &then_block, &else_block);
  ws_build_terminator(else_block, at->loc, "scf.yield", 1 + carried, vals);
  ws_builder t = ws_builder_at_end(then_block, at->loc);
  /* step 0: S, then its early math */
  map_put(m, iv, lb);
  for (int i = 0; i < carried; i++)
    map_put(m, mlirBlockGetArgument(src, 1 + i), vals[1 + i]);
  MlirValue slot, phase;
  slot_phase(S, &t, start, in, S->plan->channels[in].consumer_phase, &slot, &phase);
  wait_barrier(S, &t, in, true, slot, phase);
  ws_build_void(&t, "nvvm.wgmma.fence.aligned", 0, NULL, 0, NULL);
  ok = issue_run(S, &t, m, part, r.first, r.num_first, slot);
  ws_build_void(&t, "nvvm.wgmma.commit.group.sync.aligned", 0, NULL, 0, NULL);
  if (turns->ch >= 0)
    end_turn(S, &t, turns, turn_at(&t, turns, start, 0));
  wgmma_wait(&t, 0);
  run_done(&t, m, r.first, r.num_first);
  forget_ring_reads(S, m);
  emit_step_math(S, &t, m, part, in, slot, &late, false);
  /* the loop: S of step n + 1, step n's late math and P V, step n + 1's
   * early math */
  MlirValue init[WS_LAG_MAX_VALUES];
  init[0] = start;
  for (int i = 0; i < nx; i++)
    init[1 + i] = map_get(m, xs[i]);
  MlirBlock body;
  MlirOperation copy =
      ws_build_for(&t, ws_arith(&t, "arith.addi", lb, step), ub, step, 1 + nx, init, &body);
  ws_builder b = ws_builder_at_end(body, at->loc);
  MlirValue n = mlirBlockGetArgument(body, 1), n1 = ws_arith(&b, "arith.addi", n, c32(&b, 1));
  map_put(m, iv, mlirBlockGetArgument(body, 0));
  if (turns->ch >= 0)
    take_turn_after(S, &b, turns, turn_at(&b, turns, n1, 0));
  MlirValue next_slot, prev_slot;
  slot_phase(S, &b, n1, in, S->plan->channels[in].consumer_phase, &next_slot, &phase);
  wait_barrier(S, &b, in, true, next_slot, phase);
  ws_build_void(&b, "nvvm.wgmma.fence.aligned", 0, NULL, 0, NULL);
  ok = ok && issue_run(S, &b, m, part, r.first, r.num_first, next_slot);
  ws_build_void(&b, "nvvm.wgmma.commit.group.sync.aligned", 0, NULL, 0, NULL);
  for (int i = 0; i < nx; i++)
    map_put(m, xs[i], mlirBlockGetArgument(body, 2 + i));
  slot_phase(S, &b, n, in, S->plan->channels[in].consumer_phase, &prev_slot, NULL);
  ok = ok && late_math_and_second_run(S, &b, m, part, in, prev_slot, &late, &r);
  if (turns->ch >= 0)
    end_turn(S, &b, turns, turn_at(&b, turns, n1, 0));
  /* step n + 1's carried tiles: step n's yield (P V's products pending) */
  MlirValue next[WS_LAG_MAX_VALUES];
  step_results(S, m, next);
  wgmma_wait(&b, 1);
  run_done(&b, m, r.first, r.num_first);
  MlirOperation yield = mlirBlockGetTerminator(src);
  for (int i = 0; i < carried; i++)
    map_put(m, mlirBlockGetArgument(src, 1 + i), next[i]);
  forget_ring_reads(S, m);
  emit_step_math(S, &b, m, part, in, next_slot, &late, false);
  wgmma_wait(&b, 0);
  release_slot(S, &b, in, n);
  run_done(&b, m, r.second, r.num_second);
  for (int i = 0; i < carried; i++)
    if (from_second_run(&r, mlirOperationGetOperand(yield, i)))
      map_put(m, mlirBlockGetArgument(src, 1 + i), map_get(m, mlirOperationGetOperand(yield, i)));
  next[0] = n1;
  for (int i = 0; i < nx; i++)
    next[1 + i] = map_get(m, xs[i]);
  ws_build_terminator(body, b.loc, "scf.yield", 1 + nx, next);
  /* the last step's late math and P V */
  MlirValue last = mlirOperationGetResult(copy, 0);
  map_put(m, iv, lb); /* scalars the walks clone on the way, unused */
  for (int i = 0; i < nx; i++)
    map_put(m, xs[i], mlirOperationGetResult(copy, 1 + i));
  if (turns->ch >= 0)
    take_turn_after(S, &t, turns,
                    turn_at(&t, turns, ws_arith(&t, "arith.addi", last, c32(&t, 1)), 0));
  slot_phase(S, &t, last, in, S->plan->channels[in].consumer_phase, &slot, NULL);
  ok = ok && late_math_and_second_run(S, &t, m, part, in, slot, &late, &r);
  wgmma_wait(&t, 0);
  release_slot(S, &t, in, last);
  run_done(&t, m, r.second, r.num_second);
  vals[0] = ws_arith(&t, "arith.addi", last, c32(&t, 1));
  step_results(S, m, vals + 1);
  ws_build_terminator(then_block, at->loc, "scf.yield", 1 + carried, vals);
  map_free(&late);
  for (int i = 0; i < carried; i++)
    map_put(m, mlirOperationGetResult(loop, i), mlirOperationGetResult(any, 1 + i));
  return ok ? mlirOperationGetResult(any, 0) : (MlirValue){NULL};
}

/* The consumers' side of the prologue channels (an attention kernel's Q):
 * wait once for each slot before the loop and note it for the ws.mma ops
 * that read it; with `release`, free them once every wgmma is done. */
static void prologue_channels(specializer *S, ws_builder *b, int part, bool release) {
  for (int ch = 0; ch < S->plan->num_channels; ch++) {
    const ws_channel *c = &S->plan->channels[ch];
    if (c->to != part || !ws_channel_is_prologue(S->plan, ch))
      continue;
    MlirValue slot, phase;
    slot_phase(S, b, c32(b, 0), ch, c->consumer_phase, &slot, &phase);
    if (release) {
      if (c->release_fence) /* read in registers: before TMA may refill it */
        fence_async_shared(b);
      arrive(S, b, ch, false, slot);
      continue;
    }
    wait_barrier(S, b, ch, true, slot, phase);
    for (int r = 0; r < S->plan->num_rings; r++)
      if (S->plan->rings[r].channel == ch)
        S->prologue_slot[r] = slot;
  }
}

/* Ping-pong: the K steps of one tile, counted by a loop over the K loop's
 * bounds as `m` maps them (a warpgroup skipping the other's tile advances
 * its K count by as many steps as that tile takes from the ring). */
static MlirValue count_k_steps(specializer *S, ws_builder *b, const value_map *m) {
  MlirOperation loop = S->plan->loop;
  MlirValue zero = c32(b, 0);
  MlirBlock body;
  MlirOperation count = ws_build_for(b, map_get(m, mlirOperationGetOperand(loop, 0)),
                                     map_get(m, mlirOperationGetOperand(loop, 1)),
                                     mlirOperationGetOperand(loop, 2), 1, &zero, &body);
  ws_builder in = ws_builder_at_end(body, b->loc);
  MlirValue next = ws_arith(&in, "arith.addi", mlirBlockGetArgument(body, 1), c32(&in, 1));
  ws_build_terminator(body, b->loc, "scf.yield", 1, &next);
  return mlirOperationGetResult(count, 0);
}

/* True when the K loop's bounds are computed in the tile loop (stream-K's
 * units, ws.stream_k_unit): each tile then runs K steps of its own. */
static bool k_steps_vary(const specializer *S) {
  MlirOperation tile = ws_plan_tile_loop(S->plan);
  return !mlirOperationIsNull(tile) &&
         (ws_defined_within(mlirOperationGetOperand(S->plan->loop, 0), tile) ||
          ws_defined_within(mlirOperationGetOperand(S->plan->loop, 1), tile));
}

/* The ping-pong consumers' turn channel (from the partition to itself). */
static int turn_channel(const specializer *S, int part) {
  for (int ch = 0; ch < S->plan->num_channels; ch++)
    if (S->plan->channels[ch].from == part && S->plan->channels[ch].to == part)
      return ch;
  return -1;
}

/* if (tile count > 0) wait for the turn of tile count - 1: the other
 * warpgroup has passed every wait of its K loop. */
static void take_turn(specializer *S, ws_builder *b, MlirValue tiles, int turn) {
  MlirBlock then_block;
  ws_build_if(b, ws_cmpi(b, "ugt", tiles, c32(b, 0)), &then_block, NULL);
  ws_builder t = ws_builder_before(mlirBlockGetTerminator(then_block));
  MlirValue slot, phase;
  slot_phase(S, &t, ws_arith(&t, "arith.subi", tiles, c32(&t, 1)), turn,
             S->plan->channels[turn].consumer_phase, &slot, &phase);
  wait_barrier(S, &t, turn, true, slot, phase);
}

/* The calling thread's warpgroup among the consumers (they are warps 0..). */
static MlirValue own_warpgroup(specializer *S, ws_builder *b) {
  MlirValue tid = ws_build_value(b, "nvvm.read.ptx.sreg.tid.x", 0, NULL, S->i32, 0, NULL);
  return ws_arith(b, "arith.divui", tid, c32(b, 4 * WARP_THREADS));
}

/* A matmul's epilogue, once the loop's results are mapped: its operands
 * (a bias, a residual) from their slots, its math, and the C tile into its
 * slot for the store warp; `tile_n` counts the tiles (null when not
 * persistent: tile 0, built where it is first used). */
static void emit_epilogue(specializer *S, ws_builder *at, value_map *m, int part,
                          MlirValue tile_n) {
  if (takes_epilogue_operands(S, part)) {
    tile_n = mlirValueIsNull(tile_n) ? c32(at, 0) : tile_n;
    transfer(S, at, m, tile_n, part, true, true, false);
  }
  for (MlirOperation op = first_epilogue_op(S, at, m, part); !mlirOperationIsNull(op);
       op = after(S, at, m, op, part))
    clone_mapped(at, op, m);
  transfer(S, at, m, mlirValueIsNull(tile_n) ? c32(at, 0) : tile_n, part, false, false, false);
}

/* The channel into `part` that a matmul's K loop steps (the A and B
 * rings), or -1. */
static int k_loop_channel(const specializer *S, int part) {
  for (int ch = 0; ch < S->plan->num_channels; ch++)
    if (S->plan->channels[ch].to == part && S->plan->channels[ch].from != part &&
        !ws_channel_is_epilogue(S->plan, ch) && !ws_channel_is_prologue(S->plan, ch))
      return ch;
  return -1;
}

/* The consumer warpgroups of a matmul: the K loop (emit_k_loop); after it,
 * wait for the last group and free its slot. Then the epilogue: its math
 * on the accumulator and the write of the C tile into its slot (slot
 * `tile_n` of the channel) for the store warp, after a barrier of the
 * consumers when that slot lies over the rings they may still read. In a
 * persistent kernel all of it runs per tile, in the partition's copy of the
 * tile loop, which carries the K step count and the tile count. Ping-pong:
 * each warpgroup runs it only for the tiles whose count has its parity,
 * with the whole accumulator, and both advance the K count by every tile's
 * steps (the ring is filled in tile order). */
static void emit_wgmma_consumers(specializer *S, ws_builder *outer, int part) {
  int in = k_loop_channel(S, part);
  if (in < 0) {
    ws_emit_op_error(S->plan->loop, "has no channel into its consumer warpgroups; run "
                                    "ws-plan-memory");
    S->failed = true;
    return;
  }
  value_map *m = fresh_map(S);
  bool pingpong = S->plan->parts[part].pingpong;
  bool per_tile = pingpong && k_steps_vary(S);
  MlirValue k_steps = pingpong && !per_tile ? count_k_steps(S, outer, m) : (MlirValue){NULL};
  MlirValue warpgroup = pingpong ? own_warpgroup(S, outer) : (MlirValue){NULL};
  MlirValue counts[2] = {c32(outer, 0), c32(outer, 0)}; /* K steps, tiles */
  prologue_channels(S, outer, part, false);
  tile_nest t = open_tile_loop(S, outer, m, part, 2, counts);
  if (per_tile) /* both warpgroups count every unit's own steps */
    k_steps = count_k_steps(S, &t.at, m);
  bool persistent = !mlirOperationIsNull(t.loop);
  MlirValue base = persistent ? counts[0] : (MlirValue){NULL};
  ws_builder mine = t.at;
  if (pingpong) { /* this warpgroup's tiles: every other one */
    MlirValue parity = ws_arith(&t.at, "arith.remui", counts[1], c32(&t.at, 2));
    MlirBlock then_block;
    ws_build_if(&t.at, ws_cmpi(&t.at, "eq", parity, warpgroup), &then_block, NULL);
    mine = ws_builder_before(mlirBlockGetTerminator(then_block));
  }
  ws_builder *at = &mine;
  int turn = pingpong ? turn_channel(S, part) : -1;
  if (turn >= 0) /* wait for the other warpgroup's tile before this one */
    take_turn(S, at, counts[1], turn);
  turn_order turns = {.ch = -1};
  if (S->plan->parts[part].turns && !persistent && ws_loop_dot_runs(S->plan->loop) > 1) {
    turns.ch = turn_channel(S, part);
    turns.warpgroup = own_warpgroup(S, at);
    turns.warpgroups = S->plan->parts[part].num_warps / 4;
    MlirBlock then_block; /* warpgroup w's first turn follows w - 1's */
    ws_build_if(at, ws_cmpi(at, "ugt", turns.warpgroup, c32(at, 0)), &then_block, NULL);
    ws_builder t1 = ws_builder_before(mlirBlockGetTerminator(then_block));
    take_turn_after(S, &t1, &turns, turn_at(&t1, &turns, c32(&t1, 0), 0));
  }
  MlirValue steps;
  bool own_waits = S->plan->parts[part].lag || S->plan->parts[part].pipelined;
  if (own_waits) { /* waits, releases and maps the results itself */
    steps = S->plan->parts[part].lag ? emit_lagged_k_loop(S, at, m, part, in, counts[0])
                                     : emit_pipelined_k_loop(S, at, m, part, in, counts[0], &turns);
    if (mlirValueIsNull(steps)) {
      S->failed = true;
      return;
    }
  } else {
    MlirOperation copy = emit_k_loop(S, at, m, part, in, counts[0], base, &turns);
    if (mlirOperationIsNull(copy)) {
      S->failed = true;
      return;
    }
    steps = mlirOperationGetResult(copy, 0);
    for (intptr_t i = 0; i < mlirOperationGetNumResults(S->plan->loop); i++)
      map_put(m, mlirOperationGetResult(S->plan->loop, i), mlirOperationGetResult(copy, 1 + i));
  }
  if (turn >= 0) { /* every wait of this tile passed: the other may go on */
    MlirValue slot;
    slot_phase(S, at, counts[1], turn, S->plan->channels[turn].producer_phase, &slot, NULL);
    arrive(S, at, turn, true, slot);
  }
  if (turns.ch >= 0) /* the last turn: the last step's last run */
    end_turn(S, at, &turns, turn_at(at, &turns, steps, 0));
  if (!own_waits) {
    wgmma_wait(at, 0);
    release_lagging(S, at, steps, in, 1, base);
  }
  prologue_channels(S, at, part, true);
  if (epilogue_reuses_rings(S)) {
    MlirValue ops[2] = {c32(at, 1), c32(at, S->plan->parts[part].num_warps * 32)};
    MlirNamedAttribute seg = ws_named_text(S->ctx, "operandSegmentSizes", "array<i32: 1, 1, 0>");
    ws_build_void(at, "nvvm.barrier", 2, ops, 1, &seg);
  }
  emit_epilogue(S, at, m, part, persistent ? counts[1] : (MlirValue){NULL});
  if (persistent) {
    MlirValue next[2] = {pingpong ? ws_arith(&t.at, "arith.addi", counts[0], k_steps) : steps,
                         ws_arith(&t.at, "arith.addi", counts[1], c32(&t.at, 1))};
    close_tile_loop(&t, 2, next);
  }
}

/* The store warp of a matmul: the epilogue's stores, once (iteration 0),
 * or per tile of a persistent kernel (its copy of the tile loop counts the
 * tiles, and releases each C slot once its store has read it); then a
 * drain before the warp exits. */
static void emit_epilogue_store(specializer *S, ws_builder *b, int part) {
  value_map *m = fresh_map(S);
  bool started[WS_MAX_CHANNELS] = {false};
  MlirValue n = c32(b, 0);
  tile_nest t = open_tile_loop(S, b, m, part, 1, &n);
  emit_tma_ops(S, &t.at, m, n, first_epilogue_op(S, &t.at, m, part), part, started);
  if (mlirOperationIsNull(t.loop)) {
    if (stored_whole(S, started)) /* parts commit their own groups */
      ws_build_void(b, "nvvm.cp.async.bulk.commit.group", 0, NULL, 0, NULL);
  } else {
    release_stored_slots(S, &t.at, n, started);
    MlirValue next = ws_arith(&t.at, "arith.addi", n, c32(&t.at, 1));
    close_tile_loop(&t, 1, &next);
  }
  bulk_wait(b, 0, false);
}

/* ---- a matmul on sm_100a (tcgen05, tensor memory) --------------------------- */

static void tcgen05_fence(ws_builder *b, bool before) {
  MlirNamedAttribute kind = ws_named_text(
      b->ctx, "kind", before ? "#nvvm.tcgen05_fence<before>" : "#nvvm.tcgen05_fence<after>");
  ws_build_void(b, "nvvm.tcgen05.fence", 0, NULL, 1, &kind);
}

/* The MMA warp's elected thread, per tile: wait until the epilogue has
 * read the accumulator buffer this tile takes (its empty barrier; a fresh
 * one passes), then each K step: wait for the slot, issue the step's
 * tcgen05.mma into the buffer (overwriting it on the tile's first step)
 * and commit to the slot's empty barrier, which the MMAs' completion
 * releases for the load warp. After the last step, commit to the
 * buffer's full barrier: the epilogue may read it once every MMA of the
 * tile is done. */
static void emit_tcgen05_issuer(specializer *S, ws_builder *mma_warp, int part) {
  int in = k_loop_channel(S, part), acc = S->plan->tmem.channel;
  /* a pair's MMAs are the leader's: its peer's MMA warp only allocates */
  ws_builder issuer = ws_plan_is_pair(S->plan) ? leader_only(S, mma_warp) : *mma_warp;
  ws_builder *outer = &issuer;
  MlirOperation loop = S->plan->loop, dot = {NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(ws_loop_body(loop)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (wsOperationIsA(op, "dot"))
      dot = op;
  int ra =
      mlirOperationIsNull(dot) ? -1 : ws_ring_of_value(S->plan, mlirOperationGetOperand(dot, 0));
  int rb =
      mlirOperationIsNull(dot) ? -1 : ws_ring_of_value(S->plan, mlirOperationGetOperand(dot, 1));
  if (in < 0 || ra < 0 || rb < 0) {
    ws_emit_op_error(loop, "has no ring into its MMA warp; run ws-plan-memory");
    S->failed = true;
    return;
  }
  value_map *m = fresh_map(S);
  MlirValue counts[2] = {c32(outer, 0), c32(outer, 0)}; /* K steps, tiles */
  tile_nest t = open_tile_loop(S, outer, m, part, 2, counts);
  ws_builder *at = &t.at;
  MlirValue buffer, phase;
  slot_phase(S, at, counts[1], acc, S->plan->channels[acc].producer_phase, &buffer, &phase);
  wait_barrier(S, at, acc, false, buffer, phase);
  tcgen05_fence(at, false);
  MlirValue n;
  MlirOperation copy;
  MlirBlock body = open_loop(S, at, m, counts[0], false, &n, &copy);
  ws_builder b = ws_builder_at_end(body, at->loc);
  MlirValue slot;
  slot_phase(S, &b, n, in, S->plan->channels[in].consumer_phase, &slot, &phase);
  wait_barrier(S, &b, in, true, slot, phase);
  MlirValue ops[3] = {slot, buffer, ws_cmpi(&b, "ne", n, counts[0])};
  MlirNamedAttribute attrs[3] = {int_attr(S->ctx, "ring_a", ra), int_attr(S->ctx, "ring_b", rb),
                                 ws_named(S->ctx, "transpose_b", mlirUnitAttrGet(S->ctx))};
  ws_builder issue = b;
  issue.loc = mlirOperationGetLocation(dot);
  for (int i = 0; i < S->plan->tmem.num_scales; i++) { /* the step's scales */
    MlirNamedAttribute ring = int_attr(S->ctx, "ring", S->plan->tmem.scale_ring[i]);
    ws_build_void(&issue, "ws.tmem_copy", 1, &slot, 1, &ring);
  }
  ws_build_void(&issue, "ws.tc_mma", 3, ops, ws_has_attr(dot, "transpose_b") ? 3 : 2, attrs);
  signal(S, &b, "ws.commit", in, false, slot);
  close_loop(S, &b, body, n, m);
  signal(S, at, "ws.commit", acc, true, buffer);
  if (!mlirOperationIsNull(t.loop)) {
    MlirValue next[2] = {mlirOperationGetResult(copy, 0),
                         ws_arith(at, "arith.addi", counts[1], c32(at, 1))};
    close_tile_loop(&t, 2, next);
  }
}

/* The epilogue warpgroups of a matmul on sm_100a, per tile: wait for the
 * accumulator buffer, read it from tensor memory into registers, give the
 * buffer back to the MMA warp (the fences order the read before the
 * arrival), then the epilogue as on sm_90a. */
static void emit_tmem_epilogue(specializer *S, ws_builder *outer, int part) {
  int acc = S->plan->tmem.channel;
  value_map *m = fresh_map(S);
  MlirValue tiles = c32(outer, 0);
  tile_nest t = open_tile_loop(S, outer, m, part, 1, &tiles);
  ws_builder *at = &t.at;
  MlirValue buffer, phase;
  slot_phase(S, at, tiles, acc, S->plan->channels[acc].consumer_phase, &buffer, &phase);
  wait_barrier(S, at, acc, true, buffer, phase);
  tcgen05_fence(at, false);
  MlirValue result = mlirOperationGetResult(S->plan->loop, 0);
  MlirValue load[2] = {buffer,
                       ws_cmpi(at, "slt", map_get(m, mlirOperationGetOperand(S->plan->loop, 0)),
                               map_get(m, mlirOperationGetOperand(S->plan->loop, 1)))};
  map_put(m, result,
          ws_build_value(at, "ws.tmem_load", 2, load, mlirValueGetType(result), 0, NULL));
  tcgen05_fence(at, true);
  arrive(S, at, acc, false, buffer);
  emit_epilogue(S, at, m, part, mlirOperationIsNull(t.loop) ? (MlirValue){NULL} : tiles);
  if (!mlirOperationIsNull(t.loop)) {
    MlirValue next = ws_arith(at, "arith.addi", tiles, c32(at, 1));
    close_tile_loop(&t, 1, &next);
  }
}

/* The MMA warp allocates tensor memory before the block-wide barrier after
 * the barrier inits (every lane: tcgen05.alloc is .sync.aligned) and gives
 * up the right to allocate more; the fence before the barrier and the one
 * after it order the allocation before every use. */
/* A builder inside `if (warp == the MMA warp)`: the whole warp, as
 * tcgen05.alloc and dealloc (.sync.aligned) need. */
static ws_builder in_mma_warp(specializer *S, ws_builder *b, MlirValue warp) {
  int mma = ws_plan_find_role(S->plan, WS_ROLE_MMA);
  MlirBlock then_block;
  ws_build_if(b, ws_cmpi(b, "eq", warp, c32(b, S->plan->parts[mma].first_warp)), &then_block, NULL);
  return ws_builder_before(mlirBlockGetTerminator(then_block));
}

static void alloc_tmem(specializer *S, ws_builder *b, MlirValue warp) {
  ws_builder t = in_mma_warp(S, b, warp);
  ws_build_void(&t, "ws.tmem_alloc", 0, NULL, 0, NULL);
  /* a pair's allocation is both CTAs' (cta_group::2), as its every
   * tcgen05 op must be */
  int ctas = ws_plan_mma_ctas(S->plan);
  MlirNamedAttribute group = ws_named_cta_group(S->ctx, "group", ctas);
  ws_build_void(&t, "nvvm.tcgen05.relinquish_alloc_permit", 0, NULL, ctas > 1, &group);
  tcgen05_fence(&t, true);
}

/* Once every partition is done (the epilogue's last tcgen05.ld waited
 * for, its fence before a block-wide barrier), the MMA warp frees tensor
 * memory. A pair's barrier is the cluster's, which is also its exit: the
 * leader's MMAs wrote both CTAs' tensor memory, and the two MMA warps free
 * it together. */
static void dealloc_tmem(specializer *S, ws_builder *b, MlirValue warp) {
  tcgen05_fence(b, true);
  sync_threads(S, b, false);
  ws_builder t = in_mma_warp(S, b, warp);
  tcgen05_fence(&t, false);
  ws_build_void(&t, "ws.tmem_dealloc", 0, NULL, 0, NULL);
}

/* ---- the kernel ------------------------------------------------------------ */

static void init_barriers(specializer *S, ws_builder *b, MlirValue tid, MlirValue warp) {
  MlirBlock then_block;
  ws_build_if(b, ws_cmpi(b, "eq", tid, c32(b, 0)), &then_block, NULL);
  ws_builder t = ws_builder_before(mlirBlockGetTerminator(then_block));
  for (int ch = 0; ch < S->plan->num_channels; ch++) {
    const ws_channel *c = &S->plan->channels[ch];
    for (int full = 1; full >= 0; full--) {
      MlirNamedAttribute attrs[3] = {
          int_attr(S->ctx, "channel", ch), barrier_attr(S->ctx, full),
          int_attr(S->ctx, "count", full ? c->full_arrivals : c->empty_arrivals)};
      ws_build_void(&t, "ws.init_barrier", 0, NULL, 3, attrs);
    }
  }
  ws_build_void(&t, "nvvm.fence.mbarrier.init", 0, NULL, 0, NULL);
  if (S->plan->tmem.tile.ptr)
    alloc_tmem(S, b, warp);
  sync_threads(S, b, true);
  if (S->plan->tmem.tile.ptr)
    tcgen05_fence(b, false);
}

typedef void (*emit_fn)(specializer *, ws_builder *, int);

/* if (warp == its first warp && elected) { partition }, for each partition
 * of the role: TMA partitions run on one lane. */
static void emit_workers(specializer *S, ws_builder *b, MlirValue warp, ws_role role,
                         emit_fn emit) {
  for (int part = 0; part < S->plan->num_parts; part++) {
    if (S->plan->parts[part].role != role)
      continue;
    MlirValue mine = ws_cmpi(b, "eq", warp, c32(b, S->plan->parts[part].first_warp));
    MlirValue elected =
        ws_build_value(b, "nvvm.elect.sync", 0, NULL, mlirIntegerTypeGet(S->ctx, 1), 0, NULL);
    MlirBlock then_block;
    ws_build_if(b, ws_arith(b, "arith.andi", mine, elected), &then_block, NULL);
    ws_builder t = ws_builder_before(mlirBlockGetTerminator(then_block));
    emit(S, &t, part);
  }
}

static void emit_partitions(specializer *S, ws_builder *b, MlirValue warp) {
  int compute = ws_plan_find_role(S->plan, WS_ROLE_COMPUTE);
  ws_builder workers = *b;
  if (compute >= 0) {
    const ws_partition *p = &S->plan->parts[compute];
    MlirBlock then_block, else_block;
    ws_build_if(b, ws_cmpi(b, "ult", warp, c32(b, p->num_warps)), &then_block, &else_block);
    ws_builder t = ws_builder_before(mlirBlockGetTerminator(then_block));
    setmaxnreg(&t, true, p->registers);
    (S->plan->tmem.tile.ptr       ? emit_tmem_epilogue
     : ws_plan_is_matmul(S->plan) ? emit_wgmma_consumers
                                  : emit_compute_partition)(S, &t, compute);
    /* The TMA partitions share the warpgroup after the compute warps and
     * drop to one count. */
    workers = ws_builder_before(mlirBlockGetTerminator(else_block));
    for (int q = 0; q < S->plan->num_parts; q++)
      if (q != compute) {
        setmaxnreg(&workers, false, S->plan->parts[q].registers);
        break;
      }
  }
  emit_workers(S, &workers, warp, WS_ROLE_LOAD, emit_tma_partition);
  emit_workers(S, &workers, warp, WS_ROLE_MMA, emit_tcgen05_issuer);
  emit_workers(S, &workers, warp, WS_ROLE_STORE,
               ws_plan_is_matmul(S->plan) ? emit_epilogue_store : emit_tma_partition);
}

/* The loop must be the kernel's last op before gpu.return, at its top
 * level: the partitions replace it there. */
static bool check_placement(const ws_plan *plan) {
  MlirOperation tile = ws_plan_tile_loop(plan);
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

bool ws_specialize(ws_plan *plan) {
  if (!check_placement(plan))
    return false;
  specializer S = {.plan = plan, .ctx = mlirOperationGetContext(plan->loop)};
  S.i32 = mlirIntegerTypeGet(S.ctx, 32);
  S.second = ws_plan_second_pass(plan);
  MlirOperation loop = plan->loop, tile = ws_plan_tile_loop(plan);
  ws_builder b = ws_builder_before(mlirOperationIsNull(tile) ? loop : tile);
  MlirValue tid = ws_build_value(&b, "nvvm.read.ptx.sreg.tid.x", 0, NULL, S.i32, 0, NULL);
  MlirValue warp = ws_arith(&b, "arith.divui", tid, c32(&b, WARP_THREADS));
  init_barriers(&S, &b, tid, warp);
  int compute = ws_plan_find_role(plan, WS_ROLE_COMPUTE);
  if (compute >= 0 && plan->parts[compute].lag) /* two K steps an iteration, in every copy */
    S.pair_step = ws_arith(&b, "arith.muli", mlirOperationGetOperand(loop, 2), c32(&b, 2));
  emit_partitions(&S, &b, warp);
  if (plan->tmem.tile.ptr)
    dealloc_tmem(&S, &b, warp);
  else if (ws_plan_cluster_size(plan) > 1) /* no CTA leaves while a peer may write to it */
    sync_threads(&S, &b, false);
  map_free(&S.map);
  if (S.failed)
    return false;
  if (mlirOperationIsNull(tile)) {
    /* the epilogue after the loop, copied into its partitions: erased last
     * to first, then the loop */
    ws_op_list epilogue = {0};
    for (MlirOperation op = mlirOperationGetNextInBlock(loop); !ws_op_is(op, "gpu.return");
         op = mlirOperationGetNextInBlock(op))
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
  (void)opts;
  (void)env;
  ws_plan plan;
  if (!ws_plan_read(loop, &plan) || plan.num_channels == 0)
    return true; /* not scheduled or not planned */
  if (!ws_plan_check(&plan))
    return false;
  if (!has_protocol(&plan)) {
    ws_emit_op_error(loop, "has a memory plan but no protocol (its ws.channels lack "
                           "full_arrivals, or its ws.partitions registers); run "
                           "ws-insert-barriers before ws-specialize");
    return false;
  }
  return ws_specialize(&plan);
}

static bool run_specialize(MlirOperation root, const ws_pass_options *opts,
                           const ws_pass_env *env) {
  return ws_run_on_marked_loops(root, specialize_loop, opts, env);
}

static MlirDialectHandle (*const protocol_dialects[])(void) = {
    mlirGetDialectHandle__arith__, mlirGetDialectHandle__nvvm__, mlirGetDialectHandle__scf__};

const ws_pass_def ws_specialize_pass_def = {
    .argument = "ws-specialize",
    .summary = "Replace each planned loop by one branch per partition, each with its own "
               "copy of the loop, and write the protocol that ws-insert-barriers fixed as "
               "ops where they run (ws.wait, ws.arrive, ws.tma_load, ws.read_slot...)",
    .dependent_dialects = protocol_dialects,
    .num_dependent_dialects = 3,
    .run = run_specialize,
};
