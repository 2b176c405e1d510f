// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The sum of two tensors written to 12 outputs: a kernel of many stores,
// whose stores share one function for their ragged-edge element path
// (more than 8 TMA stores a kernel: lower_to_nvvm_internal.h).
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @fanout_12(%a: !ws.tensor_desc<tensor<32x64xf32>>, %b: !ws.tensor_desc<tensor<32x64xf32>>, %o0: !ws.tensor_desc<tensor<32x64xf32>>, %o1: !ws.tensor_desc<tensor<32x64xf32>>, %o2: !ws.tensor_desc<tensor<32x64xf32>>, %o3: !ws.tensor_desc<tensor<32x64xf32>>, %o4: !ws.tensor_desc<tensor<32x64xf32>>, %o5: !ws.tensor_desc<tensor<32x64xf32>>, %o6: !ws.tensor_desc<tensor<32x64xf32>>, %o7: !ws.tensor_desc<tensor<32x64xf32>>, %o8: !ws.tensor_desc<tensor<32x64xf32>>, %o9: !ws.tensor_desc<tensor<32x64xf32>>, %o10: !ws.tensor_desc<tensor<32x64xf32>>, %o11: !ws.tensor_desc<tensor<32x64xf32>>,
                        %n: i32) kernel attributes {ws.num_warps = 4 : i32} {
      %pid = gpu.block_id x
      %pid32 = arith.index_cast %pid : index to i32
      %c0 = arith.constant 0 : i32
      %c32 = arith.constant 32 : i32
      %c64 = arith.constant 64 : i32
      %x = arith.muli %pid32, %c32 : i32
      scf.for %y = %c0 to %n step %c64 : i32 {
        %ta = "ws.load"(%a, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %tb = "ws.load"(%b, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %tc = arith.addf %ta, %tb : tensor<32x64xf32>
        "ws.store"(%o0, %x, %y, %tc) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
        "ws.store"(%o1, %x, %y, %tc) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
        "ws.store"(%o2, %x, %y, %tc) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
        "ws.store"(%o3, %x, %y, %tc) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
        "ws.store"(%o4, %x, %y, %tc) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
        "ws.store"(%o5, %x, %y, %tc) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
        "ws.store"(%o6, %x, %y, %tc) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
        "ws.store"(%o7, %x, %y, %tc) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
        "ws.store"(%o8, %x, %y, %tc) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
        "ws.store"(%o9, %x, %y, %tc) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
        "ws.store"(%o10, %x, %y, %tc) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
        "ws.store"(%o11, %x, %y, %tc) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
