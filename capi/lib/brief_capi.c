/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* brief_capi.c: wsDiagnosticShownLength and wsDiagnosticHidden
 * (ws-c/Compile.h). MLIR's verifier
 * appends the failing operation to some errors ("block with no
 * terminator, has <the op>") and adds a note "see current operation:
 * <the op>", both in the generic form, for a loop or a kernel dozens of
 * lines long. The error's location and the quoted source line already
 * show the user where; ws-opt and wsCompile show the words alone. */
#include "ws-c/Compile.h"

#include <string.h>

static bool starts_with(MlirStringRef s, const char *prefix) {
  size_t n = strlen(prefix);
  return s.length >= n && memcmp(s.data, prefix, n) == 0;
}

/* Whether the text from `at` on is an operation printed generically: a
 * quoted name ("scf.for"(...)), results (%0 = ...) or a block label. */
static bool op_dump_at(MlirStringRef s, size_t at) {
  while (at < s.length && (s.data[at] == ' ' || s.data[at] == '\n'))
    at++;
  return at < s.length && (s.data[at] == '"' || s.data[at] == '%' || s.data[at] == '^');
}

size_t wsDiagnosticShownLength(MlirStringRef message) {
  if (starts_with(message, "see current operation:"))
    return 0;
  size_t keep = message.length;
  for (size_t i = 0; i < message.length; i++)
    if (message.data[i] == '\n' && op_dump_at(message, i + 1)) {
      keep = i;
      break;
    }
  if (keep == message.length)
    return keep; /* no dump: all of it */
  /* what introduced the dump: "block with no terminator, has " */
  while (keep && (message.data[keep - 1] == ' ' || message.data[keep - 1] == ':'))
    keep--;
  if (keep >= 5 && memcmp(message.data + keep - 5, ", has", 5) == 0)
    keep -= 5;
  return keep;
}

bool wsDiagnosticHidden(MlirDiagnostic diag, MlirStringRef message) {
  return mlirDiagnosticGetSeverity(diag) == MlirDiagnosticNote &&
         mlirDiagnosticGetNumNotes(diag) == 0 && wsDiagnosticShownLength(message) == 0;
}
