// RUN: not ws-opt --split-input-file --pass-pipeline='builtin.module(ws-tile-order{explain=true})' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not ws-opt --split-input-file --pass-pipeline='builtin.module(ws-tile-order)' %s 2>/dev/null | FileCheck %s --check-prefix=IR
// ws-tile-order: ws.tile_coords, expanded into the tile order the planner
// picks (grouped, the group from the chip's SM count and the tile's shape)
// or the op forces, and the located errors of a malformed op.
// The planner's pick for 128 x 256 tiles on an H100 (132 SMs): 16 rows of
// M tiles (16 x 128 + 9 x 256 rows of K a wave, the least of any power of
// two), in integer arithmetic on the tile id; the results are multiples of
// the tile, which ws-verify's divisibility proof already knew.
// CHECK: remark: tile order: grouped, 16 rows of M tiles at a time, down each column of the group (the planner's pick): a wave of 132 tiles (an sm_90a's SMs) then reads 16 rows of A tiles and about 9 columns of B's, 2048 + 2304 = 4352 rows of K that L2 holds for the wave; G x 128 + 132 / G x 256 is least where its two terms are equal, and the planner takes the largest power of two at or below that G
// IR-LABEL: gpu.func @wide
// IR: %[[TILES_M:.*]] = arith.divui %{{.*}}, %c128_i32
// IR: %[[TILES_N:.*]] = arith.divui %{{.*}}, %c256_i32
// IR: %[[COLS:.*]] = arith.maxui %[[TILES_N]], %c1_i32
// IR: %[[IN_GROUP:.*]] = arith.muli %[[COLS]], %c16_i32
// IR: %[[GROUP:.*]] = arith.divui %arg3, %[[IN_GROUP]]
// IR: %[[FIRST:.*]] = arith.muli %[[GROUP]], %c16_i32
// IR: %[[R:.*]] = arith.remui %arg3, %[[IN_GROUP]]
// IR: %[[M:.*]] = arith.muli %{{.*}}, %c128_i32
// IR: %[[N:.*]] = arith.muli %{{.*}}, %c256_i32
// IR: "ws.store"(%arg0, %[[M]], %[[N]], %{{.*}})
// IR-NOT: ws.tile_coords

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @wide(%c: !ws.tensor_desc<tensor<128x256xf16>>, %M: i32, %N: i32, %t: i32) kernel {
      %m, %n = "ws.tile_coords"(%t, %M, %N) {tile = array<i32: 128, 256>} : (i32, i32, i32) -> (i32, i32)
      %z = arith.constant dense<0.0> : tensor<128x256xf16>
      "ws.store"(%c, %m, %n, %z) : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, tensor<128x256xf16>) -> ()
      gpu.return
    }
  }
}

// -----

// 128 x 128 tiles: 8 rows (16 would overshoot: 16 x 128 > 132 / 16 x 128).
// CHECK: remark: tile order: grouped, 8 rows of M tiles at a time, {{.*}} 1024 + 2176 = 3200 rows of K
// IR-LABEL: gpu.func @square
// IR: arith.constant 8 : i32

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @square(%c: !ws.tensor_desc<tensor<128x128xf16>>, %M: i32, %N: i32, %t: i32) kernel {
      %m, %n = "ws.tile_coords"(%t, %M, %N) {tile = array<i32: 128, 128>} : (i32, i32, i32) -> (i32, i32)
      %z = arith.constant dense<0.0> : tensor<128x128xf16>
      "ws.store"(%c, %m, %n, %z) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      gpu.return
    }
  }
}

// -----

// A forced group.
// CHECK: remark: tile order: grouped, 4 rows of M tiles at a time, down each column of the group (group on the op): {{.*}}; G x 128 + 132 / G x 256 is least where its two terms are equal; group = N or order = "row" on the op forces another
// IR-LABEL: gpu.func @forced
// IR: arith.constant 4 : i32

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @forced(%c: !ws.tensor_desc<tensor<128x256xf16>>, %M: i32, %N: i32, %t: i32) kernel {
      %m, %n = "ws.tile_coords"(%t, %M, %N) {tile = array<i32: 128, 256>, group = 4 : i32} : (i32, i32, i32) -> (i32, i32)
      %z = arith.constant dense<0.0> : tensor<128x256xf16>
      "ws.store"(%c, %m, %n, %z) : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, tensor<128x256xf16>) -> ()
      gpu.return
    }
  }
}

