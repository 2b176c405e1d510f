// RUN: ws-opt --split-input-file --ws-pipeline=stage=plan %s | FileCheck %s --check-prefix=PLAN
// RUN: ws-opt --split-input-file --ws-pipeline=stage=plan %s | ws-opt --split-input-file --pass-pipeline='builtin.module(ws-lower-to-nvvm, canonicalize, cse)' | FileCheck %s
// RUN: ws-opt --split-input-file --emit=ptx %s -o - | FileCheck %s --check-prefix=PTX
// A block-scaled (MX) ws.dot on sm_100a: the scale operands, MX atoms of
// 32 x 16 bytes, ride the K ring unswizzled; ws-plan-memory puts their
// tensor-memory columns after the accumulator (ws.tmem's scale_rings and
// scale_columns, A's atoms first); the MMA warp copies each K step's atoms
// in (ws.tmem_copy: tcgen05.cp.32x128b.warpx4 from an unswizzled
// descriptor, 16-byte rows, 8-row stride of 128 bytes) and issues
// tcgen05.mma.block_scale kind::mxf8f6f4 per 32 of K, K block kk scaled by
// byte kk of the columns (bits 4-5 for B, 29-30 for A).

// M = 128, N = 256, e4m3 x e4m3: one atom of A's, two of B's (N rows 0-127
// and 128-255). The instruction descriptor: ue8m0 scales (bit 23), N >> 3 =
// 32 in 17-22, M >> 7 = 1 in 27-28: 0x8C00000 = 146800640; K block 1 adds
// 0x20000010 (683671568), 2 0x40000020 (1220542496), 3 0x60000030
// (1757413424).
// PLAN-LABEL: gpu.func @mx256
// PLAN-SAME: {align = 128 : i32, channel = 0 : i32, offset = 196608 : i32, slot_bytes = 512 : i32, swizzle = 0 : i32, tile = tensor<32x16xi8>}
// PLAN-SAME: ws.tmem = {address = {{[0-9]+}} : i32, allocated = 512 : i32, channel = 2 : i32, columns = 256 : i32, scale_a_atoms = 1 : i32, scale_columns = array<i32: 256, 260, 264>, scale_rings = array<i32: 2, 3, 4>, tile = tensor<128x256xf32>}
// PLAN: "ws.wait"(%[[S:.*]]#0, %{{.*}}) {barrier = "full", channel = 0 : i32}
// PLAN-NEXT: arith.cmpi
// PLAN-NEXT: "ws.tmem_copy"(%[[S]]#0) {ring = 2 : i32}
// PLAN-NEXT: "ws.tmem_copy"(%[[S]]#0) {ring = 3 : i32}
// PLAN-NEXT: "ws.tmem_copy"(%[[S]]#0) {ring = 4 : i32}
// PLAN-NEXT: "ws.tc_mma"(%[[S]]#0
// PLAN-NEXT: "ws.commit"(%[[S]]#0) {barrier = "empty", channel = 0 : i32}
// CHECK-LABEL: llvm.func @mx256
// CHECK: %[[D0:.*]] = nvvm.tcgen05.mma_smem_desc(%{{.*}}, %c1_i32, %c8_i32, %c0_i8, %false, %c0_i8)
// CHECK-NEXT: nvvm.tcgen05.cp %{{.*}}, %[[D0]] {multicast = #nvvm.tcgen05_cp_multicast<warpx4>, shape = #nvvm.tcgen05_cp_shape<shape_32x128b>}
// CHECK: nvvm.tcgen05.cp
// CHECK: nvvm.tcgen05.cp
// CHECK: nvvm.tcgen05.mma.block_scale %[[ACC:.*]], %{{.*}}, %{{.*}}, %c146800640_i32, %{{.*}}, %[[SA:.*]], %[[SB:.*]] {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.block_scale_kind<mxf8f6f4>}
// CHECK: nvvm.tcgen05.mma.block_scale %[[ACC]], %{{.*}}, %{{.*}}, %c683671568_i32, %true, %[[SA]], %[[SB]]
// CHECK: nvvm.tcgen05.mma.block_scale %[[ACC]], %{{.*}}, %{{.*}}, %c1220542496_i32, %true, %[[SA]], %[[SB]]
// CHECK: nvvm.tcgen05.mma.block_scale %[[ACC]], %{{.*}}, %{{.*}}, %c1757413424_i32, %true, %[[SA]], %[[SB]]
// CHECK-NOT: nvvm.tcgen05.mma
// CHECK: nvvm.tcgen05.commit
// PTX: .version 8.8
// PTX-COUNT-3: tcgen05.cp.cta_group::1.32x128b.warpx4
// PTX-COUNT-4: tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_100a">] {
    gpu.func @mx256(%a: !ws.tensor_desc<tensor<128x128xf8E4M3FN>>, %b: !ws.tensor_desc<tensor<256x128xf8E4M3FN>>,
                    %sfa: !ws.tensor_desc<tensor<32x16xi8>>, %sfb: !ws.tensor_desc<tensor<32x16xi8>>,
                    %c: !ws.tensor_desc<tensor<128x256xbf16>>, %K: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c16 = arith.constant 16 : i32
      %c32 = arith.constant 32 : i32
      %cbk = arith.constant 128 : i32
      %zero = arith.constant dense<0.0> : tensor<128x256xf32>
      %acc = scf.for %k = %c0 to %K step %cbk iter_args(%acc0 = %zero) -> (tensor<128x256xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %k) : (!ws.tensor_desc<tensor<128x128xf8E4M3FN>>, i32, i32) -> tensor<128x128xf8E4M3FN>
        %tb = "ws.load"(%b, %c0, %k) : (!ws.tensor_desc<tensor<256x128xf8E4M3FN>>, i32, i32) -> tensor<256x128xf8E4M3FN>
        %kq = arith.divui %k, %cbk : i32
        %kx = arith.muli %kq, %c16 : i32
        %sa = "ws.load"(%sfa, %c0, %kx) : (!ws.tensor_desc<tensor<32x16xi8>>, i32, i32) -> tensor<32x16xi8>
        %sb0 = "ws.load"(%sfb, %c0, %kx) : (!ws.tensor_desc<tensor<32x16xi8>>, i32, i32) -> tensor<32x16xi8>
        %sb1 = "ws.load"(%sfb, %c32, %kx) : (!ws.tensor_desc<tensor<32x16xi8>>, i32, i32) -> tensor<32x16xi8>
        %d = "ws.dot"(%ta, %tb, %acc0, %sa, %sb0, %sb1) {transpose_b} : (tensor<128x128xf8E4M3FN>, tensor<256x128xf8E4M3FN>, tensor<128x256xf32>, tensor<32x16xi8>, tensor<32x16xi8>, tensor<32x16xi8>) -> tensor<128x256xf32>
        scf.yield %d : tensor<128x256xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xbf16>
      "ws.store"(%c, %c0, %c0, %out) : (!ws.tensor_desc<tensor<128x256xbf16>>, i32, i32, tensor<128x256xbf16>) -> ()
      gpu.return
    }
  }
}

