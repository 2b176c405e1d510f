// A persistent matmul: ws.warp_specialize on the tile loop, the K loop
// inside it, its consumers cooperative (ws.overlap forces it: the planner
// would run a 128x128 tile ping-pong, partition-schedule-pingpong.mlir). ws-partition-schedule moves the mark to the K loop and marks
// the tile loop ws.tile_loop; the tile coordinates go to the partitions that
// use them. ws-plan-memory keeps the C tile apart from the rings (the
// producer loads the next tile while C drains), and ws-insert-barriers gives
// each partition its own copy of the tile loop with the K loop inside,
// carrying its counts from tile to tile.
// RUN: ws-opt %s --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule)' | FileCheck %s --check-prefix=SCHED
// RUN: ws-opt %s --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule,ws-plan-memory{explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAN
// RUN: ws-opt %s --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule,ws-plan-memory,ws-insert-barriers,ws-specialize)' | FileCheck %s --check-prefix=SPEC
// The specialized kernel verifies, proves and lowers.
// RUN: ws-opt %s --ws-pipeline -o /dev/null

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @persistent(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>,
                         %c: !ws.tensor_desc<tensor<128x128xf16>>, %tiles_n: i32, %num_tiles: i32, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %bx = gpu.block_id x
      %gx = gpu.grid_dim x
      %first = arith.index_cast %bx : index to i32
      %grid = arith.index_cast %gx : index to i32
      scf.for %t = %first to %num_tiles step %grid : i32 {
        %tm = arith.divui %t, %tiles_n : i32
        %tn = arith.remui %t, %tiles_n : i32
        %m = arith.muli %tm, %c128 : i32
        %n = arith.muli %tn, %c128 : i32
        %zero = arith.constant dense<0.0> : tensor<128x128xf32>
        %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
          %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %tb = "ws.load"(%b, %n, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
          scf.yield %d : tensor<128x128xf32>
        }
        %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
        "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      } {ws.num_stages = 3 : i32, ws.overlap = "cooperative", ws.warp_specialize}
      gpu.return
    }
  }
}

// SCHED:      scf.for %[[T:.*]] = %{{.*}} to %arg4 step %{{.*}} : i32 {
// SCHED-NEXT:   arith.divui %[[T]], %arg3 {ws.partition = ["load", "store"]}
// SCHED-NEXT:   arith.remui %[[T]], %arg3 {ws.partition = ["load", "store"]}
// SCHED-NEXT:   arith.muli {{.*}} {ws.partition = ["load", "store"]}
// SCHED-NEXT:   arith.muli {{.*}} {ws.partition = ["load", "store"]}
// SCHED-NEXT:   arith.constant {ws.partition = ["compute"]} dense<0.000000e+00>
// SCHED-NEXT:   scf.for
// SCHED:          "ws.load"{{.*}}ws.partition = ["load"]
// SCHED:          "ws.dot"{{.*}}ws.partition = ["compute"]
// SCHED:        } {ws.num_stages = 3 : i32, ws.partitions = [{name = "load", {{.*}}}, {name = "compute", {{.*}}}, {name = "store", {{.*}}}], ws.warp_specialize}
// SCHED-NEXT:   arith.truncf {{.*}} {ws.partition = ["compute"]}
// SCHED-NEXT:   "ws.store"{{.*}}{ws.partition = ["store"]}
// SCHED-NEXT: } {ws.overlap = "cooperative", ws.tile_loop}

// PLAN: remark: ring depths: 3 for the K loop's rings (ws.num_stages), the epilogue tile after them (a persistent kernel loads the next tile's steps into the rings while this tile's C is stored)

// The consumers: a tile loop carrying the K step count and the tile count
// (the tile coordinates are not theirs: only the load and store warps
// compute them);
// the K loop starts at the tile's step count and releases a slot only from
// the tile's second step on (and the last after the loop, if the tile had
// one); C goes into slot phase(tile count).
// SPEC:      gpu.func @persistent({{.*}} attributes {{{.*}}ws.persistent
// SPEC:      nvvm.setmaxregister  increase
// SPEC:      %[[NEST:.*]]:2 = scf.for %{{.*}} = %{{.*}} to %arg4 step %{{.*}} iter_args(%[[KN:.*]] = %{{.*}}, %[[TN:.*]] = %{{.*}}) -> (i32, i32)
// SPEC-NEXT:   arith.constant dense<0.000000e+00>
// SPEC-NEXT:   %[[K:.*]]:2 = scf.for %{{.*}} = %c0_i32 to %arg5 step %c64_i32 iter_args(%[[N:.*]] = %[[KN]], %{{.*}} = %{{.*}}) -> (i32, tensor<128x128xf32>)
// SPEC:          "ws.mma"
// SPEC:          %[[FIRST:.*]] = arith.addi %[[KN]], %c1
// SPEC-NEXT:     arith.cmpi uge, %[[N]], %[[FIRST]]
// SPEC:        nvvm.wgmma.wait.group.sync.aligned 0
// SPEC:        %[[LAST:.*]] = arith.addi %[[KN]], %c1
// SPEC-NEXT:   arith.cmpi uge, %[[K]]#0, %[[LAST]]
// SPEC:        "ws.slot_phase"(%[[TN]]) {depth = 1 : i32, start_phase = 1 : i32}
// SPEC-NEXT:   "ws.wait"{{.*}}{barrier = "empty", channel = 1 : i32}
// SPEC-NEXT:   "ws.write_slot"
// SPEC:        %[[NEXT:.*]] = arith.addi %[[TN]], %c1
// SPEC-NEXT:   scf.yield %[[K]]#0, %[[NEXT]] : i32, i32
// The load warp: its tile loop carries the K step count into each K loop.
// SPEC:      %{{.*}} = scf.for %{{.*}} = %{{.*}} to %arg4 step %{{.*}} iter_args(%[[LN:.*]] = %{{.*}}) -> (i32)
// SPEC:        %[[LK:.*]] = scf.for %{{.*}} = %c0_i32 to %arg5 step %c64_i32 iter_args(%{{.*}} = %[[LN]]) -> (i32)
// SPEC:          "ws.arrive_expect_tx"
// SPEC:        scf.yield %[[LK]] : i32
// The store warp: per tile, wait for C, store it, release the slot once
// the store has read it; drain before exit.
// SPEC:      %{{.*}} = scf.for %{{.*}} = %{{.*}} to %arg4 step %{{.*}} iter_args(%[[SN:.*]] = %{{.*}}) -> (i32)
// SPEC:        "ws.slot_phase"(%[[SN]]) {depth = 1 : i32, start_phase = 0 : i32}
// SPEC:        "ws.tma_store"
// SPEC-NEXT:   nvvm.cp.async.bulk.commit.group
// SPEC-NEXT:   nvvm.cp.async.bulk.wait_group 0 {read}
// SPEC:        "ws.arrive"{{.*}}{barrier = "empty", channel = 1 : i32}
// SPEC:      nvvm.cp.async.bulk.wait_group 0
// SPEC-NEXT: }
