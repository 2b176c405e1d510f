// RUN: ws-opt --ws-pipeline=stage=plan %s | ws-opt --pass-pipeline='builtin.module(ws-lower-to-nvvm, canonicalize, cse)' | FileCheck %s
// RUN: ws-opt --emit=ptx %s -o - | FileCheck %s --check-prefix=PTX
// ws-lower-to-nvvm on seed 003's kernel, a block-scaled sm_100a pair
// (integration/matmul/fp8.py's bwmx_128x256x128_w8_c2x1): each CTA loads
// its own A scale atom and both of B's (no split), and the leader's one
// tcgen05.cp per atom is the pair's (cta_group::2), copying each CTA's atom
// into its own tensor memory; the MMA is block-scaled and M = 256: the
// instruction descriptor's bits 27-28 hold M >> 7 = 2, so K step j of 4
// is 0x10c00000 (N / 8 = 32 in 17-22, ue8m0 scales in 23) with the scale
// byte j in bits 4-5 and 29-30: 0x10c00000, 0x30c00010, 0x50c00020,
// 0x70c00030.
// CHECK: nvvm.tcgen05.alloc %{{.*}} {group = #nvvm.cta_group<cta_2>}
// CHECK-COUNT-5: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}} {group = #nvvm.cta_group<cta_2>}
// CHECK-COUNT-3: nvvm.tcgen05.cp %{{.*}} {group = #nvvm.cta_group<cta_2>, multicast = #nvvm.tcgen05_cp_multicast<warpx4>, shape = #nvvm.tcgen05_cp_shape<shape_32x128b>}
// CHECK: nvvm.tcgen05.mma.block_scale %{{.*}}, %c281018368_i32, {{.*}} {ctaGroup = #nvvm.cta_group<cta_2>, kind = #nvvm.block_scale_kind<mxf8f6f4>}
// CHECK: nvvm.tcgen05.mma.block_scale %{{.*}}, %c817889296_i32, {{.*}} {ctaGroup = #nvvm.cta_group<cta_2>
// CHECK: nvvm.tcgen05.mma.block_scale %{{.*}}, %c1354760224_i32, {{.*}} {ctaGroup = #nvvm.cta_group<cta_2>
// CHECK: nvvm.tcgen05.mma.block_scale %{{.*}}, %c1891631152_i32, {{.*}} {ctaGroup = #nvvm.cta_group<cta_2>
// CHECK: nvvm.tcgen05.commit %{{.*}}, multicast_mask = %{{.*}} {group = #nvvm.cta_group<cta_2>}
// PTX: .reqnctapercluster 2, 1, 1
// PTX-NOT: cta_group::1
// PTX: tcgen05.cp.cta_group::2.32x128b.warpx4
// PTX: tcgen05.mma.cta_group::2.kind::mxf8f6f4.block_scale
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_100a">] {
    gpu.func @bwmx_128x256x128_w8_c2x1(%a: !ws.tensor_desc<tensor<128x128xf8E4M3FN>>, %b: !ws.tensor_desc<tensor<256x128xf8E4M3FN>>, %sfa: !ws.tensor_desc<tensor<32x16xi8>>, %sfb: !ws.tensor_desc<tensor<32x16xi8>>, %c: !ws.tensor_desc<tensor<128x256xbf16>>, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32, ws.cluster = array<i32: 2, 1>} {
      %c0 = arith.constant 0 : i32
      %cbk = arith.constant 128 : i32
      %cbm = arith.constant 128 : i32
      %cbn = arith.constant 256 : i32
      %zero = arith.constant dense<0.0> : tensor<128x256xf32>
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bxi = arith.index_cast %bx : index to i32
      %byi = arith.index_cast %by : index to i32
      %m = arith.muli %bxi, %cbm : i32
      %n = arith.muli %byi, %cbn : i32
      %acc = scf.for %k = %c0 to %K step %cbk iter_args(%acc0 = %zero) -> (tensor<128x256xf32>) : i32 {
        %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x128xf8E4M3FN>>, i32, i32) -> tensor<128x128xf8E4M3FN>
        %tb = "ws.load"(%b, %n, %k) : (!ws.tensor_desc<tensor<256x128xf8E4M3FN>>, i32, i32) -> tensor<256x128xf8E4M3FN>
        %c128 = arith.constant 128 : i32
        %c32 = arith.constant 32 : i32
        %c16 = arith.constant 16 : i32
        %kq = arith.divui %k, %cbk : i32
        %kx = arith.muli %kq, %c16 : i32
        %raq = arith.divui %m, %c128 : i32
        %ra0 = arith.muli %raq, %c32 : i32
        %sa0 = "ws.load"(%sfa, %ra0, %kx) : (!ws.tensor_desc<tensor<32x16xi8>>, i32, i32) -> tensor<32x16xi8>
        %rbq = arith.divui %n, %c128 : i32
        %rb0 = arith.muli %rbq, %c32 : i32
        %sb0 = "ws.load"(%sfb, %rb0, %kx) : (!ws.tensor_desc<tensor<32x16xi8>>, i32, i32) -> tensor<32x16xi8>
        %rb1 = arith.addi %rb0, %c32 : i32
        %sb1 = "ws.load"(%sfb, %rb1, %kx) : (!ws.tensor_desc<tensor<32x16xi8>>, i32, i32) -> tensor<32x16xi8>
        %d = "ws.dot"(%ta, %tb, %acc0, %sa0, %sb0, %sb1) {transpose_b} : (tensor<128x128xf8E4M3FN>, tensor<256x128xf8E4M3FN>, tensor<128x256xf32>, tensor<32x16xi8>, tensor<32x16xi8>, tensor<32x16xi8>) -> tensor<128x256xf32>
        scf.yield %d : tensor<128x256xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xbf16>
      "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<128x256xbf16>>, i32, i32, tensor<128x256xbf16>) -> ()
      gpu.return
    }
  }
}
