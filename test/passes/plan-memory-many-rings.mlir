// RUN: ws-opt --pass-pipeline='builtin.module(ws-partition-schedule, ws-plan-memory)' %S/../../integration/combine/combine_32.mlir | FileCheck %s
// RUN: ws-opt --emit=mlir --ws-explain %S/../../integration/combine/combine_32.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROVED
// RUN: not ws-opt --pass-pipeline='builtin.module(ws-partition-schedule, ws-plan-memory{smem-budget=65536})' %S/../../integration/combine/combine_32.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BUDGET
// The combine of a 32-way split moves 32 tiles a step from the load warp to
// the compute warps: 33 rings with the stored sum. The tables have no fixed
// size; shared memory is the only bound, and over it the error lists every
// ring with its arithmetic.

// Ring 31 is the last load's, ring 32 the sum's, after the 32 loads' 2 x 2
// KiB each.
// CHECK-LABEL: gpu.func @combine_32
// CHECK-SAME: ws.smem_bytes = 135232 : i32
// CHECK: "ws.load"{{.*}}ws.ring = {align = 128 : i32, channel = 0 : i32, offset = 126976 : i32, slot_bytes = 2048 : i32, swizzle = 0 : i32}
// CHECK: arith.addf{{.*}}ws.ring = {align = 128 : i32, channel = 1 : i32, offset = 131072 : i32, slot_bytes = 2048 : i32, swizzle = 0 : i32}
// CHECK: "ws.store"
// CHECK: ws.channels = [{depth = 2 : i32, {{.*}}from = "load", {{.*}}to = "compute"}, {depth = 2 : i32, {{.*}}from = "compute", {{.*}}to = "store"}]

// PROVED: remark: protocol proved: 2 channel(s), 33 ring(s)

// BUDGET: error: 'scf.for' op shared memory plan needs 67616 bytes but the budget is 65536 bytes (smem-budget=65536)
// BUDGET-SAME: ring 31 (ws.load tensor<8x64xf32> at line 141:16, load -> compute): 1 x 2048 = 2048 bytes at offset 63488; ring 32 (arith.addf tensor<8x64xf32> at line 172:16, compute -> store): 1 x 2048 = 2048 bytes at offset 65536; barriers: 32 bytes
