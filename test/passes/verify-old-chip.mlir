// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects a gpu.module targeting sm_80.
module attributes {gpu.container_module} {
  // CHECK: verify-old-chip.mlir:[[@LINE+1]]:3: error: 'gpu.module' op targets chip "sm_80"; ws kernels need sm_90a or sm_100a (TMA, mbarrier and setmaxnreg)
  gpu.module @k [#nvvm.target<chip = "sm_80">] {
    gpu.func @f(%d: !ws.tensor_desc<tensor<32x64xf32>>) kernel {
      gpu.return
    }
  }
}
