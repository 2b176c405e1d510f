// RUN: ws-opt --ws-pipeline=stage=plan %ws_src/integration/add.mlir | ws-opt --pass-pipeline='builtin.module(ws-lower-to-nvvm, canonicalize, cse)' | FileCheck %s
// RUN: ws-opt --ws-pipeline=stage=plan %ws_src/integration/add.mlir | ws-opt --pass-pipeline='builtin.module(ws-lower-to-nvvm)' | FileCheck %s --check-prefix=CLEAN
// The planned add kernel becomes an llvm.func kernel: descriptors are
// grid-constant byval parameters, shared memory is one 1024-aligned arena,
// each partition is a branch on the warp index with its own loop.

// CLEAN-NOT: ws.
// CLEAN-NOT: "ws.

// CHECK: gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">]
// CHECK: llvm.mlir.global external @ws_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// The stored descriptor's map is followed by its store view (12 x i64).
// CHECK: llvm.func @add(%{{[a-z0-9]+}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %{{[a-z0-9]+}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}
// CHECK-SAME: %[[MAP:[a-z0-9]+]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %[[VIEW:[a-z0-9]+]]: !llvm.ptr {llvm.align = 8 : i64, llvm.byval = !llvm.array<12 x i64>, nvvm.grid_constant}
// CHECK-SAME: %{{.*}}: i32) attributes {nvvm.kernel, nvvm.maxnreg = 128 : i32, nvvm.reqntid = array<i32: 256>}
// Thread 0 sets up every barrier: load full (1 arrival + tx), load empty (128
// compute threads), x4 slots; store full (128), store empty (1), x2.
// CHECK: scf.if
// CHECK-COUNT-12: nvvm.mbarrier.init
// CHECK: nvvm.fence.mbarrier.init
// CHECK: nvvm.barrier0
// Compute warpgroup: raise registers, wait full (consumer phase from the
// counter), read 16-byte chunks, fence, release, add, wait empty (producer
// phase), write, fence, publish.
// CHECK: arith.cmpi ult, %[[WARP:.*]], %c4_i32
// CHECK: nvvm.setmaxregister  increase 232
// CHECK: scf.for {{.*}} iter_args(%[[I:.*]] = %c0_i32) -> (i32)
// CHECK: arith.remui %[[I]], %c4_i32
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK-COUNT-8: llvm.load {{.*}}{alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NOT: llvm.load
// CHECK: nvvm.mbarrier.arrive
// CHECK-COUNT-4: arith.addf {{.*}} : vector<4xf32>
// CHECK: arith.xori
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK-COUNT-4: llvm.store {{.*}}{alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK: nvvm.fence.proxy
// CHECK: nvvm.mbarrier.arrive
// Producer warpgroup: lower registers; the elected lane of warp 4 issues TMA
// loads under one expect-tx of both boxes; warp 5 issues TMA stores.
// CHECK: } else {
// CHECK-NEXT: nvvm.setmaxregister  decrease 24
// CHECK: nvvm.elect.sync
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c16384_i32
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: nvvm.elect.sync
// CHECK: nvvm.mbarrier.try_wait.parity
// A tile whose columns reach the view's limit (the last partial 16-byte
// granule of a row) or that starts at a negative coordinate is copied
// element by element, each row and column
// checked against the tensor's sizes; any other tile is one TMA store.
// CHECK: %[[LIMIT_PTR:.*]] = llvm.getelementptr %[[VIEW]][8]
// CHECK: %[[LIMIT:.*]] = llvm.load %[[LIMIT_PTR]] {alignment = 8 : i64} : !llvm.ptr -> i64
// CHECK: %[[END:.*]] = arith.addi %{{.*}}, %c64_i64 : i64
// CHECK: %[[PAST:.*]] = arith.cmpi sgt, %[[END]], %[[LIMIT]] : i64
// A negative coordinate (where a TMA store faults) takes the element path too.
// CHECK: arith.cmpi slt, %{{.*}}, %c0_i32
// CHECK: arith.ori %[[PAST]]
// CHECK: arith.cmpi slt, %{{.*}}, %c0_i32
// CHECK: %[[EDGE:.*]] = arith.ori
// CHECK: scf.if %[[EDGE]] {
// The tile's in-bounds columns, once per tile; then each row is checked.
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: scf.for %[[ROW:.*]] = %c0_i32 to %c32_i32 step %c1_i32
// CHECK: arith.cmpi ult
// CHECK: scf.if
// CHECK: scf.for
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK: llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<1>
// CHECK: llvm.store %{{.*}} : i32, !llvm.ptr<1>
// CHECK: } else {
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAP]]
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK-NEXT: nvvm.cp.async.bulk.wait_group 1 {read}
// CHECK: arith.cmpi uge
// CHECK: nvvm.mbarrier.arrive
// CHECK: nvvm.cp.async.bulk.wait_group 0
// CHECK: llvm.return
