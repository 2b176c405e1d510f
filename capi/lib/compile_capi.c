/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* compile_capi.c: wsCompile (ws-c/Compile.h): the ws pipeline from source
 * text to PTX on a context of its own, keeping what a runtime needs: the
 * PTX, the kernels' launch data and every diagnostic, located. */
#define _POSIX_C_SOURCE 200809L /* strndup */
#include "ws-c/Compile.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Dialect/GPU.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"
#include "ws-c/Passes.h"
#include "../../dialect/ws_text.h"
#include "../../passes/plan/ws_plan.h"

typedef struct diagnostic {
  MlirDiagnosticSeverity severity;
  char *file; /* "" when unlocated */
  int line, column;
  char *message;
} diagnostic;

typedef struct compiled {
  bool succeeded;
  bool out_of_memory;
  char *filename; /* what "-" (the parsed buffer) is reported as */
  char *ptx;
  size_t ptx_len;
  WsKernelInfo *kernels;
  intptr_t num_kernels;
  diagnostic *diagnostics;
  intptr_t num_diagnostics, cap_diagnostics;
} compiled;

/* A growing string for a diagnostic's printed message. */
typedef struct text {
  char *data;
  size_t len, cap;
  bool failed;
} text;

static void text_append(MlirStringRef s, void *user_data) {
  text *t = user_data;
  if (t->failed)
    return;
  if (t->len + s.length + 1 > t->cap) {
    size_t cap = (t->len + s.length + 1) * 2;
    char *grown = realloc(t->data, cap);
    if (!grown) {
      t->failed = true;
      return;
    }
    t->data = grown;
    t->cap = cap;
  }
  memcpy(t->data + t->len, s.data, s.length);
  t->len += s.length;
  t->data[t->len] = '\0';
}

static char *copy_ref(MlirStringRef s) { return strndup(s.data ? s.data : "", s.length); }

/* Keeps one diagnostic; the buffer MLIR parsed ("-") is reported under the
 * caller's file name. Takes ownership of `message`. */
static void record(compiled *c, MlirDiagnosticSeverity severity, MlirLocation loc, char *message) {
  if (!message || c->out_of_memory) {
    free(message);
    c->out_of_memory = true;
    return;
  }
  if (c->num_diagnostics == c->cap_diagnostics) {
    intptr_t cap = c->cap_diagnostics ? 2 * c->cap_diagnostics : 16;
    diagnostic *grown = realloc(c->diagnostics, (size_t)cap * sizeof *grown);
    if (!grown) {
      free(message);
      c->out_of_memory = true;
      return;
    }
    c->diagnostics = grown;
    c->cap_diagnostics = cap;
  }
  diagnostic d = {severity, NULL, 0, 0, message};
  MlirStringRef file = {NULL, 0};
  bool located =
      !mlirLocationIsNull(loc) && wsLocationGetFilePosition(loc, &file, &d.line, &d.column);
  if (located && file.length == 1 && file.data[0] == '-')
    d.file = strdup(c->filename);
  else
    d.file = located ? copy_ref(file) : strdup("");
  if (!d.file) {
    free(message);
    c->out_of_memory = true;
    return;
  }
  c->diagnostics[c->num_diagnostics++] = d;
}

static void record_diagnostic(compiled *c, MlirDiagnostic diag) {
  text t = {NULL, 0, 0, false};
  mlirDiagnosticPrint(diag, text_append, &t);
  if (t.failed) {
    free(t.data);
    t.data = NULL;
  }
  if (t.data && wsDiagnosticHidden(diag, mlirStringRefCreate(t.data, t.len))) {
    free(t.data); /* a note that only repeats the operation */
    return;
  }
  if (t.data) { /* without an operation MLIR printed into it */
    t.len = wsDiagnosticShownLength(mlirStringRefCreate(t.data, t.len));
    t.data[t.len] = '\0';
  }
  char suggestion[128], tail[160];
  MlirLocation loc = mlirDiagnosticGetLocation(diag);
  if (t.data && wsSuggestOperation(mlirLocationGetContext(loc), mlirStringRefCreate(t.data, t.len),
                                   suggestion, sizeof suggestion)) {
    snprintf(tail, sizeof tail, "; did you mean '%s'?", suggestion);
    text_append(mlirStringRefCreateFromCString(tail), &t);
  }
  record(c, mlirDiagnosticGetSeverity(diag), loc, t.data ? t.data : strdup(""));
  for (intptr_t i = 0; i < mlirDiagnosticGetNumNotes(diag); i++)
    record_diagnostic(c, mlirDiagnosticGetNote(diag, i));
}

