/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* source.h: the input of ws-opt: read a file or stdin, split it into the
 * chunks of --split-input-file. */
#ifndef WS_OPT_SOURCE_H
#define WS_OPT_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct source_buffer {
  char *name; /* as it appears in locations: the path, or "<stdin>" */
  char *text; /* NUL-terminated */
  size_t len;
} source_buffer;

/* Reads `path` ("-" for stdin). On failure prints why and returns false. */
bool source_read(const char *path, source_buffer *out);

void source_free(source_buffer *src);

/* One chunk of a split input: a NUL-terminated copy of the chunk preceded
 * by as many newlines as lines came before it, so that line numbers in
 * diagnostics are those of the whole file. */
typedef struct source_chunk {
  char *text;
  size_t len;
} source_chunk;

/* Splits at lines of the form "// -----". Returns the number of chunks and
 * a malloc'd array in *chunks (free each text, then the array). */
size_t source_split(const source_buffer *src, source_chunk **chunks);

/* Finds line `line` (1-based) of the buffer; returns its start and length. */
bool source_line(const source_buffer *src, int line, const char **start, size_t *len);

#endif
