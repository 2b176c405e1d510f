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
 * With `crossings_only`, a kernel that the one slicer takes stops once
 * its crossings are protocol ops in the loop (rewrite_crossings.c), for
 * tests to read. False after a located error. */
bool ws_specialize(ws_plan *plan, bool crossings_only);

#endif
