// RUN: not ws-opt --split-input-file --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects a dot whose a x b the MMA engine of the module's chip
// has no form for (passes/target/ws_target.h): f32 inputs; an FP8 A with an
// f16 B on sm_90a (with the way around it); FP8 on sm_100a (not built).
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: tensor<64x16xf32>, %b: tensor<16x64xf32>, %c: tensor<64x64xf32>) kernel {
      // CHECK: verify-dot-element-unsupported.mlir:[[@LINE+1]]:12: error: 'ws.dot' op a and b of element types f32 and f32: on sm_90a ws.dot runs on wgmma, which ws lowers for a x b of f16 x f16, bf16 x bf16, f8E4M3FN x f8E4M3FN, f8E4M3FN x f8E5M2, f8E5M2 x f8E4M3FN or f8E5M2 x f8E5M2{{$}}
      %r = "ws.dot"(%a, %b, %c) : (tensor<64x16xf32>, tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: tensor<64x32xf8E4M3FN>, %b: tensor<32x64xf16>, %c: tensor<64x64xf32>) kernel {
      // CHECK: verify-dot-element-unsupported.mlir:[[@LINE+1]]:12: error: 'ws.dot' op a and b of element types f8E4M3FN and f16: on sm_90a ws.dot runs on wgmma, which ws lowers for a x b of f16 x f16, bf16 x bf16, f8E4M3FN x f8E4M3FN, f8E4M3FN x f8E5M2, f8E5M2 x f8E4M3FN or f8E5M2 x f8E5M2 (an FP8 A may be widened with arith.extf to B's type in the loop, which the engine then reads from registers)
      %r = "ws.dot"(%a, %b, %c) : (tensor<64x32xf8E4M3FN>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @f(%a: tensor<128x32xf8E5M2>, %b: tensor<64x32xf16>, %c: tensor<128x64xf32>) kernel {
      // CHECK: verify-dot-element-unsupported.mlir:[[@LINE+1]]:12: error: 'ws.dot' op a and b of element types f8E5M2 and f16: on sm_100a ws.dot runs on tcgen05.mma, which ws lowers for a x b of f16 x f16, bf16 x bf16, f8E4M3FN x f8E4M3FN, f8E4M3FN x f8E5M2, f8E5M2 x f8E4M3FN or f8E5M2 x f8E5M2{{$}}
      %r = "ws.dot"(%a, %b, %c) {transpose_b} : (tensor<128x32xf8E5M2>, tensor<64x32xf16>, tensor<128x64xf32>) -> tensor<128x64xf32>
      gpu.return
    }
  }
}
