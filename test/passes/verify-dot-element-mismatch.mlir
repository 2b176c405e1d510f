// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects a dot of f16 by bf16.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: tensor<64x16xf16>, %b: tensor<16x64xbf16>, %c: tensor<64x64xf32>) kernel {
      // CHECK: verify-dot-element-mismatch.mlir:[[@LINE+1]]:12: error: 'ws.dot' op operands a and b have element types f16 and bf16; expected the same element type
      %r = "ws.dot"(%a, %b, %c) : (tensor<64x16xf16>, tensor<16x64xbf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      gpu.return
    }
  }
}
