/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_op_list.h: growable arrays (ws_grow) and a growable list of ops, for
 * the passes that collect a loop's or a kernel's ops and values before they
 * rewrite them: no fixed cap, so a valid kernel is never refused for its
 * size. Internal. */
#ifndef WS_OP_LIST_H
#define WS_OP_LIST_H

#include <stddef.h>

#include "mlir-c/IR.h"

typedef struct ws_op_list {
  MlirOperation *items;
  long len, cap;
} ws_op_list;

/* realloc to at least `need` items of `size` bytes, doubling *cap (from
 * 64); aborts when memory runs out, as MLIR itself does. */
void *ws_grow(void *p, long *cap, long need, size_t size);

/* n zeroed items of `size` bytes (room for one more, so n may be 0);
 * aborts when memory runs out, as ws_grow does. free() releases them. */
void *ws_zalloc(size_t n, size_t size);

/* Appends op. */
void ws_op_list_push(ws_op_list *l, MlirOperation op);

/* Frees the items; the list is empty again. */
void ws_op_list_free(ws_op_list *l);

#endif
