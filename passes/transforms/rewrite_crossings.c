/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* rewrite_crossings.c: the first half of the one slicer (slice.c is the
 * second). In the planned loop itself, before any partition has a copy of
 * it, every value that crosses partitions becomes protocol ops tagged with
 * the partition that runs them (ws.partition), so that slicing needs to
 * know nothing of kernels:
 *
 *   the loop counts its steps: %n, its first carried value, from 0
 *   a TMA load warp, before the first ws.load of each channel in a step:
 *     ws.slot_phase %n, ws.wait empty, ws.arrive_expect_tx; each ws.load
 *     becomes ws.tma_load into the slot
 *   the compute partition, at the start of a step: for each channel into
 *     it, ws.slot_phase, ws.wait full, ws.read_slot of each ring (its ops
 *     now read that instead of the ws.load), the fence, ws.arrive empty;
 *     at the end of a step the same for each channel out of it, with
 *     ws.write_slot; the prologue's slots waited for at the kernel's top
 *     and released at its end
 *   a TMA store warp: ws.slot_phase and ws.wait full before the first
 *     ws.store of each channel, each ws.store a ws.tma_store from the
 *     slot, the step's bulk group committed at its end and the slot
 *     stored `drain` steps ago released; a drain before the kernel ends
 *
 * A row kernel's second pass is a loop of the epilogue like the first,
 * with a count of its own. The protocol's numbers (barriers, counts,
 * phases, fences, drains) are ws-insert-barriers's channel table: the
 * rewrite decides nothing. `ws-specialize{crossings-only}` stops here, so
 * that a test can read the rewritten loop.
 *
 * A matmul's consumers have sides of their own: rewrite_wgmma.c (wgmma)
 * and rewrite_tcgen05.c (the MMA warp and tensor memory), which end in
 * the epilogue's channels (spec_rewrite_epilogue). Part of ws-specialize
 * (specialize.c). */
#include "specialize_internal.h"

ws_builder spec_scratch(crossings *R) { return ws_builder_at_end(R->scratch, R->loc); }

/* Moves the ops built in the scratch block before `anchor`, each tagged
 * with the partitions of `mask`; `outside` notes them as ops before the
 * loop, which go once every partition has its copy. */
void spec_place(crossings *R, MlirOperation anchor, unsigned mask, bool outside) {
  MlirOperation op;
  while (!mlirOperationIsNull(op = mlirBlockGetFirstOperation(R->scratch))) {
    mlirOperationMoveBefore(op, anchor);
    ws_set_op_partitions(R->plan, op, mask);
    if (outside)
      ws_op_list_push(&R->before, op);
  }
}

/* The op of the region that holds `op` and carries a partition tag: op
 * itself, or the op around it. */
static MlirOperation tagged_ancestor(const ws_plan *plan, MlirOperation op) {
  while (!mlirOperationIsNull(op) && !ws_op_partitions(plan, op) &&
         !mlirOperationEqual(op, plan->func))
    op = mlirOperationGetParentOperation(op);
  return op;
}

/* The partition's ops read `to` where they read `from` (a tile they now
 * take from its slot); other partitions' uses stay. */
void spec_replace_uses_in(crossings *R, MlirValue from, MlirValue to, int part) {
  ws_op_list owners = {0};
  long *operand = NULL;
  long cap = 0;
  for (MlirOpOperand u = mlirValueGetFirstUse(from); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation owner = mlirOpOperandGetOwner(u);
    /* a yield carries what the value's partition made: its own */
    if (!ws_op_is(owner, "scf.yield") &&
        !((ws_op_partitions(R->plan, tagged_ancestor(R->plan, owner)) >> part) & 1))
      continue;
    operand = ws_grow(operand, &cap, owners.len + 1, sizeof *operand);
    operand[owners.len] = (long)mlirOpOperandGetOperandNumber(u);
    ws_op_list_push(&owners, owner);
  }
  for (long i = 0; i < owners.len; i++)
    mlirOperationSetOperand(owners.items[i], operand[i], to);
  free(operand);
  ws_op_list_free(&owners);
}

/* What the map puts in each value's place (a ws.read_slot for a ws.load's
 * tile, a ws.mma's product for a ws.dot's) is what the partition's ops
 * read from now on; the map is emptied. */
