/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* rewrite_wgmma.c: the wgmma consumers' side of the one slicer's rewrite
 * (rewrite_crossings.c): in a matmul's K loop itself, tagged with the
 * consumers' partition,
 *
 *   at a step's start: ws.slot_phase %n, ws.wait full, wgmma fence
 *   each ws.dot: a ws.mma on the slot (after a fence when register math
 *     ran since the last one), which the consumers' ops read from then on
 *   math that reads a wgmma's result: commit and wait for the group
 *     first, which frees the previous step's slot; a tile it reads from a
 *     ring (wgmma's register A) read from the slot where first used
 *   at a step's end: commit, wait until one group is in flight, free the
 *     previous step's slot
 *   warpgroups that take turns (attention with 8 or 12 warps): the turn
 *     channel's waits and arrivals around the step's runs of ws.dot
 *
 * and after the K loop: wait for the last group, free its slot and the
 * prologue's, then the epilogue's operands from their slots, its math in
 * place, and its C tile into the store warp's slot. In a persistent
 * kernel all of that is in the tile loop, the slots of the epilogue
 * counted by tiles. Ping-pong consumers (two warpgroups taking alternate
 * tiles) then get their share of each tile under a parity guard, with a
 * K loop and a K count of their own (guard_own_tiles). Part of
 * ws-specialize (specialize.c). */
#include "specialize_internal.h"

/* ---- the wgmma groups of a step ----------------------------------------------- */

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

bool spec_uses_pending(const mma_groups *g, MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
    if (is_pending(g, mlirOperationGetOperand(op, i)))
      return true;
  return false;
}

void spec_retire_groups(specializer *S, ws_builder *b, mma_groups *g, MlirValue n, int in,
                        MlirValue base) {
  if (g->issued.len && !g->committed)
    ws_build_void(b, "nvvm.wgmma.commit.group.sync.aligned", 0, NULL, 0, NULL);
  spec_wgmma_wait(b, 0);
  if (!g->released)
    spec_release_lagging(S, b, n, in, 1, base);
  g->issued.len = 0;
  g->committed = false;
  g->released = true;
}

bool spec_feeds_register_a(MlirOperation op) {
  if (mlirOperationGetNumResults(op) != 1)
    return false;
  for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, 0));
       !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
    if (wsOperationIsA(mlirOpOperandGetOwner(u), "dot") && mlirOpOperandGetOperandNumber(u) == 0)
      return true;
  return false;
}

/* ---- the K loop ----------------------------------------------------------------- */

/* The consumers' side of the K loop's step, in place (see the top); `end`
 * is where the step's last protocol goes, `base` the count this tile's
 * steps start from (null: 0). The tiles read from slots and the products
 * of the ws.mma ops are in `m`, for the caller to put in their readers. */
