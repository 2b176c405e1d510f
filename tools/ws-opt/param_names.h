/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* param_names.h: the C parameter names of a generated launch function. */
#ifndef WS_OPT_PARAM_NAMES_H
#define WS_OPT_PARAM_NAMES_H

#include <stddef.h>

#include "ws-c/Compile.h"

/* The C parameter names of kernel `k`'s launch function, one per
 * argument (launcher_params_free releases them). */
typedef struct launcher_params {
  char (*name)[WS_MAX_ARG_NAME + 8];
} launcher_params;

/* Names each argument of `k`: its source name ("x" for %x) where that is
 * a C identifier nothing in the launcher or the headers it includes uses
 * (not a keyword, a name the function declares, a CUDA or ws name, a
 * reserved or "argN" spelling), else "argN". */
void launcher_params_name(const WsKernelInfo *k, launcher_params *out);
void launcher_params_free(launcher_params *p);

#endif
