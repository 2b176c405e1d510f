// RUN: not ws-opt --split-input-file --pass-pipeline='builtin.module(ws-split-k)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// What ws.split_k cannot take, each a located error.

// A tile loop that every block runs whole: its units would not be spread over
// the grid in order.
// CHECK: split-k-errors.mlir:[[@LINE+15]]:7: error: 'scf.for' op asks for ws.split_k = true, but it does not start at gpu.block_id x; it must run from gpu.block_id x in steps of gpu.grid_dim x, the form whose blocks take their units in order, which the split's waits rely on
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @k(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>,
                %c: !ws.tensor_desc<tensor<128x128xf16>>, %T: i32, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %bx = gpu.block_id x
      %gx = gpu.grid_dim x
      %first = arith.index_cast %bx : index to i32
      %grid = arith.index_cast %gx : index to i32
      scf.for %t = %c0 to %T step %c1 : i32 {
        %m = arith.muli %t, %c128 : i32
        %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
          %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %tb = "ws.load"(%b, %c0, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
          scf.yield %d : tensor<128x128xf32>
        }
        %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
        "ws.store"(%c, %m, %c0, %out) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      } {ws.warp_specialize, ws.split_k = true}
      gpu.return
    }
  }
}

// -----

// A tile loop from the block id in steps of 1: its blocks' units overlap.
// CHECK: split-k-errors.mlir:[[@LINE+15]]:7: error: 'scf.for' op asks for ws.split_k = true, but it does not step by gpu.grid_dim x; it must run from gpu.block_id x in steps of gpu.grid_dim x
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @k(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>,
                %c: !ws.tensor_desc<tensor<128x128xf16>>, %T: i32, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %bx = gpu.block_id x
      %gx = gpu.grid_dim x
      %first = arith.index_cast %bx : index to i32
      %grid = arith.index_cast %gx : index to i32
      scf.for %t = %first to %T step %c1 : i32 {
        %m = arith.muli %t, %c128 : i32
        %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
          %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %tb = "ws.load"(%b, %c0, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
          scf.yield %d : tensor<128x128xf32>
        }
        %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
        "ws.store"(%c, %m, %c0, %out) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      } {ws.warp_specialize, ws.split_k = true}
      gpu.return
    }
  }
}


// -----

// A K loop from another start than 0.
// CHECK: split-k-errors.mlir:[[@LINE+17]]:16: error: 'scf.for' op is the K loop of a tile loop marked ws.split_k = true, but it does not run from 0 in a constant step (the splits divide its steps); run it from 0 in steps of the K tile and add any offset to the ws.load coordinates
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @k(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>,
                %c: !ws.tensor_desc<tensor<128x128xf16>>, %T: i32, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %bx = gpu.block_id x
      %gx = gpu.grid_dim x
      %first = arith.index_cast %bx : index to i32
      %grid = arith.index_cast %gx : index to i32
      scf.for %t = %first to %T step %grid : i32 {
        %m = arith.muli %t, %c128 : i32
        %acc = scf.for %k = %c64 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
          %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %tb = "ws.load"(%b, %c0, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
          scf.yield %d : tensor<128x128xf32>
        }
        %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
        "ws.store"(%c, %m, %c0, %out) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      } {ws.warp_specialize, ws.split_k = true}
      gpu.return
    }
  }
}

// -----

// Clusters.
// CHECK: split-k-errors.mlir:[[@LINE+15]]:7: error: 'scf.for' op asks for ws.split_k = true, but it runs in clusters (ws.cluster), which split-K does not take yet
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @k(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>,
                %c: !ws.tensor_desc<tensor<128x128xf16>>, %T: i32, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32, ws.cluster = array<i32: 2, 1>} {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %bx = gpu.block_id x
      %gx = gpu.grid_dim x
      %first = arith.index_cast %bx : index to i32
      %grid = arith.index_cast %gx : index to i32
      scf.for %t = %first to %T step %grid : i32 {
        %m = arith.muli %t, %c128 : i32
        %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
          %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %tb = "ws.load"(%b, %c0, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
          scf.yield %d : tensor<128x128xf32>
        }
        %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
        "ws.store"(%c, %m, %c0, %out) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      } {ws.warp_specialize, ws.split_k = true}
      gpu.return
    }
  }
}

// -----

