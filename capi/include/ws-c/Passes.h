/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * ws-c/Passes.h: create ws passes and add them to MLIR pass managers.
 *
 * Each ws pass is an MLIR external pass written in C. Passes are named by
 * their pipeline argument ("ws-verify") and take options in MLIR's textual
 * form, the part between the braces of "ws-verify{chip=sm_90a}". The list of
 * passes is constant data: there is no registration step and no global state.
 */
#ifndef WS_C_PASSES_H
#define WS_C_PASSES_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Receives a pass's remarks: why a loop was not specialized, what a pass
 * chose. `loc` is the op the remark is about. */
typedef void (*WsRemarkCallback)(MlirLocation loc, MlirStringRef message, void *user_data);

/* Where a pass reports: `on_error` gets problems found while creating or
 * configuring it (unknown name, bad option), `on_remark` its remarks while
 * it runs. Both may be NULL; without `on_remark`, remarks are printed to
 * stderr as "loc(...): remark: ...". A pass keeps a copy of this struct. */
typedef struct WsDiagnostics {
  MlirStringCallback on_error;
  WsRemarkCallback on_remark;
  void *user_data;
} WsDiagnostics;

/* The number of ws passes and pipelines that can be created by name. */
intptr_t wsGetNumPasses(void);

/* The pipeline argument of pass `index` (0 <= index < wsGetNumPasses()). */
MlirStringRef wsPassGetArgument(intptr_t index);

/* A one-line summary of pass `index`. */
MlirStringRef wsPassGetSummary(intptr_t index);

/* The number of options of pass `index`. */
intptr_t wsPassGetNumOptions(intptr_t index);

/* Name, default value (as text) and help of option `option` of pass `index`.
 * Any out-parameter may be NULL. */
void wsPassGetOption(intptr_t index, intptr_t option, MlirStringRef *name,
                     MlirStringRef *default_value, MlirStringRef *help);

/* The value of option `name` of the ws pass or pipeline `argument` as
 * `options` (its "key=value" text, may be empty) configure it: the given
 * one, else the default; written as text into buf (cap bytes). A tool that
 * works beside a pipeline asks it this rather than parsing the text itself
 * (ws-opt reads ws-pipeline's cuda-path to run the toolkit's ptxas). On an
 * unknown pass or option, or a bad options text, reports through
 * diagnostics->on_error and returns false. */
bool wsPassGetOptionValue(MlirStringRef argument, MlirStringRef options, MlirStringRef name,
                          char *buf, size_t cap, const WsDiagnostics *diagnostics);

/* Returns true when pass `index` is a pipeline (it adds several passes). */
bool wsPassIsPipeline(intptr_t index);

/* Returns the index of the pass named `argument`, or -1. */
intptr_t wsLookupPass(MlirStringRef argument);

/* Adds the ws pass or pipeline named `argument`, configured by `options`
 * (MLIR's "key=value key=value" form, may be empty), to `pm`. On failure
 * (unknown name, bad option) nothing is added, diagnostics->on_error gets
 * one message, and the result is failure. */
MlirLogicalResult wsAddPassByName(MlirOpPassManager pm, MlirStringRef argument,
                                  MlirStringRef options, const WsDiagnostics *diagnostics);

/* Creates the single pass named `argument` with `options`. Returns a null
 * pass (.ptr == NULL) and reports through diagnostics->on_error when the name is unknown, names a
 * pipeline, or an option is bad. The caller owns the pass until it hands it to a pass manager. */
MlirPass wsCreatePass(MlirStringRef argument, MlirStringRef options,
                      const WsDiagnostics *diagnostics);

/* Creates ws-verify: checks every ws op, type and attribute against the
 * rules IRDL cannot express (see docs in README.md). Options: chip=NAME
 * (sm_90a or sm_100a; when given, kernels must target that chip). */
MlirPass wsCreateVerifyPass(MlirStringRef options, const WsDiagnostics *diagnostics);

/* Adds the whole ws pipeline (ws-pipeline) to `pm` with `options`
 * ("chip=sm_90a format=bin"; see ws-opt --help for all). Its lowering half
 * uses upstream passes by name, so call mlirRegisterAllPasses() first.
 * Reports like wsAddPassByName. */
MlirLogicalResult wsAddPipeline(MlirOpPassManager pm, MlirStringRef options,
                                const WsDiagnostics *diagnostics);

#ifdef __cplusplus
}
#endif

#endif /* WS_C_PASSES_H */
