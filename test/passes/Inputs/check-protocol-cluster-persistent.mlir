module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @pmm_128x128x64_w8_c2(%arg0: !ws.tensor_desc<tensor<128x64xf16>>, %arg1: !ws.tensor_desc<tensor<128x64xf16>>, %arg2: !ws.tensor_desc<tensor<128x128xf16>>, %arg3: i32, %arg4: i32, %arg5: i32) kernel attributes {ws.block_threads = 384 : i32, ws.blocks_per_sm = 1 : i32, ws.channels = [{empty_to = "every", consumer_phase = 0 : i32, depth = 4 : i32, drain = 0 : i32, empty = 196640 : i32, empty_arrivals = 8 : i32, expect_tx = 32768 : i32, from = "load", full = 196608 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "compute"}, {consumer_phase = 0 : i32, depth = 2 : i32, drain = 1 : i32, empty = 196688 : i32, empty_arrivals = 1 : i32, expect_tx = 0 : i32, from = "compute", full = 196672 : i32, full_arrivals = 128 : i32, producer_phase = 1 : i32, publish_fence = true, release_fence = false, to = "store"}, {consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 196712 : i32, empty_arrivals = 128 : i32, expect_tx = 0 : i32, from = "compute", full = 196704 : i32, full_arrivals = 128 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "compute"}], ws.cluster = array<i32: 2, 1>, ws.maxnreg = 168 : i32, ws.num_warps = 8 : i32, ws.partitions = [{first_warp = 8 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 8 : i32, pingpong = true, registers = 240 : i32, role = "compute"}, {first_warp = 9 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}], ws.persistent, ws.rings = [{align = 1024 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32, tile = tensor<128x64xf16>}, {align = 1024 : i32, channel = 0 : i32, split = "multicast", offset = 65536 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32, tile = tensor<128x64xf16>}, {align = 1024 : i32, channel = 1 : i32, offset = 131072 : i32, slot_bytes = 32768 : i32, swizzle = 128 : i32, tile = tensor<128x128xf16>}], ws.smem_bytes = 196720 : i32} {
      %c0_i32 = arith.constant 0 : i32
      %c64_i32 = arith.constant 64 : i32
      %c128_i32 = arith.constant 128 : i32
      %c128_i32_0 = arith.constant 128 : i32
      %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
      %c1_i32 = arith.constant 1 : i32
      %c2_i32 = arith.constant 2 : i32
      %c8_i32 = arith.constant 8 : i32
      %0 = arith.addi %arg3, %c128_i32 : i32
      %1 = arith.subi %0, %c1_i32 : i32
      %2 = arith.divui %1, %c128_i32 : i32
      %3 = arith.addi %2, %c1_i32 : i32
      %4 = arith.divui %3, %c2_i32 : i32
      %5 = arith.addi %arg4, %c128_i32_0 : i32
      %6 = arith.subi %5, %c1_i32 : i32
      %7 = arith.divui %6, %c128_i32_0 : i32
      %8 = arith.muli %4, %7 : i32
      %9 = arith.muli %7, %c8_i32 : i32
      %cluster_id_x = gpu.cluster_id  x
      %cluster_dim_x = gpu.cluster_dim  x
      %cluster_block_id_x = gpu.cluster_block_id  x
      %10 = arith.index_cast %cluster_block_id_x : index to i32
      %11 = arith.index_cast %cluster_id_x : index to i32
      %12 = arith.index_cast %cluster_dim_x : index to i32
      %c0_i32_1 = arith.constant 0 : i32
      %13 = arith.cmpi sgt, %12, %c0_i32_1 : i32
      %14 = arith.select %13, %8, %11 : i32
      %15 = nvvm.read.ptx.sreg.tid.x : i32
      %c32_i32 = arith.constant 32 : i32
      %16 = arith.divui %15, %c32_i32 : i32
      %c0_i32_2 = arith.constant 0 : i32
      %17 = arith.cmpi eq, %15, %c0_i32_2 : i32
      scf.if %17 {
        "ws.init_barrier"() {barrier = "full", channel = 0 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 0 : i32, count = 8 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "full", channel = 1 : i32, count = 128 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 1 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "full", channel = 2 : i32, count = 128 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 2 : i32, count = 128 : i32} : () -> ()
        nvvm.fence.mbarrier.init
      }
      nvvm.cluster.arrive {aligned}
      nvvm.cluster.wait {aligned}
      %c8_i32_3 = arith.constant 8 : i32
      %18 = arith.cmpi ult, %16, %c8_i32_3 : i32
      scf.if %18 {
        nvvm.setmaxregister  increase 240
        %c0_i32_4 = arith.constant 0 : i32
        %19 = scf.for %arg6 = %c0_i32 to %arg5 step %c64_i32 iter_args(%arg7 = %c0_i32_4) -> (i32)  : i32 {
          %c1_i32_8 = arith.constant 1 : i32
          %23 = arith.addi %arg7, %c1_i32_8 : i32
          scf.yield %23 : i32
        }
        %20 = nvvm.read.ptx.sreg.tid.x : i32
        %c128_i32_5 = arith.constant 128 : i32
        %21 = arith.divui %20, %c128_i32_5 : i32
        %c0_i32_6 = arith.constant 0 : i32
        %c0_i32_7 = arith.constant 0 : i32
        %22:2 = scf.for %arg6 = %11 to %14 step %12 iter_args(%arg7 = %c0_i32_6, %arg8 = %c0_i32_7) -> (i32, i32)  : i32 {
          %c2_i32_8 = arith.constant 2 : i32
          %23 = arith.remui %arg8, %c2_i32_8 : i32
          %24 = arith.cmpi eq, %23, %21 : i32
          scf.if %24 {
            %c0_i32_10 = arith.constant 0 : i32
            %27 = arith.cmpi ugt, %arg8, %c0_i32_10 : i32
            scf.if %27 {
              %c1_i32_12 = arith.constant 1 : i32
              %34 = arith.subi %arg8, %c1_i32_12 : i32
              %35:2 = "ws.slot_phase"(%34) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
              "ws.wait"(%35#0, %35#1) {barrier = "full", channel = 2 : i32} : (i32, i32) -> ()
            }
            %28:2 = scf.for %arg9 = %c0_i32 to %arg5 step %c64_i32 iter_args(%arg10 = %arg7, %arg11 = %cst) -> (i32, tensor<128x128xf32>)  : i32 {
              %34:2 = "ws.slot_phase"(%arg10) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
              "ws.wait"(%34#0, %34#1) {barrier = "full", channel = 0 : i32} : (i32, i32) -> ()
              nvvm.wgmma.fence.aligned
              %35 = "ws.mma"(%34#0, %arg11) {ring_a = 0 : i32, ring_b = 1 : i32, transpose_b} : (i32, tensor<128x128xf32>) -> tensor<128x128xf32>
              nvvm.wgmma.commit.group.sync.aligned
              nvvm.wgmma.wait.group.sync.aligned 1
              %c1_i32_12 = arith.constant 1 : i32
              %36 = arith.addi %arg7, %c1_i32_12 : i32
              %37 = arith.cmpi uge, %arg10, %36 : i32
              scf.if %37 {
                %39 = arith.subi %arg10, %c1_i32_12 : i32
                %40:2 = "ws.slot_phase"(%39) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
                "ws.arrive"(%40#0) {barrier = "empty", channel = 0 : i32, cluster} : (i32) -> ()
              }
              %c1_i32_13 = arith.constant 1 : i32
              %38 = arith.addi %arg10, %c1_i32_13 : i32
              scf.yield %38, %35 : i32, tensor<128x128xf32>
            }
            %29:2 = "ws.slot_phase"(%arg8) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
            "ws.arrive"(%29#0) {barrier = "full", channel = 2 : i32} : (i32) -> ()
            nvvm.wgmma.wait.group.sync.aligned 0
            %c1_i32_11 = arith.constant 1 : i32
            %30 = arith.addi %arg7, %c1_i32_11 : i32
            %31 = arith.cmpi uge, %28#0, %30 : i32
            scf.if %31 {
              %34 = arith.subi %28#0, %c1_i32_11 : i32
              %35:2 = "ws.slot_phase"(%34) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
              "ws.arrive"(%35#0) {barrier = "empty", channel = 0 : i32, cluster} : (i32) -> ()
            }
            %32 = arith.truncf %28#1 : tensor<128x128xf32> to tensor<128x128xf16>
            %33:2 = "ws.slot_phase"(%arg8) {depth = 2 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%33#0, %33#1) {barrier = "empty", channel = 1 : i32} : (i32, i32) -> ()
            "ws.write_slot"(%32, %33#0) {ring = 2 : i32} : (tensor<128x128xf16>, i32) -> ()
            nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
            "ws.arrive"(%33#0) {barrier = "full", channel = 1 : i32} : (i32) -> ()
          }
          %25 = arith.addi %arg7, %19 : i32
          %c1_i32_9 = arith.constant 1 : i32
          %26 = arith.addi %arg8, %c1_i32_9 : i32
          scf.yield %25, %26 : i32, i32
        }
      } else {
        nvvm.setmaxregister  decrease 24
        %c8_i32_4 = arith.constant 8 : i32
        %19 = arith.cmpi eq, %16, %c8_i32_4 : i32
        %20 = nvvm.elect.sync -> i1
        %21 = arith.andi %19, %20 : i1
        scf.if %21 {
          %c0_i32_5 = arith.constant 0 : i32
          %c0_i32_6 = arith.constant 0 : i32
          %25 = scf.for %arg6 = %11 to %14 step %12 iter_args(%arg7 = %c0_i32_5) -> (i32)  : i32 {
            %26 = arith.divui %arg6, %9 : i32
            %27 = arith.muli %26, %c8_i32 : i32
            %28 = arith.subi %4, %27 : i32
            %29 = arith.minui %28, %c8_i32 : i32
            %30 = arith.remui %arg6, %9 : i32
            %31 = arith.remui %30, %29 : i32
            %32 = arith.addi %27, %31 : i32
            %33 = arith.divui %30, %29 : i32
            %34 = arith.muli %32, %c2_i32 : i32
            %35 = arith.addi %34, %10 : i32
            %36 = arith.muli %35, %c128_i32 : i32
            %37 = arith.muli %33, %c128_i32_0 : i32
            %38 = scf.for %arg8 = %c0_i32 to %arg5 step %c64_i32 iter_args(%arg9 = %arg7) -> (i32)  : i32 {
              %39:2 = "ws.slot_phase"(%arg9) {depth = 4 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
              "ws.wait"(%39#0, %39#1) {barrier = "empty", channel = 0 : i32} : (i32, i32) -> ()
              "ws.arrive_expect_tx"(%39#0) {bytes = 32768 : i32, channel = 0 : i32} : (i32) -> ()
              "ws.tma_load"(%arg0, %36, %arg8, %39#0) {ring = 0 : i32} : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32, i32) -> ()
              "ws.tma_load"(%arg1, %37, %arg8, %39#0) {ring = 1 : i32} : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32, i32) -> ()
              %c1_i32_7 = arith.constant 1 : i32
              %40 = arith.addi %arg9, %c1_i32_7 : i32
              scf.yield %40 : i32
            }
            scf.yield %38 : i32
          }
        }
        %c9_i32 = arith.constant 9 : i32
        %22 = arith.cmpi eq, %16, %c9_i32 : i32
        %23 = nvvm.elect.sync -> i1
        %24 = arith.andi %22, %23 : i1
        scf.if %24 {
          %c0_i32_5 = arith.constant 0 : i32
          %25 = scf.for %arg6 = %11 to %14 step %12 iter_args(%arg7 = %c0_i32_5) -> (i32)  : i32 {
            %26 = arith.divui %arg6, %9 : i32
            %27 = arith.muli %26, %c8_i32 : i32
            %28 = arith.subi %4, %27 : i32
            %29 = arith.minui %28, %c8_i32 : i32
            %30 = arith.remui %arg6, %9 : i32
            %31 = arith.remui %30, %29 : i32
            %32 = arith.addi %27, %31 : i32
            %33 = arith.divui %30, %29 : i32
            %34 = arith.muli %32, %c2_i32 : i32
            %35 = arith.addi %34, %10 : i32
            %36 = arith.muli %35, %c128_i32 : i32
            %37 = arith.muli %33, %c128_i32_0 : i32
            %38:2 = "ws.slot_phase"(%arg7) {depth = 2 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%38#0, %38#1) {barrier = "full", channel = 1 : i32} : (i32, i32) -> ()
            "ws.tma_store"(%arg2, %36, %37, %38#0) {ring = 2 : i32} : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, i32) -> ()
            nvvm.cp.async.bulk.commit.group
            nvvm.cp.async.bulk.wait_group 1 {read}
            %c1_i32_6 = arith.constant 1 : i32
            %39 = arith.cmpi uge, %arg7, %c1_i32_6 : i32
            scf.if %39 {
              %41 = arith.subi %arg7, %c1_i32_6 : i32
              %42:2 = "ws.slot_phase"(%41) {depth = 2 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
              "ws.arrive"(%42#0) {barrier = "empty", channel = 1 : i32} : (i32) -> ()
            }
            %c1_i32_7 = arith.constant 1 : i32
            %40 = arith.addi %arg7, %c1_i32_7 : i32
            scf.yield %40 : i32
          }
          nvvm.cp.async.bulk.wait_group 0
        }
      }
      nvvm.cluster.arrive {aligned}
      nvvm.cluster.wait {aligned}
      gpu.return
    }
  }
}

