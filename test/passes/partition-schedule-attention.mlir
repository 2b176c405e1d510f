// The flash-attention kernel (integration/attention.mlir): the schedule puts
// Q's ws.load before the loop on the load warp and every op of the online
// softmax on the consumers; the memory plan gives Q a ring of its own (a
// channel stepped once per block) and K and V one ring each in a channel
// stepped per iteration; the specialized consumers wait for Q once, run S
// from shared memory (ws.mma with Q's slot as third operand), wait for it
// only where the softmax reads it (which frees the previous K/V slot), and
// run P V from registers (ws.mma with the tile as third operand). The two
// consumer warpgroups take turns at their wgmmas (channel 3, from the
// consumers to themselves): a turn is one warpgroup's P V of one step and S
// of the next; warpgroup 1's first turn waits for warpgroup 0's, and each
// warpgroup's last turn (the last P V) ends after the loop.
// RUN: ws-opt %S/../../integration/attention.mlir --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule)' | FileCheck %s --check-prefix=SCHED
// RUN: ws-opt %S/../../integration/attention.mlir --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule,ws-plan-memory{explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAN
// RUN: ws-opt %S/../../integration/attention.mlir --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule,ws-plan-memory,ws-insert-barriers,ws-specialize)' | FileCheck %s --check-prefix=SPEC
// RUN: ws-opt %S/../../integration/attention.mlir --ws-explain -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: rm -rf %t && %python %S/../../integration/attention/variants.py %t
// RUN: ws-opt %t/att_f16_d256_ragged.mlir --ws-explain -o /dev/null 2>&1 | FileCheck %s --check-prefix=WIDE --implicit-check-not='remark: turns'

// At head dim 256 the dots are wider than 128 and the warpgroups do not
// take turns (measured: turns cost 10% there):
// WIDE: remark: no turns: this ws.dot is wider than 128 (K or N)

// --ws-explain says why the warpgroups take turns, what the turn channel
// counts, and adds up the consumers' live tiles: O, m and l (carried), the
// scaled S and the row vectors where most are live (the mask of the last KV
// block's columns, an index mask tested once per tile, holds none).
// EXPLAIN: remark: turns: the 2 consumer warpgroups (each its own rows) take turns at their wgmmas
// EXPLAIN: remark: channel 3 (compute -> compute): the turn of its warpgroups: 1 slot; the warpgroup whose turn ends arrives with its 128 threads
// EXPLAIN: remark: registers: the consumer warpgroups' tiles need 136 per thread where most are live, here: 6 tile(s), tensor<128x128xf32> at {{.*}} (64), tensor<1x128xf32> at {{.*}} (2), tensor<1x128xf32> at {{.*}} (2), tensor<1x128xf32> at {{.*}} (2), tensor<128x128xf32> at {{.*}} (64), tensor<1x128xf32> at {{.*}} (2); the compute warps have 240 after setmaxnreg

// SCHED: "ws.load"(%arg0, {{.*}}) {ws.partition = ["load"]}
// SCHED: scf.for
// SCHED: "ws.dot"({{.*}}) {transpose_b, ws.partition = ["compute"], ws.stage = 0 : i32}
// SCHED: "ws.reduce"({{.*}}) {axis = 1 : i32, kind = "max", ws.partition = ["compute"], ws.stage = 0 : i32}
// SCHED: "ws.broadcast"({{.*}}) {axis = 0 : i32, ws.partition = ["compute"], ws.stage = 0 : i32}
// SCHED: "ws.dot"({{.*}}) {ws.partition = ["compute"], ws.stage = 0 : i32}
// SCHED: ws.partitions = [{name = "load", num_warps = 1 : i32, role = "load"}, {name = "compute", num_warps = 8 : i32, role = "compute", turns = true}, {name = "store", num_warps = 1 : i32, role = "store"}]

// PLAN: remark: ring 0: tensor<128x128xf16> of 32768 bytes crosses from load to compute (channel 0); {{.*}} depth 1
// PLAN: remark: ring 1: tensor<128x128xf16> of 32768 bytes crosses from load to compute (channel 1); {{.*}} depth 3
// PLAN: remark: ring 2: tensor<128x128xf16> of 32768 bytes crosses from load to compute (channel 1); {{.*}} depth 3

// SPEC: scf.if
// SPEC: nvvm.setmaxregister  increase
// SPEC: %[[Q:.*]]:2 = "ws.slot_phase"(%{{.*}}) {depth = 1 : i32, start_phase = 0 : i32}
// SPEC-NEXT: "ws.wait"(%[[Q]]#0, %[[Q]]#1) {barrier = "full", channel = 0 : i32}
// SPEC-NEXT: nvvm.read.ptx.sreg.tid.x
// SPEC: scf.if
// SPEC: %[[T0:.*]]:2 = "ws.slot_phase"(%{{.*}}) {depth = 1 : i32, start_phase = 0 : i32}
// SPEC-NEXT: "ws.wait"(%[[T0]]#0, %[[T0]]#1) {barrier = "full", channel = 3 : i32}
// SPEC-NEXT: }
// SPEC-NEXT: scf.for
// SPEC-NEXT: %[[KV:.*]]:2 = "ws.slot_phase"
// SPEC-NEXT: "ws.wait"(%[[KV]]#0, %[[KV]]#1) {barrier = "full", channel = 1 : i32}
// SPEC-NEXT: nvvm.wgmma.fence.aligned
// SPEC-NEXT: "ws.mma"(%[[KV]]#0, %{{.*}}, %[[Q]]#0) {ring_a = 0 : i32, ring_b = 1 : i32, transpose_b}
// SPEC-NEXT: nvvm.wgmma.commit.group.sync.aligned
// SPEC: "ws.arrive"({{.*}}) {barrier = "full", channel = 3 : i32}
// SPEC: nvvm.wgmma.wait.group.sync.aligned 0
// SPEC: "ws.arrive"({{.*}}) {barrier = "empty", channel = 1 : i32}
// SPEC: "ws.reduce"
// SPEC: arith.truncf
// SPEC: "ws.wait"({{.*}}) {barrier = "full", channel = 3 : i32}
// SPEC-NEXT: nvvm.wgmma.fence.aligned
// SPEC-NEXT: "ws.mma"(%[[KV]]#0, %{{.*}}, %{{.*}}) {ring_b = 2 : i32} : (i32, tensor<128x128xf32>, tensor<128x128xf16>)
// SPEC-NEXT: nvvm.wgmma.commit.group.sync.aligned
// SPEC: scf.yield
// SPEC: "ws.arrive"({{.*}}) {barrier = "full", channel = 3 : i32}
// SPEC-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// SPEC: "ws.arrive"({{.*}}) {barrier = "empty", channel = 0 : i32}
// SPEC: nvvm.setmaxregister  decrease
// SPEC: "ws.wait"({{.*}}) {barrier = "empty", channel = 0 : i32}
// SPEC-NEXT: "ws.arrive_expect_tx"({{.*}}) {bytes = 32768 : i32, channel = 0 : i32}
// SPEC-NEXT: "ws.tma_load"(%arg0, {{.*}}) {ring = 0 : i32}
// SPEC-NEXT: scf.for
