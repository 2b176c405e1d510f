/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* specialize_protocol.c: the protocol as ops: slot and phase of an iteration, waits, arrivals,
 * fences, setmaxnreg and bulk-group waits, each where a partition runs it.
 * Part of ws-specialize (specialize.c). */
#include "specialize_internal.h"

/* ---- protocol ops ---------------------------------------------------------- */

void spec_slot_phase(specializer *S, ws_builder *b, MlirValue n, int ch, int start, MlirValue *slot,
                     MlirValue *phase) {
  MlirNamedAttribute attrs[2] = {spec_int_attr(S->ctx, "depth", S->plan->channels[ch].depth),
                                 spec_int_attr(S->ctx, "start_phase", start)};
  MlirType types[2] = {S->i32, S->i32};
  MlirOperation op = ws_build(b, "ws.slot_phase", 1, &n, 2, types, 2, attrs, 0);
  *slot = mlirOperationGetResult(op, 0);
  if (phase)
    *phase = mlirOperationGetResult(op, 1);
}

/* The ring of channel ch that holds its tile in parts (a C tile published
 * box by box: ws_ring.parts, its channel's only ring), or -1. */
int spec_parted_ring(const ws_plan *plan, int ch) {
  for (int r = 0; r < plan->num_rings; r++)
    if (plan->rings[r].channel == ch && plan->rings[r].parts > 1)
      return r;
  return -1;
}

/* The channel iteration of part j of the tile counted n: n * parts + j
 * (a constant when n is). */
MlirValue spec_part_iteration(ws_builder *b, MlirValue n, int parts, int j) {
  long long k;
  if (ws_constant_int(n, &k))
    return spec_c32(b, k * parts + j);
  return ws_arith(b, "arith.addi", ws_arith(b, "arith.muli", n, spec_c32(b, parts)),
                  spec_c32(b, j));
}

void spec_wait_barrier(specializer *S, ws_builder *b, int ch, bool full, MlirValue slot,
                       MlirValue phase) {
  MlirNamedAttribute attrs[2] = {spec_int_attr(S->ctx, "channel", ch),
                                 spec_barrier_attr(S->ctx, full)};
  MlirValue ops[2] = {slot, phase};
  ws_build_void(b, "ws.wait", 2, ops, 2, attrs);
}

/* One arrival on a barrier of the slot: `name` is ws.spec_arrive (the thread's
 * own) or ws.commit (tcgen05.commit: once the thread's MMAs are done). In
 * a cluster kernel the channel says whose barrier it reaches: every CTA's
 * (`cluster`: a multicast ring's release, a pair's commit) or the
 * leader's (`leader`: a pair's epilogue handing its rows back). */
void spec_signal(specializer *S, ws_builder *b, const char *name, int ch, bool full,
                 MlirValue slot) {
  const ws_channel *c = &S->plan->channels[ch];
  ws_reach reach = full ? c->full_to : c->empty_to;
  MlirNamedAttribute attrs[3] = {
      spec_int_attr(S->ctx, "channel", ch), spec_barrier_attr(S->ctx, full),
      ws_named(S->ctx, reach == WS_REACH_LEADER ? "leader" : "cluster", mlirUnitAttrGet(S->ctx))};
  ws_build_void(b, name, 1, &slot, reach == WS_REACH_OWN ? 2 : 3, attrs);
}

/* A builder inside `if (this CTA is its cluster's leader)`: rank 0 of a
 * pair arrives on the full barrier every CTA's copies complete on, and
 * issues the pair's MMAs. */
ws_builder spec_leader_only(specializer *S, ws_builder *b) {
  MlirValue rank =
      ws_build_value(b, "nvvm.read.ptx.sreg.cluster.ctarank", 0, NULL, S->i32, 0, NULL);
  MlirBlock then_block;
  ws_build_if(b, ws_cmpi(b, "eq", rank, spec_c32(b, 0)), &then_block, NULL);
  return ws_builder_before(mlirBlockGetTerminator(then_block));
}

void spec_arrive(specializer *S, ws_builder *b, int ch, bool full, MlirValue slot) {
  spec_signal(S, b, "ws.arrive", ch, full, slot);
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
void spec_sync_threads(specializer *S, ws_builder *b, bool relaxed) {
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

void spec_fence_async_shared(ws_builder *b) {
  MlirNamedAttribute attrs[2] = {
      ws_named_text(b->ctx, "kind", "#nvvm.proxy_kind<async.shared>"),
      ws_named_text(b->ctx, "space", "#nvvm.shared_space<cta>"),
  };
  ws_build_void(b, "nvvm.fence.proxy", 0, NULL, 2, attrs);
}

void spec_setmaxnreg(ws_builder *b, bool increase, int regs) {
  char count[32];
  snprintf(count, sizeof count, "%d : i32", regs);
  MlirNamedAttribute attrs[2] = {
      ws_named_text(b->ctx, "action",
                    increase ? "#nvvm<action increase>" : "#nvvm<action decrease>"),
      ws_named_text(b->ctx, "regCount", count),
  };
  ws_build_void(b, "nvvm.setmaxregister", 0, NULL, 2, attrs);
}

void spec_bulk_wait(ws_builder *b, int pending, bool read) {
  char group[32];
  snprintf(group, sizeof group, "%d : i32", pending);
  MlirNamedAttribute attrs[2] = {ws_named_text(b->ctx, "group", group),
                                 ws_named(b->ctx, "read", mlirUnitAttrGet(b->ctx))};
  ws_build_void(b, "nvvm.cp.async.bulk.wait_group", 0, NULL, read ? 2 : 1, attrs);
}
