/* emit.c: the --emit modes: the ws pipeline to a chosen format, then the
 * object pulled out of each gpu.binary (PTX text, cubin bytes, LLVM bitcode
 * printed as text) or wrapped in a C launcher. */
#include "emit.h"

#include <stdlib.h>
#include <string.h>

#include "launch_info.h"
#include "launcher.h"
#include "plan_json.h"
#include "llvm-c/BitReader.h"
#include "llvm-c/Core.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Dialect/GPU.h"

bool emit_parse(const char *text, emit_kind *out) {
  static const struct { const char *name; emit_kind kind; } kinds[] = {
      {"mlir", EMIT_MLIR}, {"llvm", EMIT_LLVM}, {"ptx", EMIT_PTX},
      {"cubin", EMIT_CUBIN}, {"launcher", EMIT_LAUNCHER}, {"plan", EMIT_PLAN},
  };
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (strcmp(text, kinds[i].name) == 0) {
      *out = kinds[i].kind;
      return true;
    }
  return false;
}

typedef struct objects {
  MlirStringRef items[16];
  int n;
} objects;

static MlirWalkResult collect_object(MlirOperation op, void *user_data) {
  objects *o = user_data;
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (name.length != 10 || memcmp(name.data, "gpu.binary", 10) != 0)
    return MlirWalkResultAdvance;
  MlirAttribute list = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("objects"));
  if (!mlirAttributeIsNull(list) && mlirAttributeIsAArray(list) && o->n < 16 &&
      mlirArrayAttrGetNumElements(list) > 0) {
    MlirAttribute obj = mlirArrayAttrGetElement(list, 0);
    if (mlirAttributeIsAGPUObjectAttr(obj))
      o->items[o->n++] = mlirGPUObjectAttrGetObject(obj);
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

static bool emit_launcher(MlirModule module, const char *ws_options, run_pipeline_fn run,
                          void *driver, const char *base) {
  char text[1024];
  static launch_info kernels[LAUNCH_MAX_KERNELS];
  pipeline(text, sizeof text, ws_options, "stage=plan");
  if (!run(driver, module, text))
    return false;
  int n = launch_info_collect(mlirModuleGetOperation(module), kernels, LAUNCH_MAX_KERNELS);
  if (n < 0)
    return false;
  if (n == 0) {
    fprintf(stderr, "ws-opt: error: no kernel was warp-specialized (see the "
                    "remarks); there is nothing to launch\n");
    return false;
  }
  pipeline(text, sizeof text, ws_options, "stage=lower format=bin");
  if (!run(driver, module, text))
    return false;
  objects o = find_objects(module);
  if (o.n != 1) {
    fprintf(stderr, "ws-opt: error: --emit=launcher takes one gpu.module, found %d\n", o.n);
    return false;
  }
  return launcher_write(base, kernels, n, (const unsigned char *)o.items[0].data,
                        o.items[0].length);
}

bool emit_run(emit_kind kind, MlirModule module, const char *ws_options,
              run_pipeline_fn run, void *driver, FILE *out, const char *output_base) {
  if (kind == EMIT_LAUNCHER)
    return emit_launcher(module, ws_options, run, driver, output_base);
  char text[1024];
  if (kind == EMIT_PLAN) {
    pipeline(text, sizeof text, ws_options, "stage=plan");
    return run(driver, module, text) && plan_json_write(module, out);
  }
  static const char *const formats[] = {"", "format=none", "format=llvm",
                                        "format=isa", "format=bin"};
  pipeline(text, sizeof text, ws_options, formats[kind]);
  if (!run(driver, module, text))
    return false;
  if (kind == EMIT_MLIR)
    return true; /* the caller prints the module */
  return write_objects(module, kind, out);
}
