module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @attention(%arg0: !ws.tensor_desc<tensor<1x1x128x128xf16>>, %arg1: !ws.tensor_desc<tensor<1x1x128x128xf16>>, %arg2: !ws.tensor_desc<tensor<1x1x128x128xf16>>, %arg3: !ws.tensor_desc<tensor<1x1x128x128xf16>>, %arg4: i32, %arg5: f32) kernel attributes {ws.block_threads = 384 : i32, ws.blocks_per_sm = 1 : i32, ws.channels = [{consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 229384 : i32, empty_arrivals = 256 : i32, expect_tx = 32768 : i32, from = "load", full = 229376 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "compute"}, {consumer_phase = 0 : i32, depth = 3 : i32, drain = 0 : i32, empty = 229416 : i32, empty_arrivals = 256 : i32, expect_tx = 65536 : i32, from = "load", full = 229392 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "compute"}, {consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 229448 : i32, empty_arrivals = 1 : i32, expect_tx = 0 : i32, from = "compute", full = 229440 : i32, full_arrivals = 256 : i32, producer_phase = 1 : i32, publish_fence = true, release_fence = false, to = "store"}, {consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 229464 : i32, empty_arrivals = 128 : i32, expect_tx = 0 : i32, from = "compute", full = 229456 : i32, full_arrivals = 128 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "compute"}], ws.maxnreg = 168 : i32, ws.num_warps = 8 : i32, ws.partitions = [{first_warp = 8 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 8 : i32, registers = 240 : i32, role = "compute", turns = true}, {first_warp = 9 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}], ws.rings = [{align = 1024 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 32768 : i32, swizzle = 128 : i32, tile = tensor<128x128xf16>}, {align = 1024 : i32, channel = 1 : i32, offset = 32768 : i32, slot_bytes = 32768 : i32, swizzle = 128 : i32, tile = tensor<128x128xf16>}, {align = 1024 : i32, channel = 1 : i32, offset = 131072 : i32, slot_bytes = 32768 : i32, swizzle = 128 : i32, tile = tensor<128x128xf16>}, {align = 1024 : i32, channel = 2 : i32, offset = 0 : i32, slot_bytes = 32768 : i32, swizzle = 128 : i32, tile = tensor<128x128xf16>}], ws.smem_bytes = 229472 : i32} {
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
      %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
      %cst_1 = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
      %cst_2 = arith.constant dense<0xFF800000> : tensor<1x128xf32>
      %cst_3 = arith.constant dense<0.000000e+00> : tensor<1x128xf32>
      %4 = nvvm.read.ptx.sreg.tid.x : i32
      %c32_i32 = arith.constant 32 : i32
      %5 = arith.divui %4, %c32_i32 : i32
      %c0_i32_4 = arith.constant 0 : i32
      %6 = arith.cmpi eq, %4, %c0_i32_4 : i32
      scf.if %6 {
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
      %7 = arith.cmpi ult, %5, %c8_i32 : i32
      scf.if %7 {
        nvvm.setmaxregister  increase 240
        %c0_i32_5 = arith.constant 0 : i32
        %c0_i32_6 = arith.constant 0 : i32
        %c0_i32_7 = arith.constant 0 : i32
        %8:2 = "ws.slot_phase"(%c0_i32_7) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
        "ws.wait"(%8#0, %8#1) {barrier = "full", channel = 0 : i32} : (i32, i32) -> ()
        %9 = nvvm.read.ptx.sreg.tid.x : i32
        %c128_i32_8 = arith.constant 128 : i32
        %10 = arith.divui %9, %c128_i32_8 : i32
        %c0_i32_9 = arith.constant 0 : i32
        %11 = arith.cmpi ugt, %10, %c0_i32_9 : i32
        scf.if %11 {
          %c0_i32_14 = arith.constant 0 : i32
          %c0_i32_15 = arith.constant 0 : i32
          %23 = arith.addi %10, %c0_i32_15 : i32
          %c2_i32_16 = arith.constant 2 : i32
          %24 = arith.muli %c0_i32_14, %c2_i32_16 : i32
          %25 = arith.addi %24, %23 : i32
          %c1_i32_17 = arith.constant 1 : i32
          %26 = arith.subi %25, %c1_i32_17 : i32
          %27:2 = "ws.slot_phase"(%26) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%27#0, %27#1) {barrier = "full", channel = 3 : i32} : (i32, i32) -> ()
        }
        %12:4 = scf.for %arg6 = %c0_i32 to %arg4 step %c128_i32_0 iter_args(%arg7 = %c0_i32_5, %arg8 = %cst_1, %arg9 = %cst_2, %arg10 = %cst_3) -> (i32, tensor<128x128xf32>, tensor<1x128xf32>, tensor<1x128xf32>)  : i32 {
          %23:2 = "ws.slot_phase"(%arg7) {depth = 3 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%23#0, %23#1) {barrier = "full", channel = 1 : i32} : (i32, i32) -> ()
          nvvm.wgmma.fence.aligned
          %24 = "ws.mma"(%23#0, %cst, %8#0) {ring_a = 0 : i32, ring_b = 1 : i32, transpose_b} : (i32, tensor<128x128xf32>, i32) -> tensor<128x128xf32>
          nvvm.wgmma.commit.group.sync.aligned
          %c0_i32_14 = arith.constant 0 : i32
          %25 = arith.addi %10, %c0_i32_14 : i32
          %c2_i32_15 = arith.constant 2 : i32
          %26 = arith.muli %arg7, %c2_i32_15 : i32
          %27 = arith.addi %26, %25 : i32
          %28:2 = "ws.slot_phase"(%27) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
          "ws.arrive"(%28#0) {barrier = "full", channel = 3 : i32} : (i32) -> ()
          %splat = tensor.splat %arg5 : tensor<128x128xf32>
          nvvm.wgmma.wait.group.sync.aligned 0
          %c1_i32_16 = arith.constant 1 : i32
          %29 = arith.cmpi uge, %arg7, %c1_i32_16 : i32
          scf.if %29 {
            %55 = arith.subi %arg7, %c1_i32_16 : i32
            %56:2 = "ws.slot_phase"(%55) {depth = 3 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            "ws.arrive"(%56#0) {barrier = "empty", channel = 1 : i32} : (i32) -> ()
          }
          %30 = arith.mulf %24, %splat : tensor<128x128xf32>
          %31 = "ws.iota"() {axis = 1 : i32} : () -> tensor<128x128xi32>
          %32 = arith.subi %arg4, %arg6 : i32
          %splat_17 = tensor.splat %32 : tensor<128x128xi32>
          %33 = arith.cmpi slt, %31, %splat_17 : tensor<128x128xi32>
          %cst_18 = arith.constant dense<0xFF800000> : tensor<128x128xf32>
          %34 = arith.select %33, %30, %cst_18 : tensor<128x128xi1>, tensor<128x128xf32>
          %35 = "ws.reduce"(%34) {axis = 1 : i32, kind = "max"} : (tensor<128x128xf32>) -> tensor<1x128xf32>
          %36 = arith.maximumf %arg9, %35 : tensor<1x128xf32>
          %37 = "ws.broadcast"(%36) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
          %38 = arith.subf %34, %37 : tensor<128x128xf32>
          %39 = math.exp2 %38 : tensor<128x128xf32>
          %40 = "ws.reduce"(%39) {axis = 1 : i32, kind = "sum"} : (tensor<128x128xf32>) -> tensor<1x128xf32>
          %41 = arith.subf %arg9, %36 : tensor<1x128xf32>
          %42 = math.exp2 %41 : tensor<1x128xf32>
          %43 = arith.mulf %arg10, %42 : tensor<1x128xf32>
          %44 = arith.addf %43, %40 : tensor<1x128xf32>
          %45 = "ws.broadcast"(%42) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
          %46 = arith.mulf %arg8, %45 : tensor<128x128xf32>
          %47 = arith.truncf %39 : tensor<128x128xf32> to tensor<128x128xf16>
          %c2_i32_19 = arith.constant 2 : i32
          %48 = arith.addi %10, %c2_i32_19 : i32
          %c2_i32_20 = arith.constant 2 : i32
          %49 = arith.muli %arg7, %c2_i32_20 : i32
          %50 = arith.addi %49, %48 : i32
          %c1_i32_21 = arith.constant 1 : i32
          %51 = arith.subi %50, %c1_i32_21 : i32
          %52:2 = "ws.slot_phase"(%51) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%52#0, %52#1) {barrier = "full", channel = 3 : i32} : (i32, i32) -> ()
          nvvm.wgmma.fence.aligned
          %53 = "ws.mma"(%23#0, %46, %47) {ring_b = 2 : i32} : (i32, tensor<128x128xf32>, tensor<128x128xf16>) -> tensor<128x128xf32>
          nvvm.wgmma.commit.group.sync.aligned
          %c1_i32_22 = arith.constant 1 : i32
          %54 = arith.addi %arg7, %c1_i32_22 : i32
          scf.yield %54, %53, %36, %44 : i32, tensor<128x128xf32>, tensor<1x128xf32>, tensor<1x128xf32>
        }
        %c0_i32_10 = arith.constant 0 : i32
        %13 = arith.addi %10, %c0_i32_10 : i32
        %c2_i32 = arith.constant 2 : i32
        %14 = arith.muli %12#0, %c2_i32 : i32
        %15 = arith.addi %14, %13 : i32
        %16:2 = "ws.slot_phase"(%15) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
        "ws.arrive"(%16#0) {barrier = "full", channel = 3 : i32} : (i32) -> ()
        nvvm.wgmma.wait.group.sync.aligned 0
        %c1_i32 = arith.constant 1 : i32
        %17 = arith.cmpi uge, %12#0, %c1_i32 : i32
        scf.if %17 {
          %23 = arith.subi %12#0, %c1_i32 : i32
          %24:2 = "ws.slot_phase"(%23) {depth = 3 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.arrive"(%24#0) {barrier = "empty", channel = 1 : i32} : (i32) -> ()
        }
        %c0_i32_11 = arith.constant 0 : i32
        %18:2 = "ws.slot_phase"(%c0_i32_11) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
        "ws.arrive"(%18#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()
        %c1_i32_12 = arith.constant 1 : i32
        %c256_i32 = arith.constant 256 : i32
        nvvm.barrier id = %c1_i32_12 number_of_threads = %c256_i32
        %19 = "ws.broadcast"(%12#3) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
        %20 = arith.divf %12#1, %19 : tensor<128x128xf32>
        %21 = arith.truncf %20 : tensor<128x128xf32> to tensor<128x128xf16>
        %c0_i32_13 = arith.constant 0 : i32
        %22:2 = "ws.slot_phase"(%c0_i32_13) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
        "ws.wait"(%22#0, %22#1) {barrier = "empty", channel = 2 : i32} : (i32, i32) -> ()
        "ws.write_slot"(%21, %22#0) {ring = 3 : i32} : (tensor<128x128xf16>, i32) -> ()
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
        "ws.arrive"(%22#0) {barrier = "full", channel = 2 : i32} : (i32) -> ()
      } else {
        nvvm.setmaxregister  decrease 24
        %c8_i32_5 = arith.constant 8 : i32
        %8 = arith.cmpi eq, %5, %c8_i32_5 : i32
        %9 = nvvm.elect.sync -> i1
        %10 = arith.andi %8, %9 : i1
        scf.if %10 {
          %c0_i32_6 = arith.constant 0 : i32
          %c0_i32_7 = arith.constant 0 : i32
          %14:2 = "ws.slot_phase"(%c0_i32_6) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%14#0, %14#1) {barrier = "empty", channel = 0 : i32} : (i32, i32) -> ()
          "ws.arrive_expect_tx"(%14#0) {bytes = 32768 : i32, channel = 0 : i32} : (i32) -> ()
          "ws.tma_load"(%arg0, %2, %1, %3, %c0_i32, %14#0) {ring = 0 : i32} : (!ws.tensor_desc<tensor<1x1x128x128xf16>>, i32, i32, i32, i32, i32) -> ()
          %15 = scf.for %arg6 = %c0_i32 to %arg4 step %c128_i32_0 iter_args(%arg7 = %c0_i32_6) -> (i32)  : i32 {
            %16:2 = "ws.slot_phase"(%arg7) {depth = 3 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%16#0, %16#1) {barrier = "empty", channel = 1 : i32} : (i32, i32) -> ()
            "ws.arrive_expect_tx"(%16#0) {bytes = 65536 : i32, channel = 1 : i32} : (i32) -> ()
            "ws.tma_load"(%arg1, %2, %1, %arg6, %c0_i32, %16#0) {ring = 1 : i32} : (!ws.tensor_desc<tensor<1x1x128x128xf16>>, i32, i32, i32, i32, i32) -> ()
            "ws.tma_load"(%arg2, %2, %1, %arg6, %c0_i32, %16#0) {ring = 2 : i32} : (!ws.tensor_desc<tensor<1x1x128x128xf16>>, i32, i32, i32, i32, i32) -> ()
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
          %c0_i32_6 = arith.constant 0 : i32
          %14:2 = "ws.slot_phase"(%c0_i32_6) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%14#0, %14#1) {barrier = "full", channel = 2 : i32} : (i32, i32) -> ()
          "ws.tma_store"(%arg3, %2, %1, %3, %c0_i32, %14#0) {ring = 3 : i32} : (!ws.tensor_desc<tensor<1x1x128x128xf16>>, i32, i32, i32, i32, i32) -> ()
          nvvm.cp.async.bulk.commit.group
          nvvm.cp.async.bulk.wait_group 0
        }
      }
      gpu.return
    }
  }
}

