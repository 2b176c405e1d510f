// RUN: ws-opt --pass-pipeline='builtin.module(ws-partition-schedule, ws-plan-memory)' %ws_src/integration/matmul.mlir | FileCheck %s --check-prefix=PLAN
// RUN: ws-opt --ws-pipeline=stage=plan %ws_src/integration/matmul.mlir | FileCheck %s
// RUN: ws-opt --ws-pipeline=stage=plan %ws_src/integration/matmul.mlir | ws-opt --pass-pipeline='builtin.module(ws-lower-to-nvvm, canonicalize, cse)' | FileCheck %s --check-prefix=LOWER
// The example matmul (integration/matmul.mlir) (128x256x64 f16, 8 warps: two consumer warpgroups).

// Memory: A and B rings swizzled by their 128-byte K rows (1024-aligned);
// 4 stages take 4 x 48 KiB = 192 KiB, so the 64 KiB C tile cannot follow
// them within 227 KiB: it lies over the rings (offset 0), free once the K
// loop is done.
// PLAN: "ws.load"(%arg0, {{.*}} ws.ring = {align = 1024 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32}
// PLAN: "ws.load"(%arg1, {{.*}} ws.ring = {align = 1024 : i32, channel = 0 : i32, offset = 65536 : i32, slot_bytes = 32768 : i32, swizzle = 128 : i32}
// PLAN: ws.channels = [{depth = 4 : i32, {{.*}} from = "load", {{.*}} to = "compute"}, {depth = 1 : i32, {{.*}} from = "compute", {{.*}} to = "store"}]
// The C tile is swizzled too (its 512-byte rows in four 128-byte boxes), so
// the consumers' fragment writes spread over all banks.
// PLAN: arith.truncf {{.*}} ws.ring = {align = 1024 : i32, channel = 1 : i32, offset = 0 : i32, slot_bytes = 65536 : i32, swizzle = 128 : i32}

// One block per SM: 12 warps, entry cap 65536 / 384 -> 168; the producer
// warpgroup drops to 24 and the consumers rise to (168 * 384 - 24 * 128) /
// 256 -> 240. The load channel is released by all 256 consumer threads;
// wgmma reads the slots through the async proxy, so no fence.
// CHECK: ws.block_threads = 384 : i32, ws.blocks_per_sm = 1 : i32
// CHECK-SAME: empty_arrivals = 256 : i32, expect_tx = 49152 : i32, {{.*}} release_fence = false
// CHECK-SAME: ws.maxnreg = 168 : i32
// CHECK-SAME: name = "compute", num_warps = 8 : i32, registers = 240 : i32

