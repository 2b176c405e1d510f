/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_explain.h: the remarks each ws pass makes, behind its explain=true
 * option (ws-opt --ws-explain), one per decision at the op it concerns.
 * Internal. */
#ifndef WS_EXPLAIN_H
#define WS_EXPLAIN_H

#include "../support/ws_pass.h"
#include "ws_plan.h"

/* ws-partition-schedule: the table, and why each op of the loop and its
 * epilogue went to its partitions. */
void ws_explain_schedule(const ws_plan *plan, const ws_pass_env *env);

/* ws-plan-memory: each ring (tile, slot padding, swizzle, channel, depth,
 * bytes) and the shared-memory map; `depth_why` says how the depths were
 * chosen. */
void ws_explain_memory(const ws_plan *plan, const char *depth_why, int budget,
                       const ws_pass_env *env);

/* The arithmetic behind the register plan (insert_barriers.c). */
typedef struct ws_register_math {
  int max_blocks, by_smem, blocks, threads, cap;
  long pool;
  int producer_regs, compute_regs, compute_threads;
} ws_register_math;

/* ws-insert-barriers: the warp layout, each warpgroup's registers with the
 * pool arithmetic, and each channel's counts, phases, fences and drain. */
void ws_explain_protocol(const ws_plan *plan, const ws_register_math *m, const ws_pass_env *env);

#endif
