/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* text_buffer.c: MLIR prints diagnostics, attributes and pass errors
 * through callbacks in pieces; ws-opt reads them whole. */
#include "text_buffer.h"

#include <string.h>

void text_buffer_append(MlirStringRef piece, void *buffer) {
  text_buffer *b = buffer;
  size_t room = sizeof b->data - 1 - b->len;
  size_t n = piece.length < room ? piece.length : room;
  memcpy(b->data + b->len, piece.data, n);
  b->len += n;
  b->data[b->len] = '\0';
}
