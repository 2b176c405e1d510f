module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_100a">] {
    gpu.func @pbw_128x256x64_w8_c2(%arg0: !ws.tensor_desc<tensor<128x64xf16>>, %arg1: !ws.tensor_desc<tensor<256x64xf16>>, %arg2: !ws.tensor_desc<tensor<128x256xf16>>, %arg3: i32, %arg4: i32, %arg5: i32) kernel attributes {ws.block_threads = 384 : i32, ws.blocks_per_sm = 1 : i32, ws.channels = [{consumer_phase = 0 : i32, depth = 5 : i32, drain = 0 : i32, empty = 229416 : i32, empty_arrivals = 1 : i32, empty_to = "every", expect_tx = 65536 : i32, from = "load", full = 229376 : i32, full_arrivals = 1 : i32, full_to = "leader", producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "mma"}, {consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 229464 : i32, empty_arrivals = 1 : i32, expect_tx = 0 : i32, from = "compute", full = 229456 : i32, full_arrivals = 256 : i32, producer_phase = 1 : i32, publish_fence = true, release_fence = false, to = "store"}, {consumer_phase = 0 : i32, depth = 2 : i32, drain = 0 : i32, empty = 229488 : i32, empty_arrivals = 16 : i32, empty_to = "leader", expect_tx = 0 : i32, from = "mma", full = 229472 : i32, full_arrivals = 1 : i32, full_to = "every", producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "compute"}], ws.cluster = array<i32: 2, 1>, ws.maxnreg = 168 : i32, ws.num_warps = 8 : i32, ws.partitions = [{first_warp = 8 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 8 : i32, registers = 240 : i32, role = "compute"}, {first_warp = 9 : i32, name = "mma", num_warps = 1 : i32, registers = 24 : i32, role = "mma"}, {first_warp = 10 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}], ws.persistent, ws.rings = [{align = 1024 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32, tile = tensor<128x64xf16>}, {align = 1024 : i32, channel = 0 : i32, offset = 81920 : i32, slot_bytes = 16384 : i32, split = "pair", swizzle = 128 : i32, tile = tensor<256x64xf16>}, {align = 1024 : i32, channel = 1 : i32, offset = 163840 : i32, slot_bytes = 65536 : i32, swizzle = 128 : i32, tile = tensor<128x256xf16>}], ws.smem_bytes = 229512 : i32, ws.tmem = {address = 229504 : i32, allocated = 512 : i32, channel = 2 : i32, columns = 256 : i32, tile = tensor<128x256xf32>}} {
      %c0_i32 = arith.constant 0 : i32
      %c64_i32 = arith.constant 64 : i32
      %c128_i32 = arith.constant 128 : i32
      %c256_i32 = arith.constant 256 : i32
      %cst = arith.constant dense<0.000000e+00> : tensor<128x256xf32>
      %c1_i32 = arith.constant 1 : i32
      %c2_i32 = arith.constant 2 : i32
      %c8_i32 = arith.constant 8 : i32
      %0 = arith.addi %arg3, %c128_i32 : i32
      %1 = arith.subi %0, %c1_i32 : i32
      %2 = arith.divui %1, %c128_i32 : i32
      %3 = arith.addi %2, %c1_i32 : i32
      %4 = arith.divui %3, %c2_i32 : i32
      %5 = arith.addi %arg4, %c256_i32 : i32
      %6 = arith.subi %5, %c1_i32 : i32
      %7 = arith.divui %6, %c256_i32 : i32
      %8 = arith.muli %4, %7 : i32
      %9 = arith.muli %7, %c8_i32 : i32
      %cluster_id_x = gpu.cluster_id  x
      %cluster_dim_x = gpu.cluster_dim  x
      %cluster_block_id_x = gpu.cluster_block_id  x
      %10 = arith.index_cast %cluster_block_id_x : index to i32
      %11 = arith.index_cast %cluster_id_x : index to i32
      %12 = arith.index_cast %cluster_dim_x : index to i32
      %c0_i32_0 = arith.constant 0 : i32
      %13 = arith.cmpi sgt, %12, %c0_i32_0 : i32
      %14 = arith.select %13, %8, %11 : i32
      %15 = nvvm.read.ptx.sreg.tid.x : i32
      %c32_i32 = arith.constant 32 : i32
      %16 = arith.divui %15, %c32_i32 : i32
      %c0_i32_1 = arith.constant 0 : i32
      %17 = arith.cmpi eq, %15, %c0_i32_1 : i32
      scf.if %17 {
        "ws.init_barrier"() {barrier = "full", channel = 0 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 0 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "full", channel = 1 : i32, count = 256 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 1 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "full", channel = 2 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 2 : i32, count = 16 : i32} : () -> ()
        nvvm.fence.mbarrier.init
      }
      %c9_i32 = arith.constant 9 : i32
      %18 = arith.cmpi eq, %16, %c9_i32 : i32
      scf.if %18 {
        "ws.tmem_alloc"() : () -> ()
        nvvm.tcgen05.relinquish_alloc_permit {group = #nvvm.cta_group<cta_2>}
        nvvm.tcgen05.fence <before>
      }
      nvvm.cluster.arrive {aligned}
      nvvm.cluster.wait {aligned}
      nvvm.tcgen05.fence <after>
      %c8_i32_2 = arith.constant 8 : i32
      %19 = arith.cmpi ult, %16, %c8_i32_2 : i32
      scf.if %19 {
        nvvm.setmaxregister  increase 240
        %c0_i32_4 = arith.constant 0 : i32
        %21 = scf.for %arg6 = %11 to %14 step %12 iter_args(%arg7 = %c0_i32_4) -> (i32)  : i32 {
          %22:2 = "ws.slot_phase"(%arg7) {depth = 2 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%22#0, %22#1) {barrier = "full", channel = 2 : i32} : (i32, i32) -> ()
          nvvm.tcgen05.fence <after>
          %23 = arith.cmpi slt, %c0_i32, %arg5 : i32
          %24 = "ws.tmem_load"(%22#0, %23) : (i32, i1) -> tensor<128x256xf32>
          nvvm.tcgen05.fence <before>
          "ws.arrive"(%22#0) {barrier = "empty", channel = 2 : i32, leader} : (i32) -> ()
          %25 = arith.truncf %24 : tensor<128x256xf32> to tensor<128x256xf16>
          %26:2 = "ws.slot_phase"(%arg7) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%26#0, %26#1) {barrier = "empty", channel = 1 : i32} : (i32, i32) -> ()
          "ws.write_slot"(%25, %26#0) {ring = 2 : i32} : (tensor<128x256xf16>, i32) -> ()
          nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
          "ws.arrive"(%26#0) {barrier = "full", channel = 1 : i32} : (i32) -> ()
          %c1_i32_5 = arith.constant 1 : i32
          %27 = arith.addi %arg7, %c1_i32_5 : i32
          scf.yield %27 : i32
        }
      } else {
        nvvm.setmaxregister  decrease 24
        %c8_i32_4 = arith.constant 8 : i32
        %21 = arith.cmpi eq, %16, %c8_i32_4 : i32
        %22 = nvvm.elect.sync -> i1
        %23 = arith.andi %21, %22 : i1
        scf.if %23 {
          %c0_i32_6 = arith.constant 0 : i32
          %c0_i32_7 = arith.constant 0 : i32
          %30 = scf.for %arg6 = %11 to %14 step %12 iter_args(%arg7 = %c0_i32_6) -> (i32)  : i32 {
            %41 = arith.divui %arg6, %9 : i32
            %42 = arith.muli %41, %c8_i32 : i32
            %43 = arith.subi %4, %42 : i32
            %44 = arith.minui %43, %c8_i32 : i32
            %45 = arith.remui %arg6, %9 : i32
            %46 = arith.remui %45, %44 : i32
            %47 = arith.addi %42, %46 : i32
            %48 = arith.divui %45, %44 : i32
            %49 = arith.muli %47, %c2_i32 : i32
            %50 = arith.addi %49, %10 : i32
            %51 = arith.muli %50, %c128_i32 : i32
            %52 = arith.muli %48, %c256_i32 : i32
            %53 = scf.for %arg8 = %c0_i32 to %arg5 step %c64_i32 iter_args(%arg9 = %arg7) -> (i32)  : i32 {
              %54:2 = "ws.slot_phase"(%arg9) {depth = 5 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
              "ws.wait"(%54#0, %54#1) {barrier = "empty", channel = 0 : i32} : (i32, i32) -> ()
              %55 = nvvm.read.ptx.sreg.cluster.ctarank : i32
              %c0_i32_11 = arith.constant 0 : i32
              %56 = arith.cmpi eq, %55, %c0_i32_11 : i32
              scf.if %56 {
                "ws.arrive_expect_tx"(%54#0) {bytes = 65536 : i32, channel = 0 : i32} : (i32) -> ()
              }
              "ws.tma_load"(%arg0, %51, %arg8, %54#0) {ring = 0 : i32} : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32, i32) -> ()
              "ws.tma_load"(%arg1, %52, %arg8, %54#0) {ring = 1 : i32} : (!ws.tensor_desc<tensor<256x64xf16>>, i32, i32, i32) -> ()
              %c1_i32_12 = arith.constant 1 : i32
              %57 = arith.addi %arg9, %c1_i32_12 : i32
              scf.yield %57 : i32
            }
            scf.yield %53 : i32
          }
          %c0_i32_8 = arith.constant 0 : i32
          %31 = arith.addi %30, %c0_i32_8 : i32
          %32:2 = "ws.slot_phase"(%31) {depth = 5 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%32#0, %32#1) {barrier = "empty", channel = 0 : i32} : (i32, i32) -> ()
          %c1_i32_9 = arith.constant 1 : i32
          %33 = arith.addi %30, %c1_i32_9 : i32
          %34:2 = "ws.slot_phase"(%33) {depth = 5 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%34#0, %34#1) {barrier = "empty", channel = 0 : i32} : (i32, i32) -> ()
          %c2_i32_10 = arith.constant 2 : i32
          %35 = arith.addi %30, %c2_i32_10 : i32
          %36:2 = "ws.slot_phase"(%35) {depth = 5 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%36#0, %36#1) {barrier = "empty", channel = 0 : i32} : (i32, i32) -> ()
          %c3_i32 = arith.constant 3 : i32
          %37 = arith.addi %30, %c3_i32 : i32
          %38:2 = "ws.slot_phase"(%37) {depth = 5 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%38#0, %38#1) {barrier = "empty", channel = 0 : i32} : (i32, i32) -> ()
          %c4_i32 = arith.constant 4 : i32
          %39 = arith.addi %30, %c4_i32 : i32
          %40:2 = "ws.slot_phase"(%39) {depth = 5 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%40#0, %40#1) {barrier = "empty", channel = 0 : i32} : (i32, i32) -> ()
        }
        %c9_i32_5 = arith.constant 9 : i32
        %24 = arith.cmpi eq, %16, %c9_i32_5 : i32
        %25 = nvvm.elect.sync -> i1
        %26 = arith.andi %24, %25 : i1
        scf.if %26 {
          %30 = nvvm.read.ptx.sreg.cluster.ctarank : i32
          %c0_i32_6 = arith.constant 0 : i32
          %31 = arith.cmpi eq, %30, %c0_i32_6 : i32
          scf.if %31 {
            %c0_i32_7 = arith.constant 0 : i32
            %c0_i32_8 = arith.constant 0 : i32
            %32:2 = scf.for %arg6 = %11 to %14 step %12 iter_args(%arg7 = %c0_i32_7, %arg8 = %c0_i32_8) -> (i32, i32)  : i32 {
              %33:2 = "ws.slot_phase"(%arg8) {depth = 2 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
              "ws.wait"(%33#0, %33#1) {barrier = "empty", channel = 2 : i32} : (i32, i32) -> ()
              nvvm.tcgen05.fence <after>
              %34 = scf.for %arg9 = %c0_i32 to %arg5 step %c64_i32 iter_args(%arg10 = %arg7) -> (i32)  : i32 {
                %36:2 = "ws.slot_phase"(%arg10) {depth = 5 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
                "ws.wait"(%36#0, %36#1) {barrier = "full", channel = 0 : i32} : (i32, i32) -> ()
                %37 = arith.cmpi ne, %arg10, %arg7 : i32
                "ws.tc_mma"(%36#0, %33#0, %37) {ring_a = 0 : i32, ring_b = 1 : i32, transpose_b} : (i32, i32, i1) -> ()
                "ws.commit"(%36#0) {barrier = "empty", channel = 0 : i32, cluster} : (i32) -> ()
                %c1_i32_10 = arith.constant 1 : i32
                %38 = arith.addi %arg10, %c1_i32_10 : i32
                scf.yield %38 : i32
              }
              "ws.commit"(%33#0) {barrier = "full", channel = 2 : i32, cluster} : (i32) -> ()
              %c1_i32_9 = arith.constant 1 : i32
              %35 = arith.addi %arg8, %c1_i32_9 : i32
              scf.yield %34, %35 : i32, i32
            }
          }
        }
        %c10_i32 = arith.constant 10 : i32
        %27 = arith.cmpi eq, %16, %c10_i32 : i32
        %28 = nvvm.elect.sync -> i1
        %29 = arith.andi %27, %28 : i1
        scf.if %29 {
          %c0_i32_6 = arith.constant 0 : i32
          %30 = scf.for %arg6 = %11 to %14 step %12 iter_args(%arg7 = %c0_i32_6) -> (i32)  : i32 {
            %31 = arith.divui %arg6, %9 : i32
            %32 = arith.muli %31, %c8_i32 : i32
            %33 = arith.subi %4, %32 : i32
            %34 = arith.minui %33, %c8_i32 : i32
            %35 = arith.remui %arg6, %9 : i32
            %36 = arith.remui %35, %34 : i32
            %37 = arith.addi %32, %36 : i32
            %38 = arith.divui %35, %34 : i32
            %39 = arith.muli %37, %c2_i32 : i32
            %40 = arith.addi %39, %10 : i32
            %41 = arith.muli %40, %c128_i32 : i32
            %42 = arith.muli %38, %c256_i32 : i32
            %43:2 = "ws.slot_phase"(%arg7) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%43#0, %43#1) {barrier = "full", channel = 1 : i32} : (i32, i32) -> ()
            "ws.tma_store"(%arg2, %41, %42, %43#0) {ring = 2 : i32} : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, i32) -> ()
            nvvm.cp.async.bulk.commit.group
            nvvm.cp.async.bulk.wait_group 0 {read}
            %c0_i32_7 = arith.constant 0 : i32
            %44 = arith.cmpi uge, %arg7, %c0_i32_7 : i32
            scf.if %44 {
              %46 = arith.subi %arg7, %c0_i32_7 : i32
              %47:2 = "ws.slot_phase"(%46) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
              "ws.arrive"(%47#0) {barrier = "empty", channel = 1 : i32} : (i32) -> ()
            }
            %c1_i32_8 = arith.constant 1 : i32
            %45 = arith.addi %arg7, %c1_i32_8 : i32
            scf.yield %45 : i32
          }
          nvvm.cp.async.bulk.wait_group 0
        }
      }
      nvvm.tcgen05.fence <before>
      nvvm.cluster.arrive {aligned}
      nvvm.cluster.wait {aligned}
      %c9_i32_3 = arith.constant 9 : i32
      %20 = arith.cmpi eq, %16, %c9_i32_3 : i32
      scf.if %20 {
        nvvm.tcgen05.fence <after>
        "ws.tmem_dealloc"() : () -> ()
      }
      gpu.return
    }
  }
}