static bool rewrite_k_step(crossings *R, MlirOperation loop, MlirOperation end, int part, int in,
                           MlirValue base, const turn_order *turns, value_map *m) {
  specializer *S = R->S;
  unsigned mine = 1u << part;
  MlirBlock body = ws_loop_body(loop);
  MlirOperation first = mlirBlockGetFirstOperation(body);
  MlirValue n = mlirBlockGetArgument(body, 1), slot, phase;
  mma_groups g = {.loop = loop};
  ws_builder b = spec_scratch(R);
  spec_slot_phase(S, &b, n, in, S->plan->channels[in].consumer_phase, &slot, &phase);
  spec_wait_barrier(S, &b, in, true, slot, phase);
  ws_build_void(&b, "nvvm.wgmma.fence.aligned", 0, NULL, 0, NULL);
  spec_place(R, first, mine, false);
  g.fenced = true;
  bool ok = true, in_run = false;
  int runs = turns->ch >= 0 ? ws_loop_dot_runs(loop) : 0, run = -1;
  for (MlirOperation op = first; ok && !mlirOperationEqual(op, end);
       op = mlirOperationGetNextInBlock(op)) {
    if (!spec_in_partition(S, op, part) || spec_is_scalar(op))
      continue;
    b = spec_scratch(R);
    if (!wsOperationIsA(op, "dot")) {
      if (in_run && run == 0 && runs > 1) { /* the turn's last wgmmas are issued */
        ws_build_void(&b, "nvvm.wgmma.commit.group.sync.aligned", 0, NULL, 0, NULL);
        g.committed = true;
        spec_end_turn(S, &b, turns, spec_turn_at(&b, turns, n, 0));
      }
      in_run = false;
      if (spec_uses_pending(&g, op))
        spec_retire_groups(S, &b, &g, n, in, base);
      spec_read_ring_operands(S, &b, m, op, in, slot);
      if (spec_feeds_register_a(op) && !g.released) /* the last step's wgmma may still read A */
        spec_retire_groups(S, &b, &g, n, in, base);
      spec_place(R, op, mine, false);
      g.fenced = false; /* register math: fence before the next wgmma */
      continue;
    }
    if (!in_run && ++run == runs - 1 && runs > 1) /* the step's last run: the next turn */
      spec_take_turn_after(S, &b, turns, spec_turn_at(&b, turns, n, turns->warpgroups));
    in_run = true;
    if (!g.fenced)
      ws_build_void(&b, "nvvm.wgmma.fence.aligned", 0, NULL, 0, NULL);
    g.fenced = true;
    ok = spec_emit_mma(S, &b, m, op, slot);
    spec_place(R, op, mine, false);
    ws_op_list_push(&g.issued, op);
    ws_op_list_push(&R->replaced, op);
  }
  b = spec_scratch(R);
  if (ok && g.issued.len && !g.committed)
    ws_build_void(&b, "nvvm.wgmma.commit.group.sync.aligned", 0, NULL, 0, NULL);
  ws_op_list_free(&g.issued);
  if (ok && !g.released) {
    spec_wgmma_wait(&b, 1);
    spec_release_lagging(S, &b, n, in, 1, base); /* the previous step's wgmma is done */
  }
  spec_place(R, end, mine, false);
  return ok;
}

/* ---- ping-pong ------------------------------------------------------------------ */

/* The next tile's start of the consumers' own K count (at->own_k, the tile
 * loop's count that count_tile_loop left for this file to yield). */
static void own_count_goes_on(const spec_loops *at, MlirValue next) {
  mlirOperationSetOperand(mlirBlockGetTerminator(ws_loop_body(at->tile)),
                          mlirBlockArgumentGetArgNumber(at->own_k) - 1, next);
}

/* Moves the consumers' op `op` before `dest` (its operands through `m`),
 * or, when other partitions share it (index math), puts a copy there and
 * leaves them the original. */
static void take_op(crossings *R, MlirOperation op, MlirOperation dest, value_map *m, int part) {
  unsigned mask = ws_op_partitions(R->plan, op), mine = 1u << part;
  if (mask == mine) {
    mlirOperationMoveBefore(op, dest);
    spec_remap_operands(op, m);
    return;
  }
  MlirOperation copy = mlirOperationClone(op);
  spec_remap_operands(copy, m);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(dest), dest, copy);
  ws_set_op_partitions(R->plan, copy, mine);
  ws_set_op_partitions(R->plan, op, mask & ~mine);
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
    spec_map_put(m, mlirOperationGetResult(op, r), mlirOperationGetResult(copy, r));
}

/* The consumers' own copy of the K loop before `dest`, counting from
 * `start`: their ops taken out of the shared loop (take_op) with the
 * values they carry (the count, their accumulators), which the shared
 * loop then passes through unchanged for the others. Its results stand
 * for the shared loop's in `m`. */
