// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// out += the sum of `splits` m x n parts stacked in parts (rows s * m + i),
// by adding each part's tiles into out as they come: ws.store with
// reduce = "add" (TMA's reduce-add; atomic adds on a ragged edge). One
// block per 32 rows of a part (block x) and part (block y).
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @reduce_add_f32(%parts: !ws.tensor_desc<tensor<32x64xf32>>, %out: !ws.tensor_desc<tensor<32x64xf32>>,
                             %m: i32, %n: i32) kernel attributes {ws.num_warps = 4 : i32} {
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %x32 = arith.index_cast %bx : index to i32
      %s32 = arith.index_cast %by : index to i32
      %c0 = arith.constant 0 : i32
      %c32 = arith.constant 32 : i32
      %c64 = arith.constant 64 : i32
      %row = arith.muli %x32, %c32 : i32
      %base = arith.muli %s32, %m : i32
      %prow = arith.addi %base, %row : i32
      scf.for %y = %c0 to %n step %c64 : i32 {
        %t = "ws.load"(%parts, %prow, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %one = arith.constant dense<1.0> : tensor<32x64xf32>
        %v = arith.mulf %t, %one : tensor<32x64xf32>
        "ws.store"(%out, %row, %y, %v) {reduce = "add"} : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
