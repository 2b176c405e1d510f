// swiglu_persistent: a persistent matmul whose K loop carries two accumulators
// sharing A, relu(A B^T + bias) * (A U^T) (see epilogue_run.py; its tests:
// test/passes/partition-schedule-persistent-accumulators.mlir).
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @swiglu_persistent(%a: !ws.tensor_desc<tensor<128x64xf16>>,
                                %b: !ws.tensor_desc<tensor<128x64xf16>>,
                                %c: !ws.tensor_desc<tensor<128x128xf16>>,
                                %bias: !ws.tensor_desc<tensor<1x128xf16>>, %u: !ws.tensor_desc<tensor<128x64xf16>>,
                                %M: i32, %N: i32, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c8 = arith.constant 8 : i32
      %c64 = arith.constant 64 : i32
      %c127 = arith.constant 127 : i32
      %c128 = arith.constant 128 : i32
      %c255 = arith.constant 127 : i32
      %c256 = arith.constant 128 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      // tiles of C: ceil(M / 128) x ceil(N / 256)
      %m_up = arith.addi %M, %c127 : i32
      %tiles_m = arith.divui %m_up, %c128 : i32
      %n_up = arith.addi %N, %c255 : i32
      %tiles_n = arith.divui %n_up, %c256 : i32
      %num_tiles = arith.muli %tiles_m, %tiles_n : i32
      %in_group = arith.muli %tiles_n, %c8 : i32
      %bx = gpu.block_id x
      %gx = gpu.grid_dim x
      %first = arith.index_cast %bx : index to i32
      %grid = arith.index_cast %gx : index to i32
      scf.for %t = %first to %num_tiles step %grid : i32 {
        // the tile's row and column in the grouped order
        %group = arith.divui %t, %in_group : i32
        %first_m = arith.muli %group, %c8 : i32
        %left = arith.subi %tiles_m, %first_m : i32
        %group_rows = arith.minui %left, %c8 : i32
        %in = arith.remui %t, %in_group : i32
        %row_in = arith.remui %in, %group_rows : i32
        %tile_m = arith.addi %first_m, %row_in : i32
        %tile_n = arith.divui %in, %group_rows : i32
        %m = arith.muli %tile_m, %c128 : i32
        %n = arith.muli %tile_n, %c256 : i32
        %acc:2 = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero, %accu0 = %zero) -> (tensor<128x128xf32>, tensor<128x128xf32>) : i32 {
          %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %tb = "ws.load"(%b, %n, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %tu = "ws.load"(%u, %n, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
          %du = "ws.dot"(%ta, %tu, %accu0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
          scf.yield %d, %du : tensor<128x128xf32>, tensor<128x128xf32>
        }
        %bias_row = "ws.load"(%bias, %c0, %n) : (!ws.tensor_desc<tensor<1x128xf16>>, i32, i32) -> tensor<1x128xf16>
        %bias_tile = "ws.broadcast"(%bias_row) {axis = 1 : i32} : (tensor<1x128xf16>) -> tensor<128x128xf16>
        %bias_f32 = arith.extf %bias_tile : tensor<128x128xf16> to tensor<128x128xf32>
        %biased = arith.addf %acc#0, %bias_f32 : tensor<128x128xf32>
        %relu0 = arith.maximumf %biased, %zero : tensor<128x128xf32>
        %relu = arith.mulf %relu0, %acc#1 : tensor<128x128xf32>
        %out = arith.truncf %relu : tensor<128x128xf32> to tensor<128x128xf16>
        "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
