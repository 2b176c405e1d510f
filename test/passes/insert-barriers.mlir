// RUN: ws-opt --split-input-file --pass-pipeline='builtin.module(ws-partition-schedule, ws-plan-memory, ws-insert-barriers, ws-specialize)' %S/Inputs/elementwise-kernels.mlir | FileCheck %s
// RUN: ws-opt --split-input-file --pass-pipeline='builtin.module(ws-partition-schedule, ws-plan-memory, ws-insert-barriers, ws-specialize)' %S/Inputs/elementwise-kernels.mlir | FileCheck %s --check-prefix=PROTO
// RUN: ws-opt --split-input-file --pass-pipeline='builtin.module(ws-partition-schedule, ws-plan-memory, ws-insert-barriers{max-blocks-per-sm=4}, ws-specialize)' %S/Inputs/elementwise-kernels.mlir | FileCheck %s --check-prefix=FOUR

// The load channel: filled by TMA (one arrive with expect-tx of both boxes,
// 2 x 8 KiB), drained by 128 compute threads, which fence before releasing;
// producers start at phase 1, consumers at 0. The store channel: filled by
// the compute threads (fence before publishing), released by the store
// thread one TMA store behind (drain = depth - 1). The tables move from the
// loop to the kernel, which the protocol ops index.
// CHECK-LABEL: gpu.func @add_auto
// CHECK-SAME: ws.block_threads = 256 : i32, ws.blocks_per_sm = 2 : i32
// CHECK-SAME: ws.channels = [{consumer_phase = 0 : i32, depth = 4 : i32, drain = 0 : i32, empty = 81952 : i32, empty_arrivals = 128 : i32, expect_tx = 16384 : i32, from = "load", full = 81920 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = true, to = "compute"},
// CHECK-SAME: {consumer_phase = 0 : i32, depth = 2 : i32, drain = 1 : i32, empty = 82000 : i32, empty_arrivals = 1 : i32, expect_tx = 0 : i32, from = "compute", full = 81984 : i32, full_arrivals = 128 : i32, producer_phase = 1 : i32, publish_fence = true, release_fence = false, to = "store"}]
// CHECK-SAME: ws.maxnreg = 128 : i32
// Compute is warpgroup 0 (warps 0-3); load and store share warpgroup 1 and
// drop to 24 registers; compute rises to (128 * 256 - 24 * 128) / 128 = 232.
// CHECK-SAME: ws.partitions = [{first_warp = 4 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 4 : i32, registers = 232 : i32, role = "compute"}, {first_warp = 5 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}]
// CHECK-SAME: ws.rings = [{align = 128 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32, tile = tensor<32x64xf32>}, {align = 128 : i32, channel = 0 : i32, offset = 32768 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32, tile = tensor<32x64xf32>}, {align = 128 : i32, channel = 1 : i32, offset = 65536 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32, tile = tensor<32x64xf32>}]
// CHECK-NOT: ws.partition =
// CHECK-NOT: ws.warp_specialize

