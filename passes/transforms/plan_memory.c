/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* plan_memory.c: ws-plan-memory, which gives every tile that crosses
 * partitions a multi-buffered ring in shared memory.
 *
 * Rings with the same producer and consumer partitions form a channel and
 * share its barriers (one full/empty mbarrier pair per slot), so the load
 * partition fills a and b of one step under one expect-tx. Ring depth:
 * ws.num_stages on the loop sets every channel's depth; without it, channels
 * fed by TMA loads get the deepest of 4, 3, 2 that keeps the block within
 * half the budget (two blocks per SM hide more latency), others get 2, and
 * if even that does not fit, depths shrink to 1. A row kernel's loop over
 * blocks of rows takes depth 1 everywhere: more blocks per SM, rather than
 * deeper rings, keep memory busy while its math waits on reductions. A
 * loop over a row's chunks sizes its rings for a quarter of an SM.
 * Buffers are laid out in
 * one arena in ring order, each aligned for TMA (128 bytes; 1024 bytes for
 * swizzled boxes), every slot padded to that alignment, followed by the
 * barriers (8 bytes each). Over budget is an error listing every buffer and
 * its bytes.
 *
 * A matmul's A and B rings are swizzled as TMA writes them and wgmma reads
 * them: by the widest span (128, 64 or 32 bytes) dividing the row (the K
 * row of A and of an N x K B, the N row of a K x N B), filled by several
 * TMA boxes side by side when the row is wider than the span. Its epilogue tile
 * (the C tile the consumers stage for the TMA store) is a ring of depth 1,
 * swizzled like a K x N B so that the consumers' fragment writes spread
 * over all banks; so is an epilogue operand the load warp fetches (a
 * residual tile; a 1 x K bias row stays unswizzled), each kind in a
 * channel of its own. Depth:
 * ws.num_stages, or the deepest of 4, 3, 2 (8 to 2 for a persistent
 * matmul) whose rings fit the whole
 * budget (a matmul block has the SM to itself) with the epilogue tiles after
 * them, or else the C tiles over them, side by side (never an operand: the load warp
 * fetches it while the K loop runs): once the K loop is done the ring memory is free,
 * and the plan shows the reuse as an epilogue offset inside the rings. A
 * persistent matmul (a K loop inside a ws.tile_loop) never reuses: its
 * producer runs ahead into the next tile while the C tile drains. Never
 * depth 1: the consumers free a K step's slot only after the next step's
 * wait (its wgmma may still read the slot until then), so with one slot
 * the load warp and the consumers would wait on each other.
 *
 * With ws.store_boxes = true on the loop (the store-boxes knob), the C
 * tile's ring holds one TMA box of it a slot instead (ws_ring.parts, as
 * many slots as the tile has boxes: the same bytes), so that the compute
 * warps can publish each box as soon as it is written (split_into_boxes).
 *
 * On sm_100a a matmul's accumulator lives in tensor memory instead (the MMA
 * warp issues tcgen05.mma into it; ws_tmem in ws_plan.h): a channel from
 * the MMA warp to the epilogue warps with no ring, one or two buffers (two
 * in a persistent kernel when they fit the tmem-budget), the allocation
 * rounded up to a power of two of at least 32 columns, and a shared-memory
 * word after the barriers where tcgen05.alloc writes its address. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "ws-c/Dialect.h"
#include "../plan/ws_explain.h"
#include "../support/ws_pass.h"
#include "../plan/ws_plan.h"
#include "../plan/ws_row_kernel.h"
#include "../target/ws_target.h"
#include "../../dialect/ws_text.h"

enum { TMA_ALIGN = 128, SWIZZLED_ALIGN = 1024, MBARRIER_BYTES = 8, ROW_SCRATCH_ALIGN = 16 };

static long long align_up(long long x, int a) { return (x + a - 1) / a * a; }

/* The one partition a tile's users other than its producer live in; -1 when
 * none, -2 when several (not supported). */
static int consumer_partition(const ws_plan *plan, MlirOperation op, int producer) {
  int consumer = -1;
  MlirValue v = mlirOperationGetResult(op, 0);
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    if (ws_op_is(user, "scf.yield"))
      continue; /* the accumulator stays where it is carried */
    unsigned m = ws_op_partitions(plan, user) & ~(1u << producer);
    for (int p = 0; p < plan->num_parts; p++)
      if (m & (1u << p)) {
        if (consumer >= 0 && consumer != p)
          return -2;
        consumer = p;
      }
  }
  return consumer;
}

/* Where a channel's tiles move: per iteration of the loop or of a row
 * kernel's second pass, or once per block (or tile) before or after it. */
typedef enum { STAGE_LOOP, STAGE_PROLOGUE, STAGE_EPILOGUE, STAGE_SECOND } stage;

