/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_divisor.h: what the compiler can prove about an integer SSA value's
 * divisibility, for TMA's rule that the innermost coordinate of a copy is a
 * multiple of 16 bytes. Internal.
 *
 * The proof follows constants, arith (muli, addi, subi, shli, remui/remsi,
 * select, min/max, casts), scf.for induction variables (start and step) and
 * kernel arguments carrying `ws.divisibility = N : i32`; anything else is
 * only known to be a multiple of 1. */
#ifndef WS_DIVISOR_H
#define WS_DIVISOR_H

#include <stddef.h>

#include "mlir-c/IR.h"

/* What "divisible by anything" is capped at (the value zero). */
enum { WS_DIVISOR_ANY = 1 << 30 };

/* The `ws.divisibility` of kernel argument `index` of `func`, else 1. */
long long ws_argument_divisor(MlirOperation func, intptr_t index);

/* The largest divisor of `v` the rules above prove (>= 1). */
long long ws_known_divisor(MlirValue v);

/* Describes where `v` comes from, for messages: "the induction variable of
 * the scf.for at 12:5", "kernel argument 3", "arith.addi at 14:9". */
const char *ws_value_origin(MlirValue v, char *buf, size_t cap);

#endif
