// RUN: sed 's/sm_90a/sm_100a/' %ws_src/integration/matmul.mlir | ws-opt --pass-pipeline='builtin.module(ws-verify, ws-partition-schedule, ws-plan-memory{explain=true})' 2>&1 | FileCheck %s
// RUN: sed 's/sm_90a/sm_100a/' %ws_src/integration/matmul_persistent.mlir | ws-opt --pass-pipeline='builtin.module(ws-verify, ws-partition-schedule, ws-plan-memory{explain=true})' 2>&1 | FileCheck %s --check-prefix=PERSISTENT
// RUN: sed 's/sm_90a/sm_100a/' %ws_src/integration/matmul_persistent.mlir | ws-opt --pass-pipeline='builtin.module(ws-verify, ws-partition-schedule, ws-plan-memory{tmem-budget=256 explain=true})' 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: sed 's/sm_90a/sm_100a/' %ws_src/integration/matmul.mlir | not ws-opt --pass-pipeline='builtin.module(ws-verify, ws-partition-schedule, ws-plan-memory{tmem-budget=128})' 2>&1 | FileCheck %s --check-prefix=OVER
// The pipeline (and Python's tmem_budget=) passes it on:
// RUN: sed 's/sm_90a/sm_100a/' %ws_src/integration/matmul.mlir | not ws-opt --ws-pipeline='tmem-budget=128 stage=plan' 2>&1 | FileCheck %s --check-prefix=OVER
// RUN: sed 's/sm_90a/sm_100a/' %ws_src/integration/matmul_persistent.mlir | ws-opt "--ws-pipeline=stage=plan" --emit=plan -o - | FileCheck %s --check-prefix=JSON
// ws-plan-memory gives an sm_100a matmul's accumulator tensor memory: one
// f32 column per column of N in all 128 lanes, in a channel of its own from
// the MMA warp to the epilogue (no ring), allocated in a power of two of at
// least 32 columns, with a shared-memory word for the allocation's address
// after the barriers.

// One tile per block: one buffer of 256 columns.
// CHECK: remark: tensor memory: the tensor<128x256xf32> accumulator takes 256 columns of 32 bits in all 128 lanes {{.*}}; 1 buffer(s): one tile per block, nothing to overlap; 256 columns allocated (a power of two, at least 32) of the budget of 512; the MMA warp allocates them and writes the address at shared-memory byte 196704
// CHECK: ws.smem_bytes = 196712 : i32
// CHECK: {depth = 1 : i32, empty = 196696 : i32, from = "mma", full = 196688 : i32, to = "compute"}
// CHECK-SAME: ws.tmem = {address = 196704 : i32, allocated = 256 : i32, channel = 2 : i32, columns = 256 : i32, tile = tensor<128x256xf32>}

// Persistent: two buffers take all 512 columns, so the MMAs of the next tile
// run while the epilogue drains this one.
// PERSISTENT: remark: tensor memory: {{.*}} 2 buffer(s), so that the MMAs of the next tile run while the epilogue drains this one (persistent); 512 columns allocated
// PERSISTENT: {depth = 2 : i32, {{.*}} from = "mma", {{.*}} to = "compute"}
// PERSISTENT-SAME: ws.tmem = {address = {{[0-9]+}} : i32, allocated = 512 : i32, channel = 3 : i32, columns = 256 : i32, tile = tensor<128x256xf32>}

// With room for one accumulator only, the next tile's MMAs wait, and the
// remark says so.
// ONE: remark: tensor memory: {{.*}} 1 buffer(s): two do not fit the budget, so the next tile's MMAs wait for this tile's epilogue to read the accumulator; 256 columns allocated {{.*}} of the budget of 256

// Over the budget: a located error naming the buffer.
// OVER: error: 'scf.for' op tensor memory plan needs 256 columns but the budget is 128 (512 of 32 bits per lane on sm_100a, or tmem-budget=): accumulator (ws.dot tensor<128x256xf32> at line 22:14, mma -> compute): 1 x 256 columns at column 0, allocated as 256

// --emit=plan: the tensor-memory map, and the address word in the
// shared-memory map.
// JSON: "role": "mma"
// JSON: "tensor_memory": {"columns": 512, "allocated": 512, "lanes": 128, "address": [[ADDR:[0-9]+]], "buffers": [
// JSON-NEXT: {"column": 0, "columns": 256, "channel": 3, "tile": "tensor<128x256xf32>"},
// JSON-NEXT: {"column": 256, "columns": 256, "channel": 3, "tile": "tensor<128x256xf32>"}
// JSON: {"offset": [[ADDR]], "bytes": 4, "what": "tensor-memory address"}
