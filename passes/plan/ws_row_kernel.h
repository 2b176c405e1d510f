/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_row_kernel.h: what a row kernel's IR says about its row-vector loads
 * and stores, for the passes that treat them apart from TMA copies.
 * Internal.
 *
 * A row kernel (an elementwise loop with ws.reduce along the rows of its
 * R x C tiles) may ws.store a row vector: a 1 x R tile of one value per
 * row (a LayerNorm's mean, a loss), in its loop or after it (a loop that
 * carries row vectors over a row's chunks). It may ws.load one too, before
 * the loop or in it (a cross-entropy's labels). The compute warps move
 * such a tile straight between registers and global memory, one element
 * per row, bounded by the tensor; no ring, no TMA, so its descriptor needs
 * none of TMA's 16-byte rules when nothing else copies through it. */
#ifndef WS_ROW_KERNEL_H
#define WS_ROW_KERNEL_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/IR.h"

/* The rows R of the row kernel `op` belongs to: the rows of the operand of
 * a ws.reduce along the rows (or of the result of a ws.broadcast of a
 * 1 x R row vector along them) in its parent loop's body, or else in the
 * body of a loop beside it in its block (op before or after the loop);
 * the loop is the source loop or the compute partition's copy of it. 0
 * when there is none, when the loop holds a matmul, or when its tile is
 * square (R = C: its row vectors and its rows of column values would look
 * alike). */
int64_t ws_row_kernel_rows(MlirOperation op);

/* Whether `t` is a 1 x rows tile (rows > 0): a row vector of a row kernel
 * with `rows` rows. */
bool ws_is_row_vector_type(MlirType t, int64_t rows);

/* Whether `store` (a ws.store) stores a row vector of its row kernel: a
 * 1 x R tile, R its rows. */
bool ws_store_is_row_vector(MlirOperation store);

/* Whether `load` (a ws.load) loads a row vector of its row kernel: a
 * 1 x R tile, R its rows. */
bool ws_load_is_row_vector(MlirOperation load);

/* Whether every use of descriptor `desc` is a ws.load or ws.store of a
 * row vector (it has at least one), so that no TMA copy goes through it. */
bool ws_desc_is_accessed_directly(MlirValue desc);

/* Whether the kernel takes a store view after descriptor `desc` (the
 * lowering's parameter and the launcher's argument, ws_lower_store.h): a
 * ws.store writes through it, or it is accessed directly. */
bool ws_desc_has_view(MlirValue desc);

#endif
