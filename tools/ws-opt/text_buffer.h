/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* text_buffer.h: a fixed buffer that MLIR's print callbacks write into. */
#ifndef WS_OPT_TEXT_BUFFER_H
#define WS_OPT_TEXT_BUFFER_H

#include <stddef.h>

#include "mlir-c/Support.h"

/* Text printed in pieces, joined and NUL-terminated, cut at the end. */
typedef struct text_buffer {
  char data[1024];
  size_t len;
} text_buffer;

/* An MlirStringCallback: appends `piece` to the text_buffer `buffer`. */
void text_buffer_append(MlirStringRef piece, void *buffer);

#endif