void spec_use_mapped(crossings *R, value_map *m, int part) {
  for (long i = 0; i < m->cap; i++)
    if (m->slots[i].from.ptr)
      spec_replace_uses_in(R, m->slots[i].from, m->slots[i].to, part);
  spec_map_free(m);
}

void spec_rewrite_epilogue(crossings *R, const spec_loops *at, ws_builder *b, MlirOperation after,
                           int part) {
  value_map m = {0};
  if (spec_takes_epilogue_operands(R->S, part))
    spec_transfer(R->S, b, &m, at->tiles, part, true, true, false);
  spec_place(R, after, 1u << part, false);
  spec_use_mapped(R, &m, part);
  ws_builder out = spec_scratch(R);
  spec_transfer(R->S, &out, &m, at->tiles, part, false, false, false);
  spec_place(R, at->epilogue_end, 1u << part, false);
  spec_map_free(&m);
}

/* ---- the count of a loop's steps --------------------------------------------- */

/* Copies the plan attributes and marks of `from` onto `to`. */
static void copy_marks(MlirOperation from, MlirOperation to) {
  for (intptr_t i = 0; i < mlirOperationGetNumDiscardableAttributes(from); i++) {
    MlirNamedAttribute a = mlirOperationGetDiscardableAttribute(from, i);
    mlirOperationSetDiscardableAttributeByName(to, mlirIdentifierStr(a.name), a.attribute);
  }
}

/* `loop` again, carrying first `num` counts from `starts`: the counts
 * each channel's slot and phase come from. Count j steps by one in the
 * partitions of masks[j] (the ops are theirs); with mask 0 the caller
 * sets its yield (a tile loop's K count goes on where its K loop stopped).
 * Returns the new loop; *end is the op where a step's last protocol goes
 * (before the counts' increments, as a partition's copy ends its step). */
static MlirOperation count_steps(crossings *R, MlirOperation loop, int num, const MlirValue *starts,
                                 const unsigned *masks, MlirOperation *end) {
  int carried = (int)mlirOperationGetNumResults(loop);
  MlirValue *inits = spec_values(num + carried);
  unsigned any = 0;
  for (int j = 0; j < num; j++) {
    inits[j] = starts[j];
    any |= masks[j];
  }
  for (int i = 0; i < carried; i++)
    inits[num + i] = mlirOperationGetOperand(loop, 3 + i);
  ws_builder b = ws_builder_before(loop);
  MlirBlock body;
  MlirOperation copy =
      ws_build_for(&b, mlirOperationGetOperand(loop, 0), mlirOperationGetOperand(loop, 1),
                   mlirOperationGetOperand(loop, 2), num + carried, inits, &body);
  copy_marks(loop, copy);
  MlirBlock src = ws_loop_body(loop);
  MlirOperation yield = mlirBlockGetTerminator(src);
  ws_builder e = ws_builder_at_end(body, R->loc);
  MlirValue one = spec_c32(&e, 1);
  ws_set_op_partitions(R->plan, mlirOpResultGetOwner(one), any);
  for (int j = 0; j < num; j++) {
    inits[j] = mlirBlockGetArgument(body, 1 + j);
    if (!masks[j])
      continue;
    inits[j] = ws_arith(&e, "arith.addi", inits[j], one);
    ws_set_op_partitions(R->plan, mlirOpResultGetOwner(inits[j]), masks[j]);
  }
  for (int i = 0; i < carried; i++)
    inits[num + i] = mlirOperationGetOperand(yield, i);
  ws_build_terminator(body, R->loc, "scf.yield", num + carried, inits);
  free(inits);
  *end = mlirOpResultGetOwner(one);
  for (MlirOperation op = mlirBlockGetFirstOperation(src), next; !mlirOperationEqual(op, yield);
       op = next) {
    next = mlirOperationGetNextInBlock(op);
    mlirOperationMoveBefore(op, *end);
  }
  mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(src, 0), mlirBlockGetArgument(body, 0));
  for (int i = 0; i < carried; i++) {
    mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(src, 1 + i),
                                  mlirBlockGetArgument(body, 1 + num + i));
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(loop, i),
                                  mlirOperationGetResult(copy, num + i));
  }
  mlirOperationDestroy(loop);
  return copy;
}

