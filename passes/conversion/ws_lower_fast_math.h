/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_lower_fast_math.h: the approximate forms of math ops that a kernel
 * allows with fastmath<afn>, for the chip's special-function unit.
 * Internal to ws-lower-to-nvvm. */
#ifndef WS_LOWER_FAST_MATH_H
#define WS_LOWER_FAST_MATH_H

#include "mlir-c/IR.h"

/* Rewrites every f32 math.tanh and math.exp2 under `root` whose fastmath
 * flags allow approximate functions (afn or fast):
 *   - tanh into llvm.intr.tanh with afn, which NVPTX emits as one
 *     tanh.approx.f32 (relative error about 2^-11) instead of libdevice's
 *     exact tanhf (an ex2, a reciprocal and a polynomial): Gemma 2's logit
 *     soft cap runs one per score;
 *   - exp2 into ex2.approx.ftz.f32 (llvm.nvvm.ex2.approx.ftz.f), one
 *     instruction of the special-function unit whose results below 2^-126
 *     flush to zero; without afn, exp2 is ex2.approx.f32, which ptxas
 *     wraps in three more instructions (a compare and two predicated
 *     multiplies) to keep such results: attention's softmax runs one per
 *     score.
 * Other math ops, and these without afn, stay for convert-gpu-to-nvvm. */
void ws_lower_fast_math(MlirOperation root);

#endif /* WS_LOWER_FAST_MATH_H */
