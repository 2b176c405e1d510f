module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @attention(%arg0: !ws.tensor_desc<tensor<1x1x128x128xf8E4M3FN>>, %arg1: !ws.tensor_desc<tensor<1x1x128x128xf8E4M3FN>>, %arg2: !ws.tensor_desc<tensor<1x1x128x128xf8E4M3FN>>, %arg3: !ws.tensor_desc<tensor<1x1x128x128xbf16>>, %arg4: i32, %arg5: f32, %arg6: memref<?xf32>, %arg7: memref<?xf32>, %arg8: memref<?xf32>) kernel attributes {ws.block_threads = 384 : i32, ws.blocks_per_sm = 1 : i32, ws.channels = [{consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 180232 : i32, empty_arrivals = 256 : i32, expect_tx = 16384 : i32, from = "load", full = 180224 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "compute"}, {consumer_phase = 0 : i32, depth = 4 : i32, drain = 0 : i32, empty = 180272 : i32, empty_arrivals = 256 : i32, expect_tx = 32768 : i32, from = "load", full = 180240 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "compute"}, {consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 180312 : i32, empty_arrivals = 1 : i32, expect_tx = 0 : i32, from = "compute", full = 180304 : i32, full_arrivals = 256 : i32, producer_phase = 1 : i32, publish_fence = true, release_fence = false, to = "store"}, {consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 180328 : i32, empty_arrivals = 128 : i32, expect_tx = 0 : i32, from = "compute", full = 180320 : i32, full_arrivals = 128 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "compute"}], ws.maxnreg = 168 : i32, ws.num_warps = 8 : i32, ws.partitions = [{first_warp = 8 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 8 : i32, registers = 240 : i32, role = "compute", turns = true}, {first_warp = 9 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}], ws.rings = [{align = 1024 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32, tile = tensor<128x128xf8E4M3FN>}, {align = 1024 : i32, channel = 1 : i32, offset = 16384 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32, tile = tensor<128x128xf8E4M3FN>}, {align = 1024 : i32, channel = 1 : i32, offset = 81920 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32, tile = tensor<128x128xf8E4M3FN>}, {align = 1024 : i32, channel = 2 : i32, offset = 147456 : i32, slot_bytes = 32768 : i32, swizzle = 128 : i32, tile = tensor<128x128xbf16>}], ws.smem_bytes = 180336 : i32} {
      %c0_i32 = arith.constant 0 : i32
      %c128_i32 = arith.constant 128 : i32
      %c128_i32_0 = arith.constant 128 : i32
      %block_id_x = gpu.block_id  x
      %block_id_y = gpu.block_id  y
      %0 = arith.index_cast %block_id_x : index to i32
      %1 = arith.index_cast %block_id_y : index to i32
      %block_id_z = gpu.block_id  z
      %2 = arith.index_cast %block_id_z : index to i32
      %3 = arith.muli %0, %c128_i32 : i32
      %4 = memref.load %arg6[%block_id_y] : memref<?xf32>
      %5 = arith.index_cast %1 : i32 to index
      %6 = memref.load %arg7[%5] : memref<?xf32>
      %7 = memref.load %arg8[%5] : memref<?xf32>
      %8 = arith.mulf %4, %6 : f32
      %9 = arith.mulf %arg5, %8 : f32
      %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
      %cst_1 = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
      %cst_2 = arith.constant dense<0xFF800000> : tensor<1x128xf32>
      %cst_3 = arith.constant dense<0.000000e+00> : tensor<1x128xf32>
      %10 = nvvm.read.ptx.sreg.tid.x : i32
      %c32_i32 = arith.constant 32 : i32
      %11 = arith.divui %10, %c32_i32 : i32
      %c0_i32_4 = arith.constant 0 : i32
      %12 = arith.cmpi eq, %10, %c0_i32_4 : i32
      scf.if %12 {
        "ws.init_barrier"() {barrier = "full", channel = 0 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 0 : i32, count = 256 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "full", channel = 1 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 1 : i32, count = 256 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "full", channel = 2 : i32, count = 256 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 2 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "full", channel = 3 : i32, count = 128 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 3 : i32, count = 128 : i32} : () -> ()
        nvvm.fence.mbarrier.init
      }
      nvvm.barrier0
      %c8_i32 = arith.constant 8 : i32
      %13 = arith.cmpi ult, %11, %c8_i32 : i32
      scf.if %13 {
        nvvm.setmaxregister  increase 240
        %c0_i32_5 = arith.constant 0 : i32
        %c0_i32_6 = arith.constant 0 : i32
        %c0_i32_7 = arith.constant 0 : i32
        %14:2 = "ws.slot_phase"(%c0_i32_7) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
        "ws.wait"(%14#0, %14#1) {barrier = "full", channel = 0 : i32} : (i32, i32) -> ()
        %15 = nvvm.read.ptx.sreg.tid.x : i32
        %c128_i32_8 = arith.constant 128 : i32
        %16 = arith.divui %15, %c128_i32_8 : i32
        %c0_i32_9 = arith.constant 0 : i32
        %17 = arith.cmpi ugt, %16, %c0_i32_9 : i32
        scf.if %17 {
          %c0_i32_13 = arith.constant 0 : i32
          %c0_i32_14 = arith.constant 0 : i32
          %30 = arith.addi %16, %c0_i32_14 : i32
          %c2_i32_15 = arith.constant 2 : i32
          %31 = arith.muli %c0_i32_13, %c2_i32_15 : i32
          %32 = arith.addi %31, %30 : i32
          %c1_i32_16 = arith.constant 1 : i32
          %33 = arith.subi %32, %c1_i32_16 : i32
          %34:2 = "ws.slot_phase"(%33) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%34#0, %34#1) {barrier = "full", channel = 3 : i32} : (i32, i32) -> ()
        }
        %18:4 = scf.for %arg9 = %c0_i32 to %arg4 step %c128_i32_0 iter_args(%arg10 = %c0_i32_5, %arg11 = %cst_1, %arg12 = %cst_2, %arg13 = %cst_3) -> (i32, tensor<128x128xf32>, tensor<1x128xf32>, tensor<1x128xf32>)  : i32 {
          %30:2 = "ws.slot_phase"(%arg10) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%30#0, %30#1) {barrier = "full", channel = 1 : i32} : (i32, i32) -> ()
          nvvm.wgmma.fence.aligned
          %31 = "ws.mma"(%30#0, %cst, %14#0) {ring_a = 0 : i32, ring_b = 1 : i32, transpose_b} : (i32, tensor<128x128xf32>, i32) -> tensor<128x128xf32>
          nvvm.wgmma.commit.group.sync.aligned
          %c0_i32_13 = arith.constant 0 : i32
          %32 = arith.addi %16, %c0_i32_13 : i32
          %c2_i32_14 = arith.constant 2 : i32
          %33 = arith.muli %arg10, %c2_i32_14 : i32
          %34 = arith.addi %33, %32 : i32
          %35:2 = "ws.slot_phase"(%34) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
          "ws.arrive"(%35#0) {barrier = "full", channel = 3 : i32} : (i32) -> ()
          %36 = "ws.iota"() {axis = 1 : i32} : () -> tensor<128x128xi32>
          %37 = arith.subi %arg4, %arg9 : i32
          %splat_15 = tensor.splat %37 : tensor<128x128xi32>
          %38 = arith.cmpi slt, %36, %splat_15 : tensor<128x128xi32>
          %cst_16 = arith.constant dense<0xFF800000> : tensor<128x128xf32>
          nvvm.wgmma.wait.group.sync.aligned 0
          %c1_i32_17 = arith.constant 1 : i32
          %39 = arith.cmpi uge, %arg10, %c1_i32_17 : i32
          scf.if %39 {
            %63 = arith.subi %arg10, %c1_i32_17 : i32
            %64:2 = "ws.slot_phase"(%63) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            "ws.arrive"(%64#0) {barrier = "empty", channel = 1 : i32} : (i32) -> ()
          }
          %40 = arith.select %38, %31, %cst_16 : tensor<128x128xi1>, tensor<128x128xf32>
          %41 = "ws.reduce"(%40) {axis = 1 : i32, kind = "max"} : (tensor<128x128xf32>) -> tensor<1x128xf32>
          %splat_18 = tensor.splat %9 : tensor<1x128xf32>
          %42 = arith.mulf %41, %splat_18 : tensor<1x128xf32>
          %43 = arith.maximumf %arg12, %42 : tensor<1x128xf32>
          %44 = "ws.broadcast"(%43) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
          %splat_19 = tensor.splat %9 : tensor<128x128xf32>
          %45 = arith.mulf %40, %splat_19 fastmath<contract> : tensor<128x128xf32>
          %46 = arith.subf %45, %44 fastmath<contract> : tensor<128x128xf32>
          %47 = math.exp2 %46 : tensor<128x128xf32>
          %48 = "ws.reduce"(%47) {axis = 1 : i32, kind = "sum"} : (tensor<128x128xf32>) -> tensor<1x128xf32>
          %49 = arith.subf %arg12, %43 : tensor<1x128xf32>
          %50 = math.exp2 %49 : tensor<1x128xf32>
          %51 = arith.mulf %arg13, %50 : tensor<1x128xf32>
          %52 = arith.addf %51, %48 : tensor<1x128xf32>
          %53 = "ws.broadcast"(%50) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
          %54 = arith.mulf %arg11, %53 : tensor<128x128xf32>
          %55 = arith.truncf %47 : tensor<128x128xf32> to tensor<128x128xf8E4M3FN>
          %c2_i32_20 = arith.constant 2 : i32
          %56 = arith.addi %16, %c2_i32_20 : i32
          %c2_i32_21 = arith.constant 2 : i32
          %57 = arith.muli %arg10, %c2_i32_21 : i32
          %58 = arith.addi %57, %56 : i32
          %c1_i32_22 = arith.constant 1 : i32
          %59 = arith.subi %58, %c1_i32_22 : i32
          %60:2 = "ws.slot_phase"(%59) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%60#0, %60#1) {barrier = "full", channel = 3 : i32} : (i32, i32) -> ()
          nvvm.wgmma.fence.aligned
          %61 = "ws.mma"(%30#0, %54, %55) {ring_b = 2 : i32, transpose_b} : (i32, tensor<128x128xf32>, tensor<128x128xf8E4M3FN>) -> tensor<128x128xf32>
          nvvm.wgmma.commit.group.sync.aligned
          %c1_i32_23 = arith.constant 1 : i32
          %62 = arith.addi %arg10, %c1_i32_23 : i32
          scf.yield %62, %61, %43, %52 : i32, tensor<128x128xf32>, tensor<1x128xf32>, tensor<1x128xf32>
        }
        %c0_i32_10 = arith.constant 0 : i32
        %19 = arith.addi %16, %c0_i32_10 : i32
        %c2_i32 = arith.constant 2 : i32
        %20 = arith.muli %18#0, %c2_i32 : i32
        %21 = arith.addi %20, %19 : i32
        %22:2 = "ws.slot_phase"(%21) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
        "ws.arrive"(%22#0) {barrier = "full", channel = 3 : i32} : (i32) -> ()
        nvvm.wgmma.wait.group.sync.aligned 0
        %c1_i32 = arith.constant 1 : i32
        %23 = arith.cmpi uge, %18#0, %c1_i32 : i32
        scf.if %23 {
          %30 = arith.subi %18#0, %c1_i32 : i32
          %31:2 = "ws.slot_phase"(%30) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.arrive"(%31#0) {barrier = "empty", channel = 1 : i32} : (i32) -> ()
        }
        %c0_i32_11 = arith.constant 0 : i32
        %24:2 = "ws.slot_phase"(%c0_i32_11) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
        "ws.arrive"(%24#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()
        %25 = "ws.broadcast"(%18#3) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
        %26 = arith.divf %18#1, %25 : tensor<128x128xf32>
        %splat = tensor.splat %7 : tensor<128x128xf32>
        %27 = arith.mulf %26, %splat : tensor<128x128xf32>
        %28 = arith.truncf %27 : tensor<128x128xf32> to tensor<128x128xbf16>
        %c0_i32_12 = arith.constant 0 : i32
        %29:2 = "ws.slot_phase"(%c0_i32_12) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
        "ws.wait"(%29#0, %29#1) {barrier = "empty", channel = 2 : i32} : (i32, i32) -> ()
        "ws.write_slot"(%28, %29#0) {ring = 3 : i32} : (tensor<128x128xbf16>, i32) -> ()
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
        "ws.arrive"(%29#0) {barrier = "full", channel = 2 : i32} : (i32) -> ()
      } else {
        nvvm.setmaxregister  decrease 24
        %c8_i32_5 = arith.constant 8 : i32
        %14 = arith.cmpi eq, %11, %c8_i32_5 : i32
        %15 = nvvm.elect.sync -> i1
        %16 = arith.andi %14, %15 : i1
        scf.if %16 {
          %c0_i32_6 = arith.constant 0 : i32
          %c0_i32_7 = arith.constant 0 : i32
          %20:2 = "ws.slot_phase"(%c0_i32_6) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%20#0, %20#1) {barrier = "empty", channel = 0 : i32} : (i32, i32) -> ()
          "ws.arrive_expect_tx"(%20#0) {bytes = 16384 : i32, channel = 0 : i32} : (i32) -> ()
          "ws.tma_load"(%arg0, %2, %1, %3, %c0_i32, %20#0) {ring = 0 : i32} : (!ws.tensor_desc<tensor<1x1x128x128xf8E4M3FN>>, i32, i32, i32, i32, i32) -> ()
          %21 = scf.for %arg9 = %c0_i32 to %arg4 step %c128_i32_0 iter_args(%arg10 = %c0_i32_6) -> (i32)  : i32 {
            %22:2 = "ws.slot_phase"(%arg10) {depth = 4 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%22#0, %22#1) {barrier = "empty", channel = 1 : i32} : (i32, i32) -> ()
            "ws.arrive_expect_tx"(%22#0) {bytes = 32768 : i32, channel = 1 : i32} : (i32) -> ()
            "ws.tma_load"(%arg1, %2, %1, %arg9, %c0_i32, %22#0) {ring = 1 : i32} : (!ws.tensor_desc<tensor<1x1x128x128xf8E4M3FN>>, i32, i32, i32, i32, i32) -> ()
            "ws.tma_load"(%arg2, %2, %1, %c0_i32, %arg9, %22#0) {ring = 2 : i32} : (!ws.tensor_desc<tensor<1x1x128x128xf8E4M3FN>>, i32, i32, i32, i32, i32) -> ()
            %c1_i32 = arith.constant 1 : i32
            %23 = arith.addi %arg10, %c1_i32 : i32
            scf.yield %23 : i32
          }
        }
        %c9_i32 = arith.constant 9 : i32
        %17 = arith.cmpi eq, %11, %c9_i32 : i32
        %18 = nvvm.elect.sync -> i1
        %19 = arith.andi %17, %18 : i1
        scf.if %19 {
          %c0_i32_6 = arith.constant 0 : i32
          %20:2 = "ws.slot_phase"(%c0_i32_6) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%20#0, %20#1) {barrier = "full", channel = 2 : i32} : (i32, i32) -> ()
          "ws.tma_store"(%arg3, %2, %1, %3, %c0_i32, %20#0) {ring = 3 : i32} : (!ws.tensor_desc<tensor<1x1x128x128xbf16>>, i32, i32, i32, i32, i32) -> ()
          nvvm.cp.async.bulk.commit.group
          nvvm.cp.async.bulk.wait_group 0
        }
      }
      gpu.return
    }
  }
}

