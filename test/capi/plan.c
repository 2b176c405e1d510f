/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Reading a plan through the public C API (ws-c/Plan.h): the example add
 * kernel goes through ws-pipeline{stage=plan}, then every table the passes
 * recorded is read back. Then ws-check-protocol, created by name, proves the
 * protocol, and rejects it once an arrive is deleted.
 *
 * RUN: ws-capi-plan-test %ws_src/integration/add.mlir 2>&1 | FileCheck %s
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "Inputs/read_file.h"

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"
#include "ws-c/Dialect.h"
#include "ws-c/Passes.h"
#include "ws-c/Plan.h"

static void print_to_stdout(MlirStringRef s, void *unused) {
  (void)unused;
  fwrite(s.data, 1, s.length, stdout);
}

typedef struct op_search {
  const char *name;
  MlirOperation found;
} op_search;

static MlirWalkResult find_op(MlirOperation op, void *user_data) {
  op_search *s = user_data;
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (name.length == strlen(s->name) && memcmp(name.data, s->name, name.length) == 0) {
    s->found = op;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

/* The first op named `name` under `root`, or a null op. */
static MlirOperation first_op(MlirOperation root, const char *name) {
  op_search s = {name, {NULL}};
  mlirOperationWalk(root, find_op, &s, MlirWalkPreOrder);
  return s.found;
}

static void print_remark(MlirLocation loc, MlirStringRef message, void *unused) {
  (void)loc;
  (void)unused;
  fputs("remark: ", stdout);
  print_to_stdout(message, NULL);
  fputc('\n', stdout);
}

static MlirLogicalResult print_diagnostic(MlirDiagnostic d, void *unused) {
  (void)unused;
  fputs("diagnostic: ", stdout);
  mlirDiagnosticPrint(d, print_to_stdout, NULL);
  fputc('\n', stdout);
  return mlirLogicalResultSuccess();
}

/* Runs ws-check-protocol{explain=true} on the module; 1 when it proves it. */
static int check_protocol(MlirContext ctx, MlirModule module) {
  WsDiagnostics diag = {print_to_stdout, print_remark, NULL};
  MlirPass check = wsCreatePass(mlirStringRefCreateFromCString("ws-check-protocol"),
                                mlirStringRefCreateFromCString("explain=true"), &diag);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  mlirPassManagerAddOwnedPass(pm, check);
  MlirLogicalResult r = mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  mlirPassManagerDestroy(pm);
  return mlirLogicalResultIsSuccess(r);
}

static void print_plan(MlirOperation func) {
  WsPlan plan = wsPlanCreate(func);
  if (wsPlanIsNull(plan)) {
    puts("no plan");
    return;
  }
  WsPlanKernel k = wsPlanGetKernel(plan);
  printf("kernel: threads=%d smem=%d maxnreg=%d blocks/SM=%d\n", k.block_threads,
         k.shared_memory_bytes, k.max_registers, k.blocks_per_sm);
  for (intptr_t i = 0; i < wsPlanGetNumPartitions(plan); i++) {
    WsPlanPartition p = wsPlanGetPartition(plan, i);
    printf("partition %d: %s (%s) warps=%d registers=%d first_warp=%d\n", (int)i, p.name, p.role,
           p.num_warps, p.registers, p.first_warp);
  }
  for (intptr_t i = 0; i < wsPlanGetNumRings(plan); i++) {
    WsPlanRing r = wsPlanGetRing(plan, i);
    printf("ring %d: ", (int)i);
    mlirTypePrint(r.tile, print_to_stdout, NULL);
    printf(" channel=%d offset=%d slot=%d align=%d swizzle=%d\n", r.channel, r.offset, r.slot_bytes,
           r.align, r.swizzle);
  }
  for (intptr_t i = 0; i < wsPlanGetNumChannels(plan); i++) {
    WsPlanChannel c = wsPlanGetChannel(plan, i);
    printf("channel %d: %d->%d depth=%d full@%d empty@%d arrivals=%d/%d tx=%d "
           "phases=%d/%d fences=%d/%d drain=%d\n",
           (int)i, c.from, c.to, c.depth, c.full, c.empty, c.full_arrivals, c.empty_arrivals,
           c.expect_tx, c.producer_phase, c.consumer_phase, c.release_fence, c.publish_fence,
           c.drain);
  }
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  printf("swizzle of %%a: %d\n", wsPlanGetDescriptorSwizzle(plan, mlirBlockGetArgument(entry, 0)));
  wsPlanDestroy(plan);
}

int main(int argc, char **argv) {
  char *kernel = argc == 2 ? read_file(argv[1]) : NULL;
  if (!kernel) {
    fprintf(stderr, "usage: ws-capi-plan-test KERNEL.mlir\n");
    return 2;
  }
  mlirRegisterAllPasses();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  if (mlirLogicalResultIsFailure(wsContextLoadDialect(ctx)))
    return 1;
  MlirModule module = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kernel));
  MlirOperation func = first_op(mlirModuleGetOperation(module), "gpu.func");

  /* Before any pass there is no plan. */
  print_plan(func);
  // CHECK: no plan

  MlirPassManager pm = mlirPassManagerCreate(ctx);
  WsDiagnostics diag = {print_to_stdout, NULL, NULL};
  if (mlirLogicalResultIsFailure(wsAddPipeline(mlirPassManagerGetAsOpPassManager(pm),
                                               mlirStringRefCreateFromCString("stage=plan"),
                                               &diag)) ||
      mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module)))) {
    puts("pipeline failed");
    return 1;
  }
  print_plan(func);
  // CHECK: kernel: threads=256 smem=82016 maxnreg=128 blocks/SM=2
  // CHECK: partition 0: load (load) warps=1 registers=24 first_warp=4
  // CHECK: partition 1: compute (compute) warps=4 registers=232 first_warp=0
  // CHECK: partition 2: store (store) warps=1 registers=24 first_warp=5
  // CHECK: ring 0: tensor<32x64xf32> channel=0 offset=0 slot=8192 align=128 swizzle=0
  // CHECK: ring 1: tensor<32x64xf32> channel=0 offset=32768 slot=8192 align=128 swizzle=0
  // CHECK: ring 2: tensor<32x64xf32> channel=1 offset=65536 slot=8192 align=128 swizzle=0
  // CHECK: channel 0: 0->1 depth=4 full@81920 empty@81952 arrivals=1/128 tx=16384 phases=1/0 fences=1/0 drain=0
  // CHECK: channel 1: 1->2 depth=2 full@81984 empty@82000 arrivals=128/1 tx=0 phases=1/0 fences=0/1 drain=1
  // CHECK: swizzle of %a: 0
  mlirPassManagerDestroy(pm);

  printf("proved: %d\n", check_protocol(ctx, module));
  // CHECK: remark: protocol proved: 2 channel(s), 3 ring(s), trip counts 0 to 10
  // CHECK: proved: 1
  MlirOperation arrive = first_op(mlirModuleGetOperation(module), "ws.arrive");
  mlirOperationDestroy(arrive);
  mlirContextAttachDiagnosticHandler(ctx, print_diagnostic, NULL, NULL);
  printf("proved: %d\n", check_protocol(ctx, module));
  // CHECK: diagnostic: 'ws.wait' op breaks the protocol rule 'balance'
  // CHECK: proved: 0
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  free(kernel);
  return 0;
}
