/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_l2_policy.h: a load's L2 policy, the `l2` attribute of ws.load (the
 * user's, or ws-partition-schedule's from l2-keep=) and of the ws.tma_load
 * ws-insert-barriers makes of it: one table of the names every pass reads
 * and writes. Internal. */
#ifndef WS_L2_POLICY_H
#define WS_L2_POLICY_H

#include "mlir-c/IR.h"

typedef enum ws_l2_policy {
  WS_L2_UNKNOWN = -1, /* an l2 attribute that names no policy */
  WS_L2_NORMAL = 0,   /* the default: no cache hint */
  WS_L2_FIRST,        /* a last use: streamed */
  WS_L2_LAST,         /* read again soon: kept */
  WS_L2_POLICIES
} ws_l2_policy;

/* "evict_normal", "evict_first", "evict_last". */
extern const char *const ws_l2_policy_names[WS_L2_POLICIES];

/* The policy op's l2 attribute names: WS_L2_NORMAL without one,
 * WS_L2_UNKNOWN for another value or a value that is not a string. */
ws_l2_policy ws_l2_policy_of(MlirOperation op);

/* Sets op's l2 attribute to the policy's name. */
void ws_l2_policy_set(MlirOperation op, ws_l2_policy policy);

#endif
