module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @pfp8_bs_128x128x128_w8(%arg0: !ws.tensor_desc<tensor<128x128xf8E4M3FN>>, %arg1: !ws.tensor_desc<tensor<128x128xf8E4M3FN>>, %arg2: !ws.tensor_desc<tensor<1x128xf32>>, %arg3: !ws.tensor_desc<tensor<1x4xf32>>, %arg4: !ws.tensor_desc<tensor<128x128xbf16>>, %arg5: i32, %arg6: i32, %arg7: i32) kernel attributes {ws.block_threads = 384 : i32, ws.blocks_per_sm = 1 : i32, ws.channels = [{consumer_phase = 0 : i32, depth = 4 : i32, drain = 0 : i32, empty = 166944 : i32, empty_arrivals = 256 : i32, expect_tx = 33296 : i32, from = "load", full = 166912 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = true, to = "compute"}, {consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 166984 : i32, empty_arrivals = 1 : i32, expect_tx = 0 : i32, from = "compute", full = 166976 : i32, full_arrivals = 256 : i32, producer_phase = 1 : i32, publish_fence = true, release_fence = false, to = "store"}], ws.maxnreg = 168 : i32, ws.num_warps = 8 : i32, ws.partitions = [{first_warp = 8 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, lag = 1 : i32, name = "compute", num_warps = 8 : i32, registers = 240 : i32, role = "compute"}, {first_warp = 9 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}], ws.persistent, ws.rings = [{align = 1024 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32, tile = tensor<128x128xf8E4M3FN>}, {align = 1024 : i32, channel = 0 : i32, offset = 65536 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32, tile = tensor<128x128xf8E4M3FN>}, {align = 128 : i32, channel = 0 : i32, offset = 131072 : i32, slot_bytes = 512 : i32, swizzle = 0 : i32, tile = tensor<1x128xf32>}, {align = 128 : i32, channel = 0 : i32, offset = 133120 : i32, slot_bytes = 128 : i32, swizzle = 0 : i32, tile = tensor<1x4xf32>}, {align = 1024 : i32, channel = 1 : i32, offset = 134144 : i32, slot_bytes = 32768 : i32, swizzle = 128 : i32, tile = tensor<128x128xbf16>}], ws.smem_bytes = 166992 : i32} {
      %c0 = arith.constant 0 : index
      %c0_i32 = arith.constant 0 : i32
      %c128_i32 = arith.constant 128 : i32
      %c128_i32_0 = arith.constant 128 : i32
      %c128_i32_1 = arith.constant 128 : i32
      %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
      %c1_i32 = arith.constant 1 : i32
      %c8_i32 = arith.constant 8 : i32
      %0 = arith.addi %arg5, %c128_i32_0 : i32
      %1 = arith.subi %0, %c1_i32 : i32
      %2 = arith.divui %1, %c128_i32_0 : i32
      %3 = arith.addi %arg6, %c128_i32_1 : i32
      %4 = arith.subi %3, %c1_i32 : i32
      %5 = arith.divui %4, %c128_i32_1 : i32
      %6 = arith.muli %2, %5 : i32
      %7 = arith.muli %5, %c8_i32 : i32
      %block_id_x = gpu.block_id  x
      %grid_dim_x = gpu.grid_dim  x
      %8 = arith.index_cast %block_id_x : index to i32
      %9 = arith.index_cast %grid_dim_x : index to i32
      %10 = nvvm.read.ptx.sreg.tid.x : i32
      %c32_i32 = arith.constant 32 : i32
      %11 = arith.divui %10, %c32_i32 : i32
      %c0_i32_2 = arith.constant 0 : i32
      %12 = arith.cmpi eq, %10, %c0_i32_2 : i32
      scf.if %12 {
        "ws.init_barrier"() {barrier = "full", channel = 0 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 0 : i32, count = 256 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "full", channel = 1 : i32, count = 256 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 1 : i32, count = 1 : i32} : () -> ()
        nvvm.fence.mbarrier.init
      }
      nvvm.barrier0
      %c2_i32 = arith.constant 2 : i32
      %13 = arith.muli %c128_i32, %c2_i32 : i32
      %c8_i32_3 = arith.constant 8 : i32
      %14 = arith.cmpi ult, %11, %c8_i32_3 : i32
      scf.if %14 {
        nvvm.setmaxregister  increase 240
        %c0_i32_4 = arith.constant 0 : i32
        %c0_i32_5 = arith.constant 0 : i32
        %15:2 = scf.for %arg8 = %8 to %6 step %9 iter_args(%arg9 = %c0_i32_4, %arg10 = %c0_i32_5) -> (i32, i32)  : i32 {
          %false = arith.constant false
          %16:5 = scf.for %arg11 = %c0_i32 to %arg7 step %13 iter_args(%arg12 = %arg9, %arg13 = %cst, %arg14 = %cst, %arg15 = %c0_i32, %arg16 = %false) -> (i32, tensor<128x128xf32>, tensor<128x128xf32>, i32, i1)  : i32 {
            %22:2 = "ws.slot_phase"(%arg12) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%22#0, %22#1) {barrier = "full", channel = 0 : i32} : (i32, i32) -> ()
            nvvm.wgmma.fence.aligned
            %23 = "ws.mma"(%22#0, %cst) {ring_a = 0 : i32, ring_b = 1 : i32, transpose_b} : (i32, tensor<128x128xf32>) -> tensor<128x128xf32>
            nvvm.wgmma.commit.group.sync.aligned
            nvvm.wgmma.wait.group.sync.aligned 1
            %24 = arith.cmpi ugt, %arg12, %arg9 : i32
            %25 = scf.if %24 -> (tensor<128x128xf32>) {
              %c1_i32_9 = arith.constant 1 : i32
              %39 = arith.subi %arg12, %c1_i32_9 : i32
              %40:2 = "ws.slot_phase"(%39) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
              %41 = "ws.mma_done"(%arg14) : (tensor<128x128xf32>) -> tensor<128x128xf32>
              %42 = "ws.read_slot"(%40#0) {ring = 3 : i32} : (i32) -> tensor<1x4xf32>
              %extracted_10 = tensor.extract %42[%c0, %c0] : tensor<1x4xf32>
              %splat_11 = tensor.splat %extracted_10 : tensor<1x128xf32>
              %43 = "ws.read_slot"(%40#0) {ring = 2 : i32} : (i32) -> tensor<1x128xf32>
              %44 = arith.mulf %43, %splat_11 : tensor<1x128xf32>
              %45 = "ws.broadcast"(%44) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
              %46 = math.fma %41, %45, %arg13 : tensor<128x128xf32>
              %47:2 = "ws.slot_phase"(%39) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
              nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
              "ws.arrive"(%47#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()
              scf.yield %46 : tensor<128x128xf32>
            } else {
              scf.yield %arg13 : tensor<128x128xf32>
            }
            %26 = arith.addi %arg11, %c128_i32 : i32
            %c1_i32_7 = arith.constant 1 : i32
            %27 = arith.addi %arg12, %c1_i32_7 : i32
            %28:2 = "ws.slot_phase"(%27) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%28#0, %28#1) {barrier = "full", channel = 0 : i32} : (i32, i32) -> ()
            nvvm.wgmma.fence.aligned
            %29 = "ws.mma"(%28#0, %cst) {ring_a = 0 : i32, ring_b = 1 : i32, transpose_b} : (i32, tensor<128x128xf32>) -> tensor<128x128xf32>
            nvvm.wgmma.commit.group.sync.aligned
            nvvm.wgmma.wait.group.sync.aligned 1
            %30 = "ws.mma_done"(%23) : (tensor<128x128xf32>) -> tensor<128x128xf32>
            %31 = "ws.read_slot"(%22#0) {ring = 3 : i32} : (i32) -> tensor<1x4xf32>
            %extracted = tensor.extract %31[%c0, %c0] : tensor<1x4xf32>
            %splat = tensor.splat %extracted : tensor<1x128xf32>
            %32 = "ws.read_slot"(%22#0) {ring = 2 : i32} : (i32) -> tensor<1x128xf32>
            %33 = arith.mulf %32, %splat : tensor<1x128xf32>
            %34 = "ws.broadcast"(%33) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
            %35 = math.fma %30, %34, %25 : tensor<128x128xf32>
            %36:2 = "ws.slot_phase"(%arg12) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
            "ws.arrive"(%36#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()
            nvvm.wgmma.wait.group.sync.aligned 0
            %c2_i32_8 = arith.constant 2 : i32
            %37 = arith.addi %arg12, %c2_i32_8 : i32
            %38 = arith.cmpi slt, %26, %arg7 : i32
            scf.yield %37, %35, %29, %26, %38 : i32, tensor<128x128xf32>, tensor<128x128xf32>, i32, i1
          }
          %17 = arith.cmpi ugt, %16#0, %arg9 : i32
          %18 = scf.if %17 -> (tensor<128x128xf32>) {
            %c1_i32_7 = arith.constant 1 : i32
            %22 = arith.subi %16#0, %c1_i32_7 : i32
            %23:2 = "ws.slot_phase"(%22) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            %24 = "ws.read_slot"(%23#0) {ring = 3 : i32} : (i32) -> tensor<1x4xf32>
            %25 = "ws.read_slot"(%23#0) {ring = 2 : i32} : (i32) -> tensor<1x128xf32>
            %26 = "ws.mma_done"(%16#2) : (tensor<128x128xf32>) -> tensor<128x128xf32>
            %27 = scf.if %16#4 -> (tensor<128x128xf32>) {
              %extracted = tensor.extract %24[%c0, %c0] : tensor<1x4xf32>
              %splat = tensor.splat %extracted : tensor<1x128xf32>
              %29 = arith.mulf %25, %splat : tensor<1x128xf32>
              %30 = "ws.broadcast"(%29) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
              %31 = math.fma %26, %30, %16#1 : tensor<128x128xf32>
              scf.yield %31 : tensor<128x128xf32>
            } else {
              scf.yield %16#1 : tensor<128x128xf32>
            }
            %28:2 = "ws.slot_phase"(%22) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
            "ws.arrive"(%28#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()
            scf.yield %27 : tensor<128x128xf32>
          } else {
            scf.yield %16#1 : tensor<128x128xf32>
          }
          %19 = arith.truncf %18 : tensor<128x128xf32> to tensor<128x128xbf16>
          %20:2 = "ws.slot_phase"(%arg10) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%20#0, %20#1) {barrier = "empty", channel = 1 : i32} : (i32, i32) -> ()
          "ws.write_slot"(%19, %20#0) {ring = 4 : i32} : (tensor<128x128xbf16>, i32) -> ()
          nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
          "ws.arrive"(%20#0) {barrier = "full", channel = 1 : i32} : (i32) -> ()
          %c1_i32_6 = arith.constant 1 : i32
          %21 = arith.addi %arg10, %c1_i32_6 : i32
          scf.yield %16#0, %21 : i32, i32
        }
      } else {
        nvvm.setmaxregister  decrease 24
        %c8_i32_4 = arith.constant 8 : i32
        %15 = arith.cmpi eq, %11, %c8_i32_4 : i32
        %16 = nvvm.elect.sync -> i1
        %17 = arith.andi %15, %16 : i1
        scf.if %17 {
          %c0_i32_5 = arith.constant 0 : i32
          %c0_i32_6 = arith.constant 0 : i32
          %21 = scf.for %arg8 = %8 to %6 step %9 iter_args(%arg9 = %c0_i32_5) -> (i32)  : i32 {
            %22 = arith.divui %arg8, %7 : i32
            %23 = arith.muli %22, %c8_i32 : i32
            %24 = arith.subi %2, %23 : i32
            %25 = arith.minui %24, %c8_i32 : i32
            %26 = arith.remui %arg8, %7 : i32
            %27 = arith.remui %26, %25 : i32
            %28 = arith.addi %23, %27 : i32
            %29 = arith.divui %26, %25 : i32
            %30 = arith.muli %28, %c128_i32_0 : i32
            %31 = arith.muli %29, %c128_i32_1 : i32
            %32 = scf.for %arg10 = %c0_i32 to %arg7 step %13 iter_args(%arg11 = %arg9) -> (i32)  : i32 {
              %33:2 = "ws.slot_phase"(%arg11) {depth = 4 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
              "ws.wait"(%33#0, %33#1) {barrier = "empty", channel = 0 : i32} : (i32, i32) -> ()
              "ws.arrive_expect_tx"(%33#0) {bytes = 33296 : i32, channel = 0 : i32} : (i32) -> ()
              "ws.tma_load"(%arg0, %30, %arg10, %33#0) {ring = 0 : i32} : (!ws.tensor_desc<tensor<128x128xf8E4M3FN>>, i32, i32, i32) -> ()
              "ws.tma_load"(%arg1, %31, %arg10, %33#0) {ring = 1 : i32} : (!ws.tensor_desc<tensor<128x128xf8E4M3FN>>, i32, i32, i32) -> ()
              %34 = arith.divui %arg10, %c128_i32 : i32
              "ws.tma_load"(%arg2, %34, %30, %33#0) {ring = 2 : i32} : (!ws.tensor_desc<tensor<1x128xf32>>, i32, i32, i32) -> ()
              "ws.tma_load"(%arg3, %34, %31, %33#0) {ring = 3 : i32} : (!ws.tensor_desc<tensor<1x4xf32>>, i32, i32, i32) -> ()
              %35 = arith.addi %arg10, %c128_i32 : i32
              %c1_i32_7 = arith.constant 1 : i32
              %36 = arith.addi %arg11, %c1_i32_7 : i32
              %37:2 = "ws.slot_phase"(%36) {depth = 4 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
              "ws.wait"(%37#0, %37#1) {barrier = "empty", channel = 0 : i32} : (i32, i32) -> ()
              "ws.arrive_expect_tx"(%37#0) {bytes = 33296 : i32, channel = 0 : i32} : (i32) -> ()
              "ws.tma_load"(%arg0, %30, %35, %37#0) {ring = 0 : i32} : (!ws.tensor_desc<tensor<128x128xf8E4M3FN>>, i32, i32, i32) -> ()
              "ws.tma_load"(%arg1, %31, %35, %37#0) {ring = 1 : i32} : (!ws.tensor_desc<tensor<128x128xf8E4M3FN>>, i32, i32, i32) -> ()
              %38 = arith.divui %35, %c128_i32 : i32
              "ws.tma_load"(%arg2, %38, %30, %37#0) {ring = 2 : i32} : (!ws.tensor_desc<tensor<1x128xf32>>, i32, i32, i32) -> ()
              "ws.tma_load"(%arg3, %38, %31, %37#0) {ring = 3 : i32} : (!ws.tensor_desc<tensor<1x4xf32>>, i32, i32, i32) -> ()
              %c1_i32_8 = arith.constant 1 : i32
              %39 = arith.addi %36, %c1_i32_8 : i32
              scf.yield %39 : i32
            }
            scf.yield %32 : i32
          }
        }
        %c9_i32 = arith.constant 9 : i32
        %18 = arith.cmpi eq, %11, %c9_i32 : i32
        %19 = nvvm.elect.sync -> i1
        %20 = arith.andi %18, %19 : i1
        scf.if %20 {
          %c0_i32_5 = arith.constant 0 : i32
          %21 = scf.for %arg8 = %8 to %6 step %9 iter_args(%arg9 = %c0_i32_5) -> (i32)  : i32 {
            %22 = arith.divui %arg8, %7 : i32
            %23 = arith.muli %22, %c8_i32 : i32
            %24 = arith.subi %2, %23 : i32
            %25 = arith.minui %24, %c8_i32 : i32
            %26 = arith.remui %arg8, %7 : i32
            %27 = arith.remui %26, %25 : i32
            %28 = arith.addi %23, %27 : i32
            %29 = arith.divui %26, %25 : i32
            %30 = arith.muli %28, %c128_i32_0 : i32
            %31 = arith.muli %29, %c128_i32_1 : i32
            %32:2 = "ws.slot_phase"(%arg9) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%32#0, %32#1) {barrier = "full", channel = 1 : i32} : (i32, i32) -> ()
            "ws.tma_store"(%arg4, %30, %31, %32#0) {ring = 4 : i32} : (!ws.tensor_desc<tensor<128x128xbf16>>, i32, i32, i32) -> ()
            nvvm.cp.async.bulk.commit.group
            nvvm.cp.async.bulk.wait_group 0 {read}
            %c0_i32_6 = arith.constant 0 : i32
            %33 = arith.cmpi uge, %arg9, %c0_i32_6 : i32
            scf.if %33 {
              %35 = arith.subi %arg9, %c0_i32_6 : i32
              %36:2 = "ws.slot_phase"(%35) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
              "ws.arrive"(%36#0) {barrier = "empty", channel = 1 : i32} : (i32) -> ()
            }
            %c1_i32_7 = arith.constant 1 : i32
            %34 = arith.addi %arg9, %c1_i32_7 : i32
            scf.yield %34 : i32
          }
          nvvm.cp.async.bulk.wait_group 0
        }
      }
      gpu.return
    }
  }
}

