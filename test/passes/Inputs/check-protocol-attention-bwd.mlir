// attention_bwd.mlir's @attention_dkdv (D = 64, bf16, causal), saved specialized
// by ws-opt --ws-pipeline='stage=plan kernel=attention_dkdv' for check-protocol-attention-bwd.mlir.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @attention_dkdv(%arg0: !ws.tensor_desc<tensor<1x1x64x64xbf16>>, %arg1: !ws.tensor_desc<tensor<1x1x128x64xbf16>>, %arg2: !ws.tensor_desc<tensor<1x1x128x64xbf16>>, %arg3: !ws.tensor_desc<tensor<1x1x64x64xbf16>>, %arg4: !ws.tensor_desc<tensor<1x1x1x64xf32>>, %arg5: !ws.tensor_desc<tensor<1x1x1x64xf32>>, %arg6: !ws.tensor_desc<tensor<1x1x128x64xbf16>>, %arg7: !ws.tensor_desc<tensor<1x1x128x64xbf16>>, %arg8: i32, %arg9: i32, %arg10: memref<?xi32>, %arg11: memref<?xi32>, %arg12: i32, %arg13: i32, %arg14: f32, %arg15: f32, %arg16: f32) kernel attributes {ws.block_threads = 384 : i32, ws.blocks_per_sm = 1 : i32, ws.channels = [{consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 133128 : i32, empty_arrivals = 256 : i32, expect_tx = 32768 : i32, from = "load", full = 133120 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "compute"}, {consumer_phase = 0 : i32, depth = 4 : i32, drain = 0 : i32, empty = 133168 : i32, empty_arrivals = 256 : i32, expect_tx = 16896 : i32, from = "load", full = 133136 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = true, to = "compute"}, {consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 133208 : i32, empty_arrivals = 1 : i32, expect_tx = 0 : i32, from = "compute", full = 133200 : i32, full_arrivals = 256 : i32, producer_phase = 1 : i32, publish_fence = true, release_fence = false, to = "store"}, {consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 133224 : i32, empty_arrivals = 128 : i32, expect_tx = 0 : i32, from = "compute", full = 133216 : i32, full_arrivals = 128 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "compute"}], ws.maxnreg = 168 : i32, ws.num_warps = 8 : i32, ws.partitions = [{first_warp = 8 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 8 : i32, registers = 240 : i32, role = "compute", turns = true}, {first_warp = 9 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}], ws.rings = [{align = 1024 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32, tile = tensor<128x64xbf16>}, {align = 1024 : i32, channel = 0 : i32, offset = 16384 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32, tile = tensor<128x64xbf16>}, {align = 1024 : i32, channel = 1 : i32, offset = 32768 : i32, slot_bytes = 8192 : i32, swizzle = 128 : i32, tile = tensor<64x64xbf16>}, {align = 1024 : i32, channel = 1 : i32, offset = 65536 : i32, slot_bytes = 8192 : i32, swizzle = 128 : i32, tile = tensor<64x64xbf16>}, {align = 128 : i32, channel = 1 : i32, offset = 98304 : i32, slot_bytes = 256 : i32, swizzle = 0 : i32, tile = tensor<1x64xf32>}, {align = 128 : i32, channel = 1 : i32, offset = 99328 : i32, slot_bytes = 256 : i32, swizzle = 0 : i32, tile = tensor<1x64xf32>}, {align = 1024 : i32, channel = 2 : i32, offset = 100352 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32, tile = tensor<128x64xbf16>}, {align = 1024 : i32, channel = 2 : i32, offset = 116736 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32, tile = tensor<128x64xbf16>}], ws.smem_bytes = 133232 : i32} {
      %c0_i32 = arith.constant 0 : i32
      %c1_i32 = arith.constant 1 : i32
      %c64_i32 = arith.constant 64 : i32
      %c63_i32 = arith.constant 63 : i32
      %c128_i32 = arith.constant 128 : i32
      %block_id_x = gpu.block_id  x
      %block_id_y = gpu.block_id  y
      %block_id_z = gpu.block_id  z
      %0 = arith.index_cast %block_id_x : index to i32
      %1 = arith.index_cast %block_id_y : index to i32
      %2 = arith.index_cast %block_id_z : index to i32
      %3 = arith.muli %0, %c128_i32 : i32
      %4 = arith.muli %1, %arg13 : i32
      %5 = arith.addi %arg8, %c63_i32 : i32
      %6 = arith.divui %5, %c64_i32 : i32
      %7 = arith.subi %3, %arg12 : i32
      %8 = arith.maxsi %7, %c0_i32 : i32
      %9 = arith.divui %8, %c64_i32 : i32
      %10 = arith.subi %6, %9 : i32
      %11 = arith.maxsi %10, %c0_i32 : i32
      %12 = arith.muli %arg13, %11 : i32
      %13 = arith.subi %arg12, %3 : i32
      %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
      %cst_0 = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
      %14 = nvvm.read.ptx.sreg.tid.x : i32
      %c32_i32 = arith.constant 32 : i32
      %15 = arith.divui %14, %c32_i32 : i32
      %c0_i32_1 = arith.constant 0 : i32
      %16 = arith.cmpi eq, %14, %c0_i32_1 : i32
      scf.if %16 {
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
      %17 = arith.cmpi ult, %15, %c8_i32 : i32
      scf.if %17 {
        nvvm.setmaxregister  increase 240
        %c0_i32_2 = arith.constant 0 : i32
        %c0_i32_3 = arith.constant 0 : i32
        %18:2 = "ws.slot_phase"(%c0_i32_3) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
        "ws.wait"(%18#0, %18#1) {barrier = "full", channel = 0 : i32} : (i32, i32) -> ()
        %19 = nvvm.read.ptx.sreg.tid.x : i32
        %c128_i32_4 = arith.constant 128 : i32
        %20 = arith.divui %19, %c128_i32_4 : i32
        %c0_i32_5 = arith.constant 0 : i32
        %21 = arith.cmpi ugt, %20, %c0_i32_5 : i32
        scf.if %21 {
          %c0_i32_9 = arith.constant 0 : i32
          %c0_i32_10 = arith.constant 0 : i32
          %33 = arith.addi %20, %c0_i32_10 : i32
          %c2_i32_11 = arith.constant 2 : i32
          %34 = arith.muli %c0_i32_9, %c2_i32_11 : i32
          %35 = arith.addi %34, %33 : i32
          %c1_i32_12 = arith.constant 1 : i32
          %36 = arith.subi %35, %c1_i32_12 : i32
          %37:2 = "ws.slot_phase"(%36) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%37#0, %37#1) {barrier = "full", channel = 3 : i32} : (i32, i32) -> ()
        }
        %22:3 = scf.for %arg17 = %c0_i32 to %12 step %c1_i32 iter_args(%arg18 = %c0_i32_2, %arg19 = %cst_0, %arg20 = %cst_0) -> (i32, tensor<128x64xf32>, tensor<128x64xf32>)  : i32 {
          %33:2 = "ws.slot_phase"(%arg18) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%33#0, %33#1) {barrier = "full", channel = 1 : i32} : (i32, i32) -> ()
          nvvm.wgmma.fence.aligned
          %34 = arith.remui %arg17, %11 : i32
          %35 = arith.addi %34, %9 : i32
          %36 = arith.muli %35, %c64_i32 : i32
          %37 = "ws.mma"(%33#0, %cst, %18#0) {ring_a = 0 : i32, ring_b = 2 : i32, transpose_b} : (i32, tensor<128x64xf32>, i32) -> tensor<128x64xf32>
          nvvm.wgmma.commit.group.sync.aligned
          %c0_i32_9 = arith.constant 0 : i32
          %38 = arith.addi %20, %c0_i32_9 : i32
          %c2_i32_10 = arith.constant 2 : i32
          %39 = arith.muli %arg18, %c2_i32_10 : i32
          %40 = arith.addi %39, %38 : i32
          %41:2 = "ws.slot_phase"(%40) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
          "ws.arrive"(%41#0) {barrier = "full", channel = 3 : i32} : (i32) -> ()
          %cst_11 = arith.constant dense<0xFF800000> : tensor<128x64xf32>
          %42 = "ws.iota"() {axis = 0 : i32} : () -> tensor<128x64xi32>
          %43 = "ws.iota"() {axis = 1 : i32} : () -> tensor<128x64xi32>
          %44 = arith.addi %36, %13 : i32
          %splat_12 = tensor.splat %44 : tensor<128x64xi32>
          %45 = arith.addi %43, %splat_12 : tensor<128x64xi32>
          %46 = arith.cmpi sgt, %42, %45 : tensor<128x64xi32>
          nvvm.wgmma.wait.group.sync.aligned 0
          %c1_i32_13 = arith.constant 1 : i32
          %47 = arith.cmpi uge, %arg18, %c1_i32_13 : i32
          scf.if %47 {
            %69 = arith.subi %arg18, %c1_i32_13 : i32
            %70:2 = "ws.slot_phase"(%69) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
            "ws.arrive"(%70#0) {barrier = "empty", channel = 1 : i32} : (i32) -> ()
          }
          %48 = arith.select %46, %cst_11, %37 : tensor<128x64xi1>, tensor<128x64xf32>
          %splat_14 = tensor.splat %arg14 : tensor<128x64xf32>
          %49 = arith.mulf %48, %splat_14 fastmath<contract> : tensor<128x64xf32>
          %50 = "ws.read_slot"(%33#0) {ring = 4 : i32} : (i32) -> tensor<1x64xf32>
          %51 = "ws.broadcast"(%50) {axis = 1 : i32} : (tensor<1x64xf32>) -> tensor<128x64xf32>
          %52 = arith.subf %49, %51 fastmath<contract> : tensor<128x64xf32>
          %53 = math.exp2 %52 fastmath<afn> : tensor<128x64xf32>
          nvvm.wgmma.fence.aligned
          %54 = "ws.mma"(%33#0, %cst, %18#0) {ring_a = 1 : i32, ring_b = 3 : i32, transpose_b} : (i32, tensor<128x64xf32>, i32) -> tensor<128x64xf32>
          %55 = "ws.read_slot"(%33#0) {ring = 5 : i32} : (i32) -> tensor<1x64xf32>
          %56 = "ws.broadcast"(%55) {axis = 1 : i32} : (tensor<1x64xf32>) -> tensor<128x64xf32>
          nvvm.wgmma.commit.group.sync.aligned
          nvvm.wgmma.wait.group.sync.aligned 0
          %57 = arith.subf %54, %56 : tensor<128x64xf32>
          %58 = arith.mulf %53, %57 : tensor<128x64xf32>
          %59 = arith.truncf %53 : tensor<128x64xf32> to tensor<128x64xbf16>
          %60 = arith.truncf %58 : tensor<128x64xf32> to tensor<128x64xbf16>
          %c2_i32_15 = arith.constant 2 : i32
          %61 = arith.addi %20, %c2_i32_15 : i32
          %c2_i32_16 = arith.constant 2 : i32
          %62 = arith.muli %arg18, %c2_i32_16 : i32
          %63 = arith.addi %62, %61 : i32
          %c1_i32_17 = arith.constant 1 : i32
          %64 = arith.subi %63, %c1_i32_17 : i32
          %65:2 = "ws.slot_phase"(%64) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%65#0, %65#1) {barrier = "full", channel = 3 : i32} : (i32, i32) -> ()
          nvvm.wgmma.fence.aligned
          %66 = "ws.mma"(%33#0, %arg20, %59) {ring_b = 3 : i32} : (i32, tensor<128x64xf32>, tensor<128x64xbf16>) -> tensor<128x64xf32>
          %67 = "ws.mma"(%33#0, %arg19, %60) {ring_b = 2 : i32} : (i32, tensor<128x64xf32>, tensor<128x64xbf16>) -> tensor<128x64xf32>
          nvvm.wgmma.commit.group.sync.aligned
          %c1_i32_18 = arith.constant 1 : i32
          %68 = arith.addi %arg18, %c1_i32_18 : i32
          scf.yield %68, %67, %66 : i32, tensor<128x64xf32>, tensor<128x64xf32>
        }
        %c0_i32_6 = arith.constant 0 : i32
        %23 = arith.addi %20, %c0_i32_6 : i32
        %c2_i32 = arith.constant 2 : i32
        %24 = arith.muli %22#0, %c2_i32 : i32
        %25 = arith.addi %24, %23 : i32
        %26:2 = "ws.slot_phase"(%25) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
        "ws.arrive"(%26#0) {barrier = "full", channel = 3 : i32} : (i32) -> ()
        nvvm.wgmma.wait.group.sync.aligned 0
        %c1_i32_7 = arith.constant 1 : i32
        %27 = arith.cmpi uge, %22#0, %c1_i32_7 : i32
        scf.if %27 {
          %33 = arith.subi %22#0, %c1_i32_7 : i32
          %34:2 = "ws.slot_phase"(%33) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
          "ws.arrive"(%34#0) {barrier = "empty", channel = 1 : i32} : (i32) -> ()
        }
        %c0_i32_8 = arith.constant 0 : i32
        %28:2 = "ws.slot_phase"(%c0_i32_8) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
        "ws.arrive"(%28#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()
        %splat = tensor.splat %arg16 : tensor<128x64xf32>
        %29 = arith.mulf %22#1, %splat : tensor<128x64xf32>
        %30 = arith.truncf %29 : tensor<128x64xf32> to tensor<128x64xbf16>
        %31 = arith.truncf %22#2 : tensor<128x64xf32> to tensor<128x64xbf16>
        %32:2 = "ws.slot_phase"(%c0_i32_2) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
        "ws.wait"(%32#0, %32#1) {barrier = "empty", channel = 2 : i32} : (i32, i32) -> ()
        "ws.write_slot"(%30, %32#0) {ring = 6 : i32} : (tensor<128x64xbf16>, i32) -> ()
        "ws.write_slot"(%31, %32#0) {ring = 7 : i32} : (tensor<128x64xbf16>, i32) -> ()
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
        "ws.arrive"(%32#0) {barrier = "full", channel = 2 : i32} : (i32) -> ()
      } else {
        nvvm.setmaxregister  decrease 24
        %c8_i32_2 = arith.constant 8 : i32
        %18 = arith.cmpi eq, %15, %c8_i32_2 : i32
        %19 = nvvm.elect.sync -> i1
        %20 = arith.andi %18, %19 : i1
        scf.if %20 {
          %c0_i32_3 = arith.constant 0 : i32
          %24:2 = "ws.slot_phase"(%c0_i32_3) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%24#0, %24#1) {barrier = "empty", channel = 0 : i32} : (i32, i32) -> ()
          "ws.arrive_expect_tx"(%24#0) {bytes = 32768 : i32, channel = 0 : i32} : (i32) -> ()
          "ws.tma_load"(%arg1, %2, %1, %3, %c0_i32, %24#0) {ring = 0 : i32} : (!ws.tensor_desc<tensor<1x1x128x64xbf16>>, i32, i32, i32, i32, i32) -> ()
          "ws.tma_load"(%arg2, %2, %1, %3, %c0_i32, %24#0) {ring = 1 : i32} : (!ws.tensor_desc<tensor<1x1x128x64xbf16>>, i32, i32, i32, i32, i32) -> ()
          %25 = scf.for %arg17 = %c0_i32 to %12 step %c1_i32 iter_args(%arg18 = %c0_i32_3) -> (i32)  : i32 {
            %26 = arith.divui %arg17, %11 : i32
            %27 = arith.remui %arg17, %11 : i32
            %28 = arith.addi %4, %26 : i32
            %29 = arith.addi %27, %9 : i32
            %30 = arith.muli %29, %c64_i32 : i32
            %31:2 = "ws.slot_phase"(%arg18) {depth = 4 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%31#0, %31#1) {barrier = "empty", channel = 1 : i32} : (i32, i32) -> ()
            "ws.arrive_expect_tx"(%31#0) {bytes = 16896 : i32, channel = 1 : i32} : (i32) -> ()
            "ws.tma_load"(%arg0, %2, %28, %30, %c0_i32, %31#0) {ring = 2 : i32} : (!ws.tensor_desc<tensor<1x1x64x64xbf16>>, i32, i32, i32, i32, i32) -> ()
            "ws.tma_load"(%arg3, %2, %28, %30, %c0_i32, %31#0) {ring = 3 : i32} : (!ws.tensor_desc<tensor<1x1x64x64xbf16>>, i32, i32, i32, i32, i32) -> ()
            "ws.tma_load"(%arg4, %2, %28, %c0_i32, %30, %31#0) {ring = 4 : i32} : (!ws.tensor_desc<tensor<1x1x1x64xf32>>, i32, i32, i32, i32, i32) -> ()
            "ws.tma_load"(%arg5, %2, %28, %c0_i32, %30, %31#0) {ring = 5 : i32} : (!ws.tensor_desc<tensor<1x1x1x64xf32>>, i32, i32, i32, i32, i32) -> ()
            %c1_i32_4 = arith.constant 1 : i32
            %32 = arith.addi %arg18, %c1_i32_4 : i32
            scf.yield %32 : i32
          }
        }
        %c9_i32 = arith.constant 9 : i32
        %21 = arith.cmpi eq, %15, %c9_i32 : i32
        %22 = nvvm.elect.sync -> i1
        %23 = arith.andi %21, %22 : i1
        scf.if %23 {
          %c0_i32_3 = arith.constant 0 : i32
          %24:2 = "ws.slot_phase"(%c0_i32_3) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%24#0, %24#1) {barrier = "full", channel = 2 : i32} : (i32, i32) -> ()
          "ws.tma_store"(%arg6, %2, %1, %3, %c0_i32, %24#0) {ring = 6 : i32} : (!ws.tensor_desc<tensor<1x1x128x64xbf16>>, i32, i32, i32, i32, i32) -> ()
          "ws.tma_store"(%arg7, %2, %1, %3, %c0_i32, %24#0) {ring = 7 : i32} : (!ws.tensor_desc<tensor<1x1x128x64xbf16>>, i32, i32, i32, i32, i32) -> ()
          nvvm.cp.async.bulk.commit.group
          nvvm.cp.async.bulk.wait_group 0
        }
      }
      gpu.return
    }
  }
}

