// RUN: sed 's/sm_90a/sm_100a/' %ws_src/integration/matmul.mlir | ws-opt --pass-pipeline='builtin.module(ws-verify, ws-partition-schedule{explain=true})' 2>&1 | FileCheck %s
// RUN: sed 's/sm_90a/sm_100a/' %ws_src/integration/matmul_persistent.mlir | ws-opt --pass-pipeline='builtin.module(ws-verify, ws-partition-schedule{explain=true})' 2>&1 | FileCheck %s --check-prefix=PERSISTENT
// On sm_100a a matmul's ws.dot goes to an MMA partition of one warp
// (tcgen05.mma, issued by one thread into tensor memory); the compute warps
// keep only the epilogue. The example matmul (integration/matmul.mlir),
// retargeted.
// CHECK: remark: partitions: load (1 warp), compute (8 warps), mma (1 warp), store (1 warp); {{.*}} the load, MMA and store partitions take one warp each
// CHECK: remark: partition mma: tcgen05.mma, issued by one elected thread of the MMA warp into an accumulator in tensor memory
// CHECK: remark: partition compute (epilogue): math on tiles
// CHECK: "ws.dot"{{.*}}ws.partition = ["mma"]
// CHECK: ws.partitions = [{name = "load", num_warps = 1 : i32, role = "load"}, {name = "compute", num_warps = 8 : i32, role = "compute"}, {name = "mma", num_warps = 1 : i32, role = "mma"}, {name = "store", num_warps = 1 : i32, role = "store"}]
// CHECK: arith.truncf {{.*}}ws.partition = ["compute"]

// Persistent: the tile loop overlaps tiles through two tensor-memory
// accumulators (ws.overlap = "tmem"), not ping-pong warpgroups.
// PERSISTENT: remark: persistent, on sm_100a: the MMA warp accumulates each 128x256 tile in tensor memory and hands it to the 2 epilogue warpgroup(s)
// PERSISTENT: ws.overlap = "tmem", ws.tile_loop
