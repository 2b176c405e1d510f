/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_lower_split_k.h: how the lowering exchanges split-K's partial sums
 * (ws.split_k_sum, passes/transforms/split_k.c) between blocks through the
 * workspace. Internal.
 *
 * The workspace holds one slot per contributing unit (split-K: slot tile
 * * (splits - 1) + split; stream-K: the block's index), each `slot_bytes` long (ws-split-k's
 * ws.workspace_per_block, which the launcher sizes the workspace by): the
 * tile's f32 values in
 * the consumers' fragment order (16 bytes of each thread in turn: value
 * 4q..4q+3 of holder thread h at byte (q * holders + h) * 16, so that a
 * warp's stores and loads are whole 512-byte lines), then one ready flag
 * per consumer warpgroup (a u32 at tile bytes + 4 g). A contributor's
 * warpgroup stores its values, meets at its named barrier, and one thread
 * sets its flag with release semantics. The owner's warpgroup has one
 * thread wait for each flag with acquire semantics and clear it (the
 * workspace is zero again after every launch), meets at the barrier, and
 * adds the slots to its values in split order. */
#ifndef WS_LOWER_SPLIT_K_H
#define WS_LOWER_SPLIT_K_H

#include "../support/ws_builder.h"

typedef struct ws_split_k_site {
  MlirValue workspace;  /* i64: the workspace's address */
  MlirValue holder;     /* i32: this thread among the tile's holders */
  MlirValue barrier;    /* i32: its warpgroup's named barrier */
  int holders;          /* threads holding the tile, 128 per warpgroup */
  int count;            /* f32 values per thread, a multiple of 4 */
  long long slot_bytes; /* a slot's stride: the kernel's ws.workspace_per_block */
} ws_split_k_site;

/* Builds split-K's exchange at b (ws.split_k_sum of unit `unit`, tile
 * unit / splits, split unit % splits): sum[i] is acc[i] plus the other
 * splits' value i for the tile's owner, acc[i] for every other unit. */
void ws_emit_split_k_sum(ws_builder *b, const ws_split_k_site *s, MlirValue unit, MlirValue splits,
                         const MlirValue *acc, MlirValue *sum);

/* Builds stream-K's exchange at b (ws.stream_k_sum of a unit running K
 * steps k_begin to k_end of a tile of k_steps): the slot is the block's
 * (one unit of a block starts a tile and stops inside it: its first), and
 * a tile's owner, the unit that ends it, adds the previous block's. */
void ws_emit_stream_k_sum(ws_builder *b, const ws_split_k_site *s, MlirValue k_begin,
                          MlirValue k_end, MlirValue k_steps, const MlirValue *acc, MlirValue *sum);

/* ws.stream_k_unit's arithmetic (dialect/ws.irdl.mlir says what it
 * gives): in = unit, whole tiles, tiles, K steps, grid; out = tile, first,
 * end and starting K step. The shared K steps are counted in i64. */
void ws_emit_stream_k_unit(ws_builder *b, const MlirValue in[5], MlirValue out[4]);

#endif