// Where each wait and release lands in the consumers: wait for the slot,
// fence the accumulator, wgmma, commit; wait until one group is in flight,
// then free the previous step's slot. After the loop: wait for the last
// group and free its slot; a barrier of the 256 consumers (the C tile lies
// over the rings); the epilogue math; the C tile to its slot for the store
// warp.
// CHECK: nvvm.setmaxregister increase 240
// CHECK: scf.for %{{.*}} iter_args(%[[N:.*]] = %{{.*}}, %[[ACC:.*]] = %cst) -> (i32, tensor<128x256xf32>)
// CHECK-NEXT: %[[S:.*]]:2 = "ws.slot_phase"(%[[N]]) {depth = 4 : i32, start_phase = 0 : i32}
// CHECK-NEXT: "ws.wait"(%[[S]]#0, %[[S]]#1) {barrier = "full", channel = 0 : i32}
// CHECK-NEXT: nvvm.wgmma.fence.aligned
// CHECK-NEXT: %[[D:.*]] = "ws.mma"(%[[S]]#0, %[[ACC]]) {ring_a = 0 : i32, ring_b = 1 : i32, transpose_b}
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: scf.if
// CHECK-NEXT: %[[PREV:.*]] = arith.subi %[[N]]
// CHECK-NEXT: %[[PS:.*]]:2 = "ws.slot_phase"(%[[PREV]]) {depth = 4 : i32, start_phase = 0 : i32}
// CHECK-NEXT: "ws.arrive"(%[[PS]]#0) {barrier = "empty", channel = 0 : i32}
// CHECK: scf.yield %{{.*}}, %[[D]] : i32, tensor<128x256xf32>
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: "ws.arrive"(%{{.*}}) {barrier = "empty", channel = 0 : i32}
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %c256_i32
// CHECK-NEXT: %[[OUT:.*]] = arith.truncf %{{.*}}#1 : tensor<128x256xf32> to tensor<128x256xf16>
// CHECK: "ws.wait"(%{{.*}}) {barrier = "empty", channel = 1 : i32}
// CHECK-NEXT: "ws.write_slot"(%[[OUT]], %{{.*}}) {ring = 2 : i32}
// CHECK-NEXT: nvvm.fence.proxy
// CHECK-NEXT: "ws.arrive"(%{{.*}}) {barrier = "full", channel = 1 : i32}
// The producer: wait for an empty slot, expect A and B, load both.
// CHECK: nvvm.setmaxregister decrease 24
// CHECK: "ws.wait"(%{{.*}}) {barrier = "empty", channel = 0 : i32}
// CHECK-NEXT: "ws.arrive_expect_tx"(%{{.*}}) {bytes = 49152 : i32, channel = 0 : i32}
// CHECK-NEXT: "ws.tma_load"(%arg0, {{.*}}) {ring = 0 : i32}
// CHECK-NEXT: "ws.tma_load"(%arg1, {{.*}}) {ring = 1 : i32}
// The store warp: wait for the C tile, store it exactly, drain.
// CHECK: "ws.wait"(%{{.*}}) {barrier = "full", channel = 1 : i32}
// CHECK-NEXT: "ws.tma_store"(%arg2, {{.*}}) {ring = 2 : i32}
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK-NEXT: nvvm.cp.async.bulk.wait_group 0

// Lowered: the loop carries the 128 f32 of each thread from zero; each K
// step of 64 is four m64n256k16 wgmma with descriptors 32 bytes (2 units)
// apart; 128B swizzle (mode 1 << 62), 1024-byte atoms (64 << 32).
// LOWER: llvm.mlir.zero : !llvm.struct<(f32, f32,
// LOWER: scf.for
// LOWER: nvvm.wgmma.fence.aligned
// LOWER: %[[DA:.*]] = arith.ori %{{.*}}, %c4611686293305360384_i64 : i64
// LOWER: %[[DB:.*]] = arith.ori %{{.*}}, %c4611686293305360384_i64 : i64
// LOWER: nvvm.wgmma.mma_async %[[DA]], %[[DB]], %{{.*}}, <m = 64, n = 256, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// LOWER: %[[DA1:.*]] = arith.addi %[[DA]], %c2_i64 : i64
// LOWER: %[[DB1:.*]] = arith.addi %[[DB]], %c2_i64 : i64
// LOWER: nvvm.wgmma.mma_async %[[DA1]], %[[DB1]]
// LOWER-COUNT-2: nvvm.wgmma.mma_async
// LOWER: nvvm.wgmma.commit.group.sync.aligned
// LOWER-NOT: ws.
// The store warp stores C as four boxes of 128 x 64, 16 KiB apart, each
// exactly (the edge path, emitted once, reads the swizzled slot).
// LOWER: scf.for %[[BOX:.*]] = %c0_i32 to %c4_i32 step %c1_i32
// LOWER-NEXT: %[[COLS:.*]] = arith.muli %[[BOX]], %c64_i32 : i32
// LOWER-NEXT: %[[COL:.*]] = arith.addi %{{.*}}, %[[COLS]] : i32
// LOWER: %[[OFF:.*]] = arith.muli %[[BOX]], %c16384_i32 : i32
// LOWER-NEXT: %[[SRC:.*]] = llvm.getelementptr %{{.*}}[%[[OFF]]]
// LOWER: arith.xori
// LOWER: nvvm.cp.async.bulk.tensor.global.shared.cta %arg2, %[[SRC]], box[%[[COL]], %{{.*}}]
// LOWER-NOT: nvvm.cp.async.bulk.tensor.global.shared.cta
