/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* diagnostics.c: ws-opt's diagnostic handler. */
#include "diagnostics.h"

#include <stdio.h>
#include <string.h>

#include "mlir-c/IR.h"
#include "text_buffer.h"
#include "ws-c/Compile.h"

typedef struct file_position {
  MlirStringRef file;
  int line, col;
} file_position;

static bool resolve(MlirLocation loc, file_position *pos) {
  return wsLocationGetFilePosition(loc, &pos->file, &pos->line, &pos->col);
}

static const char *severity_word(MlirDiagnosticSeverity s) {
  switch (s) {
  case MlirDiagnosticError:
    return "error";
  case MlirDiagnosticWarning:
    return "warning";
  case MlirDiagnosticNote:
    return "note";
  case MlirDiagnosticRemark:
    return "remark";
  }
  return "error";
}

static void write_to_stderr(MlirStringRef s, void *unused) {
  (void)unused;
  fwrite(s.data, 1, s.length, stderr);
}

/* Quotes the line and puts a caret under the column. */
static void quote_source(const diagnostic_printer *p, const file_position *pos) {
  const char *line;
  size_t len;
  if (!p->source || !source_line(p->source, pos->line, &line, &len))
    return;
  fprintf(stderr, "%.*s\n", (int)len, line);
  for (int i = 1; i < pos->col && (size_t)i <= len; i++)
    fputc(line[i - 1] == '\t' ? '\t' : ' ', stderr);
  fputs("^\n", stderr);
}

/* MLIR names a buffer parsed from memory "-"; that buffer is our input. */
static bool is_source_file(const diagnostic_printer *p, MlirStringRef file) {
  return p->source && file.length == 1 && file.data[0] == '-';
}

/* Prints "where: severity: " for a location; shared by diagnostics and the
 * remarks of ws passes. Returns the resolved position for quoting. */
static bool print_header(const diagnostic_printer *p, MlirLocation loc, const char *sev,
                         file_position *pos) {
  bool located = resolve(loc, pos);
  if (located && is_source_file(p, pos->file))
    fprintf(stderr, "%s:%d:%d: %s: ", p->source->name, pos->line, pos->col, sev);
  else if (located)
    fprintf(stderr, "%.*s:%d:%d: %s: ", (int)pos->file.length, pos->file.data, pos->line, pos->col,
            sev);
  else
    fprintf(stderr, "%s: %s: ", p->source ? p->source->name : "ws-opt", sev);
  return located;
}

static void print_one(diagnostic_printer *p, MlirDiagnostic diag) {
  file_position pos;
  const char *sev = severity_word(mlirDiagnosticGetSeverity(diag));
  MlirLocation loc = mlirDiagnosticGetLocation(diag);
  text_buffer m = {.len = 0};
  char suggestion[128];
  mlirDiagnosticPrint(diag, text_buffer_append, &m);
  if (wsDiagnosticHidden(diag, mlirStringRefCreate(m.data, m.len)))
    return; /* a note that only repeats the operation */
  size_t shown = wsDiagnosticShownLength(mlirStringRefCreate(m.data, m.len));
  bool located = print_header(p, loc, sev, &pos);
  if (shown < m.len) /* cut within the first part, which m holds */
    fwrite(m.data, 1, shown, stderr);
  else /* all of it, however long: m keeps only its first part */
    mlirDiagnosticPrint(diag, write_to_stderr, NULL);
  if (wsSuggestOperation(mlirLocationGetContext(loc), mlirStringRefCreate(m.data, m.len),
                         suggestion, sizeof suggestion))
    fprintf(stderr, "; did you mean '%s'?", suggestion);
  fputc('\n', stderr);
  if (located && is_source_file(p, pos.file))
    quote_source(p, &pos);
  for (intptr_t i = 0; i < mlirDiagnosticGetNumNotes(diag); i++)
    print_one(p, mlirDiagnosticGetNote(diag, i));
}

void diagnostics_print_remark(MlirLocation loc, MlirStringRef message, void *printer) {
  diagnostic_printer *p = printer;
  file_position pos;
  bool located = print_header(p, loc, "remark", &pos);
  fprintf(stderr, "%.*s\n", (int)message.length, message.data);
  if (located && is_source_file(p, pos.file))
    quote_source(p, &pos);
}

static MlirLogicalResult handle(MlirDiagnostic diag, void *user_data) {
  diagnostic_printer *p = user_data;
  if (mlirDiagnosticGetSeverity(diag) == MlirDiagnosticError)
    p->errors++;
  print_one(p, diag);
  return mlirLogicalResultSuccess();
}

MlirDiagnosticHandlerID diagnostics_attach(MlirContext ctx, diagnostic_printer *printer) {
  return mlirContextAttachDiagnosticHandler(ctx, handle, printer, NULL);
}