/* A constant 0 before `anchor` that every partition may read: the first
 * count of a loop, the iteration of a slot waited for once. */
static MlirValue zero_before(crossings *R, MlirOperation anchor, bool outside) {
  ws_builder b = spec_scratch(R);
  MlirValue zero = spec_c32(&b, 0);
  spec_place(R, anchor, R->every, outside);
  return zero;
}

/* ---- TMA partitions -------------------------------------------------------------- */

/* The TMA partition's ws.load or ws.store ops among [op, stop) (one step of
 * a loop, or the loads before it), iteration n: each becomes a TMA copy of
 * its ring's slot; the first on a channel waits for that slot (empty for a
 * load, which then expects the channel's bytes; full for a store). The
 * second pass, a loop of its own, is left to its own rewrite. False after
 * a located error. */
static bool rewrite_tma_ops(crossings *R, MlirOperation op, MlirOperation stop, MlirValue n,
                            int part, bool *started, bool outside) {
  specializer *S = R->S;
  bool store = R->plan->parts[part].role == WS_ROLE_STORE;
  MlirValue *slot = spec_values(R->plan->num_channels);
  value_map none = {0};
  bool ok = true;
  for (; ok && !mlirOperationEqual(op, stop); op = mlirOperationGetNextInBlock(op)) {
    if (!spec_in_partition(S, op, part) || spec_is_scalar(op) || ws_op_is(op, "scf.for"))
      continue;
    int num = (int)mlirOperationGetNumOperands(op);
    int r = ws_ring_of_value(R->plan, store ? mlirOperationGetOperand(op, num - 1)
                                            : mlirOperationGetResult(op, 0));
    if (r < 0 && store) {
      ws_emit_op_error(op, "stores a tile that has no ring; run ws-plan-memory");
      ok = false;
      break;
    }
    ws_op_list_push(&R->replaced, op);
    if (r < 0)
      continue; /* nobody uses the tile: ws-plan-memory dropped the load */
    int ch = R->plan->rings[r].channel;
    const ws_channel *c = &R->plan->channels[ch];
    ws_builder b = spec_scratch(R);
    if (store && R->plan->rings[r].parts > 1) { /* each part its slot and bulk group */
      spec_store_parts(S, &b, &none, n, op, r);
      spec_place(R, op, 1u << part, outside);
      continue;
    }
    if (!started[ch]) {
      MlirValue phase;
      spec_slot_phase(S, &b, n, ch, store ? c->consumer_phase : c->producer_phase, &slot[ch],
                      &phase);
      spec_wait_barrier(S, &b, ch, store, slot[ch], phase);
      if (!store) {
        MlirNamedAttribute attrs[2] = {spec_int_attr(S->ctx, "channel", ch),
                                       spec_int_attr(S->ctx, "bytes", c->expect_tx)};
        ws_builder expect = c->full_to == WS_REACH_LEADER ? spec_leader_only(S, &b) : b;
        ws_build_void(&expect, "ws.arrive_expect_tx", 1, &slot[ch], 2, attrs);
      }
      started[ch] = true;
    }
    spec_tma_op(S, &b, store ? "ws.tma_store" : "ws.tma_load", op, store ? num - 2 : num - 1, &none,
                r, slot[ch], 0);
    spec_place(R, op, 1u << part, outside);
  }
  free(slot);
  return ok;
}

/* A TMA partition's side of one loop's step (the first loop's, or the
 * second pass's): its copies, and for a store warp the step's bulk group
 * and the release of the slot it stored `drain` steps ago. */
static bool rewrite_tma_step(crossings *R, MlirOperation loop, MlirOperation end, int part,
                             bool *started) {
  MlirValue n = mlirBlockGetArgument(ws_loop_body(loop), 1);
  bool ok = rewrite_tma_ops(R, mlirBlockGetFirstOperation(ws_loop_body(loop)), end, n, part,
                            started, false);
  if (ok && R->plan->parts[part].role == WS_ROLE_STORE) {
    ws_builder b = spec_scratch(R);
    spec_release_stored_slots(R->S, &b, n, started);
    spec_place(R, end, 1u << part, false);
  }
  return ok;
}

