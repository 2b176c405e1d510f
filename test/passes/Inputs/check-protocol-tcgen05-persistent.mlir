module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_100a">] {
    gpu.func @matmul_persistent(%arg0: !ws.tensor_desc<tensor<128x64xf16>>, %arg1: !ws.tensor_desc<tensor<256x64xf16>>, %arg2: !ws.tensor_desc<tensor<128x256xf16>>, %arg3: !ws.tensor_desc<tensor<1x256xf16>>, %arg4: i32, %arg5: i32, %arg6: i32) kernel attributes {ws.block_threads = 384 : i32, ws.blocks_per_sm = 1 : i32, ws.channels = [{consumer_phase = 0 : i32, depth = 3 : i32, drain = 0 : i32, empty = 214040 : i32, empty_arrivals = 1 : i32, expect_tx = 49152 : i32, from = "load", full = 214016 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "mma"}, {consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 214072 : i32, empty_arrivals = 256 : i32, expect_tx = 512 : i32, from = "load", full = 214064 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = true, to = "compute"}, {consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 214088 : i32, empty_arrivals = 1 : i32, expect_tx = 0 : i32, from = "compute", full = 214080 : i32, full_arrivals = 256 : i32, producer_phase = 1 : i32, publish_fence = true, release_fence = false, to = "store"}, {consumer_phase = 0 : i32, depth = 2 : i32, drain = 0 : i32, empty = 214112 : i32, empty_arrivals = 256 : i32, expect_tx = 0 : i32, from = "mma", full = 214096 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "compute"}], ws.maxnreg = 168 : i32, ws.num_warps = 8 : i32, ws.partitions = [{first_warp = 8 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 8 : i32, registers = 240 : i32, role = "compute"}, {first_warp = 9 : i32, name = "mma", num_warps = 1 : i32, registers = 24 : i32, role = "mma"}, {first_warp = 10 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}], ws.persistent, ws.rings = [{align = 1024 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32, tile = tensor<128x64xf16>}, {align = 1024 : i32, channel = 0 : i32, offset = 49152 : i32, slot_bytes = 32768 : i32, swizzle = 128 : i32, tile = tensor<256x64xf16>}, {align = 128 : i32, channel = 1 : i32, offset = 147456 : i32, slot_bytes = 512 : i32, swizzle = 0 : i32, tile = tensor<1x256xf16>}, {align = 1024 : i32, channel = 2 : i32, offset = 148480 : i32, slot_bytes = 65536 : i32, swizzle = 128 : i32, tile = tensor<128x256xf16>}], ws.smem_bytes = 214136 : i32, ws.tmem = {address = 214128 : i32, allocated = 512 : i32, channel = 3 : i32, columns = 256 : i32, tile = tensor<128x256xf32>}} {
      %c0_i32 = arith.constant 0 : i32
      %c8_i32 = arith.constant 8 : i32
      %c64_i32 = arith.constant 64 : i32
      %c127_i32 = arith.constant 127 : i32
      %c128_i32 = arith.constant 128 : i32
      %c255_i32 = arith.constant 255 : i32
      %c256_i32 = arith.constant 256 : i32
      %cst = arith.constant dense<0.000000e+00> : tensor<128x256xf32>
      %0 = arith.addi %arg4, %c127_i32 : i32
      %1 = arith.divui %0, %c128_i32 : i32
      %2 = arith.addi %arg5, %c255_i32 : i32
      %3 = arith.divui %2, %c256_i32 : i32
      %4 = arith.muli %1, %3 : i32
      %5 = arith.muli %3, %c8_i32 : i32
      %block_id_x = gpu.block_id  x
      %grid_dim_x = gpu.grid_dim  x
      %6 = arith.index_cast %block_id_x : index to i32
      %7 = arith.index_cast %grid_dim_x : index to i32
      %8 = nvvm.read.ptx.sreg.tid.x : i32
      %c32_i32 = arith.constant 32 : i32
      %9 = arith.divui %8, %c32_i32 : i32
      %c0_i32_0 = arith.constant 0 : i32
      %10 = arith.cmpi eq, %8, %c0_i32_0 : i32
      scf.if %10 {
        "ws.init_barrier"() {barrier = "full", channel = 0 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 0 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "full", channel = 1 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 1 : i32, count = 256 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "full", channel = 2 : i32, count = 256 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 2 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "full", channel = 3 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 3 : i32, count = 256 : i32} : () -> ()
        nvvm.fence.mbarrier.init
      }
      %c9_i32 = arith.constant 9 : i32
      %11 = arith.cmpi eq, %9, %c9_i32 : i32
      scf.if %11 {
        "ws.tmem_alloc"() : () -> ()
        nvvm.tcgen05.relinquish_alloc_permit
        nvvm.tcgen05.fence <before>
      }
      nvvm.barrier0
      nvvm.tcgen05.fence <after>
      %c8_i32_1 = arith.constant 8 : i32
      %12 = arith.cmpi ult, %9, %c8_i32_1 : i32
      scf.if %12 {
        nvvm.setmaxregister  increase 240
        %c0_i32_3 = arith.constant 0 : i32
        %14 = scf.for %arg7 = %6 to %4 step %7 iter_args(%arg8 = %c0_i32_3) -> (i32)  : i32 {
          %15:2 = "ws.slot_phase"(%arg8) {depth = 2 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%15#0, %15#1) {barrier = "full", channel = 3 : i32} : (i32, i32) -> ()
          nvvm.tcgen05.fence <after>
          %16 = arith.cmpi slt, %c0_i32, %arg6 : i32
          %17 = "ws.tmem_load"(%15#0, %16) : (i32, i1) -> tensor<128x256xf32>
          nvvm.tcgen05.fence <before>
          "ws.arrive"(%15#0) {barrier = "empty", channel = 3 : i32} : (i32) -> ()
          %18:2 = "ws.slot_phase"(%arg8) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%18#0, %18#1) {barrier = "full", channel = 1 : i32} : (i32, i32) -> ()
          %19 = "ws.read_slot"(%18#0) {ring = 2 : i32} : (i32) -> tensor<1x256xf16>
          nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
          "ws.arrive"(%18#0) {barrier = "empty", channel = 1 : i32} : (i32) -> ()
          %20 = "ws.broadcast"(%19) {axis = 1 : i32} : (tensor<1x256xf16>) -> tensor<128x256xf16>
          %21 = arith.extf %20 : tensor<128x256xf16> to tensor<128x256xf32>
          %22 = arith.addf %17, %21 : tensor<128x256xf32>
          %23 = arith.maximumf %22, %cst : tensor<128x256xf32>
          %24 = arith.truncf %23 : tensor<128x256xf32> to tensor<128x256xf16>
          %25:2 = "ws.slot_phase"(%arg8) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%25#0, %25#1) {barrier = "empty", channel = 2 : i32} : (i32, i32) -> ()
          "ws.write_slot"(%24, %25#0) {ring = 3 : i32} : (tensor<128x256xf16>, i32) -> ()
          nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
          "ws.arrive"(%25#0) {barrier = "full", channel = 2 : i32} : (i32) -> ()
          %c1_i32 = arith.constant 1 : i32
          %26 = arith.addi %arg8, %c1_i32 : i32
          scf.yield %26 : i32
        }
      } else {
        nvvm.setmaxregister  decrease 24
        %c8_i32_3 = arith.constant 8 : i32
        %14 = arith.cmpi eq, %9, %c8_i32_3 : i32
        %15 = nvvm.elect.sync -> i1
        %16 = arith.andi %14, %15 : i1
        scf.if %16 {
          %c0_i32_5 = arith.constant 0 : i32
          %c0_i32_6 = arith.constant 0 : i32
          %23:2 = scf.for %arg7 = %6 to %4 step %7 iter_args(%arg8 = %c0_i32_5, %arg9 = %c0_i32_6) -> (i32, i32)  : i32 {
            %24 = arith.divui %arg7, %5 : i32
            %25 = arith.muli %24, %c8_i32 : i32
            %26 = arith.subi %1, %25 : i32
            %27 = arith.minui %26, %c8_i32 : i32
            %28 = arith.remui %arg7, %5 : i32
            %29 = arith.remui %28, %27 : i32
            %30 = arith.addi %25, %29 : i32
            %31 = arith.divui %28, %27 : i32
            %32 = arith.muli %30, %c128_i32 : i32
            %33 = arith.muli %31, %c256_i32 : i32
            %34 = scf.for %arg10 = %c0_i32 to %arg6 step %c64_i32 iter_args(%arg11 = %arg8) -> (i32)  : i32 {
              %37:2 = "ws.slot_phase"(%arg11) {depth = 3 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
              "ws.wait"(%37#0, %37#1) {barrier = "empty", channel = 0 : i32} : (i32, i32) -> ()
              "ws.arrive_expect_tx"(%37#0) {bytes = 49152 : i32, channel = 0 : i32} : (i32) -> ()
              "ws.tma_load"(%arg0, %32, %arg10, %37#0) {ring = 0 : i32} : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32, i32) -> ()
              "ws.tma_load"(%arg1, %33, %arg10, %37#0) {ring = 1 : i32} : (!ws.tensor_desc<tensor<256x64xf16>>, i32, i32, i32) -> ()
              %c1_i32_7 = arith.constant 1 : i32
              %38 = arith.addi %arg11, %c1_i32_7 : i32
              scf.yield %38 : i32
            }
            %35:2 = "ws.slot_phase"(%arg9) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%35#0, %35#1) {barrier = "empty", channel = 1 : i32} : (i32, i32) -> ()
            "ws.arrive_expect_tx"(%35#0) {bytes = 512 : i32, channel = 1 : i32} : (i32) -> ()
            "ws.tma_load"(%arg3, %c0_i32, %33, %35#0) {ring = 2 : i32} : (!ws.tensor_desc<tensor<1x256xf16>>, i32, i32, i32) -> ()
            %c1_i32 = arith.constant 1 : i32
            %36 = arith.addi %arg9, %c1_i32 : i32
            scf.yield %34, %36 : i32, i32
          }
        }
        %c9_i32_4 = arith.constant 9 : i32
        %17 = arith.cmpi eq, %9, %c9_i32_4 : i32
        %18 = nvvm.elect.sync -> i1
        %19 = arith.andi %17, %18 : i1
        scf.if %19 {
          %c0_i32_5 = arith.constant 0 : i32
          %c0_i32_6 = arith.constant 0 : i32
          %23:2 = scf.for %arg7 = %6 to %4 step %7 iter_args(%arg8 = %c0_i32_5, %arg9 = %c0_i32_6) -> (i32, i32)  : i32 {
            %24:2 = "ws.slot_phase"(%arg9) {depth = 2 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%24#0, %24#1) {barrier = "empty", channel = 3 : i32} : (i32, i32) -> ()
            nvvm.tcgen05.fence <after>
            %25 = scf.for %arg10 = %c0_i32 to %arg6 step %c64_i32 iter_args(%arg11 = %arg8) -> (i32)  : i32 {
              %27:2 = "ws.slot_phase"(%arg11) {depth = 3 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
              "ws.wait"(%27#0, %27#1) {barrier = "full", channel = 0 : i32} : (i32, i32) -> ()
              %28 = arith.cmpi ne, %arg11, %arg8 : i32
              "ws.tc_mma"(%27#0, %24#0, %28) {ring_a = 0 : i32, ring_b = 1 : i32} : (i32, i32, i1) -> ()
              "ws.commit"(%27#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()
              %c1_i32_7 = arith.constant 1 : i32
              %29 = arith.addi %arg11, %c1_i32_7 : i32
              scf.yield %29 : i32
            }
            "ws.commit"(%24#0) {barrier = "full", channel = 3 : i32} : (i32) -> ()
            %c1_i32 = arith.constant 1 : i32
            %26 = arith.addi %arg9, %c1_i32 : i32
            scf.yield %25, %26 : i32, i32
          }
        }
        %c10_i32 = arith.constant 10 : i32
        %20 = arith.cmpi eq, %9, %c10_i32 : i32
        %21 = nvvm.elect.sync -> i1
        %22 = arith.andi %20, %21 : i1
        scf.if %22 {
          %c0_i32_5 = arith.constant 0 : i32
          %23 = scf.for %arg7 = %6 to %4 step %7 iter_args(%arg8 = %c0_i32_5) -> (i32)  : i32 {
            %24 = arith.divui %arg7, %5 : i32
            %25 = arith.muli %24, %c8_i32 : i32
            %26 = arith.subi %1, %25 : i32
            %27 = arith.minui %26, %c8_i32 : i32
            %28 = arith.remui %arg7, %5 : i32
            %29 = arith.remui %28, %27 : i32
            %30 = arith.addi %25, %29 : i32
            %31 = arith.divui %28, %27 : i32
            %32 = arith.muli %30, %c128_i32 : i32
            %33 = arith.muli %31, %c256_i32 : i32
            %34:2 = "ws.slot_phase"(%arg8) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%34#0, %34#1) {barrier = "full", channel = 2 : i32} : (i32, i32) -> ()
            "ws.tma_store"(%arg2, %32, %33, %34#0) {ring = 3 : i32} : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, i32) -> ()
            nvvm.cp.async.bulk.commit.group
            nvvm.cp.async.bulk.wait_group 0 {read}
            %c0_i32_6 = arith.constant 0 : i32
            %35 = arith.cmpi uge, %arg8, %c0_i32_6 : i32
            scf.if %35 {
              %37 = arith.subi %arg8, %c0_i32_6 : i32
              %38:2 = "ws.slot_phase"(%37) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
              "ws.arrive"(%38#0) {barrier = "empty", channel = 2 : i32} : (i32) -> ()
            }
            %c1_i32 = arith.constant 1 : i32
            %36 = arith.addi %arg8, %c1_i32 : i32
            scf.yield %36 : i32
          }
          nvvm.cp.async.bulk.wait_group 0
        }
      }
      nvvm.tcgen05.fence <before>
      nvvm.barrier0
      %c9_i32_2 = arith.constant 9 : i32
      %13 = arith.cmpi eq, %9, %c9_i32_2 : i32
      scf.if %13 {
        nvvm.tcgen05.fence <after>
        "ws.tmem_dealloc"() : () -> ()
      }
      gpu.return
    }
  }
}

