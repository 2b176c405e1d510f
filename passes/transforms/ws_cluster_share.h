/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_cluster_share.h: the tiles a cluster kernel's CTAs load alike
 * (cluster_share.c says how it is decided). Internal. */
#ifndef WS_CLUSTER_SHARE_H
#define WS_CLUSTER_SHARE_H

#include <stdbool.h>

#include "mlir-c/IR.h"
#include "../support/ws_pass.h"

/* For the matmul K `loop` of a kernel with ws.cluster: marks
 * ws.cluster_shared each ws.load of the loop that every CTA of a cluster
 * loads alike (and whose rows split into the CTAs' parts), remarking why
 * with `explain`. True at once for a kernel without a cluster; false after
 * a located error: a loop that is no matmul, K or tile loop bounds that
 * differ between the cluster's CTAs, no tile shared, or (an engine whose
 * pair issues one MMA) a shared tile other than B alone. */
bool ws_mark_cluster_loads(MlirOperation loop, bool explain, const ws_pass_env *env);

#endif
