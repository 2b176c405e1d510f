// A split elementwise loop (ws.split_compute = true, two parts that share no
// tile) sliced: each compute partition under its own warp range and
// setmaxnreg, with its own channels only; the producers' warpgroup after
// both. The proof holds, and refuses the plan with a part's protocol broken.
// RUN: ws-opt %ws_src/integration/split/two_parts.mlir --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule,ws-plan-memory,ws-insert-barriers,ws-specialize,ws-check-protocol)' -o %t
// RUN: FileCheck %s --input-file=%t
// RUN: FileCheck %s --input-file=%t --check-prefix=OWN
// RUN: ws-opt %ws_src/integration/split/two_parts.mlir --emit=mlir -o - | FileCheck %s --check-prefix=LOWERED

// compute: warps 0-3, channels 0 (a, b) and 2 (c).
// CHECK: %[[C4:.*]] = arith.constant 4 : i32
// CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi ult, %[[WARP:.*]], %[[C4]] : i32
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: nvvm.setmaxregister  increase 104
// CHECK: "ws.wait"({{.*}}) {barrier = "full", channel = 0 : i32}
// CHECK: arith.addf
// CHECK: "ws.arrive"({{.*}}) {barrier = "full", channel = 2 : i32}
// compute1: warps 4-7, channels 1 (d) and 3 (e).
// CHECK: } else {
// CHECK-NEXT: %[[C8:.*]] = arith.constant 8 : i32
// CHECK-NEXT: %[[SECOND:.*]] = arith.cmpi ult, %[[WARP]], %[[C8]] : i32
// CHECK-NEXT: scf.if %[[SECOND]] {
// CHECK-NEXT: nvvm.setmaxregister  increase 104
// CHECK: "ws.wait"({{.*}}) {barrier = "full", channel = 1 : i32}
// CHECK: math.exp
// CHECK: "ws.arrive"({{.*}}) {barrier = "full", channel = 3 : i32}
// The load and store warps (8 and 9).
// CHECK: } else {
// CHECK-NEXT: nvvm.setmaxregister  decrease 24

// No slice touches the other part's channels.
// OWN: increase 104
// OWN-NOT: channel = {{[13]}} :
// OWN: } else {
// OWN: increase 104
// OWN-NOT: channel = {{[02]}} :
// OWN: } else {

// Each compute partition's threads index their tiles from 0: tid mod 128.
// LOWERED: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// LOWERED-NEXT: llvm.urem %[[TID]], %{{.*}} : i32

// compute1 never releases its input slot: the load warp's wait on it for
// a lap later finds no arrival.
// RUN: sed '/"ws.arrive".*barrier = "empty", channel = 1 :/d' %t \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RELEASE --implicit-check-not=error:
// RELEASE: error: 'ws.wait' op breaks the protocol rule 'balance': the load partition (warp 8, 1 thread) waits on the empty barrier of channel 1 for iteration 3, which needs the arrivals of iteration 0, but no partition arrives on it then

// compute1 waits on compute's barrier and reads its own slot unguarded.
// RUN: sed 's/"ws.wait"(\(.*\)) {barrier = "full", channel = 1 :/"ws.wait"(\1) {barrier = "full", channel = 0 :/' %t \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FOREIGN --implicit-check-not=error:
// FOREIGN: error: 'ws.read_slot' op breaks the protocol rule 'balance': reads slot 0 of ring 2 for iteration 0 without first waiting on the full barrier of channel 1 for it

// compute1 never hands its tile over: the store warp waits forever.
// RUN: sed '/"ws.arrive".*barrier = "full", channel = 3 :/d' %t \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=HANDOFF --implicit-check-not=error:
// HANDOFF: error: 'ws.wait' op breaks the protocol rule 'balance': the store partition (warp 9, 1 thread) waits on the full barrier of channel 3 for iteration 0

// The table must say what the branches do: compute1's warps moved onto
// compute's, or the store warp past the block, is a plan edited by hand.
// RUN: sed 's/first_warp = 4 : i32, name = "compute1"/first_warp = 0 : i32, name = "compute1"/' %t \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OVERLAP --implicit-check-not=error:
// OVERLAP: error: 'gpu.func' op ws.partitions: partition "compute1" (warps 0-3) overlaps "compute" (0-3); the plan is inconsistent (edited by hand?)
// RUN: sed 's/first_warp = 9 : i32, name = "store"/first_warp = 12 : i32, name = "store"/' %t \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OUTSIDE --implicit-check-not=error:
// OUTSIDE: error: 'gpu.func' op ws.partitions: partition "store" takes warps 12-12 of a block of 384 threads; the plan is inconsistent (edited by hand?)
