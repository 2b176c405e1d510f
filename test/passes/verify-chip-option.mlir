// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify{chip=sm_100a})' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects a kernel for sm_90a verified with chip=sm_100a.
module attributes {gpu.container_module} {
  // CHECK: verify-chip-option.mlir:[[@LINE+1]]:3: error: 'gpu.module' op targets chip "sm_90a" but the pipeline was asked for chip=sm_100a
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%d: !ws.tensor_desc<tensor<32x64xf32>>) kernel {
      gpu.return
    }
  }
}
