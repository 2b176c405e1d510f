// RUN: rm -rf %t && %python %ws_src/integration/matmul/variants.py %t
// RUN: ws-opt --pass-pipeline='builtin.module(ws-partition-schedule, ws-plan-memory)' %t/mm_128x128x128_w8.mlir | FileCheck %s --check-prefix=PLAN
// RUN: ws-opt --ws-pipeline=stage=plan %t/mm_128x128x128_w8.mlir | ws-opt --pass-pipeline='builtin.module(ws-lower-to-nvvm, canonicalize, cse)' | FileCheck %s --check-prefix=LOWER
// A K tile of 128 f16: the 256-byte K rows of A and B are two 128B-swizzled
// boxes each (128 rows x 128 bytes, 16 KiB apart); three stages of 64 KiB
// fit with the C tile after them.
// PLAN: "ws.load"(%arg0, {{.*}} ws.ring = {align = 1024 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 32768 : i32, swizzle = 128 : i32}
// PLAN: ws.channels = [{depth = 3 : i32

// K steps 0-3 advance within the first box (32 bytes = 2 units each); step
// 4 starts the second box, 16384 bytes (1024 units) on.
// LOWER: %[[DA:.*]] = arith.ori %{{.*}}, %c4611686293305360384_i64 : i64
// LOWER: nvvm.wgmma.mma_async %[[DA]],
// LOWER: arith.addi %[[DA]], %c2_i64 : i64
// LOWER: arith.addi %[[DA]], %c4_i64 : i64
// LOWER: arith.addi %[[DA]], %c6_i64 : i64
// LOWER: arith.addi %[[DA]], %c1024_i64 : i64
// LOWER: arith.addi %[[DA]], %c1030_i64 : i64
// LOWER-NOT: %c1032_i64
// LOWER: nvvm.wgmma.commit.group.sync.aligned
// The load warp fills each of A and B with two boxes, 64 columns apart.
// LOWER: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg0, %[[FULL:.*]], box[%[[K:.*]], %{{.*}}]
// LOWER: %[[K64:.*]] = arith.addi %[[K]], %c64_i32 : i32
// LOWER: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg0, %[[FULL]], box[%[[K64]], %{{.*}}]
// LOWER: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg1, %[[FULL]], box[%[[K]], %{{.*}}]
// LOWER: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg1, %[[FULL]], box[%[[K64]], %{{.*}}]
