// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects a dot whose K extents differ.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: tensor<64x16xf16>, %b: tensor<32x64xf16>, %c: tensor<64x64xf32>) kernel {
      // CHECK: verify-dot-k-mismatch.mlir:[[@LINE+1]]:12: error: 'ws.dot' op a is tensor<64x16xf16> (K = 16) but b is tensor<32x64xf16> (K = 32); expected the same K
      %r = "ws.dot"(%a, %b, %c) : (tensor<64x16xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      gpu.return
    }
  }
}
