// ws-specialize's first half (rewrite_crossings.c and rewrite_wgmma.c), pinned on its own with
// crossings-only: before any partition has a copy of the loop, every value
// that crosses partitions is protocol ops in the loop, each tagged with the
// partition that runs it, and the loop counts its steps. The slicer then
// only keeps each partition's ops (specialize.mlir and the suites pin what
// it makes).
// RUN: ws-opt %ws_src/integration/add.mlir --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule,ws-plan-memory,ws-insert-barriers,ws-specialize{crossings-only=true})' | FileCheck %s --check-prefix=ADD --implicit-check-not='"ws.load"' --implicit-check-not='"ws.store"'
// RUN: ws-opt %S/insert-barriers-row-second-pass.mlir --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule,ws-plan-memory,ws-insert-barriers,ws-specialize{crossings-only=true})' | FileCheck %s --check-prefix=SECOND
// RUN: ws-opt %s --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule,ws-plan-memory,ws-insert-barriers,ws-specialize{crossings-only=true})' | FileCheck %s --check-prefix=PROLOGUE
// RUN: ws-opt %s --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule,ws-plan-memory,ws-insert-barriers,ws-specialize)' | FileCheck %s --check-prefix=SLICED
// RUN: ws-opt %S/partition-schedule-pingpong.mlir --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule,ws-plan-memory,ws-insert-barriers,ws-specialize{crossings-only=true})' | FileCheck %s --check-prefix=PINGPONG
// RUN: ws-opt %S/partition-schedule-lag.mlir --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule,ws-plan-memory,ws-insert-barriers,ws-specialize{crossings-only=true})' | FileCheck %s --check-prefix=LAG
// RUN: ws-opt %ws_src/integration/matmul.mlir --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule,ws-plan-memory,ws-insert-barriers,ws-specialize{crossings-only=true})' | FileCheck %s --check-prefix=MATMUL --implicit-check-not='"ws.dot"'

// The elementwise add: the count from 0, the compute partition's side at
// the step's start (wait, read both tiles, fence, release), the load warp's
// before its first load, its loads as TMA copies into the slot; the store
// warp's copy, its bulk group and the release a drain behind; the
// compute's hand-off at the step's end, then the count's increment.
// ADD: %[[ZERO:.*]] = arith.constant {ws.partition = ["load", "compute", "store"]} 0 : i32
// ADD: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[N:.*]] = %[[ZERO]]) -> (i32)
// ADD-NEXT: %[[IN:.*]]:2 = "ws.slot_phase"(%[[N]]) {{{.*}}ws.partition = ["compute"]}
// ADD-NEXT: "ws.wait"(%[[IN]]#0, %[[IN]]#1) {barrier = "full", channel = 0 : i32, ws.partition = ["compute"]}
// ADD-NEXT: %[[A:.*]] = "ws.read_slot"(%[[IN]]#0) {ring = 0 : i32, ws.partition = ["compute"]}
// ADD-NEXT: %[[B:.*]] = "ws.read_slot"(%[[IN]]#0) {ring = 1 : i32, ws.partition = ["compute"]}
// ADD-NEXT: nvvm.fence.proxy {{.*}}ws.partition = ["compute"]
// ADD-NEXT: "ws.arrive"(%[[IN]]#0) {barrier = "empty", channel = 0 : i32, ws.partition = ["compute"]}
// ADD-NEXT: %[[FILL:.*]]:2 = "ws.slot_phase"(%[[N]]) {{{.*}}start_phase = 1 : i32, ws.partition = ["load"]}
// ADD-NEXT: "ws.wait"(%[[FILL]]#0, %[[FILL]]#1) {barrier = "empty", channel = 0 : i32, ws.partition = ["load"]}
// ADD-NEXT: "ws.arrive_expect_tx"(%[[FILL]]#0) {bytes = 16384 : i32, channel = 0 : i32, ws.partition = ["load"]}
// ADD-NEXT: "ws.tma_load"(%arg0, %{{.*}}, %[[K]], %[[FILL]]#0) {ring = 0 : i32, ws.partition = ["load"]}
// ADD-NEXT: "ws.tma_load"(%arg1, %{{.*}}, %[[K]], %[[FILL]]#0) {ring = 1 : i32, ws.partition = ["load"]}
// ADD-NEXT: %[[SUM:.*]] = arith.addf %[[A]], %[[B]] {ws.partition = ["compute"]
// ADD-NEXT: %[[OUT:.*]]:2 = "ws.slot_phase"(%[[N]]) {{{.*}}ws.partition = ["store"]}
// ADD-NEXT: "ws.wait"(%[[OUT]]#0, %[[OUT]]#1) {barrier = "full", channel = 1 : i32, ws.partition = ["store"]}
// ADD-NEXT: "ws.tma_store"(%arg2, %{{.*}}, %[[K]], %[[OUT]]#0) {ring = 2 : i32, ws.partition = ["store"]}
// ADD-NEXT: nvvm.cp.async.bulk.commit.group {ws.partition = ["store"]}
// ADD-NEXT: nvvm.cp.async.bulk.wait_group 1 {read, ws.partition = ["store"]}
// ADD: scf.if
// ADD: "ws.arrive"(%{{.*}}) {barrier = "empty", channel = 1 : i32}
// ADD: } {ws.partition = ["store"]}
// ADD-NEXT: %[[PUT:.*]]:2 = "ws.slot_phase"(%[[N]]) {{{.*}}ws.partition = ["compute"]}
// ADD-NEXT: "ws.wait"(%[[PUT]]#0, %[[PUT]]#1) {barrier = "empty", channel = 1 : i32, ws.partition = ["compute"]}
// ADD-NEXT: "ws.write_slot"(%[[SUM]], %[[PUT]]#0) {ring = 2 : i32, ws.partition = ["compute"]}
// ADD-NEXT: nvvm.fence.proxy {{.*}}ws.partition = ["compute"]
// ADD-NEXT: "ws.arrive"(%[[PUT]]#0) {barrier = "full", channel = 1 : i32, ws.partition = ["compute"]}
// ADD-NEXT: %[[ONE:.*]] = arith.constant {ws.partition = ["load", "compute", "store"]} 1 : i32
// ADD-NEXT: %[[NEXT:.*]] = arith.addi %[[N]], %[[ONE]] {ws.partition = ["load", "compute", "store"]}
// ADD-NEXT: scf.yield %[[NEXT]] : i32
// ADD: nvvm.cp.async.bulk.wait_group 0 {ws.partition = ["store"]}
// ADD-NEXT: gpu.return
// No ws.load or ws.store is left (implicit-check-not): each is a TMA copy
// or a slot's read.

