// RUN: not ws-opt --pass-pipeline='builtin.module(ws-lower-to-nvvm)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// A C tile handed over box by box (store-boxes), fed back after a hand
// edit: its last ws.write_slot names part 4 of a ring that holds 4 parts
// (0 to 3). The lowering names the op and what it expected, instead of
// writing past the slot. The base is ws-pipeline{stage=plan} of the tiled
// kernel of insert-barriers-store-boxes.mlir.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @tiled(%arg0: !ws.tensor_desc<tensor<128x64xf16>>, %arg1: !ws.tensor_desc<tensor<256x64xf16>>, %arg2: !ws.tensor_desc<tensor<128x256xf16>>, %arg3: i32) kernel attributes {ws.block_threads = 384 : i32, ws.blocks_per_sm = 1 : i32, ws.channels = [{consumer_phase = 0 : i32, depth = 4 : i32, drain = 0 : i32, empty = 196640 : i32, empty_arrivals = 256 : i32, expect_tx = 49152 : i32, from = "load", full = 196608 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "compute"}, {consumer_phase = 0 : i32, depth = 4 : i32, drain = 3 : i32, empty = 196704 : i32, empty_arrivals = 1 : i32, expect_tx = 0 : i32, from = "compute", full = 196672 : i32, full_arrivals = 256 : i32, producer_phase = 1 : i32, publish_fence = true, release_fence = false, to = "store"}], ws.maxnreg = 168 : i32, ws.num_warps = 8 : i32, ws.partitions = [{first_warp = 8 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 8 : i32, registers = 240 : i32, role = "compute"}, {first_warp = 9 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}], ws.rings = [{align = 1024 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32, tile = tensor<128x64xf16>}, {align = 1024 : i32, channel = 0 : i32, offset = 65536 : i32, slot_bytes = 32768 : i32, swizzle = 128 : i32, tile = tensor<256x64xf16>}, {align = 1024 : i32, channel = 1 : i32, offset = 0 : i32, parts = 4 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32, tile = tensor<128x64xf16>}], ws.smem_bytes = 196736 : i32} {
      %c0_i32 = arith.constant 0 : i32
      %c64_i32 = arith.constant 64 : i32
      %c128_i32 = arith.constant 128 : i32
      %c256_i32 = arith.constant 256 : i32
      %cst = arith.constant dense<0.000000e+00> : tensor<128x256xf32>
      %block_id_x = gpu.block_id  x
      %block_id_y = gpu.block_id  y
      %0 = arith.index_cast %block_id_x : index to i32
      %1 = arith.index_cast %block_id_y : index to i32
      %2 = arith.muli %0, %c128_i32 : i32
      %3 = arith.muli %1, %c256_i32 : i32
      %4 = nvvm.read.ptx.sreg.tid.x : i32
      %c32_i32 = arith.constant 32 : i32
      %5 = arith.divui %4, %c32_i32 : i32
      %c0_i32_0 = arith.constant 0 : i32
      %6 = arith.cmpi eq, %4, %c0_i32_0 : i32
      scf.if %6 {
        "ws.init_barrier"() {barrier = "full", channel = 0 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 0 : i32, count = 256 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "full", channel = 1 : i32, count = 256 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 1 : i32, count = 1 : i32} : () -> ()
        nvvm.fence.mbarrier.init
      }
      nvvm.barrier0
      %c8_i32 = arith.constant 8 : i32
      %7 = arith.cmpi ult, %5, %c8_i32 : i32
      scf.if %7 {
        nvvm.setmaxregister  increase 240
        %c0_i32_1 = arith.constant 0 : i32
        %c0_i32_2 = arith.constant 0 : i32
        %8:2 = scf.for %arg4 = %c0_i32 to %arg3 step %c64_i32 iter_args(%arg5 = %c0_i32_1, %arg6 = %cst) -> (i32, tensor<128x256xf32>)  : i32 {
          %15:2 = "ws.slot_phase"(%arg5) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%15#0, %15#1) {barrier = "full", channel = 0 : i32} : (i32, i32) -> ()
          nvvm.wgmma.fence.aligned
          %16 = "ws.mma"(%15#0, %arg6) {ring_a = 0 : i32, ring_b = 1 : i32, transpose_b} : (i32, tensor<128x256xf32>) -> tensor<128x256xf32>
          nvvm.wgmma.commit.group.sync.aligned
          nvvm.wgmma.wait.group.sync.aligned 1
          %c1_i32_8 = arith.constant 1 : i32
          %17 = arith.cmpi uge, %arg5, %c1_i32_8 : i32
          scf.if %17 {
            %19 = arith.subi %arg5, %c1_i32_8 : i32
            %20:2 = "ws.slot_phase"(%19) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            "ws.arrive"(%20#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()
          }
          %c1_i32_9 = arith.constant 1 : i32
          %18 = arith.addi %arg5, %c1_i32_9 : i32
          scf.yield %18, %16 : i32, tensor<128x256xf32>
        }
        nvvm.wgmma.wait.group.sync.aligned 0
        %c1_i32 = arith.constant 1 : i32
        %9 = arith.cmpi uge, %8#0, %c1_i32 : i32
        scf.if %9 {
          %15 = arith.subi %8#0, %c1_i32 : i32
          %16:2 = "ws.slot_phase"(%15) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.arrive"(%16#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()
        }
        %c1_i32_3 = arith.constant 1 : i32
        %c256_i32_4 = arith.constant 256 : i32
        nvvm.barrier id = %c1_i32_3 number_of_threads = %c256_i32_4
        %10 = arith.truncf %8#1 : tensor<128x256xf32> to tensor<128x256xf16>
        %c0_i32_5 = arith.constant 0 : i32
        %c0_i32_6 = arith.constant 0 : i32
        %11:2 = "ws.slot_phase"(%c0_i32_6) {depth = 4 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
        "ws.wait"(%11#0, %11#1) {barrier = "empty", channel = 1 : i32} : (i32, i32) -> ()
        "ws.write_slot"(%10, %11#0) {part = 0 : i32, ring = 2 : i32} : (tensor<128x256xf16>, i32) -> ()
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
        "ws.arrive"(%11#0) {barrier = "full", channel = 1 : i32} : (i32) -> ()
        %c1_i32_7 = arith.constant 1 : i32
        %12:2 = "ws.slot_phase"(%c1_i32_7) {depth = 4 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
        "ws.wait"(%12#0, %12#1) {barrier = "empty", channel = 1 : i32} : (i32, i32) -> ()
        "ws.write_slot"(%10, %12#0) {part = 1 : i32, ring = 2 : i32} : (tensor<128x256xf16>, i32) -> ()
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
        "ws.arrive"(%12#0) {barrier = "full", channel = 1 : i32} : (i32) -> ()
        %c2_i32 = arith.constant 2 : i32
        %13:2 = "ws.slot_phase"(%c2_i32) {depth = 4 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
        "ws.wait"(%13#0, %13#1) {barrier = "empty", channel = 1 : i32} : (i32, i32) -> ()
        "ws.write_slot"(%10, %13#0) {part = 2 : i32, ring = 2 : i32} : (tensor<128x256xf16>, i32) -> ()
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
        "ws.arrive"(%13#0) {barrier = "full", channel = 1 : i32} : (i32) -> ()
        %c3_i32 = arith.constant 3 : i32
        %14:2 = "ws.slot_phase"(%c3_i32) {depth = 4 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
        "ws.wait"(%14#0, %14#1) {barrier = "empty", channel = 1 : i32} : (i32, i32) -> ()
        // CHECK: lower-to-nvvm-store-boxes-errors.mlir:[[@LINE+1]]:9: error: 'ws.write_slot' op writes part 4 into ring 2, which holds parts 0 to 3 of its tile (one TMA box each); the tile written must be a wgmma fragment 4 times as wide as the ring's
        "ws.write_slot"(%10, %14#0) {part = 4 : i32, ring = 2 : i32} : (tensor<128x256xf16>, i32) -> ()
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
        "ws.arrive"(%14#0) {barrier = "full", channel = 1 : i32} : (i32) -> ()
      } else {
        nvvm.setmaxregister  decrease 24
        %c8_i32_1 = arith.constant 8 : i32
        %8 = arith.cmpi eq, %5, %c8_i32_1 : i32
        %9 = nvvm.elect.sync -> i1
        %10 = arith.andi %8, %9 : i1
        scf.if %10 {
          %c0_i32_2 = arith.constant 0 : i32
          %c0_i32_3 = arith.constant 0 : i32
          %14 = scf.for %arg4 = %c0_i32 to %arg3 step %c64_i32 iter_args(%arg5 = %c0_i32_2) -> (i32)  : i32 {
            %15:2 = "ws.slot_phase"(%arg5) {depth = 4 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%15#0, %15#1) {barrier = "empty", channel = 0 : i32} : (i32, i32) -> ()
            "ws.arrive_expect_tx"(%15#0) {bytes = 49152 : i32, channel = 0 : i32} : (i32) -> ()
            "ws.tma_load"(%arg0, %2, %arg4, %15#0) {ring = 0 : i32} : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32, i32) -> ()
            "ws.tma_load"(%arg1, %3, %arg4, %15#0) {ring = 1 : i32} : (!ws.tensor_desc<tensor<256x64xf16>>, i32, i32, i32) -> ()
            %c1_i32 = arith.constant 1 : i32
            %16 = arith.addi %arg5, %c1_i32 : i32
            scf.yield %16 : i32
          }
        }
        %c9_i32 = arith.constant 9 : i32
        %11 = arith.cmpi eq, %5, %c9_i32 : i32
        %12 = nvvm.elect.sync -> i1
        %13 = arith.andi %11, %12 : i1
        scf.if %13 {
          %c0_i32_2 = arith.constant 0 : i32
          %c0_i32_3 = arith.constant 0 : i32
          %14:2 = "ws.slot_phase"(%c0_i32_3) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%14#0, %14#1) {barrier = "full", channel = 1 : i32} : (i32, i32) -> ()
          "ws.tma_store"(%arg2, %2, %3, %14#0) {ring = 2 : i32} : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, i32) -> ()
          nvvm.cp.async.bulk.commit.group
          %c1_i32 = arith.constant 1 : i32
          %15:2 = "ws.slot_phase"(%c1_i32) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%15#0, %15#1) {barrier = "full", channel = 1 : i32} : (i32, i32) -> ()
          %c64_i32_4 = arith.constant 64 : i32
          %16 = arith.addi %3, %c64_i32_4 : i32
          "ws.tma_store"(%arg2, %2, %16, %15#0) {ring = 2 : i32} : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, i32) -> ()
          nvvm.cp.async.bulk.commit.group
          %c2_i32 = arith.constant 2 : i32
          %17:2 = "ws.slot_phase"(%c2_i32) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%17#0, %17#1) {barrier = "full", channel = 1 : i32} : (i32, i32) -> ()
          %c128_i32_5 = arith.constant 128 : i32
          %18 = arith.addi %3, %c128_i32_5 : i32
          "ws.tma_store"(%arg2, %2, %18, %17#0) {ring = 2 : i32} : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, i32) -> ()
          nvvm.cp.async.bulk.commit.group
          %c3_i32 = arith.constant 3 : i32
          %19:2 = "ws.slot_phase"(%c3_i32) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%19#0, %19#1) {barrier = "full", channel = 1 : i32} : (i32, i32) -> ()
          %c192_i32 = arith.constant 192 : i32
          %20 = arith.addi %3, %c192_i32 : i32
          "ws.tma_store"(%arg2, %2, %20, %19#0) {ring = 2 : i32} : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, i32) -> ()
          nvvm.cp.async.bulk.commit.group
          nvvm.cp.async.bulk.wait_group 0
        }
      }
      gpu.return
    }
  }
}
