// RUN: not ws-opt --split-input-file --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule,ws-plan-memory,ws-insert-barriers,ws-specialize)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// Tile loops ws cannot make persistent, each a located error saying what a
// persistent tile loop must be.
// A tile loop that carries a value (a running tile count).
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @carries(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>, %c: !ws.tensor_desc<tensor<128x128xf16>>, %n: i32, %K: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c64 = arith.constant 64 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      // CHECK: persistent-errors.mlir:[[@LINE+1]]:12: error: 'scf.for' op is a persistent tile loop only if it carries nothing and holds one scf.for, a K loop carrying its ws.dot accumulators (it holds 1 loop(s) and carries 1 value(s); its K loop carries 1)
      %r = scf.for %t = %c0 to %n step %c1 iter_args(%x = %c0) -> (i32) : i32 {
        %m = arith.muli %t, %c64 : i32
        %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
          %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %tb = "ws.load"(%b, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
          scf.yield %d : tensor<128x128xf32>
        }
        %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
        "ws.store"(%c, %m, %m, %out) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
        %x1 = arith.addi %x, %c1 : i32
        scf.yield %x1 : i32
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----
// Two loops in the tile loop.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @two(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>, %c: !ws.tensor_desc<tensor<128x128xf16>>, %n: i32, %K: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c64 = arith.constant 64 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      // CHECK: persistent-errors.mlir:[[@LINE+1]]:7: error: 'scf.for' op is a persistent tile loop only if it carries nothing and holds one scf.for, a K loop carrying its ws.dot accumulators (it holds 2 loop(s) and carries 0 value(s); its K loop carries {{[0-9]+}})
      scf.for %t = %c0 to %n step %c1 : i32 {
        %m = arith.muli %t, %c64 : i32
        %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
          %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %tb = "ws.load"(%b, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
          scf.yield %d : tensor<128x128xf32>
        }
        scf.for %j = %c0 to %n step %c1 : i32 {
        }
        %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
        "ws.store"(%c, %m, %m, %out) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----
// A K loop whose upper bound depends on the tile (a triangular matmul).
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @bounds(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>, %c: !ws.tensor_desc<tensor<128x128xf16>>, %n: i32, %K: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c64 = arith.constant 64 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      scf.for %t = %c0 to %n step %c1 : i32 {
        %m = arith.muli %t, %c64 : i32
        %kt = arith.addi %m, %c64 : i32
        // CHECK: persistent-errors.mlir:[[@LINE+1]]:16: error: 'scf.for' op has its upper bound computed inside the tile loop; every tile runs the same K steps (only ws.split_k = "stream" varies them), so compute the K loop's bounds before the tile loop
        %acc = scf.for %k = %c0 to %kt step %c64 iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
          %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %tb = "ws.load"(%b, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
          scf.yield %d : tensor<128x128xf32>
        }
        %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
        "ws.store"(%c, %m, %m, %out) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----
// A ws.load before the K loop (an operand loaded once per tile).
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @load_before(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>, %c: !ws.tensor_desc<tensor<128x128xf16>>, %n: i32, %K: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c64 = arith.constant 64 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      scf.for %t = %c0 to %n step %c1 : i32 {
        %m = arith.muli %t, %c64 : i32
        // CHECK: persistent-errors.mlir:[[@LINE+1]]:16: error: 'ws.load' op cannot come before the K loop of a persistent tile loop; there: scalar arith (the tile's coordinates) and splat tiles
        %ta0 = "ws.load"(%a, %m, %c0) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
          %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %tb = "ws.load"(%b, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
          scf.yield %d : tensor<128x128xf32>
        }
        %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
        "ws.store"(%c, %m, %m, %out) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----
// The inner loop carries no accumulator: an elementwise loop inside a tile loop.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @elementwise(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>, %c: !ws.tensor_desc<tensor<128x128xf16>>, %n: i32, %K: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c64 = arith.constant 64 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      // CHECK: persistent-errors.mlir:[[@LINE+1]]:7: error: 'scf.for' op is a persistent tile loop only if it carries nothing and holds one scf.for, a K loop carrying its ws.dot accumulators (it holds 1 loop(s) and carries 0 value(s); its K loop carries 0)
      scf.for %t = %c0 to %n step %c1 : i32 {
        scf.for %k = %c0 to %K step %c64 : i32 {
          %ta = "ws.load"(%a, %t, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        }
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----
// An op the epilogue has no place for (a tensor.empty).
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @epilogue_load(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>, %c: !ws.tensor_desc<tensor<128x128xf16>>, %n: i32, %K: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c64 = arith.constant 64 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      scf.for %t = %c0 to %n step %c1 : i32 {
        %m = arith.muli %t, %c64 : i32
        %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
          %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %tb = "ws.load"(%b, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
          scf.yield %d : tensor<128x128xf32>
        }
        // CHECK: persistent-errors.mlir:[[@LINE+1]]:14: error: 'tensor.empty' op cannot be in the epilogue of a warp-specialized matmul; after the loop: elementwise arith/math on its result, ws.load of an operand (a residual, or a bias through ws.broadcast), tensor.splat of a scalar, scalar arith, ws.store
        %e = tensor.empty() : tensor<128x128xf32>
        %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
        "ws.store"(%c, %m, %m, %out) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----
// A tile loop inside an scf.if: the partitions replace the tile loop at the kernel's top level.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @nested(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>, %c: !ws.tensor_desc<tensor<128x128xf16>>, %n: i32, %K: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c64 = arith.constant 64 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %p = arith.cmpi sgt, %n, %c0 : i32
      scf.if %p {
        // CHECK: persistent-errors.mlir:[[@LINE+1]]:9: error: 'scf.for' op must be at the top level of its kernel to be specialized
        scf.for %t = %c0 to %n step %c1 : i32 {
          %m = arith.muli %t, %c64 : i32
          %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
          %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %tb = "ws.load"(%b, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
          scf.yield %d : tensor<128x128xf32>
        }
          %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
        "ws.store"(%c, %m, %m, %out) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
        } {ws.warp_specialize}
      }
      gpu.return
    }
  }
}

// -----
// ws.overlap = "pingpong" where one warpgroup cannot hold the 128x256 accumulator.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @pingpong256(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<256x64xf16>>, %c: !ws.tensor_desc<tensor<128x256xf16>>, %n: i32, %K: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c64 = arith.constant 64 : i32
      %zero = arith.constant dense<0.0> : tensor<128x256xf32>
      // CHECK: persistent-errors.mlir:[[@LINE+1]]:7: error: 'scf.for' op asks for ws.overlap = "pingpong", where each consumer warpgroup holds a whole 128x256 accumulator on its own; here 1 tile(s) of N = 256 (the accumulator), 256 f32 per thread where 128 fit (ping-pong needs 8 warps, M = 128 and N <= 128; "cooperative" has no such limit)
      scf.for %t = %c0 to %n step %c1 : i32 {
        %m = arith.muli %t, %c64 : i32
        %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x256xf32>) : i32 {
          %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %tb = "ws.load"(%b, %m, %k) : (!ws.tensor_desc<tensor<256x64xf16>>, i32, i32) -> tensor<256x64xf16>
          %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<256x64xf16>, tensor<128x256xf32>) -> tensor<128x256xf32>
          scf.yield %d : tensor<128x256xf32>
        }
        %out = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xf16>
        "ws.store"(%c, %m, %m, %out) : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, tensor<128x256xf16>) -> ()
      } {ws.overlap = "pingpong", ws.warp_specialize}
      gpu.return
    }
  }
}

// -----
// ws.overlap with a value ws does not know.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @badoverlap(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>, %c: !ws.tensor_desc<tensor<128x128xf16>>, %n: i32, %K: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c64 = arith.constant 64 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      // CHECK: persistent-errors.mlir:[[@LINE+1]]:7: error: 'scf.for' op carries ws.overlap; it is "pingpong" or "cooperative" (sm_90a), or "tmem" (sm_100a), on the scf.for over tile ids of a persistent matmul
      scf.for %t = %c0 to %n step %c1 : i32 {
        %m = arith.muli %t, %c64 : i32
        %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
          %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %tb = "ws.load"(%b, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
          scf.yield %d : tensor<128x128xf32>
        }
        %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
        "ws.store"(%c, %m, %m, %out) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      } {ws.overlap = "alternate", ws.warp_specialize}
      gpu.return
    }
  }
}

