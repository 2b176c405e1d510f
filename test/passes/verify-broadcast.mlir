// RUN: not ws-opt --split-input-file --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects a ws.broadcast without an axis, with a value that is not
// 1 x K, with K not the result's extent along the axis, or with another
// element type.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%v: tensor<1x128xf16>, %w: tensor<2x128xf16>, %x: tensor<1x64xf32>) kernel {
      // CHECK: verify-broadcast.mlir:[[@LINE+1]]:12: error: 'ws.broadcast' op needs axis = 0 or 1 (an i32): the result dimension the value's elements run along
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
// A ws.broadcast in an elementwise loop: only a matmul epilogue takes it.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @g(%in: !ws.tensor_desc<tensor<1x64xf32>>, %out: !ws.tensor_desc<tensor<32x64xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      scf.for %i = %c0 to %n step %c1 : i32 {
        %t = "ws.load"(%in, %i, %c0) : (!ws.tensor_desc<tensor<1x64xf32>>, i32, i32) -> tensor<1x64xf32>
        // CHECK: verify-broadcast.mlir:[[@LINE+1]]:14: error: 'ws.broadcast' op cannot be placed in a partition of a ws.warp_specialize loop
        %b = "ws.broadcast"(%t) {axis = 1 : i32} : (tensor<1x64xf32>) -> tensor<32x64xf32>
        "ws.store"(%out, %i, %c0, %b) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
