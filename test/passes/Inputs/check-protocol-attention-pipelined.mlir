module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @attention(%arg0: !ws.tensor_desc<tensor<1x1x128x128xf16>>, %arg1: !ws.tensor_desc<tensor<1x1x128x128xf16>>, %arg2: !ws.tensor_desc<tensor<1x1x128x128xf16>>, %arg3: !ws.tensor_desc<tensor<1x1x128x128xf16>>, %arg4: i32, %arg5: f32) kernel attributes {ws.block_threads = 384 : i32, ws.blocks_per_sm = 1 : i32, ws.channels = [{consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 229384 : i32, empty_arrivals = 256 : i32, expect_tx = 32768 : i32, from = "load", full = 229376 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "compute"}, {consumer_phase = 0 : i32, depth = 3 : i32, drain = 0 : i32, empty = 229416 : i32, empty_arrivals = 256 : i32, expect_tx = 65536 : i32, from = "load", full = 229392 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "compute"}, {consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 229448 : i32, empty_arrivals = 1 : i32, expect_tx = 0 : i32, from = "compute", full = 229440 : i32, full_arrivals = 256 : i32, producer_phase = 1 : i32, publish_fence = true, release_fence = false, to = "store"}, {consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 229464 : i32, empty_arrivals = 128 : i32, expect_tx = 0 : i32, from = "compute", full = 229456 : i32, full_arrivals = 128 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "compute"}], ws.maxnreg = 168 : i32, ws.num_warps = 8 : i32, ws.partitions = [{first_warp = 8 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 8 : i32, pipelined = true, registers = 240 : i32, role = "compute", turns = true}, {first_warp = 9 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}], ws.rings = [{align = 1024 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 32768 : i32, swizzle = 128 : i32, tile = tensor<128x128xf16>}, {align = 1024 : i32, channel = 1 : i32, offset = 32768 : i32, slot_bytes = 32768 : i32, swizzle = 128 : i32, tile = tensor<128x128xf16>}, {align = 1024 : i32, channel = 1 : i32, offset = 131072 : i32, slot_bytes = 32768 : i32, swizzle = 128 : i32, tile = tensor<128x128xf16>}, {align = 1024 : i32, channel = 2 : i32, offset = 0 : i32, slot_bytes = 32768 : i32, swizzle = 128 : i32, tile = tensor<128x128xf16>}], ws.smem_bytes = 229472 : i32} {
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
          %c0_i32_13 = arith.constant 0 : i32
          %c0_i32_14 = arith.constant 0 : i32
          %23 = arith.addi %10, %c0_i32_14 : i32
          %c2_i32_15 = arith.constant 2 : i32
          %24 = arith.muli %c0_i32_13, %c2_i32_15 : i32
          %25 = arith.addi %24, %23 : i32
          %c1_i32_16 = arith.constant 1 : i32
          %26 = arith.subi %25, %c1_i32_16 : i32
          %27:2 = "ws.slot_phase"(%26) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%27#0, %27#1) {barrier = "full", channel = 3 : i32} : (i32, i32) -> ()
        }
        %12 = arith.cmpi slt, %c0_i32, %arg4 : i32
        %13:4 = scf.if %12 -> (i32, tensor<128x128xf32>, tensor<1x128xf32>, tensor<1x128xf32>) {
          %23:2 = "ws.slot_phase"(%c0_i32_5) {depth = 3 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%23#0, %23#1) {barrier = "full", channel = 1 : i32} : (i32, i32) -> ()
          nvvm.wgmma.fence.aligned
          %24 = "ws.mma"(%23#0, %cst, %8#0) {ring_a = 0 : i32, ring_b = 1 : i32, transpose_b} : (i32, tensor<128x128xf32>, i32) -> tensor<128x128xf32>
          %25 = arith.subi %arg4, %c0_i32 : i32
          nvvm.wgmma.commit.group.sync.aligned
          %c0_i32_13 = arith.constant 0 : i32
          %26 = arith.addi %10, %c0_i32_13 : i32
          %c2_i32_14 = arith.constant 2 : i32
          %27 = arith.muli %c0_i32_5, %c2_i32_14 : i32
          %28 = arith.addi %27, %26 : i32
          %29:2 = "ws.slot_phase"(%28) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
          "ws.arrive"(%29#0) {barrier = "full", channel = 3 : i32} : (i32) -> ()
          nvvm.wgmma.wait.group.sync.aligned 0
          %30 = "ws.mma_done"(%24) : (tensor<128x128xf32>) -> tensor<128x128xf32>
          %splat = tensor.splat %arg5 : tensor<128x128xf32>
          %31 = arith.mulf %30, %splat : tensor<128x128xf32>
          %32 = "ws.iota"() {axis = 1 : i32} : () -> tensor<128x128xi32>
          %33 = arith.subi %arg4, %c0_i32 : i32
          %splat_15 = tensor.splat %33 : tensor<128x128xi32>
          %34 = arith.cmpi slt, %32, %splat_15 : tensor<128x128xi32>
          %cst_16 = arith.constant dense<0xFF800000> : tensor<128x128xf32>
          %35 = arith.select %34, %31, %cst_16 : tensor<128x128xi1>, tensor<128x128xf32>
          %36 = "ws.reduce"(%35) {axis = 1 : i32, kind = "max"} : (tensor<128x128xf32>) -> tensor<1x128xf32>
          %37 = arith.maximumf %cst_2, %36 : tensor<1x128xf32>
          %38 = "ws.broadcast"(%37) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
          %39 = arith.subf %35, %38 : tensor<128x128xf32>
          %40 = math.exp2 %39 : tensor<128x128xf32>
          %41 = "ws.reduce"(%40) {axis = 1 : i32, kind = "sum"} : (tensor<128x128xf32>) -> tensor<1x128xf32>
          %42 = arith.subf %cst_2, %37 : tensor<1x128xf32>
          %43 = math.exp2 %42 : tensor<1x128xf32>
          %44 = arith.mulf %cst_3, %43 : tensor<1x128xf32>
          %45 = arith.addf %44, %41 : tensor<1x128xf32>
          %46 = arith.truncf %40 : tensor<128x128xf32> to tensor<128x128xf16>
          %47 = arith.addi %c0_i32, %c128_i32_0 : i32
          %48:6 = scf.for %arg6 = %47 to %arg4 step %c128_i32_0 iter_args(%arg7 = %c0_i32_5, %arg8 = %43, %arg9 = %cst_1, %arg10 = %46, %arg11 = %37, %arg12 = %45) -> (i32, tensor<1x128xf32>, tensor<128x128xf32>, tensor<128x128xf16>, tensor<1x128xf32>, tensor<1x128xf32>)  : i32 {
            %c1_i32_22 = arith.constant 1 : i32
            %64 = arith.addi %arg7, %c1_i32_22 : i32
            %c0_i32_23 = arith.constant 0 : i32
            %65 = arith.addi %10, %c0_i32_23 : i32
            %c2_i32_24 = arith.constant 2 : i32
            %66 = arith.muli %64, %c2_i32_24 : i32
            %67 = arith.addi %66, %65 : i32
            %c1_i32_25 = arith.constant 1 : i32
            %68 = arith.subi %67, %c1_i32_25 : i32
            %69:2 = "ws.slot_phase"(%68) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%69#0, %69#1) {barrier = "full", channel = 3 : i32} : (i32, i32) -> ()
            %70:2 = "ws.slot_phase"(%64) {depth = 3 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%70#0, %70#1) {barrier = "full", channel = 1 : i32} : (i32, i32) -> ()
            nvvm.wgmma.fence.aligned
            %71 = "ws.mma"(%70#0, %cst, %8#0) {ring_a = 0 : i32, ring_b = 1 : i32, transpose_b} : (i32, tensor<128x128xf32>, i32) -> tensor<128x128xf32>
            %72 = arith.subi %arg4, %arg6 : i32
            nvvm.wgmma.commit.group.sync.aligned
            %73:2 = "ws.slot_phase"(%arg7) {depth = 3 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            %74 = arith.subi %arg4, %arg6 : i32
            %75 = "ws.broadcast"(%arg8) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
            %76 = arith.mulf %arg9, %75 : tensor<128x128xf32>
            nvvm.wgmma.fence.aligned
            %77 = arith.subi %arg4, %arg6 : i32
            %78 = "ws.mma"(%73#0, %76, %arg10) {ring_b = 2 : i32} : (i32, tensor<128x128xf32>, tensor<128x128xf16>) -> tensor<128x128xf32>
            nvvm.wgmma.commit.group.sync.aligned
            %c0_i32_26 = arith.constant 0 : i32
            %79 = arith.addi %10, %c0_i32_26 : i32
            %c2_i32_27 = arith.constant 2 : i32
            %80 = arith.muli %64, %c2_i32_27 : i32
            %81 = arith.addi %80, %79 : i32
            %82:2 = "ws.slot_phase"(%81) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
            "ws.arrive"(%82#0) {barrier = "full", channel = 3 : i32} : (i32) -> ()
            nvvm.wgmma.wait.group.sync.aligned 1
            %83 = "ws.mma_done"(%71) : (tensor<128x128xf32>) -> tensor<128x128xf32>
            %splat_28 = tensor.splat %arg5 : tensor<128x128xf32>
            %84 = arith.mulf %83, %splat_28 : tensor<128x128xf32>
            %85 = "ws.iota"() {axis = 1 : i32} : () -> tensor<128x128xi32>
            %86 = arith.subi %arg4, %arg6 : i32
            %splat_29 = tensor.splat %86 : tensor<128x128xi32>
            %87 = arith.cmpi slt, %85, %splat_29 : tensor<128x128xi32>
            %cst_30 = arith.constant dense<0xFF800000> : tensor<128x128xf32>
            %88 = arith.select %87, %84, %cst_30 : tensor<128x128xi1>, tensor<128x128xf32>
            %89 = "ws.reduce"(%88) {axis = 1 : i32, kind = "max"} : (tensor<128x128xf32>) -> tensor<1x128xf32>
            %90 = arith.maximumf %arg11, %89 : tensor<1x128xf32>
            %91 = "ws.broadcast"(%90) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
            %92 = arith.subf %88, %91 : tensor<128x128xf32>
            %93 = math.exp2 %92 : tensor<128x128xf32>
            %94 = "ws.reduce"(%93) {axis = 1 : i32, kind = "sum"} : (tensor<128x128xf32>) -> tensor<1x128xf32>
            %95 = arith.subf %arg11, %90 : tensor<1x128xf32>
            %96 = math.exp2 %95 : tensor<1x128xf32>
            %97 = arith.mulf %arg12, %96 : tensor<1x128xf32>
            %98 = arith.addf %97, %94 : tensor<1x128xf32>
            %99 = arith.truncf %93 : tensor<128x128xf32> to tensor<128x128xf16>
            nvvm.wgmma.wait.group.sync.aligned 0
            %100:2 = "ws.slot_phase"(%arg7) {depth = 3 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            "ws.arrive"(%100#0) {barrier = "empty", channel = 1 : i32} : (i32) -> ()
            %101 = "ws.mma_done"(%78) : (tensor<128x128xf32>) -> tensor<128x128xf32>
            scf.yield %64, %96, %101, %99, %90, %98 : i32, tensor<1x128xf32>, tensor<128x128xf32>, tensor<128x128xf16>, tensor<1x128xf32>, tensor<1x128xf32>
          }
          %c1_i32_17 = arith.constant 1 : i32
          %49 = arith.addi %48#0, %c1_i32_17 : i32
          %c0_i32_18 = arith.constant 0 : i32
          %50 = arith.addi %10, %c0_i32_18 : i32
          %c2_i32_19 = arith.constant 2 : i32
          %51 = arith.muli %49, %c2_i32_19 : i32
          %52 = arith.addi %51, %50 : i32
          %c1_i32_20 = arith.constant 1 : i32
          %53 = arith.subi %52, %c1_i32_20 : i32
          %54:2 = "ws.slot_phase"(%53) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%54#0, %54#1) {barrier = "full", channel = 3 : i32} : (i32, i32) -> ()
          %55:2 = "ws.slot_phase"(%48#0) {depth = 3 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          %56 = arith.subi %arg4, %c0_i32 : i32
          %57 = "ws.broadcast"(%48#1) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
          %58 = arith.mulf %48#2, %57 : tensor<128x128xf32>
          nvvm.wgmma.fence.aligned
          %59 = arith.subi %arg4, %c0_i32 : i32
          %60 = "ws.mma"(%55#0, %58, %48#3) {ring_b = 2 : i32} : (i32, tensor<128x128xf32>, tensor<128x128xf16>) -> tensor<128x128xf32>
          nvvm.wgmma.commit.group.sync.aligned
          nvvm.wgmma.wait.group.sync.aligned 0
          %61:2 = "ws.slot_phase"(%48#0) {depth = 3 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.arrive"(%61#0) {barrier = "empty", channel = 1 : i32} : (i32) -> ()
          %62 = "ws.mma_done"(%60) : (tensor<128x128xf32>) -> tensor<128x128xf32>
          %c1_i32_21 = arith.constant 1 : i32
          %63 = arith.addi %48#0, %c1_i32_21 : i32
          scf.yield %63, %62, %48#4, %48#5 : i32, tensor<128x128xf32>, tensor<1x128xf32>, tensor<1x128xf32>
        } else {
          scf.yield %c0_i32_5, %cst_1, %cst_2, %cst_3 : i32, tensor<128x128xf32>, tensor<1x128xf32>, tensor<1x128xf32>
        }
        %c0_i32_10 = arith.constant 0 : i32
        %14 = arith.addi %10, %c0_i32_10 : i32
        %c2_i32 = arith.constant 2 : i32
        %15 = arith.muli %13#0, %c2_i32 : i32
        %16 = arith.addi %15, %14 : i32
        %17:2 = "ws.slot_phase"(%16) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
        "ws.arrive"(%17#0) {barrier = "full", channel = 3 : i32} : (i32) -> ()
        %c0_i32_11 = arith.constant 0 : i32
        %18:2 = "ws.slot_phase"(%c0_i32_11) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
        "ws.arrive"(%18#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()
        %c1_i32 = arith.constant 1 : i32
        %c256_i32 = arith.constant 256 : i32
        nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
        %19 = "ws.broadcast"(%13#3) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
        %20 = arith.divf %13#1, %19 : tensor<128x128xf32>
        %21 = arith.truncf %20 : tensor<128x128xf32> to tensor<128x128xf16>
        %c0_i32_12 = arith.constant 0 : i32
        %22:2 = "ws.slot_phase"(%c0_i32_12) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
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

