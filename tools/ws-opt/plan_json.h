/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* plan_json.h: ws-opt --emit=plan, the plan of every specialized kernel as
 * JSON, read through the public ws-c/Plan.h. */
#ifndef WS_OPT_PLAN_JSON_H
#define WS_OPT_PLAN_JSON_H

#include <stdbool.h>
#include <stdio.h>

#include "mlir-c/IR.h"

/* Writes {"kernels": [...]} for the specialized kernels of the module;
 * false, having written nothing, when there is none. */
bool plan_json_write(MlirModule module, FILE *out);

#endif