static stage channel_stage(const ws_plan *plan, int c) {
  return ws_channel_is_prologue(plan, c)      ? STAGE_PROLOGUE
         : ws_channel_is_epilogue(plan, c)    ? STAGE_EPILOGUE
         : ws_channel_is_second_pass(plan, c) ? STAGE_SECOND
                                              : STAGE_LOOP;
}

static stage op_stage(const ws_plan *plan, MlirOperation op) {
  return ws_plan_in_prologue(plan, op)      ? STAGE_PROLOGUE
         : ws_plan_in_epilogue(plan, op)    ? STAGE_EPILOGUE
         : ws_plan_in_second_pass(plan, op) ? STAGE_SECOND
                                            : STAGE_LOOP;
}

/* The channel from `from` to `to` of the loop, its prologue or its
 * epilogue (tiles moved once per block or tile, not per K step, get
 * barriers of their own). */
static int channel_for(ws_plan *plan, int from, int to, stage at) {
  for (int c = 0; c < plan->num_channels; c++)
    if (plan->channels[c].from == from && plan->channels[c].to == to &&
        channel_stage(plan, c) == at)
      return c;
  ws_channel *c = ws_plan_add_channel(plan);
  c->from = from;
  c->to = to;
  return plan->num_channels - 1;
}

/* The swizzle of a tile's ring. wgmma reads A and a transposed B K-major,
 * a plain B (K x N) N-major: either way in boxes of the widest span
 * dividing the row (one box when the row is that span). A matmul's
 * epilogue tile is laid out the same way, so that its fragments land in
 * distinct banks. Everything else stays row-major: the compute layout and
 * the exact store read it linearly. */
static int ring_swizzle(const ws_plan *plan, const ws_ring *ring) {
  bool swizzled = ws_ring_is_epilogue(plan, ring) && mlirShapedTypeGetDimSize(ring->tile, 0) > 1;
  for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(ring->producer, 0));
       !mlirOpOperandIsNull(u) && !swizzled; u = mlirOpOperandGetNextUse(u))
    swizzled = wsOperationIsA(mlirOpOperandGetOwner(u), "dot") &&
               mlirOpOperandGetOperandNumber(u) < 2; /* A or B, not a block's scales */
  return swizzled ? ws_swizzle_span(ws_tile_row_bytes(ring->tile)) : 0;
}

/* Finds the crossing tiles and their channels. A load nobody uses is not
 * given a ring, and the lowering does not issue it. */
/* A tile the cluster's CTAs share (ws-partition-schedule's
 * ws.cluster_shared). Multicast: every CTA writes its part into the
 * channel's slots in each of them, so each CTA's readers release every
 * CTA's slot. A pair MMA's B (the engine's pair_mma): each CTA keeps its
 * part in a slot of that size; every CTA's copies complete on the
 * leader's full barrier, whose MMA reads them all, and its commit releases
 * every CTA's slot. */
static void split_across_cluster(ws_plan *plan, ws_ring *r) {
  ws_channel *c = &plan->channels[r->channel];
  const ws_mma_engine *engine = ws_mma_engine_of(plan->loop);
  c->empty_to = WS_REACH_EVERY;
  if (!engine || !engine->pair_mma) {
    r->split = WS_SPLIT_MULTICAST;
    return;
  }
  r->split = WS_SPLIT_PAIR;
  c->full_to = WS_REACH_LEADER;
  r->slot_bytes = (int)align_up(ws_tile_bytes(r->tile) / ws_plan_cluster_size(plan), r->align);
}

static bool collect_rings(ws_plan *plan, const ws_pass_env *env) {
  for (MlirOperation op = ws_plan_next_op(plan, (MlirOperation){NULL}); !mlirOperationIsNull(op);
       op = ws_plan_next_op(plan, op)) {
    if (mlirOperationGetNumResults(op) != 1 ||
        !mlirTypeIsARankedTensor(mlirValueGetType(mlirOperationGetResult(op, 0))) ||
        ws_load_is_row_vector(op)) /* the compute warps read it from global memory */
      continue;
    unsigned mask = ws_op_partitions(plan, op);
    int from = -1;
    for (int p = 0; p < plan->num_parts; p++)
      if (mask == (1u << p))
        from = p;
    int to = from < 0 ? -1 : consumer_partition(plan, op, from);
    if (to == -1 && wsOperationIsA(op, "load"))
      ws_remark(env, mlirOperationGetLocation(op),
                "the loaded tile is not used by another partition; the load "
                "is dropped");
    if (to == -1)
      continue;
    if (to == -2) {
      ws_emit_op_error(op, "produces a tile that two other partitions use; "
                           "each tile may cross to one partition");
      return false;
    }
    int channel = channel_for(plan, from, to, op_stage(plan, op));
    ws_ring *r = ws_plan_add_ring(plan);
    r->producer = op;
    r->tile = mlirValueGetType(mlirOperationGetResult(op, 0));
    r->channel = channel;
    r->swizzle = ring_swizzle(plan, r);
    r->align = r->swizzle ? SWIZZLED_ALIGN : TMA_ALIGN;
    /* Every slot, not just the first, is a TMA destination or source, so
     * slots are padded to the alignment (a 1x16 f32 tile takes 128). */
    r->slot_bytes = (int)align_up(ws_tile_bytes(r->tile), r->align);
    if (ws_has_attr(op, "ws.cluster_shared"))
      split_across_cluster(plan, r);
  }
  return true;
}

