// RUN: not ws-opt --split-input-file --pass-pipeline='builtin.module(ws-lower-to-nvvm)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// Lowering an unplanned kernel is an error, never a silent skip.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: !ws.tensor_desc<tensor<32x64xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      // CHECK: lower-to-nvvm-errors.mlir:[[@LINE+1]]:7: error: 'scf.for' op is marked ws.warp_specialize but was not planned; run ws-partition-schedule, ws-plan-memory, ws-insert-barriers and ws-specialize first (or see their remarks)
      scf.for %y = %c0 to %n step %c64 : i32 {
        %t = "ws.load"(%a, %c0, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        "ws.store"(%a, %c0, %y, %t) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
// -----
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: !ws.tensor_desc<tensor<32x64xf32>>) kernel {
      %c0 = arith.constant 0 : i32
      // CHECK: lower-to-nvvm-errors.mlir:[[@LINE+1]]:12: error: 'ws.load' op is outside any warp-specialized loop and cannot be lowered; mark its loop ws.warp_specialize
      %t = "ws.load"(%a, %c0, %c0) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
      gpu.return
    }
  }
}