static void split_k_loop(crossings *R, MlirOperation shared, MlirOperation dest, MlirValue start,
                         value_map *m, int part) {
  MlirBlock src = ws_loop_body(shared), body;
  MlirOperation yield = mlirBlockGetTerminator(src);
  intptr_t num = mlirOperationGetNumResults(shared), kept = 0;
  intptr_t *which = ws_zalloc((size_t)num, sizeof *which);
  MlirValue *values = spec_values((int)num);
  for (intptr_t i = 0; i < num; i++) {
    MlirValue y = mlirOperationGetOperand(yield, i);
    if (i > 0 && !(mlirValueIsAOpResult(y) &&
                   ((ws_op_partitions(R->plan, mlirOpResultGetOwner(y)) >> part) & 1)))
      continue;
    which[kept] = i;
    values[kept++] = i == 0 ? start : spec_map_get(m, mlirOperationGetOperand(shared, 3 + i));
  }
  ws_builder b = ws_builder_before(dest);
  MlirOperation copy =
      ws_build_for(&b, spec_map_get(m, mlirOperationGetOperand(shared, 0)),
                   spec_map_get(m, mlirOperationGetOperand(shared, 1)),
                   spec_map_get(m, mlirOperationGetOperand(shared, 2)), kept, values, &body);
  ws_set_op_partitions(R->plan, copy, 1u << part);
  spec_map_put(m, mlirBlockGetArgument(src, 0), mlirBlockGetArgument(body, 0));
  for (intptr_t k = 0; k < kept; k++) {
    spec_map_put(m, mlirBlockGetArgument(src, 1 + which[k]), mlirBlockGetArgument(body, 1 + k));
    values[k] = mlirBlockGetArgument(body, 1 + k);
  }
  ws_build_terminator(body, R->loc, "scf.yield", kept, values);
  MlirOperation end = mlirBlockGetTerminator(body);
  for (MlirOperation op = mlirBlockGetFirstOperation(src), next; !mlirOperationEqual(op, yield);
       op = next) {
    next = mlirOperationGetNextInBlock(op);
    if ((ws_op_partitions(R->plan, op) >> part) & 1)
      take_op(R, op, end, m, part);
  }
  for (intptr_t k = 0; k < kept; k++) {
    mlirOperationSetOperand(end, k, spec_map_get(m, mlirOperationGetOperand(yield, which[k])));
    spec_map_put(m, mlirOperationGetResult(shared, which[k]), mlirOperationGetResult(copy, k));
    if (which[k] > 0) /* the others pass it through */
      mlirOperationSetOperand(yield, which[k], mlirBlockGetArgument(src, 1 + which[k]));
  }
  free(values);
  free(which);
}

/* Ping-pong: the consumers' share of a tile, from `from` (the wait for the
 * other warpgroup's turn) to the tile's end, runs only for the tiles
 * whose count has the warpgroup's parity: it moves into an scf.if, the K
 * loop as a copy of the consumers' own (split_k_loop). The tile's K steps
 * (`k_steps`; null: counted here, per tile) advance their own count. */
static void guard_own_tiles(crossings *R, const spec_loops *at, MlirOperation from,
                            MlirValue warpgroup, MlirValue k_steps, int part) {
  specializer *S = R->S;
  unsigned mine = 1u << part;
  value_map none = {0}, m = {0};
  ws_builder b = spec_scratch(R);
  if (mlirValueIsNull(k_steps)) /* both warpgroups count every unit's own steps */
    k_steps = spec_count_k_steps(S, &b, &none);
  MlirValue parity = ws_arith(&b, "arith.remui", at->tiles, spec_c32(&b, 2));
  MlirBlock then_block;
  ws_build_if(&b, ws_cmpi(&b, "eq", parity, warpgroup), &then_block, NULL);
  spec_place(R, from, mine, false);
  MlirOperation dest = mlirBlockGetTerminator(then_block);
  for (MlirOperation op = from, next; !mlirOperationEqual(op, at->epilogue_end); op = next) {
    next = mlirOperationGetNextInBlock(op);
    if (mlirOperationEqual(op, R->plan->loop))
      split_k_loop(R, op, dest, at->own_k, &m, part);
    else if ((ws_op_partitions(R->plan, op) >> part) & 1)
      take_op(R, op, dest, &m, part);
  }
  spec_map_free(&m);
  b = spec_scratch(R); /* both warpgroups step past the tile's K steps */
  MlirValue next_k = ws_arith(&b, "arith.addi", at->own_k, k_steps);
  spec_place(R, at->epilogue_end, mine, false);
  own_count_goes_on(at, next_k);
}

