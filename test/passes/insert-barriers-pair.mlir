// RUN: ws-opt --ws-pipeline=stage=plan %s | FileCheck %s
// The plan and protocol of an sm_100a pair (integration/matmul.mlir in
// clusters of two along x, retargeted): B's ring is split across the pair
// (split = "pair"), each CTA's slot holding its 128 of B's 256 rows
// (16384 bytes); the K channel's copies complete on the leader's full
// barrier (full_to = "leader"), which expects the pair's bytes (2 x 16384
// of A, 32768 of B), and the leader's commits release every CTA's slot
// (empty_to = "every", one arrival each); the accumulator's full barrier
// gets the leader's commit in every CTA (full_to = "every") and its empty
// barrier is the leader's, one arrival per epilogue warp of both CTAs
// (empty_to = "leader", 16). In the specialized kernel only the leader's
// load warp arrives with expect-tx, only the leader's MMA warp issues, both
// MMA warps allocate (cta_group::2, relinquished as the pair), each load
// warp waits for its last 4 releases, the epilogues hand the accumulator
// back with ws.arrive {leader}, and the dealloc follows the exit barrier.
// CHECK-LABEL: gpu.func @matmul
// CHECK-SAME: ws.channels = [{consumer_phase = 0 : i32, depth = 4 : i32, drain = 0 : i32, empty = {{[0-9]+}} : i32, empty_arrivals = 1 : i32, empty_to = "every", expect_tx = 65536 : i32, from = "load", full = {{[0-9]+}} : i32, full_arrivals = 1 : i32, full_to = "leader", producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "mma"}
// CHECK-SAME: {consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = {{[0-9]+}} : i32, empty_arrivals = 16 : i32, empty_to = "leader", expect_tx = 0 : i32, from = "mma", full = {{[0-9]+}} : i32, full_arrivals = 1 : i32, full_to = "every", producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "compute"}]
// CHECK-SAME: ws.rings = [{align = 1024 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32, tile = tensor<128x64xf16>}, {align = 1024 : i32, channel = 0 : i32, offset = 65536 : i32, slot_bytes = 16384 : i32, split = "pair", swizzle = 128 : i32, tile = tensor<256x64xf16>}
// CHECK: "ws.init_barrier"() {barrier = "empty", channel = 2 : i32, count = 16 : i32}
// CHECK: scf.if
// CHECK-NEXT: "ws.tmem_alloc"()
// CHECK-NEXT: nvvm.tcgen05.relinquish_alloc_permit {group = #nvvm.cta_group<cta_2>}
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// The epilogue hands its rows back to the leader.
// CHECK: "ws.tmem_load"
// CHECK-NEXT: nvvm.tcgen05.fence <before>
// CHECK-NEXT: "ws.arrive"(%{{.*}}) {barrier = "empty", channel = 2 : i32, leader}
// The load warp: the leader alone expects the pair's bytes.
// CHECK: "ws.wait"(%{{.*}}) {barrier = "empty", channel = 0 : i32}
// CHECK-NEXT: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank
// CHECK: %[[LEAD:.*]] = arith.cmpi eq, %[[RANK]], %{{.*}}
// CHECK-NEXT: scf.if %[[LEAD]] {
// CHECK-NEXT: "ws.arrive_expect_tx"(%{{.*}}) {bytes = 65536 : i32, channel = 0 : i32}
// CHECK-NEXT: }
// CHECK-NEXT: "ws.tma_load"(%{{.*}}) {ring = 0 : i32}
// CHECK-NEXT: "ws.tma_load"(%{{.*}}) {ring = 1 : i32}
// After its loop, its last four releases.
// CHECK-COUNT-4: "ws.wait"(%{{.*}}) {barrier = "empty", channel = 0 : i32}
// The MMA warp: the leader's thread issues for the pair.
// CHECK: nvvm.read.ptx.sreg.cluster.ctarank
// CHECK: arith.cmpi eq
// CHECK-NEXT: scf.if
// CHECK: "ws.tc_mma"
// CHECK-NEXT: "ws.commit"(%{{.*}}) {barrier = "empty", channel = 0 : i32, cluster}
// CHECK: "ws.commit"(%{{.*}}) {barrier = "full", channel = 2 : i32, cluster}
// The exit barrier, then the pair's dealloc.
// CHECK: nvvm.tcgen05.fence <before>
// CHECK-NEXT: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK: nvvm.tcgen05.fence <after>
// CHECK-NEXT: "ws.tmem_dealloc"()
// CHECK-NEXT: }
// CHECK-NEXT: gpu.return
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_100a">] {
    gpu.func @matmul(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<256x64xf16>>,
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
