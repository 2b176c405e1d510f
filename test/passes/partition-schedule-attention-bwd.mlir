// The attention backward's kernels (python/ws/kernels/attention_bwd.mlir,
// rendered in Inputs/attention-bwd.mlir: D = 64, bf16, causal), scheduled
// and planned as any matmul loop.
// RUN: ws-opt --pass-pipeline='builtin.module(ws-select-kernel{kernel=attention_dkdv}, ws-partition-schedule, ws-plan-memory)' %S/Inputs/attention-bwd.mlir | FileCheck %s --check-prefix=PLAN
// RUN: ws-opt %S/Inputs/attention-bwd.mlir --ws-pipeline='stage=plan kernel=attention_dkdv' --ws-explain -o /dev/null 2>&1 | FileCheck %s --check-prefix=DKDV
// RUN: ws-opt %S/Inputs/attention-bwd.mlir --ws-pipeline='stage=plan kernel=attention_dq' --ws-explain -o /dev/null 2>&1 | FileCheck %s --check-prefix=DQ
// RUN: ws-opt %S/Inputs/attention-bwd.mlir --ws-pipeline='stage=plan kernel=attention_delta' -o - | FileCheck %s --check-prefix=DELTA

// dK/dV: K and V, loaded before the loop, share one ring of one slot (the
// A of S^T and dP^T); Q, dO, lse and Delta ride one 4-deep ring a step.
// PLAN: "ws.load"(%arg1, {{.*}} ws.ring = {align = 1024 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32}
// PLAN: "ws.load"(%arg2, {{.*}} ws.ring = {align = 1024 : i32, channel = 0 : i32, offset = 16384 : i32
// PLAN: "ws.load"(%arg0, {{.*}} ws.ring = {align = 1024 : i32, channel = 1 : i32, offset = 32768 : i32, slot_bytes = 8192 : i32
// PLAN: "ws.load"(%arg3, {{.*}} ws.ring = {align = 1024 : i32, channel = 1 : i32, offset = 65536 : i32
// PLAN: "ws.load"(%arg4, {{.*}} ws.ring = {align = 128 : i32, channel = 1 : i32, offset = 98304 : i32, slot_bytes = 256 : i32, swizzle = 0 : i32}
// PLAN: "ws.load"(%arg5, {{.*}} ws.ring = {align = 128 : i32, channel = 1 : i32, offset = 99328 : i32, slot_bytes = 256 : i32, swizzle = 0 : i32}
// The four products of a step: S^T = K Q^T and dP^T = V dO^T from shared
// memory (transpose_b), then dV += P^T dO and dK += dS^T Q with A in
// registers and the same Q and dO slots read K x N.
// PLAN: "ws.dot"(%{{.*}}, %[[Q:.*]], %cst) {transpose_b, ws.partition = ["compute"]
// PLAN: "ws.dot"(%{{.*}}, %[[DO:.*]], %cst) {transpose_b, ws.partition = ["compute"]
// PLAN: "ws.dot"(%{{.*}}, %[[DO]], %arg{{[0-9]+}}) {ws.partition = ["compute"]
// PLAN: "ws.dot"(%{{.*}}, %[[Q]], %arg{{[0-9]+}}) {ws.partition = ["compute"]

// DKDV: remark: not pipelined: each step's math waits for its own first ws.dot run, since a pipelined loop has two runs of ws.dot {{.*}}; this one has 3 run(s)
// DKDV: remark: partitions: load (1 warp), compute (8 warps), store (1 warp)
// DKDV: remark: turns: the 2 consumer warpgroups (each its own rows) take turns at their wgmmas
// DKDV: remark: partition compute: wgmma on the compute warpgroups, its register form
// DKDV: remark: partition compute: wgmma on the compute warpgroups, its register form
// DKDV: remark: partition store (epilogue): a TMA store

// dQ: the forward's shape with three runs (S, dP, dQ += dS K).
// DQ: remark: not pipelined: {{.*}} this one has 3 run(s)
// DQ: remark: turns: the 2 consumer warpgroups (each its own rows) take turns

// Delta = rowsum(dO * O): a row kernel of a load warp and four compute
// warps, which store each block's row vector themselves.
// DELTA: ws.partitions = [{first_warp = 4 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 4 : i32, registers = 104 : i32, role = "compute"}]
// DELTA: "ws.store"(%arg2
