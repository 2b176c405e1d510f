// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects a store with fewer coordinates than the descriptor's rank.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%d: !ws.tensor_desc<tensor<32x64xf32>>, %i: i32, %v: tensor<32x64xf32>) kernel {
      // CHECK: verify-store-coordinate-count.mlir:[[@LINE+1]]:7: error: 'ws.store' op has 1 coordinate but descriptor !ws.tensor_desc<tensor<32x64xf32>> has rank 2; expected 2 coordinates
      "ws.store"(%d, %i, %v) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, tensor<32x64xf32>) -> ()
      gpu.return
    }
  }
}
