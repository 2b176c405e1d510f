// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects an innermost box extent that is not a multiple of 16 bytes.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    // CHECK: verify-descriptor-inner-bytes.mlir:[[@LINE+1]]:17: error: descriptor !ws.tensor_desc<tensor<32x4xf16>>: the innermost box dimension spans 8 bytes; TMA needs a multiple of 16 bytes: make it a multiple of 8 f16 elements (8 instead of 4)
    gpu.func @f(%d: !ws.tensor_desc<tensor<32x4xf16>>) kernel {
      gpu.return
    }
  }
}
