// Upstream and ws passes mix in one pipeline, nested under op anchors, with
// or without the builtin.module anchor; --ws-pipeline runs the whole flow.
// RUN: ws-opt --pass-pipeline='builtin.module(canonicalize, gpu.module(ws-verify, cse), ws-verify{chip=sm_90a})' %s | FileCheck %s
// RUN: ws-opt --pass-pipeline='canonicalize,ws-verify' %s | FileCheck %s
// RUN: ws-opt --pass-pipeline=' builtin.module ( gpu.module ( gpu.func ( loop-invariant-code-motion, ws-verify ) ) ) ' %s | FileCheck %s --check-prefix=KEEP
// RUN: ws-opt '--ws-pipeline=chip=sm_90a stage=plan' %s | FileCheck %s --check-prefix=KEEP
// RUN: ws-opt --ws-pipeline=stage=plan %s | FileCheck %s --check-prefix=KEEP
// RUN: not ws-opt --ws-pipeline=chip=sm_100a %s 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not ws-opt --ws-pipeline %s 2>&1 | FileCheck %s --check-prefix=LOWER
module attributes {gpu.container_module} {
  // CHIP: pipelines.mlir:[[@LINE+1]]:3: error: 'gpu.module' op targets chip "sm_90a" but the pipeline was asked for chip=sm_100a
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @copy(%in: !ws.tensor_desc<tensor<64x64xf16>>, %out: !ws.tensor_desc<tensor<64x64xf16>>) kernel {
      %c0 = arith.constant 0 : i32
      // canonicalize drops the dead add.
      // CHECK-NOT: arith.addi
      // KEEP: arith.addi
      %dead = arith.addi %c0, %c0 : i32
      // CHECK: "ws.load"
      // LOWER: pipelines.mlir:[[@LINE+1]]:12: error: 'ws.load' op is outside any warp-specialized loop and cannot be lowered
      %t = "ws.load"(%in, %c0, %c0) : (!ws.tensor_desc<tensor<64x64xf16>>, i32, i32) -> tensor<64x64xf16>
      // CHECK: "ws.store"
      "ws.store"(%out, %c0, %c0, %t) : (!ws.tensor_desc<tensor<64x64xf16>>, i32, i32, tensor<64x64xf16>) -> ()
      gpu.return
    }
  }
}
