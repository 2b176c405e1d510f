/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* read_file.h: the C API tests' input reader. */
#ifndef WS_TEST_CAPI_READ_FILE_H
#define WS_TEST_CAPI_READ_FILE_H

#include <stdio.h>
#include <stdlib.h>

/* The whole file at `path`, NUL-terminated (the caller frees it); NULL
 * when it cannot be read. */
static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (text && fread(text, 1, (size_t)n, f) == (size_t)n)
    text[n] = '\0';
  else {
    free(text);
    text = NULL;
  }
  fclose(f);
  return text;
}

#endif
