// ws-insert-barriers decides the protocol and writes it into the loop's
// tables; ws-specialize builds the partitions from those tables alone, so
// each can be pinned, and a saved table edited, apart.
//
// After ws-insert-barriers the loop is still one loop: its channels carry
// counts, phases, fences and drains, its partitions warps and registers,
// and the kernel its launch shape.
// RUN: ws-opt %ws_src/integration/add.mlir --pass-pipeline='builtin.module(ws-verify, ws-partition-schedule, ws-plan-memory, ws-insert-barriers)' | FileCheck %s --check-prefix=TABLES
// TABLES: gpu.func @add({{.*}}ws.block_threads = 256 : i32, ws.blocks_per_sm = 2 : i32, ws.maxnreg = 128 : i32
// TABLES-NOT: ws.wait
// TABLES: scf.for
// TABLES: "ws.load"{{.*}}ws.partition = ["load"]
// TABLES: } {ws.channels = [{consumer_phase = 0 : i32, depth = 4 : i32, drain = 0 : i32, {{.*}}empty_arrivals = 128 : i32, expect_tx = 16384 : i32, from = "load", {{.*}}full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = true, to = "compute"}, {{.*}}drain = 1 : i32, {{.*}}publish_fence = true, {{.*}}to = "store"}], ws.partitions = [{first_warp = 4 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 4 : i32, registers = 232 : i32, role = "compute"}, {first_warp = 5 : i32, {{.*}}role = "store"}], ws.warp_specialize}
// TABLES-NOT: ws.wait
//
// ws-specialize on that IR, saved as text, gives the same kernel as the
// two passes in one run.
// RUN: ws-opt %ws_src/integration/add.mlir --pass-pipeline='builtin.module(ws-verify, ws-partition-schedule, ws-plan-memory, ws-insert-barriers)' | ws-opt --pass-pipeline='builtin.module(ws-specialize)' > %t.apart.mlir
// RUN: ws-opt %ws_src/integration/add.mlir --pass-pipeline='builtin.module(ws-verify, ws-partition-schedule, ws-plan-memory, ws-insert-barriers, ws-specialize)' > %t.together.mlir
// RUN: diff %t.apart.mlir %t.together.mlir
// RUN: FileCheck %s --check-prefix=SLICED < %t.apart.mlir
// SLICED: gpu.func @add({{.*}}ws.channels = [{{.*}}full_arrivals = 1 : i32
// SLICED: nvvm.read.ptx.sreg.tid.x
// SLICED: "ws.init_barrier"
// SLICED: nvvm.setmaxregister increase 232
// SLICED: "ws.wait"{{.*}}barrier = "full", channel = 0
// SLICED: nvvm.setmaxregister decrease 24
// SLICED: "ws.tma_load"
// SLICED-NOT: ws.warp_specialize
//
// ws-specialize without the protocol: a located error, not a guess.
// RUN: ws-opt %ws_src/integration/add.mlir --pass-pipeline='builtin.module(ws-verify, ws-partition-schedule, ws-plan-memory)' | not ws-opt --pass-pipeline='builtin.module(ws-specialize)' 2>&1 | FileCheck %s --check-prefix=NOPROTO
// NOPROTO: <stdin>:10:7: error: 'scf.for' op has a memory plan but no protocol (its ws.channels lack full_arrivals, or its ws.partitions registers); run ws-insert-barriers before ws-specialize
