/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* specialize_partitions.c: a matmul's TMA partitions (load and store
 * warps), with a persistent kernel's tile loop around them, and the
 * channel transfers that the one slicer's rewrite (rewrite_crossings.c)
 * and a matmul's epilogue share. An elementwise or row kernel's
 * partitions are sliced (slice.c). Part of ws-specialize (specialize.c). */
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

/* One pass over a TMA partition's ops from `op` on: each ws.load fills the
 * ring of its result, each ws.store drains the ring of its tile. The first
 * op on a channel waits for the slot of iteration n (empty for a load,
 * which then expects the channel's bytes; full for a store); the others
 * share that slot. `started` marks the channels touched. */
void spec_emit_tma_ops(specializer *S, ws_builder *b, value_map *m, MlirValue n, MlirOperation op,
                       int part, bool *started) {
  bool store = S->plan->parts[part].role == WS_ROLE_STORE;
  MlirValue *slot = spec_values(S->plan->num_channels);
  for (; !mlirOperationIsNull(op); op = spec_after(S, b, m, op, part)) {
    int num = (int)mlirOperationGetNumOperands(op);
    int r = ws_ring_of_value(S->plan, store ? mlirOperationGetOperand(op, num - 1)
                                            : mlirOperationGetResult(op, 0));
    if (r < 0 && !store)
      continue; /* nobody uses the tile: ws-plan-memory dropped the load */
    if (r < 0) {
      ws_emit_op_error(op, "stores a tile that has no ring; run ws-plan-memory");
      S->failed = true;
      break;
    }
    int ch = S->plan->rings[r].channel;
    const ws_channel *c = &S->plan->channels[ch];
    if (store && S->plan->rings[r].parts > 1) {
      spec_store_parts(S, b, m, n, op, r); /* releases its own slots */
      continue;
    }
    if (!started[ch]) {
      MlirValue phase;
      spec_slot_phase(S, b, n, ch, store ? c->consumer_phase : c->producer_phase, &slot[ch],
                      &phase);
      spec_wait_barrier(S, b, ch, store, slot[ch], phase);
      if (!store) {
        MlirNamedAttribute attrs[2] = {spec_int_attr(S->ctx, "channel", ch),
                                       spec_int_attr(S->ctx, "bytes", c->expect_tx)};
        ws_builder expect = c->full_to == WS_REACH_LEADER ? spec_leader_only(S, b) : *b;
        ws_build_void(&expect, "ws.arrive_expect_tx", 1, &slot[ch], 2, attrs);
      }
      started[ch] = true;
    }
    spec_tma_op(S, b, store ? "ws.tma_store" : "ws.tma_load", op, store ? num - 2 : num - 1, m, r,
                slot[ch], 0);
  }
  free(slot);
}

/* ---- a persistent kernel's tile loop ---------------------------------------- */

tile_nest spec_open_tile_loop(specializer *S, ws_builder *outer, value_map *m, int part, int num,
                              MlirValue *inits) {
  tile_nest t = {.at = *outer};
  MlirOperation tile = ws_plan_tile_loop(S->plan);
  if (mlirOperationIsNull(tile))
    return t;
  t.loop = ws_build_for(outer, mlirOperationGetOperand(tile, 0), mlirOperationGetOperand(tile, 1),
                        mlirOperationGetOperand(tile, 2), num, inits, &t.body);
  MlirBlock src = ws_loop_body(tile);
  spec_map_put(m, mlirBlockGetArgument(src, 0), mlirBlockGetArgument(t.body, 0));
  for (int k = 0; k < num; k++)
    inits[k] = mlirBlockGetArgument(t.body, 1 + k);
  t.at = ws_builder_at_end(t.body, outer->loc);
  for (MlirOperation op = mlirBlockGetFirstOperation(src); !mlirOperationEqual(op, S->plan->loop);
       op = mlirOperationGetNextInBlock(op))
    if (spec_in_partition(S, op, part))
      spec_clone_mapped(&t.at, op, m);
  return t;
}

/* Ends the tile loop's body: the counters go on to the next tile. */
void spec_close_tile_loop(tile_nest *t, int num, MlirValue *next) {
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

static void emit_tma_loops(specializer *S, ws_builder *outer, value_map *m, int part, bool store,
                           bool epilogue, MlirValue counts[2], bool *started, bool *fetched);

/* A TMA partition: its own copy of the loop (see spec_emit_tma_ops), inside its
 * copy of the tile loop when the kernel is persistent (the producer then
 * runs ahead into the next tile as far as the ring lets it); then the
 * loads of a matmul's epilogue operands, once per block or tile (counted
 * by the tile loop's second counter). A store partition releases slots a
 * drain behind and drains before it exits. */
void spec_emit_tma_partition(specializer *S, ws_builder *outer, int part) {
  bool store = S->plan->parts[part].role == WS_ROLE_STORE;
  bool epilogue = loads_epilogue(S, part);
  value_map *m = spec_fresh_map(S);
  MlirValue counts[2] = {spec_c32(outer, 0), spec_c32(outer, 0)}; /* K steps, tiles */
  bool *started = spec_channel_flags(S), *fetched = spec_channel_flags(S);
  emit_tma_loops(S, outer, m, part, store, epilogue, counts, started, fetched);
  free(started);
  free(fetched);
}

/* spec_emit_tma_partition's copies of the loops, `started` and `fetched`
 * marking the channels of the loop's and the prologue's and epilogue's
 * TMA ops that the partition has touched. */
static void emit_tma_loops(specializer *S, ws_builder *outer, value_map *m, int part, bool store,
                           bool epilogue, MlirValue counts[2], bool *started, bool *fetched) {
  MlirValue n;
  if (!store && mlirOperationIsNull(ws_plan_tile_loop(S->plan)))
    spec_emit_tma_ops(S, outer, m, counts[0], spec_first_prologue_op(S, outer, m, part), part,
                      fetched);
  tile_nest t = spec_open_tile_loop(S, outer, m, part, epilogue ? 2 : 1, counts);
  MlirOperation copy;
  MlirBlock body = spec_open_loop(S, &t.at, m, counts[0], &n, &copy);
  ws_builder b = ws_builder_at_end(body, outer->loc);
  spec_emit_tma_ops(S, &b, m, n, spec_first_tile_op(S, &b, m, part), part, started);
  if (store)
    spec_release_stored_slots(S, &b, n, started);
  if (!mlirValueIsNull(S->pair_step)) { /* a lagged loop: its second K step */
    n = spec_second_step(S, &b, m, n);
    memset(started, 0, (size_t)S->plan->num_channels * sizeof *started);
    spec_emit_tma_ops(S, &b, m, n, spec_first_tile_op(S, &b, m, part), part, started);
  }
  spec_close_loop(S, &b, body, n, m);
  if (epilogue)
    spec_emit_tma_ops(S, &t.at, m, counts[1], spec_first_epilogue_op(S, &t.at, m, part), part,
                      fetched);
  if (!mlirOperationIsNull(t.loop)) {
    MlirValue next[2] = {mlirOperationGetResult(copy, 0),
                         epilogue ? ws_arith(&t.at, "arith.addi", counts[1], spec_c32(&t.at, 1))
                                  : counts[1]};
    spec_close_tile_loop(&t, epilogue ? 2 : 1, next);
  }
  if (store)
    spec_bulk_wait(outer, 0, false); /* drain before exit */
  else
    spec_await_last_releases(
        S, outer, mlirOperationGetResult(mlirOperationIsNull(t.loop) ? copy : t.loop, 0), started);
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
