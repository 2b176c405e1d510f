// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects a dot with an f16 accumulator.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: tensor<64x16xf16>, %b: tensor<16x64xf16>, %c: tensor<64x64xf16>) kernel {
      // CHECK: verify-dot-accumulator-element.mlir:[[@LINE+1]]:12: error: 'ws.dot' op accumulator tensor<64x64xf16> must have element type f32
      %r = "ws.dot"(%a, %b, %c) : (tensor<64x16xf16>, tensor<16x64xf16>, tensor<64x64xf16>) -> tensor<64x64xf16>
      gpu.return
    }
  }
}
