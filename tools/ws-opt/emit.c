/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* emit.c: the --emit modes: the ws pipeline to a chosen format, then the
 * object pulled out of each gpu.binary (PTX text, cubin bytes, LLVM bitcode
 * printed as text) or wrapped in a C launcher. */
#include "emit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launcher.h"
#include "plan_json.h"
#include "ptxas.h"
#include "llvm-c/BitReader.h"
#include "llvm-c/Core.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/GPU.h"
#include "ws-c/Compile.h"
#include "ws-c/Passes.h"

static const struct {
  const char *name;
  emit_kind kind;
} kinds[] = {
    {"mlir", EMIT_MLIR},   {"llvm", EMIT_LLVM},         {"ptx", EMIT_PTX},
    {"cubin", EMIT_CUBIN}, {"launcher", EMIT_LAUNCHER}, {"plan", EMIT_PLAN},
};

bool emit_parse(const char *text, emit_kind *out) {
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (strcmp(text, kinds[i].name) == 0) {
      *out = kinds[i].kind;
      return true;
    }
  return false;
}

const char *emit_name(emit_kind kind) {
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (kinds[i].kind == kind)
      return kinds[i].name;
  return "none";
}

typedef struct objects {
  MlirStringRef items[16];
  MlirAttribute targets[16]; /* each object's #nvvm.target */
  int n;
} objects;

static MlirWalkResult collect_object(MlirOperation op, void *user_data) {
  objects *o = user_data;
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (name.length != 10 || memcmp(name.data, "gpu.binary", 10) != 0)
    return MlirWalkResultAdvance;
  MlirAttribute list =
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("objects"));
  if (!mlirAttributeIsNull(list) && mlirAttributeIsAArray(list) && o->n < 16 &&
      mlirArrayAttrGetNumElements(list) > 0) {
    MlirAttribute obj = mlirArrayAttrGetElement(list, 0);
    if (mlirAttributeIsAGPUObjectAttr(obj)) {
      o->targets[o->n] = mlirGPUObjectAttrGetTarget(obj);
      o->items[o->n++] = mlirGPUObjectAttrGetObject(obj);
    }
  }
  return MlirWalkResultAdvance;
}

static objects find_objects(MlirModule module) {
  objects o = {.n = 0};
  mlirOperationWalk(mlirModuleGetOperation(module), collect_object, &o, MlirWalkPreOrder);
  return o;
}

/* The bitcode gpu-module-to-binary makes for format=llvm, as LLVM IR text. */
static bool print_bitcode(MlirStringRef bc, FILE *out) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(bc.data, bc.length, "kernel");
  LLVMModuleRef m = NULL;
  bool ok = !LLVMParseBitcodeInContext2(ctx, buf, &m);
  if (ok) {
    char *text = LLVMPrintModuleToString(m);
    fputs(text, out);
    LLVMDisposeMessage(text);
    LLVMDisposeModule(m);
  } else {
    fprintf(stderr, "ws-opt: error: cannot read the LLVM bitcode of a kernel\n");
  }
  LLVMDisposeMemoryBuffer(buf);
  LLVMContextDispose(ctx);
  return ok;
}

static void pipeline(char *buf, size_t cap, const char *ws_options, const char *extra) {
  snprintf(buf, cap, "builtin.module(ws-pipeline{%s %s})", ws_options ? ws_options : "", extra);
}

static bool write_objects(MlirModule module, emit_kind kind, FILE *out) {
  objects o = find_objects(module);
  if (o.n == 0) {
    fprintf(stderr, "ws-opt: error: the module has no gpu.module to emit\n");
    return false;
  }
  for (int i = 0; i < o.n; i++) {
    if (kind == EMIT_LLVM) {
      if (!print_bitcode(o.items[i], out))
        return false;
    } else {
      fwrite(o.items[i].data, 1, o.items[i].length, out);
    }
  }
  return true;
}

static void print_error(MlirStringRef message, void *user_data) {
  (void)user_data;
  fprintf(stderr, "ws-opt: error: %.*s\n", (int)message.length, message.data);
}