/* How many ws.dot ops the loop's body holds. */
static int count_dots(MlirOperation loop) {
  int n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(ws_loop_body(loop)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    n += wsOperationIsA(op, "dot");
  return n;
}

/* Why an epilogue tile the compute warps make cannot be published box by
 * box (store-boxes), or NULL when it can: it must be a GEMM's C tile the
 * compute warps write from wgmma fragments (an engine accumulating in
 * registers) for the store warp, stored once, alone in its channel, its
 * rows cut into 2 to WS_MAX_RING_PARTS swizzled TMA boxes. */
static const char *why_not_parts(const ws_plan *plan, const ws_ring *r) {
  if (plan->parts[plan->channels[r->channel].to].role != WS_ROLE_STORE)
    return "it is not the C tile the compute warps hand to the store warp";
  if (ws_plan_find_role(plan, WS_ROLE_MMA) >= 0)
    return "the accumulator lives in tensor memory, whose epilogue warps split its columns";
  if (count_dots(plan->loop) != 1)
    return "its loop is not a GEMM's K loop (one ws.dot): attention's output stays whole";
  int stores = 0;
  for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(r->producer, 0));
       !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
    stores += wsOperationIsA(mlirOpOperandGetOwner(u), "store");
  if (stores != 1)
    return "the tile is stored more than once (each store would wait for every box)";
  for (int i = 0; i < plan->num_rings; i++)
    if (&plan->rings[i] != r && plan->rings[i].channel == r->channel)
      return "another tile the compute warps hand to the store warp shares its channel";
  int boxes = r->swizzle ? ws_ring_boxes(r) : 1;
  if (boxes < 2)
    return "its rows fit one TMA box";
  if (boxes > WS_MAX_RING_PARTS)
    return "its rows take more than 4 TMA boxes";
  return NULL;
}

/* store-boxes (ws.store_boxes on the loop): the C tile's ring holds one
 * TMA box of it per slot, and the compute warps publish the boxes one at
 * a time, so that the store warp's TMA store of the first runs while they
 * still write the others (a one-wave matmul's epilogue is on its critical
 * path). The channel steps once per box (set_depths). */
static void split_into_boxes(ws_plan *plan, bool explain, const ws_pass_env *env) {
  MlirAttribute on =
      mlirOperationGetAttributeByName(plan->loop, mlirStringRefCreateFromCString("ws.store_boxes"));
  if (mlirAttributeIsNull(on) || !mlirAttributeIsABool(on) || !mlirBoolAttrGetValue(on))
    return;
  if (!ws_plan_is_matmul(plan)) {
    if (explain)
      ws_remark(env, mlirOperationGetLocation(plan->loop),
                "store-boxes: the loop is not a matmul's; only a matmul's C tile is handed "
                "to the store warp box by box, so its tiles stay whole");
    return;
  }
  for (int i = 0; i < plan->num_rings; i++) {
    ws_ring *r = &plan->rings[i];
    if (!ws_ring_is_epilogue(plan, r) || wsOperationIsA(r->producer, "load"))
      continue;
    const char *why = why_not_parts(plan, r);
    if (why) {
      if (explain)
        ws_remark(env, mlirOperationGetLocation(r->producer),
                  "store-boxes: ring %d stays one slot a tile: %s", i, why);
      continue;
    }
    r->parts = ws_ring_boxes(r);
    r->tile = ws_tile_column_part(r->tile, r->parts);
    r->slot_bytes = (int)align_up(ws_tile_bytes(r->tile), r->align);
  }
}

/* Ping-pong consumers take turns at the ring: a warpgroup waits for its
 * tile's first K step only once the other has passed every wait of the
 * tile before (else its wait on a slot one lap ahead could pass on the
 * parity of the phase before). The turn is a channel of its own from the
 * consumers to themselves, with no ring: one barrier, arrived on by the
 * warpgroup that finished a K loop and waited on by the other. Consumers
 * that take turns at their wgmmas (ws_partition.turns) pass the same kind
 * of channel back and forth once per turn. */
static void add_order_channel(ws_plan *plan) {
  int compute = ws_plan_find_role(plan, WS_ROLE_COMPUTE);
  if (compute >= 0 && (plan->parts[compute].pingpong || plan->parts[compute].turns))
    channel_for(plan, compute, compute, STAGE_LOOP);
}

