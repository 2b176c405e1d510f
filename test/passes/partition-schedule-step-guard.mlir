// RUN: ws-opt --pass-pipeline='builtin.module(ws-partition-schedule)' %s | FileCheck %s
// RUN: ws-opt --ws-pipeline=stage=plan %ws_src/integration/matmul_persistent.mlir | FileCheck %s --check-prefix=KNOWN
// A warp-specialized loop whose step is known only at run time runs to
// `step > 0 ? ub : lb`, so that a step of 0 or below makes every
// partition's copy run no iteration instead of none ever ending.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    // CHECK-LABEL: gpu.func @add_by
    // CHECK: %[[ZERO:c0_i32_[0-9]+]] = arith.constant 0 : i32
    // CHECK-NEXT: %[[POS:.*]] = arith.cmpi sgt, %arg4, %[[ZERO]] : i32
    // CHECK-NEXT: %[[UB:.*]] = arith.select %[[POS]], %arg3, %c0_i32 : i32
    // CHECK-NEXT: scf.for %{{.*}} = %c0_i32 to %[[UB]] step %arg4
    gpu.func @add_by(%a: !ws.tensor_desc<tensor<32x64xf32>>, %b: !ws.tensor_desc<tensor<32x64xf32>>,
                     %c: !ws.tensor_desc<tensor<32x64xf32>>, %ynumel: i32,
                     %step: i32 {ws.divisibility = 4 : i32}) kernel
        attributes {ws.num_warps = 4 : i32} {
      %pid = gpu.block_id x
      %pid32 = arith.index_cast %pid : index to i32
      %c0 = arith.constant 0 : i32
      %c32 = arith.constant 32 : i32
      %x = arith.muli %pid32, %c32 : i32
      scf.for %y = %c0 to %ynumel step %step : i32 {
        %ta = "ws.load"(%a, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %tb = "ws.load"(%b, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %tc = arith.addf %ta, %tb : tensor<32x64xf32>
        "ws.store"(%c, %x, %y, %tc) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
// A constant step and the persistent tile loop's step of the grid size are
// known positive: no guard.
// KNOWN-NOT: arith.select