/* base.ptx, the object's PTX, and its cubin from ptxas (ptxas.h): one run
 * of the flow for both. */
static bool keep_ptx_and_assemble(const objects *o, const char *ws_options, const char *base,
                                  unsigned char **cubin, size_t *len) {
  char path[4096];
  snprintf(path, sizeof path, "%s.ptx", base);
  FILE *f = fopen(path, "w");
  bool ok = f && fwrite(o->items[0].data, 1, o->items[0].length, f) == o->items[0].length;
  if (f)
    ok = fclose(f) == 0 && ok;
  if (!ok) {
    fprintf(stderr, "ws-opt: error: cannot write '%s': %s\n", path, strerror(errno));
    remove(path);
    return false;
  }
  char root[1024]; /* the toolkit the pipeline's own format=bin would use */
  WsDiagnostics diag = {print_error, NULL, NULL};
  if (wsPassGetOptionValue(mlirStringRefCreateFromCString("ws-pipeline"),
                           mlirStringRefCreateFromCString(ws_options ? ws_options : ""),
                           mlirStringRefCreateFromCString("cuda-path"), root, sizeof root, &diag) &&
      ptxas_assemble(o->targets[0], root, o->items[0].data, o->items[0].length, cubin, len))
    return true;
  remove(path); /* a failed run leaves no output */
  return false;
}

static bool emit_launcher(MlirModule module, MlirStringRef source, const char *ws_options,
                          run_pipeline_fn run, void *driver, const char *base, bool keep_ptx) {
  char text[1024];
  WsKernelInfo *kernels = NULL;
  pipeline(text, sizeof text, ws_options, "stage=plan");
  if (!run(driver, module, text))
    return false;
  intptr_t n = wsCollectKernelInfo(mlirModuleGetOperation(module), source, &kernels);
  bool ok = n > 0;
  if (n == 0)
    wsExplainNothingPlanned(mlirModuleGetOperation(module), "there is nothing to launch");
  pipeline(text, sizeof text, ws_options,
           keep_ptx ? WS_LOWER_PLANNED " format=isa" : WS_LOWER_PLANNED " format=bin");
  ok = ok && run(driver, module, text);
  objects o = ok ? find_objects(module) : (objects){.n = 0};
  if (ok && o.n != 1) {
    fprintf(stderr, "ws-opt: error: --emit=launcher takes one gpu.module, found %d\n", o.n);
    ok = false;
  }
  unsigned char *assembled = NULL;
  size_t len = 0;
  if (ok && keep_ptx)
    ok = keep_ptx_and_assemble(&o, ws_options, base, &assembled, &len);
  ok = ok && launcher_write(base, kernels, (int)n,
                            keep_ptx ? assembled : (const unsigned char *)o.items[0].data,
                            keep_ptx ? len : o.items[0].length);
  free(assembled);
  wsKernelInfoFree(kernels, n);
  return ok;
}

bool emit_run(emit_kind kind, MlirModule module, MlirStringRef source, const char *ws_options,
              run_pipeline_fn run, void *driver, FILE *out, const char *output_base,
              bool keep_ptx) {
  if (kind == EMIT_LAUNCHER)
    return emit_launcher(module, source, ws_options, run, driver, output_base, keep_ptx);
  char text[1024];
  if (kind == EMIT_PLAN) {
    pipeline(text, sizeof text, ws_options, "stage=plan");
    if (!run(driver, module, text))
      return false;
    if (plan_json_write(module, out))
      return true;
    wsExplainNothingPlanned(mlirModuleGetOperation(module), "there is no plan to write");
    return false;
  }
  static const char *const formats[] = {"", "format=none", "format=llvm", "format=isa",
                                        "format=bin"};
  pipeline(text, sizeof text, ws_options, formats[kind]);
  if (!run(driver, module, text))
    return false;
  if (kind == EMIT_MLIR)
    return true; /* the caller prints the module */
  return write_objects(module, kind, out);
}
