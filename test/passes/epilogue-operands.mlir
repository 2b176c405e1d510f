// Epilogue operands of a matmul: a bias per column (1 x N, broadcast over
// the rows with ws.broadcast axis 1), an f32 bias per row (1 x M, axis 0)
// and a residual tile scaled by a runtime beta. ws-partition-schedule puts
// the epilogue's ws.loads on the load warp; ws-plan-memory gives them a
// channel of their own (stepped once per block, not per K step), the bias
// rows unswizzled and the residual swizzled, after the K rings; the load
// warp fetches them once its K loop is issued, and the consumers wait for
// them, read them, fence and release them before the epilogue math; the
// lowering reads each thread's fragment of them from shared memory.
// RUN: ws-opt %s --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule)' | FileCheck %s --check-prefix=SCHED
// RUN: ws-opt %s --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule,ws-plan-memory{explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAN
// RUN: ws-opt %s --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule,ws-plan-memory,ws-insert-barriers,ws-specialize)' | FileCheck %s --check-prefix=SPEC
// RUN: ws-opt %s --emit=mlir -o - | FileCheck %s --check-prefix=LOWER

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @mm_bias(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>,
                      %c: !ws.tensor_desc<tensor<128x128xf16>>, %bias: !ws.tensor_desc<tensor<1x128xf16>>,
                      %rbias: !ws.tensor_desc<tensor<1x128xf32>>, %res: !ws.tensor_desc<tensor<128x128xf16>>,
                      %K: i32, %beta: f32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bxi = arith.index_cast %bx : index to i32
      %byi = arith.index_cast %by : index to i32
      %m = arith.muli %bxi, %c128 : i32
      %n = arith.muli %byi, %c128 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
        %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %n, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      } {ws.warp_specialize}
      %brow = "ws.load"(%bias, %c0, %n) : (!ws.tensor_desc<tensor<1x128xf16>>, i32, i32) -> tensor<1x128xf16>
      %bt = "ws.broadcast"(%brow) {axis = 1 : i32} : (tensor<1x128xf16>) -> tensor<128x128xf16>
      %bf = arith.extf %bt : tensor<128x128xf16> to tensor<128x128xf32>
      %s1 = arith.addf %acc, %bf : tensor<128x128xf32>
      %rrow = "ws.load"(%rbias, %c0, %m) : (!ws.tensor_desc<tensor<1x128xf32>>, i32, i32) -> tensor<1x128xf32>
      %rt = "ws.broadcast"(%rrow) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
      %s2 = arith.addf %s1, %rt : tensor<128x128xf32>
      %r = "ws.load"(%res, %m, %n) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32) -> tensor<128x128xf16>
      %rf = arith.extf %r : tensor<128x128xf16> to tensor<128x128xf32>
      %bs = tensor.splat %beta : tensor<128x128xf32>
      %rs = arith.mulf %rf, %bs : tensor<128x128xf32>
      %s3 = arith.addf %s2, %rs : tensor<128x128xf32>
      %relu = arith.maximumf %s3, %zero : tensor<128x128xf32>
      %out = arith.truncf %relu : tensor<128x128xf32> to tensor<128x128xf16>
      "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      gpu.return
    }
  }
}

// SCHED:      "ws.load"(%arg3, %c0_i32, %{{.*}}) {ws.partition = ["load"]}
// SCHED-NEXT: "ws.broadcast"(%{{.*}}) {axis = 1 : i32, ws.partition = ["compute"]}
// SCHED:      "ws.load"(%arg4, %c0_i32, %{{.*}}) {ws.partition = ["load"]}
// SCHED-NEXT: "ws.broadcast"(%{{.*}}) {axis = 0 : i32, ws.partition = ["compute"]}
// SCHED:      "ws.load"(%arg5, %{{.*}}, %{{.*}}) {ws.partition = ["load"]}

// PLAN: remark: ring 2: tensor<1x128xf16> of 256 bytes crosses from load to compute (channel 1); slots of 256 bytes (aligned to 128: a TMA box starts on a 128-byte boundary); unswizzled (a bias row: each consumer thread reads the values its fragment's columns or rows meet); depth 1: 256 bytes at [131072, 131328)
// PLAN: remark: ring 3: tensor<1x128xf32> of 512 bytes crosses from load to compute (channel 1)
// PLAN: remark: ring 4: tensor<128x128xf16> of 32768 bytes crosses from load to compute (channel 1); slots of 32768 bytes (aligned to 1024: a swizzled TMA box starts on a 1024-byte boundary); swizzle 128
// PLAN: remark: ring 5: tensor<128x128xf16> of 32768 bytes crosses from compute to store (channel 2)

// The consumers, after the K loop: the operands' channel, then the math.
// SPEC:      nvvm.wgmma.wait.group.sync.aligned 0
// SPEC:      %[[S:.*]]:2 = "ws.slot_phase"(%{{.*}}) {depth = 1 : i32, start_phase = 0 : i32}
// SPEC-NEXT: "ws.wait"(%[[S]]#0, %[[S]]#1) {barrier = "full", channel = 1 : i32}
// SPEC-NEXT: %[[BIAS:.*]] = "ws.read_slot"(%[[S]]#0) {ring = 2 : i32} : (i32) -> tensor<1x128xf16>
// SPEC-NEXT: %[[ROWBIAS:.*]] = "ws.read_slot"(%[[S]]#0) {ring = 3 : i32} : (i32) -> tensor<1x128xf32>
// SPEC-NEXT: %[[RES:.*]] = "ws.read_slot"(%[[S]]#0) {ring = 4 : i32} : (i32) -> tensor<128x128xf16>
// SPEC-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// SPEC-NEXT: "ws.arrive"(%[[S]]#0) {barrier = "empty", channel = 1 : i32}
// SPEC-NEXT: "ws.broadcast"(%[[BIAS]]) {axis = 1 : i32}
// SPEC:      "ws.write_slot"
// The load warp: the K loop, then the operands once, under one expect-tx.
// SPEC:      nvvm.setmaxregister  decrease 24
// SPEC:      scf.for {{.*}} -> (i32)
// SPEC:        scf.yield %{{.*}} : i32
// SPEC-NEXT: }
// SPEC-NEXT: %[[L:.*]]:2 = "ws.slot_phase"(%{{.*}}) {depth = 1 : i32, start_phase = 1 : i32}
// SPEC-NEXT: "ws.wait"(%[[L]]#0, %[[L]]#1) {barrier = "empty", channel = 1 : i32}
// SPEC-NEXT: "ws.arrive_expect_tx"(%[[L]]#0) {bytes = 33536 : i32, channel = 1 : i32}
// SPEC-NEXT: "ws.tma_load"(%arg3, %c0_i32, %{{.*}}, %[[L]]#0) {ring = 2 : i32}
// SPEC-NEXT: "ws.tma_load"(%arg4, %c0_i32, %{{.*}}, %[[L]]#0) {ring = 3 : i32}
// SPEC-NEXT: "ws.tma_load"(%arg5, %{{.*}}, %{{.*}}, %[[L]]#0) {ring = 4 : i32}

// Each consumer thread reads its fragment of them: pairs of the bias row
// (one per 8 columns), one f32 of the row bias per row it holds, pairs of
// the residual.
// LOWER-COUNT-16: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> vector<2xf16>
// LOWER-COUNT-2:  llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// LOWER-COUNT-32: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> vector<2xf16>
