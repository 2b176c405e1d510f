/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* pipeline_text.c: a recursive-descent reader for textual pass pipelines.
 *
 *   pipeline := element (',' element)*
 *   element  := NAME '(' pipeline ')'     nested pass manager on op NAME
 *             | NAME ('{' options '}')?   a pass or pipeline with options
 */
#include "pipeline_text.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "ws-c/Passes.h"

typedef struct reader {
  pipeline_sink *sink;
  const char *text, *p;
  char *error;
  size_t error_cap;
  bool failed;
} reader;

static void fail(reader *r, const char *what) {
  if (r->failed)
    return;
  r->failed = true;
  snprintf(r->error, r->error_cap, "%s at offset %d of the pipeline \"%s\"", what,
           (int)(r->p - r->text), r->text);
}

static void skip_blanks(reader *r) {
  while (*r->p && isspace((unsigned char)*r->p))
    r->p++;
}

static bool is_name_char(char c) {
  return isalnum((unsigned char)c) || c == '-' || c == '_' || c == '.';
}

/* Scans a balanced {...} group, quotes included; returns the inside. */
static bool read_options(reader *r, MlirStringRef *options) {
  const char *start = ++r->p; /* past '{' */
  int depth = 1;
  char quote = 0;
  for (; *r->p; r->p++) {
    char c = *r->p;
    if (quote) {
      quote = c == quote ? 0 : quote;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '{') {
      depth++;
    } else if (c == '}' && --depth == 0) {
      *options = mlirStringRefCreate(start, (size_t)(r->p - start));
      r->p++;
      return true;
    }
  }
  fail(r, "unterminated '{'");
  return false;
}

/* Error text arrives in pieces (MLIR prints a whole diagnostic through the
 * callback); the pieces are joined and reduced to the message itself. */
static void collect_message(MlirStringRef piece, void *user_data) {
  text_buffer_append(piece, &((pipeline_sink *)user_data)->message);
}

static void forward_remark(MlirLocation loc, MlirStringRef message, void *user_data) {
  pipeline_sink *sink = user_data;
  if (sink->on_remark)
    sink->on_remark(loc, message, sink->remark_data);
}

static void fail_with_message(reader *r, const char *fallback) {
  const char *msg = strstr(r->sink->message.data, "error: ");
  msg = msg ? msg + strlen("error: ") : r->sink->message.data;
  char line[1024];
  snprintf(line, sizeof line, "%.*s", (int)strcspn(msg, "\n"), msg);
  fail(r, line[0] ? line : fallback);
}

/* Adds one pass: ws passes by the ws C API, all others through MLIR's own
 * registry (which then parses the options). */
static void add_pass(reader *r, MlirOpPassManager pm, MlirStringRef name, MlirStringRef options,
                     bool has_options) {
  r->sink->message.data[0] = '\0';
  r->sink->message.len = 0;
  if (wsLookupPass(name) >= 0) {
    WsDiagnostics diag = {collect_message, forward_remark, r->sink};
    if (mlirLogicalResultIsFailure(wsAddPassByName(pm, name, options, &diag)))
      fail_with_message(r, "invalid ws pass");
    return;
  }
  char element[4096];
  int n = has_options ? snprintf(element, sizeof element, "%.*s{%.*s}", (int)name.length, name.data,
                                 (int)options.length, options.data)
                      : snprintf(element, sizeof element, "%.*s", (int)name.length, name.data);
  if (n < 0 || (size_t)n >= sizeof element) {
    fail(r, "pipeline element too long");
    return;
  }
  if (mlirLogicalResultIsFailure(mlirOpPassManagerAddPipeline(
          pm, mlirStringRefCreate(element, (size_t)n), collect_message, r->sink)))
    fail_with_message(r, "invalid pass");
}

static void read_pipeline(reader *r, MlirOpPassManager pm, int depth);

static void read_element(reader *r, MlirOpPassManager pm, int depth) {
  skip_blanks(r);
  const char *start = r->p;
  while (is_name_char(*r->p))
    r->p++;
  if (r->p == start) {
    fail(r, "expected a pass name");
    return;
  }
  MlirStringRef name = mlirStringRefCreate(start, (size_t)(r->p - start));
  skip_blanks(r);
  if (*r->p == '(') {
    char op_name[256];
    snprintf(op_name, sizeof op_name, "%.*s", (int)name.length, name.data);
    r->p++;
    MlirOpPassManager nested =
        mlirOpPassManagerGetNestedUnder(pm, mlirStringRefCreateFromCString(op_name));
    read_pipeline(r, nested, depth + 1);
    skip_blanks(r);
    if (*r->p != ')') {
      fail(r, "expected ')'");
      return;
    }
    r->p++;
    return;
  }
  MlirStringRef options = mlirStringRefCreate(NULL, 0);
  bool has_options = *r->p == '{';
  if (has_options && !read_options(r, &options))
    return;
  add_pass(r, pm, name, options, has_options);
}

static void read_pipeline(reader *r, MlirOpPassManager pm, int depth) {
  if (depth > 32) {
    fail(r, "pipeline nested too deeply");
    return;
  }
  skip_blanks(r);
  if (*r->p == ')' || *r->p == '\0')
    return; /* an empty pipeline is allowed, as upstream */
  for (;;) {
    read_element(r, pm, depth);
    if (r->failed)
      return;
    skip_blanks(r);
    if (*r->p != ',')
      return;
    r->p++;
  }
}

bool pipeline_text_add(MlirPassManager pm, const char *text, pipeline_sink *sink, char *error,
                       size_t error_cap) {
  reader r = {sink, text, text, error, error_cap, false};
  MlirOpPassManager top = mlirPassManagerGetAsOpPassManager(pm);
  skip_blanks(&r);
  static const char anchor[] = "builtin.module";
  size_t n = sizeof anchor - 1;
  bool anchored = strncmp(r.p, anchor, n) == 0;
  const char *after = anchored ? r.p + n : r.p;
  while (*after && isspace((unsigned char)*after))
    after++;
  anchored = anchored && *after == '(';
  if (anchored) {
    r.p = after + 1;
    read_pipeline(&r, top, 0);
    skip_blanks(&r);
    if (!r.failed && *r.p != ')')
      fail(&r, "expected ')'");
    else if (!r.failed)
      r.p++;
  } else {
    read_pipeline(&r, top, 0);
  }
  skip_blanks(&r);
  if (!r.failed && *r.p != '\0')
    fail(&r, "unexpected text after the pipeline");
  return !r.failed;
}
