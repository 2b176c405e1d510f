// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects a dot on a rank-3 operand.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: tensor<2x64x16xf16>, %b: tensor<16x64xf16>, %c: tensor<64x64xf32>) kernel {
      // CHECK: verify-dot-rank.mlir:[[@LINE+1]]:12: error: 'ws.dot' op operand a must be a static rank-2 tensor, got tensor<2x64x16xf16>
      %r = "ws.dot"(%a, %b, %c) : (tensor<2x64x16xf16>, tensor<16x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      gpu.return
    }
  }
}
