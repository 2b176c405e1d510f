// RUN: ws-opt --ws-pipeline=stage=plan %s | FileCheck %s
// The plan and protocol of a cluster kernel (integration/matmul.mlir in
// clusters of two along x, so the pair shares B): B's ring is split across
// the pair by multicast (split = "multicast"); its channel's releases reach
// every CTA (empty_to = "every"), so its empty barrier
// counts one arrival per consumer warp of both CTAs (8 x 2); the inits are
// published by a cluster barrier (not nvvm.barrier0) whose arrive is
// relaxed, the fence.mbarrier.init before it ordering the inits; every
// release of a K slot goes to both CTAs' barriers (ws.arrive {cluster}),
// and every thread ends at a cluster barrier whose arrive releases.
// CHECK-LABEL: gpu.func @matmul
// CHECK-SAME: ws.channels = [{consumer_phase = 0 : i32, depth = 4 : i32, drain = 0 : i32, empty = {{[0-9]+}} : i32, empty_arrivals = 16 : i32, empty_to = "every", expect_tx = 49152 : i32, from = "load"
// CHECK-SAME: ws.cluster = array<i32: 2, 1>
// CHECK-SAME: ws.rings = [{align = 1024 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32, tile = tensor<128x64xf16>}, {align = 1024 : i32, channel = 0 : i32, offset = 65536 : i32, slot_bytes = 32768 : i32, split = "multicast", swizzle = 128 : i32, tile = tensor<256x64xf16>}
// CHECK: "ws.init_barrier"() {barrier = "empty", channel = 0 : i32, count = 16 : i32}
// CHECK: nvvm.fence.mbarrier.init
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.cluster.arrive.relaxed {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK-NOT: nvvm.barrier0
// CHECK: "ws.arrive"(%{{.*}}) {barrier = "empty", channel = 0 : i32, cluster}
// CHECK: "ws.arrive"(%{{.*}}) {barrier = "empty", channel = 0 : i32, cluster}
// CHECK: "ws.arrive"(%{{.*}}) {barrier = "full", channel = 1 : i32} :
// CHECK: "ws.tma_load"(%{{.*}}) {ring = 1 : i32}
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK-NEXT: gpu.return
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
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
