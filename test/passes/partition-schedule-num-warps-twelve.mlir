// RUN: not ws-opt --pass-pipeline='builtin.module(ws-partition-schedule)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws.num_warps = 12 (three consumer warpgroups) is for a loop whose
// warpgroups take turns at their wgmmas (attention); an elementwise loop
// is refused at the loop with the counts it takes.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @add(%a: !ws.tensor_desc<tensor<32x64xf32>>, %b: !ws.tensor_desc<tensor<32x64xf32>>,
                  %c: !ws.tensor_desc<tensor<32x64xf32>>, %ynumel: i32) kernel
        attributes {ws.num_warps = 12 : i32} {
      %pid = gpu.block_id x
      %pid32 = arith.index_cast %pid : index to i32
      %c0 = arith.constant 0 : i32
      %c32 = arith.constant 32 : i32
      %c64 = arith.constant 64 : i32
      %x = arith.muli %pid32, %c32 : i32
      // CHECK: partition-schedule-num-warps-twelve.mlir:[[@LINE+1]]:7: error: 'scf.for' op has ws.num_warps = 12 on its kernel: three consumer warpgroups are for a loop whose warpgroups take turns at their wgmmas (attention: two runs of ws.dot a step, none wider than 128, not persistent); use 4 or 8
      scf.for %y = %c0 to %ynumel step %c64 : i32 {
        %ta = "ws.load"(%a, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %tb = "ws.load"(%b, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %tc = arith.addf %ta, %tb : tensor<32x64xf32>
        "ws.store"(%c, %x, %y, %tc) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
