// A saved plan: ws-opt --ws-pipeline=stage=plan of the row suite's two-pass softmax over a row's chunks (softmax_chunks_bf16_4096 of integration/rows/variants.py).
// The check-protocol-*.mlir tests and the proof's mutation campaign edit it.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @softmax(%arg0: !ws.tensor_desc<tensor<1x4096xbf16>>, %arg1: !ws.tensor_desc<tensor<1x4096xbf16>>, %arg2: i32) kernel attributes {ws.block_threads = 256 : i32, ws.blocks_per_sm = 4 : i32, ws.channels = [{consumer_phase = 0 : i32, depth = 2 : i32, drain = 0 : i32, empty = 49168 : i32, empty_arrivals = 128 : i32, expect_tx = 8192 : i32, from = "load", full = 49152 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = true, to = "compute"}, {consumer_phase = 0 : i32, depth = 2 : i32, drain = 0 : i32, empty = 49200 : i32, empty_arrivals = 128 : i32, expect_tx = 8192 : i32, from = "load", full = 49184 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = true, to = "compute"}, {consumer_phase = 0 : i32, depth = 2 : i32, drain = 1 : i32, empty = 49232 : i32, empty_arrivals = 1 : i32, expect_tx = 0 : i32, from = "compute", full = 49216 : i32, full_arrivals = 128 : i32, producer_phase = 1 : i32, publish_fence = true, release_fence = false, to = "store"}], ws.maxnreg = 64 : i32, ws.num_warps = 4 : i32, ws.partitions = [{first_warp = 4 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 4 : i32, registers = 104 : i32, role = "compute"}, {first_warp = 5 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}], ws.rings = [{align = 128 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32, tile = tensor<1x4096xbf16>}, {align = 128 : i32, channel = 1 : i32, offset = 16384 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32, tile = tensor<1x4096xbf16>}, {align = 128 : i32, channel = 2 : i32, offset = 32768 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32, tile = tensor<1x4096xbf16>}], ws.row_scratch = array<i32: 49248, 32>, ws.smem_bytes = 49280 : i32} {
      %block_id_x = gpu.block_id  x
      %0 = arith.index_cast %block_id_x : index to i32
      %c0_i32 = arith.constant 0 : i32
      %c1_i32 = arith.constant 1 : i32
      %c4096_i32 = arith.constant 4096 : i32
      %1 = arith.muli %0, %c1_i32 : i32
      %cst = arith.constant dense<0xFF800000> : tensor<1x1xf32>
      %cst_0 = arith.constant dense<0.000000e+00> : tensor<1x1xf32>
      %2 = nvvm.read.ptx.sreg.tid.x : i32
      %c32_i32 = arith.constant 32 : i32
      %3 = arith.divui %2, %c32_i32 : i32
      %c0_i32_1 = arith.constant 0 : i32
      %4 = arith.cmpi eq, %2, %c0_i32_1 : i32
      scf.if %4 {
        "ws.init_barrier"() {barrier = "full", channel = 0 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 0 : i32, count = 128 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "full", channel = 1 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 1 : i32, count = 128 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "full", channel = 2 : i32, count = 128 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 2 : i32, count = 1 : i32} : () -> ()
        nvvm.fence.mbarrier.init
      }
      nvvm.barrier0
      %c4_i32 = arith.constant 4 : i32
      %5 = arith.cmpi ult, %3, %c4_i32 : i32
      scf.if %5 {
        nvvm.setmaxregister  increase 104
        %c0_i32_2 = arith.constant 0 : i32
        %6:3 = scf.for %arg3 = %c0_i32 to %arg2 step %c4096_i32 iter_args(%arg4 = %c0_i32_2, %arg5 = %cst, %arg6 = %cst_0) -> (i32, tensor<1x1xf32>, tensor<1x1xf32>)  : i32 {
          %9:2 = "ws.slot_phase"(%arg4) {depth = 2 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%9#0, %9#1) {barrier = "full", channel = 0 : i32} : (i32, i32) -> ()
          %10 = "ws.read_slot"(%9#0) {ring = 0 : i32} : (i32) -> tensor<1x4096xbf16>
          nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
          "ws.arrive"(%9#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()
          %11 = arith.extf %10 : tensor<1x4096xbf16> to tensor<1x4096xf32>
          %12 = "ws.iota"() {axis = 1 : i32} : () -> tensor<1x4096xi32>
          %splat = tensor.splat %arg3 : tensor<1x4096xi32>
          %13 = arith.addi %12, %splat : tensor<1x4096xi32>
          %splat_5 = tensor.splat %arg2 : tensor<1x4096xi32>
          %14 = arith.cmpi slt, %13, %splat_5 : tensor<1x4096xi32>
          %cst_6 = arith.constant dense<0xFF800000> : tensor<1x4096xf32>
          %15 = arith.select %14, %11, %cst_6 : tensor<1x4096xi1>, tensor<1x4096xf32>
          %16 = "ws.reduce"(%15) {axis = 1 : i32, kind = "max"} : (tensor<1x4096xf32>) -> tensor<1x1xf32>
          %17 = arith.maximumf %arg5, %16 : tensor<1x1xf32>
          %cst_7 = arith.constant dense<1.44269502> : tensor<1x1xf32>
          %18 = arith.subf %arg5, %17 : tensor<1x1xf32>
          %19 = arith.mulf %18, %cst_7 : tensor<1x1xf32>
          %20 = math.exp2 %19 fastmath<afn> : tensor<1x1xf32>
          %21 = "ws.broadcast"(%17) {axis = 0 : i32} : (tensor<1x1xf32>) -> tensor<1x4096xf32>
          %22 = arith.subf %15, %21 : tensor<1x4096xf32>
          %cst_8 = arith.constant dense<1.44269502> : tensor<1x4096xf32>
          %23 = arith.mulf %22, %cst_8 : tensor<1x4096xf32>
          %24 = math.exp2 %23 fastmath<afn> : tensor<1x4096xf32>
          %25 = "ws.reduce"(%24) {axis = 1 : i32, kind = "sum"} : (tensor<1x4096xf32>) -> tensor<1x1xf32>
          %26 = arith.mulf %arg6, %20 : tensor<1x1xf32>
          %27 = arith.addf %26, %25 : tensor<1x1xf32>
          %c1_i32_9 = arith.constant 1 : i32
          %28 = arith.addi %arg4, %c1_i32_9 : i32
          scf.yield %28, %17, %27 : i32, tensor<1x1xf32>, tensor<1x1xf32>
        }
        %cst_3 = arith.constant dense<1.000000e+00> : tensor<1x1xf32>
        %7 = arith.divf %cst_3, %6#2 : tensor<1x1xf32>
        %c0_i32_4 = arith.constant 0 : i32
        %8 = scf.for %arg3 = %c0_i32 to %arg2 step %c4096_i32 iter_args(%arg4 = %c0_i32_4) -> (i32)  : i32 {
          %9:2 = "ws.slot_phase"(%arg4) {depth = 2 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%9#0, %9#1) {barrier = "full", channel = 1 : i32} : (i32, i32) -> ()
          %10 = "ws.read_slot"(%9#0) {ring = 1 : i32} : (i32) -> tensor<1x4096xbf16>
          nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
          "ws.arrive"(%9#0) {barrier = "empty", channel = 1 : i32} : (i32) -> ()
          %11 = arith.extf %10 : tensor<1x4096xbf16> to tensor<1x4096xf32>
          %12 = "ws.broadcast"(%6#1) {axis = 0 : i32} : (tensor<1x1xf32>) -> tensor<1x4096xf32>
          %13 = arith.subf %11, %12 : tensor<1x4096xf32>
          %cst_5 = arith.constant dense<1.44269502> : tensor<1x4096xf32>
          %14 = arith.mulf %13, %cst_5 : tensor<1x4096xf32>
          %15 = math.exp2 %14 fastmath<afn> : tensor<1x4096xf32>
          %16 = "ws.broadcast"(%7) {axis = 0 : i32} : (tensor<1x1xf32>) -> tensor<1x4096xf32>
          %17 = arith.mulf %15, %16 : tensor<1x4096xf32>
          %18 = arith.truncf %17 : tensor<1x4096xf32> to tensor<1x4096xbf16>
          %19:2 = "ws.slot_phase"(%arg4) {depth = 2 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%19#0, %19#1) {barrier = "empty", channel = 2 : i32} : (i32, i32) -> ()
          "ws.write_slot"(%18, %19#0) {ring = 2 : i32} : (tensor<1x4096xbf16>, i32) -> ()
          nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
          "ws.arrive"(%19#0) {barrier = "full", channel = 2 : i32} : (i32) -> ()
          %c1_i32_6 = arith.constant 1 : i32
          %20 = arith.addi %arg4, %c1_i32_6 : i32
          scf.yield %20 : i32
        }
      } else {
        nvvm.setmaxregister  decrease 24
        %c4_i32_2 = arith.constant 4 : i32
        %6 = arith.cmpi eq, %3, %c4_i32_2 : i32
        %7 = nvvm.elect.sync -> i1
        %8 = arith.andi %6, %7 : i1
        scf.if %8 {
          %c0_i32_3 = arith.constant 0 : i32
          %12 = scf.for %arg3 = %c0_i32 to %arg2 step %c4096_i32 iter_args(%arg4 = %c0_i32_3) -> (i32)  : i32 {
            %14:2 = "ws.slot_phase"(%arg4) {depth = 2 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%14#0, %14#1) {barrier = "empty", channel = 0 : i32} : (i32, i32) -> ()
            "ws.arrive_expect_tx"(%14#0) {bytes = 8192 : i32, channel = 0 : i32} : (i32) -> ()
            "ws.tma_load"(%arg0, %1, %arg3, %14#0) {l2 = "evict_last", ring = 0 : i32} : (!ws.tensor_desc<tensor<1x4096xbf16>>, i32, i32, i32) -> ()
            %c1_i32_5 = arith.constant 1 : i32
            %15 = arith.addi %arg4, %c1_i32_5 : i32
            scf.yield %15 : i32
          }
          %c0_i32_4 = arith.constant 0 : i32
          %13 = scf.for %arg3 = %c0_i32 to %arg2 step %c4096_i32 iter_args(%arg4 = %c0_i32_4) -> (i32)  : i32 {
            %14:2 = "ws.slot_phase"(%arg4) {depth = 2 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%14#0, %14#1) {barrier = "empty", channel = 1 : i32} : (i32, i32) -> ()
            "ws.arrive_expect_tx"(%14#0) {bytes = 8192 : i32, channel = 1 : i32} : (i32) -> ()
            "ws.tma_load"(%arg0, %1, %arg3, %14#0) {l2 = "evict_first", ring = 1 : i32} : (!ws.tensor_desc<tensor<1x4096xbf16>>, i32, i32, i32) -> ()
            %c1_i32_5 = arith.constant 1 : i32
            %15 = arith.addi %arg4, %c1_i32_5 : i32
            scf.yield %15 : i32
          }
        }
        %c5_i32 = arith.constant 5 : i32
        %9 = arith.cmpi eq, %3, %c5_i32 : i32
        %10 = nvvm.elect.sync -> i1
        %11 = arith.andi %9, %10 : i1
        scf.if %11 {
          %c0_i32_3 = arith.constant 0 : i32
          %c0_i32_4 = arith.constant 0 : i32
          %12 = scf.for %arg3 = %c0_i32 to %arg2 step %c4096_i32 iter_args(%arg4 = %c0_i32_4) -> (i32)  : i32 {
            %13:2 = "ws.slot_phase"(%arg4) {depth = 2 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%13#0, %13#1) {barrier = "full", channel = 2 : i32} : (i32, i32) -> ()
            "ws.tma_store"(%arg1, %1, %arg3, %13#0) {ring = 2 : i32} : (!ws.tensor_desc<tensor<1x4096xbf16>>, i32, i32, i32) -> ()
            nvvm.cp.async.bulk.commit.group
            nvvm.cp.async.bulk.wait_group 1 {read}
            %c1_i32_5 = arith.constant 1 : i32
            %14 = arith.cmpi uge, %arg4, %c1_i32_5 : i32
            scf.if %14 {
              %16 = arith.subi %arg4, %c1_i32_5 : i32
              %17:2 = "ws.slot_phase"(%16) {depth = 2 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
              "ws.arrive"(%17#0) {barrier = "empty", channel = 2 : i32} : (i32) -> ()
            }
            %c1_i32_6 = arith.constant 1 : i32
            %15 = arith.addi %arg4, %c1_i32_6 : i32
            scf.yield %15 : i32
          }
          nvvm.cp.async.bulk.wait_group 0
        }
      }
      gpu.return
    }
  }
}

