/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_text.h: print MLIR objects into fixed C buffers, for messages and for
 * the few checks that can only read a type's printed form (IRDL types have
 * no C API accessors). Internal to the ws library. */
#ifndef WS_TEXT_H
#define WS_TEXT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "mlir-c/IR.h"

/* An output buffer, always NUL-ended: a bounded one (ws_text_init) stops
 * at cap-1 bytes; a growing one (ws_text_grown) has no bound, for text
 * whose size follows the kernel (a row per ring of a plan's table). */
typedef struct ws_text {
  char *buf;
  size_t cap;
  size_t len;
  bool truncated;
  bool grows; /* buf is the text's own, grown as needed */
} ws_text;

/* Starts `t` on `buf` of `cap` bytes (cap >= 1). */
void ws_text_init(ws_text *t, char *buf, size_t cap);

/* Starts `t` on a buffer of its own that grows; ws_text_release frees it. */
void ws_text_grown(ws_text *t);
void ws_text_release(ws_text *t);

/* Appends `s`; an MlirStringCallback, so MLIR printers can write into it. */
void ws_text_append_ref(MlirStringRef s, void *text);

/* Appends printf-formatted text. */
void ws_text_appendf(ws_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints `type` into buf; returns buf. */
const char *ws_type_str(MlirType type, char *buf, size_t cap);

/* Prints `attr` into buf; returns buf. */
const char *ws_attr_str(MlirAttribute attr, char *buf, size_t cap);

/* The chip a printed #nvvm.target names (`chip = "sm_90a"`), into chip;
 * MLIR's default, sm_50, when it names none. Returns chip. */
const char *ws_nvvm_chip(const char *printed_target, char *chip, size_t cap);

/* The name of `op` ("ws.load") as a NUL-terminated copy in buf; returns buf. */
const char *ws_op_name(MlirOperation op, char *buf, size_t cap);

/* "line:col" of a file location (unwrapping name locations), else the
 * location as MLIR prints it; into buf, which is returned. */
const char *ws_loc_str(MlirLocation loc, char *buf, size_t cap);

/* True when `op` is named `name` ("scf.for", "ws.load"). */
bool ws_op_is(MlirOperation op, const char *name);

/* The value of an integer arith.constant; false for anything else. */
bool ws_constant_int(MlirValue v, long long *value);

/* The dimension of a gpu index op (gpu.block_id, gpu.grid_dim, ...: its
 * #gpu<dim x> attribute): 0 for x, 1 for y, 2 for z, -1 without one. */
int ws_gpu_dimension(MlirOperation op);

/* The nearest ancestor of `op` named `name`, or a null op. */
MlirOperation ws_enclosing_op(MlirOperation op, const char *name);

/* True when `op` lies inside `outer`'s regions, at any depth. */
bool ws_op_within(MlirOperation op, MlirOperation outer);

/* True when `v` is defined inside `op`'s regions: the result of an op
 * nested in it, or an argument of one of its blocks (a loop's iv). */
bool ws_defined_within(MlirValue v, MlirOperation op);

/* True when the MlirStringRef equals the C string. */
bool ws_ref_eq(MlirStringRef ref, const char *s);

/* `prefix` followed by the printf-formatted text, in a buffer of its own
 * size that the caller frees. */
char *ws_vformat(const char *prefix, const char *fmt, va_list ap);

/* Emits an error at `loc` through the context's diagnostic engine. */
void ws_emit_error_at(MlirLocation loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Emits "'NAME' op MESSAGE" at the location of `op`, the form MLIR's own
 * verifiers use, so ws errors read like upstream ones. */
void ws_emit_op_error(MlirOperation op, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* WS_TEXT_H */
