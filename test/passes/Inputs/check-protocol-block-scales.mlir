module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @block_scaled(%arg0: !ws.tensor_desc<tensor<128x128xf8E4M3FN>>, %arg1: !ws.tensor_desc<tensor<128x128xf8E4M3FN>>, %arg2: !ws.tensor_desc<tensor<1x128xf32>>, %arg3: !ws.tensor_desc<tensor<1x128xf32>>, %arg4: !ws.tensor_desc<tensor<128x128xbf16>>, %arg5: i32) kernel attributes {ws.block_threads = 384 : i32, ws.blocks_per_sm = 1 : i32, ws.channels = [{consumer_phase = 0 : i32, depth = 4 : i32, drain = 0 : i32, empty = 167968 : i32, empty_arrivals = 256 : i32, expect_tx = 33792 : i32, from = "load", full = 167936 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = true, to = "compute"}, {consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 168008 : i32, empty_arrivals = 1 : i32, expect_tx = 0 : i32, from = "compute", full = 168000 : i32, full_arrivals = 256 : i32, producer_phase = 1 : i32, publish_fence = true, release_fence = false, to = "store"}], ws.maxnreg = 168 : i32, ws.num_warps = 8 : i32, ws.partitions = [{first_warp = 8 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 8 : i32, registers = 240 : i32, role = "compute"}, {first_warp = 9 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}], ws.rings = [{align = 1024 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32, tile = tensor<128x128xf8E4M3FN>}, {align = 1024 : i32, channel = 0 : i32, offset = 65536 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32, tile = tensor<128x128xf8E4M3FN>}, {align = 128 : i32, channel = 0 : i32, offset = 131072 : i32, slot_bytes = 512 : i32, swizzle = 0 : i32, tile = tensor<1x128xf32>}, {align = 128 : i32, channel = 0 : i32, offset = 133120 : i32, slot_bytes = 512 : i32, swizzle = 0 : i32, tile = tensor<1x128xf32>}, {align = 1024 : i32, channel = 1 : i32, offset = 135168 : i32, slot_bytes = 32768 : i32, swizzle = 128 : i32, tile = tensor<128x128xbf16>}], ws.smem_bytes = 168016 : i32} {
      %c0_i32 = arith.constant 0 : i32
      %c128_i32 = arith.constant 128 : i32
      %c128_i32_0 = arith.constant 128 : i32
      %c128_i32_1 = arith.constant 128 : i32
      %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
      %block_id_x = gpu.block_id  x
      %block_id_y = gpu.block_id  y
      %0 = arith.index_cast %block_id_x : index to i32
      %1 = arith.index_cast %block_id_y : index to i32
      %2 = arith.muli %0, %c128_i32_0 : i32
      %3 = arith.muli %1, %c128_i32_1 : i32
      %4 = nvvm.read.ptx.sreg.tid.x : i32
      %c32_i32 = arith.constant 32 : i32
      %5 = arith.divui %4, %c32_i32 : i32
      %c0_i32_2 = arith.constant 0 : i32
      %6 = arith.cmpi eq, %4, %c0_i32_2 : i32
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
        %c0_i32_3 = arith.constant 0 : i32
        %c0_i32_4 = arith.constant 0 : i32
        %8:2 = scf.for %arg6 = %c0_i32 to %arg5 step %c128_i32 iter_args(%arg7 = %c0_i32_3, %arg8 = %cst) -> (i32, tensor<128x128xf32>)  : i32 {
          %12:2 = "ws.slot_phase"(%arg7) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%12#0, %12#1) {barrier = "full", channel = 0 : i32} : (i32, i32) -> ()
          nvvm.wgmma.fence.aligned
          %13 = "ws.mma"(%12#0, %cst) {ring_a = 0 : i32, ring_b = 1 : i32, transpose_b} : (i32, tensor<128x128xf32>) -> tensor<128x128xf32>
          %14 = "ws.read_slot"(%12#0) {ring = 2 : i32} : (i32) -> tensor<1x128xf32>
          %15 = "ws.broadcast"(%14) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
          %16 = "ws.read_slot"(%12#0) {ring = 3 : i32} : (i32) -> tensor<1x128xf32>
          %17 = "ws.broadcast"(%16) {axis = 1 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
          nvvm.wgmma.commit.group.sync.aligned
          nvvm.wgmma.wait.group.sync.aligned 0
          %c1_i32_6 = arith.constant 1 : i32
          %18 = arith.cmpi uge, %arg7, %c1_i32_6 : i32
          scf.if %18 {
            %23 = arith.subi %arg7, %c1_i32_6 : i32
            %24:2 = "ws.slot_phase"(%23) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
            "ws.arrive"(%24#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()
          }
          %19 = arith.mulf %13, %15 : tensor<128x128xf32>
          %20 = arith.mulf %19, %17 : tensor<128x128xf32>
          %21 = arith.addf %arg8, %20 : tensor<128x128xf32>
          %c1_i32_7 = arith.constant 1 : i32
          %22 = arith.addi %arg7, %c1_i32_7 : i32
          scf.yield %22, %21 : i32, tensor<128x128xf32>
        }
        nvvm.wgmma.wait.group.sync.aligned 0
        %c1_i32 = arith.constant 1 : i32
        %9 = arith.cmpi uge, %8#0, %c1_i32 : i32
        scf.if %9 {
          %12 = arith.subi %8#0, %c1_i32 : i32
          %13:2 = "ws.slot_phase"(%12) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
          "ws.arrive"(%13#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()
        }
        %10 = arith.truncf %8#1 : tensor<128x128xf32> to tensor<128x128xbf16>
        %c0_i32_5 = arith.constant 0 : i32
        %11:2 = "ws.slot_phase"(%c0_i32_5) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
        "ws.wait"(%11#0, %11#1) {barrier = "empty", channel = 1 : i32} : (i32, i32) -> ()
        "ws.write_slot"(%10, %11#0) {ring = 4 : i32} : (tensor<128x128xbf16>, i32) -> ()
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
        "ws.arrive"(%11#0) {barrier = "full", channel = 1 : i32} : (i32) -> ()
      } else {
        nvvm.setmaxregister  decrease 24
        %c8_i32_3 = arith.constant 8 : i32
        %8 = arith.cmpi eq, %5, %c8_i32_3 : i32
        %9 = nvvm.elect.sync -> i1
        %10 = arith.andi %8, %9 : i1
        scf.if %10 {
          %c0_i32_4 = arith.constant 0 : i32
          %c0_i32_5 = arith.constant 0 : i32
          %14 = scf.for %arg6 = %c0_i32 to %arg5 step %c128_i32 iter_args(%arg7 = %c0_i32_4) -> (i32)  : i32 {
            %15:2 = "ws.slot_phase"(%arg7) {depth = 4 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%15#0, %15#1) {barrier = "empty", channel = 0 : i32} : (i32, i32) -> ()
            "ws.arrive_expect_tx"(%15#0) {bytes = 33792 : i32, channel = 0 : i32} : (i32) -> ()
            "ws.tma_load"(%arg0, %2, %arg6, %15#0) {ring = 0 : i32} : (!ws.tensor_desc<tensor<128x128xf8E4M3FN>>, i32, i32, i32) -> ()
            "ws.tma_load"(%arg1, %3, %arg6, %15#0) {ring = 1 : i32} : (!ws.tensor_desc<tensor<128x128xf8E4M3FN>>, i32, i32, i32) -> ()
            %16 = arith.divui %arg6, %c128_i32 : i32
            "ws.tma_load"(%arg2, %16, %2, %15#0) {ring = 2 : i32} : (!ws.tensor_desc<tensor<1x128xf32>>, i32, i32, i32) -> ()
            "ws.tma_load"(%arg3, %16, %3, %15#0) {ring = 3 : i32} : (!ws.tensor_desc<tensor<1x128xf32>>, i32, i32, i32) -> ()
            %c1_i32 = arith.constant 1 : i32
            %17 = arith.addi %arg7, %c1_i32 : i32
            scf.yield %17 : i32
          }
        }
        %c9_i32 = arith.constant 9 : i32
        %11 = arith.cmpi eq, %5, %c9_i32 : i32
        %12 = nvvm.elect.sync -> i1
        %13 = arith.andi %11, %12 : i1
        scf.if %13 {
          %c0_i32_4 = arith.constant 0 : i32
          %14:2 = "ws.slot_phase"(%c0_i32_4) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%14#0, %14#1) {barrier = "full", channel = 1 : i32} : (i32, i32) -> ()
          "ws.tma_store"(%arg4, %2, %3, %14#0) {ring = 4 : i32} : (!ws.tensor_desc<tensor<128x128xbf16>>, i32, i32, i32) -> ()
          nvvm.cp.async.bulk.commit.group
          nvvm.cp.async.bulk.wait_group 0
        }
      }
      gpu.return
    }
  }
}

