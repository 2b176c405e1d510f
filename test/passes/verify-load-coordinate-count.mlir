// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects a load with more coordinates than the descriptor's rank.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%d: !ws.tensor_desc<tensor<32x64xf32>>, %i: i32) kernel {
      // CHECK: verify-load-coordinate-count.mlir:[[@LINE+1]]:12: error: 'ws.load' op has 3 coordinates but descriptor !ws.tensor_desc<tensor<32x64xf32>> has rank 2; expected 2 coordinates
      %t = "ws.load"(%d, %i, %i, %i) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, i32) -> tensor<32x64xf32>
      gpu.return
    }
  }
}
