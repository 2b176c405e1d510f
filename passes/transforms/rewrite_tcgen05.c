/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* rewrite_tcgen05.c: a matmul on sm_100a in the one slicer's rewrite
 * (rewrite_crossings.c): the MMA warp's side and the epilogue's side of
 * the accumulator in tensor memory, tagged with their partitions,
 *
 *   before the K loop (per tile): the MMA warp waits until the epilogue
 *     has read the accumulator buffer this tile takes (its empty barrier;
 *     a fresh one passes), then fences
 *   each ws.dot: wait for the slot, copy the step's block scales into
 *     tensor memory, ws.tc_mma into the buffer (overwriting it on the
 *     tile's first step), commit to the slot's empty barrier (the MMAs'
 *     completion releases it for the load warp)
 *   after the K loop: the MMA warp commits to the buffer's full barrier;
 *     the epilogue waits for it, reads the buffer (ws.tmem_load, which
 *     its ops read instead of the K loop's accumulator), gives it back,
 *     then takes its operands, runs its math and hands the C tile over as
 *     on sm_90a
 *
 * A pair's MMA warp runs on its cluster's leader alone (slice.c's caller
 * guards it). Part of ws-specialize (specialize.c). */
#include "specialize_internal.h"

/* The MMA warp's side of the K loop (see the top). */
static bool rewrite_issuer(crossings *R, const spec_loops *at, int part, MlirValue *buffer) {
  specializer *S = R->S;
  const ws_plan *plan = R->plan;
  unsigned mine = 1u << part;
  int in = spec_k_loop_channel(S, part), acc = plan->tmem.channel;
  MlirOperation loop = plan->loop, dot = {NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(ws_loop_body(loop)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (wsOperationIsA(op, "dot"))
      dot = op;
  int ra = mlirOperationIsNull(dot) ? -1 : ws_ring_of_value(plan, mlirOperationGetOperand(dot, 0));
  int rb = mlirOperationIsNull(dot) ? -1 : ws_ring_of_value(plan, mlirOperationGetOperand(dot, 1));
  if (in < 0 || ra < 0 || rb < 0) {
    ws_emit_op_error(loop, "has no ring into its MMA warp; run ws-plan-memory");
    return false;
  }
  bool persistent = !mlirOperationIsNull(at->tile);
  MlirValue phase, k_start = persistent ? at->own_k : mlirOperationGetOperand(loop, 3);
  ws_builder b = spec_scratch(R);
  spec_slot_phase(S, &b, at->tiles, acc, plan->channels[acc].producer_phase, buffer, &phase);
  spec_wait_barrier(S, &b, acc, false, *buffer, phase);
  spec_tcgen05_fence(&b, false);
  spec_place(R, loop, mine, !persistent);
  MlirBlock body = ws_loop_body(loop);
  MlirValue n = mlirBlockGetArgument(body, 1), slot;
  b = spec_scratch(R);
  spec_slot_phase(S, &b, n, in, plan->channels[in].consumer_phase, &slot, &phase);
  spec_wait_barrier(S, &b, in, true, slot, phase);
  MlirValue ops[3] = {slot, *buffer, ws_cmpi(&b, "ne", n, k_start)};
  MlirNamedAttribute attrs[3] = {spec_int_attr(S->ctx, "ring_a", ra),
                                 spec_int_attr(S->ctx, "ring_b", rb),
                                 ws_named(S->ctx, "transpose_b", mlirUnitAttrGet(S->ctx))};
  ws_builder issue = b;
  issue.loc = mlirOperationGetLocation(dot);
  for (int i = 0; i < plan->tmem.num_scales; i++) { /* the step's scales */
    MlirNamedAttribute ring = spec_int_attr(S->ctx, "ring", plan->tmem.scale_ring[i]);
    ws_build_void(&issue, "ws.tmem_copy", 1, &slot, 1, &ring);
  }
  ws_build_void(&issue, "ws.tc_mma", 3, ops, ws_has_attr(dot, "transpose_b") ? 3 : 2, attrs);
  spec_signal(S, &b, "ws.commit", in, false, slot);
  spec_place(R, mlirBlockGetFirstOperation(body), mine, false);
  /* the accumulator lives in tensor memory: the loop passes its register
   * value through, and the ws.dot goes */
  MlirOperation yield = mlirBlockGetTerminator(body);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(yield); i++)
    if (mlirValueEqual(mlirOperationGetOperand(yield, i), mlirOperationGetResult(dot, 0)))
      mlirOperationSetOperand(yield, i, mlirBlockGetArgument(body, 1 + i));
  ws_op_list_push(&R->replaced, dot);
  b = spec_scratch(R);
  spec_signal(S, &b, "ws.commit", acc, true, *buffer);
  spec_place(R, mlirOperationGetNextInBlock(loop), mine, false);
  return true;
}

/* The epilogue's side: the accumulator from tensor memory, then the
 * epilogue's channels (see the top). */
static void rewrite_tmem_epilogue(crossings *R, const spec_loops *at, int part) {
  specializer *S = R->S;
  const ws_plan *plan = R->plan;
  int acc = plan->tmem.channel;
  MlirOperation loop = plan->loop, after = mlirOperationGetNextInBlock(loop);
  MlirValue buffer, phase;
  ws_builder b = spec_scratch(R);
  spec_slot_phase(S, &b, at->tiles, acc, plan->channels[acc].consumer_phase, &buffer, &phase);
  spec_wait_barrier(S, &b, acc, true, buffer, phase);
  spec_tcgen05_fence(&b, false);
  MlirValue result = mlirOperationGetResult(loop, 1); /* after the count: the accumulator */
  MlirValue load[2] = {buffer, ws_cmpi(&b, "slt", mlirOperationGetOperand(loop, 0),
                                       mlirOperationGetOperand(loop, 1))};
  MlirValue tile = ws_build_value(&b, "ws.tmem_load", 2, load, mlirValueGetType(result), 0, NULL);
  spec_tcgen05_fence(&b, true);
  spec_arrive(S, &b, acc, false, buffer);
  spec_replace_uses_in(R, result, tile, part);
  spec_rewrite_epilogue(R, at, &b, after, part);
}

bool spec_rewrite_tcgen05(crossings *R, const spec_loops *at, int mma, int epilogue) {
  MlirValue buffer;
  if (!rewrite_issuer(R, at, mma, &buffer))
    return false;
  if (epilogue >= 0)
    rewrite_tmem_epilogue(R, at, epilogue);
  return true;
}