/* Tensor memory (sm_100a): 128 lanes of 512 32-bit columns per SM,
 * allocated in powers of two of at least 32 columns. */
enum { TMEM_MIN_COLUMNS = 32, TMEM_ADDRESS_BYTES = 8 };

/* The columns a block-scaled ws.dot's scales take in tensor memory, after
 * the accumulators: scale_atom_columns per MX atom. */
static int tmem_scale_columns(const ws_plan *plan) {
  if (!plan->tmem.num_scales)
    return 0;
  return plan->tmem.num_scales * ws_mma_engine_of(plan->loop)->scale_atom_columns;
}

/* How many accumulators tensor memory holds: two in a persistent kernel
 * when both (and the scales) fit the budget (the MMA warp fills one while
 * the epilogue drains the other), else one. */
static int tmem_depth(const ws_plan *plan, int budget) {
  bool persistent = !mlirOperationIsNull(ws_plan_tile_loop(plan));
  return persistent && 2 * plan->tmem.columns + tmem_scale_columns(plan) <= budget ? 2 : 1;
}

/* A block-scaled ws.dot (scale operands): the rings of its MX atoms (A's,
 * then B's), which the MMA warp copies into tensor memory each K step. */
static bool find_tmem_scales(ws_plan *plan) {
  plan->tmem.num_scales = plan->tmem.scale_a_atoms = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(ws_loop_body(plan->loop));
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    intptr_t n = mlirOperationGetNumOperands(op) - 3;
    if (!wsOperationIsA(op, "dot") || n <= 0)
      continue;
    if (n > WS_MAX_SCALE_ATOMS) {
      ws_emit_op_error(op,
                       "has %lld MX atoms of scales, more than the %d tcgen05's shapes allow "
                       "(M = 128, N at most 256, a K tile of one atom: 1 of A's and 2 of "
                       "B's at most)",
                       (long long)n, WS_MAX_SCALE_ATOMS);
      return false;
    }
    const ws_mma_engine *e = ws_mma_engine_of(op);
    MlirType a = mlirValueGetType(mlirOperationGetOperand(op, 0));
    plan->tmem.scale_a_atoms = (int)(mlirShapedTypeGetDimSize(a, 0) / e->scale_atom_rows *
                                     (mlirShapedTypeGetDimSize(a, 1) / e->scale_atom_k));
    for (intptr_t i = 0; i < n; i++)
      plan->tmem.scale_ring[plan->tmem.num_scales++] =
          ws_ring_of_value(plan, mlirOperationGetOperand(op, 3 + i));
  }
  return true;
}

/* The scales' columns, one atom after another after the accumulator
 * buffers (set_depths first). */
static void place_tmem_scales(ws_plan *plan) {
  int at = plan->tmem.columns * plan->channels[plan->tmem.channel].depth;
  for (int i = 0; i < plan->tmem.num_scales; i++) {
    plan->tmem.scale_column[i] = at;
    at += ws_mma_engine_of(plan->loop)->scale_atom_columns;
  }
}

/* A matmul on sm_100a (an MMA partition) keeps its accumulator in tensor
 * memory: a channel from the MMA warp to the epilogue warps with no ring,
 * its buffer one f32 column per column of the accumulator, all 128 lanes
 * (row i in lane i). */
static bool add_tmem_channel(ws_plan *plan) {
  int mma = ws_plan_find_role(plan, WS_ROLE_MMA);
  int compute = ws_plan_find_role(plan, WS_ROLE_COMPUTE);
  if (mma < 0)
    return true;
  if (compute < 0) {
    ws_emit_op_error(plan->loop, "has an MMA warp but no compute partition to run its epilogue");
    return false;
  }
  int c = channel_for(plan, mma, compute, STAGE_LOOP);
  MlirValue acc = mlirOperationGetResult(plan->loop, 0);
  plan->tmem.tile = mlirValueGetType(acc);
  plan->tmem.channel = c;
  plan->tmem.columns = (int)mlirShapedTypeGetDimSize(plan->tmem.tile, 1);
  if (ws_plan_is_pair(plan)) {
    /* the leader's commit tells every CTA its rows are done; every CTA's
     * epilogue hands its rows back to the leader, whose MMA writes them */
    plan->channels[c].full_to = WS_REACH_EVERY;
    plan->channels[c].empty_to = WS_REACH_LEADER;
  }
  return find_tmem_scales(plan);
}

/* The allocation: the buffers' columns rounded up to a power of two of at
 * least 32. */
static int tmem_needed(const ws_plan *plan) {
  return plan->tmem.columns * plan->channels[plan->tmem.channel].depth + tmem_scale_columns(plan);
}

static int tmem_allocation(const ws_plan *plan) {
  int need = tmem_needed(plan), cols = TMEM_MIN_COLUMNS;
  while (cols < need)
    cols *= 2;
  return cols;
}

