/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* specialize_partitions.c: the TMA warps' side of a channel that the one
 * slicer's rewrite (rewrite_crossings.c) puts in the loop: a store warp's
 * bulk groups and releases, a tile stored in parts, a pair's last
 * releases; and the compute side's transfers (slots read into registers,
 * tiles written into slots), which the rewrite, a matmul's epilogue and
 * the rotated K loops share. Part of ws-specialize (specialize.c). */
#include "specialize_internal.h"

/* ---- partitions ------------------------------------------------------------ */

/* if (n >= base + lag) release the slot of channel ch used lag iterations
 * ago; base (null: 0) is where this copy of the loop started counting, so
 * that a persistent kernel's tile never releases the previous tile's
 * slots twice. */
void spec_release_lagging(specializer *S, ws_builder *b, MlirValue n, int ch, int lag,
                          MlirValue base) {
  MlirValue by = spec_c32(b, lag);
  MlirValue first = mlirValueIsNull(base) ? by : ws_arith(b, "arith.addi", base, by);
  MlirBlock then_block;
  ws_build_if(b, ws_cmpi(b, "uge", n, first), &then_block, NULL);
  ws_builder t = ws_builder_before(mlirBlockGetTerminator(then_block));
  MlirValue old;
  spec_slot_phase(S, &t, ws_arith(&t, "arith.subi", n, by), ch,
                  S->plan->channels[ch].consumer_phase, &old, NULL);
  if (S->plan->channels[ch].release_fence)
    spec_fence_async_shared(&t);
  spec_arrive(S, &t, ch, false, old);
}

/* Whether the store partition's pass stored a tile whole on some channel
 * (`started`), which its bulk group then covers; a tile held in parts
 * commits and releases each part itself (store_parts). */
bool spec_stored_whole(const specializer *S, const bool *started) {
  for (int ch = 0; ch < S->plan->num_channels; ch++)
    if (started[ch])
      return true;
  return false;
}

/* The store partition's release: one bulk group per iteration; the slot
 * stored `drain` iterations ago has been read once all but `drain` groups
 * are. */
void spec_release_stored_slots(specializer *S, ws_builder *b, MlirValue n, const bool *started) {
  if (!spec_stored_whole(S, started))
    return; /* a tile stored in parts: each part committed and released its own */
  ws_build_void(b, "nvvm.cp.async.bulk.commit.group", 0, NULL, 0, NULL);
  for (int ch = 0; ch < S->plan->num_channels; ch++) {
    if (!started[ch])
      continue;
    spec_bulk_wait(b, S->plan->channels[ch].drain, true);
    spec_release_lagging(S, b, n, ch, S->plan->channels[ch].drain, (MlirValue){NULL});
  }
}

/* The store warp's side of a C tile held in parts (publish_parts): each
 * part's slot waited for and stored (its columns: the tile's first column
 * plus the part's), in a bulk group of its own; in a persistent kernel
 * the slot stored `drain` parts ago is released once read. */
void spec_store_parts(specializer *S, ws_builder *b, value_map *m, MlirValue n, MlirOperation op,
                      int r) {
  const ws_ring *ring = &S->plan->rings[r];
  const ws_channel *c = &S->plan->channels[ring->channel];
  bool release = !mlirOperationIsNull(ws_plan_tile_loop(S->plan));
  int num = (int)mlirOperationGetNumOperands(op);
  int cols = (int)mlirShapedTypeGetDimSize(ring->tile, mlirShapedTypeGetRank(ring->tile) - 1);
  for (int j = 0; j < ring->parts; j++) {
    MlirValue it = spec_part_iteration(b, n, ring->parts, j), slot, phase;
    spec_slot_phase(S, b, it, ring->channel, c->consumer_phase, &slot, &phase);
    spec_wait_barrier(S, b, ring->channel, true, slot, phase);
    spec_tma_op(S, b, "ws.tma_store", op, num - 2, m, r, slot, j * cols);
    ws_build_void(b, "nvvm.cp.async.bulk.commit.group", 0, NULL, 0, NULL);
    if (release) {
      spec_bulk_wait(b, c->drain, true);
      spec_release_lagging(S, b, it, ring->channel, c->drain, (MlirValue){NULL});
    }
  }
}

