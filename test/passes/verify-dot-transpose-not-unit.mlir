// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects transpose_b given a value.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: tensor<64x16xf16>, %b: tensor<64x16xf16>, %c: tensor<64x64xf32>) kernel {
      // CHECK: verify-dot-transpose-not-unit.mlir:[[@LINE+1]]:12: error: 'ws.dot' op attribute transpose_b must be a unit attribute, got true
      %r = "ws.dot"(%a, %b, %c) {transpose_b = true} : (tensor<64x16xf16>, tensor<64x16xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      gpu.return
    }
  }
}