/* ---- the compute partition ------------------------------------------------------- */

/* The compute partition's side of a step's channels before `anchor`:
 * incoming (their tiles read from the slots, which its ops read from
 * then on) or outgoing (its tiles written into them), of the first loop
 * or (`second`) of the second pass. */
static void rewrite_transfers(crossings *R, MlirOperation anchor, MlirValue n, int part,
                              bool incoming, bool second) {
  value_map m = {0};
  ws_builder b = spec_scratch(R);
  spec_transfer(R->S, &b, &m, n, part, incoming, false, second);
  spec_place(R, anchor, 1u << part, false);
  spec_use_mapped(R, &m, part);
}

/* The prologue's slots (a row kernel's weight): waited for and read at the
 * kernel's top, before the partition's first op, and released at its
 * end, before `end`. */
static void rewrite_prologue_slots(crossings *R, MlirOperation top, MlirOperation end, int part) {
  specializer *S = R->S;
  value_map m = {0};
  ws_builder b = spec_scratch(R);
  spec_prologue_channels(S, &b, part, false);
  for (int r = 0; r < R->plan->num_rings; r++)
    if (R->plan->channels[R->plan->rings[r].channel].to == part &&
        ws_ring_is_prologue(R->plan, &R->plan->rings[r]))
      spec_read_ring(S, &b, &m, r, S->prologue_slot[r]);
  spec_place(R, top, 1u << part, true);
  spec_use_mapped(R, &m, part);
  b = spec_scratch(R);
  spec_prologue_channels(S, &b, part, true);
  spec_place(R, end, 1u << part, false);
}

/* The ws ops an elementwise loop's compute partition can run: math on
 * tiles, and the row vectors it loads or stores itself. */
static bool check_compute_op(MlirOperation op) {
  if (!wsOperationIsInDialect(op) || wsOperationIsA(op, "iota") || wsOperationIsA(op, "reduce") ||
      wsOperationIsA(op, "broadcast") || ws_store_is_row_vector(op) || ws_load_is_row_vector(op))
    return true;
  ws_emit_op_error(op, "cannot run in the compute partition of an elementwise loop");
  return false;
}

/* check_compute_op on the partition's ops in [op, stop) and the second
 * pass's body. */
static bool check_compute_ops(crossings *R, MlirOperation op, MlirOperation stop, int part) {
  for (; !mlirOperationIsNull(op) && !mlirOperationEqual(op, stop);
       op = mlirOperationGetNextInBlock(op)) {
    if (mlirOperationEqual(op, R->S->second)) {
      if (!check_compute_ops(R, mlirBlockGetFirstOperation(ws_loop_body(op)), (MlirOperation){NULL},
                             part))
        return false;
      continue;
    }
    if (spec_in_partition(R->S, op, part) && !mlirOperationEqual(op, R->plan->loop) &&
        !check_compute_op(op))
      return false;
  }
  return true;
}

/* ---- the rewrite ----------------------------------------------------------------- */

static bool erase_replaced(crossings *R);

/* The partitions whose ops read `count` (a tile loop's count of tiles,
 * which a partition's copy carries only if it reads it), but for its own
 * increment `next`. */
static unsigned count_readers(const crossings *R, MlirValue count, MlirOperation next) {
  unsigned mask = 0;
  for (MlirOpOperand u = mlirValueGetFirstUse(count); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u))
    if (!mlirOperationEqual(mlirOpOperandGetOwner(u), next))
      mask |= ws_op_partitions(R->plan, tagged_ancestor(R->plan, mlirOpOperandGetOwner(u)));
  return mask;
}

/* Gives the loops their counts: the K loop (or an elementwise loop) its
 * steps from 0, or in a persistent kernel from where the tile loop's K
 * count stands, which the tile loop carries with its count of tiles;
 * a second pass its own steps from 0. */
