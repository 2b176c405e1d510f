module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @attention(%arg0: !ws.tensor_desc<tensor<1x1x128x128xf16>>, %arg1: !ws.tensor_desc<tensor<1x1x128x128xf16>>, %arg2: !ws.tensor_desc<tensor<1x1x128x128xf16>>, %arg3: !ws.tensor_desc<tensor<1x1x128x128xf16>>, %arg4: memref<?xi32>, %arg5: i32, %arg6: f32) kernel attributes {ws.block_threads = 384 : i32, ws.blocks_per_sm = 1 : i32, ws.channels = [{consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 229384 : i32, empty_arrivals = 256 : i32, expect_tx = 32768 : i32, from = "load", full = 229376 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "compute"}, {consumer_phase = 0 : i32, depth = 3 : i32, drain = 0 : i32, empty = 229416 : i32, empty_arrivals = 256 : i32, expect_tx = 65536 : i32, from = "load", full = 229392 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "compute"}, {consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 229448 : i32, empty_arrivals = 1 : i32, expect_tx = 0 : i32, from = "compute", full = 229440 : i32, full_arrivals = 256 : i32, producer_phase = 1 : i32, publish_fence = true, release_fence = false, to = "store"}, {consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 229464 : i32, empty_arrivals = 128 : i32, expect_tx = 0 : i32, from = "compute", full = 229456 : i32, full_arrivals = 128 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "compute"}], ws.maxnreg = 168 : i32, ws.num_warps = 8 : i32, ws.partitions = [{first_warp = 8 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 8 : i32, registers = 240 : i32, role = "compute", turns = true}, {first_warp = 9 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}], ws.rings = [{align = 1024 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 32768 : i32, swizzle = 128 : i32, tile = tensor<128x128xf16>}, {align = 1024 : i32, channel = 1 : i32, offset = 32768 : i32, slot_bytes = 32768 : i32, swizzle = 128 : i32, tile = tensor<128x128xf16>}, {align = 1024 : i32, channel = 1 : i32, offset = 131072 : i32, slot_bytes = 32768 : i32, swizzle = 128 : i32, tile = tensor<128x128xf16>}, {align = 1024 : i32, channel = 2 : i32, offset = 0 : i32, slot_bytes = 32768 : i32, swizzle = 128 : i32, tile = tensor<128x128xf16>}], ws.smem_bytes = 229472 : i32} {
      %c0_i32 = arith.constant 0 : i32
      %c128_i32 = arith.constant 128 : i32
      %c128_i32_0 = arith.constant 128 : i32
      %block_id_x = gpu.block_id  x
      %block_id_y = gpu.block_id  y
      %0 = arith.index_cast %block_id_x : index to i32
      %1 = arith.index_cast %block_id_y : index to i32
      %block_id_z = gpu.block_id  z
      %c1 = arith.constant 1 : index
      %2 = arith.addi %block_id_z, %c1 : index
      %3 = memref.load %arg4[%block_id_z] : memref<?xi32>
      %4 = memref.load %arg4[%2] : memref<?xi32>
      %5 = arith.maxsi %3, %c0_i32 : i32
      %6 = arith.minsi %5, %arg5 : i32
      %7 = arith.maxsi %4, %6 : i32
      %8 = arith.minsi %7, %arg5 : i32
      %9 = arith.subi %8, %6 : i32
      %10 = arith.muli %0, %c128_i32 : i32
      %11 = arith.cmpi slt, %10, %9 : i32
      %12 = arith.subi %9, %c128_i32 : i32
      %13 = arith.minsi %10, %12 : i32
      %14 = arith.select %11, %13, %arg5 : i32
      %15 = arith.subi %9, %c128_i32_0 : i32
      %16 = arith.select %11, %9, %c0_i32 : i32
      %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
      %cst_1 = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
      %cst_2 = arith.constant dense<0xFF800000> : tensor<1x128xf32>
      %cst_3 = arith.constant dense<0.000000e+00> : tensor<1x128xf32>
      %17 = nvvm.read.ptx.sreg.tid.x : i32
      %c32_i32 = arith.constant 32 : i32
      %18 = arith.divui %17, %c32_i32 : i32
      %c0_i32_4 = arith.constant 0 : i32
      %19 = arith.cmpi eq, %17, %c0_i32_4 : i32
      scf.if %19 {
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
      %20 = arith.cmpi ult, %18, %c8_i32 : i32
      scf.if %20 {
        nvvm.setmaxregister  increase 240
        %c0_i32_5 = arith.constant 0 : i32
        %c0_i32_6 = arith.constant 0 : i32
        %c0_i32_7 = arith.constant 0 : i32
        %21:2 = "ws.slot_phase"(%c0_i32_7) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
        "ws.wait"(%21#0, %21#1) {barrier = "full", channel = 0 : i32} : (i32, i32) -> ()
        %22 = nvvm.read.ptx.sreg.tid.x : i32
        %c128_i32_8 = arith.constant 128 : i32
        %23 = arith.divui %22, %c128_i32_8 : i32
        %c0_i32_9 = arith.constant 0 : i32
        %24 = arith.cmpi ugt, %23, %c0_i32_9 : i32
        scf.if %24 {
          %c0_i32_14 = arith.constant 0 : i32
          %c0_i32_15 = arith.constant 0 : i32
          %36 = arith.addi %23, %c0_i32_15 : i32
          %c2_i32_16 = arith.constant 2 : i32
          %37 = arith.muli %c0_i32_14, %c2_i32_16 : i32
          %38 = arith.addi %37, %36 : i32
          %c1_i32_17 = arith.constant 1 : i32
          %39 = arith.subi %38, %c1_i32_17 : i32
          %40:2 = "ws.slot_phase"(%39) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%40#0, %40#1) {barrier = "full", channel = 3 : i32} : (i32, i32) -> ()
        }
        %25:4 = scf.for %arg7 = %c0_i32 to %16 step %c128_i32_0 iter_args(%arg8 = %c0_i32_5, %arg9 = %cst_1, %arg10 = %cst_2, %arg11 = %cst_3) -> (i32, tensor<128x128xf32>, tensor<1x128xf32>, tensor<1x128xf32>)  : i32 {
          %36:2 = "ws.slot_phase"(%arg8) {depth = 3 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%36#0, %36#1) {barrier = "full", channel = 1 : i32} : (i32, i32) -> ()
          nvvm.wgmma.fence.aligned
          %37 = arith.minsi %arg7, %15 : i32
          %38 = "ws.mma"(%36#0, %cst, %21#0) {ring_a = 0 : i32, ring_b = 1 : i32, transpose_b} : (i32, tensor<128x128xf32>, i32) -> tensor<128x128xf32>
          nvvm.wgmma.commit.group.sync.aligned
          %c0_i32_14 = arith.constant 0 : i32
          %39 = arith.addi %23, %c0_i32_14 : i32
          %c2_i32_15 = arith.constant 2 : i32
          %40 = arith.muli %arg8, %c2_i32_15 : i32
          %41 = arith.addi %40, %39 : i32
          %42:2 = "ws.slot_phase"(%41) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
          "ws.arrive"(%42#0) {barrier = "full", channel = 3 : i32} : (i32) -> ()
          %43 = "ws.iota"() {axis = 1 : i32} : () -> tensor<128x128xi32>
          %44 = arith.subi %arg7, %37 : i32
          %splat = tensor.splat %44 : tensor<128x128xi32>
          %45 = arith.cmpi sge, %43, %splat : tensor<128x128xi32>
          %cst_16 = arith.constant dense<0xFF800000> : tensor<128x128xf32>
          nvvm.wgmma.wait.group.sync.aligned 0
          %c1_i32_17 = arith.constant 1 : i32
          %46 = arith.cmpi uge, %arg8, %c1_i32_17 : i32
          scf.if %46 {
            %70 = arith.subi %arg8, %c1_i32_17 : i32
            %71:2 = "ws.slot_phase"(%70) {depth = 3 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            "ws.arrive"(%71#0) {barrier = "empty", channel = 1 : i32} : (i32) -> ()
          }
          %47 = arith.select %45, %38, %cst_16 : tensor<128x128xi1>, tensor<128x128xf32>
          %48 = "ws.reduce"(%47) {axis = 1 : i32, kind = "max"} : (tensor<128x128xf32>) -> tensor<1x128xf32>
          %splat_18 = tensor.splat %arg6 : tensor<1x128xf32>
          %49 = arith.mulf %48, %splat_18 : tensor<1x128xf32>
          %50 = arith.maximumf %arg10, %49 : tensor<1x128xf32>
          %51 = "ws.broadcast"(%50) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
          %splat_19 = tensor.splat %arg6 : tensor<128x128xf32>
          %52 = arith.mulf %47, %splat_19 fastmath<contract> : tensor<128x128xf32>
          %53 = arith.subf %52, %51 fastmath<contract> : tensor<128x128xf32>
          %54 = math.exp2 %53 : tensor<128x128xf32>
          %55 = "ws.reduce"(%54) {axis = 1 : i32, kind = "sum"} : (tensor<128x128xf32>) -> tensor<1x128xf32>
          %56 = arith.subf %arg10, %50 : tensor<1x128xf32>
          %57 = math.exp2 %56 : tensor<1x128xf32>
          %58 = arith.mulf %arg11, %57 : tensor<1x128xf32>
          %59 = arith.addf %58, %55 : tensor<1x128xf32>
          %60 = "ws.broadcast"(%57) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
          %61 = arith.mulf %arg9, %60 : tensor<128x128xf32>
          %62 = arith.truncf %54 : tensor<128x128xf32> to tensor<128x128xf16>
          %c2_i32_20 = arith.constant 2 : i32
          %63 = arith.addi %23, %c2_i32_20 : i32
          %c2_i32_21 = arith.constant 2 : i32
          %64 = arith.muli %arg8, %c2_i32_21 : i32
          %65 = arith.addi %64, %63 : i32
          %c1_i32_22 = arith.constant 1 : i32
          %66 = arith.subi %65, %c1_i32_22 : i32
          %67:2 = "ws.slot_phase"(%66) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%67#0, %67#1) {barrier = "full", channel = 3 : i32} : (i32, i32) -> ()
          nvvm.wgmma.fence.aligned
          %68 = "ws.mma"(%36#0, %61, %62) {ring_b = 2 : i32} : (i32, tensor<128x128xf32>, tensor<128x128xf16>) -> tensor<128x128xf32>
          nvvm.wgmma.commit.group.sync.aligned
          %c1_i32_23 = arith.constant 1 : i32
          %69 = arith.addi %arg8, %c1_i32_23 : i32
          scf.yield %69, %68, %50, %59 : i32, tensor<128x128xf32>, tensor<1x128xf32>, tensor<1x128xf32>
        }
        %c0_i32_10 = arith.constant 0 : i32
        %26 = arith.addi %23, %c0_i32_10 : i32
        %c2_i32 = arith.constant 2 : i32
        %27 = arith.muli %25#0, %c2_i32 : i32
        %28 = arith.addi %27, %26 : i32
        %29:2 = "ws.slot_phase"(%28) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
        "ws.arrive"(%29#0) {barrier = "full", channel = 3 : i32} : (i32) -> ()
        nvvm.wgmma.wait.group.sync.aligned 0
        %c1_i32 = arith.constant 1 : i32
        %30 = arith.cmpi uge, %25#0, %c1_i32 : i32
        scf.if %30 {
          %36 = arith.subi %25#0, %c1_i32 : i32
          %37:2 = "ws.slot_phase"(%36) {depth = 3 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.arrive"(%37#0) {barrier = "empty", channel = 1 : i32} : (i32) -> ()
        }
        %c0_i32_11 = arith.constant 0 : i32
        %31:2 = "ws.slot_phase"(%c0_i32_11) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
        "ws.arrive"(%31#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()
        %c1_i32_12 = arith.constant 1 : i32
        %c256_i32 = arith.constant 256 : i32
        nvvm.barrier id = %c1_i32_12 number_of_threads = %c256_i32
        %32 = "ws.broadcast"(%25#3) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
        %33 = arith.divf %25#1, %32 : tensor<128x128xf32>
        %34 = arith.truncf %33 : tensor<128x128xf32> to tensor<128x128xf16>
        %c0_i32_13 = arith.constant 0 : i32
        %35:2 = "ws.slot_phase"(%c0_i32_13) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
        "ws.wait"(%35#0, %35#1) {barrier = "empty", channel = 2 : i32} : (i32, i32) -> ()
        "ws.write_slot"(%34, %35#0) {ring = 3 : i32} : (tensor<128x128xf16>, i32) -> ()
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
        "ws.arrive"(%35#0) {barrier = "full", channel = 2 : i32} : (i32) -> ()
      } else {
        nvvm.setmaxregister  decrease 24
        %c8_i32_5 = arith.constant 8 : i32
        %21 = arith.cmpi eq, %18, %c8_i32_5 : i32
        %22 = nvvm.elect.sync -> i1
        %23 = arith.andi %21, %22 : i1
        scf.if %23 {
          %c0_i32_6 = arith.constant 0 : i32
          %c0_i32_7 = arith.constant 0 : i32
          %27:2 = "ws.slot_phase"(%c0_i32_6) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%27#0, %27#1) {barrier = "empty", channel = 0 : i32} : (i32, i32) -> ()
          "ws.arrive_expect_tx"(%27#0) {bytes = 32768 : i32, channel = 0 : i32} : (i32) -> ()
          "ws.tma_load"(%arg0, %6, %1, %14, %c0_i32, %27#0) {ring = 0 : i32} : (!ws.tensor_desc<tensor<1x1x128x128xf16>>, i32, i32, i32, i32, i32) -> ()
          %28 = scf.for %arg7 = %c0_i32 to %16 step %c128_i32_0 iter_args(%arg8 = %c0_i32_6) -> (i32)  : i32 {
            %29 = arith.minsi %arg7, %15 : i32
            %30:2 = "ws.slot_phase"(%arg8) {depth = 3 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%30#0, %30#1) {barrier = "empty", channel = 1 : i32} : (i32, i32) -> ()
            "ws.arrive_expect_tx"(%30#0) {bytes = 65536 : i32, channel = 1 : i32} : (i32) -> ()
            "ws.tma_load"(%arg1, %6, %1, %29, %c0_i32, %30#0) {ring = 1 : i32} : (!ws.tensor_desc<tensor<1x1x128x128xf16>>, i32, i32, i32, i32, i32) -> ()
            "ws.tma_load"(%arg2, %6, %1, %29, %c0_i32, %30#0) {ring = 2 : i32} : (!ws.tensor_desc<tensor<1x1x128x128xf16>>, i32, i32, i32, i32, i32) -> ()
            %c1_i32 = arith.constant 1 : i32
            %31 = arith.addi %arg8, %c1_i32 : i32
            scf.yield %31 : i32
          }
        }
        %c9_i32 = arith.constant 9 : i32
        %24 = arith.cmpi eq, %18, %c9_i32 : i32
        %25 = nvvm.elect.sync -> i1
        %26 = arith.andi %24, %25 : i1
        scf.if %26 {
          %c0_i32_6 = arith.constant 0 : i32
          %27:2 = "ws.slot_phase"(%c0_i32_6) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%27#0, %27#1) {barrier = "full", channel = 2 : i32} : (i32, i32) -> ()
          "ws.tma_store"(%arg3, %6, %1, %14, %c0_i32, %27#0) {ring = 3 : i32} : (!ws.tensor_desc<tensor<1x1x128x128xf16>>, i32, i32, i32, i32, i32) -> ()
          nvvm.cp.async.bulk.commit.group
          nvvm.cp.async.bulk.wait_group 0
        }
      }
      gpu.return
    }
  }
}

