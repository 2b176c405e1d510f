/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* diagnostics.h: print MLIR diagnostics as "file:line:col: error: ..." with
 * the source line and a caret, the way compilers and mlir-opt do. */
#ifndef WS_OPT_DIAGNOSTICS_H
#define WS_OPT_DIAGNOSTICS_H

#include "mlir-c/Diagnostics.h"
#include "source.h"

typedef struct diagnostic_printer {
  const source_buffer *source; /* for quoting lines; may be NULL */
  int errors;
} diagnostic_printer;

/* Prints a remark of a ws pass at `loc`, located like a diagnostic; a
 * WsRemarkCallback whose user data is the diagnostic_printer. */
void diagnostics_print_remark(MlirLocation loc, MlirStringRef message, void *printer);

/* Attaches a handler that prints every diagnostic of `ctx` to stderr. */
MlirDiagnosticHandlerID diagnostics_attach(MlirContext ctx, diagnostic_printer *printer);

#endif
