/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ptxas.h: a kernel's PTX assembled into a cubin by the toolkit's ptxas,
 * as MLIR's NVVM target does for format=bin, for --emit=launcher
 * --keep-ptx (one run of the flow gives both the PTX and the launcher). */
#ifndef WS_OPT_PTXAS_H
#define WS_OPT_PTXAS_H

#include <stdbool.h>
#include <stddef.h>

#include "mlir-c/IR.h"

/* Assembles `ptx` (len bytes) for the chip and optimization level of
 * `target` (the gpu.object's #nvvm.target) with ptxas from `cuda_root`/bin
 * (else from PATH): the arguments MLIR's NVVM target passes, so the
 * cubin is the one format=bin makes. On success *cubin (malloc'd, the
 * caller frees it) and *cubin_len; else false after an error on stderr. */
bool ptxas_assemble(MlirAttribute target, const char *cuda_root, const char *ptx, size_t len,
                    unsigned char **cubin, size_t *cubin_len);

#endif
