/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Compiling in-process through the public C API (ws-c/Compile.h): the
 * example add kernel to PTX with its launch data, then sources that are
 * refused, each with its diagnostics located in the caller's file name.
 *
 * RUN: ws-capi-compile-test %ws_src/integration/add.mlir | FileCheck %s
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "Inputs/read_file.h"

#include "ws-c/Compile.h"

static const char *const kinds[] = {"scalar", "descriptor", "array"};

/* Compiles `source` and prints what came back. */
static void compile_and_print(const char *label, const char *source, const char *options) {
  printf("%s:\n", label);
  WsCompiled c =
      wsCompile(mlirStringRefCreateFromCString(source), mlirStringRefCreateFromCString("user.mlir"),
                mlirStringRefCreateFromCString(options));
  printf("succeeded=%d\n", wsCompiledSucceeded(c));
  MlirStringRef ptx = wsCompiledGetPTX(c);
  printf("ptx: %s\n", ptx.length && strstr(ptx.data, ".entry add") ? ".entry add" : "none");
  for (intptr_t k = 0; k < wsCompiledGetNumKernels(c); k++) {
    const WsKernelInfo *info = wsCompiledGetKernel(c, k);
    printf("kernel %s threads=%d smem=%d blocks_per_sm=%d persistent=%d args=%d\n", info->name,
           info->block_threads, info->shared_memory_bytes, info->blocks_per_sm, info->persistent,
           info->num_args);
    for (int i = 0; i < info->num_args; i++) {
      const WsKernelArg *a = &info->args[i];
      printf("  arg%d %%%s %s", i, a->name, kinds[a->kind]);
      if (a->kind == WsArgDescriptor)
        printf(" %s box=%lldx%lld swizzle=%d view=%d", wsDtypeGetName(a->dtype),
               (long long)a->box[0], (long long)a->box[1], a->swizzle, a->view);
      else
        printf(" scalar=%d divisor=%lld", a->scalar, (long long)a->divisor);
      printf("\n");
    }
  }
  printf("kernel 1: %s\n", wsCompiledGetKernel(c, 1) ? "present" : "none");
  for (intptr_t i = 0; i < wsCompiledGetNumDiagnostics(c); i++) {
    WsCompileDiagnostic d = wsCompiledGetDiagnostic(c, i);
    if (d.severity == MlirDiagnosticRemark)
      continue;
    printf("diag %d %.*s:%d:%d %.*s\n", (int)d.severity, (int)d.file.length, d.file.data, d.line,
           d.column, (int)d.message.length, d.message.data);
  }
  wsCompiledDestroy(c);
}

int main(int argc, char **argv) {
  char *add = argc > 1 ? read_file(argv[1]) : NULL;
  if (!add) {
    fprintf(stderr, "usage: ws-capi-compile-test add.mlir\n");
    return 2;
  }
  // CHECK-LABEL: add:
  // CHECK-NEXT: succeeded=1
  // CHECK-NEXT: ptx: .entry add
  // CHECK-NEXT: kernel add threads=256 smem=82016 blocks_per_sm=2 persistent=0 args=4
  // CHECK-NEXT:   arg0 %a descriptor f32 box=32x64 swizzle=0 view=0
  // CHECK-NEXT:   arg1 %b descriptor f32 box=32x64 swizzle=0 view=0
  // CHECK-NEXT:   arg2 %c descriptor f32 box=32x64 swizzle=0 view=1
  // CHECK-NEXT:   arg3 %ynumel scalar scalar=1 divisor=1
  // CHECK-NEXT: kernel 1: none
  // CHECK-NOT: diag
  compile_and_print("add", add, "chip=sm_90a");

  /* With explain=true the remarks come too; they are not printed here. */
  // CHECK-LABEL: explained:
  // CHECK-NEXT: succeeded=1
  compile_and_print("explained", add, "explain=true");

  // CHECK-LABEL: syntax:
  // CHECK-NEXT: succeeded=0
  // CHECK-NEXT: ptx: none
  // CHECK-NEXT: kernel 1: none
  // CHECK-NEXT: diag 0 user.mlir:2:10 use of undeclared SSA value name
  compile_and_print("syntax", "func.func @f() {\n  return %nope : i32\n}\n", "");

  // CHECK-LABEL: nothing marked:
  // CHECK: diag 0 user.mlir:1:1 no loop is marked ws.warp_specialize and no gpu.func is a kernel; there is nothing to compile
  compile_and_print("nothing marked", "module {\n}\n", "");

  // CHECK-LABEL: reserved option:
  // CHECK: diag 0 :0:0 option 'format' is set by the compile itself
  compile_and_print("reserved option", add, "chip=sm_90a format=bin");

  // CHECK-LABEL: bad option:
  // CHECK: succeeded=0
  // CHECK: diag 0
  compile_and_print("bad option", add, "no-such-option=1");

  /* 64 x 8192 f32 tiles overflow shared memory: a pass's located error. */
  char *big = malloc(strlen(add) + 64);
  strcpy(big, add);
  for (char *p = strstr(big, "32x64xf32"); p; p = strstr(p, "32x64xf32")) {
    memmove(p + 11, p + 9, strlen(p + 9) + 1);
    memcpy(p, "64x8192xf32", 11);
  }
  // CHECK-LABEL: too big:
  // CHECK: succeeded=0
  // CHECK: diag 0 user.mlir:{{[0-9]+}}:{{[0-9]+}} {{.*}}shared memory
  compile_and_print("too big", big, "");
  free(big);

  char deep[1200] = "module {";
  memset(deep + 8, '(', 600);
  deep[608] = '\0';
  // CHECK-LABEL: deep:
  // CHECK: diag 0 user.mlir:1:520 the input nests brackets more than 512 deep
  compile_and_print("deep", deep, "");

  /* A template's source is refused at its first field, not parsed: a "${"
   * in a comment or a string is no field. */
  // CHECK-LABEL: template:
  // CHECK: succeeded=0
  // CHECK: diag 0 user.mlir:2:28 '${' begins a template field: this is a ws.Template's source
  compile_and_print("template", "// ${A} \"${B}\"\nmodule { func.func @f() -> ${T} }", "");
  // CHECK-LABEL: not a field:
  // CHECK-NOT: template field
  // CHECK: diag 0 user.mlir:2:1 'builtin.module' op has unknown attribute 'ws.s'
  compile_and_print("not a field", "// ${A}\nmodule attributes {ws.s = \"${B}\"} {}", "");
  free(add);
  return 0;
}
