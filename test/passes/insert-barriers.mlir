// RUN: ws-opt --split-input-file --pass-pipeline='builtin.module(ws-partition-schedule, ws-plan-memory, ws-insert-barriers)' %S/Inputs/elementwise-kernels.mlir | FileCheck %s
// RUN: ws-opt --split-input-file --pass-pipeline='builtin.module(ws-partition-schedule, ws-plan-memory, ws-insert-barriers{max-blocks-per-sm=4})' %S/Inputs/elementwise-kernels.mlir | FileCheck %s --check-prefix=FOUR

// The load channel: filled by TMA (one arrive with expect-tx of both boxes,
// 2 x 8 KiB), drained by 128 compute threads, which fence before releasing;
// producers start at phase 1, consumers at 0. The store channel: filled by
// the compute threads (fence before publishing), released by the store
// thread one TMA store behind (drain = depth - 1).
// CHECK-LABEL: gpu.func @add_auto
// CHECK-SAME: ws.block_threads = 256 : i32, ws.blocks_per_sm = 2 : i32, ws.maxnreg = 128 : i32
// CHECK: ws.channels = [{consumer_phase = 0 : i32, depth = 4 : i32, drain = 0 : i32, empty = 81952 : i32, empty_arrivals = 128 : i32, expect_tx = 16384 : i32, from = "load", full = 81920 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = true, to = "compute"},
// CHECK-SAME: {consumer_phase = 0 : i32, depth = 2 : i32, drain = 1 : i32, empty = 82000 : i32, empty_arrivals = 1 : i32, expect_tx = 0 : i32, from = "compute", full = 81984 : i32, full_arrivals = 128 : i32, producer_phase = 1 : i32, publish_fence = true, release_fence = false, to = "store"}]
// Compute is warpgroup 0 (warps 0-3); load and store share warpgroup 1 and
// drop to 24 registers; compute rises to (128 * 256 - 24 * 128) / 128 = 232.
// CHECK-SAME: ws.partitions = [{first_warp = 4 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 4 : i32, registers = 232 : i32, role = "compute"}, {first_warp = 5 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}]
// FOUR-LABEL: gpu.func @add_auto
// FOUR-SAME: ws.blocks_per_sm = 2 : i32

// With ws.num_stages = 1 the store thread keeps no store in flight.
// CHECK-LABEL: gpu.func @add_s1
// CHECK: drain = 0 : i32, {{.*}} from = "compute"
// Small enough for four blocks per SM: the cap drops to 64 per thread and
// compute gets (64 * 256 - 24 * 128) / 128 = 104.
// FOUR-LABEL: gpu.func @add_s1
// FOUR-SAME: ws.blocks_per_sm = 4 : i32, ws.maxnreg = 64 : i32
// FOUR: name = "compute", num_warps = 4 : i32, registers = 104 : i32

// CHECK-LABEL: gpu.func @add_s3
// CHECK: drain = 2 : i32, {{.*}} from = "compute"

// 64x128 f16: expect-tx covers two 16 KiB boxes.
// CHECK-LABEL: gpu.func @add_f16
// CHECK: expect_tx = 32768 : i32

// 8 compute warps: 12 warps in all, entry cap 65536 / 2 / 384 -> 80; the
// block's pool is 80 * 384, so compute may rise to (30720 - 3072) / 256 -> 104.
// CHECK-LABEL: gpu.func @add_bf16_w8
// CHECK-SAME: ws.block_threads = 384 : i32, ws.blocks_per_sm = 2 : i32, ws.maxnreg = 80 : i32
// CHECK: empty_arrivals = 256 : i32
// CHECK-SAME: {first_warp = 8 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 8 : i32, registers = 104 : i32, role = "compute"}, {first_warp = 9 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}
