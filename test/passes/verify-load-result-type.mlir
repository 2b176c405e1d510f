// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects a load whose result is not the descriptor's box, nor
// the box with leading unit extents dropped.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%d: !ws.tensor_desc<tensor<32x64xf32>>, %i: i32) kernel {
      // CHECK: verify-load-result-type.mlir:[[@LINE+1]]:12: error: 'ws.load' op result type tensor<32x32xf32> does not match the descriptor's box; expected tensor<32x64xf32>
      %t = "ws.load"(%d, %i, %i) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x32xf32>
      gpu.return
    }
    gpu.func @g(%d: !ws.tensor_desc<tensor<2x32x64xf32>>, %i: i32) kernel {
      // CHECK: verify-load-result-type.mlir:[[@LINE+1]]:12: error: 'ws.load' op result type tensor<32x64xf32> does not match the descriptor's box; expected tensor<2x32x64xf32>, or it with leading unit extents dropped
      %t = "ws.load"(%d, %i, %i, %i) : (!ws.tensor_desc<tensor<2x32x64xf32>>, i32, i32, i32) -> tensor<32x64xf32>
      gpu.return
    }
  }
}
