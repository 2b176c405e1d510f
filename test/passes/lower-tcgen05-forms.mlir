// RUN: ws-opt --split-input-file --ws-pipeline=stage=plan %s | ws-opt --split-input-file --pass-pipeline='builtin.module(ws-lower-to-nvvm, canonicalize, cse)' | FileCheck %s
// RUN: ws-opt --split-input-file --emit=ptx %s -o - | FileCheck %s --check-prefix=PTX
// tcgen05.mma's other forms (passes/target/target.c): kind::f8f6f4 on FP8
// and an N-major (K x N) B on f16, each from the engine table's row.

// e4m3 x e5m2, K = 32 per instruction: four per 128-deep K tile, kind
// f8f6f4; the instruction descriptor has D f32 (bit 4), A e4m3 (0 in bits
// 7-9), B e5m2 (1 in bits 10-12), N = 128 (16 in 17-22), M = 128 (8 in
// 24-28): 0x8200410 = 136315920. The K step is 32 bytes.
// CHECK-LABEL: llvm.func @fp8
// CHECK: nvvm.tcgen05.mma %[[D:.*]], %{{.*}}, %{{.*}}, %c136315920_i32, %{{.*}} {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f8f6f4>}
// CHECK: nvvm.tcgen05.mma %[[D]], %{{.*}}, %{{.*}}, %c136315920_i32, %true
// CHECK: nvvm.tcgen05.mma %[[D]], %{{.*}}, %{{.*}}, %c136315920_i32, %true
// CHECK: nvvm.tcgen05.mma %[[D]], %{{.*}}, %{{.*}}, %c136315920_i32, %true
// CHECK-NOT: nvvm.tcgen05.mma %
// CHECK: nvvm.tcgen05.commit
// PTX: tcgen05.mma.cta_group::1.kind::f8f6f4
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_100a">] {
    gpu.func @fp8(%a: !ws.tensor_desc<tensor<128x128xf8E4M3FN>>, %b: !ws.tensor_desc<tensor<128x128xf8E5M2>>,
                  %c: !ws.tensor_desc<tensor<128x128xbf16>>, %K: i32) kernel attributes {ws.num_warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %cbk = arith.constant 128 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %acc = scf.for %k = %c0 to %K step %cbk iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %k) : (!ws.tensor_desc<tensor<128x128xf8E4M3FN>>, i32, i32) -> tensor<128x128xf8E4M3FN>
        %tb = "ws.load"(%b, %c0, %k) : (!ws.tensor_desc<tensor<128x128xf8E5M2>>, i32, i32) -> tensor<128x128xf8E5M2>
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x128xf8E4M3FN>, tensor<128x128xf8E5M2>, tensor<128x128xf32>) -> tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xbf16>
      "ws.store"(%c, %c0, %c0, %out) : (!ws.tensor_desc<tensor<128x128xbf16>>, i32, i32, tensor<128x128xbf16>) -> ()
      gpu.return
    }
  }
}

// -----

// f16 with B given K x N (no transpose_b): bit 16 of the instruction
// descriptor marks B N-major (0x8210010 = 136380432); B's descriptor has
// the distance between its 64-column boxes as the leading offset (64 K rows
// of 128 bytes: 8192 >> 4 = 512) and an 8-row atom as the stride; each K
// step of 16 advances B by 16 rows (2048 bytes), A by 32 bytes.
// CHECK-LABEL: llvm.func @kn
// CHECK: nvvm.tcgen05.mma_smem_desc(%{{.*}}, %c512_i32, %c64_i32, %c0_i8, %false, %c2_i8)
// CHECK: nvvm.tcgen05.mma %{{.*}}, %{{.*}}, %{{.*}}, %c136380432_i32, %{{.*}} {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>}
// PTX: tcgen05.mma.cta_group::1.kind::f16
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_100a">] {
    gpu.func @kn(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<64x128xf16>>,
                 %c: !ws.tensor_desc<tensor<128x128xf16>>, %K: i32) kernel attributes {ws.num_warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %cbk = arith.constant 64 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %acc = scf.for %k = %c0 to %K step %cbk iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %k, %c0) : (!ws.tensor_desc<tensor<64x128xf16>>, i32, i32) -> tensor<64x128xf16>
        %d = "ws.dot"(%ta, %tb, %acc0) : (tensor<128x64xf16>, tensor<64x128xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
      "ws.store"(%c, %c0, %c0, %out) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      gpu.return
    }
  }
}
