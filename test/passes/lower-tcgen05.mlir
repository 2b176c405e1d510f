// RUN: sed 's/sm_90a/sm_100a/' %ws_src/integration/matmul.mlir | ws-opt --ws-pipeline=stage=plan | ws-opt --pass-pipeline='builtin.module(ws-lower-to-nvvm, canonicalize, cse)' | FileCheck %s
// RUN: sed 's/sm_90a/sm_100a/' %ws_src/integration/matmul.mlir | ws-opt --emit=ptx -o - | FileCheck %s --check-prefix=PTX
// ws-lower-to-nvvm on an sm_100a matmul: each tcgen05 op where it runs.
// The allocation, by the whole MMA warp, into the address word; 256 columns.
// CHECK: nvvm.tcgen05.alloc %{{.*}}, %c256_i32 : !llvm.ptr<3>, i32
// CHECK-NEXT: nvvm.tcgen05.relinquish_alloc_permit
// The epilogue warps: two tcgen05.ld of 16 lanes x 128 columns (each
// warpgroup half of the 256), then the wait, after the fence.
// CHECK: nvvm.tcgen05.fence <after>
// CHECK: nvvm.tcgen05.ld %{{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_16x256b>} : vector<64xi32>
// CHECK: nvvm.tcgen05.ld %{{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_16x256b>} : vector<64xi32>
// CHECK-NEXT: nvvm.tcgen05.wait <load>
// CHECK: nvvm.tcgen05.fence <before>
// The MMA warp: four K steps of 16 per 64-wide K tile, from tcgen05 shared
// memory descriptors (128-byte swizzle: mode 2, 1024-byte 8-row atoms), the
// first step accumulating only past the first K tile; kind::f16 with an f32
// accumulator, N = 256 and M = 128 in the instruction descriptor
// (0x8400010 = 138412048); then the commit to the slot's empty barrier.
// CHECK: scf.for
// CHECK: nvvm.tcgen05.mma_smem_desc(%{{.*}}, %c1_i32, %c64_i32, %c0_i8, %false, %c2_i8)
// CHECK: nvvm.tcgen05.mma %[[D:.*]], %{{.*}}, %{{.*}}, %c138412048_i32, %{{.*}} {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>}
// CHECK: nvvm.tcgen05.mma %[[D]], %{{.*}}, %{{.*}}, %c138412048_i32, %true
// CHECK: nvvm.tcgen05.mma %[[D]], %{{.*}}, %{{.*}}, %c138412048_i32, %true
// CHECK: nvvm.tcgen05.mma %[[D]], %{{.*}}, %{{.*}}, %c138412048_i32, %true
// CHECK-NEXT: %[[AT:.*]] = arith.addi %{{.*}}, %c196640_i32
// CHECK-NEXT: %[[EMPTY:.*]] = llvm.getelementptr %{{.*}}[%[[AT]]]
// CHECK-NEXT: nvvm.tcgen05.commit %[[EMPTY]] : !llvm.ptr<3>
// CHECK: nvvm.tcgen05.commit %{{.*}} : !llvm.ptr<3>
// The dealloc, after the last block-wide barrier.
// CHECK: nvvm.barrier0
// CHECK: nvvm.tcgen05.fence <after>
// CHECK: nvvm.tcgen05.dealloc %{{.*}}, %c256_i32 : !llvm.ptr<6>, i32
// CHECK-NOT: wgmma
// PTX: .target sm_100a
// PTX-NOT: wgmma
// PTX: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32
// PTX: tcgen05.ld.sync.aligned.16x256b.x16.b32
// PTX: tcgen05.mma.cta_group::1.kind::f16
// PTX: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64
// PTX: tcgen05.dealloc.cta_group::1.sync.aligned.b32
