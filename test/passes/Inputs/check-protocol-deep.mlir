// The plan ws-pipeline{stage=plan} saves for @in6_16x64 of deep-kernels.mlir
// (six f32 input rings and an f8 output ring, 8 slots each, two compute
// warpgroups): the 8-stage protocol check-protocol-deep.mlir breaks.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @in6_16x64(%arg0: !ws.tensor_desc<tensor<16x64xf32>>, %arg1: !ws.tensor_desc<tensor<16x64xf32>>, %arg2: !ws.tensor_desc<tensor<16x64xf32>>, %arg3: !ws.tensor_desc<tensor<16x64xf32>>, %arg4: !ws.tensor_desc<tensor<16x64xf32>>, %arg5: !ws.tensor_desc<tensor<16x64xf32>>, %arg6: !ws.tensor_desc<tensor<16x64xf8E4M3FN>>, %arg7: i32) kernel attributes {ws.block_threads = 384 : i32, ws.blocks_per_sm = 1 : i32, ws.channels = [{consumer_phase = 0 : i32, depth = 8 : i32, drain = 0 : i32, empty = 204864 : i32, empty_arrivals = 256 : i32, expect_tx = 24576 : i32, from = "load", full = 204800 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = true, to = "compute"}, {consumer_phase = 0 : i32, depth = 8 : i32, drain = 7 : i32, empty = 204992 : i32, empty_arrivals = 1 : i32, expect_tx = 0 : i32, from = "compute", full = 204928 : i32, full_arrivals = 256 : i32, producer_phase = 1 : i32, publish_fence = true, release_fence = false, to = "store"}], ws.maxnreg = 168 : i32, ws.num_warps = 8 : i32, ws.partitions = [{first_warp = 8 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 8 : i32, registers = 240 : i32, role = "compute"}, {first_warp = 9 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}], ws.rings = [{align = 128 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 4096 : i32, swizzle = 0 : i32, tile = tensor<16x64xf32>}, {align = 128 : i32, channel = 0 : i32, offset = 32768 : i32, slot_bytes = 4096 : i32, swizzle = 0 : i32, tile = tensor<16x64xf32>}, {align = 128 : i32, channel = 0 : i32, offset = 65536 : i32, slot_bytes = 4096 : i32, swizzle = 0 : i32, tile = tensor<16x64xf32>}, {align = 128 : i32, channel = 0 : i32, offset = 98304 : i32, slot_bytes = 4096 : i32, swizzle = 0 : i32, tile = tensor<16x64xf32>}, {align = 128 : i32, channel = 0 : i32, offset = 131072 : i32, slot_bytes = 4096 : i32, swizzle = 0 : i32, tile = tensor<16x64xf32>}, {align = 128 : i32, channel = 0 : i32, offset = 163840 : i32, slot_bytes = 4096 : i32, swizzle = 0 : i32, tile = tensor<16x64xf32>}, {align = 128 : i32, channel = 1 : i32, offset = 196608 : i32, slot_bytes = 1024 : i32, swizzle = 0 : i32, tile = tensor<16x64xf8E4M3FN>}], ws.smem_bytes = 205056 : i32} {
      %block_id_x = gpu.block_id  x
      %0 = arith.index_cast %block_id_x : index to i32
      %c0_i32 = arith.constant 0 : i32
      %c16_i32 = arith.constant 16 : i32
      %c64_i32 = arith.constant 64 : i32
      %1 = arith.muli %0, %c16_i32 : i32
      %2 = nvvm.read.ptx.sreg.tid.x : i32
      %c32_i32 = arith.constant 32 : i32
      %3 = arith.divui %2, %c32_i32 : i32
      %c0_i32_0 = arith.constant 0 : i32
      %4 = arith.cmpi eq, %2, %c0_i32_0 : i32
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
        %c0_i32_1 = arith.constant 0 : i32
        %6 = scf.for %arg8 = %c0_i32 to %arg7 step %c64_i32 iter_args(%arg9 = %c0_i32_1) -> (i32)  : i32 {
          %7:2 = "ws.slot_phase"(%arg9) {depth = 8 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%7#0, %7#1) {barrier = "full", channel = 0 : i32} : (i32, i32) -> ()
          %8 = "ws.read_slot"(%7#0) {ring = 0 : i32} : (i32) -> tensor<16x64xf32>
          %9 = "ws.read_slot"(%7#0) {ring = 1 : i32} : (i32) -> tensor<16x64xf32>
          %10 = "ws.read_slot"(%7#0) {ring = 2 : i32} : (i32) -> tensor<16x64xf32>
          %11 = "ws.read_slot"(%7#0) {ring = 3 : i32} : (i32) -> tensor<16x64xf32>
          %12 = "ws.read_slot"(%7#0) {ring = 4 : i32} : (i32) -> tensor<16x64xf32>
          %13 = "ws.read_slot"(%7#0) {ring = 5 : i32} : (i32) -> tensor<16x64xf32>
          nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
          "ws.arrive"(%7#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()
          %14 = arith.addf %8, %9 : tensor<16x64xf32>
          %15 = arith.addf %14, %10 : tensor<16x64xf32>
          %16 = arith.addf %15, %11 : tensor<16x64xf32>
          %17 = arith.addf %16, %12 : tensor<16x64xf32>
          %18 = arith.addf %17, %13 : tensor<16x64xf32>
          %19 = arith.truncf %18 : tensor<16x64xf32> to tensor<16x64xf8E4M3FN>
          %20:2 = "ws.slot_phase"(%arg9) {depth = 8 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%20#0, %20#1) {barrier = "empty", channel = 1 : i32} : (i32, i32) -> ()
          "ws.write_slot"(%19, %20#0) {ring = 6 : i32} : (tensor<16x64xf8E4M3FN>, i32) -> ()
          nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
          "ws.arrive"(%20#0) {barrier = "full", channel = 1 : i32} : (i32) -> ()
          %c1_i32 = arith.constant 1 : i32
          %21 = arith.addi %arg9, %c1_i32 : i32
          scf.yield %21 : i32
        }
      } else {
        nvvm.setmaxregister  decrease 24
        %c8_i32_1 = arith.constant 8 : i32
        %6 = arith.cmpi eq, %3, %c8_i32_1 : i32
        %7 = nvvm.elect.sync -> i1
        %8 = arith.andi %6, %7 : i1
        scf.if %8 {
          %c0_i32_2 = arith.constant 0 : i32
          %12 = scf.for %arg8 = %c0_i32 to %arg7 step %c64_i32 iter_args(%arg9 = %c0_i32_2) -> (i32)  : i32 {
            %13:2 = "ws.slot_phase"(%arg9) {depth = 8 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%13#0, %13#1) {barrier = "empty", channel = 0 : i32} : (i32, i32) -> ()
            "ws.arrive_expect_tx"(%13#0) {bytes = 24576 : i32, channel = 0 : i32} : (i32) -> ()
            "ws.tma_load"(%arg0, %1, %arg8, %13#0) {ring = 0 : i32} : (!ws.tensor_desc<tensor<16x64xf32>>, i32, i32, i32) -> ()
            "ws.tma_load"(%arg1, %1, %arg8, %13#0) {ring = 1 : i32} : (!ws.tensor_desc<tensor<16x64xf32>>, i32, i32, i32) -> ()
            "ws.tma_load"(%arg2, %1, %arg8, %13#0) {ring = 2 : i32} : (!ws.tensor_desc<tensor<16x64xf32>>, i32, i32, i32) -> ()
            "ws.tma_load"(%arg3, %1, %arg8, %13#0) {ring = 3 : i32} : (!ws.tensor_desc<tensor<16x64xf32>>, i32, i32, i32) -> ()
            "ws.tma_load"(%arg4, %1, %arg8, %13#0) {ring = 4 : i32} : (!ws.tensor_desc<tensor<16x64xf32>>, i32, i32, i32) -> ()
            "ws.tma_load"(%arg5, %1, %arg8, %13#0) {ring = 5 : i32} : (!ws.tensor_desc<tensor<16x64xf32>>, i32, i32, i32) -> ()
            %c1_i32 = arith.constant 1 : i32
            %14 = arith.addi %arg9, %c1_i32 : i32
            scf.yield %14 : i32
          }
        }
        %c9_i32 = arith.constant 9 : i32
        %9 = arith.cmpi eq, %3, %c9_i32 : i32
        %10 = nvvm.elect.sync -> i1
        %11 = arith.andi %9, %10 : i1
        scf.if %11 {
          %c0_i32_2 = arith.constant 0 : i32
          %12 = scf.for %arg8 = %c0_i32 to %arg7 step %c64_i32 iter_args(%arg9 = %c0_i32_2) -> (i32)  : i32 {
            %13:2 = "ws.slot_phase"(%arg9) {depth = 8 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%13#0, %13#1) {barrier = "full", channel = 1 : i32} : (i32, i32) -> ()
            "ws.tma_store"(%arg6, %1, %arg8, %13#0) {ring = 6 : i32} : (!ws.tensor_desc<tensor<16x64xf8E4M3FN>>, i32, i32, i32) -> ()
            nvvm.cp.async.bulk.commit.group
            nvvm.cp.async.bulk.wait_group 7 {read}
            %c7_i32 = arith.constant 7 : i32
            %14 = arith.cmpi uge, %arg9, %c7_i32 : i32
            scf.if %14 {
              %16 = arith.subi %arg9, %c7_i32 : i32
              %17:2 = "ws.slot_phase"(%16) {depth = 8 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
              "ws.arrive"(%17#0) {barrier = "empty", channel = 1 : i32} : (i32) -> ()
            }
            %c1_i32 = arith.constant 1 : i32
            %15 = arith.addi %arg9, %c1_i32 : i32
            scf.yield %15 : i32
          }
          nvvm.cp.async.bulk.wait_group 0
        }
      }
      gpu.return
    }
  }
}

