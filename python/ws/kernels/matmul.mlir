// A persistent matmul family, C = A @ B^T (A: M x K, B: N x K, C: M x N),
// written once with its tunable constants as ws.Template fields:
//   ${BM} x ${BN}  the C tile a block computes (and the wgmma shape's M, N),
//   ${BK}          the K step (each ring slot holds A's BM x BK and B's
//                  BN x BK tile),
//   ${DTYPE}       the operands' and C's element type (f16 or bf16).
// The ring depth and the overlap of a tile's epilogue with the next tile
// are the planner's unless a config gives num_stages or overlap (pipeline
// options; ws.autotune passes a config's non-field keys to the pipeline).
// Two kernels, the same arguments: @matmul, persistent (one block per SM
// loops over C's tiles in the grouped order ws.tile_coords expands; any
// grid is correct), and @matmul_tiled, one block per tile (grid
// ceil(M / BM) x ceil(N / BN)), whose C tile reuses the rings' memory once
// its K loop is done, so its rings can be deeper. A config's "kernel" key
// picks one (ws.autotune).
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @matmul(%a: !ws.tensor_desc<tensor<${BM}x${BK}x${DTYPE}>>,
                     %b: !ws.tensor_desc<tensor<${BN}x${BK}x${DTYPE}>>,
                     %c: !ws.tensor_desc<tensor<${BM}x${BN}x${DTYPE}>>,
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
        %out = arith.truncf %acc : tensor<${BM}x${BN}xf32> to tensor<${BM}x${BN}x${DTYPE}>
        "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<${BM}x${BN}x${DTYPE}>>, i32, i32, tensor<${BM}x${BN}x${DTYPE}>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
    gpu.func @matmul_tiled(%a: !ws.tensor_desc<tensor<${BM}x${BK}x${DTYPE}>>,
                           %b: !ws.tensor_desc<tensor<${BN}x${BK}x${DTYPE}>>,
                           %c: !ws.tensor_desc<tensor<${BM}x${BN}x${DTYPE}>>,
                           %M: i32, %N: i32, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %cbk = arith.constant ${BK} : i32
      %cbm = arith.constant ${BM} : i32
      %cbn = arith.constant ${BN} : i32
      %zero = arith.constant dense<0.0> : tensor<${BM}x${BN}xf32>
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bxi = arith.index_cast %bx : index to i32
      %byi = arith.index_cast %by : index to i32
      %m = arith.muli %bxi, %cbm : i32
      %n = arith.muli %byi, %cbn : i32
      %acc = scf.for %k = %c0 to %K step %cbk iter_args(%acc0 = %zero) -> (tensor<${BM}x${BN}xf32>) : i32 {
        %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<${BM}x${BK}x${DTYPE}>>, i32, i32) -> tensor<${BM}x${BK}x${DTYPE}>
        %tb = "ws.load"(%b, %n, %k) : (!ws.tensor_desc<tensor<${BN}x${BK}x${DTYPE}>>, i32, i32) -> tensor<${BN}x${BK}x${DTYPE}>
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<${BM}x${BK}x${DTYPE}>, tensor<${BN}x${BK}x${DTYPE}>, tensor<${BM}x${BN}xf32>) -> tensor<${BM}x${BN}xf32>
        scf.yield %d : tensor<${BM}x${BN}xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<${BM}x${BN}xf32> to tensor<${BM}x${BN}x${DTYPE}>
      "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<${BM}x${BN}x${DTYPE}>>, i32, i32, tensor<${BM}x${BN}x${DTYPE}>) -> ()
      gpu.return
    }
  }
}
