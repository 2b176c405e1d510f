/* param_names.h: the C parameter names of a generated launch function. */
#ifndef WS_OPT_PARAM_NAMES_H
#define WS_OPT_PARAM_NAMES_H

#include <stddef.h>

#include "ws-c/Compile.h"

/* The name argument `i` of kernel `k` takes as a parameter of its launch
 * function, into out[cap]: its source name ("x" for %x) where that is a C
 * identifier nothing in the launcher or the headers it includes uses
 * (not a keyword, a name the function declares, a CUDA or ws name, a
 * reserved or "argN" spelling), else "argN". */
void launcher_param_name(const WsKernelInfo *k, int i, char *out, size_t cap);

#endif
