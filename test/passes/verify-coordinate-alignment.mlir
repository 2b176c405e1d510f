// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s --split-input-file 2>&1 | FileCheck %s --implicit-check-not=error:
// TMA faults unless the innermost coordinate of a copy is a multiple of 16
// bytes: ws-verify proves it or names the coordinate and what it proved.

// A loop stepping 8x128 f32 tiles by 2 columns (the producer warp died with
// an illegal instruction before this check).
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @step2(%a: !ws.tensor_desc<tensor<8x128xf32>>, %c: !ws.tensor_desc<tensor<8x128xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c2 = arith.constant 2 : i32
      scf.for %y = %c0 to %n step %c2 : i32 {
        // CHECK: verify-coordinate-alignment.mlir:[[@LINE+1]]:14: error: 'ws.load' op innermost coordinate (operand 2) must be a multiple of 4 elements (16 bytes of f32) for TMA, but it is only proven a multiple of 2; it is the induction variable of the scf.for at 12:7: offset and step it by multiples of 4, or mark the kernel argument it comes from {ws.divisibility = 4 : i32}
        %t = "ws.load"(%a, %c0, %y) : (!ws.tensor_desc<tensor<8x128xf32>>, i32, i32) -> tensor<8x128xf32>
        // CHECK: verify-coordinate-alignment.mlir:[[@LINE+1]]:9: error: 'ws.store' op innermost coordinate (operand 2) must be a multiple of 4 elements
        "ws.store"(%c, %c0, %y, %t) : (!ws.tensor_desc<tensor<8x128xf32>>, i32, i32, tensor<8x128xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----
// An unmarked i32 argument proves nothing; an offset by an odd constant
// undoes a proven step.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @args(%a: !ws.tensor_desc<tensor<16x64xi8>>, %x: i32, %s: i32 {ws.divisibility = 16 : i32}) kernel {
      %c0 = arith.constant 0 : i32
      %c3 = arith.constant 3 : i32
      // CHECK: verify-coordinate-alignment.mlir:[[@LINE+1]]:12: error: 'ws.load' op innermost coordinate (operand 2) must be a multiple of 16 elements (16 bytes of i8) for TMA, but it is only proven a multiple of 1; it is kernel argument 1: offset
      %t = "ws.load"(%a, %c0, %x) : (!ws.tensor_desc<tensor<16x64xi8>>, i32, i32) -> tensor<16x64xi8>
      %o = arith.addi %s, %c3 : i32
      // CHECK: verify-coordinate-alignment.mlir:[[@LINE+1]]:12: error: 'ws.load' op innermost coordinate (operand 2) must be a multiple of 16 elements (16 bytes of i8) for TMA, but it is only proven a multiple of 1; it is the arith.addi at 33:12: offset
      %u = "ws.load"(%a, %c0, %o) : (!ws.tensor_desc<tensor<16x64xi8>>, i32, i32) -> tensor<16x64xi8>
      gpu.return
    }
  }
}

// -----
// What the proof follows: block ids times a box, shifts, casts, selects,
// remainders, a marked argument, a loop start and step; no error.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @proven(%a: !ws.tensor_desc<tensor<16x64xf16>>, %s: i32 {ws.divisibility = 8 : i32}, %n: i32, %p: i1) kernel {
      %c0 = arith.constant 0 : i32
      %c3 = arith.constant 3 : i32
      %c64 = arith.constant 64 : i32
      %bid = gpu.block_id y
      %b32 = arith.index_cast %bid : index to i32
      %x = arith.muli %b32, %c64 : i32
      %sh = arith.shli %n, %c3 : i32
      %sel = arith.select %p, %x, %sh : i32
      %r = arith.remui %sel, %c64 : i32
      %start = arith.addi %s, %r : i32
      scf.for %y = %start to %n step %c64 : i32 {
        %t = "ws.load"(%a, %c0, %y) : (!ws.tensor_desc<tensor<16x64xf16>>, i32, i32) -> tensor<16x64xf16>
        "ws.store"(%a, %c0, %y, %t) : (!ws.tensor_desc<tensor<16x64xf16>>, i32, i32, tensor<16x64xf16>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    // CHECK: verify-coordinate-alignment.mlir:[[@LINE+1]]:56: error: kernel argument 1: ws.divisibility = 0 : i32; expected a positive i32 on an integer argument
    gpu.func @bad(%a: !ws.tensor_desc<tensor<16xf32>>, %s: i32 {ws.divisibility = 0 : i32}) kernel {
      gpu.return
    }
  }
}

// -----
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    // CHECK: verify-coordinate-alignment.mlir:[[@LINE+1]]:56: error: kernel argument 1 has unknown attribute 'ws.divisible'; the ws argument attribute is ws.divisibility
    gpu.func @bad(%a: !ws.tensor_desc<tensor<16xf32>>, %s: i32 {ws.divisible = 16 : i32}) kernel {
      gpu.return
    }
  }
}

// -----

// A tile 100 f16 columns wide: its box is no multiple of 16 bytes, and the
// columns ws.tile_coords gives step by 100, which the store's remedy names.
// CHECK: verify-coordinate-alignment.mlir:[[@LINE+4]]:115: error: descriptor !ws.tensor_desc<tensor<128x100xf16>>: the innermost box dimension spans 200 bytes
// CHECK: verify-coordinate-alignment.mlir:[[@LINE+31]]:7: error: 'ws.store' op innermost coordinate (operand 2) must be a multiple of 8 elements (16 bytes of f16) for TMA, but it is only proven a multiple of 100; it is the ws.tile_coords at [[@LINE+23]]:18: make the tile's width (its tile attribute's last entry) a multiple of 8
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @pmm_128x100x64_w8(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<100x64xf16>>, %c: !ws.tensor_desc<tensor<128x100xf16>>, %M: i32, %N: i32, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %cbk = arith.constant 64 : i32
      %cbm = arith.constant 128 : i32
      %cbn = arith.constant 100 : i32
      %zero = arith.constant dense<0.0> : tensor<128x100xf32>
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
        %m, %n = "ws.tile_coords"(%t, %M, %N) {tile = array<i32: 128, 100>} : (i32, i32, i32) -> (i32, i32)
      %acc = scf.for %k = %c0 to %K step %cbk iter_args(%acc0 = %zero) -> (tensor<128x100xf32>) : i32 {
        %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %n, %k) : (!ws.tensor_desc<tensor<100x64xf16>>, i32, i32) -> tensor<100x64xf16>
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<100x64xf16>, tensor<128x100xf32>) -> tensor<128x100xf32>
        scf.yield %d : tensor<128x100xf32>
      }
      %out = arith.truncf %acc : tensor<128x100xf32> to tensor<128x100xf16>
      "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<128x100xf16>>, i32, i32, tensor<128x100xf16>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
