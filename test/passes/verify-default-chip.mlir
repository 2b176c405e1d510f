// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects an NVVM target without a chip (MLIR's default is sm_50).
module attributes {gpu.container_module} {
  // CHECK: verify-default-chip.mlir:[[@LINE+1]]:3: error: 'gpu.module' op targets chip "sm_50"; ws kernels need sm_90a or sm_100a (TMA, mbarrier and setmaxnreg)
  gpu.module @k [#nvvm.target] {
    gpu.func @f(%d: !ws.tensor_desc<tensor<32x64xf32>>) kernel {
      gpu.return
    }
  }
}
