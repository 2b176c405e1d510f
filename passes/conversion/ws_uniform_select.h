/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_uniform_select.h: a mask that is the same for a whole tile costs no
 * per-element work. Internal to ws-lower-to-nvvm.
 *
 * Attention masks its scores with arith.select on an arith.cmpi of index
 * tiles built from ws.iota and splats (a causal mask: column + kv - q >
 * row; a ragged tail: column < S - kv). For most key blocks the compare
 * has one value over the whole tile: every block below the diagonal keeps
 * all its scores, every block before the tail too. The select is then
 * lowered behind a scalar test of the index ranges, so that those blocks
 * skip the compare and the select, which FlashAttention-3 gets by
 * splitting its loop into masked and unmasked blocks. */
#ifndef WS_UNIFORM_SELECT_H
#define WS_UNIFORM_SELECT_H

#include <stdbool.h>

#include "ws_lower_fragment.h"

/* Lowers `op`, an arith.select of consumer tiles, as scf.if (the compare
 * is true for every element) then its true operand, else scf.if (false
 * for every element) then its false one, else the select per element,
 * and sets *lowered. Leaves *lowered false when the condition is not an
 * arith.cmpi (slt, sle, sgt, sge) of i32 tiles whose ranges follow from
 * ws.iota, splats, arith.addi and arith.subi: the caller then lowers it
 * element by element. False after a located error. */
bool ws_fragments_uniform_select(ws_fragments *F, ws_builder *b, MlirOperation op, bool *lowered);

#endif /* WS_UNIFORM_SELECT_H */
