// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects a rank-6 descriptor (TMA goes up to rank 5).
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    // CHECK: verify-descriptor-rank.mlir:[[@LINE+1]]:17: error: descriptor !ws.tensor_desc<tensor<2x2x2x2x2x64xf16>>: box rank 6 is not supported; expected rank 1 to 5
    gpu.func @f(%d: !ws.tensor_desc<tensor<2x2x2x2x2x64xf16>>) kernel {
      gpu.return
    }
  }
}