/* ---- two stages ----------------------------------------------------------------- */

/* Takes the consumers' ops out of `loop`, which the others keep: what the
 * consumers carry it passes through unchanged, their ops go, and index
 * math they share stays for the others. */
static void drop_partition_ops(crossings *R, MlirOperation loop, int part) {
  MlirBlock body = ws_loop_body(loop);
  MlirOperation yield = mlirBlockGetTerminator(body);
  unsigned mine = 1u << part;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(yield); i++) {
    MlirValue y = mlirOperationGetOperand(yield, i);
    if (mlirValueIsAOpResult(y) && ws_op_partitions(R->plan, mlirOpResultGetOwner(y)) == mine)
      mlirOperationSetOperand(yield, i, mlirBlockGetArgument(body, 1 + i));
  }
  ws_op_list gone = {0};
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationEqual(op, yield);
       op = mlirOperationGetNextInBlock(op)) {
    unsigned mask = ws_op_partitions(R->plan, op);
    if (mask == mine)
      ws_op_list_push(&gone, op);
    else if (mask & mine)
      ws_set_op_partitions(R->plan, op, mask & ~mine);
  }
  while (gone.len > 0)
    mlirOperationDestroy(gone.items[--gone.len]);
  ws_op_list_free(&gone);
}

/* A K loop with two stages (the lag or the step pipeline, ws.stage): the
 * consumers' loop is rotated, a loop of their own built whole
 * (specialize_lag.c, specialize_pipeline.c) before the shared one, whose
 * results their ops then read instead; the shared loop keeps the other
 * partitions' ops. Runs before the shared loop counts its steps; a tile
 * loop's consumers' own K count goes on from theirs. Returns their count
 * after it (null after an error). */
static MlirValue rotated_k_loop(crossings *R, const spec_loops *at, int part, int in,
                                const turn_order *turns) {
  specializer *S = R->S;
  MlirOperation loop = R->plan->loop;
  bool persistent = !mlirOperationIsNull(at->tile);
  value_map m = {0};
  ws_builder b = spec_scratch(R);
  MlirValue steps = spec_is_lagged(R->plan)
                        ? spec_emit_lagged_k_loop(S, &b, &m, part, in, at->own_k)
                        : spec_emit_pipelined_k_loop(S, &b, &m, part, in, at->own_k, turns);
  spec_place(R, loop, 1u << part, !persistent);
  if (!mlirValueIsNull(steps)) {
    for (intptr_t i = 0; i < mlirOperationGetNumResults(loop); i++)
      spec_replace_uses_in(R, mlirOperationGetResult(loop, i),
                           spec_map_get(&m, mlirOperationGetResult(loop, i)), part);
    drop_partition_ops(R, loop, part);
    if (persistent)
      own_count_goes_on(at, steps);
  }
  spec_map_free(&m);
  return steps;
}

/* ---- the consumers ------------------------------------------------------------- */

