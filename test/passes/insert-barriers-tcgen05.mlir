// RUN: sed 's/sm_90a/sm_100a/' %ws_src/integration/matmul.mlir | ws-opt --pass-pipeline='builtin.module(ws-verify, ws-partition-schedule, ws-plan-memory, ws-insert-barriers{explain=true}, ws-specialize)' 2>&1 | FileCheck %s
// ws-insert-barriers on an sm_100a matmul (integration/matmul.mlir,
// retargeted): the seeds' protocol. The MMA warp allocates tensor memory
// before the block-wide barrier; its elected thread waits for each K step's
// slot, issues the step's tcgen05.mma (overwriting the accumulator on the
// first step) and commits it to the slot's empty barrier, then commits the
// tile to the accumulator's full barrier. The epilogue warps wait for it,
// read it between the two tcgen05 fences, hand the buffer back, and stage C
// for the store warp as on sm_90a. The dealloc follows a last block-wide
// barrier.
// CHECK: remark: warp layout: load warp 8, compute warps 0-7, mma warp 9, store warp 10; 384 threads in 3 warpgroup(s): compute warps first (whole warpgroups, as tcgen05.ld and setmaxnreg need), the load, MMA and store warps share the next warpgroup
// CHECK: remark: channel 0 (load -> mma): 4 slots; the full barrier counts 1 arrival (one elected lane) with expect-tx of 49152 bytes (every box TMA writes), the empty barrier 1 (tcgen05.commit from the MMA warp: it lands once the MMAs that read the slot are done)
// CHECK: remark: channel 0: no proxy fence: TMA writes the slots and tcgen05.mma reads them, both through the async proxy
// CHECK: remark: channel 2 (mma -> compute): 1 slot; the full barrier counts 1 arrival (tcgen05.commit from the MMA warp: it lands once the tile's MMAs are done), the empty barrier 256 (every compute thread, after its last read)
// CHECK: remark: channel 2: no proxy fence: its buffers are in tensor memory, ordered by tcgen05 fences around the barrier waits and arrivals instead
// CHECK: ws.partitions = [{first_warp = 8 : i32, name = "load", {{.*}}}, {first_warp = 0 : i32, name = "compute", num_warps = 8 : i32, registers = 240 : i32, role = "compute"}, {first_warp = 9 : i32, name = "mma", num_warps = 1 : i32, registers = 24 : i32, role = "mma"}, {first_warp = 10 : i32, name = "store", {{.*}}}]
// CHECK-SAME: ws.tmem = {address = 196704 : i32, allocated = 256 : i32, channel = 2 : i32, columns = 256 : i32, tile = tensor<128x256xf32>}
// CHECK: "ws.init_barrier"() {barrier = "full", channel = 0 : i32, count = 1 : i32}
// CHECK-NEXT: "ws.init_barrier"() {barrier = "empty", channel = 0 : i32, count = 1 : i32}
// CHECK: "ws.init_barrier"() {barrier = "full", channel = 2 : i32, count = 1 : i32}
// CHECK-NEXT: "ws.init_barrier"() {barrier = "empty", channel = 2 : i32, count = 256 : i32}
// CHECK: %[[MMA_WARP:.*]] = arith.cmpi eq, %{{.*}}, %c9_i32
// CHECK-NEXT: scf.if %[[MMA_WARP]] {
// CHECK-NEXT: "ws.tmem_alloc"()
// CHECK-NEXT: nvvm.tcgen05.relinquish_alloc_permit
// CHECK-NEXT: nvvm.tcgen05.fence <before>
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: nvvm.tcgen05.fence <after>
// The epilogue warps.
// CHECK: nvvm.setmaxregister increase 240
// CHECK: %[[B:.*]]:2 = "ws.slot_phase"(%{{.*}}) {depth = 1 : i32, start_phase = 0 : i32}
// CHECK-NEXT: "ws.wait"(%[[B]]#0, %[[B]]#1) {barrier = "full", channel = 2 : i32}
// CHECK-NEXT: nvvm.tcgen05.fence <after>
// CHECK-NEXT: %[[FILLED:.*]] = arith.cmpi slt, %c0_i32, %arg3
// CHECK-NEXT: %[[ACC:.*]] = "ws.tmem_load"(%[[B]]#0, %[[FILLED]]) : (i32, i1) -> tensor<128x256xf32>
// CHECK-NEXT: nvvm.tcgen05.fence <before>
// CHECK-NEXT: "ws.arrive"(%[[B]]#0) {barrier = "empty", channel = 2 : i32}
// CHECK-NEXT: %[[OUT:.*]] = arith.truncf %[[ACC]]
// CHECK: "ws.write_slot"(%[[OUT]], %{{.*}}) {ring = 2 : i32}
// The MMA warp's elected thread.
// CHECK: nvvm.setmaxregister decrease 24
// CHECK: %[[BUF:.*]]:2 = "ws.slot_phase"(%{{.*}}) {depth = 1 : i32, start_phase = 1 : i32}
// CHECK-NEXT: "ws.wait"(%[[BUF]]#0, %[[BUF]]#1) {barrier = "empty", channel = 2 : i32}
// CHECK-NEXT: nvvm.tcgen05.fence <after>
// CHECK-NEXT: scf.for %{{.*}} = %c0_i32 to %arg3 step %c64_i32 iter_args(%[[N:.*]] = %[[N0:.*]]) -> (i32)
// CHECK-NEXT: %[[S:.*]]:2 = "ws.slot_phase"(%[[N]]) {depth = 4 : i32, start_phase = 0 : i32}
// CHECK-NEXT: "ws.wait"(%[[S]]#0, %[[S]]#1) {barrier = "full", channel = 0 : i32}
// CHECK-NEXT: %[[ACCUMULATE:.*]] = arith.cmpi ne, %[[N]], %[[N0]]
// CHECK-NEXT: "ws.tc_mma"(%[[S]]#0, %[[BUF]]#0, %[[ACCUMULATE]]) {ring_a = 0 : i32, ring_b = 1 : i32, transpose_b}
// CHECK-NEXT: "ws.commit"(%[[S]]#0) {barrier = "empty", channel = 0 : i32}
// CHECK: "ws.commit"(%[[BUF]]#0) {barrier = "full", channel = 2 : i32}
// The dealloc, after every thread's last tensor-memory access.
// CHECK: nvvm.tcgen05.fence <before>
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: %c9_i32
// CHECK-NEXT: arith.cmpi eq, %{{.*}}, %c9_i32
// CHECK-NEXT: scf.if
// CHECK-NEXT: nvvm.tcgen05.fence <after>
// CHECK-NEXT: "ws.tmem_dealloc"()
