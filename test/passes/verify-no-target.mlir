// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects a gpu.module without a target.
module attributes {gpu.container_module} {
  // CHECK: verify-no-target.mlir:[[@LINE+1]]:3: error: 'gpu.module' op has no target; ws kernels need a gpu.module with [#nvvm.target<chip = "sm_90a">] (or "sm_100a")
  gpu.module @k {
    gpu.func @f(%d: !ws.tensor_desc<tensor<32x64xf32>>) kernel {
      gpu.return
    }
  }
}
