// A saved plan: ws-opt --ws-pipeline=stage=plan of the matmul suite's cooperative persistent matmul with split-K and a residual (pmm_128x128x64_w8_coop_sk_residual of integration/matmul/variants.py).
// The check-protocol-*.mlir tests and the proof's mutation campaign edit it.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @pmm_128x128x64_w8_coop_sk_residual(%arg0: !ws.tensor_desc<tensor<128x64xbf16>>, %arg1: !ws.tensor_desc<tensor<64x128xbf16>>, %arg2: !ws.tensor_desc<tensor<128x128xbf16>>, %arg3: !ws.tensor_desc<tensor<128x128xbf16>>, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: f32, %arg8: f32, %arg9: i64) kernel attributes {ws.block_threads = 384 : i32, ws.blocks_per_sm = 1 : i32, ws.channels = [{consumer_phase = 0 : i32, depth = 5 : i32, drain = 0 : i32, empty = 229416 : i32, empty_arrivals = 256 : i32, expect_tx = 32768 : i32, from = "load", full = 229376 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "compute"}, {consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 229464 : i32, empty_arrivals = 256 : i32, expect_tx = 32768 : i32, from = "load", full = 229456 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = true, to = "compute"}, {consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 229480 : i32, empty_arrivals = 1 : i32, expect_tx = 0 : i32, from = "compute", full = 229472 : i32, full_arrivals = 256 : i32, producer_phase = 1 : i32, publish_fence = true, release_fence = false, to = "store"}], ws.maxnreg = 168 : i32, ws.num_warps = 8 : i32, ws.partitions = [{first_warp = 8 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 8 : i32, registers = 240 : i32, role = "compute"}, {first_warp = 9 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}], ws.persistent, ws.rings = [{align = 1024 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32, tile = tensor<128x64xbf16>}, {align = 1024 : i32, channel = 0 : i32, offset = 81920 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32, tile = tensor<64x128xbf16>}, {align = 1024 : i32, channel = 1 : i32, offset = 163840 : i32, slot_bytes = 32768 : i32, swizzle = 128 : i32, tile = tensor<128x128xbf16>}, {align = 1024 : i32, channel = 2 : i32, offset = 196608 : i32, slot_bytes = 32768 : i32, swizzle = 128 : i32, tile = tensor<128x128xbf16>}], ws.smem_bytes = 229488 : i32, ws.workspace_per_block = 65664 : i32} {
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
      %c1_i32_2 = arith.constant 1 : i32
      %12 = arith.maxui %6, %c1_i32_2 : i32
      %13 = arith.divui %8, %12 : i32
      %c8_i32 = arith.constant 8 : i32
      %14 = arith.divui %11, %c8_i32 : i32
      %c4_i32 = arith.constant 4 : i32
      %15 = arith.minui %14, %c4_i32 : i32
      %16 = arith.minui %13, %15 : i32
      %17 = arith.maxui %16, %c1_i32_2 : i32
      %c1_i32_3 = arith.constant 1 : i32
      %18 = arith.subi %17, %c1_i32_3 : i32
      %19 = arith.addi %11, %18 : i32
      %20 = arith.divui %19, %17 : i32
      %21 = arith.muli %20, %c64_i32 : i32
      %22 = arith.muli %6, %17 : i32
      %23 = nvvm.read.ptx.sreg.tid.x : i32
      %c32_i32 = arith.constant 32 : i32
      %24 = arith.divui %23, %c32_i32 : i32
      %c0_i32_4 = arith.constant 0 : i32
      %25 = arith.cmpi eq, %23, %c0_i32_4 : i32
      scf.if %25 {
        "ws.init_barrier"() {barrier = "full", channel = 0 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 0 : i32, count = 256 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "full", channel = 1 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 1 : i32, count = 256 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "full", channel = 2 : i32, count = 256 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 2 : i32, count = 1 : i32} : () -> ()
        nvvm.fence.mbarrier.init
      }
      nvvm.barrier0
      %c8_i32_5 = arith.constant 8 : i32
      %26 = arith.cmpi ult, %24, %c8_i32_5 : i32
      scf.if %26 {
        nvvm.setmaxregister  increase 240
        %c0_i32_6 = arith.constant 0 : i32
        %27:2 = scf.for %arg10 = %7 to %22 step %8 iter_args(%arg11 = %c0_i32_6, %arg12 = %c0_i32_6) -> (i32, i32)  : i32 {
          %28:2 = scf.for %arg13 = %c0_i32 to %21 step %c64_i32 iter_args(%arg14 = %arg11, %arg15 = %cst) -> (i32, tensor<128x128xf32>)  : i32 {
            %41:2 = "ws.slot_phase"(%arg14) {depth = 5 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%41#0, %41#1) {barrier = "full", channel = 0 : i32} : (i32, i32) -> ()
            nvvm.wgmma.fence.aligned
            %42 = "ws.mma"(%41#0, %arg15) {ring_a = 0 : i32, ring_b = 1 : i32} : (i32, tensor<128x128xf32>) -> tensor<128x128xf32>
            nvvm.wgmma.commit.group.sync.aligned
            nvvm.wgmma.wait.group.sync.aligned 1
            %c1_i32_10 = arith.constant 1 : i32
            %43 = arith.addi %arg11, %c1_i32_10 : i32
            %44 = arith.cmpi uge, %arg14, %43 : i32
            scf.if %44 {
              %46 = arith.subi %arg14, %c1_i32_10 : i32
              %47:2 = "ws.slot_phase"(%46) {depth = 5 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
              "ws.arrive"(%47#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()
            }
            %c1_i32_11 = arith.constant 1 : i32
            %45 = arith.addi %arg14, %c1_i32_11 : i32
            scf.yield %45, %42 : i32, tensor<128x128xf32>
          }
          nvvm.wgmma.wait.group.sync.aligned 0
          %c1_i32_7 = arith.constant 1 : i32
          %29 = arith.addi %arg11, %c1_i32_7 : i32
          %30 = arith.cmpi uge, %28#0, %29 : i32
          scf.if %30 {
            %41 = arith.subi %28#0, %c1_i32_7 : i32
            %42:2 = "ws.slot_phase"(%41) {depth = 5 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            "ws.arrive"(%42#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()
          }
          %31:2 = "ws.slot_phase"(%arg12) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%31#0, %31#1) {barrier = "full", channel = 1 : i32} : (i32, i32) -> ()
          %32 = "ws.read_slot"(%31#0) {ring = 2 : i32} : (i32) -> tensor<128x128xbf16>
          nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
          "ws.arrive"(%31#0) {barrier = "empty", channel = 1 : i32} : (i32) -> ()
          %33 = "ws.split_k_sum"(%28#1, %arg9, %arg10, %17) : (tensor<128x128xf32>, i64, i32, i32) -> tensor<128x128xf32>
          %34 = arith.extf %32 : tensor<128x128xbf16> to tensor<128x128xf32>
          %splat = tensor.splat %arg7 : tensor<128x128xf32>
          %splat_8 = tensor.splat %arg8 : tensor<128x128xf32>
          %35 = arith.mulf %33, %splat : tensor<128x128xf32>
          %36 = arith.mulf %34, %splat_8 : tensor<128x128xf32>
          %37 = arith.addf %35, %36 : tensor<128x128xf32>
          %38 = arith.truncf %37 : tensor<128x128xf32> to tensor<128x128xbf16>
          %39:2 = "ws.slot_phase"(%arg12) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%39#0, %39#1) {barrier = "empty", channel = 2 : i32} : (i32, i32) -> ()
          "ws.write_slot"(%38, %39#0) {ring = 3 : i32} : (tensor<128x128xbf16>, i32) -> ()
          nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
          "ws.arrive"(%39#0) {barrier = "full", channel = 2 : i32} : (i32) -> ()
          %c1_i32_9 = arith.constant 1 : i32
          %40 = arith.addi %arg12, %c1_i32_9 : i32
          scf.yield %28#0, %40 : i32, i32
        }
      } else {
        nvvm.setmaxregister  decrease 24
        %c8_i32_6 = arith.constant 8 : i32
        %27 = arith.cmpi eq, %24, %c8_i32_6 : i32
        %28 = nvvm.elect.sync -> i1
        %29 = arith.andi %27, %28 : i1
        scf.if %29 {
          %c0_i32_7 = arith.constant 0 : i32
          %33:2 = scf.for %arg10 = %7 to %22 step %8 iter_args(%arg11 = %c0_i32_7, %arg12 = %c0_i32_7) -> (i32, i32)  : i32 {
            %34 = arith.divui %arg10, %17 : i32
            %35 = arith.remui %arg10, %17 : i32
            %36 = arith.muli %35, %21 : i32
            %c128_i32_8 = arith.constant 128 : i32
            %c1_i32_9 = arith.constant 1 : i32
            %37 = arith.subi %c128_i32_8, %c1_i32_9 : i32
            %38 = arith.addi %arg4, %37 : i32
            %39 = arith.divui %38, %c128_i32_8 : i32
            %c128_i32_10 = arith.constant 128 : i32
            %c1_i32_11 = arith.constant 1 : i32
            %40 = arith.subi %c128_i32_10, %c1_i32_11 : i32
            %41 = arith.addi %arg5, %40 : i32
            %42 = arith.divui %41, %c128_i32_10 : i32
            %c1_i32_12 = arith.constant 1 : i32
            %43 = arith.maxui %42, %c1_i32_12 : i32
            %c8_i32_13 = arith.constant 8 : i32
            %44 = arith.muli %43, %c8_i32_13 : i32
            %45 = arith.divui %34, %44 : i32
            %46 = arith.muli %45, %c8_i32_13 : i32
            %47 = arith.maxui %39, %46 : i32
            %48 = arith.subi %47, %46 : i32
            %49 = arith.minui %48, %c8_i32_13 : i32
            %50 = arith.maxui %49, %c1_i32_12 : i32
            %51 = arith.remui %34, %44 : i32
            %52 = arith.remui %51, %50 : i32
            %53 = arith.addi %46, %52 : i32
            %54 = arith.divui %51, %50 : i32
            %c128_i32_14 = arith.constant 128 : i32
            %55 = arith.muli %53, %c128_i32_14 : i32
            %c128_i32_15 = arith.constant 128 : i32
            %56 = arith.muli %54, %c128_i32_15 : i32
            %57 = scf.for %arg13 = %c0_i32 to %21 step %c64_i32 iter_args(%arg14 = %arg11) -> (i32)  : i32 {
              %60 = arith.addi %arg13, %36 : i32
              %61:2 = "ws.slot_phase"(%arg14) {depth = 5 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
              "ws.wait"(%61#0, %61#1) {barrier = "empty", channel = 0 : i32} : (i32, i32) -> ()
              "ws.arrive_expect_tx"(%61#0) {bytes = 32768 : i32, channel = 0 : i32} : (i32) -> ()
              "ws.tma_load"(%arg0, %55, %60, %61#0) {ring = 0 : i32} : (!ws.tensor_desc<tensor<128x64xbf16>>, i32, i32, i32) -> ()
              "ws.tma_load"(%arg1, %60, %56, %61#0) {ring = 1 : i32} : (!ws.tensor_desc<tensor<64x128xbf16>>, i32, i32, i32) -> ()
              %c1_i32_17 = arith.constant 1 : i32
              %62 = arith.addi %arg14, %c1_i32_17 : i32
              scf.yield %62 : i32
            }
            %58:2 = "ws.slot_phase"(%arg12) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%58#0, %58#1) {barrier = "empty", channel = 1 : i32} : (i32, i32) -> ()
            "ws.arrive_expect_tx"(%58#0) {bytes = 32768 : i32, channel = 1 : i32} : (i32) -> ()
            "ws.tma_load"(%arg3, %55, %56, %58#0) {ring = 2 : i32} : (!ws.tensor_desc<tensor<128x128xbf16>>, i32, i32, i32) -> ()
            %c1_i32_16 = arith.constant 1 : i32
            %59 = arith.addi %arg12, %c1_i32_16 : i32
            scf.yield %57, %59 : i32, i32
          }
        }
        %c9_i32 = arith.constant 9 : i32
        %30 = arith.cmpi eq, %24, %c9_i32 : i32
        %31 = nvvm.elect.sync -> i1
        %32 = arith.andi %30, %31 : i1
        scf.if %32 {
          %c0_i32_7 = arith.constant 0 : i32
          %33 = scf.for %arg10 = %7 to %22 step %8 iter_args(%arg11 = %c0_i32_7) -> (i32)  : i32 {
            %34 = arith.divui %arg10, %17 : i32
            %35 = arith.remui %arg10, %17 : i32
            %c128_i32_8 = arith.constant 128 : i32
            %c1_i32_9 = arith.constant 1 : i32
            %36 = arith.subi %c128_i32_8, %c1_i32_9 : i32
            %37 = arith.addi %arg4, %36 : i32
            %38 = arith.divui %37, %c128_i32_8 : i32
            %c128_i32_10 = arith.constant 128 : i32
            %c1_i32_11 = arith.constant 1 : i32
            %39 = arith.subi %c128_i32_10, %c1_i32_11 : i32
            %40 = arith.addi %arg5, %39 : i32
            %41 = arith.divui %40, %c128_i32_10 : i32
            %c1_i32_12 = arith.constant 1 : i32
            %42 = arith.maxui %41, %c1_i32_12 : i32
            %c8_i32_13 = arith.constant 8 : i32
            %43 = arith.muli %42, %c8_i32_13 : i32
            %44 = arith.divui %34, %43 : i32
            %45 = arith.muli %44, %c8_i32_13 : i32
            %46 = arith.maxui %38, %45 : i32
            %47 = arith.subi %46, %45 : i32
            %48 = arith.minui %47, %c8_i32_13 : i32
            %49 = arith.maxui %48, %c1_i32_12 : i32
            %50 = arith.remui %34, %43 : i32
            %51 = arith.remui %50, %49 : i32
            %52 = arith.addi %45, %51 : i32
            %53 = arith.divui %50, %49 : i32
            %c128_i32_14 = arith.constant 128 : i32
            %54 = arith.muli %52, %c128_i32_14 : i32
            %c128_i32_15 = arith.constant 128 : i32
            %55 = arith.muli %53, %c128_i32_15 : i32
            %c1_i32_16 = arith.constant 1 : i32
            %56 = arith.subi %17, %c1_i32_16 : i32
            %57 = arith.cmpi eq, %35, %56 : i32
            %c-1073741824_i32 = arith.constant -1073741824 : i32
            %58 = arith.select %57, %55, %c-1073741824_i32 : i32
            %59:2 = "ws.slot_phase"(%arg11) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%59#0, %59#1) {barrier = "full", channel = 2 : i32} : (i32, i32) -> ()
            "ws.tma_store"(%arg2, %54, %58, %59#0) {ring = 3 : i32} : (!ws.tensor_desc<tensor<128x128xbf16>>, i32, i32, i32) -> ()
            nvvm.cp.async.bulk.commit.group
            nvvm.cp.async.bulk.wait_group 0 {read}
            %c0_i32_17 = arith.constant 0 : i32
            %60 = arith.cmpi uge, %arg11, %c0_i32_17 : i32
            scf.if %60 {
              %62 = arith.subi %arg11, %c0_i32_17 : i32
              %63:2 = "ws.slot_phase"(%62) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
              "ws.arrive"(%63#0) {barrier = "empty", channel = 2 : i32} : (i32) -> ()
            }
            %c1_i32_18 = arith.constant 1 : i32
            %61 = arith.addi %arg11, %c1_i32_18 : i32
            scf.yield %61 : i32
          }
          nvvm.cp.async.bulk.wait_group 0
        }
      }
      gpu.return
    }
  }
}

