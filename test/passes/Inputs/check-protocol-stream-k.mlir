// A saved plan: ws-opt --ws-pipeline=stage=plan of the matmul suite's stream-K
// matmul with bias and ReLU (pmm_128x128x64_w8_st_bias_relu of
// integration/matmul/variants.py); the check-protocol-*.mlir tests and the
// proof's mutation campaign edit it.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @pmm_128x128x64_w8_st_bias_relu(%arg0: !ws.tensor_desc<tensor<128x64xf16>>, %arg1: !ws.tensor_desc<tensor<128x64xf16>>, %arg2: !ws.tensor_desc<tensor<128x128xf16>>, %arg3: !ws.tensor_desc<tensor<1x128xf16>>, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i64) kernel attributes {ws.block_threads = 384 : i32, ws.blocks_per_sm = 1 : i32, ws.channels = [{consumer_phase = 0 : i32, depth = 5 : i32, drain = 0 : i32, empty = 230440 : i32, empty_arrivals = 128 : i32, expect_tx = 32768 : i32, from = "load", full = 230400 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "compute"}, {consumer_phase = 0 : i32, depth = 2 : i32, drain = 0 : i32, empty = 230496 : i32, empty_arrivals = 128 : i32, expect_tx = 256 : i32, from = "load", full = 230480 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = true, to = "compute"}, {consumer_phase = 0 : i32, depth = 2 : i32, drain = 1 : i32, empty = 230528 : i32, empty_arrivals = 1 : i32, expect_tx = 0 : i32, from = "compute", full = 230512 : i32, full_arrivals = 128 : i32, producer_phase = 1 : i32, publish_fence = true, release_fence = false, to = "store"}, {consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 230552 : i32, empty_arrivals = 128 : i32, expect_tx = 0 : i32, from = "compute", full = 230544 : i32, full_arrivals = 128 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "compute"}], ws.maxnreg = 168 : i32, ws.num_warps = 8 : i32, ws.partitions = [{first_warp = 8 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 8 : i32, pingpong = true, registers = 240 : i32, role = "compute"}, {first_warp = 9 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}], ws.persistent, ws.rings = [{align = 1024 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32, tile = tensor<128x64xf16>}, {align = 1024 : i32, channel = 0 : i32, offset = 81920 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32, tile = tensor<128x64xf16>}, {align = 128 : i32, channel = 1 : i32, offset = 163840 : i32, slot_bytes = 256 : i32, swizzle = 0 : i32, tile = tensor<1x128xf16>}, {align = 1024 : i32, channel = 2 : i32, offset = 164864 : i32, slot_bytes = 32768 : i32, swizzle = 128 : i32, tile = tensor<128x128xf16>}], ws.smem_bytes = 230560 : i32, ws.workspace_per_block = 65664 : i32} {
      %c0_i32 = arith.constant 0 : i32
      %c64_i32 = arith.constant 64 : i32
      %c128_i32 = arith.constant 128 : i32
      %c128_i32_0 = arith.constant 128 : i32
      %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
      %c1_i32 = arith.constant 1 : i32
      %0 = arith.addi %arg4, %c128_i32 : i32
      %1 = arith.subi %0, %c1_i32 : i32
      %2 = arith.divui %1, %c128_i32 : i32
      %3 = arith.addi %arg5, %c128_i32_0 : i32
      %4 = arith.subi %3, %c1_i32 : i32
      %5 = arith.divui %4, %c128_i32_0 : i32
      %6 = arith.muli %2, %5 : i32
      %block_id_x = gpu.block_id  x
      %grid_dim_x = gpu.grid_dim  x
      %7 = arith.index_cast %block_id_x : index to i32
      %8 = arith.index_cast %grid_dim_x : index to i32
      %c1_i32_1 = arith.constant 1 : i32
      %9 = arith.subi %c64_i32, %c1_i32_1 : i32
      %10 = arith.addi %arg6, %9 : i32
      %11 = arith.divui %10, %c64_i32 : i32
      %c0_i32_2 = arith.constant 0 : i32
      %c1_i32_3 = arith.constant 1 : i32
      %12 = arith.subi %8, %c1_i32_3 : i32
      %13 = arith.addi %6, %12 : i32
      %14 = arith.divui %13, %8 : i32
      %c2_i32 = arith.constant 2 : i32
      %15 = arith.muli %8, %c2_i32 : i32
      %c2_i32_4 = arith.constant 2 : i32
      %16 = arith.subi %14, %c2_i32_4 : i32
      %17 = arith.muli %16, %8 : i32
      %18 = arith.cmpi uge, %6, %15 : i32
      %19 = arith.select %18, %17, %c0_i32_2 : i32
      %20 = arith.cmpi uge, %6, %8 : i32
      %21 = arith.cmpi ugt, %11, %c0_i32_2 : i32
      %22 = arith.andi %21, %20 : i1
      %c3_i32 = arith.constant 3 : i32
      %23 = arith.muli %8, %c3_i32 : i32
      %24 = arith.addi %19, %23 : i32
      %25 = arith.select %22, %24, %6 : i32
      %26 = arith.select %22, %19, %6 : i32
      %27 = nvvm.read.ptx.sreg.tid.x : i32
      %c32_i32 = arith.constant 32 : i32
      %28 = arith.divui %27, %c32_i32 : i32
      %c0_i32_5 = arith.constant 0 : i32
      %29 = arith.cmpi eq, %27, %c0_i32_5 : i32
      scf.if %29 {
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
      %c8_i32 = arith.constant 8 : i32
      %30 = arith.cmpi ult, %28, %c8_i32 : i32
      scf.if %30 {
        nvvm.setmaxregister  increase 240
        %c0_i32_6 = arith.constant 0 : i32
        %31 = nvvm.read.ptx.sreg.tid.x : i32
        %c128_i32_7 = arith.constant 128 : i32
        %32 = arith.divui %31, %c128_i32_7 : i32
        %33:2 = scf.for %arg8 = %7 to %25 step %8 iter_args(%arg9 = %c0_i32_6, %arg10 = %c0_i32_6) -> (i32, i32)  : i32 {
          %34:4 = "ws.stream_k_unit"(%arg8, %26, %6, %11, %8) : (i32, i32, i32, i32, i32) -> (i32, i32, i32, i32)
          %35 = arith.subi %34#2, %34#1 : i32
          %36 = arith.muli %35, %c64_i32 : i32
          %c0_i32_8 = arith.constant 0 : i32
          %37 = scf.for %arg11 = %c0_i32 to %36 step %c64_i32 iter_args(%arg12 = %c0_i32_8) -> (i32)  : i32 {
            %c1_i32_11 = arith.constant 1 : i32
            %42 = arith.addi %arg12, %c1_i32_11 : i32
            scf.yield %42 : i32
          }
          %c2_i32_9 = arith.constant 2 : i32
          %38 = arith.remui %arg10, %c2_i32_9 : i32
          %39 = arith.cmpi eq, %38, %32 : i32
          scf.if %39 {
            %c0_i32_11 = arith.constant 0 : i32
            %42 = arith.cmpi ugt, %arg10, %c0_i32_11 : i32
            scf.if %42 {
              %c1_i32_13 = arith.constant 1 : i32
              %56 = arith.subi %arg10, %c1_i32_13 : i32
              %57:2 = "ws.slot_phase"(%56) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
              "ws.wait"(%57#0, %57#1) {barrier = "full", channel = 3 : i32} : (i32, i32) -> ()
            }
            %43:2 = scf.for %arg11 = %c0_i32 to %36 step %c64_i32 iter_args(%arg12 = %arg9, %arg13 = %cst) -> (i32, tensor<128x128xf32>)  : i32 {
              %56:2 = "ws.slot_phase"(%arg12) {depth = 5 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
              "ws.wait"(%56#0, %56#1) {barrier = "full", channel = 0 : i32} : (i32, i32) -> ()
              nvvm.wgmma.fence.aligned
              %57 = "ws.mma"(%56#0, %arg13) {ring_a = 0 : i32, ring_b = 1 : i32, transpose_b} : (i32, tensor<128x128xf32>) -> tensor<128x128xf32>
              nvvm.wgmma.commit.group.sync.aligned
              nvvm.wgmma.wait.group.sync.aligned 1
              %c1_i32_13 = arith.constant 1 : i32
              %58 = arith.addi %arg9, %c1_i32_13 : i32
              %59 = arith.cmpi uge, %arg12, %58 : i32
              scf.if %59 {
                %61 = arith.subi %arg12, %c1_i32_13 : i32
                %62:2 = "ws.slot_phase"(%61) {depth = 5 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
                "ws.arrive"(%62#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()
              }
              %c1_i32_14 = arith.constant 1 : i32
              %60 = arith.addi %arg12, %c1_i32_14 : i32
              scf.yield %60, %57 : i32, tensor<128x128xf32>
            }
            %44:2 = "ws.slot_phase"(%arg10) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
            "ws.arrive"(%44#0) {barrier = "full", channel = 3 : i32} : (i32) -> ()
            nvvm.wgmma.wait.group.sync.aligned 0
            %c1_i32_12 = arith.constant 1 : i32
            %45 = arith.addi %arg9, %c1_i32_12 : i32
            %46 = arith.cmpi uge, %43#0, %45 : i32
            scf.if %46 {
              %56 = arith.subi %43#0, %c1_i32_12 : i32
              %57:2 = "ws.slot_phase"(%56) {depth = 5 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
              "ws.arrive"(%57#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()
            }
            %47:2 = "ws.slot_phase"(%arg10) {depth = 2 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%47#0, %47#1) {barrier = "full", channel = 1 : i32} : (i32, i32) -> ()
            %48 = "ws.read_slot"(%47#0) {ring = 2 : i32} : (i32) -> tensor<1x128xf16>
            nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
            "ws.arrive"(%47#0) {barrier = "empty", channel = 1 : i32} : (i32) -> ()
            %49 = "ws.stream_k_sum"(%43#1, %arg7, %34#1, %34#2, %11) : (tensor<128x128xf32>, i64, i32, i32, i32) -> tensor<128x128xf32>
            %50 = "ws.broadcast"(%48) {axis = 1 : i32} : (tensor<1x128xf16>) -> tensor<128x128xf16>
            %51 = arith.extf %50 : tensor<128x128xf16> to tensor<128x128xf32>
            %52 = arith.addf %49, %51 : tensor<128x128xf32>
            %53 = arith.maximumf %52, %cst : tensor<128x128xf32>
            %54 = arith.truncf %53 : tensor<128x128xf32> to tensor<128x128xf16>
            %55:2 = "ws.slot_phase"(%arg10) {depth = 2 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%55#0, %55#1) {barrier = "empty", channel = 2 : i32} : (i32, i32) -> ()
            "ws.write_slot"(%54, %55#0) {ring = 3 : i32} : (tensor<128x128xf16>, i32) -> ()
            nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
            "ws.arrive"(%55#0) {barrier = "full", channel = 2 : i32} : (i32) -> ()
          }
          %40 = arith.addi %arg9, %37 : i32
          %c1_i32_10 = arith.constant 1 : i32
          %41 = arith.addi %arg10, %c1_i32_10 : i32
          scf.yield %40, %41 : i32, i32
        }
      } else {
        nvvm.setmaxregister  decrease 24
        %c8_i32_6 = arith.constant 8 : i32
        %31 = arith.cmpi eq, %28, %c8_i32_6 : i32
        %32 = nvvm.elect.sync -> i1
        %33 = arith.andi %31, %32 : i1
        scf.if %33 {
          %c0_i32_7 = arith.constant 0 : i32
          %37:2 = scf.for %arg8 = %7 to %25 step %8 iter_args(%arg9 = %c0_i32_7, %arg10 = %c0_i32_7) -> (i32, i32)  : i32 {
            %38:4 = "ws.stream_k_unit"(%arg8, %26, %6, %11, %8) : (i32, i32, i32, i32, i32) -> (i32, i32, i32, i32)
            %39 = arith.subi %38#2, %38#1 : i32
            %40 = arith.muli %39, %c64_i32 : i32
            %41 = arith.subi %38#3, %38#1 : i32
            %42 = arith.muli %41, %c64_i32 : i32
            %43 = arith.muli %38#1, %c64_i32 : i32
            %c128_i32_8 = arith.constant 128 : i32
            %c1_i32_9 = arith.constant 1 : i32
            %44 = arith.subi %c128_i32_8, %c1_i32_9 : i32
            %45 = arith.addi %arg4, %44 : i32
            %46 = arith.divui %45, %c128_i32_8 : i32
            %c128_i32_10 = arith.constant 128 : i32
            %c1_i32_11 = arith.constant 1 : i32
            %47 = arith.subi %c128_i32_10, %c1_i32_11 : i32
            %48 = arith.addi %arg5, %47 : i32
            %49 = arith.divui %48, %c128_i32_10 : i32
            %c1_i32_12 = arith.constant 1 : i32
            %50 = arith.maxui %49, %c1_i32_12 : i32
            %c8_i32_13 = arith.constant 8 : i32
            %51 = arith.muli %50, %c8_i32_13 : i32
            %52 = arith.divui %38#0, %51 : i32
            %53 = arith.muli %52, %c8_i32_13 : i32
            %54 = arith.maxui %46, %53 : i32
            %55 = arith.subi %54, %53 : i32
            %56 = arith.minui %55, %c8_i32_13 : i32
            %57 = arith.maxui %56, %c1_i32_12 : i32
            %58 = arith.remui %38#0, %51 : i32
            %59 = arith.remui %58, %57 : i32
            %60 = arith.addi %53, %59 : i32
            %61 = arith.divui %58, %57 : i32
            %c128_i32_14 = arith.constant 128 : i32
            %62 = arith.muli %60, %c128_i32_14 : i32
            %c128_i32_15 = arith.constant 128 : i32
            %63 = arith.muli %61, %c128_i32_15 : i32
            %64 = scf.for %arg11 = %c0_i32 to %40 step %c64_i32 iter_args(%arg12 = %arg9) -> (i32)  : i32 {
              %67 = arith.addi %arg11, %42 : i32
              %68 = arith.subi %67, %40 : i32
              %69 = arith.cmpi uge, %67, %40 : i32
              %70 = arith.select %69, %68, %67 : i32
              %71 = arith.addi %70, %43 : i32
              %72:2 = "ws.slot_phase"(%arg12) {depth = 5 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
              "ws.wait"(%72#0, %72#1) {barrier = "empty", channel = 0 : i32} : (i32, i32) -> ()
              "ws.arrive_expect_tx"(%72#0) {bytes = 32768 : i32, channel = 0 : i32} : (i32) -> ()
              "ws.tma_load"(%arg0, %62, %71, %72#0) {ring = 0 : i32} : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32, i32) -> ()
              "ws.tma_load"(%arg1, %63, %71, %72#0) {ring = 1 : i32} : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32, i32) -> ()
              %c1_i32_17 = arith.constant 1 : i32
              %73 = arith.addi %arg12, %c1_i32_17 : i32
              scf.yield %73 : i32
            }
            %65:2 = "ws.slot_phase"(%arg10) {depth = 2 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%65#0, %65#1) {barrier = "empty", channel = 1 : i32} : (i32, i32) -> ()
            "ws.arrive_expect_tx"(%65#0) {bytes = 256 : i32, channel = 1 : i32} : (i32) -> ()
            "ws.tma_load"(%arg3, %c0_i32, %63, %65#0) {ring = 2 : i32} : (!ws.tensor_desc<tensor<1x128xf16>>, i32, i32, i32) -> ()
            %c1_i32_16 = arith.constant 1 : i32
            %66 = arith.addi %arg10, %c1_i32_16 : i32
            scf.yield %64, %66 : i32, i32
          }
        }
        %c9_i32 = arith.constant 9 : i32
        %34 = arith.cmpi eq, %28, %c9_i32 : i32
        %35 = nvvm.elect.sync -> i1
        %36 = arith.andi %34, %35 : i1
        scf.if %36 {
          %c0_i32_7 = arith.constant 0 : i32
          %37 = scf.for %arg8 = %7 to %25 step %8 iter_args(%arg9 = %c0_i32_7) -> (i32)  : i32 {
            %38:4 = "ws.stream_k_unit"(%arg8, %26, %6, %11, %8) : (i32, i32, i32, i32, i32) -> (i32, i32, i32, i32)
            %39 = arith.subi %38#2, %38#1 : i32
            %40 = arith.muli %39, %c64_i32 : i32
            %c128_i32_8 = arith.constant 128 : i32
            %c1_i32_9 = arith.constant 1 : i32
            %41 = arith.subi %c128_i32_8, %c1_i32_9 : i32
            %42 = arith.addi %arg4, %41 : i32
            %43 = arith.divui %42, %c128_i32_8 : i32
            %c128_i32_10 = arith.constant 128 : i32
            %c1_i32_11 = arith.constant 1 : i32
            %44 = arith.subi %c128_i32_10, %c1_i32_11 : i32
            %45 = arith.addi %arg5, %44 : i32
            %46 = arith.divui %45, %c128_i32_10 : i32
            %c1_i32_12 = arith.constant 1 : i32
            %47 = arith.maxui %46, %c1_i32_12 : i32
            %c8_i32_13 = arith.constant 8 : i32
            %48 = arith.muli %47, %c8_i32_13 : i32
            %49 = arith.divui %38#0, %48 : i32
            %50 = arith.muli %49, %c8_i32_13 : i32
            %51 = arith.maxui %43, %50 : i32
            %52 = arith.subi %51, %50 : i32
            %53 = arith.minui %52, %c8_i32_13 : i32
            %54 = arith.maxui %53, %c1_i32_12 : i32
            %55 = arith.remui %38#0, %48 : i32
            %56 = arith.remui %55, %54 : i32
            %57 = arith.addi %50, %56 : i32
            %58 = arith.divui %55, %54 : i32
            %c128_i32_14 = arith.constant 128 : i32
            %59 = arith.muli %57, %c128_i32_14 : i32
            %c128_i32_15 = arith.constant 128 : i32
            %60 = arith.muli %58, %c128_i32_15 : i32
            %61 = arith.cmpi eq, %38#2, %11 : i32
            %c-1073741824_i32 = arith.constant -1073741824 : i32
            %62 = arith.select %61, %60, %c-1073741824_i32 : i32
            %63:2 = "ws.slot_phase"(%arg9) {depth = 2 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%63#0, %63#1) {barrier = "full", channel = 2 : i32} : (i32, i32) -> ()
            "ws.tma_store"(%arg2, %59, %62, %63#0) {ring = 3 : i32} : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, i32) -> ()
            nvvm.cp.async.bulk.commit.group
            nvvm.cp.async.bulk.wait_group 1 {read}
            %c1_i32_16 = arith.constant 1 : i32
            %64 = arith.cmpi uge, %arg9, %c1_i32_16 : i32
            scf.if %64 {
              %66 = arith.subi %arg9, %c1_i32_16 : i32
              %67:2 = "ws.slot_phase"(%66) {depth = 2 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
              "ws.arrive"(%67#0) {barrier = "empty", channel = 2 : i32} : (i32) -> ()
            }
            %c1_i32_17 = arith.constant 1 : i32
            %65 = arith.addi %arg9, %c1_i32_17 : i32
            scf.yield %65 : i32
          }
          nvvm.cp.async.bulk.wait_group 0
        }
      }
      gpu.return
    }
  }
}

