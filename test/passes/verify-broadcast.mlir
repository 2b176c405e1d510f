// RUN: not ws-opt --split-input-file --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects a ws.broadcast without an axis, with a value that is not
// 1 x K, with K not the result's extent along the axis, or with another
// element type.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%v: tensor<1x128xf16>, %w: tensor<2x128xf16>, %x: tensor<1x64xf32>) kernel {
      // CHECK: verify-broadcast.mlir:[[@LINE+1]]:12: error: 'ws.broadcast' op needs axis = 0 or 1 (an i32): the dimension it works along
      %a = "ws.broadcast"(%v) : (tensor<1x128xf16>) -> tensor<64x128xf16>
      // CHECK: verify-broadcast.mlir:[[@LINE+1]]:12: error: 'ws.broadcast' op needs axis = 0 or 1
      %b = "ws.broadcast"(%v) {axis = 2 : i32} : (tensor<1x128xf16>) -> tensor<64x128xf16>
      // CHECK: verify-broadcast.mlir:[[@LINE+1]]:12: error: 'ws.broadcast' op broadcasts tensor<2x128xf16> to tensor<64x128xf16> along axis 1; expected a 1 x K value, K the result's extent along the axis, and one element type
      %c = "ws.broadcast"(%w) {axis = 1 : i32} : (tensor<2x128xf16>) -> tensor<64x128xf16>
      // CHECK: verify-broadcast.mlir:[[@LINE+1]]:12: error: 'ws.broadcast' op broadcasts tensor<1x128xf16> to tensor<64x128xf16> along axis 0
      %d = "ws.broadcast"(%v) {axis = 0 : i32} : (tensor<1x128xf16>) -> tensor<64x128xf16>
      // CHECK: verify-broadcast.mlir:[[@LINE+1]]:12: error: 'ws.broadcast' op broadcasts tensor<1x64xf32> to tensor<64x128xf16> along axis 0
      %e = "ws.broadcast"(%x) {axis = 0 : i32} : (tensor<1x64xf32>) -> tensor<64x128xf16>
      gpu.return
    }
  }
}

// -----
// A ws.broadcast of a loaded 1 x M tile along the rows (axis 0) of a
// square tile in an elementwise loop: a loaded row spreads over the rows
// (axis 1); axis 0 spreads 1 x R row vectors over R x C tiles, R != C (a
// loop that spreads a loaded one over 32 x 64 tiles is a row kernel:
// partition-schedule-row-broadcast.mlir).
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @g(%in: !ws.tensor_desc<tensor<1x32xf32>>, %out: !ws.tensor_desc<tensor<32x32xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      scf.for %i = %c0 to %n step %c1 : i32 {
        %t = "ws.load"(%in, %i, %c0) : (!ws.tensor_desc<tensor<1x32xf32>>, i32, i32) -> tensor<1x32xf32>
        // CHECK: verify-broadcast.mlir:[[@LINE+1]]:14: error: 'ws.broadcast' op spreads a loaded tile along the rows (axis = 0) of a square tile; in an elementwise loop a loaded 1 x N row spreads over every row (axis = 1, a value per column), and axis 0 spreads a 1 x R row vector over R x C tiles (R != C, so that rows and columns are told apart): a ws.reduce along axis 1, math on one, or a 1 x R row vector loaded through its own box
        %b = "ws.broadcast"(%t) {axis = 0 : i32} : (tensor<1x32xf32>) -> tensor<32x32xf32>
        "ws.store"(%out, %i, %c0, %b) : (!ws.tensor_desc<tensor<32x32xf32>>, i32, i32, tensor<32x32xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----
// A ws.broadcast in a matmul epilogue of something other than a ws.load.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @mm_bias(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>,
                      %c: !ws.tensor_desc<tensor<128x128xf16>>, %bias: !ws.tensor_desc<tensor<1x128xf16>>,
                      %rbias: !ws.tensor_desc<tensor<1x128xf32>>, %res: !ws.tensor_desc<tensor<128x128xf16>>,
                      %K: i32, %beta: f32) kernel
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
        %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %n, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      } {ws.warp_specialize}
      %brow = "ws.load"(%bias, %c0, %n) : (!ws.tensor_desc<tensor<1x128xf16>>, i32, i32) -> tensor<1x128xf16>
      %cb = arith.constant dense<1.0> : tensor<1x128xf16>
      // CHECK: verify-broadcast.mlir:[[@LINE+1]]:13: error: 'ws.broadcast' op spreads a tile that is neither a ws.load of the epilogue nor a row vector in registers spread along the rows; in a matmul's epilogue ws.broadcast spreads {{.*}}; a 1 x N row computed in registers has no place in the fragments: broadcast the loaded row first, then apply the math to the M x N tile
      %bt = "ws.broadcast"(%cb) {axis = 1 : i32} : (tensor<1x128xf16>) -> tensor<128x128xf16>
      %bf = arith.extf %bt : tensor<128x128xf16> to tensor<128x128xf32>
      %s1 = arith.addf %acc, %bf : tensor<128x128xf32>
      %rrow = "ws.load"(%rbias, %c0, %m) : (!ws.tensor_desc<tensor<1x128xf32>>, i32, i32) -> tensor<1x128xf32>
      %rt = "ws.broadcast"(%rrow) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
      %s2 = arith.addf %s1, %rt : tensor<128x128xf32>
      %r = "ws.load"(%res, %m, %n) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32) -> tensor<128x128xf16>
      %rf = arith.extf %r : tensor<128x128xf16> to tensor<128x128xf32>
      %bs = tensor.splat %beta : tensor<128x128xf32>
      %rs = arith.mulf %rf, %bs : tensor<128x128xf32>
      %s3 = arith.addf %s2, %rs : tensor<128x128xf32>
      %relu = arith.maximumf %s3, %zero : tensor<128x128xf32>
      %out = arith.truncf %relu : tensor<128x128xf32> to tensor<128x128xf16>
      "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      gpu.return
    }
  }
}
