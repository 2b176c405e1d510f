// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects a dot whose accumulator is not M x N.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: tensor<64x16xf16>, %b: tensor<16x128xf16>, %c: tensor<64x64xf32>) kernel {
      // CHECK: verify-dot-accumulator-shape.mlir:[[@LINE+1]]:12: error: 'ws.dot' op accumulator tensor<64x64xf32> does not match the product of a and b; expected tensor<64x128xf32>
      %r = "ws.dot"(%a, %b, %c) : (tensor<64x16xf16>, tensor<16x128xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      gpu.return
    }
  }
}
