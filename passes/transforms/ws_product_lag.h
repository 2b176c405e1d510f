/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_product_lag.h: the lag of a matmul K loop's product math
 * (product_lag.c says when and why). Internal. */
#ifndef WS_PRODUCT_LAG_H
#define WS_PRODUCT_LAG_H

#include <stddef.h>

#include "../plan/ws_plan.h"

/* The lag (0 or 1) for the consumers (partition `compute`) of plan's loop:
 * 1 when its one run of wgmmas makes fresh products that only the step's
 * math reads and the registers hold two of them beside the accumulators.
 * `why` says what decided it where a remark is worth making ("" when the
 * loop has nothing to lag). */
int ws_choose_product_lag(const ws_plan *plan, int compute, char *why, size_t cap);

/* Writes the lag's stages on the loop's ops: the step's math (every tile
 * op but the ws.dot ops and the splats that feed them) runs in stage 1,
 * a step behind the wgmmas. */
void ws_stage_product_lag(MlirOperation loop);

#endif