// -----

// The K loop of a persistent kernel marked instead of its loop over tiles.
// CHECK: persistent-errors.mlir:[[@LINE+24]]:14: error: 'scf.for' op must be at the top level of its kernel to be specialized; in a persistent kernel, mark the loop over tiles around it (at [[@LINE+22]]:7) instead
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @pmm_128x256x64_w8(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<256x64xf16>>, %c: !ws.tensor_desc<tensor<128x256xf16>>, %M: i32, %N: i32, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %cbk = arith.constant 64 : i32
      %cbm = arith.constant 128 : i32
      %cbn = arith.constant 256 : i32
      %zero = arith.constant dense<0.0> : tensor<128x256xf32>
      %c1 = arith.constant 1 : i32
      %mp = arith.addi %M, %cbm : i32
      %mp1 = arith.subi %mp, %c1 : i32
      %tiles_m = arith.divui %mp1, %cbm : i32
      %np = arith.addi %N, %cbn : i32
      %np1 = arith.subi %np, %c1 : i32
      %tiles_n = arith.divui %np1, %cbn : i32
      %num_tiles = arith.muli %tiles_m, %tiles_n : i32
      %bx = gpu.block_id x
      %gx = gpu.grid_dim x
      %first = arith.index_cast %bx : index to i32
      %grid = arith.index_cast %gx : index to i32
      scf.for %t = %first to %num_tiles step %grid : i32 {
        %m, %n = "ws.tile_coords"(%t, %M, %N) {tile = array<i32: 128, 256>} : (i32, i32, i32) -> (i32, i32)
      %acc = scf.for %k = %c0 to %K step %cbk iter_args(%acc0 = %zero) -> (tensor<128x256xf32>) : i32 {
        %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %n, %k) : (!ws.tensor_desc<tensor<256x64xf16>>, i32, i32) -> tensor<256x64xf16>
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<256x64xf16>, tensor<128x256xf32>) -> tensor<128x256xf32>
        scf.yield %d : tensor<128x256xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xf16>
      "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, tensor<128x256xf16>) -> ()
      }
      gpu.return
    }
  }
}