// -----

// N = 128, e4m3 x e5m2 (B's format 1 in bits 10-12): one atom each;
// 0x8A00400 = 144704512 for K block 0, 0x68A00430 = 1755317296 for 3.
// PLAN-LABEL: gpu.func @mx128
// PLAN-SAME: scale_a_atoms = 1 : i32, scale_columns = array<i32: 128, 132>, scale_rings = array<i32: 2, 3>
// CHECK-LABEL: llvm.func @mx128
// CHECK-COUNT-2: nvvm.tcgen05.cp
// CHECK: nvvm.tcgen05.mma.block_scale %{{.*}}, %{{.*}}, %{{.*}}, %c144704512_i32,
// CHECK: nvvm.tcgen05.mma.block_scale
// CHECK: nvvm.tcgen05.mma.block_scale
// CHECK: nvvm.tcgen05.mma.block_scale %{{.*}}, %{{.*}}, %{{.*}}, %c1755317296_i32,
// PTX-COUNT-2: tcgen05.cp.cta_group::1.32x128b.warpx4
// PTX-COUNT-4: tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_100a">] {
    gpu.func @mx128(%a: !ws.tensor_desc<tensor<128x128xf8E4M3FN>>, %b: !ws.tensor_desc<tensor<128x128xf8E5M2>>,
                    %sfa: !ws.tensor_desc<tensor<32x16xi8>>, %sfb: !ws.tensor_desc<tensor<32x16xi8>>,
                    %c: !ws.tensor_desc<tensor<128x128xbf16>>, %K: i32) kernel attributes {ws.num_warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %c16 = arith.constant 16 : i32
      %cbk = arith.constant 128 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %acc = scf.for %k = %c0 to %K step %cbk iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %k) : (!ws.tensor_desc<tensor<128x128xf8E4M3FN>>, i32, i32) -> tensor<128x128xf8E4M3FN>
        %tb = "ws.load"(%b, %c0, %k) : (!ws.tensor_desc<tensor<128x128xf8E5M2>>, i32, i32) -> tensor<128x128xf8E5M2>
        %kq = arith.divui %k, %cbk : i32
        %kx = arith.muli %kq, %c16 : i32
        %sa = "ws.load"(%sfa, %c0, %kx) : (!ws.tensor_desc<tensor<32x16xi8>>, i32, i32) -> tensor<32x16xi8>
        %sb = "ws.load"(%sfb, %c0, %kx) : (!ws.tensor_desc<tensor<32x16xi8>>, i32, i32) -> tensor<32x16xi8>
        %d = "ws.dot"(%ta, %tb, %acc0, %sa, %sb) {transpose_b} : (tensor<128x128xf8E4M3FN>, tensor<128x128xf8E5M2>, tensor<128x128xf32>, tensor<32x16xi8>, tensor<32x16xi8>) -> tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xbf16>
      "ws.store"(%c, %c0, %c0, %out) : (!ws.tensor_desc<tensor<128x128xbf16>>, i32, i32, tensor<128x128xbf16>) -> ()
      gpu.return
    }
  }
}
