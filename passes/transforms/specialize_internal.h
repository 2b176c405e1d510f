/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* specialize_internal.h: what the files of ws-specialize share: the
 * specializer's state, the value map of a partition's copy of the loop, and
 * the helpers one file calls in another, by the file that defines them
 * (each one's comment is at its definition). Internal to passes/transforms/. */
#ifndef WS_SPECIALIZE_INTERNAL_H
#define WS_SPECIALIZE_INTERNAL_H

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

enum { WARP_THREADS = 32 };

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
  value_map map;            /* the partition being emitted's (spec_fresh_map); freed at the end */
  MlirValue *prologue_slot; /* the consumers' slot of each prologue ring (num_rings) */
  MlirValue pair_step;      /* a lagged K loop's step per iteration (two K steps), shared by
                               every partition's copy; null when the loop has no lag */
  MlirOperation second;     /* a row kernel's second pass (ws_plan_second_pass), or null */
  MlirContext ctx;
  MlirType i32;
  bool failed;
} specializer;

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

/* specialize.c */
struct mapped *spec_map_find(const value_map *m, MlirValue v);
void spec_map_put(value_map *m, MlirValue from, MlirValue to);
value_map *spec_fresh_map(specializer *S);
void spec_map_free(value_map *m);
MlirValue spec_map_get(const value_map *m, MlirValue v);
MlirValue spec_c32(ws_builder *b, int64_t v);
bool *spec_channel_flags(const specializer *S);
MlirValue *spec_values(int n);
bool spec_is_lagged(const ws_plan *plan);

MlirNamedAttribute spec_int_attr(MlirContext ctx, const char *name, int value);
MlirNamedAttribute spec_barrier_attr(MlirContext ctx, bool full);
ws_builder spec_at_loop_of(const ws_builder *b, MlirOperation loop);
MlirOperation spec_clone_mapped(ws_builder *b, MlirOperation op, value_map *m);
/* Puts the map's values in op's operands and those of the ops in its
 * regions, where the map has them. */
void spec_remap_operands(MlirOperation op, const value_map *m);
bool spec_is_scalar(MlirOperation op);
bool spec_in_partition(const specializer *S, MlirOperation op, int part);
MlirOperation spec_next_tile_op(specializer *S, ws_builder *b, value_map *m, MlirOperation op,
                                int part);
MlirOperation spec_first_tile_op(specializer *S, ws_builder *b, value_map *m, int part);
MlirOperation spec_after(specializer *S, ws_builder *b, value_map *m, MlirOperation op, int part);
void spec_tma_op(specializer *S, ws_builder *b, const char *name, MlirOperation op, int num_coords,
                 value_map *m, int ring, MlirValue slot, int inner_shift);
MlirValue spec_second_step(specializer *S, ws_builder *b, value_map *m, MlirValue n);

/* specialize_protocol.c */
void spec_slot_phase(specializer *S, ws_builder *b, MlirValue n, int ch, int start, MlirValue *slot,
                     MlirValue *phase);
int spec_parted_ring(const ws_plan *plan, int ch);
MlirValue spec_part_iteration(ws_builder *b, MlirValue n, int parts, int j);
void spec_wait_barrier(specializer *S, ws_builder *b, int ch, bool full, MlirValue slot,
                       MlirValue phase);
void spec_signal(specializer *S, ws_builder *b, const char *name, int ch, bool full,
                 MlirValue slot);
ws_builder spec_leader_only(specializer *S, ws_builder *b);
void spec_arrive(specializer *S, ws_builder *b, int ch, bool full, MlirValue slot);
void spec_sync_threads(specializer *S, ws_builder *b, bool relaxed);
void spec_fence_async_shared(ws_builder *b);
void spec_setmaxnreg(ws_builder *b, bool increase, int regs);
void spec_bulk_wait(ws_builder *b, int pending, bool read);

/* specialize_partitions.c */
void spec_release_lagging(specializer *S, ws_builder *b, MlirValue n, int ch, int lag,
                          MlirValue base);
bool spec_stored_whole(const specializer *S, const bool *started);
void spec_release_stored_slots(specializer *S, ws_builder *b, MlirValue n, const bool *started);
/* A pair's load warp, once its last copy is issued, waits for the release
 * of every slot it filled (the leader's commits land whenever its MMAs
 * are done): the empty phases of its next `depth` iterations from `end`. */
void spec_await_last_releases(specializer *S, ws_builder *b, MlirValue end, const bool *started);
void spec_store_parts(specializer *S, ws_builder *b, value_map *m, MlirValue n, MlirOperation op,
                      int r);
bool spec_takes_epilogue_operands(const specializer *S, int part);
void spec_read_ring(specializer *S, ws_builder *b, value_map *m, int r, MlirValue slot);
void spec_transfer(specializer *S, ws_builder *b, value_map *m, MlirValue n, int part,
                   bool incoming, bool epilogue_only, bool second);