// A tiled matmul: the consumers' side of the K step is the wgmma protocol
// (wait, fence, ws.mma on the slot for the ws.dot, commit, wait until one
// group is in flight, release the previous step's slot); after the loop
// they wait for the last group and free its slot, meet at a named barrier
// (the C slot lies over the rings) and hand the C tile to the store warp,
// which stores it in one bulk group and drains.
// MATMUL: scf.for {{.*}} iter_args(%[[N:.*]] = %{{.*}}, %[[ACC:.*]] = %{{.*}}) -> (i32, tensor<128x256xf32>)
// MATMUL-NEXT: %[[S:.*]]:2 = "ws.slot_phase"(%[[N]]) {{{.*}}ws.partition = ["compute"]}
// MATMUL-NEXT: "ws.wait"(%[[S]]#0, %[[S]]#1) {barrier = "full", channel = 0 : i32, ws.partition = ["compute"]}
// MATMUL-NEXT: nvvm.wgmma.fence.aligned {ws.partition = ["compute"]}
// MATMUL: "ws.tma_load"(%arg1, {{.*}}) {ring = 1 : i32, ws.partition = ["load"]}
// MATMUL-NEXT: %[[D:.*]] = "ws.mma"(%[[S]]#0, %[[ACC]]) {ring_a = 0 : i32, ring_b = 1 : i32, transpose_b, ws.partition = ["compute"]}
// MATMUL-NEXT: nvvm.wgmma.commit.group.sync.aligned {ws.partition = ["compute"]}
// MATMUL-NEXT: nvvm.wgmma.wait.group.sync.aligned {ws.partition = ["compute"]} 1
// MATMUL: } {ws.partition = ["compute"]}
// MATMUL: scf.yield %{{.*}}, %[[D]] : i32, tensor<128x256xf32>
// MATMUL: nvvm.wgmma.wait.group.sync.aligned {ws.partition = ["compute"]} 0
// MATMUL: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}} {ws.partition = ["compute"]}
// MATMUL: "ws.tma_store"(%arg2, {{.*}}) {ring = 2 : i32, ws.partition = ["store"]}
// MATMUL-NEXT: nvvm.cp.async.bulk.commit.group {ws.partition = ["store"]}
// MATMUL-NEXT: nvvm.cp.async.bulk.wait_group 0 {ws.partition = ["store"]}
// MATMUL: "ws.write_slot"(%{{.*}}, %{{.*}}) {ring = 2 : i32, ws.partition = ["compute"]}
// MATMUL: "ws.arrive"(%{{.*}}) {barrier = "full", channel = 1 : i32, ws.partition = ["compute"]}
// MATMUL-NEXT: gpu.return