static void count_tile_loop(crossings *R, MlirValue zero, spec_loops *at) {
  ws_plan *plan = R->plan;
  at->tiles = zero;
  at->tile = ws_plan_tile_loop(plan);
  if (!mlirOperationIsNull(at->tile)) {
    /* consumers that skip tiles (ping-pong) or run a K loop of their own
     * (two stages) count K steps of their own: the second count, whose
     * yield rewrite_wgmma.c sets */
    bool own = ws_loop_stages(plan->loop) > 1;
    for (int p = 0; p < plan->num_parts; p++)
      own |= plan->parts[p].pingpong;
    MlirValue starts[3] = {zero, zero, zero};
    unsigned masks[3] = {0, 0, 0};
    masks[1 + own] = R->every; /* narrowed to its readers once rewritten (count_readers) */
    at->tile = count_steps(R, at->tile, 2 + own, starts, masks, &at->epilogue_end);
    MlirBlock body = ws_loop_body(at->tile);
    at->own_k = mlirBlockGetArgument(body, 1 + own);
    at->tiles = mlirBlockGetArgument(body, 2 + own);
  } else {
    at->epilogue_end = mlirBlockGetTerminator(mlirOperationGetBlock(plan->loop));
    at->own_k = zero;
  }
}

static void count_k_loop(crossings *R, MlirValue zero, spec_loops *at, MlirOperation *second_end) {
  ws_plan *plan = R->plan;
  MlirValue k_start =
      mlirOperationIsNull(at->tile) ? zero : mlirBlockGetArgument(ws_loop_body(at->tile), 1);
  plan->loop = count_steps(R, plan->loop, 1, &k_start, &R->every, &at->loop_end);
  if (!mlirOperationIsNull(at->tile)) /* the next tile's K steps go on from this one's */
    mlirOperationSetOperand(mlirBlockGetTerminator(ws_loop_body(at->tile)), 0,
                            mlirOperationGetResult(plan->loop, 0));
  if (!mlirOperationIsNull(R->S->second)) {
    MlirValue start = zero_before(R, R->S->second, false);
    R->S->second = count_steps(R, R->S->second, 1, &start, &R->every, second_end);
  }
}

/* A lagged K loop's other partitions run two K steps an iteration, as its
 * consumers do: the loop steps by two, and its ops (the load warp's) run
 * again for the second step, at k + step and count n + 1 (a phantom past
 * the loop's end when the steps are odd in number: its loads read zeros
 * from past the tensor), the count going on from there. */
static void run_second_step(crossings *R, const spec_loops *at) {
  specializer *S = R->S;
  MlirOperation loop = R->plan->loop;
  MlirBlock body = ws_loop_body(loop);
  MlirValue iv = mlirBlockGetArgument(body, 0), n = mlirBlockGetArgument(body, 1);
  MlirOperation end = at->loop_end, last = mlirOperationGetNextInBlock(end); /* n + 1 */
  ws_builder b = spec_scratch(R);
  MlirValue iv2 = ws_arith(&b, "arith.addi", iv, mlirOperationGetOperand(loop, 2));
  MlirValue n2 = ws_arith(&b, "arith.addi", n, spec_c32(&b, 1));
  MlirOperation first = mlirBlockGetFirstOperation(body);
  spec_place(R, end, R->every, false);
  value_map m = {0};
  spec_map_put(&m, iv, iv2);
  spec_map_put(&m, n, n2);
  for (MlirOperation op = first; !mlirOperationEqual(op, mlirOpResultGetOwner(iv2));
       op = mlirOperationGetNextInBlock(op)) {
    unsigned mask = ws_op_partitions(R->plan, op);
    if (!mask)
      continue;
    MlirOperation copy = mlirOperationClone(op);
    spec_remap_operands(copy, &m);
    mlirBlockInsertOwnedOperationBefore(body, end, copy);
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
      spec_map_put(&m, mlirOperationGetResult(op, r), mlirOperationGetResult(copy, r));
  }
  spec_map_free(&m);
  mlirOperationSetOperand(last, 0, n2);
  mlirOperationSetOperand(loop, 2, S->pair_step);
}

/* A TMA partition's side of every crossing: the loads before the loop (at
 * iteration 0), the K loop's or elementwise loop's steps, the epilogue's
 * copies once per block or tile (a load warp's with the prologue's
 * channels marked), a store warp's bulk groups, the second pass, and a
 * store warp's drain before it exits. */
