// RUN: not ws-opt --split-input-file --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// What a cluster cannot take, each a located error saying what to do.

// Both coordinates depend on block x, along which the cluster runs: no
// tile is the same in both CTAs.
// CHECK: partition-schedule-cluster-errors.mlir:[[@LINE+3]]:5: error: 'gpu.func' op has ws.cluster = array<i32: 2, 1>, but no tile of its K loop is loaded alike by the CTAs of a cluster: A at {{.*}} differs between them (each loads its own); B at {{.*}} differs between them (each loads its own). Compute the shared operand's coordinates without the block's place in its cluster (block x for a cluster along x): for instance m from block x and n from block y, which shares B along x
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @nothing_shared(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<256x64xf16>>,
                     %c: !ws.tensor_desc<tensor<128x256xf16>>, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32, ws.cluster = array<i32: 2, 1>} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %c256 = arith.constant 256 : i32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bxi = arith.index_cast %bx : index to i32
      %byi = arith.index_cast %by : index to i32
      %m = arith.muli %bxi, %c128 : i32
      %n = arith.muli %bxi, %c256 : i32
      %zero = arith.constant dense<0.0> : tensor<128x256xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x256xf32>) : i32 {
        %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %n, %k) : (!ws.tensor_desc<tensor<256x64xf16>>, i32, i32) -> tensor<256x64xf16>
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<256x64xf16>, tensor<128x256xf32>) -> tensor<128x256xf32>
        scf.yield %d : tensor<128x256xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xf16>
      "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, tensor<128x256xf16>) -> ()
      gpu.return
    }
  }
}

// -----

// An elementwise loop: nothing to share.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    // CHECK: partition-schedule-cluster-errors.mlir:[[@LINE+1]]:5: error: 'gpu.func' op has ws.cluster, which ws builds for matmul kernels only (a K loop whose operands the cluster's CTAs share); this kernel's loop is elementwise
    gpu.func @elementwise(%x: !ws.tensor_desc<tensor<32x64xf32>>, %y: !ws.tensor_desc<tensor<32x64xf32>>, %n: i32) kernel
        attributes {ws.cluster = array<i32: 2, 1>} {
      %c0 = arith.constant 0 : i32
      %c32 = arith.constant 32 : i32
      scf.for %r = %c0 to %n step %c32 : i32 {
        %t = "ws.load"(%x, %r, %c0) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %u = arith.addf %t, %t : tensor<32x64xf32>
        "ws.store"(%y, %r, %c0, %u) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----

// A persistent tile loop from the block index in steps of the grid: the
// CTAs of a cluster take different tiles, and may take different numbers
// of them.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @tiles_by_block(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>,
                             %c: !ws.tensor_desc<tensor<128x128xf16>>, %T: i32, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32, ws.cluster = array<i32: 2, 1>} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %bx = gpu.block_id x
      %gx = gpu.grid_dim x
      %first = arith.index_cast %bx : index to i32
      %grid = arith.index_cast %gx : index to i32
      // CHECK: partition-schedule-cluster-errors.mlir:[[@LINE+1]]:7: error: 'scf.for' op runs in the CTAs of a 2x1 cluster (ws.cluster), which must all take its steps alike, but its bounds or step depend on a block's place in its cluster; loop over the clusters' tiles: from gpu.cluster_id by gpu.cluster_dim, with gpu.cluster_block_id picking the CTA's tile of its cluster's (docs/language.md, Clusters)
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
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----

// Every coordinate comes from block y, along which the cluster does not
// run: both blocks of a pair load and store the same tile (computed twice,
// while the tile of the other block x is never computed).
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @same_tile(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<256x64xf16>>,
                     %c: !ws.tensor_desc<tensor<128x256xf16>>, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32, ws.cluster = array<i32: 2, 1>} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %c256 = arith.constant 256 : i32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bxi = arith.index_cast %bx : index to i32
      %byi = arith.index_cast %by : index to i32
      %m = arith.muli %byi, %c128 : i32
      %n = arith.muli %byi, %c256 : i32
      %zero = arith.constant dense<0.0> : tensor<128x256xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x256xf32>) : i32 {
        %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %n, %k) : (!ws.tensor_desc<tensor<256x64xf16>>, i32, i32) -> tensor<256x64xf16>
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<256x64xf16>, tensor<128x256xf32>) -> tensor<128x256xf32>
        scf.yield %d : tensor<128x256xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xf16>
      // CHECK: partition-schedule-cluster-errors.mlir:[[@LINE+1]]:7: error: 'ws.store' op stores the same tile in every CTA of a 2x1 cluster (ws.cluster): none of its coordinates depends on the block's place in its cluster, so the tile is computed twice and another never; derive the unshared coordinate from it (gpu.cluster_block_id x, or the block id along the cluster)
      "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, tensor<128x256xf16>) -> ()
      gpu.return
    }
  }
}

// -----

// A persistent kernel in clusters along y: its grid is one row of blocks.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @persistent_y(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>,
                             %c: !ws.tensor_desc<tensor<128x128xf16>>, %T: i32, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32, ws.cluster = array<i32: 1, 2>} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %bx = gpu.block_id x
      %gx = gpu.grid_dim x
      %first = arith.index_cast %bx : index to i32
      %grid = arith.index_cast %gx : index to i32
      // CHECK: partition-schedule-cluster-errors.mlir:[[@LINE+1]]:7: error: 'scf.for' op is a persistent tile loop in clusters along y (ws.cluster = array<i32: 1, 2>); a persistent kernel's grid is one row of blocks, so its clusters run along x: array<i32: 2, 1>
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
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