// Ping-pong: the tile loop carries the load warp's K count, the
// consumers' own K count and the tile count; the consumers count every
// tile's K steps once (a loop of their own before the tile loop), and
// their share of a tile sits under the parity guard with a K loop of
// their own, while the shared K loop keeps the load warp's copies; both K
// counts go on, the consumers' by the tile's steps.
// PINGPONG: %[[STEPS:.*]] = scf.for {{.*}} -> (i32)
// PINGPONG: } {ws.partition = ["compute"]}
// PINGPONG-NEXT: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x {ws.partition = ["compute"]}
// PINGPONG: scf.for {{.*}} iter_args(%[[KL:.*]] = %{{.*}}, %[[KC:.*]] = %{{.*}}, %[[T:.*]] = %{{.*}}) -> (i32, i32, i32)
// PINGPONG: %[[PAR:.*]] = arith.remui %[[T]], %{{.*}} {ws.partition = ["compute"]}
// PINGPONG: scf.if %{{.*}} {
// PINGPONG: scf.for {{.*}} iter_args(%{{.*}} = %[[KC]], %{{.*}} = %{{.*}}) -> (i32, tensor<128x128xf32>)
// PINGPONG: "ws.mma"
// PINGPONG: } {ws.partition = ["compute"]}
// PINGPONG: "ws.write_slot"
// PINGPONG: } {ws.partition = ["compute"]}
// PINGPONG-NEXT: %[[SHARED:.*]]:2 = scf.for {{.*}} iter_args(%{{.*}} = %[[KL]], %{{.*}} = %{{.*}}) -> (i32, tensor<128x128xf32>)
// PINGPONG-NOT: ws.partition = ["compute"]
// PINGPONG: "ws.tma_load"(%arg0, {{.*}}) {ring = 0 : i32, ws.partition = ["load"]}
// PINGPONG: %[[NEXT:.*]] = arith.addi %[[KC]], %[[STEPS]] {ws.partition = ["compute"]}
// PINGPONG: scf.yield %[[SHARED]]#0, %[[NEXT]], %{{.*}} : i32, i32, i32

// A lagged FP8 K loop (two stages): the consumers' loop is rotated, a loop
// of their own built whole (two K steps an iteration, the math a step
// behind) before the shared loop, which steps by two as well and runs the
// load warp's copies again for the second step, at k + step and count
// n + 1.
// LAG: %[[PAIR:.*]] = arith.muli %{{.*}}, %c2_i32 : i32
// LAG: scf.for {{.*}} step %[[PAIR]] iter_args({{.*}}) -> (i32, tensor<128x128xf32>, tensor<128x128xf32>, i32, i1)
// LAG: "ws.mma_done"
// LAG: } {ws.partition = ["compute"]}
// LAG: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %[[PAIR]] iter_args(%[[N:.*]] = %{{.*}}, %{{.*}} = %{{.*}}) -> (i32, tensor<128x128xf32>)
// LAG: "ws.tma_load"(%arg0, %{{.*}}, %[[K]], %{{.*}}) {ring = 0 : i32, ws.partition = ["load"]}
// LAG: %[[K2:.*]] = arith.addi %[[K]], %{{.*}} {ws.partition
// LAG: %[[N2:.*]] = arith.addi %[[N]], %{{.*}} {ws.partition
// LAG-NEXT: %[[S2:.*]]:2 = "ws.slot_phase"(%[[N2]])
// LAG: "ws.tma_load"(%arg0, %{{.*}}, %[[K2]], %[[S2]]#0) {ring = 0 : i32, ws.partition = ["load"]}
// LAG: %[[NEXT:.*]] = arith.addi %[[N2]], %{{.*}}
// LAG-NEXT: scf.yield %[[NEXT]], %{{.*}} : i32, tensor<128x128xf32>

// A row kernel with a second pass: both loops count their steps, each from
// 0; the first carries the row vectors after the count; the store warp's
// ops are all in the second.
// SECOND: scf.for {{.*}} iter_args(%[[N1:.*]] = %[[Z1:.*]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (i32, tensor<1x4xf32>, tensor<1x4xf32>)
// SECOND-NOT: ws.partition = ["store"]
// SECOND: "ws.tma_load"({{.*}}) {l2 = "evict_last", ring = 0 : i32, ws.partition = ["load"]}
// SECOND-NOT: ws.partition = ["store"]
// SECOND: %[[Z2:.*]] = arith.constant {ws.partition = ["load", "compute", "store"]} 0 : i32
// SECOND-NEXT: scf.for {{.*}} iter_args(%[[N2:.*]] = %[[Z2]]) -> (i32)
// SECOND: "ws.tma_load"({{.*}}) {l2 = "evict_first", ring = 1 : i32, ws.partition = ["load"]}
// SECOND: "ws.tma_store"({{.*}}) {ring = 2 : i32, ws.partition = ["store"]}
// SECOND: "ws.write_slot"({{.*}}) {ring = 2 : i32, ws.partition = ["compute"]}
// SECOND: } {ws.partition = ["load", "compute", "store"]}
// SECOND-NEXT: nvvm.cp.async.bulk.wait_group 0 {ws.partition = ["store"]}

