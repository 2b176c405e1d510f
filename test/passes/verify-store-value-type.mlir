// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects a store whose value is not the descriptor's box.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%d: !ws.tensor_desc<tensor<32x64xf32>>, %i: i32, %v: tensor<32x64xf16>) kernel {
      // CHECK: verify-store-value-type.mlir:[[@LINE+1]]:7: error: 'ws.store' op stored value type tensor<32x64xf16> does not match the descriptor's box; expected tensor<32x64xf32>
      "ws.store"(%d, %i, %i, %v) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf16>) -> ()
      gpu.return
    }
  }
}
