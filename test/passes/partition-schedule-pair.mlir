// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule{explain=true})' --split-input-file %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// A cluster of two on sm_100a is a pair whose leader issues one
// tcgen05.mma of 256 rows (cta_group::2, the engine's pair_mma in
// passes/target/target.c): the pair shares B, each CTA loading half of its
// rows into its own slot, and brings its own rows of A. What a pair cannot
// take is a located error saying what would work.

// CHECK: remark: cluster 2x1 (ws.cluster): A at {{.*}} differs between them (each loads its own); B at {{.*}} is the same in each: each loads 128 of its 256 rows into its own slot, and the leader's one tcgen05.mma of the pair (cta_group::2) reads both; every CTA's copies complete on the leader's full barrier, its MMA's commit releases both CTAs' slots, and both epilogues hand the accumulator back to the leader
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_100a">] {
    gpu.func @pair(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<256x64xf16>>,
                     %c: !ws.tensor_desc<tensor<128x256xf16>>, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32, ws.cluster = array<i32: 2, 1>} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %c256 = arith.constant 256 : i32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bxi = arith.index_cast %bx : index to i32
      %byi = arith.index_cast %by : index to i32
      %m = arith.muli %bxi, %c128 : i32
      %n = arith.muli %byi, %c256 : i32
      %zero = arith.constant dense<0.0> : tensor<128x256xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x256xf32>) : i32 {
        %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %n, %k) : (!ws.tensor_desc<tensor<256x64xf16>>, i32, i32) -> tensor<256x64xf16>
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<256x64xf16>, tensor<128x256xf32>) -> tensor<128x256xf32>
        scf.yield %d : tensor<128x256xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xf16>
      "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, tensor<128x256xf16>) -> ()
      gpu.return
    }
  }
}

// -----

// A cluster along y shares A: a pair's MMA splits B, not A.
// CHECK: partition-schedule-pair.mlir:[[@LINE+20]]:14: error: 'ws.dot' op runs in a 1x2 cluster (ws.cluster) that does not share B alone: a pair of CTAs issues one tcgen05.mma of 2 x 128 rows (cta_group::2), each CTA bringing its own rows of A and half of B, so the pair must load the same B and different A: a cluster along the blocks that step M (array<i32: 2, 1> with m from block x)
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_100a">] {
    gpu.func @shares_a(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<256x64xf16>>,
                     %c: !ws.tensor_desc<tensor<128x256xf16>>, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32, ws.cluster = array<i32: 1, 2>} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %c256 = arith.constant 256 : i32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bxi = arith.index_cast %bx : index to i32
      %byi = arith.index_cast %by : index to i32
      %m = arith.muli %bxi, %c128 : i32
      %n = arith.muli %byi, %c256 : i32
      %zero = arith.constant dense<0.0> : tensor<128x256xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x256xf32>) : i32 {
        %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %n, %k) : (!ws.tensor_desc<tensor<256x64xf16>>, i32, i32) -> tensor<256x64xf16>
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<256x64xf16>, tensor<128x256xf32>) -> tensor<128x256xf32>
        scf.yield %d : tensor<128x256xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xf16>
      "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, tensor<128x256xf16>) -> ()
      gpu.return
    }
  }
}

// -----

// B given K x N: a pair splits B's N rows between its CTAs, so B must be N x K.
// CHECK: partition-schedule-pair.mlir:[[@LINE+20]]:14: error: 'ws.dot' op reads B as K x N in a 2x1 cluster; a pair of CTAs splits B along N between them, each loading half of its rows given N x K, so B must be N x K (transpose_b)
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_100a">] {
    gpu.func @b_k_by_n(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<64x256xf16>>,
                     %c: !ws.tensor_desc<tensor<128x256xf16>>, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32, ws.cluster = array<i32: 2, 1>} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %c256 = arith.constant 256 : i32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bxi = arith.index_cast %bx : index to i32
      %byi = arith.index_cast %by : index to i32
      %m = arith.muli %bxi, %c128 : i32
      %n = arith.muli %byi, %c256 : i32
      %zero = arith.constant dense<0.0> : tensor<128x256xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x256xf32>) : i32 {
        %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %k, %n) : (!ws.tensor_desc<tensor<64x256xf16>>, i32, i32) -> tensor<64x256xf16>
        %d = "ws.dot"(%ta, %tb, %acc0) : (tensor<128x64xf16>, tensor<64x256xf16>, tensor<128x256xf32>) -> tensor<128x256xf32>
        scf.yield %d : tensor<128x256xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xf16>
      "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, tensor<128x256xf16>) -> ()
      gpu.return
    }
  }
}

// -----

// Seed 003's block-scaled pair: A's scale atom differs between the CTAs and
// B's two are the same in each, but no scale atom is split: each CTA loads
// its own, which the leader's tcgen05.cp (cta_group::2) copies into each
// CTA's tensor memory.
// CHECK: remark: cluster 2x1 (ws.cluster): A at {{.*}} differs between them (each loads its own); B at {{.*}} is the same in each: each loads 128 of its 256 rows into its own slot, and the leader's one tcgen05.mma of the pair (cta_group::2) reads both; a block scale atom at {{.*}} differs between them (each loads its own); a block scale atom at {{.*}} is the same in each, and each loads it all: the leader's tcgen05.cp (cta_group::2) copies each CTA's scales into its own tensor memory; a block scale atom at {{.*}} is the same in each, and each loads it all
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
