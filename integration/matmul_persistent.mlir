// The persistent matmul: C = relu(A @ B^T + bias) with one block per SM
// looping over the 128x256 tiles of C (seed 004's structure). ws.warp_specialize marks
// the tile loop; the K loop inside it carries the ws.dot accumulator, and
// the epilogue and the store follow it in the tile loop. Each partition
// gets its own copy of the tile loop: the load warp runs ahead into the
// next tile while the consumers finish this one, and the store warp drains
// each C tile while the consumers start the next. The bias (one value per
// column of C, a 1 x N tensor) is a ws.load in the epilogue: the load warp
// fetches each tile's 1 x 256 slice once it has issued the tile's K steps,
// and ws.broadcast spreads it over the tile's 128 rows.
//
// The tiles go in a grouped order (Triton's GROUP_SIZE_M): 8 rows of tiles
// at a time, down each column of the group, so that the blocks running at
// once share rows of A and columns of B in L2. Any scalar arith on the
// tile id can order them; this is one choice.
//
// Launch with grid_x = the launcher's matmul_persistent_persistent_grid()
// (SMs x blocks per SM); any grid is correct, extra blocks find no tile.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @matmul_persistent(%a: !ws.tensor_desc<tensor<128x64xf16>>,
                                %b: !ws.tensor_desc<tensor<256x64xf16>>,
                                %c: !ws.tensor_desc<tensor<128x256xf16>>,
                                %bias: !ws.tensor_desc<tensor<1x256xf16>>,
                                %M: i32, %N: i32, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c8 = arith.constant 8 : i32
      %c64 = arith.constant 64 : i32
      %c127 = arith.constant 127 : i32
      %c128 = arith.constant 128 : i32
      %c255 = arith.constant 255 : i32
      %c256 = arith.constant 256 : i32
      %zero = arith.constant dense<0.0> : tensor<128x256xf32>
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
        %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x256xf32>) : i32 {
          %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %tb = "ws.load"(%b, %n, %k) : (!ws.tensor_desc<tensor<256x64xf16>>, i32, i32) -> tensor<256x64xf16>
          %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<256x64xf16>, tensor<128x256xf32>) -> tensor<128x256xf32>
          scf.yield %d : tensor<128x256xf32>
        }
        %bias_row = "ws.load"(%bias, %c0, %n) : (!ws.tensor_desc<tensor<1x256xf16>>, i32, i32) -> tensor<1x256xf16>
        %bias_tile = "ws.broadcast"(%bias_row) {axis = 1 : i32} : (tensor<1x256xf16>) -> tensor<128x256xf16>
        %bias_f32 = arith.extf %bias_tile : tensor<128x256xf16> to tensor<128x256xf32>
        %biased = arith.addf %acc, %bias_f32 : tensor<128x256xf32>
        %relu = arith.maximumf %biased, %zero : tensor<128x256xf32>
        %out = arith.truncf %relu : tensor<128x256xf32> to tensor<128x256xf16>
        "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, tensor<128x256xf16>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