// Where every wait and every release lands. Thread 0 initializes each
// barrier with its arrival count; then each partition is a branch with its
// own copy of the loop and a counter %n that ws.slot_phase turns into slot
// and phase.
// PROTO-LABEL: gpu.func @add_auto
// PROTO: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// PROTO: %[[WARP:.*]] = arith.divui %[[TID]]
// PROTO: scf.if
// PROTO-NEXT: "ws.init_barrier"() {barrier = "full", channel = 0 : i32, count = 1 : i32}
// PROTO-NEXT: "ws.init_barrier"() {barrier = "empty", channel = 0 : i32, count = 128 : i32}
// PROTO-NEXT: "ws.init_barrier"() {barrier = "full", channel = 1 : i32, count = 128 : i32}
// PROTO-NEXT: "ws.init_barrier"() {barrier = "empty", channel = 1 : i32, count = 1 : i32}
// PROTO-NEXT: nvvm.fence.mbarrier.init
// PROTO-NEXT: }
// PROTO-NEXT: nvvm.barrier0
// Compute (warps 0-3): wait until the loads landed, read both slots, fence
// (TMA will refill them) and release; add; wait for an empty output slot,
// write it, fence (a TMA store reads it) and publish.
// PROTO: arith.cmpi ult, %[[WARP]], %c4_i32
// PROTO-NEXT: scf.if
// PROTO-NEXT: nvvm.setmaxregister increase 232
// PROTO: scf.for %[[K:.*]] = %{{.*}} iter_args(%[[N:.*]] = %{{.*}}) -> (i32)
// PROTO-NEXT: %[[IN:.*]]:2 = "ws.slot_phase"(%[[N]]) {depth = 4 : i32, start_phase = 0 : i32}
// PROTO-NEXT: "ws.wait"(%[[IN]]#0, %[[IN]]#1) {barrier = "full", channel = 0 : i32}
// PROTO-NEXT: %[[A:.*]] = "ws.read_slot"(%[[IN]]#0) {ring = 0 : i32} : (i32) -> tensor<32x64xf32>
// PROTO-NEXT: %[[B:.*]] = "ws.read_slot"(%[[IN]]#0) {ring = 1 : i32} : (i32) -> tensor<32x64xf32>
// PROTO-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// PROTO-NEXT: "ws.arrive"(%[[IN]]#0) {barrier = "empty", channel = 0 : i32}
// PROTO-NEXT: %[[C:.*]] = arith.addf %[[A]], %[[B]] : tensor<32x64xf32>
// PROTO-NEXT: %[[OUT:.*]]:2 = "ws.slot_phase"(%[[N]]) {depth = 2 : i32, start_phase = 1 : i32}
// PROTO-NEXT: "ws.wait"(%[[OUT]]#0, %[[OUT]]#1) {barrier = "empty", channel = 1 : i32}
// PROTO-NEXT: "ws.write_slot"(%[[C]], %[[OUT]]#0) {ring = 2 : i32}
// PROTO-NEXT: nvvm.fence.proxy
// PROTO-NEXT: "ws.arrive"(%[[OUT]]#0) {barrier = "full", channel = 1 : i32}
// PROTO: scf.yield
// The TMA warps drop their registers; the load warp's elected lane waits
// for an empty slot, expects both boxes' bytes and issues both loads.
// PROTO: } else {
// PROTO-NEXT: nvvm.setmaxregister decrease 24
// PROTO: arith.cmpi eq, %[[WARP]], %c4_i32
// PROTO-NEXT: nvvm.elect.sync
// PROTO: scf.for %[[LK:.*]] = %{{.*}} iter_args(%[[LN:.*]] = %{{.*}}) -> (i32)
// PROTO-NEXT: %[[L:.*]]:2 = "ws.slot_phase"(%[[LN]]) {depth = 4 : i32, start_phase = 1 : i32}
// PROTO-NEXT: "ws.wait"(%[[L]]#0, %[[L]]#1) {barrier = "empty", channel = 0 : i32}
// PROTO-NEXT: "ws.arrive_expect_tx"(%[[L]]#0) {bytes = 16384 : i32, channel = 0 : i32}
// PROTO-NEXT: "ws.tma_load"(%arg0, %{{.*}}, %[[LK]], %[[L]]#0) {ring = 0 : i32}
// PROTO-NEXT: "ws.tma_load"(%arg1, %{{.*}}, %[[LK]], %[[L]]#0) {ring = 1 : i32}
// The store warp's elected lane waits for a full slot, stores it, and
// releases the slot it stored one iteration ago once that store has read
// it; it drains every store before it exits.
// PROTO: arith.cmpi eq, %[[WARP]], %c5_i32
// PROTO: scf.for %[[SK:.*]] = %{{.*}} iter_args(%[[SN:.*]] = %{{.*}}) -> (i32)
// PROTO-NEXT: %[[S:.*]]:2 = "ws.slot_phase"(%[[SN]]) {depth = 2 : i32, start_phase = 0 : i32}
// PROTO-NEXT: "ws.wait"(%[[S]]#0, %[[S]]#1) {barrier = "full", channel = 1 : i32}
// PROTO-NEXT: "ws.tma_store"(%arg2, %{{.*}}, %[[SK]], %[[S]]#0) {ring = 2 : i32}
// PROTO-NEXT: nvvm.cp.async.bulk.commit.group
// PROTO-NEXT: nvvm.cp.async.bulk.wait_group 1 {read}
// PROTO: %[[OLD:.*]] = arith.subi %[[SN]], %c1_i32
// PROTO-NEXT: %[[OS:.*]]:2 = "ws.slot_phase"(%[[OLD]]) {depth = 2 : i32, start_phase = 0 : i32}
// PROTO-NEXT: "ws.arrive"(%[[OS]]#0) {barrier = "empty", channel = 1 : i32}
// PROTO: scf.yield
// PROTO-NEXT: }
// PROTO-NEXT: nvvm.cp.async.bulk.wait_group 0
// PROTO-NOT: ws.load
// PROTO-NOT: ws.store
// PROTO: gpu.return
// FOUR-LABEL: gpu.func @add_auto
// FOUR-SAME: ws.blocks_per_sm = 2 : i32

// With ws.num_stages = 1 the store thread keeps no store in flight.
// CHECK-LABEL: gpu.func @add_s1
// CHECK: drain = 0 : i32, {{.*}} from = "compute"
// Small enough for four blocks per SM: the cap drops to 64 per thread and
// compute gets (64 * 256 - 24 * 128) / 128 = 104.
// FOUR-LABEL: gpu.func @add_s1
// FOUR-SAME: ws.blocks_per_sm = 4 : i32, {{.*}} ws.maxnreg = 64 : i32
// FOUR: name = "compute", num_warps = 4 : i32, registers = 104 : i32

// CHECK-LABEL: gpu.func @add_s3
// CHECK: drain = 2 : i32, {{.*}} from = "compute"

// 64x128 f16: expect-tx covers two 16 KiB boxes.
// CHECK-LABEL: gpu.func @add_f16
// CHECK: expect_tx = 32768 : i32

// 8 compute warps: 12 warps in all, entry cap 65536 / 2 / 384 -> 80; the
// block's pool is 80 * 384, so compute may rise to (30720 - 3072) / 256 -> 104.
// CHECK-LABEL: gpu.func @add_bf16_w8
// CHECK-SAME: ws.block_threads = 384 : i32, ws.blocks_per_sm = 2 : i32
// CHECK-SAME: empty_arrivals = 256 : i32
// CHECK-SAME: ws.maxnreg = 80 : i32
// CHECK-SAME: {first_warp = 8 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 8 : i32, registers = 104 : i32, role = "compute"}, {first_warp = 9 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}
