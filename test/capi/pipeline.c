/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* A host program that uses only the public ws C API and the MLIR C API: it
 * loads the dialect into its own context, builds a pipeline that mixes
 * upstream passes with ws-verify, and runs it on a kernel it parses.
 *
 * RUN: ws-capi-test 2>&1 | FileCheck %s
 */
#include <stdio.h>
#include <string.h>

#include "mlir-c/Diagnostics.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"
#include "mlir-c/Transforms.h"
#include "ws-c/Dialect.h"
#include "ws-c/Passes.h"

static const char kernel[] =
    "module attributes {gpu.container_module} {\n"
    "  gpu.module @k [#nvvm.target<chip = \"sm_90a\">] {\n"
    "    gpu.func @copy(%in: !ws.tensor_desc<tensor<64x64xf16>>,\n"
    "                   %out: !ws.tensor_desc<tensor<64x64xf16>>) kernel {\n"
    "      %c0 = arith.constant 0 : i32\n"
    "      %unused = arith.addi %c0, %c0 : i32\n"
    "      %t = \"ws.load\"(%in, %c0, %c0) : (!ws.tensor_desc<tensor<64x64xf16>>, i32, i32) -> tensor<64x64xf16>\n"
    "      \"ws.store\"(%out, %c0, %c0, %t) : (!ws.tensor_desc<tensor<64x64xf16>>, i32, i32, tensor<64x64xf16>) -> ()\n"
    "      gpu.return\n"
    "    }\n"
    "  }\n"
    "}\n";

static void print_to_stdout(MlirStringRef s, void *unused) {
  (void)unused;
  fwrite(s.data, 1, s.length, stdout);
}

static MlirLogicalResult print_diagnostic(MlirDiagnostic d, void *unused) {
  (void)unused;
  fputs("diagnostic: ", stdout);
  mlirDiagnosticPrint(d, print_to_stdout, NULL);
  fputc('\n', stdout);
  return mlirLogicalResultSuccess();
}

static MlirContext make_context(void) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirContextAttachDiagnosticHandler(ctx, print_diagnostic, NULL, NULL);
  return ctx;
}

/* Runs canonicalize, ws-verify{chip}, cse on the kernel; returns 0 when
 * the pipeline succeeded. */
static int run_mixed_pipeline(MlirContext ctx, const char *verify_options) {
  MlirModule module = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kernel));
  if (mlirModuleIsNull(module)) {
    puts("parse failed");
    return 1;
  }
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  mlirPassManagerAddOwnedPass(pm, mlirCreateTransformsCanonicalizer());
  WsDiagnostics diag = {print_to_stdout, NULL, NULL};
  MlirPass verify = wsCreateVerifyPass(mlirStringRefCreateFromCString(verify_options), &diag);
  if (!verify.ptr) {
    puts("\ncreate failed");
    mlirPassManagerDestroy(pm);
    mlirModuleDestroy(module);
    return 1;
  }
  mlirPassManagerAddOwnedPass(pm, verify);
  mlirPassManagerAddOwnedPass(pm, mlirCreateTransformsCSE());
  MlirStringCallback pipe = print_to_stdout;
  fputs("pipeline: ", stdout);
  mlirPrintPassPipeline(opm, pipe, NULL);
  fputc('\n', stdout);
  MlirLogicalResult r = mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  if (mlirLogicalResultIsSuccess(r))
    mlirOperationPrint(mlirModuleGetOperation(module), print_to_stdout, NULL);
  fputc('\n', stdout);
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  return mlirLogicalResultIsSuccess(r) ? 0 : 1;
}

static MlirType parse_type(MlirContext ctx, const char *text) {
  return mlirTypeParseGet(ctx, mlirStringRefCreateFromCString(text));
}

static void print_op_summary(const char *what, MlirOperation op) {
  printf("%s: ", what);
  print_to_stdout(mlirIdentifierStr(mlirOperationGetName(op)), NULL);
  printf(" operands=%d verifies=%d", (int)mlirOperationGetNumOperands(op), mlirOperationVerify(op));
  if (mlirOperationGetNumResults(op) == 1) {
    fputs(" result=", stdout);
    mlirTypePrint(mlirValueGetType(mlirOperationGetResult(op, 0)), print_to_stdout, NULL);
  }
  fputc('\n', stdout);
}

/* Builds each ws op with the dialect helpers inside a detached block whose
 * arguments stand in for kernel values. */
