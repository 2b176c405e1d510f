module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_100a">] {
    gpu.func @bwmx_128x256x128_w8_c2x1(%arg0: !ws.tensor_desc<tensor<128x128xf8E4M3FN>>, %arg1: !ws.tensor_desc<tensor<256x128xf8E4M3FN>>, %arg2: !ws.tensor_desc<tensor<32x16xi8>>, %arg3: !ws.tensor_desc<tensor<32x16xi8>>, %arg4: !ws.tensor_desc<tensor<128x256xbf16>>, %arg5: i32) kernel attributes {ws.block_threads = 384 : i32, ws.blocks_per_sm = 1 : i32, ws.channels = [{consumer_phase = 0 : i32, depth = 4 : i32, drain = 0 : i32, empty = 202784 : i32, empty_arrivals = 1 : i32, empty_to = "every", expect_tx = 68608 : i32, from = "load", full = 202752 : i32, full_arrivals = 1 : i32, full_to = "leader", producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "mma"}, {consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 202824 : i32, empty_arrivals = 1 : i32, expect_tx = 0 : i32, from = "compute", full = 202816 : i32, full_arrivals = 256 : i32, producer_phase = 1 : i32, publish_fence = true, release_fence = false, to = "store"}, {consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 202840 : i32, empty_arrivals = 16 : i32, empty_to = "leader", expect_tx = 0 : i32, from = "mma", full = 202832 : i32, full_arrivals = 1 : i32, full_to = "every", producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "compute"}], ws.cluster = array<i32: 2, 1>, ws.maxnreg = 168 : i32, ws.num_warps = 8 : i32, ws.partitions = [{first_warp = 8 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 8 : i32, registers = 240 : i32, role = "compute"}, {first_warp = 9 : i32, name = "mma", num_warps = 1 : i32, registers = 24 : i32, role = "mma"}, {first_warp = 10 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}], ws.rings = [{align = 1024 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32, tile = tensor<128x128xf8E4M3FN>}, {align = 1024 : i32, channel = 0 : i32, offset = 65536 : i32, slot_bytes = 16384 : i32, split = "pair", swizzle = 128 : i32, tile = tensor<256x128xf8E4M3FN>}, {align = 128 : i32, channel = 0 : i32, offset = 131072 : i32, slot_bytes = 512 : i32, swizzle = 0 : i32, tile = tensor<32x16xi8>}, {align = 128 : i32, channel = 0 : i32, offset = 133120 : i32, slot_bytes = 512 : i32, swizzle = 0 : i32, tile = tensor<32x16xi8>}, {align = 128 : i32, channel = 0 : i32, offset = 135168 : i32, slot_bytes = 512 : i32, swizzle = 0 : i32, tile = tensor<32x16xi8>}, {align = 1024 : i32, channel = 1 : i32, offset = 137216 : i32, slot_bytes = 65536 : i32, swizzle = 128 : i32, tile = tensor<128x256xbf16>}], ws.smem_bytes = 202856 : i32, ws.tmem = {address = 202848 : i32, allocated = 512 : i32, channel = 2 : i32, columns = 256 : i32, scale_a_atoms = 1 : i32, scale_columns = array<i32: 256, 260, 264>, scale_rings = array<i32: 2, 3, 4>, tile = tensor<128x256xf32>}} {
      %c0_i32 = arith.constant 0 : i32
      %c128_i32 = arith.constant 128 : i32
      %c128_i32_0 = arith.constant 128 : i32
      %c256_i32 = arith.constant 256 : i32
      %cst = arith.constant dense<0.000000e+00> : tensor<128x256xf32>
      %block_id_x = gpu.block_id  x
      %block_id_y = gpu.block_id  y
      %0 = arith.index_cast %block_id_x : index to i32
      %1 = arith.index_cast %block_id_y : index to i32
      %2 = arith.muli %0, %c128_i32_0 : i32
      %3 = arith.muli %1, %c256_i32 : i32
      %4 = nvvm.read.ptx.sreg.tid.x : i32
      %c32_i32 = arith.constant 32 : i32
      %5 = arith.divui %4, %c32_i32 : i32
      %c0_i32_1 = arith.constant 0 : i32
      %6 = arith.cmpi eq, %4, %c0_i32_1 : i32
      scf.if %6 {
        "ws.init_barrier"() {barrier = "full", channel = 0 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 0 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "full", channel = 1 : i32, count = 256 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 1 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "full", channel = 2 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 2 : i32, count = 16 : i32} : () -> ()
        nvvm.fence.mbarrier.init
      }
      %c9_i32 = arith.constant 9 : i32
      %7 = arith.cmpi eq, %5, %c9_i32 : i32
      scf.if %7 {
        "ws.tmem_alloc"() : () -> ()
        nvvm.tcgen05.relinquish_alloc_permit {group = #nvvm.cta_group<cta_2>}
        nvvm.tcgen05.fence <before>
      }
      nvvm.cluster.arrive {aligned}
      nvvm.cluster.wait {aligned}
      nvvm.tcgen05.fence <after>
      %c8_i32 = arith.constant 8 : i32
      %8 = arith.cmpi ult, %5, %c8_i32 : i32
      scf.if %8 {
        nvvm.setmaxregister  increase 240
        %c0_i32_3 = arith.constant 0 : i32
        %10:2 = "ws.slot_phase"(%c0_i32_3) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
        "ws.wait"(%10#0, %10#1) {barrier = "full", channel = 2 : i32} : (i32, i32) -> ()
        nvvm.tcgen05.fence <after>
        %11 = arith.cmpi slt, %c0_i32, %arg5 : i32
        %12 = "ws.tmem_load"(%10#0, %11) : (i32, i1) -> tensor<128x256xf32>
        nvvm.tcgen05.fence <before>
        "ws.arrive"(%10#0) {barrier = "empty", channel = 2 : i32, leader} : (i32) -> ()
        %13 = arith.truncf %12 : tensor<128x256xf32> to tensor<128x256xbf16>
        %c0_i32_4 = arith.constant 0 : i32
        %14:2 = "ws.slot_phase"(%c0_i32_4) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
        "ws.wait"(%14#0, %14#1) {barrier = "empty", channel = 1 : i32} : (i32, i32) -> ()
        "ws.write_slot"(%13, %14#0) {ring = 5 : i32} : (tensor<128x256xbf16>, i32) -> ()
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
        "ws.arrive"(%14#0) {barrier = "full", channel = 1 : i32} : (i32) -> ()
      } else {
        nvvm.setmaxregister  decrease 24
        %c8_i32_3 = arith.constant 8 : i32
        %10 = arith.cmpi eq, %5, %c8_i32_3 : i32
        %11 = nvvm.elect.sync -> i1
        %12 = arith.andi %10, %11 : i1
        scf.if %12 {
          %c0_i32_5 = arith.constant 0 : i32
          %c0_i32_6 = arith.constant 0 : i32
          %19 = scf.for %arg6 = %c0_i32 to %arg5 step %c128_i32 iter_args(%arg7 = %c0_i32_5) -> (i32)  : i32 {
            %28:2 = "ws.slot_phase"(%arg7) {depth = 4 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%28#0, %28#1) {barrier = "empty", channel = 0 : i32} : (i32, i32) -> ()
            %29 = nvvm.read.ptx.sreg.cluster.ctarank : i32
            %c0_i32_8 = arith.constant 0 : i32
            %30 = arith.cmpi eq, %29, %c0_i32_8 : i32
            scf.if %30 {
              "ws.arrive_expect_tx"(%28#0) {bytes = 68608 : i32, channel = 0 : i32} : (i32) -> ()
            }
            "ws.tma_load"(%arg0, %2, %arg6, %28#0) {ring = 0 : i32} : (!ws.tensor_desc<tensor<128x128xf8E4M3FN>>, i32, i32, i32) -> ()
            "ws.tma_load"(%arg1, %3, %arg6, %28#0) {ring = 1 : i32} : (!ws.tensor_desc<tensor<256x128xf8E4M3FN>>, i32, i32, i32) -> ()
            %c128_i32_9 = arith.constant 128 : i32
            %c32_i32_10 = arith.constant 32 : i32
            %c16_i32 = arith.constant 16 : i32
            %31 = arith.divui %arg6, %c128_i32 : i32
            %32 = arith.muli %31, %c16_i32 : i32
            %33 = arith.divui %2, %c128_i32_9 : i32
            %34 = arith.muli %33, %c32_i32_10 : i32
            "ws.tma_load"(%arg2, %34, %32, %28#0) {ring = 2 : i32} : (!ws.tensor_desc<tensor<32x16xi8>>, i32, i32, i32) -> ()
            %35 = arith.divui %3, %c128_i32_9 : i32
            %36 = arith.muli %35, %c32_i32_10 : i32
            "ws.tma_load"(%arg3, %36, %32, %28#0) {ring = 3 : i32} : (!ws.tensor_desc<tensor<32x16xi8>>, i32, i32, i32) -> ()
            %37 = arith.addi %36, %c32_i32_10 : i32
            "ws.tma_load"(%arg3, %37, %32, %28#0) {ring = 4 : i32} : (!ws.tensor_desc<tensor<32x16xi8>>, i32, i32, i32) -> ()
            %c1_i32_11 = arith.constant 1 : i32
            %38 = arith.addi %arg7, %c1_i32_11 : i32
            scf.yield %38 : i32
          }
          %c0_i32_7 = arith.constant 0 : i32
          %20 = arith.addi %19, %c0_i32_7 : i32
          %21:2 = "ws.slot_phase"(%20) {depth = 4 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%21#0, %21#1) {barrier = "empty", channel = 0 : i32} : (i32, i32) -> ()
          %c1_i32 = arith.constant 1 : i32
          %22 = arith.addi %19, %c1_i32 : i32
          %23:2 = "ws.slot_phase"(%22) {depth = 4 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%23#0, %23#1) {barrier = "empty", channel = 0 : i32} : (i32, i32) -> ()
          %c2_i32 = arith.constant 2 : i32
          %24 = arith.addi %19, %c2_i32 : i32
          %25:2 = "ws.slot_phase"(%24) {depth = 4 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%25#0, %25#1) {barrier = "empty", channel = 0 : i32} : (i32, i32) -> ()
          %c3_i32 = arith.constant 3 : i32
          %26 = arith.addi %19, %c3_i32 : i32
          %27:2 = "ws.slot_phase"(%26) {depth = 4 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%27#0, %27#1) {barrier = "empty", channel = 0 : i32} : (i32, i32) -> ()
        }
        %c9_i32_4 = arith.constant 9 : i32
        %13 = arith.cmpi eq, %5, %c9_i32_4 : i32
        %14 = nvvm.elect.sync -> i1
        %15 = arith.andi %13, %14 : i1
        scf.if %15 {
          %19 = nvvm.read.ptx.sreg.cluster.ctarank : i32
          %c0_i32_5 = arith.constant 0 : i32
          %20 = arith.cmpi eq, %19, %c0_i32_5 : i32
          scf.if %20 {
            %c0_i32_6 = arith.constant 0 : i32
            %c0_i32_7 = arith.constant 0 : i32
            %21:2 = "ws.slot_phase"(%c0_i32_7) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%21#0, %21#1) {barrier = "empty", channel = 2 : i32} : (i32, i32) -> ()
            nvvm.tcgen05.fence <after>
            %22 = scf.for %arg6 = %c0_i32 to %arg5 step %c128_i32 iter_args(%arg7 = %c0_i32_6) -> (i32)  : i32 {
              %23:2 = "ws.slot_phase"(%arg7) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
              "ws.wait"(%23#0, %23#1) {barrier = "full", channel = 0 : i32} : (i32, i32) -> ()
              %24 = arith.cmpi ne, %arg7, %c0_i32_6 : i32
              "ws.tmem_copy"(%23#0) {ring = 2 : i32} : (i32) -> ()
              "ws.tmem_copy"(%23#0) {ring = 3 : i32} : (i32) -> ()
              "ws.tmem_copy"(%23#0) {ring = 4 : i32} : (i32) -> ()
              "ws.tc_mma"(%23#0, %21#0, %24) {ring_a = 0 : i32, ring_b = 1 : i32, transpose_b} : (i32, i32, i1) -> ()
              "ws.commit"(%23#0) {barrier = "empty", channel = 0 : i32, cluster} : (i32) -> ()
              %c1_i32 = arith.constant 1 : i32
              %25 = arith.addi %arg7, %c1_i32 : i32
              scf.yield %25 : i32
            }
            "ws.commit"(%21#0) {barrier = "full", channel = 2 : i32, cluster} : (i32) -> ()
          }
        }
        %c10_i32 = arith.constant 10 : i32
        %16 = arith.cmpi eq, %5, %c10_i32 : i32
        %17 = nvvm.elect.sync -> i1
        %18 = arith.andi %16, %17 : i1
        scf.if %18 {
          %c0_i32_5 = arith.constant 0 : i32
          %19:2 = "ws.slot_phase"(%c0_i32_5) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%19#0, %19#1) {barrier = "full", channel = 1 : i32} : (i32, i32) -> ()
          "ws.tma_store"(%arg4, %2, %3, %19#0) {ring = 5 : i32} : (!ws.tensor_desc<tensor<128x256xbf16>>, i32, i32, i32) -> ()
          nvvm.cp.async.bulk.commit.group
          nvvm.cp.async.bulk.wait_group 0
        }
      }
      nvvm.tcgen05.fence <before>
      nvvm.cluster.arrive {aligned}
      nvvm.cluster.wait {aligned}
      %c9_i32_2 = arith.constant 9 : i32
      %9 = arith.cmpi eq, %5, %c9_i32_2 : i32
      scf.if %9 {
        nvvm.tcgen05.fence <after>
        "ws.tmem_dealloc"() : () -> ()
      }
      gpu.return
    }
  }
}

