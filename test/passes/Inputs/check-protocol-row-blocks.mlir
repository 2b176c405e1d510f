// A saved plan: ws-opt --ws-pipeline=stage=plan of the row suite's add + RMSNorm over blocks of rows, its weight loaded once (add_rmsnorm_bf16_1024).
// The check-protocol-*.mlir tests and the proof's mutation campaign edit it.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @add_rmsnorm(%arg0: !ws.tensor_desc<tensor<4x1024xbf16>>, %arg1: !ws.tensor_desc<tensor<4x1024xbf16>>, %arg2: !ws.tensor_desc<tensor<1x1024xbf16>>, %arg3: !ws.tensor_desc<tensor<4x1024xbf16>>, %arg4: !ws.tensor_desc<tensor<4x1024xbf16>>, %arg5: i32, %arg6: f32) kernel attributes {ws.block_threads = 256 : i32, ws.blocks_per_sm = 4 : i32, ws.channels = [{consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 34824 : i32, empty_arrivals = 128 : i32, expect_tx = 2048 : i32, from = "load", full = 34816 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = true, to = "compute"}, {consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 34840 : i32, empty_arrivals = 128 : i32, expect_tx = 16384 : i32, from = "load", full = 34832 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = true, to = "compute"}, {consumer_phase = 0 : i32, depth = 1 : i32, drain = 0 : i32, empty = 34856 : i32, empty_arrivals = 1 : i32, expect_tx = 0 : i32, from = "compute", full = 34848 : i32, full_arrivals = 128 : i32, producer_phase = 1 : i32, publish_fence = true, release_fence = false, to = "store"}], ws.maxnreg = 64 : i32, ws.num_warps = 4 : i32, ws.partitions = [{first_warp = 4 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 4 : i32, registers = 104 : i32, role = "compute"}, {first_warp = 5 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}], ws.rings = [{align = 128 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 2048 : i32, swizzle = 0 : i32, tile = tensor<1x1024xbf16>}, {align = 128 : i32, channel = 1 : i32, offset = 2048 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32, tile = tensor<4x1024xbf16>}, {align = 128 : i32, channel = 1 : i32, offset = 10240 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32, tile = tensor<4x1024xbf16>}, {align = 128 : i32, channel = 2 : i32, offset = 18432 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32, tile = tensor<4x1024xbf16>}, {align = 128 : i32, channel = 2 : i32, offset = 26624 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32, tile = tensor<4x1024xbf16>}], ws.row_scratch = array<i32: 34864, 128>, ws.smem_bytes = 34992 : i32} {
      %block_id_x = gpu.block_id  x
      %grid_dim_x = gpu.grid_dim  x
      %0 = arith.index_cast %block_id_x : index to i32
      %1 = arith.index_cast %grid_dim_x : index to i32
      %c0_i32 = arith.constant 0 : i32
      %c4_i32 = arith.constant 4 : i32
      %2 = arith.muli %0, %c4_i32 : i32
      %3 = arith.muli %1, %c4_i32 : i32
      %c0_i32_0 = arith.constant 0 : i32
      %4 = arith.cmpi sgt, %3, %c0_i32_0 : i32
      %5 = arith.select %4, %arg5, %2 : i32
      %6 = nvvm.read.ptx.sreg.tid.x : i32
      %c32_i32 = arith.constant 32 : i32
      %7 = arith.divui %6, %c32_i32 : i32
      %c0_i32_1 = arith.constant 0 : i32
      %8 = arith.cmpi eq, %6, %c0_i32_1 : i32
      scf.if %8 {
        "ws.init_barrier"() {barrier = "full", channel = 0 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 0 : i32, count = 128 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "full", channel = 1 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 1 : i32, count = 128 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "full", channel = 2 : i32, count = 128 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 2 : i32, count = 1 : i32} : () -> ()
        nvvm.fence.mbarrier.init
      }
      nvvm.barrier0
      %c4_i32_2 = arith.constant 4 : i32
      %9 = arith.cmpi ult, %7, %c4_i32_2 : i32
      scf.if %9 {
        nvvm.setmaxregister  increase 104
        %c0_i32_3 = arith.constant 0 : i32
        %c0_i32_4 = arith.constant 0 : i32
        %10:2 = "ws.slot_phase"(%c0_i32_4) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
        "ws.wait"(%10#0, %10#1) {barrier = "full", channel = 0 : i32} : (i32, i32) -> ()
        %11 = "ws.read_slot"(%10#0) {ring = 0 : i32} : (i32) -> tensor<1x1024xbf16>
        %12 = scf.for %arg7 = %2 to %5 step %3 iter_args(%arg8 = %c0_i32_3) -> (i32)  : i32 {
          %14:2 = "ws.slot_phase"(%arg8) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%14#0, %14#1) {barrier = "full", channel = 1 : i32} : (i32, i32) -> ()
          %15 = "ws.read_slot"(%14#0) {ring = 1 : i32} : (i32) -> tensor<4x1024xbf16>
          %16 = "ws.read_slot"(%14#0) {ring = 2 : i32} : (i32) -> tensor<4x1024xbf16>
          nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
          "ws.arrive"(%14#0) {barrier = "empty", channel = 1 : i32} : (i32) -> ()
          %17 = arith.extf %11 : tensor<1x1024xbf16> to tensor<1x1024xf32>
          %18 = arith.extf %15 : tensor<4x1024xbf16> to tensor<4x1024xf32>
          %19 = arith.extf %16 : tensor<4x1024xbf16> to tensor<4x1024xf32>
          %20 = arith.addf %18, %19 : tensor<4x1024xf32>
          %21 = arith.truncf %20 : tensor<4x1024xf32> to tensor<4x1024xbf16>
          %22 = arith.extf %21 : tensor<4x1024xbf16> to tensor<4x1024xf32>
          %23 = arith.mulf %22, %22 : tensor<4x1024xf32>
          %24 = "ws.reduce"(%23) {axis = 1 : i32, kind = "sum"} : (tensor<4x1024xf32>) -> tensor<1x4xf32>
          %cst = arith.constant dense<9.765625E-4> : tensor<1x4xf32>
          %25 = arith.mulf %24, %cst : tensor<1x4xf32>
          %splat = tensor.splat %arg6 : tensor<1x4xf32>
          %26 = arith.addf %25, %splat : tensor<1x4xf32>
          %27 = math.rsqrt %26 : tensor<1x4xf32>
          %28 = "ws.broadcast"(%27) {axis = 0 : i32} : (tensor<1x4xf32>) -> tensor<4x1024xf32>
          %29 = "ws.broadcast"(%17) {axis = 1 : i32} : (tensor<1x1024xf32>) -> tensor<4x1024xf32>
          %30 = arith.mulf %22, %28 : tensor<4x1024xf32>
          %31 = arith.mulf %30, %29 : tensor<4x1024xf32>
          %32 = arith.truncf %31 : tensor<4x1024xf32> to tensor<4x1024xbf16>
          %33:2 = "ws.slot_phase"(%arg8) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%33#0, %33#1) {barrier = "empty", channel = 2 : i32} : (i32, i32) -> ()
          "ws.write_slot"(%21, %33#0) {ring = 3 : i32} : (tensor<4x1024xbf16>, i32) -> ()
          "ws.write_slot"(%32, %33#0) {ring = 4 : i32} : (tensor<4x1024xbf16>, i32) -> ()
          nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
          "ws.arrive"(%33#0) {barrier = "full", channel = 2 : i32} : (i32) -> ()
          %c1_i32 = arith.constant 1 : i32
          %34 = arith.addi %arg8, %c1_i32 : i32
          scf.yield %34 : i32
        }
        %c0_i32_5 = arith.constant 0 : i32
        %13:2 = "ws.slot_phase"(%c0_i32_5) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
        "ws.arrive"(%13#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()
      } else {
        nvvm.setmaxregister  decrease 24
        %c4_i32_3 = arith.constant 4 : i32
        %10 = arith.cmpi eq, %7, %c4_i32_3 : i32
        %11 = nvvm.elect.sync -> i1
        %12 = arith.andi %10, %11 : i1
        scf.if %12 {
          %c0_i32_4 = arith.constant 0 : i32
          %16:2 = "ws.slot_phase"(%c0_i32_4) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%16#0, %16#1) {barrier = "empty", channel = 0 : i32} : (i32, i32) -> ()
          "ws.arrive_expect_tx"(%16#0) {bytes = 2048 : i32, channel = 0 : i32} : (i32) -> ()
          "ws.tma_load"(%arg2, %c0_i32, %c0_i32, %16#0) {ring = 0 : i32} : (!ws.tensor_desc<tensor<1x1024xbf16>>, i32, i32, i32) -> ()
          %17 = scf.for %arg7 = %2 to %5 step %3 iter_args(%arg8 = %c0_i32_4) -> (i32)  : i32 {
            %18:2 = "ws.slot_phase"(%arg8) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%18#0, %18#1) {barrier = "empty", channel = 1 : i32} : (i32, i32) -> ()
            "ws.arrive_expect_tx"(%18#0) {bytes = 16384 : i32, channel = 1 : i32} : (i32) -> ()
            "ws.tma_load"(%arg0, %arg7, %c0_i32, %18#0) {ring = 1 : i32} : (!ws.tensor_desc<tensor<4x1024xbf16>>, i32, i32, i32) -> ()
            "ws.tma_load"(%arg1, %arg7, %c0_i32, %18#0) {ring = 2 : i32} : (!ws.tensor_desc<tensor<4x1024xbf16>>, i32, i32, i32) -> ()
            %c1_i32 = arith.constant 1 : i32
            %19 = arith.addi %arg8, %c1_i32 : i32
            scf.yield %19 : i32
          }
        }
        %c5_i32 = arith.constant 5 : i32
        %13 = arith.cmpi eq, %7, %c5_i32 : i32
        %14 = nvvm.elect.sync -> i1
        %15 = arith.andi %13, %14 : i1
        scf.if %15 {
          %c0_i32_4 = arith.constant 0 : i32
          %16 = scf.for %arg7 = %2 to %5 step %3 iter_args(%arg8 = %c0_i32_4) -> (i32)  : i32 {
            %17:2 = "ws.slot_phase"(%arg8) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%17#0, %17#1) {barrier = "full", channel = 2 : i32} : (i32, i32) -> ()
            "ws.tma_store"(%arg3, %arg7, %c0_i32, %17#0) {ring = 3 : i32} : (!ws.tensor_desc<tensor<4x1024xbf16>>, i32, i32, i32) -> ()
            "ws.tma_store"(%arg4, %arg7, %c0_i32, %17#0) {ring = 4 : i32} : (!ws.tensor_desc<tensor<4x1024xbf16>>, i32, i32, i32) -> ()
            nvvm.cp.async.bulk.commit.group
            nvvm.cp.async.bulk.wait_group 0 {read}
            %c0_i32_5 = arith.constant 0 : i32
            %18 = arith.cmpi uge, %arg8, %c0_i32_5 : i32
            scf.if %18 {
              %20 = arith.subi %arg8, %c0_i32_5 : i32
              %21:2 = "ws.slot_phase"(%20) {depth = 1 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
              "ws.arrive"(%21#0) {barrier = "empty", channel = 2 : i32} : (i32) -> ()
            }
            %c1_i32 = arith.constant 1 : i32
            %19 = arith.addi %arg8, %c1_i32 : i32
            scf.yield %19 : i32
          }
          nvvm.cp.async.bulk.wait_group 0
        }
      }
      gpu.return
    }
  }
}