/* True when the partition's epilogue reads operands another one loads. */
bool spec_takes_epilogue_operands(const specializer *S, int part) {
  for (int ch = 0; ch < S->plan->num_channels; ch++)
    if (S->plan->channels[ch].to == part && ws_channel_is_epilogue(S->plan, ch))
      return true;
  return false;
}

/* A pair's load warp, once its last copy is issued: a peer's tcgen05.commit
 * releases its slots (an arrival that lands whenever the MMAs are done),
 * so before its CTA may exit it waits for the release of every slot it
 * filled: the empty phases of its next `depth` iterations from `end`. */
void spec_await_last_releases(specializer *S, ws_builder *b, MlirValue end, const bool *started) {
  for (int ch = 0; ch < S->plan->num_channels; ch++) {
    const ws_channel *c = &S->plan->channels[ch];
    if (!started[ch] || c->full_to != WS_REACH_LEADER)
      continue;
    for (int i = 0; i < c->depth; i++) {
      MlirValue slot, phase;
      spec_slot_phase(S, b, ws_arith(b, "arith.addi", end, spec_c32(b, i)), ch, c->producer_phase,
                      &slot, &phase);
      spec_wait_barrier(S, b, ch, false, slot, phase);
    }
  }
}

/* ws.read_slot of ring r's `slot`, at the location of the load that fills
 * it, standing for that load's tile in the partition's copy. */
void spec_read_ring(specializer *S, ws_builder *b, value_map *m, int r, MlirValue slot) {
  const ws_ring *ring = &S->plan->rings[r];
  MlirNamedAttribute attr = spec_int_attr(S->ctx, "ring", r);
  ws_builder at = *b;
  at.loc = mlirOperationGetLocation(ring->producer);
  spec_map_put(m, mlirOperationGetResult(ring->producer, 0),
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
    spec_slot_phase(S, b, spec_part_iteration(b, n, ring->parts, j), ch, c->producer_phase, &slot,
                    &phase);
    spec_wait_barrier(S, b, ch, false, slot, phase);
    MlirNamedAttribute attrs[2] = {spec_int_attr(S->ctx, "ring", r),
                                   spec_int_attr(S->ctx, "part", j)};
    ws_builder at = *b;
    at.loc = mlirOperationGetLocation(ring->producer);
    MlirValue ops[2] = {spec_map_get(m, mlirOperationGetResult(ring->producer, 0)), slot};
    ws_build_void(&at, "ws.write_slot", 2, ops, 2, attrs);
    if (c->publish_fence)
      spec_fence_async_shared(b);
    spec_arrive(S, b, ch, true, slot);
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
void spec_transfer(specializer *S, ws_builder *b, value_map *m, MlirValue n, int part,
                   bool incoming, bool epilogue_only, bool second) {
  for (int ch = 0; ch < S->plan->num_channels; ch++) {
    const ws_channel *c = &S->plan->channels[ch];
    if ((incoming ? c->to : c->from) != part || !channel_has_ring(S->plan, ch) ||
        (epilogue_only && !ws_channel_is_epilogue(S->plan, ch)) ||
        ws_channel_is_prologue(S->plan, ch) || ws_channel_is_second_pass(S->plan, ch) != second)
      continue;
    if (!incoming && spec_parted_ring(S->plan, ch) >= 0) {
      publish_parts(S, b, m, n, spec_parted_ring(S->plan, ch));
      continue;
    }
    MlirValue slot, phase;
    spec_slot_phase(S, b, n, ch, incoming ? c->consumer_phase : c->producer_phase, &slot, &phase);
    spec_wait_barrier(S, b, ch, incoming, slot, phase);
    for (int r = 0; r < S->plan->num_rings; r++) {
      const ws_ring *ring = &S->plan->rings[r];
      if (ring->channel != ch)
        continue;
      if (incoming) {
        spec_read_ring(S, b, m, r, slot);
        continue;
      }
      MlirNamedAttribute attr = spec_int_attr(S->ctx, "ring", r);
      ws_builder at = *b;
      at.loc = mlirOperationGetLocation(ring->producer);
      MlirValue ops[2] = {spec_map_get(m, mlirOperationGetResult(ring->producer, 0)), slot};
      ws_build_void(&at, "ws.write_slot", 2, ops, 1, &attr);
    }
    if (incoming ? c->release_fence : c->publish_fence)
      spec_fence_async_shared(b);
    spec_arrive(S, b, ch, !incoming, slot);
  }
}
