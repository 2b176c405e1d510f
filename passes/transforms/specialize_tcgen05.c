/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* specialize_tcgen05.c: a matmul on sm_100a: the MMA warp's tcgen05 issuer, tensor memory
 * and the epilogue that reads it.
 * Part of ws-specialize (specialize.c). */
#include "specialize_internal.h"

/* ---- a matmul on sm_100a (tcgen05, tensor memory) --------------------------- */

void spec_tcgen05_fence(ws_builder *b, bool before) {
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
void spec_emit_tcgen05_issuer(specializer *S, ws_builder *mma_warp, int part) {
  int in = spec_k_loop_channel(S, part), acc = S->plan->tmem.channel;
  /* a pair's MMAs are the leader's: its peer's MMA warp only allocates */
  ws_builder issuer = ws_plan_is_pair(S->plan) ? spec_leader_only(S, mma_warp) : *mma_warp;
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
  value_map *m = spec_fresh_map(S);
  MlirValue counts[2] = {spec_c32(outer, 0), spec_c32(outer, 0)}; /* K steps, tiles */
  tile_nest t = spec_open_tile_loop(S, outer, m, part, 2, counts);
  ws_builder *at = &t.at;
  MlirValue buffer, phase;
  spec_slot_phase(S, at, counts[1], acc, S->plan->channels[acc].producer_phase, &buffer, &phase);
  spec_wait_barrier(S, at, acc, false, buffer, phase);
  spec_tcgen05_fence(at, false);
  MlirValue n;
  MlirOperation copy;
  MlirBlock body = spec_open_loop(S, at, m, counts[0], &n, &copy);
  ws_builder b = ws_builder_at_end(body, at->loc);
  MlirValue slot;
  spec_slot_phase(S, &b, n, in, S->plan->channels[in].consumer_phase, &slot, &phase);
  spec_wait_barrier(S, &b, in, true, slot, phase);
  MlirValue ops[3] = {slot, buffer, ws_cmpi(&b, "ne", n, counts[0])};
  MlirNamedAttribute attrs[3] = {spec_int_attr(S->ctx, "ring_a", ra),
                                 spec_int_attr(S->ctx, "ring_b", rb),
                                 ws_named(S->ctx, "transpose_b", mlirUnitAttrGet(S->ctx))};
  ws_builder issue = b;
  issue.loc = mlirOperationGetLocation(dot);
  for (int i = 0; i < S->plan->tmem.num_scales; i++) { /* the step's scales */
    MlirNamedAttribute ring = spec_int_attr(S->ctx, "ring", S->plan->tmem.scale_ring[i]);
    ws_build_void(&issue, "ws.tmem_copy", 1, &slot, 1, &ring);
  }
  ws_build_void(&issue, "ws.tc_mma", 3, ops, ws_has_attr(dot, "transpose_b") ? 3 : 2, attrs);
  spec_signal(S, &b, "ws.commit", in, false, slot);
  spec_close_loop(S, &b, body, n, m);
  spec_signal(S, at, "ws.commit", acc, true, buffer);
  if (!mlirOperationIsNull(t.loop)) {
    MlirValue next[2] = {mlirOperationGetResult(copy, 0),
                         ws_arith(at, "arith.addi", counts[1], spec_c32(at, 1))};
    spec_close_tile_loop(&t, 2, next);
  }
}

/* The epilogue warpgroups of a matmul on sm_100a, per tile: wait for the
 * accumulator buffer, read it from tensor memory into registers, give the
 * buffer back to the MMA warp (the fences order the read before the
 * arrival), then the epilogue as on sm_90a. */
void spec_emit_tmem_epilogue(specializer *S, ws_builder *outer, int part) {
  int acc = S->plan->tmem.channel;
  value_map *m = spec_fresh_map(S);
  MlirValue tiles = spec_c32(outer, 0);
  tile_nest t = spec_open_tile_loop(S, outer, m, part, 1, &tiles);
  ws_builder *at = &t.at;
  MlirValue buffer, phase;
  spec_slot_phase(S, at, tiles, acc, S->plan->channels[acc].consumer_phase, &buffer, &phase);
  spec_wait_barrier(S, at, acc, true, buffer, phase);
  spec_tcgen05_fence(at, false);
  MlirValue result = mlirOperationGetResult(S->plan->loop, 0);
  MlirValue load[2] = {buffer, ws_cmpi(at, "slt",
                                       spec_map_get(m, mlirOperationGetOperand(S->plan->loop, 0)),
                                       spec_map_get(m, mlirOperationGetOperand(S->plan->loop, 1)))};
  spec_map_put(m, result,
               ws_build_value(at, "ws.tmem_load", 2, load, mlirValueGetType(result), 0, NULL));
  spec_tcgen05_fence(at, true);
  spec_arrive(S, at, acc, false, buffer);
  spec_emit_epilogue(S, at, m, part, mlirOperationIsNull(t.loop) ? (MlirValue){NULL} : tiles);
  if (!mlirOperationIsNull(t.loop)) {
    MlirValue next = ws_arith(at, "arith.addi", tiles, spec_c32(at, 1));
    spec_close_tile_loop(&t, 1, &next);
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
  ws_build_if(b, ws_cmpi(b, "eq", warp, spec_c32(b, S->plan->parts[mma].first_warp)), &then_block,
              NULL);
  return ws_builder_before(mlirBlockGetTerminator(then_block));
}

void spec_alloc_tmem(specializer *S, ws_builder *b, MlirValue warp) {
  ws_builder t = in_mma_warp(S, b, warp);
  ws_build_void(&t, "ws.tmem_alloc", 0, NULL, 0, NULL);
  /* a pair's allocation is both CTAs' (cta_group::2), as its every
   * tcgen05 op must be */
  int ctas = ws_plan_mma_ctas(S->plan);
  MlirNamedAttribute group = ws_named_cta_group(S->ctx, "group", ctas);
  ws_build_void(&t, "nvvm.tcgen05.relinquish_alloc_permit", 0, NULL, ctas > 1, &group);
  spec_tcgen05_fence(&t, true);
}

/* Once every partition is done (the epilogue's last tcgen05.ld waited
 * for, its fence before a block-wide barrier), the MMA warp frees tensor
 * memory. A pair's barrier is the cluster's, which is also its exit: the
 * leader's MMAs wrote both CTAs' tensor memory, and the two MMA warps free
 * it together. */
void spec_dealloc_tmem(specializer *S, ws_builder *b, MlirValue warp) {
  spec_tcgen05_fence(b, true);
  spec_sync_threads(S, b, false);
  ws_builder t = in_mma_warp(S, b, warp);
  spec_tcgen05_fence(&t, false);
  ws_build_void(&t, "ws.tmem_dealloc", 0, NULL, 0, NULL);
}
