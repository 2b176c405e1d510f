// RUN: not ws-opt --split-input-file --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify's checks of a block-scaled (MX) ws.dot, one with scale operands:
// a chip whose MMA engine has block-scaled forms (sm_100a's tcgen05.mma,
// not sm_90a's wgmma, with the way around it), FP8 A and B, B given N x K,
// M, N and K multiples of an atom, and exactly the MX atoms of A's rows
// then of B's, each tensor<32x16xi8>.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: tensor<128x128xf8E4M3FN>, %b: tensor<128x128xf8E4M3FN>, %c: tensor<128x128xf32>, %s0: tensor<32x16xi8>, %s1: tensor<32x16xi8>) kernel {
      // CHECK: verify-dot-scales.mlir:[[@LINE+1]]:12: error: 'ws.dot' op is block-scaled (scale operands), but on sm_90a ws.dot runs on wgmma, which has no block-scaled form; write the scaling in the loop: each K block's product a ws.dot into a fresh accumulator, scaled and added (docs/language.md, FP8 matmuls){{$}}
      %r = "ws.dot"(%a, %b, %c, %s0, %s1) {transpose_b} : (tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>, tensor<128x128xf32>, tensor<32x16xi8>, tensor<32x16xi8>) -> tensor<128x128xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @f(%a: tensor<128x128xf16>, %b: tensor<128x128xf16>, %c: tensor<128x128xf32>, %s0: tensor<32x16xi8>, %s1: tensor<32x16xi8>) kernel {
      // CHECK: verify-dot-scales.mlir:[[@LINE+1]]:12: error: 'ws.dot' op is block-scaled with a and b of element types f16 and f16; tcgen05.mma has block-scaled forms for a x b of f8E4M3FN x f8E4M3FN, f8E4M3FN x f8E5M2, f8E5M2 x f8E4M3FN or f8E5M2 x f8E5M2 only{{$}}
      %r = "ws.dot"(%a, %b, %c, %s0, %s1) {transpose_b} : (tensor<128x128xf16>, tensor<128x128xf16>, tensor<128x128xf32>, tensor<32x16xi8>, tensor<32x16xi8>) -> tensor<128x128xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @f(%a: tensor<128x128xf8E4M3FN>, %b: tensor<128x128xf8E4M3FN>, %c: tensor<128x128xf32>, %s0: tensor<32x16xi8>, %s1: tensor<32x16xi8>) kernel {
      // CHECK: verify-dot-scales.mlir:[[@LINE+1]]:12: error: 'ws.dot' op is block-scaled, which reads B as N x K (transpose_b): each row of B has its scales{{$}}
      %r = "ws.dot"(%a, %b, %c, %s0, %s1) : (tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>, tensor<128x128xf32>, tensor<32x16xi8>, tensor<32x16xi8>) -> tensor<128x128xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @f(%a: tensor<128x128xf8E4M3FN>, %b: tensor<64x128xf8E4M3FN>, %c: tensor<128x64xf32>, %s0: tensor<32x16xi8>, %s1: tensor<32x16xi8>) kernel {
      // CHECK: verify-dot-scales.mlir:[[@LINE+1]]:12: error: 'ws.dot' op is block-scaled with M = 128, N = 64 and K = 128; tcgen05.mma scales come in MX atoms of 128 rows and 128 of K, so all three must be multiples of them{{$}}
      %r = "ws.dot"(%a, %b, %c, %s0, %s1) {transpose_b} : (tensor<128x128xf8E4M3FN>, tensor<64x128xf8E4M3FN>, tensor<128x64xf32>, tensor<32x16xi8>, tensor<32x16xi8>) -> tensor<128x64xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @f(%a: tensor<128x128xf8E4M3FN>, %b: tensor<256x128xf8E4M3FN>, %c: tensor<128x256xf32>, %s0: tensor<32x16xi8>, %s1: tensor<32x16xi8>) kernel {
      // CHECK: verify-dot-scales.mlir:[[@LINE+1]]:12: error: 'ws.dot' op is block-scaled with M = 128, N = 256 and K = 128: expected 3 scale operands, each tensor<32x16xi8>: the MX atoms of the ue8m0 exponents (one per 32 of K) of 128 rows and 128 of K, A's then B's{{$}}
      %r = "ws.dot"(%a, %b, %c, %s0, %s1) {transpose_b} : (tensor<128x128xf8E4M3FN>, tensor<256x128xf8E4M3FN>, tensor<128x256xf32>, tensor<32x16xi8>, tensor<32x16xi8>) -> tensor<128x256xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @f(%a: tensor<128x128xf8E4M3FN>, %b: tensor<128x128xf8E5M2>, %c: tensor<128x128xf32>, %s0: tensor<32x16xui8>, %s1: tensor<32x16xui8>) kernel {
      // CHECK: verify-dot-scales.mlir:[[@LINE+1]]:12: error: 'ws.dot' op is block-scaled with M = 128, N = 128 and K = 128: expected 2 scale operands, each tensor<32x16xi8>: the MX atoms of the ue8m0 exponents (one per 32 of K) of 128 rows and 128 of K, A's then B's{{$}}
      %r = "ws.dot"(%a, %b, %c, %s0, %s1) {transpose_b} : (tensor<128x128xf8E4M3FN>, tensor<128x128xf8E5M2>, tensor<128x128xf32>, tensor<32x16xui8>, tensor<32x16xui8>) -> tensor<128x128xf32>
      gpu.return
    }
  }
}
