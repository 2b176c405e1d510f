// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Two parts of work that share no tile, c = a + b and e = exp(d) * 2:
// with ws.split_compute = true each runs in a compute partition of its own
// (compute, compute1), 4 warps each, fed by the one load warp and drained
// by the one store warp.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @two_parts(%a: !ws.tensor_desc<tensor<32x64xf32>>, %b: !ws.tensor_desc<tensor<32x64xf32>>,
                        %c: !ws.tensor_desc<tensor<32x64xf32>>, %d: !ws.tensor_desc<tensor<32x64xf32>>,
                        %e: !ws.tensor_desc<tensor<32x64xf32>>, %n: i32) kernel
        attributes {ws.num_warps = 4 : i32} {
      %pid = gpu.block_id x
      %pid32 = arith.index_cast %pid : index to i32
      %c0 = arith.constant 0 : i32
      %c32 = arith.constant 32 : i32
      %c64 = arith.constant 64 : i32
      %x = arith.muli %pid32, %c32 : i32
      scf.for %y = %c0 to %n step %c64 : i32 {
        %ta = "ws.load"(%a, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %tb = "ws.load"(%b, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %td = "ws.load"(%d, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %tc = arith.addf %ta, %tb : tensor<32x64xf32>
        %ex = math.exp %td : tensor<32x64xf32>
        %two = arith.constant dense<2.0> : tensor<32x64xf32>
        %te = arith.mulf %ex, %two : tensor<32x64xf32>
        "ws.store"(%c, %x, %y, %tc) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
        "ws.store"(%e, %x, %y, %te) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize, ws.split_compute = true}
      gpu.return
    }
  }
}
