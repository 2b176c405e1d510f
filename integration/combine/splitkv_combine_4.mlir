// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The combine of split-KV decode attention over 4 splits: each split p left
// a partial output O_p (M x 64 f32, rows of queries x head dim) and the
// log-sum-exp of each row, lse_p; the result is
//   O = sum_p exp(lse_p - max) O_p / sum_p exp(lse_p - max),
// that is, the partial outputs weighted by the softmax of their lse over
// the splits. The lse row vectors are read by the compute warps and spread
// over the rows with ws.broadcast (a row kernel without a ws.reduce).
// O_part is P x M x 64, lse_part P x M (M a multiple of 4), out M x 64;
// the blocks stride over 16-row blocks, any grid.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @splitkv_combine_4(%opart: !ws.tensor_desc<tensor<1x16x64xf32>>, %lpart: !ws.tensor_desc<tensor<1x16xf32>>,
                             %out: !ws.tensor_desc<tensor<16x64xf32>>, %m: i32) kernel
        attributes {ws.num_warps = 4 : i32} {
      %bid = gpu.block_id x
      %grid = gpu.grid_dim x
      %b = arith.index_cast %bid : index to i32
      %g = arith.index_cast %grid : index to i32
      %c0 = arith.constant 0 : i32
      %c16 = arith.constant 16 : i32
      %first = arith.muli %b, %c16 : i32
      %step = arith.muli %g, %c16 : i32
      %p0 = arith.constant 0 : i32
      %p1 = arith.constant 1 : i32
      %p2 = arith.constant 2 : i32
      %p3 = arith.constant 3 : i32
      %one = arith.constant dense<1.0> : tensor<1x16xf32>
      scf.for %r = %first to %m step %step : i32 {
        %l0 = "ws.load"(%lpart, %p0, %r) : (!ws.tensor_desc<tensor<1x16xf32>>, i32, i32) -> tensor<1x16xf32>
        %l1 = "ws.load"(%lpart, %p1, %r) : (!ws.tensor_desc<tensor<1x16xf32>>, i32, i32) -> tensor<1x16xf32>
        %l2 = "ws.load"(%lpart, %p2, %r) : (!ws.tensor_desc<tensor<1x16xf32>>, i32, i32) -> tensor<1x16xf32>
        %l3 = "ws.load"(%lpart, %p3, %r) : (!ws.tensor_desc<tensor<1x16xf32>>, i32, i32) -> tensor<1x16xf32>
        %mx1 = arith.maximumf %l0, %l1 : tensor<1x16xf32>
        %mx2 = arith.maximumf %mx1, %l2 : tensor<1x16xf32>
        %mx3 = arith.maximumf %mx2, %l3 : tensor<1x16xf32>
        %d0 = arith.subf %l0, %mx3 : tensor<1x16xf32>
        %e0 = math.exp %d0 : tensor<1x16xf32>
        %d1 = arith.subf %l1, %mx3 : tensor<1x16xf32>
        %e1 = math.exp %d1 : tensor<1x16xf32>
        %d2 = arith.subf %l2, %mx3 : tensor<1x16xf32>
        %e2 = math.exp %d2 : tensor<1x16xf32>
        %d3 = arith.subf %l3, %mx3 : tensor<1x16xf32>
        %e3 = math.exp %d3 : tensor<1x16xf32>
        %s1 = arith.addf %e0, %e1 : tensor<1x16xf32>
        %s2 = arith.addf %s1, %e2 : tensor<1x16xf32>
        %s3 = arith.addf %s2, %e3 : tensor<1x16xf32>
        %inv = arith.divf %one, %s3 : tensor<1x16xf32>
        %t0 = "ws.load"(%opart, %p0, %r, %c0) : (!ws.tensor_desc<tensor<1x16x64xf32>>, i32, i32, i32) -> tensor<16x64xf32>
        %w0 = "ws.broadcast"(%e0) {axis = 0 : i32} : (tensor<1x16xf32>) -> tensor<16x64xf32>
        %x0 = arith.mulf %t0, %w0 : tensor<16x64xf32>
        %t1 = "ws.load"(%opart, %p1, %r, %c0) : (!ws.tensor_desc<tensor<1x16x64xf32>>, i32, i32, i32) -> tensor<16x64xf32>
        %w1 = "ws.broadcast"(%e1) {axis = 0 : i32} : (tensor<1x16xf32>) -> tensor<16x64xf32>
        %x1 = arith.mulf %t1, %w1 : tensor<16x64xf32>
        %a1 = arith.addf %x0, %x1 : tensor<16x64xf32>
        %t2 = "ws.load"(%opart, %p2, %r, %c0) : (!ws.tensor_desc<tensor<1x16x64xf32>>, i32, i32, i32) -> tensor<16x64xf32>
        %w2 = "ws.broadcast"(%e2) {axis = 0 : i32} : (tensor<1x16xf32>) -> tensor<16x64xf32>
        %x2 = arith.mulf %t2, %w2 : tensor<16x64xf32>
        %a2 = arith.addf %a1, %x2 : tensor<16x64xf32>
        %t3 = "ws.load"(%opart, %p3, %r, %c0) : (!ws.tensor_desc<tensor<1x16x64xf32>>, i32, i32, i32) -> tensor<16x64xf32>
        %w3 = "ws.broadcast"(%e3) {axis = 0 : i32} : (tensor<1x16xf32>) -> tensor<16x64xf32>
        %x3 = arith.mulf %t3, %w3 : tensor<16x64xf32>
        %a3 = arith.addf %a2, %x3 : tensor<16x64xf32>
        %ib = "ws.broadcast"(%inv) {axis = 0 : i32} : (tensor<1x16xf32>) -> tensor<16x64xf32>
        %y = arith.mulf %a3, %ib : tensor<16x64xf32>
        "ws.store"(%out, %r, %c0, %y) : (!ws.tensor_desc<tensor<16x64xf32>>, i32, i32, tensor<16x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
