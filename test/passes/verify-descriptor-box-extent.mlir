// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects a box dimension above TMA's 256.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    // CHECK: verify-descriptor-box-extent.mlir:[[@LINE+1]]:17: error: descriptor !ws.tensor_desc<tensor<512x64xf16>>: box dimension 0 is 512; TMA boxes take 1 to 256 elements per dimension
    gpu.func @f(%d: !ws.tensor_desc<tensor<512x64xf16>>) kernel {
      gpu.return
    }
  }
}
