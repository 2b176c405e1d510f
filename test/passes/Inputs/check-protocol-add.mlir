// A saved plan: ws-opt --ws-pipeline=stage=plan integration/add.mlir. The
// check-protocol-*.mlir tests edit it (sed in their RUN lines) into broken protocols.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @add(%arg0: !ws.tensor_desc<tensor<32x64xf32>>, %arg1: !ws.tensor_desc<tensor<32x64xf32>>, %arg2: !ws.tensor_desc<tensor<32x64xf32>>, %arg3: i32) kernel attributes {ws.block_threads = 256 : i32, ws.blocks_per_sm = 2 : i32, ws.channels = [{consumer_phase = 0 : i32, depth = 4 : i32, drain = 0 : i32, empty = 81952 : i32, empty_arrivals = 128 : i32, expect_tx = 16384 : i32, from = "load", full = 81920 : i32, full_arrivals = 1 : i32, producer_phase = 1 : i32, publish_fence = false, release_fence = true, to = "compute"}, {consumer_phase = 0 : i32, depth = 2 : i32, drain = 1 : i32, empty = 82000 : i32, empty_arrivals = 1 : i32, expect_tx = 0 : i32, from = "compute", full = 81984 : i32, full_arrivals = 128 : i32, producer_phase = 1 : i32, publish_fence = true, release_fence = false, to = "store"}], ws.maxnreg = 128 : i32, ws.num_warps = 4 : i32, ws.partitions = [{first_warp = 4 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 4 : i32, registers = 232 : i32, role = "compute"}, {first_warp = 5 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}], ws.rings = [{align = 128 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32, tile = tensor<32x64xf32>}, {align = 128 : i32, channel = 0 : i32, offset = 32768 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32, tile = tensor<32x64xf32>}, {align = 128 : i32, channel = 1 : i32, offset = 65536 : i32, slot_bytes = 8192 : i32, swizzle = 0 : i32, tile = tensor<32x64xf32>}], ws.smem_bytes = 82016 : i32} {
      %block_id_x = gpu.block_id  x
      %0 = arith.index_cast %block_id_x : index to i32
      %c0_i32 = arith.constant 0 : i32
      %c32_i32 = arith.constant 32 : i32
      %c64_i32 = arith.constant 64 : i32
      %1 = arith.muli %0, %c32_i32 : i32
      %2 = nvvm.read.ptx.sreg.tid.x : i32
      %c32_i32_0 = arith.constant 32 : i32
      %3 = arith.divui %2, %c32_i32_0 : i32
      %c0_i32_1 = arith.constant 0 : i32
      %4 = arith.cmpi eq, %2, %c0_i32_1 : i32
      scf.if %4 {
        "ws.init_barrier"() {barrier = "full", channel = 0 : i32, count = 1 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 0 : i32, count = 128 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "full", channel = 1 : i32, count = 128 : i32} : () -> ()
        "ws.init_barrier"() {barrier = "empty", channel = 1 : i32, count = 1 : i32} : () -> ()
        nvvm.fence.mbarrier.init
      }
      nvvm.barrier0
      %c4_i32 = arith.constant 4 : i32
      %5 = arith.cmpi ult, %3, %c4_i32 : i32
      scf.if %5 {
        nvvm.setmaxregister  increase 232
        %c0_i32_2 = arith.constant 0 : i32
        %6 = scf.for %arg4 = %c0_i32 to %arg3 step %c64_i32 iter_args(%arg5 = %c0_i32_2) -> (i32)  : i32 {
          %7:2 = "ws.slot_phase"(%arg5) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%7#0, %7#1) {barrier = "full", channel = 0 : i32} : (i32, i32) -> ()
          %8 = "ws.read_slot"(%7#0) {ring = 0 : i32} : (i32) -> tensor<32x64xf32>
          %9 = "ws.read_slot"(%7#0) {ring = 1 : i32} : (i32) -> tensor<32x64xf32>
          nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
          "ws.arrive"(%7#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()
          %10 = arith.addf %8, %9 : tensor<32x64xf32>
          %11:2 = "ws.slot_phase"(%arg5) {depth = 2 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
          "ws.wait"(%11#0, %11#1) {barrier = "empty", channel = 1 : i32} : (i32, i32) -> ()
          "ws.write_slot"(%10, %11#0) {ring = 2 : i32} : (tensor<32x64xf32>, i32) -> ()
          nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
          "ws.arrive"(%11#0) {barrier = "full", channel = 1 : i32} : (i32) -> ()
          %c1_i32 = arith.constant 1 : i32
          %12 = arith.addi %arg5, %c1_i32 : i32
          scf.yield %12 : i32
        }
      } else {
        nvvm.setmaxregister  decrease 24
        %c4_i32_2 = arith.constant 4 : i32
        %6 = arith.cmpi eq, %3, %c4_i32_2 : i32
        %7 = nvvm.elect.sync -> i1
        %8 = arith.andi %6, %7 : i1
        scf.if %8 {
          %c0_i32_3 = arith.constant 0 : i32
          %12 = scf.for %arg4 = %c0_i32 to %arg3 step %c64_i32 iter_args(%arg5 = %c0_i32_3) -> (i32)  : i32 {
            %13:2 = "ws.slot_phase"(%arg5) {depth = 4 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%13#0, %13#1) {barrier = "empty", channel = 0 : i32} : (i32, i32) -> ()
            "ws.arrive_expect_tx"(%13#0) {bytes = 16384 : i32, channel = 0 : i32} : (i32) -> ()
            "ws.tma_load"(%arg0, %1, %arg4, %13#0) {ring = 0 : i32} : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, i32) -> ()
            "ws.tma_load"(%arg1, %1, %arg4, %13#0) {ring = 1 : i32} : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, i32) -> ()
            %c1_i32 = arith.constant 1 : i32
            %14 = arith.addi %arg5, %c1_i32 : i32
            scf.yield %14 : i32
          }
        }
        %c5_i32 = arith.constant 5 : i32
        %9 = arith.cmpi eq, %3, %c5_i32 : i32
        %10 = nvvm.elect.sync -> i1
        %11 = arith.andi %9, %10 : i1
        scf.if %11 {
          %c0_i32_3 = arith.constant 0 : i32
          %12 = scf.for %arg4 = %c0_i32 to %arg3 step %c64_i32 iter_args(%arg5 = %c0_i32_3) -> (i32)  : i32 {
            %13:2 = "ws.slot_phase"(%arg5) {depth = 2 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
            "ws.wait"(%13#0, %13#1) {barrier = "full", channel = 1 : i32} : (i32, i32) -> ()
            "ws.tma_store"(%arg2, %1, %arg4, %13#0) {ring = 2 : i32} : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, i32) -> ()
            nvvm.cp.async.bulk.commit.group
            nvvm.cp.async.bulk.wait_group 1 {read}
            %c1_i32 = arith.constant 1 : i32
            %14 = arith.cmpi uge, %arg5, %c1_i32 : i32
            scf.if %14 {
              %16 = arith.subi %arg5, %c1_i32 : i32
              %17:2 = "ws.slot_phase"(%16) {depth = 2 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)
              "ws.arrive"(%17#0) {barrier = "empty", channel = 1 : i32} : (i32) -> ()
            }
            %c1_i32_4 = arith.constant 1 : i32
            %15 = arith.addi %arg5, %c1_i32_4 : i32
            scf.yield %15 : i32
          }
          nvvm.cp.async.bulk.wait_group 0
        }
      }
      gpu.return
    }
  }
}

