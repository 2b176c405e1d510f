module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @pingpong(%arg0: !ws.tensor_desc<tensor<128x64xf16>>, %arg1: !ws.tensor_desc<tensor<128x64xf16>>, %arg2: !ws.tensor_desc<tensor<128x128xf16>>, %arg3: !ws.tensor_desc<tensor<1x128xf16>>, %arg4: i32, %arg5: i32, %arg6: i32) kernel attributes {ws.block_threads = 384 : i32, ws.blocks_per_sm = 1 : i32, ws.channels = [{consumer_phase = 0 : i32, depth = 4 : i32, drain = 0 : i32, empty = 197664 : i32, empty_arrivals = 128 : i32, expect_tx = 32768 : i32, from = "load", full = 197632 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "compute"}, {consumer_phase = 0 : i32, depth = 2 : i32, drain = 0 : i32, empty = 197712 : i32, empty_arrivals = 128 : i32, expect_tx = 256 : i32, from = "load", full = 197696 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = true, to = "compute"}, {consumer_phase = 0 : i32, depth = 2 : i32, drain = 1 : i32, empty = 197744 : i32, empty_arrivals = 1 : i32, expect_tx = 0 : i32, from = "compute", full = 197728 : i32, full_arrivals = 128 : i32, producer_phase = 1 : i32, publish_fence = true, release_fence = false, to = "store"}, {consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 197768 : i32, empty_arrivals = 128 : i32, expect_tx = 0 : i32, from = "compute", full = 197760 : i32, full_arrivals = 128 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "compute"}], ws.maxnreg = 168 : i32, ws.num_warps = 8 : i32, ws.partitions = [{first_warp = 8 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 8 : i32, pingpong = true, registers = 240 : i32, role = "compute"}, {first_warp = 9 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}], ws.persistent, ws.rings = [{align = 1024 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32, tile = tensor<128x64xf16>}, {align = 1024 : i32, channel = 0 : i32, offset = 65536 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32, tile = tensor<128x64xf16>}, {align = 128 : i32, channel = 1 : i32, offset = 131072 : i32, slot_bytes = 256 : i32, swizzle = 0 : i32, tile = tensor<1x128xf16>}, {align = 1024 : i32, channel = 2 : i32, offset = 132096 : i32, slot_bytes = 32768 : i32, swizzle = 128 : i32, tile = tensor<128x128xf16>}], ws.smem_bytes = 197776 : i32} {
      %c0_i32 = arith.constant 0 : i32
      %c64_i32 = arith.constant 64 : i32
      %c128_i32 = arith.constant 128 : i32
      %c128_i32_0 = arith.constant 128 : i32
      %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
      %c1_i32 = arith.constant 1 : i32
      %c8_i32 = arith.constant 8 : i32
      %0 = arith.addi %arg4, %c128_i32 : i32
      %1 = arith.subi %0, %c1_i32 : i32
      %2 = arith.divui %1, %c128_i32 : i32
      %3 = arith.addi %arg5, %c128_i32_0 : i32
      %4 = arith.subi %3, %c1_i32 : i32
      %5 = arith.divui %4, %c128_i32_0 : i32
      %6 = arith.muli %2, %5 : i32
      %7 = arith.muli %5, %c8_i32 : i32
      %block_id_x = gpu.block_id  x
      %grid_dim_x = gpu.grid_dim  x
      %8 = arith.index_cast %block_id_x : index to i32
      %9 = arith.index_cast %grid_dim_x : index to i32
      %10 = nvvm.read.ptx.sreg.tid.x : i32
      %c32_i32 = arith.constant 32 : i32
      %11 = arith.divui %10, %c32_i32 : i32
      %c0_i32_1 = arith.constant 0 : i32
      %12 = arith.cmpi eq, %10, %c0_i32_1 : i32
      scf.if %12 {
        "ws.init_barrier"() {barrier = "full", channel = 0 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 0 : i32, count = 128 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "full", channel = 1 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 1 : i32, count = 128 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "full", channel = 2 : i32, count = 128 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 2 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "full", channel = 3 : i32, count = 128 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 3 : i32, count = 128 : i32} : () -> ()
        nvvm.fence.mbarrier.init
      }
      nvvm.barrier0
      %c8_i32_2 = arith.constant 8 : i32
      %13 = arith.cmpi ult, %11, %c8_i32_2 : i32
      scf.if %13 {
        nvvm.setmaxregister  increase 240
        %c0_i32_3 = arith.constant 0 : i32
        %14 = scf.for %arg7 = %c0_i32 to %arg6 step %c64_i32 iter_args(%arg8 = %c0_i32_3) -> (i32)  : i32 {
          %c1_i32_7 = arith.constant 1 : i32
          %18 = arith.addi %arg8, %c1_i32_7 : i32
          scf.yield %18 : i32
        }
        %15 = nvvm.read.ptx.sreg.tid.x : i32
        %c128_i32_4 = arith.constant 128 : i32
        %16 = arith.divui %15, %c128_i32_4 : i32
        %c0_i32_5 = arith.constant 0 : i32
        %c0_i32_6 = arith.constant 0 : i32
        %17:2 = scf.for %arg7 = %8 to %6 step %9 iter_args(%arg8 = %c0_i32_5, %arg9 = %c0_i32_6) -> (i32, i32)  : i32 {
          %c2_i32 = arith.constant 2 : i32
          %18 = arith.remui %arg9, %c2_i32 : i32
          %19 = arith.cmpi eq, %18, %16 : i32
          scf.if %19 {
            %c0_i32_8 = arith.constant 0 : i32
            %22 = arith.cmpi ugt, %arg9, %c0_i32_8 : i32
            scf.if %22 {
              %c1_i32_10 = arith.constant 1 : i32
              %35 = arith.subi %arg9, %c1_i32_10 : i32
              %36:2 = "ws.slot_phase"(%35) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
              "ws.wait"(%36#0, %36#1) {barrier = "full", channel = 3 : i32} : (i32, i32) -> ()
            }
            %23:2 = scf.for %arg10 = %c0_i32 to %arg6 step %c64_i32 iter_args(%arg11 = %arg8, %arg12 = %cst) -> (i32, tensor<128x128xf32>)  : i32 {
              %35:2 = "ws.slot_phase"(%arg11) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
              "ws.wait"(%35#0, %35#1) {barrier = "full", channel = 0 : i32} : (i32, i32) -> ()
              nvvm.wgmma.fence.aligned
              %36 = "ws.mma"(%35#0, %arg12) {ring_a = 0 : i32, ring_b = 1 : i32, transpose_b} : (i32, tensor<128x128xf32>) -> tensor<128x128xf32>
              nvvm.wgmma.commit.group.sync.aligned
              nvvm.wgmma.wait.group.sync.aligned 1
              %c1_i32_10 = arith.constant 1 : i32
              %37 = arith.addi %arg8, %c1_i32_10 : i32
              %38 = arith.cmpi uge, %arg11, %37 : i32
              scf.if %38 {
                %40 = arith.subi %arg11, %c1_i32_10 : i32
                %41:2 = "ws.slot_phase"(%40) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
                "ws.arrive"(%41#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()
              }
              %c1_i32_11 = arith.constant 1 : i32
              %39 = arith.addi %arg11, %c1_i32_11 : i32
              scf.yield %39, %36 : i32, tensor<128x128xf32>
            }
            %24:2 = "ws.slot_phase"(%arg9) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
            "ws.arrive"(%24#0) {barrier = "full", channel = 3 : i32} : (i32) -> ()
            nvvm.wgmma.wait.group.sync.aligned 0
            %c1_i32_9 = arith.constant 1 : i32
            %25 = arith.addi %arg8, %c1_i32_9 : i32
            %26 = arith.cmpi uge, %23#0, %25 : i32
            scf.if %26 {
              %35 = arith.subi %23#0, %c1_i32_9 : i32
              %36:2 = "ws.slot_phase"(%35) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
              "ws.arrive"(%36#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()
            }
            %27:2 = "ws.slot_phase"(%arg9) {depth = 2 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%27#0, %27#1) {barrier = "full", channel = 1 : i32} : (i32, i32) -> ()
            %28 = "ws.read_slot"(%27#0) {ring = 2 : i32} : (i32) -> tensor<1x128xf16>
            nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
            "ws.arrive"(%27#0) {barrier = "empty", channel = 1 : i32} : (i32) -> ()
            %29 = "ws.broadcast"(%28) {axis = 1 : i32} : (tensor<1x128xf16>) -> tensor<128x128xf16>
            %30 = arith.extf %29 : tensor<128x128xf16> to tensor<128x128xf32>
            %31 = arith.addf %23#1, %30 : tensor<128x128xf32>
            %32 = arith.maximumf %31, %cst : tensor<128x128xf32>
            %33 = arith.truncf %32 : tensor<128x128xf32> to tensor<128x128xf16>
            %34:2 = "ws.slot_phase"(%arg9) {depth = 2 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%34#0, %34#1) {barrier = "empty", channel = 2 : i32} : (i32, i32) -> ()
            "ws.write_slot"(%33, %34#0) {ring = 3 : i32} : (tensor<128x128xf16>, i32) -> ()
            nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
            "ws.arrive"(%34#0) {barrier = "full", channel = 2 : i32} : (i32) -> ()
          }
          %20 = arith.addi %arg8, %14 : i32
          %c1_i32_7 = arith.constant 1 : i32
          %21 = arith.addi %arg9, %c1_i32_7 : i32
          scf.yield %20, %21 : i32, i32
        }
      } else {
        nvvm.setmaxregister  decrease 24
        %c8_i32_3 = arith.constant 8 : i32
        %14 = arith.cmpi eq, %11, %c8_i32_3 : i32
        %15 = nvvm.elect.sync -> i1
        %16 = arith.andi %14, %15 : i1
        scf.if %16 {
          %c0_i32_4 = arith.constant 0 : i32
          %c0_i32_5 = arith.constant 0 : i32
          %20:2 = scf.for %arg7 = %8 to %6 step %9 iter_args(%arg8 = %c0_i32_4, %arg9 = %c0_i32_5) -> (i32, i32)  : i32 {
            %21 = arith.divui %arg7, %7 : i32
            %22 = arith.muli %21, %c8_i32 : i32
            %23 = arith.subi %2, %22 : i32
            %24 = arith.minui %23, %c8_i32 : i32
            %25 = arith.remui %arg7, %7 : i32
            %26 = arith.remui %25, %24 : i32
            %27 = arith.addi %22, %26 : i32
            %28 = arith.divui %25, %24 : i32
            %29 = arith.muli %27, %c128_i32 : i32
            %30 = arith.muli %28, %c128_i32_0 : i32
            %31 = scf.for %arg10 = %c0_i32 to %arg6 step %c64_i32 iter_args(%arg11 = %arg8) -> (i32)  : i32 {
              %34:2 = "ws.slot_phase"(%arg11) {depth = 4 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
              "ws.wait"(%34#0, %34#1) {barrier = "empty", channel = 0 : i32} : (i32, i32) -> ()
              "ws.arrive_expect_tx"(%34#0) {bytes = 32768 : i32, channel = 0 : i32} : (i32) -> ()
              "ws.tma_load"(%arg0, %29, %arg10, %34#0) {ring = 0 : i32} : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32, i32) -> ()
              "ws.tma_load"(%arg1, %30, %arg10, %34#0) {ring = 1 : i32} : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32, i32) -> ()
              %c1_i32_7 = arith.constant 1 : i32
              %35 = arith.addi %arg11, %c1_i32_7 : i32
              scf.yield %35 : i32
            }
            %32:2 = "ws.slot_phase"(%arg9) {depth = 2 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%32#0, %32#1) {barrier = "empty", channel = 1 : i32} : (i32, i32) -> ()
            "ws.arrive_expect_tx"(%32#0) {bytes = 256 : i32, channel = 1 : i32} : (i32) -> ()
            "ws.tma_load"(%arg3, %c0_i32, %30, %32#0) {ring = 2 : i32} : (!ws.tensor_desc<tensor<1x128xf16>>, i32, i32, i32) -> ()
            %c1_i32_6 = arith.constant 1 : i32
            %33 = arith.addi %arg9, %c1_i32_6 : i32
            scf.yield %31, %33 : i32, i32
          }
        }
        %c9_i32 = arith.constant 9 : i32
        %17 = arith.cmpi eq, %11, %c9_i32 : i32
        %18 = nvvm.elect.sync -> i1
        %19 = arith.andi %17, %18 : i1
        scf.if %19 {
          %c0_i32_4 = arith.constant 0 : i32
          %20 = scf.for %arg7 = %8 to %6 step %9 iter_args(%arg8 = %c0_i32_4) -> (i32)  : i32 {
            %21 = arith.divui %arg7, %7 : i32
            %22 = arith.muli %21, %c8_i32 : i32
            %23 = arith.subi %2, %22 : i32
            %24 = arith.minui %23, %c8_i32 : i32
            %25 = arith.remui %arg7, %7 : i32
            %26 = arith.remui %25, %24 : i32
            %27 = arith.addi %22, %26 : i32
            %28 = arith.divui %25, %24 : i32
            %29 = arith.muli %27, %c128_i32 : i32
            %30 = arith.muli %28, %c128_i32_0 : i32
            %31:2 = "ws.slot_phase"(%arg8) {depth = 2 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%31#0, %31#1) {barrier = "full", channel = 2 : i32} : (i32, i32) -> ()
            "ws.tma_store"(%arg2, %29, %30, %31#0) {ring = 3 : i32} : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, i32) -> ()
            nvvm.cp.async.bulk.commit.group
            nvvm.cp.async.bulk.wait_group 1 {read}
            %c1_i32_5 = arith.constant 1 : i32
            %32 = arith.cmpi uge, %arg8, %c1_i32_5 : i32
            scf.if %32 {
              %34 = arith.subi %arg8, %c1_i32_5 : i32
              %35:2 = "ws.slot_phase"(%34) {depth = 2 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
              "ws.arrive"(%35#0) {barrier = "empty", channel = 2 : i32} : (i32) -> ()
            }
            %c1_i32_6 = arith.constant 1 : i32
            %33 = arith.addi %arg8, %c1_i32_6 : i32
            scf.yield %33 : i32
          }
          nvvm.cp.async.bulk.wait_group 0
        }
      }
      gpu.return
    }
  }
}

