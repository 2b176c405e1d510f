// RUN: ws-opt --split-input-file --pass-pipeline='builtin.module(ws-partition-schedule, ws-plan-memory)' %S/Inputs/elementwise-kernels.mlir | FileCheck %s
// Rings per crossing tile, grouped into channels by producer and consumer;
// 128-byte aligned slots in ring order, then the barriers (8 bytes each).

// Without ws.num_stages the load channel gets the deepest of 4, 3, 2 within
// half the budget (here 4), the compute -> store channel 2.
// CHECK-LABEL: gpu.func @add_auto
// CHECK-SAME: ws.smem_bytes = 82016 : i32
// CHECK: "ws.load"{{.*}}ws.ring = {align = 128 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32}
// CHECK: "ws.load"{{.*}}ws.ring = {align = 128 : i32, channel = 0 : i32, offset = 32768 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32}
// CHECK: arith.addf{{.*}}ws.ring = {align = 128 : i32, channel = 1 : i32, offset = 65536 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32}
// CHECK: ws.channels = [{depth = 4 : i32, empty = 81952 : i32, from = "load", full = 81920 : i32, to = "compute"}, {depth = 2 : i32, empty = 82000 : i32, from = "compute", full = 81984 : i32, to = "store"}]

// ws.num_stages sets every channel's depth.
// CHECK-LABEL: gpu.func @add_s1
// CHECK-SAME: ws.smem_bytes = 24608 : i32
// CHECK: ws.channels = [{depth = 1 : i32, empty = 24584 : i32, from = "load", full = 24576 : i32, to = "compute"}, {depth = 1 : i32, empty = 24600 : i32, from = "compute", full = 24592 : i32, to = "store"}]
// CHECK-LABEL: gpu.func @add_s2
// CHECK-SAME: ws.smem_bytes = 49216 : i32
// CHECK: ws.channels = [{depth = 2 : i32
// CHECK-LABEL: gpu.func @add_s3
// CHECK-SAME: ws.smem_bytes = 73824 : i32
// CHECK: "ws.load"{{.*}}offset = 24576 : i32
// CHECK: ws.channels = [{depth = 3 : i32
// CHECK-LABEL: gpu.func @add_s4
// CHECK-SAME: ws.smem_bytes = 98432 : i32
// CHECK: ws.channels = [{depth = 4 : i32, {{.*}}}, {depth = 4 : i32

// 64x128 f16 slots are 16 KiB: depth 2 is the deepest within half the budget.
// CHECK-LABEL: gpu.func @add_f16
// CHECK-SAME: ws.smem_bytes = 98368 : i32
// CHECK: "ws.load"{{.*}}slot_bytes = 16384 : i32
// CHECK: ws.channels = [{depth = 2 : i32

// 16x256 bf16.
// CHECK-LABEL: gpu.func @add_bf16_w8
// CHECK-SAME: ws.smem_bytes = 82016 : i32
// CHECK: "ws.load"{{.*}}slot_bytes = 8192 : i32
