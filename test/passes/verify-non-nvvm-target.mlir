// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects a ROCDL target.
module attributes {gpu.container_module} {
  // CHECK: verify-non-nvvm-target.mlir:[[@LINE+1]]:3: error: 'gpu.module' op has target #rocdl.target; ws kernels need an NVVM target (#nvvm.target<chip = "sm_90a">)
  gpu.module @k [#rocdl.target] {
    gpu.func @f(%d: !ws.tensor_desc<tensor<32x64xf32>>) kernel {
      gpu.return
    }
  }
}
