// RUN: ws-opt --pass-pipeline='builtin.module(ws-partition-schedule, ws-plan-memory)' %S/Inputs/matmul-kn.mlir | FileCheck %s --check-prefix=PLAN
// RUN: ws-opt --ws-pipeline=stage=plan %S/Inputs/matmul-kn.mlir | ws-opt --pass-pipeline='builtin.module(ws-lower-to-nvvm, canonicalize, cse)' | FileCheck %s --check-prefix=LOWER
// RUN: rm -rf %t && mkdir -p %t && ws-opt %S/Inputs/matmul-kn.mlir --emit=launcher -o %t/kn && FileCheck %s --check-prefix=HOST < %t/kn.c
// B given K x N (no transpose_b) and the swizzled C tile, on 128x128x64 f16.

// B's N row is 256 bytes: 128B swizzle, so its 64x128 tile is two boxes of
// 64 columns. C is swizzled the same way, aligned for it.
// PLAN: "ws.load"(%arg1, {{.*}} ws.ring = {align = 1024 : i32, channel = 0 : i32, offset = 65536 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32}
// PLAN: arith.truncf {{.*}} ws.ring = {align = 1024 : i32, channel = 1 : i32, offset = 131072 : i32, slot_bytes = 32768 : i32, swizzle = 128 : i32}

// wgmma reads B N-major (layout row): leading byte offset 8192 (the box
// stride, 512 << 16), stride byte offset 1024 (64 << 32); a K step of 16
// advances A by 32 bytes (2 units) and B by 16 rows of 128 bytes (128).
// LOWER: %[[BDESC:.*]] = arith.constant 4611686293338849280 : i64
// LOWER: %[[ADESC:.*]] = arith.constant 4611686293305360384 : i64
// LOWER: %[[DA:.*]] = arith.ori %{{.*}}, %[[ADESC]] : i64
// LOWER: %[[DB:.*]] = arith.ori %{{.*}}, %[[BDESC]] : i64
// LOWER: nvvm.wgmma.mma_async %[[DA]], %[[DB]], %{{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
// LOWER: arith.addi %[[DA]], %c2_i64 : i64
// LOWER: arith.addi %[[DB]], %c128_i64 : i64
// The epilogue writes each f16 pair at its swizzled place: piece ^= (offset >> 7) & 7.
// LOWER: %[[BITS:.*]] = arith.shrui %[[LIN:.*]], %c3_i32 : i32
// LOWER: %[[MASK:.*]] = arith.andi %[[BITS]], %c112_i32 : i32
// LOWER: %[[AT:.*]] = arith.xori %[[LIN]], %[[MASK]] : i32
// LOWER: llvm.getelementptr %{{.*}}[%[[AT]]]
// LOWER-NEXT: llvm.store %{{.*}} {alignment = 4 : i64} : vector<2xf16>, !llvm.ptr<3>
// The load warp fills A with one box and B with two, the second 64 columns on.
// LOWER: nvvm.mbarrier.arrive.expect_tx %[[FULL:.*]], %c32768_i32
// LOWER: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg0, %[[FULL]], box[%arg5, %{{.*}}]
// LOWER: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg1, %[[FULL]], box[%[[N:.*]], %arg5]
// LOWER: %[[N64:.*]] = arith.addi %[[N]], %c64_i32 : i32
// LOWER: llvm.getelementptr %{{.*}}[8192]
// LOWER: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg1, %[[FULL]], box[%[[N64]], %arg5]
// The store warp stores C as two boxes, each exactly: the edge path reads
// the swizzled slot.
// LOWER: scf.for %[[BOX:.*]] = %c0_i32 to %c2_i32 step %c1_i32
// LOWER-NEXT: %[[COLS:.*]] = arith.muli %[[BOX]], %c64_i32 : i32
// LOWER-NEXT: %[[COL:.*]] = arith.addi %[[N]], %[[COLS]] : i32
// LOWER: %[[OFF:.*]] = arith.muli %[[BOX]], %c16384_i32 : i32
// LOWER-NEXT: %[[SRC:.*]] = llvm.getelementptr %{{.*}}[%[[OFF]]]
// LOWER: arith.xori
// LOWER: nvvm.cp.async.bulk.tensor.global.shared.cta %arg2, %[[SRC]], box[%[[COL]], %{{.*}}]
// LOWER: nvvm.cp.async.bulk.wait_group 0

// The launcher encodes the same boxes and swizzle: B {64, 64} and C {128, 64}.
// HOST: /* arg0 */
// HOST-NEXT: .box = {128, 64}, .swizzle = CU_TENSOR_MAP_SWIZZLE_128B
// HOST: /* arg1 */
// HOST-NEXT: .box = {64, 64}, .swizzle = CU_TENSOR_MAP_SWIZZLE_128B
// HOST: /* arg2 */
// HOST-NEXT: .box = {128, 64}, .swizzle = CU_TENSOR_MAP_SWIZZLE_128B