// A weight loaded once before the loop (a prologue ring): the compute
// partition waits for its slot and reads it at the kernel's top, its ops
// in the loop read that, and it frees the slot at the end; the load warp
// fills it at iteration 0 before its loop.
// PROLOGUE: %[[Z:.*]] = arith.constant {ws.partition = ["load", "compute", "store"]} 0 : i32
// PROLOGUE: %[[W:.*]]:2 = "ws.slot_phase"(%{{.*}}) {depth = 1 : i32, start_phase = 0 : i32, ws.partition = ["compute"]}
// PROLOGUE-NEXT: "ws.wait"(%[[W]]#0, %[[W]]#1) {barrier = "full", channel = 0 : i32, ws.partition = ["compute"]}
// PROLOGUE-NEXT: %[[WEIGHT:.*]] = "ws.read_slot"(%[[W]]#0) {ring = 0 : i32, ws.partition = ["compute"]}
// PROLOGUE: %[[F:.*]]:2 = "ws.slot_phase"(%[[Z]]) {depth = 1 : i32, start_phase = 1 : i32, ws.partition = ["load"]}
// PROLOGUE: "ws.tma_load"(%arg2, {{.*}}, %[[F]]#0) {ring = 0 : i32, ws.partition = ["load"]}
// PROLOGUE: scf.for
// PROLOGUE: "ws.broadcast"(%[[WEIGHT]]) {axis = 1 : i32, ws.partition = ["compute"]
// PROLOGUE: scf.yield
// PROLOGUE: %[[R:.*]]:2 = "ws.slot_phase"(%{{.*}}) {depth = 1 : i32, start_phase = 0 : i32, ws.partition = ["compute"]}
// PROLOGUE-NEXT: nvvm.fence.proxy
// PROLOGUE-NEXT: "ws.arrive"(%[[R]]#0) {barrier = "empty", channel = 0 : i32, ws.partition = ["compute"]}
// PROLOGUE-NEXT: gpu.return

// Sliced, each branch holds its partition's ops alone, and no op keeps a
// partition tag.
// SLICED: nvvm.setmaxregister increase
// SLICED: "ws.read_slot"(%{{.*}}) {ring = 0 : i32}
// SLICED: scf.for
// SLICED: nvvm.setmaxregister decrease
// SLICED: "ws.tma_load"(%arg2, {{.*}}) {ring = 0 : i32}
// SLICED: scf.for
// SLICED-NOT: ws.partition =
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @scale_rows(%x_desc: !ws.tensor_desc<tensor<4x512xf32>>, %y_desc: !ws.tensor_desc<tensor<4x512xf32>>,
        %w_desc: !ws.tensor_desc<tensor<1x512xf32>>, %m: i32) kernel attributes {ws.num_warps = 4 : i32} {
      %bid = gpu.block_id x
      %grid = gpu.grid_dim x
      %b = arith.index_cast %bid : index to i32
      %g = arith.index_cast %grid : index to i32
      %c0 = arith.constant 0 : i32
      %cr = arith.constant 4 : i32
      %first = arith.muli %b, %cr : i32
      %step = arith.muli %g, %cr : i32
      %p_w = "ws.load"(%w_desc, %c0, %c0) : (!ws.tensor_desc<tensor<1x512xf32>>, i32, i32) -> tensor<1x512xf32>
      scf.for %r0 = %first to %m step %step : i32 {
        %t_x = "ws.load"(%x_desc, %r0, %c0) : (!ws.tensor_desc<tensor<4x512xf32>>, i32, i32) -> tensor<4x512xf32>
        %wb = "ws.broadcast"(%p_w) {axis = 1 : i32} : (tensor<1x512xf32>) -> tensor<4x512xf32>
        %yf = arith.mulf %t_x, %wb : tensor<4x512xf32>
        "ws.store"(%y_desc, %r0, %c0, %yf) : (!ws.tensor_desc<tensor<4x512xf32>>, i32, i32, tensor<4x512xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
