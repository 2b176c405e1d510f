/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_lower_memref.h: a kernel's small global arrays (memref<?xT>
 * arguments), read one element at a time with memref.load: a varlen
 * batch's cumulative sequence offsets, a descale factor per head.
 * Internal to ws-lower-to-nvvm. */
#ifndef WS_LOWER_MEMREF_H
#define WS_LOWER_MEMREF_H

#include <stdbool.h>

#include "mlir-c/IR.h"

#include "../support/ws_builder.h"

/* How a kernel array appears in the lowered kernel's signature: a global
 * pointer and its element count, two parameters without attributes. */
#define WS_KERNEL_ARRAY_PARAMS "ptr<1>, i64"
#define WS_KERNEL_ARRAY_PARAM_ATTRS "{}, {}"

/* Retypes kernel array argument `arg` (wsTypeIsAKernelArray) of the entry block to a global
 * pointer (!llvm.ptr<1>) and inserts its element count (i64) as the next
 * argument, which memref.load and memref.dim then read. */
void ws_pass_kernel_array(MlirBlock entry, MlirValue arg);

/* Rewrites memref.load of a kernel array at b into a load guarded by the
 * array's size: an index outside it reads zero (as a TMA load does
 * outside its tensor), so no index faults. memref.dim gives the size.
 * Marks nothing dead: the caller destroys `op`. */
bool ws_lower_kernel_array_op(ws_builder *b, MlirOperation op);

#endif /* WS_LOWER_MEMREF_H */