static void report_tmem_over_budget(const ws_plan *plan, int budget) {
  char loc[256], tile[96];
  const ws_channel *c = &plan->channels[plan->tmem.channel];
  MlirOperation dot = mlirOpResultGetOwner(
      mlirOperationGetOperand(mlirBlockGetTerminator(ws_loop_body(plan->loop)), 0));
  ws_loc_str(mlirOperationGetLocation(dot), loc, sizeof loc);
  char scales[96] = "";
  if (plan->tmem.num_scales)
    snprintf(scales, sizeof scales, "; block scales: %d columns after it",
             tmem_scale_columns(plan));
  ws_emit_op_error(plan->loop,
                   "tensor memory plan needs %d columns but the budget is %d "
                   "(512 of 32 bits per lane on sm_100a, or tmem-budget=): "
                   "accumulator (ws.dot %s at line %s, %s -> %s): %d x %d columns "
                   "at column 0%s, allocated as %d",
                   tmem_needed(plan), budget, ws_type_str(plan->tmem.tile, tile, sizeof tile), loc,
                   plan->parts[c->from].name, plan->parts[c->to].name, c->depth, plan->tmem.columns,
                   scales, tmem_allocation(plan));
}

/* Why the accumulator has its columns and its buffers (--ws-explain). */
static void explain_tmem(const ws_plan *plan, int budget, const ws_pass_env *env) {
  const ws_channel *c = &plan->channels[plan->tmem.channel];
  bool persistent = !mlirOperationIsNull(ws_plan_tile_loop(plan));
  char tile[96];
  ws_remark(env, mlirOperationGetLocation(plan->loop),
            "tensor memory: the %s accumulator takes %d columns of 32 bits in all 128 lanes "
            "(row i in lane i, one f32 column per column of N); %d buffer(s)%s; %d columns "
            "allocated (a power of two, at least 32) of the budget of %d; the MMA warp "
            "allocates them and writes the address at shared-memory byte %d",
            ws_type_str(plan->tmem.tile, tile, sizeof tile), plan->tmem.columns, c->depth,
            c->depth == 2 ? ", so that the MMAs of the next tile run while the epilogue "
                            "drains this one (persistent)"
            : persistent  ? ": two do not fit the budget, so the next tile's MMAs wait "
                            "for this tile's epilogue to read the accumulator"
                          : ": one tile per block, nothing to overlap",
            plan->tmem.allocated, budget, plan->tmem.address);
  if (plan->tmem.num_scales)
    ws_remark(env, mlirOperationGetLocation(plan->loop),
              "tensor memory: the block scales after the accumulator(s): %d MX atom(s) of A's "
              "and %d of B's, %d columns each, from column %d; the MMA warp copies each K "
              "step's in (tcgen05.cp 32x128b.warpx4: 32 rows of 16 bytes into all four lane "
              "quarters) over the last, since its tcgen05 ops run in the order it issues "
              "them%s",
              plan->tmem.scale_a_atoms, plan->tmem.num_scales - plan->tmem.scale_a_atoms,
              ws_mma_engine_of(plan->loop)->scale_atom_columns, plan->tmem.scale_column[0],
              ws_plan_is_pair(plan)
                  ? "; in a pair the leader's copy is both CTAs' (cta_group::2): each CTA's "
                    "atoms, its rows of A's and all of B's, into its own tensor memory"
                  : "");
}

static int saturate(long long x) { return x > INT_MAX ? INT_MAX : (int)x; }

/* Offsets for the current depths; returns the arena size, saturated at
 * INT_MAX (a plan that large is over any budget and is reported, never
 * used, so its offsets need not be exact). With `reuse`, the epilogue
 * tiles the compute warps write lie from offset 0 on, over the loop's
 * rings (free once the K loop is done), side by side: they are live at
 * the same time, from the epilogue's writes to their stores. */
static int lay_out(ws_plan *plan, bool reuse) {
  long long offset = 0, over_offset = 0, end = 0;
  for (int i = 0; i < plan->num_rings; i++) {
    ws_ring *r = &plan->rings[i];
    bool over = reuse && ws_ring_is_epilogue(plan, r) && !wsOperationIsA(r->producer, "load");
    long long at = align_up(over ? over_offset : offset, r->align);
    long long bytes = ws_ring_bytes(plan, r);
    r->offset = saturate(at);
    if (over)
      over_offset = at + bytes;
    else
      offset = at + bytes;
    if (at + bytes > end)
      end = at + bytes;
  }
  offset = align_up(end, MBARRIER_BYTES);
  for (int c = 0; c < plan->num_channels; c++) {
    ws_channel *ch = &plan->channels[c];
    ch->full = saturate(offset);
    ch->empty = saturate(offset + ch->depth * MBARRIER_BYTES);
    offset += 2 * ch->depth * MBARRIER_BYTES;
  }
  if (plan->tmem.tile.ptr) { /* where tcgen05.alloc writes the address */
    plan->tmem.address = saturate(offset);
    offset += TMEM_ADDRESS_BYTES;
  }
  if (plan->row_scratch_bytes) {
    offset = align_up(offset, ROW_SCRATCH_ALIGN);
    plan->row_scratch = saturate(offset);
    offset += plan->row_scratch_bytes;
  }
  return saturate(offset);
}