/* specialize_matmul.c */
void spec_wgmma_wait(ws_builder *b, int pending);
bool spec_emit_mma(specializer *S, ws_builder *b, value_map *m, MlirOperation dot, MlirValue slot);
void spec_take_turn_after(specializer *S, ws_builder *b, const turn_order *t, MlirValue c);
void spec_end_turn(specializer *S, ws_builder *b, const turn_order *t, MlirValue c);
MlirValue spec_turn_at(ws_builder *b, const turn_order *t, MlirValue n, int offset);
void spec_read_ring_operands(specializer *S, ws_builder *b, value_map *m, MlirOperation op, int in,
                             MlirValue slot);
void spec_prologue_channels(specializer *S, ws_builder *b, int part, bool release);
int spec_k_loop_channel(const specializer *S, int part);
bool spec_epilogue_reuses_rings(const specializer *S);
int spec_turn_channel(const specializer *S, int part);
/* Ping-pong: the K steps of one tile, counted by a loop over the K loop's
 * bounds as `m` maps them. */
MlirValue spec_count_k_steps(specializer *S, ws_builder *b, const value_map *m);
/* True when the K loop's bounds are computed in the tile loop (stream-K):
 * each tile then runs K steps of its own. */
bool spec_k_steps_vary(const specializer *S);
/* if (tile count > 0) wait for the turn of tile count - 1. */
void spec_take_tile_turn(specializer *S, ws_builder *b, MlirValue tiles, int turn);
MlirValue spec_own_warpgroup(specializer *S, ws_builder *b);

/* specialize_lag.c */
void spec_forget_ring_reads(specializer *S, value_map *m);
void spec_release_slot(specializer *S, ws_builder *b, int in, MlirValue n);
MlirValue spec_emit_lagged_k_loop(specializer *S, ws_builder *at, value_map *m, int part, int in,
                                  MlirValue start);

/* specialize_pipeline.c */
MlirValue spec_emit_pipelined_k_loop(specializer *S, ws_builder *at, value_map *m, int part, int in,
                                     MlirValue start, const turn_order *turns);

/* rewrite_crossings.c: what the rewrite keeps while it works: a block to
 * build each group of protocol ops in before they are moved to their
 * place, and the ops it must erase. */
typedef struct crossings {
  specializer *S;
  ws_plan *plan;
  MlirBlock scratch;
  MlirLocation loc;    /* the loop's: where the protocol ops point */
  ws_op_list before;   /* ops put before the loop (erased once sliced) */
  ws_op_list replaced; /* the ws.load, ws.store and ws.dot ops that became protocol */
  unsigned every;      /* the mask of every partition */
} crossings;
ws_builder spec_scratch(crossings *R);
void spec_place(crossings *R, MlirOperation anchor, unsigned mask, bool outside);
void spec_replace_uses_in(crossings *R, MlirValue from, MlirValue to, int part);
void spec_use_mapped(crossings *R, value_map *m, int part);
crossings *spec_rewrite_crossings(specializer *S, ws_plan *plan);
void spec_erase_crossings(crossings *R);
void spec_keep_crossings(crossings *R);

/* Where the rewrite puts a partition's protocol: the kernel's first op
 * (what waits once goes before it), the tile loop (null: not
 * persistent), the ends of a K step and of the epilogue (the tile body's,
 * or the kernel's), and the count of tiles (0 when not persistent). */
typedef struct spec_loops {
  MlirOperation top, tile, loop_end, epilogue_end;
  MlirValue tiles;
  MlirValue own_k; /* ping-pong: the consumers' K count at the tile's start, a
                      count of their own (they skip the other's tiles) */
} spec_loops;

/* A matmul's epilogue on the consumers' side: the ops built at `b` (what
 * follows their K loop) and the epilogue operands' slots go before
 * `after`, the ops read those tiles, and the C tile goes into its slot at
 * the epilogue's end. */
void spec_rewrite_epilogue(crossings *R, const spec_loops *at, ws_builder *b, MlirOperation after,
                           int part);

/* rewrite_wgmma.c */
bool spec_uses_pending(const mma_groups *g, MlirOperation op);
/* Commits the issued wgmmas and waits for all of them; the previous
 * iteration's slot is then free (every wgmma that read it is done). */
void spec_retire_groups(specializer *S, ws_builder *b, mma_groups *g, MlirValue n, int in,
                        MlirValue base);
/* True when op makes the A of a ws.dot in registers (wgmma's register
 * form). wgmma reads those registers while it runs, so the previous step's
 * wgmma, which read the same registers, must be done before op rewrites
 * them: its slot reads may come first, its math not. */
bool spec_feeds_register_a(MlirOperation op);
bool spec_rewrite_wgmma_consumers(crossings *R, const spec_loops *at, int part);

/* rewrite_tcgen05.c */
bool spec_rewrite_tcgen05(crossings *R, const spec_loops *at, int mma, int epilogue);

/* slice.c */
void spec_slice_partition(specializer *S, ws_builder *outer, int part);

/* specialize_tcgen05.c */
void spec_tcgen05_fence(ws_builder *b, bool before);
void spec_alloc_tmem(specializer *S, ws_builder *b, MlirValue warp);
void spec_dealloc_tmem(specializer *S, ws_builder *b, MlirValue warp);

#endif
