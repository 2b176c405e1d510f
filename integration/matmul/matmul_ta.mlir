// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// C = A^T @ B^T with A given K x M (ws.dot's transpose_a: wgmma reads the
// shared-memory tile M-major) and B N x K (transpose_b), on 128x128x64
// tiles, one block per tile (grid ceil(M / 128) x ceil(N / 128)):
// @matmul_ta_w8 on two consumer warpgroups of 64 rows each (f16),
// @matmul_ta_w4 on one of 128 rows, two m64 parts (bf16). A's K x M rows
// are read as boxes of 64 columns of M.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @matmul_ta_w8(%a: !ws.tensor_desc<tensor<64x128xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>,
                        %c: !ws.tensor_desc<tensor<128x128xf16>>, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bxi = arith.index_cast %bx : index to i32
      %byi = arith.index_cast %by : index to i32
      %m = arith.muli %bxi, %c128 : i32
      %n = arith.muli %byi, %c128 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
        %ta = "ws.load"(%a, %k, %m) : (!ws.tensor_desc<tensor<64x128xf16>>, i32, i32) -> tensor<64x128xf16>
        %tb = "ws.load"(%b, %n, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_a, transpose_b} : (tensor<64x128xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
      "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      gpu.return
    }
    gpu.func @matmul_ta_w4(%a: !ws.tensor_desc<tensor<64x128xbf16>>, %b: !ws.tensor_desc<tensor<128x64xbf16>>,
                        %c: !ws.tensor_desc<tensor<128x128xbf16>>, %K: i32) kernel
        attributes {ws.num_warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bxi = arith.index_cast %bx : index to i32
      %byi = arith.index_cast %by : index to i32
      %m = arith.muli %bxi, %c128 : i32
      %n = arith.muli %byi, %c128 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
        %ta = "ws.load"(%a, %k, %m) : (!ws.tensor_desc<tensor<64x128xbf16>>, i32, i32) -> tensor<64x128xbf16>
        %tb = "ws.load"(%b, %n, %k) : (!ws.tensor_desc<tensor<128x64xbf16>>, i32, i32) -> tensor<128x64xbf16>
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_a, transpose_b} : (tensor<64x128xbf16>, tensor<128x64xbf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xbf16>
      "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<128x128xbf16>>, i32, i32, tensor<128x128xbf16>) -> ()
      gpu.return
    }
  }
}