static void set_depths(ws_plan *plan, int load_depth, int other_depth, int tmem_buffers) {
  for (int c = 0; c < plan->num_channels; c++)
    plan->channels[c].depth =
        plan->parts[plan->channels[c].from].role == WS_ROLE_LOAD ? load_depth : other_depth;
  /* one C tile (and set of epilogue operands) per block, or per consumer
   * warpgroup when they take alternate tiles */
  int compute = ws_plan_find_role(plan, WS_ROLE_COMPUTE);
  int per_tile = compute >= 0 && plan->parts[compute].pingpong ? 2 : 1;
  for (int r = 0; r < plan->num_rings; r++)
    if (ws_ring_is_epilogue(plan, &plan->rings[r]))
      plan->channels[plan->rings[r].channel].depth =
          per_tile * (plan->rings[r].parts > 1 ? plan->rings[r].parts : 1);
    else if (ws_ring_is_prologue(plan, &plan->rings[r]))
      plan->channels[plan->rings[r].channel].depth = 1; /* once per block */
  if (plan->tmem.tile.ptr)
    plan->channels[plan->tmem.channel].depth = tmem_buffers;
  /* W warpgroups taking turns wait for turn c - 1 right after their own
   * turn c - W: W - 1 slots keep that wait within one phase of its
   * barrier (two warpgroups: one) */
  if (compute < 0 || !plan->parts[compute].turns)
    return;
  int turn_slots = plan->parts[compute].num_warps / 4 - 1;
  for (int c = 0; c < plan->num_channels; c++)
    if (plan->channels[c].from == compute && plan->channels[c].to == compute &&
        turn_slots > plan->channels[c].depth)
      plan->channels[c].depth = turn_slots;
}

/* A matmul: the deepest rings that fit, the epilogue tile after them or
 * over them (see the file comment). A persistent one takes up to
 * PERSISTENT_DEPTH: its load warp streams every tile's steps through the
 * same rings, and slots in flight are what hide the memory's latency when
 * the tiles are few and long (M = 256 against K = 8192 ran 14% faster on
 * the H100 with 6 slots of 128x128 tiles than with 4). */
enum { MATMUL_DEPTH = 4, PERSISTENT_DEPTH = 8 };

static int choose_matmul_depths(ws_plan *plan, int stages, int budget, char *why, size_t cap,
                                int tmem_buffers) {
  int bytes = 0;
  /* A persistent kernel's producer fills the rings for the next tile while
   * this tile's C tile is written and stored: they cannot share memory. */
  bool persistent = !mlirOperationIsNull(ws_plan_tile_loop(plan));
  int deepest = persistent ? PERSISTENT_DEPTH : MATMUL_DEPTH;
  for (int d = stages > 0 ? stages : deepest; d >= (stages > 0 ? stages : 2); d--) {
    set_depths(plan, d, 1, tmem_buffers);
    for (int reuse = 0; reuse < (persistent ? 1 : 2); reuse++) {
      bytes = lay_out(plan, reuse);
      if (bytes > budget)
        continue;
      snprintf(why, cap,
               "%d for the K loop's rings (%s), the epilogue tile %s; %d "
               "bytes fit the budget of %d (a matmul block has the SM to itself)",
               d,
               stages > 0   ? "ws.num_stages"
               : persistent ? "the deepest of 8 to 2 that fits, a persistent kernel's"
                            : "the deepest of 4, 3, 2 that fits",
               reuse        ? "over the rings, free once the K loop is done"
               : persistent ? "after them (a persistent kernel loads the next tile's "
                              "steps into the rings while this tile's C is stored)"
                            : "after them",
               bytes, budget);
      return bytes;
    }
  }
  return bytes;
}

