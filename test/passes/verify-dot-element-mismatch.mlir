// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects a dot of f16 by bf16.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: tensor<64x16xf16>, %b: tensor<16x64xbf16>, %c: tensor<64x64xf32>) kernel {
      // CHECK: verify-dot-element-mismatch.mlir:[[@LINE+1]]:12: error: 'ws.dot' op a and b of element types f16 and bf16: on sm_90a ws.dot runs on wgmma, which ws lowers for a x b of f16 x f16, bf16 x bf16, f8E4M3FN x f8E4M3FN, f8E4M3FN x f8E5M2, f8E5M2 x f8E4M3FN or f8E5M2 x f8E5M2{{$}}
      %r = "ws.dot"(%a, %b, %c) : (tensor<64x16xf16>, tensor<16x64xbf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      gpu.return
    }
  }
}
