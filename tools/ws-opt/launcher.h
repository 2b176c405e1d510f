/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* launcher.h: write NAME.h / NAME.c, a C launcher for the kernels of one
 * module with the cubin embedded (CUDA driver API only, no MLIR). */
#ifndef WS_OPT_LAUNCHER_H
#define WS_OPT_LAUNCHER_H

#include <stdbool.h>
#include <stddef.h>

#include "ws-c/Compile.h"

/* `base` is the path without extension; NAME is its last component. Returns
 * false after printing why. */
bool launcher_write(const char *base, const WsKernelInfo *kernels, int count,
                    const unsigned char *cubin, size_t cubin_len);

#endif