static bool rewrite_tma_partition(crossings *R, const spec_loops *at, MlirValue zero,
                                  MlirOperation second_end, int part) {
  specializer *S = R->S;
  ws_plan *plan = R->plan;
  bool store = plan->parts[part].role == WS_ROLE_STORE, persistent = !mlirOperationIsNull(at->tile);
  MlirOperation ret = mlirBlockGetTerminator(mlirOperationGetBlock(at->top));
  bool *fetched = spec_channel_flags(S), *stored = spec_channel_flags(S);
  bool *started = spec_channel_flags(S), *second = spec_channel_flags(S);
  bool ok =
      store || persistent || rewrite_tma_ops(R, at->top, plan->loop, zero, part, fetched, true);
  ok = ok && rewrite_tma_step(R, plan->loop, at->loop_end, part, started);
  ok = ok && rewrite_tma_ops(R, mlirOperationGetNextInBlock(plan->loop), at->epilogue_end,
                             at->tiles, part, store ? stored : fetched, false);
  if (ok && store) {
    ws_builder b = spec_scratch(R);
    if (persistent) /* a tile's C slot released once its store has read it */
      spec_release_stored_slots(S, &b, at->tiles, stored);
    else if (spec_stored_whole(S, stored)) /* parts commit their own groups */
      ws_build_void(&b, "nvvm.cp.async.bulk.commit.group", 0, NULL, 0, NULL);
    spec_place(R, at->epilogue_end, 1u << part, false);
  }
  if (ok && !mlirOperationIsNull(S->second))
    ok = rewrite_tma_step(R, S->second, second_end, part, second);
  ws_builder b = spec_scratch(R);
  if (store) /* drain before exit */
    spec_bulk_wait(&b, 0, false);
  else /* a pair's: the leader's last releases before the CTA may exit */
    spec_await_last_releases(S, &b, mlirOperationGetResult(persistent ? at->tile : plan->loop, 0),
                             started);
  spec_place(R, ret, 1u << part, false);
  free(fetched);
  free(stored);
  free(started);
  free(second);
  return ok;
}

/* An elementwise or row kernel's compute partition: its side of the
 * prologue's slots, of each step's channels and of the second pass's. */
static void rewrite_elementwise_compute(crossings *R, const spec_loops *at,
                                        MlirOperation second_end, int part) {
  specializer *S = R->S;
  MlirOperation loop = R->plan->loop;
  MlirValue n = mlirBlockGetArgument(ws_loop_body(loop), 1);
  rewrite_prologue_slots(R, at->top, at->epilogue_end, part);
  rewrite_transfers(R, mlirBlockGetFirstOperation(ws_loop_body(loop)), n, part, true, false);
  rewrite_transfers(R, at->loop_end, n, part, false, false);
  if (!mlirOperationIsNull(S->second)) {
    MlirValue n2 = mlirBlockGetArgument(ws_loop_body(S->second), 1);
    rewrite_transfers(R, mlirBlockGetFirstOperation(ws_loop_body(S->second)), n2, part, true, true);
    rewrite_transfers(R, second_end, n2, part, false, true);
  }
}

/* The partitions' sides of every crossing of the plan's loop, its prologue
 * and epilogue and its second pass, as described at the top. */
