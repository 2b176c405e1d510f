// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' --split-input-file %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify's rules for transpose_a (A given K x M): a unit attribute; K
// from A's first dimension; not on an FP8 form (K-major only) nor where
// the engine lowers A M x K only (tcgen05.mma on sm_100a).
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: tensor<16x64xf16>, %b: tensor<16x64xf16>, %c: tensor<64x64xf32>) kernel {
      // CHECK: verify-dot-transpose-a.mlir:[[@LINE+1]]:12: error: 'ws.dot' op attribute transpose_a must be a unit attribute, got 1 : i32
      %r = "ws.dot"(%a, %b, %c) {transpose_a = 1 : i32} : (tensor<16x64xf16>, tensor<16x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      gpu.return
    }
  }
}

// -----
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: tensor<32x64xf16>, %b: tensor<16x64xf16>, %c: tensor<64x64xf32>) kernel {
      // CHECK: verify-dot-transpose-a.mlir:[[@LINE+1]]:12: error: 'ws.dot' op a is tensor<32x64xf16> with transpose_a (K = 32) but b is tensor<16x64xf16> (K = 16); expected the same K
      %r = "ws.dot"(%a, %b, %c) {transpose_a} : (tensor<32x64xf16>, tensor<16x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      gpu.return
    }
  }
}

// -----
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: tensor<32x64xf8E4M3FN>, %b: tensor<64x32xf8E4M3FN>, %c: tensor<64x64xf32>) kernel {
      // CHECK: verify-dot-transpose-a.mlir:[[@LINE+1]]:12: error: 'ws.dot' op has transpose_a, but an FP8 dot reads A K-major only: give A as M x K (a ws.load of the transposed tensor)
      %r = "ws.dot"(%a, %b, %c) {transpose_a, transpose_b} : (tensor<32x64xf8E4M3FN>, tensor<64x32xf8E4M3FN>, tensor<64x64xf32>) -> tensor<64x64xf32>
      gpu.return
    }
  }
}

// -----
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @f(%a: tensor<64x128xf16>, %b: tensor<128x64xf16>, %c: tensor<128x128xf32>) kernel {
      // CHECK: verify-dot-transpose-a.mlir:[[@LINE+1]]:12: error: 'ws.dot' op has transpose_a, but on sm_100a ws.dot runs on tcgen05.mma, which ws lowers for A M x K only: give A as M x K
      %r = "ws.dot"(%a, %b, %c) {transpose_a, transpose_b} : (tensor<64x128xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
      gpu.return
    }
  }
}