bool spec_rewrite_wgmma_consumers(crossings *R, const spec_loops *at, int part) {
  specializer *S = R->S;
  const ws_plan *plan = R->plan;
  unsigned mine = 1u << part;
  int in = spec_k_loop_channel(S, part);
  if (in < 0) {
    ws_emit_op_error(plan->loop, "has no channel into its consumer warpgroups; run "
                                 "ws-plan-memory");
    return false;
  }
  MlirOperation loop = plan->loop, after = mlirOperationGetNextInBlock(loop);
  bool persistent = !mlirOperationIsNull(at->tile), pingpong = plan->parts[part].pingpong;
  MlirValue base = persistent ? at->own_k : (MlirValue){NULL};
  MlirValue k_steps = {NULL}, warpgroup = {NULL};
  ws_builder b = spec_scratch(R);
  if (pingpong) { /* before the tile loop: the steps of every tile, and whose tiles are whose */
    value_map none = {0};
    if (!spec_k_steps_vary(S))
      k_steps = spec_count_k_steps(S, &b, &none);
    warpgroup = spec_own_warpgroup(S, &b);
    spec_place(R, at->tile, mine, true);
  }
  spec_prologue_channels(S, &b, part, false);
  spec_place(R, at->top, mine, true);
  int turn = pingpong ? spec_turn_channel(S, part) : -1;
  MlirOperation guard_from = loop;
  if (turn >= 0) { /* wait for the other warpgroup's tile before this one */
    b = spec_scratch(R);
    spec_take_tile_turn(S, &b, at->tiles, turn);
    guard_from = mlirBlockGetFirstOperation(R->scratch);
    spec_place(R, loop, mine, false);
  }
  turn_order turns = {.ch = -1};
  if (plan->parts[part].turns && !persistent && ws_loop_dot_runs(loop) > 1) {
    b = spec_scratch(R);
    turns.ch = spec_turn_channel(S, part);
    turns.warpgroup = spec_own_warpgroup(S, &b);
    turns.warpgroups = plan->parts[part].num_warps / 4;
    MlirBlock then_block; /* warpgroup w's first turn follows w - 1's */
    ws_build_if(&b, ws_cmpi(&b, "ugt", turns.warpgroup, spec_c32(&b, 0)), &then_block, NULL);
    ws_builder t1 = ws_builder_before(mlirBlockGetTerminator(then_block));
    spec_take_turn_after(S, &t1, &turns, spec_turn_at(&t1, &turns, spec_c32(&t1, 0), 0));
    spec_place(R, loop, mine, true); /* before the loop: in the kernel's block */
  }
  value_map m = {0};
  bool staged = ws_loop_stages(loop) > 1;
  MlirValue steps = {NULL};
  if (staged) {
    steps = rotated_k_loop(R, at, part, in, &turns);
    if (mlirValueIsNull(steps))
      return false;
  } else {
    bool ok = rewrite_k_step(R, loop, at->loop_end, part, in, base, &turns, &m);
    spec_use_mapped(R, &m, part);
    if (!ok)
      return false;
    steps = mlirOperationGetResult(loop, 0);
  }
  b = spec_scratch(R);
  if (turn >= 0) { /* every wait of this tile passed: the other may go on */
    MlirValue slot;
    spec_slot_phase(S, &b, at->tiles, turn, plan->channels[turn].producer_phase, &slot, NULL);
    spec_arrive(S, &b, turn, true, slot);
  }
  if (turns.ch >= 0) /* the last turn: the last step's last run */
    spec_end_turn(S, &b, &turns, spec_turn_at(&b, &turns, steps, 0));
  if (!staged) { /* a rotated loop waits and releases its own */
    spec_wgmma_wait(&b, 0);
    spec_release_lagging(S, &b, steps, in, 1, base);
  }
  spec_prologue_channels(S, &b, part, true);
  if (spec_epilogue_reuses_rings(S)) {
    MlirValue ops[2] = {spec_c32(&b, 1), spec_c32(&b, plan->parts[part].num_warps * 32)};
    MlirNamedAttribute seg = ws_named_text(S->ctx, "operandSegmentSizes", "array<i32: 1, 1, 0>");
    ws_build_void(&b, "nvvm.barrier", 2, ops, 1, &seg);
  }
  spec_rewrite_epilogue(R, at, &b, after, part);
  if (pingpong)
    guard_own_tiles(R, at, guard_from, warpgroup, k_steps, part);
  return true;
}
