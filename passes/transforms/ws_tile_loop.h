/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_tile_loop.h: a persistent matmul's tile loop for ws-partition-schedule
 * (tile_loop.c): the overlap decider and the unnesting. Internal. */
#ifndef WS_TILE_LOOP_H
#define WS_TILE_LOOP_H

#include <stdbool.h>

#include "mlir-c/IR.h"

/* A ws.warp_specialize loop holding an scf.for is a persistent matmul:
 * checks that shape, decides the overlap (ws.overlap = "pingpong" or
 * "cooperative" on the tile loop, where the source sets none) and moves
 * the mark to the K loop (the tile loop becomes ws.tile_loop). Returns the
 * K loop, the loop itself when it holds no loop, or a null op after a
 * located error. */
MlirOperation ws_unnest_tile_loop(MlirOperation tile);

/* The ws.dot ops of K loop k that do not accumulate into its carried
 * value: each result is a product the consumers hold next to it. */
int ws_fresh_products(MlirOperation k);

/* True when ping-pong's two C tiles would leave the K loop's rings fewer
 * than 3 slots where one C tile (cooperative) leaves 3. */
bool ws_pingpong_starves_rings(MlirOperation tile, MlirOperation k);

#endif
