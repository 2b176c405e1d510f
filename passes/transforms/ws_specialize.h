/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_specialize.h: replace a planned loop by its partitions (see
 * specialize.c). Internal. */
#ifndef WS_SPECIALIZE_H
#define WS_SPECIALIZE_H

#include <stdbool.h>

#include "../plan/ws_plan.h"

/* Builds one branch per partition in place of plan->loop, with the
 * protocol the plan's channels fix as explicit ops, erases the loop and
 * moves the plan's tables onto the kernel (plan->loop becomes null).
 * False after a located error. */
bool ws_specialize(ws_plan *plan);

#endif
