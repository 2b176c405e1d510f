/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* emit.h: ws-opt --emit=mlir|llvm|ptx|cubin|launcher. */
#ifndef WS_OPT_EMIT_H
#define WS_OPT_EMIT_H

#include <stdbool.h>
#include <stdio.h>

#include "mlir-c/IR.h"

typedef enum emit_kind {
  EMIT_NONE, /* no --emit: run --pass-pipeline and print the IR */
  EMIT_MLIR,
  EMIT_LLVM,
  EMIT_PTX,
  EMIT_CUBIN,
  EMIT_LAUNCHER,
  EMIT_PLAN, /* the plan as JSON (plan_json.h) */
} emit_kind;

/* Parses the value of --emit; false when unknown. */
bool emit_parse(const char *text, emit_kind *out);

/* The --emit value that names `kind` ("ptx"), for messages. */
const char *emit_name(emit_kind kind);

/* Runs a pipeline text on the module; shared with the plain path. */
typedef bool (*run_pipeline_fn)(void *driver, MlirModule module, const char *text);

/* Runs the ws pipeline (with `ws_options`, the user's --ws-pipeline text)
 * up to what `kind` needs and writes it: to `out` for text kinds and
 * cubin, to `output_base`.h/.c for the launcher (and, with `keep_ptx`,
 * `output_base`.ptx: the PTX the launcher's cubin is assembled from, in
 * the same run). `source` is the text `module` was parsed from: the
 * launcher names each argument by its `%name` there. */
bool emit_run(emit_kind kind, MlirModule module, MlirStringRef source, const char *ws_options,
              run_pipeline_fn run, void *driver, FILE *out, const char *output_base, bool keep_ptx);

#endif
