// RUN: ws-opt --split-input-file --pass-pipeline='builtin.module(ws-partition-schedule)' %s 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err
// Loops the scheduler cannot specialize are left as they were (no ws
// attribute added) with a remark at the loop saying why; the run succeeds.

// CHECK-LABEL: gpu.func @no_load
// CHECK-NOT: ws.partition
// CHECK: } {ws.warp_specialize}
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @no_load(%c: !ws.tensor_desc<tensor<32x64xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %zero = arith.constant dense<0.0> : tensor<32x64xf32>
      // REMARK: partition-schedule-remarks.mlir:[[@LINE+1]]:7: remark: loop not warp-specialized: it has no ws.load, so there is nothing for a producer partition to do
      scf.for %y = %c0 to %n step %c64 : i32 {
        %z = arith.addf %zero, %zero : tensor<32x64xf32>
        "ws.store"(%c, %c0, %y, %z) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

