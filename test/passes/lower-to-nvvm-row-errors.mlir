// RUN: not ws-opt --split-input-file --ws-pipeline=chip=sm_90a %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// Row kernels the compute warps cannot hold get a located error that says
// what form works.

// A reduction of a bf16 tile: the compute warps reduce in f32.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @k(%x: !ws.tensor_desc<tensor<8x256xbf16>>, %y: !ws.tensor_desc<tensor<8x256xbf16>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c8 = arith.constant 8 : i32
      scf.for %r = %c0 to %n step %c8 : i32 {
        %t = "ws.load"(%x, %r, %c0) : (!ws.tensor_desc<tensor<8x256xbf16>>, i32, i32) -> tensor<8x256xbf16>
        // CHECK: lower-to-nvvm-row-errors.mlir:[[@LINE+1]]:15: error: 'ws.reduce' op reduces a tile of another element type than f32; the compute warps reduce in f32 (arith.extf the tile first)
        %mx = "ws.reduce"(%t) {kind = "max", axis = 1 : i32} : (tensor<8x256xbf16>) -> tensor<1x8xbf16>
        %mb = "ws.broadcast"(%mx) {axis = 0 : i32} : (tensor<1x8xbf16>) -> tensor<8x256xbf16>
        %d = arith.subf %t, %mb : tensor<8x256xbf16>
        "ws.store"(%y, %r, %c0, %d) : (!ws.tensor_desc<tensor<8x256xbf16>>, i32, i32, tensor<8x256xbf16>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----
// Rows of 96 f32 are 24 chunks of 4, which neither divide the 128 threads
// nor are a multiple of them.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @k(%x: !ws.tensor_desc<tensor<8x96xf32>>, %y: !ws.tensor_desc<tensor<8x96xf32>>, %n: i32) kernel attributes {ws.num_warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %c8 = arith.constant 8 : i32
      scf.for %r = %c0 to %n step %c8 : i32 {
        %t = "ws.load"(%x, %r, %c0) : (!ws.tensor_desc<tensor<8x96xf32>>, i32, i32) -> tensor<8x96xf32>
        // CHECK: lower-to-nvvm-row-errors.mlir:[[@LINE+1]]:15: error: 'ws.reduce' op works on rows of 96 elements, 24 chunks of 4 over the compute warps' 128 threads, which the chunks cannot follow: a row's chunks must divide the threads or be a multiple of them, and the tile's 192 chunks a multiple of the threads; use a power of two for the row length and the rows
        %mx = "ws.reduce"(%t) {kind = "max", axis = 1 : i32} : (tensor<8x96xf32>) -> tensor<1x8xf32>
        %mb = "ws.broadcast"(%mx) {axis = 0 : i32} : (tensor<1x8xf32>) -> tensor<8x96xf32>
        %d = arith.subf %t, %mb : tensor<8x96xf32>
        "ws.store"(%y, %r, %c0, %d) : (!ws.tensor_desc<tensor<8x96xf32>>, i32, i32, tensor<8x96xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----
// A reduction along the columns of an elementwise loop's tile.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @k(%x: !ws.tensor_desc<tensor<8x256xf32>>, %y: !ws.tensor_desc<tensor<8x256xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c8 = arith.constant 8 : i32
      scf.for %r = %c0 to %n step %c8 : i32 {
        %t = "ws.load"(%x, %r, %c0) : (!ws.tensor_desc<tensor<8x256xf32>>, i32, i32) -> tensor<8x256xf32>
        // CHECK: lower-to-nvvm-row-errors.mlir:[[@LINE+1]]:15: error: 'ws.reduce' op has axis = 0; in an elementwise loop ws.reduce runs along each row of a tile (axis = 1), giving a 1 x M row vector; for a column's, transpose the tile's descriptor so that the column is a row
        %mx = "ws.reduce"(%t) {kind = "max", axis = 0 : i32} : (tensor<8x256xf32>) -> tensor<1x256xf32>
        %mb = "ws.broadcast"(%mx) {axis = 1 : i32} : (tensor<1x256xf32>) -> tensor<8x256xf32>
        %d = arith.subf %t, %mb : tensor<8x256xf32>
        "ws.store"(%y, %r, %c0, %d) : (!ws.tensor_desc<tensor<8x256xf32>>, i32, i32, tensor<8x256xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----
// A weight spread over the rows of a square tile: its 1 x 64 row of values
// per column and the tile's 1 x 64 row vectors would look alike.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @k(%x: !ws.tensor_desc<tensor<64x64xf32>>, %w: !ws.tensor_desc<tensor<1x64xf32>>,
                %y: !ws.tensor_desc<tensor<64x64xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %tw = "ws.load"(%w, %c0, %c0) : (!ws.tensor_desc<tensor<1x64xf32>>, i32, i32) -> tensor<1x64xf32>
      scf.for %r = %c0 to %n step %c64 : i32 {
        %t = "ws.load"(%x, %r, %c0) : (!ws.tensor_desc<tensor<64x64xf32>>, i32, i32) -> tensor<64x64xf32>
        // CHECK: lower-to-nvvm-row-errors.mlir:[[@LINE+1]]:15: error: 'ws.broadcast' op spreads a 1 x 64 row over the rows of a square 64 x 64 tile; a row kernel tells its row vectors (1 x rows) from its rows of values per column (1 x columns) by their length, so give the tile more or fewer rows than columns
        %wb = "ws.broadcast"(%tw) {axis = 1 : i32} : (tensor<1x64xf32>) -> tensor<64x64xf32>
        %o = arith.mulf %t, %wb : tensor<64x64xf32>
        "ws.store"(%y, %r, %c0, %o) : (!ws.tensor_desc<tensor<64x64xf32>>, i32, i32, tensor<64x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
