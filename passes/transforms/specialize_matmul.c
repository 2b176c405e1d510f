/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* specialize_matmul.c: the wgmma consumers' protocol ops that the one
 * slicer's rewrite (rewrite_wgmma.c) and the rotated K loops share: a
 * ws.dot as ws.mma, wgmma waits, register A read from its slot, the
 * warpgroups' turns and ping-pong's tile turns, the prologue's slots.
 * Part of ws-specialize (specialize.c). */
#include "specialize_internal.h"

/* ---- a matmul --------------------------------------------------------------- */

/* True when ws-plan-memory put the epilogue tile over the loop's rings. */
bool spec_epilogue_reuses_rings(const specializer *S) {
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

void spec_wgmma_wait(ws_builder *b, int pending) {
  char group[32];
  snprintf(group, sizeof group, "%d : i64", pending);
  MlirNamedAttribute attr = ws_named_text(b->ctx, "group", group);
  ws_build_void(b, "nvvm.wgmma.wait.group.sync.aligned", 0, NULL, 1, &attr);
}

/* ws.dot as ws.mma on the slot of B's ring: A from the same slot of its
 * own ring, from the slot a prologue ring holds for the whole loop (a
 * third operand), or from registers (a tile, the third operand). */
bool spec_emit_mma(specializer *S, ws_builder *b, value_map *m, MlirOperation dot, MlirValue slot) {
  MlirValue a = mlirOperationGetOperand(dot, 0);
  int ra = ws_ring_of_value(S->plan, a);
  int rb = ws_ring_of_value(S->plan, mlirOperationGetOperand(dot, 1));
  if (rb < 0 || (ra >= 0 && ws_ring_is_prologue(S->plan, &S->plan->rings[ra]) &&
                 mlirValueIsNull(S->prologue_slot[ra]))) {
    ws_emit_op_error(dot, "reads a tile that has no ring; run ws-plan-memory");
    return false;
  }
  MlirValue ops[3] = {slot, spec_map_get(m, mlirOperationGetOperand(dot, 2)), {NULL}};
  int num_ops = 2;
  if (ra < 0)
    ops[num_ops++] = spec_map_get(m, a); /* A in registers */
  else if (ws_ring_is_prologue(S->plan, &S->plan->rings[ra]))
    ops[num_ops++] = S->prologue_slot[ra];
  MlirNamedAttribute attrs[4];
  int num_attrs = 0;
  if (ra >= 0)
    attrs[num_attrs++] = spec_int_attr(S->ctx, "ring_a", ra);
  attrs[num_attrs++] = spec_int_attr(S->ctx, "ring_b", rb);
  static const char *const transposes[2] = {"transpose_a", "transpose_b"};
  for (int i = 0; i < 2; i++)
    if (ws_has_attr(dot, transposes[i]))
      attrs[num_attrs++] = ws_named(S->ctx, transposes[i], mlirUnitAttrGet(S->ctx));
  ws_builder at = *b;
  at.loc = mlirOperationGetLocation(dot);
  MlirValue d = ws_build_value(&at, "ws.mma", num_ops, ops,
                               mlirValueGetType(mlirOperationGetResult(dot, 0)), num_attrs, attrs);
  spec_map_put(m, mlirOperationGetResult(dot, 0), d);
  return true;
}

/* Wait for turn c - 1 to end: turn c may start. */
void spec_take_turn_after(specializer *S, ws_builder *b, const turn_order *t, MlirValue c) {
  MlirValue slot, phase;
  spec_slot_phase(S, b, ws_arith(b, "arith.subi", c, spec_c32(b, 1)), t->ch,
                  S->plan->channels[t->ch].consumer_phase, &slot, &phase);
  spec_wait_barrier(S, b, t->ch, true, slot, phase);
}

/* End turn c: the other warpgroup's turn c + 1 may start. */
void spec_end_turn(specializer *S, ws_builder *b, const turn_order *t, MlirValue c) {
  MlirValue slot;
  spec_slot_phase(S, b, c, t->ch, S->plan->channels[t->ch].producer_phase, &slot, NULL);
  spec_arrive(S, b, t->ch, true, slot);
}

/* Turn W n + w + offset of this warpgroup at step n. */
MlirValue spec_turn_at(ws_builder *b, const turn_order *t, MlirValue n, int offset) {
  return ws_arith(b, "arith.addi", ws_arith(b, "arith.muli", n, spec_c32(b, t->warpgroups)),
                  ws_arith(b, "arith.addi", t->warpgroup, spec_c32(b, offset)));
}

/* Register math on a tile the loop loads (an A computed from it, read
 * by wgmma's register form): the tile is read from its slot of channel
 * `in`, or from the prologue ring's slot, into registers where it is
 * first used. */
void spec_read_ring_operands(specializer *S, ws_builder *b, value_map *m, MlirOperation op, int in,
                             MlirValue slot) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
    MlirValue v = mlirOperationGetOperand(op, i);
    int r = ws_ring_of_value(S->plan, v);
    if (r < 0 || !mlirValueEqual(spec_map_get(m, v), v))
      continue;
    const ws_ring *ring = &S->plan->rings[r];
    MlirValue from = ring->channel == in ? slot : S->prologue_slot[r];
    if (mlirValueIsNull(from))
      continue;
    spec_read_ring(S, b, m, r, from);
  }
}