/* The documented rule (see the file comment). */
static int choose_depths(ws_plan *plan, int stages, int budget, char *why, size_t cap,
                         int tmem_buffers) {
  if (ws_plan_is_matmul(plan))
    return choose_matmul_depths(plan, stages, budget, why, cap, tmem_buffers);
  if (stages > 0) {
    set_depths(plan, stages, stages, 0);
    snprintf(why, cap, "%d for every channel, from ws.num_stages", stages);
    return lay_out(plan, false);
  }
  /* a loop over blocks of whole rows: one slot per ring, so that more
   * blocks share an SM (ws-insert-barriers); each block's math waits for
   * its own loads, and the other blocks' loads fill that wait (on the
   * H100, RMSNorm at 8192 x 8192 bf16 ran at 0.90 of a device copy with
   * two blocks of depth 1, 0.85 with two of depth 4) */
  if (ws_plan_is_row_block_loop(plan)) {
    set_depths(plan, 1, 1, 0);
    int bytes = lay_out(plan, false);
    snprintf(why, cap,
             "1 for every channel: a loop over blocks of rows takes more blocks per "
             "SM rather than deeper rings (%d bytes a block)",
             bytes);
    return bytes;
  }
  /* a loop over a row's chunks runs once per block: four blocks share an
   * SM (ws-insert-barriers), each with a quarter of its shared memory */
  bool chunks = ws_plan_carries_row_vectors(plan);
  const ws_target *target = ws_target_of(plan->loop);
  int share = chunks ? target->smem_per_sm / 4 - target->smem_reserved_per_block : budget / 2;
  for (int d = 4; d >= 2; d--) {
    set_depths(plan, d, 2, 0);
    int bytes = lay_out(plan, false);
    if (bytes <= share) {
      snprintf(why, cap,
               "%d for the channels TMA fills (the deepest of 4, 3, 2 whose "
               "%d bytes fit %s, %d, so %s blocks share an SM), 2 for the others",
               d, bytes,
               chunks ? "a quarter of an SM's, less the 1 KiB each block leaves"
                      : "half the budget",
               share, chunks ? "four" : "two");
      return bytes;
    }
  }
  set_depths(plan, 2, 2, 0);
  int bytes = lay_out(plan, false);
  if (bytes <= budget) {
    snprintf(why, cap,
             "2 for every channel: depth 2 (%d bytes) does not fit %s (%d) but "
             "fits the budget (%d), so fewer blocks share an SM",
             bytes, chunks ? "a quarter of an SM's" : "half the budget", share, budget);
    return bytes;
  }
  set_depths(plan, 1, 1, 0);
  snprintf(why, cap, "1 for every channel: depth 2 does not fit the budget of %d", budget);
  return lay_out(plan, false);
}

/* Says where the budget came from and what would fit it: fewer stages
 * where the source asks for a depth, else smaller tiles (the planner
 * already tried depth 1 or 2). */
static void report_over_budget(const ws_plan *plan, int bytes, int budget, int stages,
                               const ws_target *target, bool from_option) {
  char loc[256], origin[64];
  if (from_option || !target)
    snprintf(origin, sizeof origin, "smem-budget=%d", budget);
  else
    snprintf(origin, sizeof origin, "the most %s gives a block", target->chip);
  ws_text t;
  ws_text_grown(&t);
  ws_text_appendf(&t, "shared memory plan needs %d bytes but the budget is %d bytes (%s); ", bytes,
                  budget, origin);
  if (stages > 1)
    ws_text_appendf(&t, "lower ws.num_stages (%d) or load smaller tiles:", stages);
  else
    ws_text_appendf(&t, "load smaller tiles (the rings are already at their least depth):");
  for (int i = 0; i < plan->num_rings; i++) {
    const ws_ring *r = &plan->rings[i];
    const ws_channel *c = &plan->channels[r->channel];
    ws_loc_str(mlirOperationGetLocation(r->producer), loc, sizeof loc);
    char name[64], tile[128];
    ws_text_appendf(&t,
                    " ring %d (%s %s at line %s, %s -> %s): %d x %d = %lld bytes at "
                    "offset %d;",
                    i, ws_op_name(r->producer, name, sizeof name),
                    ws_type_str(r->tile, tile, sizeof tile), loc, plan->parts[c->from].name,
                    plan->parts[c->to].name, c->depth, r->slot_bytes, ws_ring_bytes(plan, r),
                    r->offset);
  }
  int barriers = 0;
  for (int c = 0; c < plan->num_channels; c++)
    barriers += 2 * plan->channels[c].depth * MBARRIER_BYTES;
  ws_text_appendf(&t, " barriers: %d bytes", barriers);
  ws_emit_op_error(plan->loop, "%s", t.buf);
  ws_text_release(&t);
}

/* The row scratch of an elementwise loop that reduces rows (ws.reduce
 * along axis 1): where a row spans warps, each warp leaves its part for
 * the others, one f32 per row and warp, in two buffers that successive
 * reductions alternate (ws-lower-to-nvvm's lower_tile_rows.c), so one
 * barrier per reduction orders them. Sized for the most rows a reduced
 * tile has and every compute warp. */
static int row_scratch_bytes(const ws_plan *plan) {
  int compute = ws_plan_find_role(plan, WS_ROLE_COMPUTE);
  if (ws_plan_is_matmul(plan) || compute < 0)
    return 0;
  long long rows = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(ws_loop_body(plan->loop));
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (wsOperationIsA(op, "reduce")) {
      MlirType t = mlirValueGetType(mlirOperationGetOperand(op, 0));
      int64_t r = mlirShapedTypeGetDimSize(t, 0);
      if (r > rows)
        rows = r;
    }
  return saturate(ws_row_scratch_need(rows, plan->parts[compute].num_warps));
}

