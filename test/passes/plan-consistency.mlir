// RUN: not ws-opt --split-input-file --pass-pipeline='builtin.module(ws-insert-barriers,ws-specialize)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// A saved plan fed back after a hand edit: every name and index it uses must
// resolve, or the pass names what does not (it never drops an op or reads
// past its tables). The base is a planned loop of integration/add.mlir (ws-plan-memory
// output); lower-to-nvvm-plan-errors.mlir edits the specialized kernel.

// A ring naming a channel the loop does not have.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @add(%arg0: !ws.tensor_desc<tensor<32x64xf32>>, %arg1: !ws.tensor_desc<tensor<32x64xf32>>, %arg2: !ws.tensor_desc<tensor<32x64xf32>>, %arg3: i32) kernel attributes {ws.block_threads = 256 : i32, ws.blocks_per_sm = 2 : i32, ws.maxnreg = 128 : i32, ws.num_warps = 4 : i32, ws.smem_bytes = 82016 : i32} {
      %block_id_x = gpu.block_id  x
      %0 = arith.index_cast %block_id_x : index to i32
      %c0_i32 = arith.constant 0 : i32
      %c32_i32 = arith.constant 32 : i32
      %c64_i32 = arith.constant 64 : i32
      %1 = arith.muli %0, %c32_i32 : i32
      scf.for %arg4 = %c0_i32 to %arg3 step %c64_i32  : i32 {
        %2 = "ws.load"(%arg0, %1, %arg4) {ws.partition = ["load"], ws.ring = {align = 128 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32}} : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %3 = "ws.load"(%arg1, %1, %arg4) {ws.partition = ["load"], ws.ring = {align = 128 : i32, channel = 0 : i32, offset = 32768 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32}} : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        // CHECK: plan-consistency.mlir:[[@LINE+1]]:14: error: 'arith.addf' op ws.ring names channel 99; the loop has 2; the plan is inconsistent (edited by hand?)
        %4 = arith.addf %2, %3 {ws.partition = ["compute"], ws.ring = {align = 128 : i32, channel = 99 : i32, offset = 65536 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32}} : tensor<32x64xf32>
        "ws.store"(%arg2, %1, %arg4, %4) {ws.partition = ["store"]} : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.channels = [{consumer_phase = 0 : i32, depth = 4 : i32, drain = 0 : i32, empty = 81952 : i32, empty_arrivals = 128 : i32, expect_tx = 16384 : i32, from = "load", full = 81920 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = true, to = "compute"}, {consumer_phase = 0 : i32, depth = 2 : i32, drain = 1 : i32, empty = 82000 : i32, empty_arrivals = 1 : i32, expect_tx = 0 : i32, from = "compute", full = 81984 : i32, full_arrivals = 128 : i32, producer_phase = 1 : i32, publish_fence = true, release_fence = false, to = "store"}], ws.partitions = [{first_warp = 4 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 4 : i32, registers = 232 : i32, role = "compute"}, {first_warp = 5 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}], ws.warp_specialize}
      gpu.return
    }
  }
}
// -----
// An op in a partition the table does not have.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @add(%arg0: !ws.tensor_desc<tensor<32x64xf32>>, %arg1: !ws.tensor_desc<tensor<32x64xf32>>, %arg2: !ws.tensor_desc<tensor<32x64xf32>>, %arg3: i32) kernel attributes {ws.block_threads = 256 : i32, ws.blocks_per_sm = 2 : i32, ws.maxnreg = 128 : i32, ws.num_warps = 4 : i32, ws.smem_bytes = 82016 : i32} {
      %block_id_x = gpu.block_id  x
      %0 = arith.index_cast %block_id_x : index to i32
      %c0_i32 = arith.constant 0 : i32
      %c32_i32 = arith.constant 32 : i32
      %c64_i32 = arith.constant 64 : i32
      %1 = arith.muli %0, %c32_i32 : i32
      scf.for %arg4 = %c0_i32 to %arg3 step %c64_i32  : i32 {
        %2 = "ws.load"(%arg0, %1, %arg4) {ws.partition = ["load"], ws.ring = {align = 128 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32}} : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %3 = "ws.load"(%arg1, %1, %arg4) {ws.partition = ["load"], ws.ring = {align = 128 : i32, channel = 0 : i32, offset = 32768 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32}} : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        // CHECK: plan-consistency.mlir:[[@LINE+1]]:14: error: 'arith.addf' op is in no partition of the loop's ws.partitions (its ws.partition is missing or names none of them)
        %4 = arith.addf %2, %3 {ws.partition = ["ghost"], ws.ring = {align = 128 : i32, channel = 1 : i32, offset = 65536 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32}} : tensor<32x64xf32>
        "ws.store"(%arg2, %1, %arg4, %4) {ws.partition = ["store"]} : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.channels = [{consumer_phase = 0 : i32, depth = 4 : i32, drain = 0 : i32, empty = 81952 : i32, empty_arrivals = 128 : i32, expect_tx = 16384 : i32, from = "load", full = 81920 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = true, to = "compute"}, {consumer_phase = 0 : i32, depth = 2 : i32, drain = 1 : i32, empty = 82000 : i32, empty_arrivals = 1 : i32, expect_tx = 0 : i32, from = "compute", full = 81984 : i32, full_arrivals = 128 : i32, producer_phase = 1 : i32, publish_fence = true, release_fence = false, to = "store"}], ws.partitions = [{first_warp = 4 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 4 : i32, registers = 232 : i32, role = "compute"}, {first_warp = 5 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}], ws.warp_specialize}
      gpu.return
    }
  }
}
// -----
// A channel from a partition the table does not have.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @add(%arg0: !ws.tensor_desc<tensor<32x64xf32>>, %arg1: !ws.tensor_desc<tensor<32x64xf32>>, %arg2: !ws.tensor_desc<tensor<32x64xf32>>, %arg3: i32) kernel attributes {ws.block_threads = 256 : i32, ws.blocks_per_sm = 2 : i32, ws.maxnreg = 128 : i32, ws.num_warps = 4 : i32, ws.smem_bytes = 82016 : i32} {
      %block_id_x = gpu.block_id  x
      %0 = arith.index_cast %block_id_x : index to i32
      %c0_i32 = arith.constant 0 : i32
      %c32_i32 = arith.constant 32 : i32
      %c64_i32 = arith.constant 64 : i32
      %1 = arith.muli %0, %c32_i32 : i32
      // CHECK: plan-consistency.mlir:[[@LINE+1]]:7: error: 'scf.for' op ws.channels[0]: its ends must be two different partitions of ws.partitions
      scf.for %arg4 = %c0_i32 to %arg3 step %c64_i32  : i32 {
        %2 = "ws.load"(%arg0, %1, %arg4) {ws.partition = ["load"], ws.ring = {align = 128 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32}} : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %3 = "ws.load"(%arg1, %1, %arg4) {ws.partition = ["load"], ws.ring = {align = 128 : i32, channel = 0 : i32, offset = 32768 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32}} : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %4 = arith.addf %2, %3 {ws.partition = ["compute"], ws.ring = {align = 128 : i32, channel = 1 : i32, offset = 65536 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32}} : tensor<32x64xf32>
        "ws.store"(%arg2, %1, %arg4, %4) {ws.partition = ["store"]} : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.channels = [{consumer_phase = 0 : i32, depth = 4 : i32, drain = 0 : i32, empty = 81952 : i32, empty_arrivals = 128 : i32, expect_tx = 16384 : i32, from = "nowhere", full = 81920 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = true, to = "compute"}, {consumer_phase = 0 : i32, depth = 2 : i32, drain = 1 : i32, empty = 82000 : i32, empty_arrivals = 1 : i32, expect_tx = 0 : i32, from = "compute", full = 81984 : i32, full_arrivals = 128 : i32, producer_phase = 1 : i32, publish_fence = true, release_fence = false, to = "store"}], ws.partitions = [{first_warp = 4 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 4 : i32, registers = 232 : i32, role = "compute"}, {first_warp = 5 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}], ws.warp_specialize}
      gpu.return
    }
  }
}
// -----
// A compute partition that is not whole warpgroups.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @add(%arg0: !ws.tensor_desc<tensor<32x64xf32>>, %arg1: !ws.tensor_desc<tensor<32x64xf32>>, %arg2: !ws.tensor_desc<tensor<32x64xf32>>, %arg3: i32) kernel attributes {ws.block_threads = 256 : i32, ws.blocks_per_sm = 2 : i32, ws.maxnreg = 128 : i32, ws.num_warps = 4 : i32, ws.smem_bytes = 82016 : i32} {
      %block_id_x = gpu.block_id  x
      %0 = arith.index_cast %block_id_x : index to i32
      %c0_i32 = arith.constant 0 : i32
      %c32_i32 = arith.constant 32 : i32
      %c64_i32 = arith.constant 64 : i32
      %1 = arith.muli %0, %c32_i32 : i32
      // CHECK: plan-consistency.mlir:[[@LINE+1]]:7: error: 'scf.for' op ws.partitions: partition "compute" has 6 warps; expected 1 to 16, a multiple of 4
      scf.for %arg4 = %c0_i32 to %arg3 step %c64_i32  : i32 {
        %2 = "ws.load"(%arg0, %1, %arg4) {ws.partition = ["load"], ws.ring = {align = 128 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32}} : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %3 = "ws.load"(%arg1, %1, %arg4) {ws.partition = ["load"], ws.ring = {align = 128 : i32, channel = 0 : i32, offset = 32768 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32}} : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %4 = arith.addf %2, %3 {ws.partition = ["compute"], ws.ring = {align = 128 : i32, channel = 1 : i32, offset = 65536 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32}} : tensor<32x64xf32>
        "ws.store"(%arg2, %1, %arg4, %4) {ws.partition = ["store"]} : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.channels = [{consumer_phase = 0 : i32, depth = 4 : i32, drain = 0 : i32, empty = 81952 : i32, empty_arrivals = 128 : i32, expect_tx = 16384 : i32, from = "load", full = 81920 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = true, to = "compute"}, {consumer_phase = 0 : i32, depth = 2 : i32, drain = 1 : i32, empty = 82000 : i32, empty_arrivals = 1 : i32, expect_tx = 0 : i32, from = "compute", full = 81984 : i32, full_arrivals = 128 : i32, producer_phase = 1 : i32, publish_fence = true, release_fence = false, to = "store"}], ws.partitions = [{first_warp = 4 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 6 : i32, registers = 232 : i32, role = "compute"}, {first_warp = 5 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}], ws.warp_specialize}
      gpu.return
    }
  }
}
// -----
// A depth the rings were not laid out for.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @add(%arg0: !ws.tensor_desc<tensor<32x64xf32>>, %arg1: !ws.tensor_desc<tensor<32x64xf32>>, %arg2: !ws.tensor_desc<tensor<32x64xf32>>, %arg3: i32) kernel attributes {ws.block_threads = 256 : i32, ws.blocks_per_sm = 2 : i32, ws.maxnreg = 128 : i32, ws.num_warps = 4 : i32, ws.smem_bytes = 82016 : i32} {
      %block_id_x = gpu.block_id  x
      %0 = arith.index_cast %block_id_x : index to i32
      %c0_i32 = arith.constant 0 : i32
      %c32_i32 = arith.constant 32 : i32
      %c64_i32 = arith.constant 64 : i32
      %1 = arith.muli %0, %c32_i32 : i32
      // CHECK: plan-consistency.mlir:[[@LINE+1]]:7: error: 'scf.for' op ws.channels[0]: depth 9; expected 1 to 8
      scf.for %arg4 = %c0_i32 to %arg3 step %c64_i32  : i32 {
        %2 = "ws.load"(%arg0, %1, %arg4) {ws.partition = ["load"], ws.ring = {align = 128 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32}} : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %3 = "ws.load"(%arg1, %1, %arg4) {ws.partition = ["load"], ws.ring = {align = 128 : i32, channel = 0 : i32, offset = 32768 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32}} : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %4 = arith.addf %2, %3 {ws.partition = ["compute"], ws.ring = {align = 128 : i32, channel = 1 : i32, offset = 65536 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32}} : tensor<32x64xf32>
        "ws.store"(%arg2, %1, %arg4, %4) {ws.partition = ["store"]} : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.channels = [{consumer_phase = 0 : i32, depth = 9 : i32, drain = 0 : i32, empty = 81952 : i32, empty_arrivals = 128 : i32, expect_tx = 16384 : i32, from = "load", full = 81920 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = true, to = "compute"}, {consumer_phase = 0 : i32, depth = 2 : i32, drain = 1 : i32, empty = 82000 : i32, empty_arrivals = 1 : i32, expect_tx = 0 : i32, from = "compute", full = 81984 : i32, full_arrivals = 128 : i32, producer_phase = 1 : i32, publish_fence = true, release_fence = false, to = "store"}], ws.partitions = [{first_warp = 4 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 4 : i32, registers = 232 : i32, role = "compute"}, {first_warp = 5 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}], ws.warp_specialize}
      gpu.return
    }
  }
}
// -----
// A ring in parts (store-boxes) whose channel has fewer slots than parts.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @add(%arg0: !ws.tensor_desc<tensor<32x64xf32>>, %arg1: !ws.tensor_desc<tensor<32x64xf32>>, %arg2: !ws.tensor_desc<tensor<32x64xf32>>, %arg3: i32) kernel attributes {ws.block_threads = 256 : i32, ws.blocks_per_sm = 2 : i32, ws.maxnreg = 128 : i32, ws.num_warps = 4 : i32, ws.smem_bytes = 82016 : i32} {
      %block_id_x = gpu.block_id  x
      %0 = arith.index_cast %block_id_x : index to i32
      %c0_i32 = arith.constant 0 : i32
      %c32_i32 = arith.constant 32 : i32
      %c64_i32 = arith.constant 64 : i32
      %1 = arith.muli %0, %c32_i32 : i32
      // CHECK: plan-consistency.mlir:[[@LINE+1]]:7: error: 'scf.for' op ws.rings[2]: 4 parts; expected 1 to 4, dividing its channel's depth (a slot per part), each part one swizzled TMA box
      scf.for %arg4 = %c0_i32 to %arg3 step %c64_i32  : i32 {
        %2 = "ws.load"(%arg0, %1, %arg4) {ws.partition = ["load"], ws.ring = {align = 128 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32}} : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %3 = "ws.load"(%arg1, %1, %arg4) {ws.partition = ["load"], ws.ring = {align = 128 : i32, channel = 0 : i32, offset = 32768 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32}} : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %4 = arith.addf %2, %3 {ws.partition = ["compute"], ws.ring = {align = 128 : i32, channel = 1 : i32, offset = 65536 : i32, parts = 4 : i32, slot_bytes = 2048 : i32, swizzle = 0 : i32}} : tensor<32x64xf32>
        "ws.store"(%arg2, %1, %arg4, %4) {ws.partition = ["store"]} : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.channels = [{consumer_phase = 0 : i32, depth = 4 : i32, drain = 0 : i32, empty = 81952 : i32, empty_arrivals = 128 : i32, expect_tx = 16384 : i32, from = "load", full = 81920 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = true, to = "compute"}, {consumer_phase = 0 : i32, depth = 2 : i32, drain = 1 : i32, empty = 82000 : i32, empty_arrivals = 1 : i32, expect_tx = 0 : i32, from = "compute", full = 81984 : i32, full_arrivals = 128 : i32, producer_phase = 1 : i32, publish_fence = true, release_fence = false, to = "store"}], ws.partitions = [{first_warp = 4 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 4 : i32, registers = 232 : i32, role = "compute"}, {first_warp = 5 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}], ws.warp_specialize}
      gpu.return
    }
  }
}