static MlirLogicalResult on_diagnostic(MlirDiagnostic diag, void *user_data) {
  record_diagnostic(user_data, diag);
  return mlirLogicalResultSuccess();
}

static void on_remark(MlirLocation loc, MlirStringRef message, void *user_data) {
  record(user_data, MlirDiagnosticRemark, loc, copy_ref(message));
}

static void on_pass_error(MlirStringRef message, void *user_data) {
  record(user_data, MlirDiagnosticError, (MlirLocation){NULL}, copy_ref(message));
}

static void fail_unlocated(compiled *c, const char *message) {
  record(c, MlirDiagnosticError, (MlirLocation){NULL}, strdup(message));
}

/* wsCompile chooses the stage and the output format; a caller's would
 * fight them. */
static bool options_leave_stage_alone(compiled *c, MlirStringRef options) {
  static const char *const reserved[] = {"stage", "format"};
  size_t i = 0;
  while (i < options.length) {
    while (i < options.length && options.data[i] == ' ')
      i++;
    size_t start = i;
    while (i < options.length && options.data[i] != ' ' && options.data[i] != '=')
      i++;
    for (size_t r = 0; r < 2; r++)
      if (i - start == strlen(reserved[r]) &&
          memcmp(options.data + start, reserved[r], i - start) == 0) {
        char message[160];
        snprintf(message, sizeof message,
                 "option '%s' is set by the compile itself "
                 "(it stops at PTX); leave it out",
                 reserved[r]);
        fail_unlocated(c, message);
        return false;
      }
    while (i < options.length && options.data[i] != ' ')
      i++;
  }
  return true;
}

static void register_passes(void) { mlirRegisterAllPasses(); }

/* One context per compile, so that compiles share no state. */
MlirContext wsCreateContext(void) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirContextEnableMultithreading(ctx, false);
  mlirRegisterAllLLVMTranslations(ctx);
  return ctx;
}

/* Runs ws-pipeline{options extra} over the module. */
static bool run_pipeline(compiled *c, MlirContext ctx, MlirModule module, MlirStringRef options,
                         const char *extra) {
  size_t len = options.length + strlen(extra) + 2;
  char *all = malloc(len);
  if (!all) {
    c->out_of_memory = true;
    return false;
  }
  snprintf(all, len, "%.*s %s", (int)options.length, options.data ? options.data : "", extra);
  MlirPassManager pm =
      mlirPassManagerCreateOnOperation(ctx, mlirStringRefCreateFromCString("builtin.module"));
  WsDiagnostics report = {on_pass_error, on_remark, c};
  bool ok = mlirLogicalResultIsSuccess(wsAddPipeline(mlirPassManagerGetAsOpPassManager(pm),
                                                     mlirStringRefCreateFromCString(all), &report));
  free(all);
  if (ok) {
    mlirPassManagerEnableVerifier(pm, true);
    ok = mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module)));
  }
  mlirPassManagerDestroy(pm);
  return ok;
}

/* The outermost marked loop (ws_marked_loops walks in pre-order). */
MlirOperation wsFindMarkedLoop(MlirOperation root) {
  MlirOperation loop = {NULL};
  ws_marked_loops(root, &loop, 1);
  return loop;
}

/* The gpu.func kernels a walk finds, each told that it has no marked loop. */
typedef struct unmarked {
  const char *consequence;
  int kernels;
} unmarked;

