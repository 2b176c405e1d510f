// RUN: ws-opt --ws-pipeline=stage=plan %s | ws-opt --pass-pipeline='builtin.module(ws-lower-to-nvvm, canonicalize, cse)' | FileCheck %s
// RUN: ws-opt --emit=ptx %s -o - | FileCheck %s --check-prefix=PTX
// ws-lower-to-nvvm on an sm_100a pair (insert-barriers-pair.mlir's
// kernel): every tcgen05 op is the pair's (cta_group::2, as PTX requires of
// all of a kernel's); each CTA copies its A and its half of B (its rank's
// 128 rows) into its own slots, completing on the leader's full barrier
// (its address in the cluster, mapa to rank 0); the leader's MMA is
// M = 256 (instruction descriptor bits 24-28: 16) and its commits are
// multicast to both CTAs (mask 3); 272629776 = 0x10400010: f32 D, N / 8 =
// 32, M / 16 = 16; the epilogue's hand-back is one remote
// arrival per warp on the leader's barrier.
// CHECK: nvvm.tcgen05.alloc %{{.*}} {group = #nvvm.cta_group<cta_2>}
// CHECK: nvvm.mapa %{{.*}}, %c0_i32
// CHECK: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<7>
// CHECK: %[[LEADER:.*]] = nvvm.mapa %{{.*}}, %c0_i32 : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg0, %{{.*}}, box[%{{.*}}] {group = #nvvm.cta_group<cta_2>}
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg1, %{{.*}}, box[%{{.*}}] {group = #nvvm.cta_group<cta_2>}
// CHECK: nvvm.tcgen05.mma %{{.*}}, %c272629776_i32, %{{.*}} {ctaGroup = #nvvm.cta_group<cta_2>
// CHECK: nvvm.tcgen05.commit %{{.*}}, multicast_mask = %{{.*}} {group = #nvvm.cta_group<cta_2>}
// CHECK: nvvm.tcgen05.dealloc %{{.*}} {group = #nvvm.cta_group<cta_2>}
// PTX: .reqnctapercluster 2, 1, 1
// PTX: tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32
// PTX: tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned
// PTX: mapa.shared::cluster.u64 {{.*}}, 0;
// PTX: mbarrier.arrive.shared::cluster.b64
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::2
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::2
// PTX: tcgen05.mma.cta_group::2.kind::f16
// PTX: tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64
// PTX: tcgen05.dealloc.cta_group::2.sync.aligned.b32
// PTX-NOT: cta_group::1
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
