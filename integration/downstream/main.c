/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws-downstream: compiles the example add kernel to a cubin with an
 * installed ws, through the C APIs only: its own MlirContext with the ws
 * dialect loaded, canonicalize and cse (upstream) before ws-pipeline, and
 * the cubin taken out of the gpu.binary the pipeline leaves.
 *   Usage: ws-downstream OUT.cubin */
#include <stdio.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Dialect/GPU.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"
#include "mlir-c/Transforms.h"
#include "ws-c/Dialect.h"
#include "ws-c/Passes.h"
#include "ws-c/Version.h"

static const char add_kernel[] =
    "module attributes {gpu.container_module} {\n"
    "  gpu.module @kernels [#nvvm.target<chip = \"sm_90a\">] {\n"
    "    gpu.func @add(%a: !ws.tensor_desc<tensor<32x64xf32>>, %b: !ws.tensor_desc<tensor<32x64xf32>>,\n"
    "                  %c: !ws.tensor_desc<tensor<32x64xf32>>, %ynumel: i32) kernel\n"
    "        attributes {ws.num_warps = 4 : i32} {\n"
    "      %pid = gpu.block_id x\n"
    "      %pid32 = arith.index_cast %pid : index to i32\n"
    "      %c0 = arith.constant 0 : i32\n"
    "      %c32 = arith.constant 32 : i32\n"
    "      %c64 = arith.constant 64 : i32\n"
    "      %x = arith.muli %pid32, %c32 : i32\n"
    "      scf.for %y = %c0 to %ynumel step %c64 : i32 {\n"
    "        %ta = \"ws.load\"(%a, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>\n"
    "        %tb = \"ws.load\"(%b, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>\n"
    "        %tc = arith.addf %ta, %tb : tensor<32x64xf32>\n"
    "        \"ws.store\"(%c, %x, %y, %tc) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()\n"
    "      } {ws.warp_specialize}\n"
    "      gpu.return\n"
    "    }\n"
    "  }\n"
    "}\n";

static void print_out(MlirStringRef s, void *unused) {
  (void)unused;
  fwrite(s.data, 1, s.length, stdout);
}

static void print_error(MlirStringRef s, void *unused) {
  (void)unused;
  fprintf(stderr, "%.*s\n", (int)s.length, s.data);
}

static MlirWalkResult find_binary(MlirOperation op, void *found) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (name.length == 10 && memcmp(name.data, "gpu.binary", 10) == 0) {
    *(MlirOperation *)found = op;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

/* Writes the cubin of the module's gpu.binary to `path`. */
static int write_cubin(MlirModule module, const char *path) {
  MlirOperation binary = {NULL};
  mlirOperationWalk(mlirModuleGetOperation(module), find_binary, &binary, MlirWalkPreOrder);
  if (mlirOperationIsNull(binary)) {
    fputs("ws-downstream: no gpu.binary\n", stderr);
    return 1;
  }
  MlirAttribute objects =
      mlirOperationGetAttributeByName(binary, mlirStringRefCreateFromCString("objects"));
  MlirStringRef cubin = mlirGPUObjectAttrGetObject(mlirArrayAttrGetElement(objects, 0));
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(cubin.data, 1, cubin.length, f) != cubin.length) {
    fprintf(stderr, "ws-downstream: cannot write %s\n", path);
    if (f)
      fclose(f);
    return 1;
  }
  fclose(f);
  printf("wrote %s: %zu bytes\n", path, cubin.length);
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fputs("usage: ws-downstream OUT.cubin\n", stderr);
    return 2;
  }
  MlirStringRef version = wsGetVersion();
  printf("ws %.*s\n", (int)version.length, version.data);

  mlirRegisterAllPasses(); /* the ws pipeline names its upstream lowering */
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirRegisterAllLLVMTranslations(ctx); /* gpu-module-to-binary translates to LLVM IR */
  int status = 1;
  if (mlirLogicalResultIsFailure(wsContextLoadDialect(ctx))) {
    fputs("ws-downstream: the ws dialect does not load\n", stderr);
    goto done;
  }
  MlirModule module = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(add_kernel));
  if (mlirModuleIsNull(module))
    goto done;

  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  mlirPassManagerAddOwnedPass(pm, mlirCreateTransformsCanonicalizer());
  mlirPassManagerAddOwnedPass(pm, mlirCreateTransformsCSE());
  WsDiagnostics diag = {print_error, NULL, NULL};
  if (mlirLogicalResultIsFailure(
          wsAddPipeline(opm, mlirStringRefCreateFromCString("chip=sm_90a"), &diag))) {
    mlirPassManagerDestroy(pm);
    mlirModuleDestroy(module);
    goto done;
  }
  fputs("pipeline: ", stdout);
  mlirPrintPassPipeline(opm, print_out, NULL);
  fputc('\n', stdout);
  if (mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module))))
    status = write_cubin(module, argv[1]);
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
done:
  mlirContextDestroy(ctx);
  return status;
}
