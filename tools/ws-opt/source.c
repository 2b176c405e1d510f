/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* source.c: reading and splitting ws-opt's input. */
#include "source.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool read_stream(FILE *f, source_buffer *out) {
  size_t cap = 1 << 16, len = 0;
  char *buf = malloc(cap);
  if (!buf)
    return false;
  for (;;) {
    if (len + 1 >= cap) {
      char *bigger = realloc(buf, cap * 2);
      if (!bigger) {
        free(buf);
        return false;
      }
      buf = bigger;
      cap *= 2;
    }
    size_t n = fread(buf + len, 1, cap - 1 - len, f);
    len += n;
    if (n == 0)
      break;
  }
  buf[len] = '\0';
  out->text = buf;
  out->len = len;
  return !ferror(f);
}

static char *copy_string(const char *s) {
  size_t n = strlen(s) + 1;
  char *copy = malloc(n);
  if (copy)
    memcpy(copy, s, n);
  return copy;
}

bool source_read(const char *path, source_buffer *out) {
  bool from_stdin = strcmp(path, "-") == 0;
  FILE *f = from_stdin ? stdin : fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "ws-opt: error: cannot open input file '%s': %s\n", path, strerror(errno));
    return false;
  }
  bool ok = read_stream(f, out);
  if (!from_stdin)
    fclose(f);
  if (!ok) {
    fprintf(stderr, "ws-opt: error: cannot read input file '%s'\n", path);
    return false;
  }
  out->name = copy_string(from_stdin ? "<stdin>" : path);
  return out->name != NULL;
}

void source_free(source_buffer *src) {
  free(src->name);
  free(src->text);
  src->name = src->text = NULL;
}

/* True when the line [p, end) is a split marker: "//", blanks, "-----". */
static bool is_split_marker(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  if (end - p < 2 || p[0] != '/' || p[1] != '/')
    return false;
  p += 2;
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  return end - p >= 5 && strncmp(p, "-----", 5) == 0;
}

static bool push_chunk(source_chunk **chunks, size_t *n, const char *start, const char *end,
                       int lines_before) {
  source_chunk *grown = realloc(*chunks, (*n + 1) * sizeof **chunks);
  if (!grown)
    return false;
  *chunks = grown;
  size_t body = (size_t)(end - start);
  char *text = malloc((size_t)lines_before + body + 1);
  if (!text)
    return false;
  memset(text, '\n', (size_t)lines_before);
  memcpy(text + lines_before, start, body);
  text[lines_before + body] = '\0';
  (*chunks)[*n] = (source_chunk){text, (size_t)lines_before + body};
  (*n)++;
  return true;
}

size_t source_split(const source_buffer *src, source_chunk **chunks) {
  size_t n = 0;
  *chunks = NULL;
  const char *p = src->text, *end = src->text + src->len;
  const char *chunk_start = p;
  int line = 0, chunk_line = 0;
  while (p < end) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    const char *line_end = eol ? eol : end;
    if (is_split_marker(p, line_end)) {
      if (!push_chunk(chunks, &n, chunk_start, p, chunk_line))
        return n;
      chunk_start = eol ? eol + 1 : end;
      chunk_line = line + 1;
    }
    line++;
    p = eol ? eol + 1 : end;
  }
  push_chunk(chunks, &n, chunk_start, end, chunk_line);
  return n;
}

bool source_line(const source_buffer *src, int line, const char **start, size_t *len) {
  const char *p = src->text, *end = src->text + src->len;
  for (int i = 1; i < line && p < end; i++) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol)
      return false;
    p = eol + 1;
  }
  if (line < 1 || p > end)
    return false;
  const char *eol = memchr(p, '\n', (size_t)(end - p));
  *start = p;
  *len = (size_t)((eol ? eol : end) - p);
  return true;
}