static bool rewrite_all(crossings *R) {
  specializer *S = R->S;
  ws_plan *plan = R->plan;
  MlirBlock block = mlirOperationGetBlock(
      mlirOperationIsNull(ws_plan_tile_loop(plan)) ? plan->loop : ws_plan_tile_loop(plan));
  bool matmul = ws_plan_is_matmul(plan);
  int compute = ws_plan_find_role(plan, WS_ROLE_COMPUTE);
  for (int part = 0; part < plan->num_parts && !matmul; part++)
    if (plan->parts[part].role == WS_ROLE_COMPUTE &&
        !check_compute_ops(R, mlirBlockGetFirstOperation(block), (MlirOperation){NULL}, part))
      return false;
  spec_loops at = {.top = mlirBlockGetFirstOperation(block)};
  MlirValue zero = zero_before(R, at.top, true);
  MlirOperation second_end = {NULL};
  count_tile_loop(R, zero, &at);
  bool staged = ws_loop_stages(plan->loop) > 1;
  int mma = ws_plan_find_role(plan, WS_ROLE_MMA);
  if (staged && compute >= 0) { /* the consumers' rotated loop, from the loop as it is */
    if (spec_is_lagged(plan)) { /* two K steps an iteration, in every partition: a value of
                                   the kernel's, before the partitions, which the proof reads */
      ws_builder b = ws_builder_before(mlirOperationIsNull(at.tile) ? plan->loop : at.tile);
      S->pair_step =
          ws_arith(&b, "arith.muli", mlirOperationGetOperand(plan->loop, 2), spec_c32(&b, 2));
    }
    if (!spec_rewrite_wgmma_consumers(R, &at, compute))
      return false;
  }
  count_k_loop(R, zero, &at, &second_end);
  for (int part = 0; part < plan->num_parts; part++) {
    ws_role role = plan->parts[part].role;
    if ((role == WS_ROLE_LOAD || role == WS_ROLE_STORE) &&
        !rewrite_tma_partition(R, &at, zero, second_end, part))
      return false;
  }
  if (mma >= 0 && !spec_rewrite_tcgen05(R, &at, mma, compute))
    return false;
  if (mma < 0 && !staged && compute >= 0 && matmul &&
      !spec_rewrite_wgmma_consumers(R, &at, compute))
    return false;
  for (int part = 0; part < plan->num_parts && !matmul; part++) /* one, or a split loop's parts */
    if (plan->parts[part].role == WS_ROLE_COMPUTE)
      rewrite_elementwise_compute(R, &at, second_end, part);
  if (!mlirOperationIsNull(at.tile)) { /* the count of tiles: carried by its readers */
    MlirOperation yield = mlirBlockGetTerminator(ws_loop_body(at.tile));
    intptr_t index = mlirBlockArgumentGetArgNumber(at.tiles) - 1;
    MlirOperation next = mlirOpResultGetOwner(mlirOperationGetOperand(yield, index));
    unsigned readers = count_readers(R, at.tiles, next);
    ws_set_op_partitions(plan, next, readers);
    ws_set_op_partitions(plan, at.epilogue_end, readers);
  }
  if (!erase_replaced(R))
    return false;
  if (!mlirValueIsNull(S->pair_step)) /* once the ws.load ops are gone */
    run_second_step(R, &at);
  return true;
}

/* Erases the ops the protocol replaced, each once nothing reads it (a
 * ws.dot's product is read by the next ws.dot, a tile by the ws.store of
 * another partition); one still read is a crossing without a channel. */
static bool erase_replaced(crossings *R) {
  for (bool progress = true; progress && R->replaced.len > 0;) {
    progress = false;
    for (long i = R->replaced.len - 1; i >= 0; i--) {
      MlirOperation op = R->replaced.items[i];
      bool read = false;
      for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
        read |= !mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(op, r)));
      if (read)
        continue;
      for (int r = 0; r < R->plan->num_rings; r++)
        if (mlirOperationEqual(R->plan->rings[r].producer, op))
          R->plan->rings[r].producer = (MlirOperation){NULL};
      mlirOperationDestroy(op);
      R->replaced.items[i] = R->replaced.items[--R->replaced.len];
      progress = true;
    }
  }
  if (R->replaced.len > 0) {
    ws_emit_op_error(R->replaced.items[0],
                     "is read by a partition that has no channel from its own; "
                     "ws-plan-memory should have given the tile a ring to it");
    return false;
  }
  return true;
}

crossings *spec_rewrite_crossings(specializer *S, ws_plan *plan) {
  crossings *R = ws_zalloc(1, sizeof *R);
  R->S = S;
  R->plan = plan;
  R->scratch = mlirBlockCreate(0, NULL, NULL);
  R->loc = mlirOperationGetLocation(plan->loop);
  R->every = plan->num_parts >= 32 ? ~0u : (1u << plan->num_parts) - 1;
  if (!rewrite_all(R))
    S->failed = true;
  return R;
}

void spec_erase_crossings(crossings *R) {
  while (R->before.len > 0)
    mlirOperationDestroy(R->before.items[--R->before.len]);
  ws_op_list_free(&R->before);
  ws_op_list_free(&R->replaced);
  mlirBlockDestroy(R->scratch);
  free(R);
}

void spec_keep_crossings(crossings *R) {
  R->before.len = 0;
  spec_erase_crossings(R);
}