/* The consumers' side of the prologue channels (an attention kernel's Q):
 * wait once for each slot before the loop and note it for the ws.mma ops
 * that read it; with `release`, free them once every wgmma is done. */
void spec_prologue_channels(specializer *S, ws_builder *b, int part, bool release) {
  for (int ch = 0; ch < S->plan->num_channels; ch++) {
    const ws_channel *c = &S->plan->channels[ch];
    if (c->to != part || !ws_channel_is_prologue(S->plan, ch))
      continue;
    MlirValue slot, phase;
    spec_slot_phase(S, b, spec_c32(b, 0), ch, c->consumer_phase, &slot, &phase);
    if (release) {
      if (c->release_fence) /* read in registers: before TMA may refill it */
        spec_fence_async_shared(b);
      spec_arrive(S, b, ch, false, slot);
      continue;
    }
    spec_wait_barrier(S, b, ch, true, slot, phase);
    for (int r = 0; r < S->plan->num_rings; r++)
      if (S->plan->rings[r].channel == ch)
        S->prologue_slot[r] = slot;
  }
}

/* Ping-pong: the K steps of one tile, counted by a loop over the K loop's
 * bounds as `m` maps them (a warpgroup skipping the other's tile advances
 * its K count by as many steps as that tile takes from the ring). */
MlirValue spec_count_k_steps(specializer *S, ws_builder *b, const value_map *m) {
  MlirOperation loop = S->plan->loop;
  MlirValue zero = spec_c32(b, 0);
  MlirBlock body;
  MlirOperation count = ws_build_for(b, spec_map_get(m, mlirOperationGetOperand(loop, 0)),
                                     spec_map_get(m, mlirOperationGetOperand(loop, 1)),
                                     mlirOperationGetOperand(loop, 2), 1, &zero, &body);
  ws_builder in = ws_builder_at_end(body, b->loc);
  MlirValue next = ws_arith(&in, "arith.addi", mlirBlockGetArgument(body, 1), spec_c32(&in, 1));
  ws_build_terminator(body, b->loc, "scf.yield", 1, &next);
  return mlirOperationGetResult(count, 0);
}

/* True when the K loop's bounds are computed in the tile loop (stream-K's
 * units, ws.stream_k_unit): each tile then runs K steps of its own. */
bool spec_k_steps_vary(const specializer *S) {
  MlirOperation tile = ws_plan_tile_loop(S->plan);
  return !mlirOperationIsNull(tile) &&
         (ws_defined_within(mlirOperationGetOperand(S->plan->loop, 0), tile) ||
          ws_defined_within(mlirOperationGetOperand(S->plan->loop, 1), tile));
}

/* The ping-pong consumers' turn channel (from the partition to itself). */
int spec_turn_channel(const specializer *S, int part) {
  for (int ch = 0; ch < S->plan->num_channels; ch++)
    if (S->plan->channels[ch].from == part && S->plan->channels[ch].to == part)
      return ch;
  return -1;
}

/* if (tile count > 0) wait for the turn of tile count - 1: the other
 * warpgroup has passed every wait of its K loop. */
void spec_take_tile_turn(specializer *S, ws_builder *b, MlirValue tiles, int turn) {
  MlirBlock then_block;
  ws_build_if(b, ws_cmpi(b, "ugt", tiles, spec_c32(b, 0)), &then_block, NULL);
  ws_builder t = ws_builder_before(mlirBlockGetTerminator(then_block));
  MlirValue slot, phase;
  spec_slot_phase(S, &t, ws_arith(&t, "arith.subi", tiles, spec_c32(&t, 1)), turn,
                  S->plan->channels[turn].consumer_phase, &slot, &phase);
  spec_wait_barrier(S, &t, turn, true, slot, phase);
}

/* The calling thread's warpgroup among the consumers (they are warps 0..). */
MlirValue spec_own_warpgroup(specializer *S, ws_builder *b) {
  MlirValue tid = ws_build_value(b, "nvvm.read.ptx.sreg.tid.x", 0, NULL, S->i32, 0, NULL);
  return ws_arith(b, "arith.divui", tid, spec_c32(b, 4 * WARP_THREADS));
}

/* The channel into `part` that a matmul's K loop steps (the A and B
 * rings), or -1. */
int spec_k_loop_channel(const specializer *S, int part) {
  for (int ch = 0; ch < S->plan->num_channels; ch++)
    if (S->plan->channels[ch].to == part && S->plan->channels[ch].from != part &&
        !ws_channel_is_epilogue(S->plan, ch) && !ws_channel_is_prologue(S->plan, ch))
      return ch;
  return -1;
}
