// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects ws code in a gpu.func that is not a kernel.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    // CHECK: verify-not-kernel.mlir:[[@LINE+1]]:5: error: 'gpu.func' op uses ws ops or types but is not a kernel; expected 'gpu.func @name(...) kernel'
    gpu.func @f(%d: !ws.tensor_desc<tensor<32x64xf32>>) {
      gpu.return
    }
  }
}
