/* ws_row_kernel.h: what a row kernel's IR says about its stores, for the
 * passes that treat them apart from TMA copies. Internal.
 *
 * A row kernel (an elementwise loop with ws.reduce along the rows) may
 * ws.store a row vector: a 1 x R tile of one value per row of its R x C
 * tiles (a LayerNorm's mean, a loss). The compute warps write it straight
 * to global memory, one element per row from the thread that holds the
 * row's first chunk, bounded by the tensor; no ring, no TMA, so its
 * descriptor needs none of TMA's 16-byte rules when nothing else copies
 * through it. */
#ifndef WS_ROW_KERNEL_H
#define WS_ROW_KERNEL_H

#include <stdbool.h>

#include "mlir-c/IR.h"

/* Whether `store` (a ws.store in an elementwise scf.for) stores a row
 * vector of its loop's reductions: its tile is the 1 x R result type of a
 * ws.reduce of the loop whose operand is R x C, R x C not 1 x R. */
bool ws_store_is_row_vector(MlirOperation store);

/* Whether every use of descriptor `desc` is a ws.store of a row vector (it
 * has at least one), so that no TMA copy goes through it. */
bool ws_desc_is_stored_directly(MlirValue desc);

#endif