static void build_ops(MlirContext ctx) {
  MlirLocation loc = mlirLocationUnknownGet(ctx);
  MlirType box = parse_type(ctx, "tensor<64x64xf16>");
  MlirType types[4] = {wsTensorDescTypeGet(box), mlirIntegerTypeGet(ctx, 32), box,
                       parse_type(ctx, "tensor<64x64xf32>")};
  MlirLocation locs[4] = {loc, loc, loc, loc};
  MlirBlock block = mlirBlockCreate(4, types, locs);
  MlirValue desc = mlirBlockGetArgument(block, 0);
  MlirValue coords[2] = {mlirBlockGetArgument(block, 1), mlirBlockGetArgument(block, 1)};
  MlirOperation load = wsLoadOpCreate(loc, desc, 2, coords);
  mlirBlockAppendOwnedOperation(block, load);
  MlirOperation store = wsStoreOpCreate(loc, desc, 2, coords, mlirOperationGetResult(load, 0));
  mlirBlockAppendOwnedOperation(block, store);
  MlirValue tile = mlirBlockGetArgument(block, 2);
  MlirOperation dot = wsDotOpCreate(loc, tile, tile, mlirBlockGetArgument(block, 3), true);
  mlirBlockAppendOwnedOperation(block, dot);
  print_op_summary("load", load);
  print_op_summary("store", store);
  print_op_summary("dot", dot);
  printf("isa: load=%d store=%d dot=%d in-dialect=%d\n", wsOperationIsA(load, "load"),
         wsOperationIsA(store, "store"), wsOperationIsA(dot, "dot") && !wsOperationIsA(dot, "load"),
         wsOperationIsInDialect(dot));
  printf("transpose_b=%d\n", !mlirAttributeIsNull(mlirOperationGetAttributeByName(
                                 dot, mlirStringRefCreateFromCString("transpose_b"))));
  /* A load from something that is not a descriptor is refused. */
  MlirOperation bad = wsLoadOpCreate(loc, tile, 2, coords);
  printf("load from a tensor: null=%d\n", mlirOperationIsNull(bad));
  printf("byte widths: f16=%d f32=%d f64=%d\n", wsElementTypeByteWidth(mlirF16TypeGet(ctx)),
         wsElementTypeByteWidth(mlirF32TypeGet(ctx)), wsElementTypeByteWidth(mlirF64TypeGet(ctx)));
  /* The element-type table the launcher numbers its ws_dtype by. */
  MlirType elements[] = {mlirF32TypeGet(ctx),          mlirBF16TypeGet(ctx),
                         mlirFloat8E4M3FNTypeGet(ctx), mlirIntegerTypeGet(ctx, 8),
                         mlirF64TypeGet(ctx),          mlirIntegerTypeSignedGet(ctx, 32)};
  for (size_t i = 0; i < sizeof elements / sizeof elements[0]; i++) {
    WsDtype d = wsElementTypeGetDtype(elements[i]);
    const char *map = wsDtypeGetTensorMapType(d);
    printf("dtype %d: %s bytes=%d map=%s\n", (int)d, wsDtypeGetName(d) ? wsDtypeGetName(d) : "-",
           wsDtypeGetByteWidth(d), map ? map : "-");
  }
  printf("dtype count=%d past-the-end=%s\n", (int)WsDtypeCount,
         wsDtypeGetName(WsDtypeCount) ? "named" : "NULL");
  mlirBlockDestroy(block);
}

