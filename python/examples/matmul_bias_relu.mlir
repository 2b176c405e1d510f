// C = relu(A @ B^T + bias), a persistent matmul family (the example
// matmul_bias_relu.py tunes it): A is M x K, B is N x K, C is M x N and the
// bias one value per column of C, a 1 x N tensor. Fields: ${BM} x ${BN},
// the C tile; ${BK}, the K step; ${DTYPE}, f16 or bf16. The bias is a
// ws.load in the epilogue, spread over the tile's rows by ws.broadcast.
// One block per SM loops over the tiles in ws.tile_coords' grouped order.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @matmul_bias_relu(%a: !ws.tensor_desc<tensor<${BM}x${BK}x${DTYPE}>>,
                     %b: !ws.tensor_desc<tensor<${BN}x${BK}x${DTYPE}>>,
                     %c: !ws.tensor_desc<tensor<${BM}x${BN}x${DTYPE}>>,
                     %bias: !ws.tensor_desc<tensor<1x${BN}x${DTYPE}>>,
                     %M: i32, %N: i32, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %cbk = arith.constant ${BK} : i32
      %cbm1 = arith.constant ${BM - 1} : i32
      %cbn1 = arith.constant ${BN - 1} : i32
      %cbm = arith.constant ${BM} : i32
      %cbn = arith.constant ${BN} : i32
      %zero = arith.constant dense<0.0> : tensor<${BM}x${BN}xf32>
      // C's tiles: ceil(M / BM) x ceil(N / BN)
      %mp = arith.addi %M, %cbm1 : i32
      %tiles_m = arith.divui %mp, %cbm : i32
      %np = arith.addi %N, %cbn1 : i32
      %tiles_n = arith.divui %np, %cbn : i32
      %num_tiles = arith.muli %tiles_m, %tiles_n : i32
      %bx = gpu.block_id x
      %gx = gpu.grid_dim x
      %first = arith.index_cast %bx : index to i32
      %grid = arith.index_cast %gx : index to i32
      scf.for %t = %first to %num_tiles step %grid : i32 {
        %m, %n = "ws.tile_coords"(%t, %M, %N) {tile = array<i32: ${BM}, ${BN}>} : (i32, i32, i32) -> (i32, i32)
        %acc = scf.for %k = %c0 to %K step %cbk iter_args(%acc0 = %zero) -> (tensor<${BM}x${BN}xf32>) : i32 {
          %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<${BM}x${BK}x${DTYPE}>>, i32, i32) -> tensor<${BM}x${BK}x${DTYPE}>
          %tb = "ws.load"(%b, %n, %k) : (!ws.tensor_desc<tensor<${BN}x${BK}x${DTYPE}>>, i32, i32) -> tensor<${BN}x${BK}x${DTYPE}>
          %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<${BM}x${BK}x${DTYPE}>, tensor<${BN}x${BK}x${DTYPE}>, tensor<${BM}x${BN}xf32>) -> tensor<${BM}x${BN}xf32>
          scf.yield %d : tensor<${BM}x${BN}xf32>
        }
        %bias_row = "ws.load"(%bias, %c0, %n) : (!ws.tensor_desc<tensor<1x${BN}x${DTYPE}>>, i32, i32) -> tensor<1x${BN}x${DTYPE}>
        %bias_tile = "ws.broadcast"(%bias_row) {axis = 1 : i32} : (tensor<1x${BN}x${DTYPE}>) -> tensor<${BM}x${BN}x${DTYPE}>
        %bias_f32 = arith.extf %bias_tile : tensor<${BM}x${BN}x${DTYPE}> to tensor<${BM}x${BN}xf32>
        %biased = arith.addf %acc, %bias_f32 : tensor<${BM}x${BN}xf32>
        %relu = arith.maximumf %biased, %zero : tensor<${BM}x${BN}xf32>
        %out = arith.truncf %relu : tensor<${BM}x${BN}xf32> to tensor<${BM}x${BN}x${DTYPE}>
        "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<${BM}x${BN}x${DTYPE}>>, i32, i32, tensor<${BM}x${BN}x${DTYPE}>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