/* Plans the rings of a scheduled loop within `budget` bytes of shared
 * memory and writes the plan; false after a located error. */
static bool plan_rings(ws_plan *plan, MlirOperation loop, const ws_target *target, int budget,
                       bool from_option, const ws_pass_options *opts, const ws_pass_env *env) {
  if (!collect_rings(plan, env))
    return false;
  if (plan->num_rings == 0) {
    ws_emit_op_error(loop, "moves no tile between partitions (no loaded tile "
                           "is used), so there is nothing to warp-specialize");
    return false;
  }
  add_order_channel(plan);
  if (!add_tmem_channel(plan))
    return false;
  split_into_boxes(plan, ws_option_bool(opts, "explain"), env);
  int tmem_budget = (int)ws_option_int(opts, "tmem-budget");
  if (tmem_budget == 0 && target)
    tmem_budget = target->tmem_columns; /* the chip's (0: it has none) */
  plan->row_scratch_bytes = row_scratch_bytes(plan);
  int stages = ws_int_attr(loop, "ws.num_stages", 0);
  if (stages == 1 && ws_plan_is_matmul(plan)) {
    ws_emit_op_error(loop, "has ws.num_stages = 1 (the source's, or num-stages=1 where it "
                           "sets none), but a matmul loop needs at least 2 "
                           "stages: the consumers free a step's slot only after the "
                           "next step's wait, so the load warp fills one slot while "
                           "the tensor cores may still read the other");
    return false;
  }
  char why[512];
  int bytes = choose_depths(plan, stages, budget, why, sizeof why,
                            plan->tmem.tile.ptr ? tmem_depth(plan, tmem_budget) : 0);
  if (bytes > budget) {
    report_over_budget(plan, bytes, budget, stages, target, from_option);
    return false;
  }
  if (plan->tmem.tile.ptr) {
    place_tmem_scales(plan);
    plan->tmem.allocated = tmem_allocation(plan);
    if (tmem_needed(plan) > tmem_budget) {
      report_tmem_over_budget(plan, tmem_budget);
      return false;
    }
  }
  plan->smem_bytes = bytes;
  ws_plan_write_rings(plan);
  ws_plan_write_channels(plan);
  ws_plan_write_kernel(plan);
  ws_plan_write_tmem(plan);
  if (ws_option_bool(opts, "explain"))
    ws_explain_memory(plan, why, budget, env);
  if (ws_option_bool(opts, "explain") && plan->tmem.tile.ptr)
    explain_tmem(plan, tmem_budget, env);
  return true;
}

static bool plan_loop(MlirOperation loop, const ws_pass_options *opts, const ws_pass_env *env) {
  const ws_target *target = ws_target_of(loop);
  int budget = (int)ws_option_int(opts, "smem-budget");
  bool from_option = budget != 0;
  if (target && budget > target->smem_per_block) {
    ws_emit_op_error(loop,
                     "smem-budget=%d is more shared memory than %s gives a block "
                     "(%d bytes): a kernel planned for it could not launch",
                     budget, target->chip, target->smem_per_block);
    return false;
  }
  if (budget == 0 && target)
    budget = target->smem_per_block; /* the chip's */
  ws_plan plan;
  if (!ws_plan_read(loop, &plan))
    return true; /* not scheduled: nothing to plan */
  bool ok =
      ws_plan_check(&plan) && (plan.num_channels > 0 || /* already planned */
                               plan_rings(&plan, loop, target, budget, from_option, opts, env));
  ws_plan_release(&plan);
  return ok;
}

static bool run_plan_memory(MlirOperation root, const ws_pass_options *opts,
                            const ws_pass_env *env) {
  return ws_run_on_marked_loops(root, plan_loop, opts, env);
}

static const ws_option_spec plan_memory_options[] = {
    {"smem-budget", WS_OPTION_INT, "0",
     "shared memory per block in bytes (0: the chip's, 227 KiB on sm_90a and sm_100a)", NULL, 0,
     1 << 30},
    {"explain", WS_OPTION_BOOL, "false",
     "remark on each ring (slot, swizzle, depth and the budget arithmetic) and the "
     "shared-memory map",
     NULL, 0, 0},
    {"tmem-budget", WS_OPTION_INT, "0",
     "tensor-memory columns per block for a matmul's accumulator (0: the chip's, 512 on "
     "sm_100a)",
     NULL, 0, 512},
};

const ws_pass_def ws_plan_memory_pass_def = {
    .argument = "ws-plan-memory",
    .summary = "Give every tile that crosses partitions a multi-buffered "
               "shared-memory ring (and a matmul's accumulator on sm_100a its "
               "tensor-memory buffers) and check the budgets",
    WS_PASS_OPTIONS(plan_memory_options),
    .run = run_plan_memory,
};
