module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @attention(%arg0: !ws.tensor_desc<tensor<128x128xf16>>, %arg1: !ws.tensor_desc<tensor<128x128xf16>>, %arg2: !ws.tensor_desc<tensor<128x128xf16>>, %arg3: !ws.tensor_desc<tensor<128x128xf16>>, %arg4: i32 {ws.divisibility = 128 : i32}, %arg5: f32) kernel attributes {ws.block_threads = 384 : i32, ws.blocks_per_sm = 1 : i32, ws.channels = [{consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 229384 : i32, empty_arrivals = 256 : i32, expect_tx = 32768 : i32, from = "load", full = 229376 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "compute"}, {consumer_phase = 0 : i32, depth = 3 : i32, drain = 0 : i32, empty = 229416 : i32, empty_arrivals = 256 : i32, expect_tx = 65536 : i32, from = "load", full = 229392 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = false, to = "compute"}, {consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 229448 : i32, empty_arrivals = 1 : i32, expect_tx = 0 : i32, from = "compute", full = 229440 : i32, full_arrivals = 256 : i32, producer_phase = 1 : i32, publish_fence = true, release_fence = false, to = "store"}], ws.maxnreg = 168 : i32, ws.num_warps = 8 : i32, ws.partitions = [{first_warp = 8 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 8 : i32, registers = 240 : i32, role = "compute"}, {first_warp = 9 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}], ws.rings = [{align = 1024 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 32768 : i32, swizzle = 128 : i32, tile = tensor<128x128xf16>}, {align = 1024 : i32, channel = 1 : i32, offset = 32768 : i32, slot_bytes = 32768 : i32, swizzle = 128 : i32, tile = tensor<128x128xf16>}, {align = 1024 : i32, channel = 1 : i32, offset = 131072 : i32, slot_bytes = 32768 : i32, swizzle = 128 : i32, tile = tensor<128x128xf16>}, {align = 1024 : i32, channel = 2 : i32, offset = 0 : i32, slot_bytes = 32768 : i32, swizzle = 128 : i32, tile = tensor<128x128xf16>}], ws.smem_bytes = 229456 : i32} {
      %c0_i32 = arith.constant 0 : i32
      %c128_i32 = arith.constant 128 : i32
      %c128_i32_0 = arith.constant 128 : i32
      %block_id_x = gpu.block_id  x
      %block_id_y = gpu.block_id  y
      %0 = arith.index_cast %block_id_x : index to i32
      %1 = arith.index_cast %block_id_y : index to i32
      %2 = arith.muli %1, %arg4 : i32
      %3 = arith.muli %0, %c128_i32 : i32
      %4 = arith.addi %2, %3 : i32
      %5 = arith.addi %2, %arg4 : i32
      %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
      %cst_1 = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
      %cst_2 = arith.constant dense<0xFF800000> : tensor<1x128xf32>
      %cst_3 = arith.constant dense<0.000000e+00> : tensor<1x128xf32>
      %6 = nvvm.read.ptx.sreg.tid.x : i32
      %c32_i32 = arith.constant 32 : i32
      %7 = arith.divui %6, %c32_i32 : i32
      %c0_i32_4 = arith.constant 0 : i32
      %8 = arith.cmpi eq, %6, %c0_i32_4 : i32
      scf.if %8 {
        "ws.init_barrier"() {barrier = "full", channel = 0 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 0 : i32, count = 256 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "full", channel = 1 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 1 : i32, count = 256 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "full", channel = 2 : i32, count = 256 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 2 : i32, count = 1 : i32} : () -> ()
        nvvm.fence.mbarrier.init
      }
      nvvm.barrier0
      %c8_i32 = arith.constant 8 : i32
      %9 = arith.cmpi ult, %7, %c8_i32 : i32
      scf.if %9 {
        nvvm.setmaxregister  increase 240
        %c0_i32_5 = arith.constant 0 : i32
        %c0_i32_6 = arith.constant 0 : i32
        %c0_i32_7 = arith.constant 0 : i32
        %10:2 = "ws.slot_phase"(%c0_i32_7) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
        "ws.wait"(%10#0, %10#1) {barrier = "full", channel = 0 : i32} : (i32, i32) -> ()
        %11:4 = scf.for %arg6 = %2 to %5 step %c128_i32_0 iter_args(%arg7 = %c0_i32_5, %arg8 = %cst_1, %arg9 = %cst_2, %arg10 = %cst_3) -> (i32, tensor<128x128xf32>, tensor<1x128xf32>, tensor<1x128xf32>)  : i32 {
          %18:2 = "ws.slot_phase"(%arg7) {depth = 3 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%18#0, %18#1) {barrier = "full", channel = 1 : i32} : (i32, i32) -> ()
          nvvm.wgmma.fence.aligned
          %19 = "ws.mma"(%18#0, %cst, %10#0) {ring_a = 0 : i32, ring_b = 1 : i32, transpose_b} : (i32, tensor<128x128xf32>, i32) -> tensor<128x128xf32>
          %splat = tensor.splat %arg5 : tensor<128x128xf32>
          nvvm.wgmma.commit.group.sync.aligned
          nvvm.wgmma.wait.group.sync.aligned 0
          %c1_i32_11 = arith.constant 1 : i32
          %20 = arith.cmpi uge, %arg7, %c1_i32_11 : i32
          scf.if %20 {
            %37 = arith.subi %arg7, %c1_i32_11 : i32
            %38:2 = "ws.slot_phase"(%37) {depth = 3 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            "ws.arrive"(%38#0) {barrier = "empty", channel = 1 : i32} : (i32) -> ()
          }
          %21 = arith.mulf %19, %splat : tensor<128x128xf32>
          %22 = "ws.reduce"(%21) {axis = 1 : i32, kind = "max"} : (tensor<128x128xf32>) -> tensor<1x128xf32>
          %23 = arith.maximumf %arg9, %22 : tensor<1x128xf32>
          %24 = "ws.broadcast"(%23) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
          %25 = arith.subf %21, %24 : tensor<128x128xf32>
          %26 = math.exp2 %25 : tensor<128x128xf32>
          %27 = "ws.reduce"(%26) {axis = 1 : i32, kind = "sum"} : (tensor<128x128xf32>) -> tensor<1x128xf32>
          %28 = arith.subf %arg9, %23 : tensor<1x128xf32>
          %29 = math.exp2 %28 : tensor<1x128xf32>
          %30 = arith.mulf %arg10, %29 : tensor<1x128xf32>
          %31 = arith.addf %30, %27 : tensor<1x128xf32>
          %32 = "ws.broadcast"(%29) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
          %33 = arith.mulf %arg8, %32 : tensor<128x128xf32>
          %34 = arith.truncf %26 : tensor<128x128xf32> to tensor<128x128xf16>
          nvvm.wgmma.fence.aligned
          %35 = "ws.mma"(%18#0, %33, %34) {ring_b = 2 : i32} : (i32, tensor<128x128xf32>, tensor<128x128xf16>) -> tensor<128x128xf32>
          nvvm.wgmma.commit.group.sync.aligned
          %c1_i32_12 = arith.constant 1 : i32
          %36 = arith.addi %arg7, %c1_i32_12 : i32
          scf.yield %36, %35, %23, %31 : i32, tensor<128x128xf32>, tensor<1x128xf32>, tensor<1x128xf32>
        }
        nvvm.wgmma.wait.group.sync.aligned 0
        %c1_i32 = arith.constant 1 : i32
        %12 = arith.cmpi uge, %11#0, %c1_i32 : i32
        scf.if %12 {
          %18 = arith.subi %11#0, %c1_i32 : i32
          %19:2 = "ws.slot_phase"(%18) {depth = 3 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.arrive"(%19#0) {barrier = "empty", channel = 1 : i32} : (i32) -> ()
        }
        %c0_i32_8 = arith.constant 0 : i32
        %13:2 = "ws.slot_phase"(%c0_i32_8) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
        "ws.arrive"(%13#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()
        %c1_i32_9 = arith.constant 1 : i32
        %c256_i32 = arith.constant 256 : i32
        nvvm.barrier id = %c1_i32_9 number_of_threads = %c256_i32
        %14 = "ws.broadcast"(%11#3) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
        %15 = arith.divf %11#1, %14 : tensor<128x128xf32>
        %16 = arith.truncf %15 : tensor<128x128xf32> to tensor<128x128xf16>
        %c0_i32_10 = arith.constant 0 : i32
        %17:2 = "ws.slot_phase"(%c0_i32_10) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
        "ws.wait"(%17#0, %17#1) {barrier = "empty", channel = 2 : i32} : (i32, i32) -> ()
        "ws.write_slot"(%16, %17#0) {ring = 3 : i32} : (tensor<128x128xf16>, i32) -> ()
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
        "ws.arrive"(%17#0) {barrier = "full", channel = 2 : i32} : (i32) -> ()
      } else {
        nvvm.setmaxregister  decrease 24
        %c8_i32_5 = arith.constant 8 : i32
        %10 = arith.cmpi eq, %7, %c8_i32_5 : i32
        %11 = nvvm.elect.sync -> i1
        %12 = arith.andi %10, %11 : i1
        scf.if %12 {
          %c0_i32_6 = arith.constant 0 : i32
          %c0_i32_7 = arith.constant 0 : i32
          %16:2 = "ws.slot_phase"(%c0_i32_6) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%16#0, %16#1) {barrier = "empty", channel = 0 : i32} : (i32, i32) -> ()
          "ws.arrive_expect_tx"(%16#0) {bytes = 32768 : i32, channel = 0 : i32} : (i32) -> ()
          "ws.tma_load"(%arg0, %4, %c0_i32, %16#0) {ring = 0 : i32} : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, i32) -> ()
          %17 = scf.for %arg6 = %2 to %5 step %c128_i32_0 iter_args(%arg7 = %c0_i32_6) -> (i32)  : i32 {
            %18:2 = "ws.slot_phase"(%arg7) {depth = 3 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%18#0, %18#1) {barrier = "empty", channel = 1 : i32} : (i32, i32) -> ()
            "ws.arrive_expect_tx"(%18#0) {bytes = 65536 : i32, channel = 1 : i32} : (i32) -> ()
            "ws.tma_load"(%arg1, %arg6, %c0_i32, %18#0) {ring = 1 : i32} : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, i32) -> ()
            "ws.tma_load"(%arg2, %arg6, %c0_i32, %18#0) {ring = 2 : i32} : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, i32) -> ()
            %c1_i32 = arith.constant 1 : i32
            %19 = arith.addi %arg7, %c1_i32 : i32
            scf.yield %19 : i32
          }
        }
        %c9_i32 = arith.constant 9 : i32
        %13 = arith.cmpi eq, %7, %c9_i32 : i32
        %14 = nvvm.elect.sync -> i1
        %15 = arith.andi %13, %14 : i1
        scf.if %15 {
          %c0_i32_6 = arith.constant 0 : i32
          %16:2 = "ws.slot_phase"(%c0_i32_6) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%16#0, %16#1) {barrier = "full", channel = 2 : i32} : (i32, i32) -> ()
          "ws.tma_store"(%arg3, %4, %c0_i32, %16#0) {ring = 3 : i32} : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, i32) -> ()
          nvvm.cp.async.bulk.commit.group
          nvvm.cp.async.bulk.wait_group 0
        }
      }
      gpu.return
    }
  }
}