int main(void) {
  mlirRegisterAllPasses(); /* ws-pipeline's lowering half names upstream passes */
  MlirContext ctx = make_context();
  printf("loaded before: %d\n", wsContextIsDialectLoaded(ctx));
  if (mlirLogicalResultIsFailure(wsContextLoadDialect(ctx)) ||
      mlirLogicalResultIsFailure(wsContextLoadDialect(ctx))) {
    puts("load failed");
    return 1;
  }
  printf("loaded after: %d\n", wsContextIsDialectLoaded(ctx));
  // CHECK: loaded before: 0
  // CHECK: loaded after: 1

  /* The type helpers round-trip a descriptor. */
  MlirType box = mlirTypeParseGet(ctx, mlirStringRefCreateFromCString("tensor<32x64xf32>"));
  MlirType desc = wsTensorDescTypeGet(box);
  mlirTypePrint(desc, print_to_stdout, NULL);
  printf(" is-desc=%d box-equal=%d\n", wsTypeIsATensorDesc(desc),
         mlirTypeEqual(wsTensorDescTypeGetBox(desc), box));
  // CHECK: !ws.tensor_desc<tensor<32x64xf32>> is-desc=1 box-equal=1

  build_ops(ctx);
  // CHECK: load: ws.load operands=3 verifies=1 result=tensor<64x64xf16>
  // CHECK: store: ws.store operands=4 verifies=1
  // CHECK: dot: ws.dot operands=3 verifies=1 result=tensor<64x64xf32>
  // CHECK: isa: load=1 store=1 dot=1 in-dialect=1
  // CHECK: transpose_b=1
  // CHECK: load from a tensor: null=1
  // CHECK: byte widths: f16=2 f32=4 f64=0
  // CHECK-NEXT: dtype 1: f32 bytes=4 map=CU_TENSOR_MAP_DATA_TYPE_FLOAT32
  // CHECK-NEXT: dtype 3: bf16 bytes=2 map=CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
  // CHECK-NEXT: dtype 4: f8E4M3FN bytes=1 map=CU_TENSOR_MAP_DATA_TYPE_UINT8
  // CHECK-NEXT: dtype 6: i8 bytes=1 map=CU_TENSOR_MAP_DATA_TYPE_UINT8
  // CHECK-NEXT: dtype 0: - bytes=0 map=-
  // CHECK-NEXT: dtype 0: - bytes=0 map=-
  // CHECK-NEXT: dtype count=8 past-the-end=NULL

  /* The pass list is visible. */
  for (intptr_t i = 0; i < wsGetNumPasses(); i++) {
    MlirStringRef a = wsPassGetArgument(i);
    printf("pass %.*s\n", (int)a.length, a.data);
  }
  // CHECK: pass ws-verify
  // CHECK: pass ws-pipeline

  int status = run_mixed_pipeline(ctx, "chip=sm_90a");
  printf("status %d\n", status);
  // CHECK: pipeline: {{.*}}canonicalize{{.*}}ws-verify{{.*}}cse
  // Canonicalization removed the dead addi; ws ops survive.
  // CHECK-NOT: arith.addi
  // CHECK: "ws.load"
  // CHECK: "ws.store"
  // CHECK: status 0

  /* ws-verify with a chip the module does not target fails with a located
   * error, reported through the context's diagnostics. */
  status = run_mixed_pipeline(ctx, "chip=sm_100a");
  printf("status %d\n", status);
  // CHECK: diagnostic: 'gpu.module' op targets chip "sm_90a" but the pipeline was asked for chip=sm_100a
  // CHECK: status 1

  /* A bad option is refused when the pass is created. */
  status = run_mixed_pipeline(ctx, "chip=sm_75");
  // CHECK: ws-verify: option 'chip' takes "", sm_90a or sm_100a, got 'sm_75'
  // CHECK: create failed

  /* The whole pipeline through wsAddPipeline. */
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  WsDiagnostics diag = {print_to_stdout, NULL, NULL};
  MlirLogicalResult added = wsAddPipeline(mlirPassManagerGetAsOpPassManager(pm),
                                          mlirStringRefCreateFromCString("chip=sm_90a"), &diag);
  printf("pipeline added: %d\n", mlirLogicalResultIsSuccess(added));
  mlirPrintPassPipeline(mlirPassManagerGetAsOpPassManager(pm), print_to_stdout, NULL);
  fputc('\n', stdout);
  // CHECK: pipeline added: 1
  // CHECK: ws-verify,ws-tile-order,ws-split-k,ws-partition-schedule,ws-plan-memory,ws-insert-barriers,ws-specialize,ws-check-protocol,ws-lower-to-nvvm,gpu.module(convert-scf-to-cf
  // CHECK-SAME: gpu-module-to-binary
  mlirPassManagerDestroy(pm);

  /* An option's value as a configured pipeline sees it: given, defaulted,
   * and the refusals (an option the pass lacks, a bad options text). */
  const char *asks[][2] = {{"cuda-path=/opt/cuda num-stages=4", "cuda-path"},
                           {"cuda-path=/opt/cuda num-stages=4", "num-stages"},
                           {"", "check-protocol"},
                           {"", "no-such-option"},
                           {"num-stages=99", "num-stages"}};
  for (size_t i = 0; i < sizeof asks / sizeof asks[0]; i++) {
    char value[64];
    printf("option %s of '%s': ", asks[i][1], asks[i][0]);
    if (wsPassGetOptionValue(mlirStringRefCreateFromCString("ws-pipeline"),
                             mlirStringRefCreateFromCString(asks[i][0]),
                             mlirStringRefCreateFromCString(asks[i][1]), value, sizeof value,
                             &diag))
      printf("%s", value);
    fputc('\n', stdout);
  }
  // CHECK: option cuda-path of 'cuda-path=/opt/cuda num-stages=4': /opt/cuda
  // CHECK-NEXT: option num-stages of 'cuda-path=/opt/cuda num-stages=4': 4
  // CHECK-NEXT: option check-protocol of '': true
  // CHECK-NEXT: option no-such-option of '': ws-pipeline has no option 'no-such-option' (or its value is longer than 63 bytes)
  // CHECK-NEXT: option num-stages of 'num-stages=99': ws-pipeline: option 'num-stages' takes an integer from 0 to 8
  mlirContextDestroy(ctx);
  return 0;
}
