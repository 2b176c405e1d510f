/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* source_capi.c: wsLocationGetFilePosition, wsSourceNestingWithin,
 * wsSourceCheckHoldsOperation and wsSourceCheckBeforeParse
 * (ws-c/Compile.h): what ws-opt's diagnostics and wsCompile both need to
 * know of a source text and of a location in it. */
#include "ws-c/Compile.h"

#include <stdio.h>

static bool resolve(MlirLocation loc, MlirStringRef *file, int *line, int *column, int depth) {
  if (depth > 16 || mlirLocationIsNull(loc))
    return false;
  if (mlirLocationIsAFileLineColRange(loc)) {
    *file = mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(loc));
    *line = mlirLocationFileLineColRangeGetStartLine(loc);
    *column = mlirLocationFileLineColRangeGetStartColumn(loc);
    return true;
  }
  if (mlirLocationIsAName(loc))
    return resolve(mlirLocationNameGetChildLoc(loc), file, line, column, depth + 1);
  if (mlirLocationIsACallSite(loc))
    return resolve(mlirLocationCallSiteGetCallee(loc), file, line, column, depth + 1);
  if (mlirLocationIsAFused(loc)) {
    MlirLocation parts[16];
    intptr_t n = mlirLocationFusedGetNumLocations(loc);
    if (n > 16)
      return false;
    mlirLocationFusedGetLocations(loc, parts);
    for (intptr_t i = 0; i < n; i++)
      if (resolve(parts[i], file, line, column, depth + 1))
        return true;
  }
  return false;
}

/* Names and call sites point at what they wrap; the depth bound keeps a
 * pathological chain of wrappers from recursing without end. */
bool wsLocationGetFilePosition(MlirLocation loc, MlirStringRef *file, int *line, int *column) {
  return resolve(loc, file, line, column, 0);
}

/* A scan of source text, not a parse: code_next hands out the characters
 * outside strings and line comments, each with its line and column
 * (1-based), so that a bracket or a "${" inside them does not count. */
typedef struct {
  const char *text;
  size_t len, i;
  int line, column;
} code_cursor;

static code_cursor code_start(MlirStringRef source) {
  return (code_cursor){source.data, source.length, 0, 1, 1};
}

/* The next code character into *ch and its position into *line and
 * *column; false at the end of the text. */
static bool code_next(code_cursor *cur, char *ch, int *line, int *column) {
  while (cur->i < cur->len) {
    char c = cur->text[cur->i];
    *line = cur->line;
    *column = cur->column;
    cur->i++;
    cur->column++;
    if (c == '\n') {
      cur->line++;
      cur->column = 1;
    } else if (c == '"') { /* a string: to its closing quote, past escapes */
      while (cur->i < cur->len && cur->text[cur->i] != '"' && cur->text[cur->i] != '\n') {
        if (cur->text[cur->i] == '\\' && cur->i + 1 < cur->len)
          cur->i++, cur->column++;
        cur->i++, cur->column++;
      }
      if (cur->i < cur->len && cur->text[cur->i] == '"')
        cur->i++, cur->column++;
    } else if (c == '/' && cur->i < cur->len && cur->text[cur->i] == '/') { /* a comment */
      while (cur->i < cur->len && cur->text[cur->i] != '\n')
        cur->i++, cur->column++;
    } else {
      *ch = c;
      return true;
    }
  }
  return false;
}

/* Whether the '>' just handed out by `cur` (after `prev`) closes a '<':
 * not the arrow "->" of a function type or map, nor ">=" of an affine
 * set. */
static bool closes_angle(const code_cursor *cur, char prev) {
  return prev != '-' && !(cur->i < cur->len && cur->text[cur->i] == '=');
}

bool wsSourceNestingWithin(MlirStringRef source, int limit, int *line, int *column) {
  code_cursor cur = code_start(source);
  int depth = 0, l, c;
  char ch, prev = 0;
  while (code_next(&cur, &ch, &l, &c)) {
    char before = prev;
    prev = ch;
    if (ch == '>' && !closes_angle(&cur, before))
      continue;
    if (ch == '{' || ch == '[' || ch == '(' || ch == '<') {
      if (++depth > limit) {
        *line = l;
        *column = c;
        return false;
      }
    } else if ((ch == '}' || ch == ']' || ch == ')' || ch == '>') && depth > 0) {
      depth--;
    }
  }
  return true;
}

/* The first template field ("${") outside strings and comments. */
static bool find_template_field(MlirStringRef source, int *line, int *column) {
  code_cursor cur = code_start(source);
  int l, c;
  char ch;
  while (code_next(&cur, &ch, &l, &c))
    if (ch == '$' && cur.i < cur.len && cur.text[cur.i] == '{') {
      *line = l;
      *column = c;
      return true;
    }
  return false;
}

/* Whether the text holds any code: not only whitespace and comments. */
static bool holds_code(MlirStringRef source) {
  code_cursor cur = code_start(source);
  int l, c;
  char ch;
  while (code_next(&cur, &ch, &l, &c))
    if (ch != ' ' && ch != '\t' && ch != '\r' && ch != '\f' && ch != '\v')
      return true;
  return false;
}

/* Emits `message` at line:column of the buffer MLIR names "-". */
static void emit_at(MlirContext ctx, int line, int column, const char *message) {
  mlirEmitError(mlirLocationFileLineColGet(ctx, mlirStringRefCreateFromCString("-"), (unsigned)line,
                                           (unsigned)column),
                message);
}

bool wsSourceCheckHoldsOperation(MlirContext ctx, MlirStringRef text) {
  if (holds_code(text))
    return true;
  emit_at(ctx, 1, 1,
          "the input holds no operation (it is empty, or only whitespace and comments); "
          "ws expects a module with a gpu.module of kernels");
  return false;
}

bool wsSourceCheckBeforeParse(MlirContext ctx, MlirStringRef text) {
  int line = 0, column = 0;
  char message[192];
  if (!wsSourceNestingWithin(text, WS_MAX_SOURCE_NESTING, &line, &column))
    /* MLIR's parser recurses per level and would overflow the stack */
    snprintf(message, sizeof message,
             "the input nests brackets more than %d deep; ws refuses it (counting { [ ( "
             "and the < of types and attributes)",
             WS_MAX_SOURCE_NESTING);
  else if (find_template_field(text, &line, &column))
    snprintf(message, sizeof message,
             "'${' begins a template field: this is a ws.Template's source, not a kernel; "
             "render a member first (in Python, ws.Template(path).compile(config))");
  else
    return true;
  emit_at(ctx, line, column, message);
  return false;
}