static MlirWalkResult report_unmarked(MlirOperation op, void *user_data) {
  unmarked *u = user_data;
  if (!ws_op_is(op, "gpu.func") || !ws_has_attr(op, "gpu.kernel"))
    return MlirWalkResultAdvance;
  char message[320];
  snprintf(message, sizeof message,
           "no loop is marked ws.warp_specialize in this kernel, so "
           "it was not warp-specialized and %s; mark the loop that "
           "loads and stores its tiles: } {ws.warp_specialize}",
           u->consequence);
  mlirEmitError(mlirOperationGetLocation(op), message);
  u->kernels++;
  return MlirWalkResultSkip;
}

void wsExplainNothingPlanned(MlirOperation root, const char *consequence) {
  char message[320];
  MlirOperation loop = wsFindMarkedLoop(root);
  if (!mlirOperationIsNull(loop)) {
    snprintf(message, sizeof message,
             "loop marked ws.warp_specialize was not "
             "warp-specialized (the remark before this says why); %s",
             consequence);
    mlirEmitError(mlirOperationGetLocation(loop), message);
    return;
  }
  unmarked u = {consequence, 0};
  mlirOperationWalk(root, report_unmarked, &u, MlirWalkPreOrder);
  if (u.kernels == 0) {
    snprintf(message, sizeof message,
             "no loop is marked ws.warp_specialize and no gpu.func "
             "is a kernel; %s",
             consequence);
    mlirEmitError(mlirOperationGetLocation(root), message);
  }
}

static MlirWalkResult collect_binary(MlirOperation op, void *user_data) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (name.length != 10 || memcmp(name.data, "gpu.binary", 10) != 0)
    return MlirWalkResultAdvance;
  MlirOperation *binaries = user_data;
  binaries[binaries[0].ptr ? 1 : 0] = op;
  return binaries[1].ptr ? MlirWalkResultInterrupt : MlirWalkResultAdvance;
}

/* Keeps the PTX of the module's one gpu.binary. */
static bool take_ptx(compiled *c, MlirModule module) {
  MlirOperation binaries[2] = {{NULL}, {NULL}};
  mlirOperationWalk(mlirModuleGetOperation(module), collect_binary, binaries, MlirWalkPreOrder);
  if (!binaries[0].ptr || binaries[1].ptr) {
    fail_unlocated(c, binaries[0].ptr ? "a compile takes one gpu.module; the source has several"
                                      : "the module has no gpu.module to compile");
    return false;
  }
  MlirAttribute objects =
      mlirOperationGetAttributeByName(binaries[0], mlirStringRefCreateFromCString("objects"));
  if (mlirAttributeIsNull(objects) || !mlirAttributeIsAArray(objects) ||
      mlirArrayAttrGetNumElements(objects) != 1 ||
      !mlirAttributeIsAGPUObjectAttr(mlirArrayAttrGetElement(objects, 0))) {
    fail_unlocated(c, "the gpu.binary holds no single object to keep");
    return false;
  }
  MlirStringRef ptx = mlirGPUObjectAttrGetObject(mlirArrayAttrGetElement(objects, 0));
  c->ptx = copy_ref(ptx);
  c->ptx_len = ptx.length;
  if (!c->ptx)
    c->out_of_memory = true;
  return c->ptx != NULL;
}

/* Parse, plan (and read each kernel's launch data), then lower to PTX. */
static bool compile_module(compiled *c, MlirContext ctx, MlirStringRef source,
                           MlirStringRef options) {
  if (!wsSourceCheckHoldsOperation(ctx, source) || !wsSourceCheckBeforeParse(ctx, source))
    return false;
  MlirModule module = mlirModuleCreateParse(ctx, source);
  if (mlirModuleIsNull(module))
    return false;
  bool ok = run_pipeline(c, ctx, module, options, "stage=plan");
  if (ok) {
    c->num_kernels = wsCollectKernelInfo(mlirModuleGetOperation(module), source, &c->kernels);
    ok = c->num_kernels > 0;
    if (c->num_kernels == 0)
      wsExplainNothingPlanned(mlirModuleGetOperation(module), "there is nothing to compile");
    if (c->num_kernels < 0)
      c->num_kernels = 0;
  }
  ok = ok && run_pipeline(c, ctx, module, options, WS_LOWER_PLANNED " format=isa");
  ok = ok && take_ptx(c, module);
  mlirModuleDestroy(module);
  return ok;
}

