// ws-pipeline{stage=plan store-boxes=true} of the persistent kernel of insert-barriers-store-boxes.mlir (saved plan; check-protocol-parts.mlir edits it).
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @persistent(%arg0: !ws.tensor_desc<tensor<128x64xf16>>, %arg1: !ws.tensor_desc<tensor<256x64xf16>>, %arg2: !ws.tensor_desc<tensor<128x256xf16>>, %arg3: i32, %arg4: i32, %arg5: i32) kernel attributes {ws.block_threads = 384 : i32, ws.blocks_per_sm = 1 : i32, ws.channels = [{consumer_phase = 0 : i32, depth = 3 : i32, drain = 0 : i32, empty = 213016 : i32, empty_arrivals = 256 : i32, expect_tx = 49152 : i32, from = "load", full = 212992 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "compute"}, {consumer_phase = 0 : i32, depth = 4 : i32, drain = 3 : i32, empty = 213072 : i32, empty_arrivals = 1 : i32, expect_tx = 0 : i32, from = "compute", full = 213040 : i32, full_arrivals = 256 : i32, producer_phase = 1 : i32, publish_fence = true, release_fence = false, to = "store"}], ws.maxnreg = 168 : i32, ws.num_warps = 8 : i32, ws.partitions = [{first_warp = 8 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 8 : i32, registers = 240 : i32, role = "compute"}, {first_warp = 9 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}], ws.persistent, ws.rings = [{align = 1024 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32, tile = tensor<128x64xf16>}, {align = 1024 : i32, channel = 0 : i32, offset = 49152 : i32, slot_bytes = 32768 : i32, swizzle = 128 : i32, tile = tensor<256x64xf16>}, {align = 1024 : i32, channel = 1 : i32, offset = 147456 : i32, parts = 4 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32, tile = tensor<128x64xf16>}], ws.smem_bytes = 213104 : i32} {
      %c0_i32 = arith.constant 0 : i32
      %c64_i32 = arith.constant 64 : i32
      %cst = arith.constant dense<0.000000e+00> : tensor<128x256xf32>
      %block_id_x = gpu.block_id  x
      %grid_dim_x = gpu.grid_dim  x
      %0 = arith.index_cast %block_id_x : index to i32
      %1 = arith.index_cast %grid_dim_x : index to i32
      %c64_i32_0 = arith.constant 64 : i32
      %2 = nvvm.read.ptx.sreg.tid.x : i32
      %c32_i32 = arith.constant 32 : i32
      %3 = arith.divui %2, %c32_i32 : i32
      %c0_i32_1 = arith.constant 0 : i32
      %4 = arith.cmpi eq, %2, %c0_i32_1 : i32
      scf.if %4 {
        "ws.init_barrier"() {barrier = "full", channel = 0 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 0 : i32, count = 256 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "full", channel = 1 : i32, count = 256 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 1 : i32, count = 1 : i32} : () -> ()
        nvvm.fence.mbarrier.init
      }
      nvvm.barrier0
      %c8_i32 = arith.constant 8 : i32
      %5 = arith.cmpi ult, %3, %c8_i32 : i32
      scf.if %5 {
        nvvm.setmaxregister  increase 240
        %c0_i32_2 = arith.constant 0 : i32
        %c0_i32_3 = arith.constant 0 : i32
        %6:2 = scf.for %arg6 = %0 to %c64_i32_0 step %1 iter_args(%arg7 = %c0_i32_2, %arg8 = %c0_i32_3) -> (i32, i32)  : i32 {
          %7:2 = scf.for %arg9 = %c0_i32 to %arg5 step %c64_i32 iter_args(%arg10 = %arg7, %arg11 = %cst) -> (i32, tensor<128x256xf32>)  : i32 {
            %24:2 = "ws.slot_phase"(%arg10) {depth = 3 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%24#0, %24#1) {barrier = "full", channel = 0 : i32} : (i32, i32) -> ()
            nvvm.wgmma.fence.aligned
            %25 = "ws.mma"(%24#0, %arg11) {ring_a = 0 : i32, ring_b = 1 : i32, transpose_b} : (i32, tensor<128x256xf32>) -> tensor<128x256xf32>
            nvvm.wgmma.commit.group.sync.aligned
            nvvm.wgmma.wait.group.sync.aligned 1
            %c1_i32_10 = arith.constant 1 : i32
            %26 = arith.addi %arg7, %c1_i32_10 : i32
            %27 = arith.cmpi uge, %arg10, %26 : i32
            scf.if %27 {
              %29 = arith.subi %arg10, %c1_i32_10 : i32
              %30:2 = "ws.slot_phase"(%29) {depth = 3 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
              "ws.arrive"(%30#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()
            }
            %c1_i32_11 = arith.constant 1 : i32
            %28 = arith.addi %arg10, %c1_i32_11 : i32
            scf.yield %28, %25 : i32, tensor<128x256xf32>
          }
          nvvm.wgmma.wait.group.sync.aligned 0
          %c1_i32 = arith.constant 1 : i32
          %8 = arith.addi %arg7, %c1_i32 : i32
          %9 = arith.cmpi uge, %7#0, %8 : i32
          scf.if %9 {
            %24 = arith.subi %7#0, %c1_i32 : i32
            %25:2 = "ws.slot_phase"(%24) {depth = 3 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            "ws.arrive"(%25#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()
          }
          %10 = arith.truncf %7#1 : tensor<128x256xf32> to tensor<128x256xf16>
          %c0_i32_4 = arith.constant 0 : i32
          %c4_i32 = arith.constant 4 : i32
          %11 = arith.muli %arg8, %c4_i32 : i32
          %12 = arith.addi %11, %c0_i32_4 : i32
          %13:2 = "ws.slot_phase"(%12) {depth = 4 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%13#0, %13#1) {barrier = "empty", channel = 1 : i32} : (i32, i32) -> ()
          "ws.write_slot"(%10, %13#0) {part = 0 : i32, ring = 2 : i32} : (tensor<128x256xf16>, i32) -> ()
          nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
          "ws.arrive"(%13#0) {barrier = "full", channel = 1 : i32} : (i32) -> ()
          %c1_i32_5 = arith.constant 1 : i32
          %c4_i32_6 = arith.constant 4 : i32
          %14 = arith.muli %arg8, %c4_i32_6 : i32
          %15 = arith.addi %14, %c1_i32_5 : i32
          %16:2 = "ws.slot_phase"(%15) {depth = 4 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%16#0, %16#1) {barrier = "empty", channel = 1 : i32} : (i32, i32) -> ()
          "ws.write_slot"(%10, %16#0) {part = 1 : i32, ring = 2 : i32} : (tensor<128x256xf16>, i32) -> ()
          nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
          "ws.arrive"(%16#0) {barrier = "full", channel = 1 : i32} : (i32) -> ()
          %c2_i32 = arith.constant 2 : i32
          %c4_i32_7 = arith.constant 4 : i32
          %17 = arith.muli %arg8, %c4_i32_7 : i32
          %18 = arith.addi %17, %c2_i32 : i32
          %19:2 = "ws.slot_phase"(%18) {depth = 4 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%19#0, %19#1) {barrier = "empty", channel = 1 : i32} : (i32, i32) -> ()
          "ws.write_slot"(%10, %19#0) {part = 2 : i32, ring = 2 : i32} : (tensor<128x256xf16>, i32) -> ()
          nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
          "ws.arrive"(%19#0) {barrier = "full", channel = 1 : i32} : (i32) -> ()
          %c3_i32 = arith.constant 3 : i32
          %c4_i32_8 = arith.constant 4 : i32
          %20 = arith.muli %arg8, %c4_i32_8 : i32
          %21 = arith.addi %20, %c3_i32 : i32
          %22:2 = "ws.slot_phase"(%21) {depth = 4 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%22#0, %22#1) {barrier = "empty", channel = 1 : i32} : (i32, i32) -> ()
          "ws.write_slot"(%10, %22#0) {part = 3 : i32, ring = 2 : i32} : (tensor<128x256xf16>, i32) -> ()
          nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
          "ws.arrive"(%22#0) {barrier = "full", channel = 1 : i32} : (i32) -> ()
          %c1_i32_9 = arith.constant 1 : i32
          %23 = arith.addi %arg8, %c1_i32_9 : i32
          scf.yield %7#0, %23 : i32, i32
        }
      } else {
        nvvm.setmaxregister  decrease 24
        %c8_i32_2 = arith.constant 8 : i32
        %6 = arith.cmpi eq, %3, %c8_i32_2 : i32
        %7 = nvvm.elect.sync -> i1
        %8 = arith.andi %6, %7 : i1
        scf.if %8 {
          %c0_i32_3 = arith.constant 0 : i32
          %c0_i32_4 = arith.constant 0 : i32
          %12 = scf.for %arg6 = %0 to %c64_i32_0 step %1 iter_args(%arg7 = %c0_i32_3) -> (i32)  : i32 {
            %c128_i32 = arith.constant 128 : i32
            %c1_i32 = arith.constant 1 : i32
            %13 = arith.subi %c128_i32, %c1_i32 : i32
            %14 = arith.addi %arg3, %13 : i32
            %15 = arith.divui %14, %c128_i32 : i32
            %c256_i32 = arith.constant 256 : i32
            %c1_i32_5 = arith.constant 1 : i32
            %16 = arith.subi %c256_i32, %c1_i32_5 : i32
            %17 = arith.addi %arg4, %16 : i32
            %18 = arith.divui %17, %c256_i32 : i32
            %c1_i32_6 = arith.constant 1 : i32
            %19 = arith.maxui %18, %c1_i32_6 : i32
            %c16_i32 = arith.constant 16 : i32
            %20 = arith.muli %19, %c16_i32 : i32
            %21 = arith.divui %arg6, %20 : i32
            %22 = arith.muli %21, %c16_i32 : i32
            %23 = arith.maxui %15, %22 : i32
            %24 = arith.subi %23, %22 : i32
            %25 = arith.minui %24, %c16_i32 : i32
            %26 = arith.maxui %25, %c1_i32_6 : i32
            %27 = arith.remui %arg6, %20 : i32
            %28 = arith.remui %27, %26 : i32
            %29 = arith.addi %22, %28 : i32
            %30 = arith.divui %27, %26 : i32
            %c128_i32_7 = arith.constant 128 : i32
            %31 = arith.muli %29, %c128_i32_7 : i32
            %c256_i32_8 = arith.constant 256 : i32
            %32 = arith.muli %30, %c256_i32_8 : i32
            %33 = scf.for %arg8 = %c0_i32 to %arg5 step %c64_i32 iter_args(%arg9 = %arg7) -> (i32)  : i32 {
              %34:2 = "ws.slot_phase"(%arg9) {depth = 3 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
              "ws.wait"(%34#0, %34#1) {barrier = "empty", channel = 0 : i32} : (i32, i32) -> ()
              "ws.arrive_expect_tx"(%34#0) {bytes = 49152 : i32, channel = 0 : i32} : (i32) -> ()
              "ws.tma_load"(%arg0, %31, %arg8, %34#0) {ring = 0 : i32} : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32, i32) -> ()
              "ws.tma_load"(%arg1, %32, %arg8, %34#0) {ring = 1 : i32} : (!ws.tensor_desc<tensor<256x64xf16>>, i32, i32, i32) -> ()
              %c1_i32_9 = arith.constant 1 : i32
              %35 = arith.addi %arg9, %c1_i32_9 : i32
              scf.yield %35 : i32
            }
            scf.yield %33 : i32
          }
        }
        %c9_i32 = arith.constant 9 : i32
        %9 = arith.cmpi eq, %3, %c9_i32 : i32
        %10 = nvvm.elect.sync -> i1
        %11 = arith.andi %9, %10 : i1
        scf.if %11 {
          %c0_i32_3 = arith.constant 0 : i32
          %12 = scf.for %arg6 = %0 to %c64_i32_0 step %1 iter_args(%arg7 = %c0_i32_3) -> (i32)  : i32 {
            %c128_i32 = arith.constant 128 : i32
            %c1_i32 = arith.constant 1 : i32
            %13 = arith.subi %c128_i32, %c1_i32 : i32
            %14 = arith.addi %arg3, %13 : i32
            %15 = arith.divui %14, %c128_i32 : i32
            %c256_i32 = arith.constant 256 : i32
            %c1_i32_4 = arith.constant 1 : i32
            %16 = arith.subi %c256_i32, %c1_i32_4 : i32
            %17 = arith.addi %arg4, %16 : i32
            %18 = arith.divui %17, %c256_i32 : i32
            %c1_i32_5 = arith.constant 1 : i32
            %19 = arith.maxui %18, %c1_i32_5 : i32
            %c16_i32 = arith.constant 16 : i32
            %20 = arith.muli %19, %c16_i32 : i32
            %21 = arith.divui %arg6, %20 : i32
            %22 = arith.muli %21, %c16_i32 : i32
            %23 = arith.maxui %15, %22 : i32
            %24 = arith.subi %23, %22 : i32
            %25 = arith.minui %24, %c16_i32 : i32
            %26 = arith.maxui %25, %c1_i32_5 : i32
            %27 = arith.remui %arg6, %20 : i32
            %28 = arith.remui %27, %26 : i32
            %29 = arith.addi %22, %28 : i32
            %30 = arith.divui %27, %26 : i32
            %c128_i32_6 = arith.constant 128 : i32
            %31 = arith.muli %29, %c128_i32_6 : i32
            %c256_i32_7 = arith.constant 256 : i32
            %32 = arith.muli %30, %c256_i32_7 : i32
            %c0_i32_8 = arith.constant 0 : i32
            %c4_i32 = arith.constant 4 : i32
            %33 = arith.muli %arg7, %c4_i32 : i32
            %34 = arith.addi %33, %c0_i32_8 : i32
            %35:2 = "ws.slot_phase"(%34) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%35#0, %35#1) {barrier = "full", channel = 1 : i32} : (i32, i32) -> ()
            "ws.tma_store"(%arg2, %31, %32, %35#0) {ring = 2 : i32} : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, i32) -> ()
            nvvm.cp.async.bulk.commit.group
            nvvm.cp.async.bulk.wait_group 3 {read}
            %c3_i32 = arith.constant 3 : i32
            %36 = arith.cmpi uge, %34, %c3_i32 : i32
            scf.if %36 {
              %53 = arith.subi %34, %c3_i32 : i32
              %54:2 = "ws.slot_phase"(%53) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
              "ws.arrive"(%54#0) {barrier = "empty", channel = 1 : i32} : (i32) -> ()
            }
            %c1_i32_9 = arith.constant 1 : i32
            %c4_i32_10 = arith.constant 4 : i32
            %37 = arith.muli %arg7, %c4_i32_10 : i32
            %38 = arith.addi %37, %c1_i32_9 : i32
            %39:2 = "ws.slot_phase"(%38) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%39#0, %39#1) {barrier = "full", channel = 1 : i32} : (i32, i32) -> ()
            %c64_i32_11 = arith.constant 64 : i32
            %40 = arith.addi %32, %c64_i32_11 : i32
            "ws.tma_store"(%arg2, %31, %40, %39#0) {ring = 2 : i32} : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, i32) -> ()
            nvvm.cp.async.bulk.commit.group
            nvvm.cp.async.bulk.wait_group 3 {read}
            %c3_i32_12 = arith.constant 3 : i32
            %41 = arith.cmpi uge, %38, %c3_i32_12 : i32
            scf.if %41 {
              %53 = arith.subi %38, %c3_i32_12 : i32
              %54:2 = "ws.slot_phase"(%53) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
              "ws.arrive"(%54#0) {barrier = "empty", channel = 1 : i32} : (i32) -> ()
            }
            %c2_i32 = arith.constant 2 : i32
            %c4_i32_13 = arith.constant 4 : i32
            %42 = arith.muli %arg7, %c4_i32_13 : i32
            %43 = arith.addi %42, %c2_i32 : i32
            %44:2 = "ws.slot_phase"(%43) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%44#0, %44#1) {barrier = "full", channel = 1 : i32} : (i32, i32) -> ()
            %c128_i32_14 = arith.constant 128 : i32
            %45 = arith.addi %32, %c128_i32_14 : i32
            "ws.tma_store"(%arg2, %31, %45, %44#0) {ring = 2 : i32} : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, i32) -> ()
            nvvm.cp.async.bulk.commit.group
            nvvm.cp.async.bulk.wait_group 3 {read}
            %c3_i32_15 = arith.constant 3 : i32
            %46 = arith.cmpi uge, %43, %c3_i32_15 : i32
            scf.if %46 {
              %53 = arith.subi %43, %c3_i32_15 : i32
              %54:2 = "ws.slot_phase"(%53) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
              "ws.arrive"(%54#0) {barrier = "empty", channel = 1 : i32} : (i32) -> ()
            }
            %c3_i32_16 = arith.constant 3 : i32
            %c4_i32_17 = arith.constant 4 : i32
            %47 = arith.muli %arg7, %c4_i32_17 : i32
            %48 = arith.addi %47, %c3_i32_16 : i32
            %49:2 = "ws.slot_phase"(%48) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%49#0, %49#1) {barrier = "full", channel = 1 : i32} : (i32, i32) -> ()
            %c192_i32 = arith.constant 192 : i32
            %50 = arith.addi %32, %c192_i32 : i32
            "ws.tma_store"(%arg2, %31, %50, %49#0) {ring = 2 : i32} : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, i32) -> ()
            nvvm.cp.async.bulk.commit.group
            nvvm.cp.async.bulk.wait_group 3 {read}
            %c3_i32_18 = arith.constant 3 : i32
            %51 = arith.cmpi uge, %48, %c3_i32_18 : i32
            scf.if %51 {
              %53 = arith.subi %48, %c3_i32_18 : i32
              %54:2 = "ws.slot_phase"(%53) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
              "ws.arrive"(%54#0) {barrier = "empty", channel = 1 : i32} : (i32) -> ()
            }
            %c1_i32_19 = arith.constant 1 : i32
            %52 = arith.addi %arg7, %c1_i32_19 : i32
            scf.yield %52 : i32
          }
          nvvm.cp.async.bulk.wait_group 0
        }
      }
      gpu.return
    }
  }
}

