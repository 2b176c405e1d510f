// A tile that crosses from one compute partition to another (a schedule
// written by hand, Inputs/compute-chain.sched.mlir: exp in compute, the
// product in compute1): ws-plan-memory gives the crossing a channel of its
// own, ws-insert-barriers counts every thread of each side and fences
// nothing (both sides are the generic proxy, which the mbarrier's release
// and acquire order), and the slicer gives compute the write and compute1
// the read, under their own warp ranges. The proof holds, and refuses the
// chain with a side broken; the kernel compiles to a cubin.
// RUN: ws-opt %S/Inputs/compute-chain.sched.mlir --pass-pipeline='builtin.module(ws-plan-memory,ws-insert-barriers,ws-specialize,ws-check-protocol)' -o %t
// RUN: FileCheck %s --input-file=%t
// RUN: ws-opt %S/Inputs/compute-chain.sched.mlir --emit=cubin -o %t.cubin

// CHECK: {consumer_phase = 0 : i32, depth = 2 : i32, drain = 0 : i32, empty = {{[0-9]+}} : i32, empty_arrivals = 128 : i32, expect_tx = 0 : i32, from = "compute", full = {{[0-9]+}} : i32, full_arrivals = 128 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "compute1"}
// compute (warps 0-3): exp, then the hand-off.
// CHECK: arith.cmpi ult, %{{.*}}, %c4_i32
// CHECK: math.exp
// CHECK-NEXT: %[[PUT:.*]]:2 = "ws.slot_phase"(%{{.*}}) {depth = 2 : i32, start_phase = 1 : i32}
// CHECK-NEXT: "ws.wait"(%[[PUT]]#0, %[[PUT]]#1) {barrier = "empty", channel = 1 : i32}
// CHECK-NEXT: "ws.write_slot"(%{{.*}}, %[[PUT]]#0) {ring = 1 : i32}
// CHECK-NEXT: "ws.arrive"(%[[PUT]]#0) {barrier = "full", channel = 1 : i32}
// compute1 (warps 4-7): the read, released at once, then the product.
// CHECK: arith.cmpi ult, %{{.*}}, %c8_i32
// CHECK: %[[GET:.*]]:2 = "ws.slot_phase"(%{{.*}}) {depth = 2 : i32, start_phase = 0 : i32}
// CHECK-NEXT: "ws.wait"(%[[GET]]#0, %[[GET]]#1) {barrier = "full", channel = 1 : i32}
// CHECK-NEXT: "ws.read_slot"(%[[GET]]#0) {ring = 1 : i32}
// CHECK-NEXT: "ws.arrive"(%[[GET]]#0) {barrier = "empty", channel = 1 : i32}
// CHECK: arith.mulf

// Case NO_RELEASE, compute1 never frees the slot it reads: compute's
// third hand-off waits forever.
// RUN: sed '/"ws.arrive".*barrier = "empty", channel = 1 :/d' %t \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NO_RELEASE --implicit-check-not=error:
// NO_RELEASE: error: 'ws.wait' op breaks the protocol rule 'balance': the compute partition (warps 0-3) waits on the empty barrier of channel 1 for iteration 2