// -----

// Both loops marked.
// CHECK: persistent-errors.mlir:[[@LINE+24]]:14: error: 'scf.for' op carries ws.warp_specialize inside the loop marked at [[@LINE+22]]:7; mark one loop: a persistent kernel's loop over tiles, or else its K loop
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @pmm_128x256x64_w8(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<256x64xf16>>, %c: !ws.tensor_desc<tensor<128x256xf16>>, %M: i32, %N: i32, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %cbk = arith.constant 64 : i32
      %cbm = arith.constant 128 : i32
      %cbn = arith.constant 256 : i32
      %zero = arith.constant dense<0.0> : tensor<128x256xf32>
      %c1 = arith.constant 1 : i32
      %mp = arith.addi %M, %cbm : i32
      %mp1 = arith.subi %mp, %c1 : i32
      %tiles_m = arith.divui %mp1, %cbm : i32
      %np = arith.addi %N, %cbn : i32
      %np1 = arith.subi %np, %c1 : i32
      %tiles_n = arith.divui %np1, %cbn : i32
      %num_tiles = arith.muli %tiles_m, %tiles_n : i32
      %bx = gpu.block_id x
      %gx = gpu.grid_dim x
      %first = arith.index_cast %bx : index to i32
      %grid = arith.index_cast %gx : index to i32
      scf.for %t = %first to %num_tiles step %grid : i32 {
        %m, %n = "ws.tile_coords"(%t, %M, %N) {tile = array<i32: 128, 256>} : (i32, i32, i32) -> (i32, i32)
      %acc = scf.for %k = %c0 to %K step %cbk iter_args(%acc0 = %zero) -> (tensor<128x256xf32>) : i32 {
        %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %n, %k) : (!ws.tensor_desc<tensor<256x64xf16>>, i32, i32) -> tensor<256x64xf16>
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<256x64xf16>, tensor<128x256xf32>) -> tensor<128x256xf32>
        scf.yield %d : tensor<128x256xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xf16>
      "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, tensor<128x256xf16>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
