// RUN: ws-opt --pass-pipeline='builtin.module(ws-partition-schedule, ws-plan-memory)' %S/Inputs/matmul-ta.mlir | FileCheck %s --check-prefix=PLAN
// RUN: ws-opt --ws-pipeline=stage=plan %S/Inputs/matmul-ta.mlir | ws-opt --pass-pipeline='builtin.module(ws-lower-to-nvvm, canonicalize, cse)' | FileCheck %s --check-prefix=LOWER
// RUN: rm -rf %t && mkdir -p %t && ws-opt %S/Inputs/matmul-ta.mlir --emit=launcher -o %t/ta && FileCheck %s --check-prefix=HOST < %t/ta.c
// A given K x M (transpose_a) on 128x128x64 f16, two consumer warpgroups.

// A's M row is 256 bytes: 128B swizzle, its 64x128 tile two boxes of 64
// columns of M, as a K x N B's.
// PLAN: "ws.load"(%arg0, {{.*}} ws.ring = {align = 1024 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32}

// wgmma reads A M-major (layout col): warpgroup w's 64 rows of M are box
// w (8192 bytes on); leading byte offset 8192 (the box stride, 512 << 16),
// stride byte offset 1024 (64 << 32); a K step of 16 advances A by 16
// rows of 128 bytes (128 units), B (K-major) by 32 bytes (2).
// LOWER: %[[WG:.*]] = arith.muli %{{.*}}, %c8192_i32 : i32
// LOWER-NEXT: %[[MINE:.*]] = arith.addi %{{.*}}, %[[WG]] : i32
// LOWER: %[[DA:.*]] = arith.ori %{{.*}}, %c4611686293338849280_i64 : i64
// LOWER: %[[DB:.*]] = arith.ori %{{.*}}, %c4611686293305360384_i64 : i64
// LOWER-NEXT: nvvm.wgmma.mma_async %[[DA]], %[[DB]], %{{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <col>], B[<f16>, <one>, <col>]
// LOWER-NEXT: arith.addi %[[DA]], %c128_i64 : i64
// LOWER-NEXT: arith.addi %[[DB]], %c2_i64 : i64
// The load warp fills A with two boxes, the second 64 columns of M on.
// LOWER: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg0, %[[FULL:.*]], box[%[[M:.*]], %arg5]
// LOWER: llvm.getelementptr %{{.*}}[8192]
// LOWER: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg0, %[[FULL]], box[%{{.*}}, %arg5]

// The launcher encodes A's box {64, 64} (64 of M by 64 of K).
// HOST: /* arg0 */
// HOST-NEXT: .box = {64, 64}, .swizzle = CU_TENSOR_MAP_SWIZZLE_128B
