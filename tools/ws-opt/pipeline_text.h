/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* pipeline_text.h: build a pass manager from MLIR's textual pipeline syntax,
 * "builtin.module(canonicalize, gpu.module(ws-verify{chip=sm_90a}))".
 *
 * Upstream MLIR parses this syntax only for passes in its global registry,
 * which C cannot add to; so ws-opt walks the text itself, adds ws passes
 * through the ws C API and hands every other element to MLIR. */
#ifndef WS_OPT_PIPELINE_TEXT_H
#define WS_OPT_PIPELINE_TEXT_H

#include <stdbool.h>

#include "mlir-c/Pass.h"
#include "text_buffer.h"
#include "ws-c/Passes.h"

/* Where the passes of a pipeline report. It must outlive the pass manager:
 * ws passes keep a pointer to it for their remarks. */
typedef struct pipeline_sink {
  text_buffer message;        /* the text of the last error while adding a pass */
  WsRemarkCallback on_remark; /* remarks of ws passes while they run */
  void *remark_data;
} pipeline_sink;

/* Adds the pipeline `text` to `pm` (anchored on builtin.module). Returns
 * false and writes a message to `error` when the text is malformed or names
 * an unknown pass or bad option. */
bool pipeline_text_add(MlirPassManager pm, const char *text, pipeline_sink *sink, char *error,
                       size_t error_cap);

#endif