WsCompiled wsCompile(MlirStringRef source, MlirStringRef filename, MlirStringRef options) {
  static pthread_once_t passes_registered = PTHREAD_ONCE_INIT;
  compiled *c = calloc(1, sizeof *c);
  if (!c)
    return (WsCompiled){NULL};
  c->filename = copy_ref(filename.length ? filename : mlirStringRefCreateFromCString("<source>"));
  if (!c->filename) {
    free(c);
    return (WsCompiled){NULL};
  }
  if (!options_leave_stage_alone(c, options))
    return (WsCompiled){c};
  pthread_once(&passes_registered, register_passes);
  MlirContext ctx = wsCreateContext();
  MlirDiagnosticHandlerID handler = mlirContextAttachDiagnosticHandler(ctx, on_diagnostic, c, NULL);
  if (mlirLogicalResultIsFailure(wsContextLoadDialect(ctx)))
    fail_unlocated(c, "cannot load the ws dialect");
  else
    c->succeeded = compile_module(c, ctx, source, options);
  mlirContextDetachDiagnosticHandler(ctx, handler);
  mlirContextDestroy(ctx);
  if (c->out_of_memory) { /* record() dropped messages from then on: say why */
    c->succeeded = false;
    c->out_of_memory = false;
    fail_unlocated(c, "out of memory");
  }
  return (WsCompiled){c};
}

void wsCompiledDestroy(WsCompiled compiled_handle) {
  compiled *c = compiled_handle.ptr;
  if (!c)
    return;
  for (intptr_t i = 0; i < c->num_diagnostics; i++) {
    free(c->diagnostics[i].file);
    free(c->diagnostics[i].message);
  }
  free(c->diagnostics);
  wsKernelInfoFree(c->kernels, c->num_kernels);
  free(c->ptx);
  free(c->filename);
  free(c);
}

bool wsCompiledSucceeded(WsCompiled compiled_handle) {
  compiled *c = compiled_handle.ptr;
  return c && c->succeeded;
}

MlirStringRef wsCompiledGetPTX(WsCompiled compiled_handle) {
  compiled *c = compiled_handle.ptr;
  return c && c->succeeded ? mlirStringRefCreate(c->ptx, c->ptx_len) : mlirStringRefCreate("", 0);
}

intptr_t wsCompiledGetNumKernels(WsCompiled compiled_handle) {
  compiled *c = compiled_handle.ptr;
  return c && c->succeeded ? c->num_kernels : 0;
}

const WsKernelInfo *wsCompiledGetKernel(WsCompiled compiled_handle, intptr_t index) {
  compiled *c = compiled_handle.ptr;
  return c && c->succeeded && index >= 0 && index < c->num_kernels ? &c->kernels[index] : NULL;
}

intptr_t wsCompiledGetNumDiagnostics(WsCompiled compiled_handle) {
  compiled *c = compiled_handle.ptr;
  return c ? c->num_diagnostics : 0;
}

WsCompileDiagnostic wsCompiledGetDiagnostic(WsCompiled compiled_handle, intptr_t index) {
  compiled *c = compiled_handle.ptr;
  WsCompileDiagnostic out = {MlirDiagnosticError, {"", 0}, 0, 0, {"", 0}};
  if (!c || index < 0 || index >= c->num_diagnostics)
    return out;
  const diagnostic *d = &c->diagnostics[index];
  out.severity = d->severity;
  out.file = mlirStringRefCreateFromCString(d->file);
  out.line = d->line;
  out.column = d->column;
  out.message = mlirStringRefCreateFromCString(d->message);
  return out;
}