// -----

// Row-major, forced.
// CHECK: remark: tile order: row-major (order = "row" on the op): a wave of 132 tiles runs along rows of C, sharing A's rows
// IR-LABEL: gpu.func @rows
// IR: %[[COLS:.*]] = arith.maxui %{{.*}}, %c1_i32
// IR: arith.divui %arg3, %[[COLS]]
// IR: arith.remui %arg3, %[[COLS]]

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @rows(%c: !ws.tensor_desc<tensor<128x256xf16>>, %M: i32, %N: i32, %t: i32) kernel {
      %m, %n = "ws.tile_coords"(%t, %M, %N) {tile = array<i32: 128, 256>, order = "row"} : (i32, i32, i32) -> (i32, i32)
      %z = arith.constant dense<0.0> : tensor<128x256xf16>
      "ws.store"(%c, %m, %n, %z) : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, tensor<128x256xf16>) -> ()
      gpu.return
    }
  }
}

// -----

// A cluster of two along x: the order's units are pairs of M tiles (8 of
// them a group), and each CTA takes its row of the pair by its rank, read
// at the top of the kernel.
// CHECK: remark: tile order: grouped, 8 rows of cluster tiles at a time, {{.*}} then reads 16 rows of A tiles and about 9 columns of B's
// IR-LABEL: gpu.func @pair
// IR: %[[RANK:.*]] = gpu.cluster_block_id x
// IR: %[[RANKI:.*]] = arith.index_cast %[[RANK]] : index to i32
// IR: %[[UNITS:.*]] = arith.muli %{{.*}}, %c2_i32
// IR: arith.addi %[[UNITS]], %[[RANKI]]

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @pair(%c: !ws.tensor_desc<tensor<128x256xf16>>, %M: i32, %N: i32, %t: i32) kernel attributes {ws.cluster = array<i32: 2, 1>} {
      %m, %n = "ws.tile_coords"(%t, %M, %N) {tile = array<i32: 128, 256>} : (i32, i32, i32) -> (i32, i32)
      %z = arith.constant dense<0.0> : tensor<128x256xf16>
      "ws.store"(%c, %m, %n, %z) : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, tensor<128x256xf16>) -> ()
      gpu.return
    }
  }
}

// -----

// CHECK: tile-order.mlir:[[@LINE+5]]:16: error: 'ws.tile_coords' op needs tile = array<i32: BM, BN>, the tile's rows and columns (positive)

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @bad_tile(%c: !ws.tensor_desc<tensor<128x256xf16>>, %M: i32, %N: i32, %t: i32) kernel {
      %m, %n = "ws.tile_coords"(%t, %M, %N) {tile = array<i32: 0, 256>} : (i32, i32, i32) -> (i32, i32)
      %z = arith.constant dense<0.0> : tensor<128x256xf16>
      "ws.store"(%c, %m, %n, %z) : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, tensor<128x256xf16>) -> ()
      gpu.return
    }
  }
}

// -----

// CHECK: tile-order.mlir:[[@LINE+5]]:16: error: 'ws.tile_coords' op has an order that is not "grouped" or "row"

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @bad_order(%c: !ws.tensor_desc<tensor<128x256xf16>>, %M: i32, %N: i32, %t: i32) kernel {
      %m, %n = "ws.tile_coords"(%t, %M, %N) {tile = array<i32: 128, 256>, order = "hilbert"} : (i32, i32, i32) -> (i32, i32)
      %z = arith.constant dense<0.0> : tensor<128x256xf16>
      "ws.store"(%c, %m, %n, %z) : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, tensor<128x256xf16>) -> ()
      gpu.return
    }
  }
}

// -----

// CHECK: tile-order.mlir:[[@LINE+5]]:16: error: 'ws.tile_coords' op has group = 4 : i32 with order = "row"; group takes a positive i32 (the rows of tiles of a group), and only in the grouped order

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @group_rows(%c: !ws.tensor_desc<tensor<128x256xf16>>, %M: i32, %N: i32, %t: i32) kernel {
      %m, %n = "ws.tile_coords"(%t, %M, %N) {tile = array<i32: 128, 256>, order = "row", group = 4 : i32} : (i32, i32, i32) -> (i32, i32)
      %z = arith.constant dense<0.0> : tensor<128x256xf16>
      "ws.store"(%c, %m, %n, %z) : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, tensor<128x256xf16>) -> ()
      gpu.return
    }
  }
}