// Not a boolean.
// CHECK: split-k-errors.mlir:[[@LINE+15]]:7: error: 'scf.for' op ws.split_k = 2 : i32; expected true or false, or "stream" (how many blocks share a tile is chosen at run time: clamp(grid / tiles, 1, min(4, K steps / 8)); "stream" shares the last two waves' K steps out evenly)
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @k(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>,
                %c: !ws.tensor_desc<tensor<128x128xf16>>, %T: i32, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %bx = gpu.block_id x
      %gx = gpu.grid_dim x
      %first = arith.index_cast %bx : index to i32
      %grid = arith.index_cast %gx : index to i32
      scf.for %t = %first to %T step %grid : i32 {
        %m = arith.muli %t, %c128 : i32
        %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
          %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %tb = "ws.load"(%b, %c0, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
          scf.yield %d : tensor<128x128xf32>
        }
        %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
        "ws.store"(%c, %m, %c0, %out) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      } {ws.warp_specialize, ws.split_k = 2 : i32}
      gpu.return
    }
  }
}

// -----

// sm_100a: the accumulator lives in tensor memory.
// CHECK: split-k-errors.mlir:[[@LINE+15]]:7: error: 'scf.for' op asks for ws.split_k = true, but it is on a chip whose accumulator lives in tensor memory (sm_100a), where split-K is not built yet
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_100a">] {
    gpu.func @k(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>,
                %c: !ws.tensor_desc<tensor<128x128xf16>>, %T: i32, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %bx = gpu.block_id x
      %gx = gpu.grid_dim x
      %first = arith.index_cast %bx : index to i32
      %grid = arith.index_cast %gx : index to i32
      scf.for %t = %first to %T step %grid : i32 {
        %m = arith.muli %t, %c128 : i32
        %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
          %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %tb = "ws.load"(%b, %c0, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
          scf.yield %d : tensor<128x128xf32>
        }
        %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
        "ws.store"(%c, %m, %c0, %out) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      } {ws.warp_specialize, ws.split_k = true}
      gpu.return
    }
  }
}

// -----

// Stream-K in clusters.
// CHECK: split-k-errors.mlir:[[@LINE+15]]:7: error: 'scf.for' op asks for ws.split_k = "stream", but it runs in clusters (ws.cluster), which split-K does not take yet
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @k(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>,
                %c: !ws.tensor_desc<tensor<128x128xf16>>, %T: i32, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32, ws.cluster = array<i32: 2, 1>} {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %bx = gpu.block_id x
      %gx = gpu.grid_dim x
      %first = arith.index_cast %bx : index to i32
      %grid = arith.index_cast %gx : index to i32
      scf.for %t = %first to %T step %grid : i32 {
        %m = arith.muli %t, %c128 : i32
        %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
          %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %tb = "ws.load"(%b, %c0, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
          scf.yield %d : tensor<128x128xf32>
        }
        %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
        "ws.store"(%c, %m, %c0, %out) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      } {ws.warp_specialize, ws.split_k = "stream"}
      gpu.return
    }
  }
}

// -----

// A string other than "stream".
// CHECK: split-k-errors.mlir:[[@LINE+15]]:7: error: 'scf.for' op ws.split_k = "chunks"; the one string it takes is "stream" (stream-K), else true or false
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @k(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>,
                %c: !ws.tensor_desc<tensor<128x128xf16>>, %T: i32, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %bx = gpu.block_id x
      %gx = gpu.grid_dim x
      %first = arith.index_cast %bx : index to i32
      %grid = arith.index_cast %gx : index to i32
      scf.for %t = %first to %T step %grid : i32 {
        %m = arith.muli %t, %c128 : i32
        %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
          %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %tb = "ws.load"(%b, %c0, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
          scf.yield %d : tensor<128x128xf32>
        }
        %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
        "ws.store"(%c, %m, %c0, %out) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      } {ws.warp_specialize, ws.split_k = "chunks"}
      gpu.return
    }
  }
}

// -----

// The mark on the K loop, the split on the tile loop.
// CHECK: split-k-errors.mlir:[[@LINE+15]]:7: error: 'scf.for' op carries ws.split_k; it belongs on the scf.for over tile ids of a persistent matmul, the loop marked ws.warp_specialize (ws.warp_specialize is on the loop inside this one: a persistent matmul marks its tile loop, this one, and not its K loop)
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @k(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>,
                %c: !ws.tensor_desc<tensor<128x128xf16>>, %T: i32, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %bx = gpu.block_id x
      %gx = gpu.grid_dim x
      %first = arith.index_cast %bx : index to i32
      %grid = arith.index_cast %gx : index to i32
      scf.for %t = %first to %T step %grid : i32 {
        %m = arith.muli %t, %c128 : i32
        %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
          %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %tb = "ws.load"(%b, %c0, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
          scf.yield %d : tensor<128x128xf32>
        } {ws.warp_specialize}
        %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
        "ws.store"(%c, %m, %c0, %out) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      } {ws.split_k = "stream"}
      gpu.return
    }
  }
}
