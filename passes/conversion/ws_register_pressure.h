/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_register_pressure.h: how many registers per thread the compute
 * warps' tiles need where most of them are live, for --ws-explain's
 * remark. Internal.
 *
 * A tile lives from its definition (an op result; a loop's results at
 * its yield, its carried block arguments at the loop) until its last use,
 * which may write its result over it, in the order of `ops` (a pre-order
 * walk, so a loop body follows its loop); a splat is rebuilt at each use
 * and takes nothing, nor does a tile whose only uses are in the op right
 * after it (LLVM computes the two value by value). An estimate: ptxas
 * has the last word. */
#ifndef WS_REGISTER_PRESSURE_H
#define WS_REGISTER_PRESSURE_H

#include <stddef.h>

#include "../support/ws_pass.h"

/* Registers per thread that `tile` (a tensor value) takes; ctx is the
 * caller's. */
typedef int (*ws_tile_registers_fn)(MlirValue tile, const void *ctx);

typedef struct ws_register_pressure {
  ws_tile_registers_fn registers_of;
  const void *ctx;
  const char *who; /* "the compute partition's tiles", for the text */
  int budget;      /* registers per thread after setmaxnreg */
} ws_register_pressure;

/* Remarks (through env) on the peak and the tiles live there, against the
 * budget: above it, that ptxas may spill. */
void ws_explain_register_pressure(const ws_register_pressure *p, const MlirOperation *ops, size_t n,
                                  const ws_pass_env *env);

#endif
