/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_lower_f8.h: FP8 tiles in the compute partition. Internal.
 *
 * LLVM has no FP8 arithmetic, so the compute partition holds an f8 tile in
 * registers widened to f32 (exact: every f8E4M3FN and f8E5M2 value is an
 * f32). An op whose result is f8 computes in f32 and its result is rounded
 * to the f8 format and widened again; a ring slot holds the f8 bytes. The
 * conversions are the hardware's cvt instructions, two elements at a time
 * (upstream nvvm.convert.f32x2.to.f8x2 and nvvm.convert.f8x2.to.f16x2):
 * narrowing rounds to nearest even and saturates (.satfinite): a finite or
 * infinite value beyond the format's largest maps to that largest with its
 * sign, NaN stays NaN. Widening is exact. */
#ifndef WS_LOWER_F8_H
#define WS_LOWER_F8_H

#include <stdbool.h>

#include "../support/ws_builder.h"

/* f8E4M3FN or f8E5M2. */
bool ws_is_f8(MlirType element);

/* The element type a tile of `element` has in registers: f32 for f8. */
MlirType ws_register_element(MlirType element);

/* vector<V x i8> of f8 bytes -> vector<V x f32>; V even. */
MlirValue ws_f8_widen(ws_builder *b, MlirValue bytes, MlirType f8);

/* vector<V x f32> -> vector<V x i8> of f8 bytes, rounded and saturated. */
MlirValue ws_f8_narrow(ws_builder *b, MlirValue wide, MlirType f8);

/* arith.extf of an f8 value to `to` (f16, bf16 or f32): the f8 value is
 * f32 in registers, so this is that value for f32 and an exact truncf
 * otherwise. `wide` is a scalar or a vector; the result has its shape. */
MlirValue ws_f8_extend(ws_builder *b, MlirValue wide, MlirType to);

/* Rounds vector<V x f32> to the f8 format, keeping the f32 form. */
MlirValue ws_f8_round(ws_builder *b, MlirValue wide, MlirType f8);

#endif
