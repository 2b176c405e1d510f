// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects ws.num_warps of 6.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    // CHECK: verify-num-warps-value.mlir:[[@LINE+1]]:5: error: 'gpu.func' op ws.num_warps = 6 : i32; expected 4, 8 or 12 (: i32)
    gpu.func @f(%n: i32) kernel attributes {ws.num_warps = 6 : i32} {
      gpu.return
    }
  }
}
