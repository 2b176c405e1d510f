/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_op_list.c: growable arrays and the op list (ws_op_list.h). */
#include "ws_op_list.h"

#include <stdlib.h>

void *ws_grow(void *p, long *cap, long need, size_t size) {
  if (need <= *cap)
    return p;
  long c = *cap ? *cap : 64;
  while (c < need)
    c *= 2;
  void *q = realloc(p, (size_t)c * size);
  if (!q)
    abort(); /* out of memory: as MLIR itself does */
  *cap = c;
  return q;
}

void *ws_zalloc(size_t n, size_t size) {
  void *p = calloc(n + 1, size);
  if (!p)
    abort(); /* out of memory: as MLIR itself does */
  return p;
}

void ws_op_list_push(ws_op_list *l, MlirOperation op) {
  l->items = ws_grow(l->items, &l->cap, l->len + 1, sizeof *l->items);
  l->items[l->len++] = op;
}

void ws_op_list_free(ws_op_list *l) {
  free(l->items);
  l->items = NULL;
  l->len = l->cap = 0;
}
