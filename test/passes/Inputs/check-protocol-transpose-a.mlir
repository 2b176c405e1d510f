// Inputs/matmul-ta.mlir (A given K x M, read M-major: transpose_a), saved specialized
// by ws-opt --ws-pipeline=stage=plan for check-protocol-transpose-a.mlir.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @matmul_ta(%arg0: !ws.tensor_desc<tensor<64x128xf16>>, %arg1: !ws.tensor_desc<tensor<128x64xf16>>, %arg2: !ws.tensor_desc<tensor<128x128xf16>>, %arg3: i32) kernel attributes {ws.block_threads = 384 : i32, ws.blocks_per_sm = 1 : i32, ws.channels = [{consumer_phase = 0 : i32, depth = 4 : i32, drain = 0 : i32, empty = 163872 : i32, empty_arrivals = 256 : i32, expect_tx = 32768 : i32, from = "load", full = 163840 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "compute"}, {consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 163912 : i32, empty_arrivals = 1 : i32, expect_tx = 0 : i32, from = "compute", full = 163904 : i32, full_arrivals = 256 : i32, producer_phase = 1 : i32, publish_fence = true, release_fence = false, to = "store"}], ws.maxnreg = 168 : i32, ws.num_warps = 8 : i32, ws.partitions = [{first_warp = 8 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 8 : i32, registers = 240 : i32, role = "compute"}, {first_warp = 9 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}], ws.rings = [{align = 1024 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32, tile = tensor<64x128xf16>}, {align = 1024 : i32, channel = 0 : i32, offset = 65536 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32, tile = tensor<128x64xf16>}, {align = 1024 : i32, channel = 1 : i32, offset = 131072 : i32, slot_bytes = 32768 : i32, swizzle = 128 : i32, tile = tensor<128x128xf16>}], ws.smem_bytes = 163920 : i32} {
      %c0_i32 = arith.constant 0 : i32
      %c64_i32 = arith.constant 64 : i32
      %c128_i32 = arith.constant 128 : i32
      %block_id_x = gpu.block_id  x
      %block_id_y = gpu.block_id  y
      %0 = arith.index_cast %block_id_x : index to i32
      %1 = arith.index_cast %block_id_y : index to i32
      %2 = arith.muli %0, %c128_i32 : i32
      %3 = arith.muli %1, %c128_i32 : i32
      %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
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
        %8:2 = scf.for %arg4 = %c0_i32 to %arg3 step %c64_i32 iter_args(%arg5 = %c0_i32_1, %arg6 = %cst) -> (i32, tensor<128x128xf32>)  : i32 {
          %12:2 = "ws.slot_phase"(%arg5) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%12#0, %12#1) {barrier = "full", channel = 0 : i32} : (i32, i32) -> ()
          nvvm.wgmma.fence.aligned
          %13 = "ws.mma"(%12#0, %arg6) {ring_a = 0 : i32, ring_b = 1 : i32, transpose_a, transpose_b} : (i32, tensor<128x128xf32>) -> tensor<128x128xf32>
          nvvm.wgmma.commit.group.sync.aligned
          nvvm.wgmma.wait.group.sync.aligned 1
          %c1_i32_2 = arith.constant 1 : i32
          %14 = arith.cmpi uge, %arg5, %c1_i32_2 : i32
          scf.if %14 {
            %16 = arith.subi %arg5, %c1_i32_2 : i32
            %17:2 = "ws.slot_phase"(%16) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            "ws.arrive"(%17#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()
          }
          %c1_i32_3 = arith.constant 1 : i32
          %15 = arith.addi %arg5, %c1_i32_3 : i32
          scf.yield %15, %13 : i32, tensor<128x128xf32>
        }
        nvvm.wgmma.wait.group.sync.aligned 0
        %c1_i32 = arith.constant 1 : i32
        %9 = arith.cmpi uge, %8#0, %c1_i32 : i32
        scf.if %9 {
          %12 = arith.subi %8#0, %c1_i32 : i32
          %13:2 = "ws.slot_phase"(%12) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.arrive"(%13#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()
        }
        %10 = arith.truncf %8#1 : tensor<128x128xf32> to tensor<128x128xf16>
        %11:2 = "ws.slot_phase"(%c0_i32_1) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
        "ws.wait"(%11#0, %11#1) {barrier = "empty", channel = 1 : i32} : (i32, i32) -> ()
        "ws.write_slot"(%10, %11#0) {ring = 2 : i32} : (tensor<128x128xf16>, i32) -> ()
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
        "ws.arrive"(%11#0) {barrier = "full", channel = 1 : i32} : (i32) -> ()
      } else {
        nvvm.setmaxregister  decrease 24
        %c8_i32_1 = arith.constant 8 : i32
        %8 = arith.cmpi eq, %5, %c8_i32_1 : i32
        %9 = nvvm.elect.sync -> i1
        %10 = arith.andi %8, %9 : i1
        scf.if %10 {
          %c0_i32_2 = arith.constant 0 : i32
          %14 = scf.for %arg4 = %c0_i32 to %arg3 step %c64_i32 iter_args(%arg5 = %c0_i32_2) -> (i32)  : i32 {
            %15:2 = "ws.slot_phase"(%arg5) {depth = 4 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%15#0, %15#1) {barrier = "empty", channel = 0 : i32} : (i32, i32) -> ()
            "ws.arrive_expect_tx"(%15#0) {bytes = 32768 : i32, channel = 0 : i32} : (i32) -> ()
            "ws.tma_load"(%arg0, %arg4, %2, %15#0) {ring = 0 : i32} : (!ws.tensor_desc<tensor<64x128xf16>>, i32, i32, i32) -> ()
            "ws.tma_load"(%arg1, %3, %arg4, %15#0) {ring = 1 : i32} : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32, i32) -> ()
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
          %14:2 = "ws.slot_phase"(%c0_i32_2) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%14#0, %14#1) {barrier = "full", channel = 1 : i32} : (i32, i32) -> ()
          "ws.tma_store"(%arg2, %2, %3, %14#0) {ring = 2 : i32} : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, i32) -> ()
          nvvm.cp.async.bulk.commit.group
          nvvm.cp.async.bulk.wait_group 0
        }
      }
      gpu.return
    }
  }
}

