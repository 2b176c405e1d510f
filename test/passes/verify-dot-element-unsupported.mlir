// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects a dot of f32 inputs.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: tensor<64x16xf32>, %b: tensor<16x64xf32>, %c: tensor<64x64xf32>) kernel {
      // CHECK: verify-dot-element-unsupported.mlir:[[@LINE+1]]:12: error: 'ws.dot' op element type f32 is not supported for a and b; expected one of f16, bf16, f8E4M3FN, f8E5M2
      %r = "ws.dot"(%a, %b, %c) : (tensor<64x16xf32>, tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
      gpu.return
    }
  }
}
