// RUN: not ws-opt --split-input-file --pass-pipeline='builtin.module(ws-partition-schedule)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// tensor.extract in a warp-specialized loop reads one element of a tile
// the matmul loop loads (a block's scale, as DeepGEMM's recipe scales each
// block's product), at a constant position; anything else is a located
// error saying what works.

// In an elementwise loop each compute thread holds its own chunks of the
// tile, not the whole of it.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @elementwise(%x: !ws.tensor_desc<tensor<8x64xf32>>, %y: !ws.tensor_desc<tensor<8x64xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c8 = arith.constant 8 : i32
      %i0 = arith.constant 0 : index
      scf.for %r = %c0 to %n step %c8 : i32 {
        %t = "ws.load"(%x, %r, %c0) : (!ws.tensor_desc<tensor<8x64xf32>>, i32, i32) -> tensor<8x64xf32>
        // CHECK: partition-schedule-extract.mlir:[[@LINE+1]]:14: error: 'tensor.extract' op reads one element of a tile; that runs in the loop of a matmul on sm_90a (its consumer warpgroups read it from the ring's slot), not in an elementwise loop or on sm_100a
        %s = tensor.extract %t[%i0, %i0] : tensor<8x64xf32>
        %v = tensor.splat %s : tensor<8x64xf32>
        %o = arith.mulf %t, %v : tensor<8x64xf32>
        "ws.store"(%y, %r, %c0, %o) : (!ws.tensor_desc<tensor<8x64xf32>>, i32, i32, tensor<8x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----
// An element of a tile the loop computes rather than loads.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @computed(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>, %K: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %cbk = arith.constant 64 : i32
      %i0 = arith.constant 0 : index
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %acc = scf.for %k = %c0 to %K step %cbk iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %c0, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %p = "ws.dot"(%ta, %tb, %zero) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        // CHECK: partition-schedule-extract.mlir:[[@LINE+1]]:14: error: 'tensor.extract' op reads an element of a tile that is not a ws.load of the loop; tensor.extract reads a loaded tile from its slot
        %s = tensor.extract %p[%i0, %i0] : tensor<128x128xf32>
        %v = tensor.splat %s : tensor<128x128xf32>
        %q = arith.mulf %p, %v : tensor<128x128xf32>
        %d = arith.addf %acc0, %q : tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----
// A position known only at run time.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @runtime_index(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>,
                            %s: !ws.tensor_desc<tensor<1x4xf32>>, %j: index, %K: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %cbk = arith.constant 64 : i32
      %i0 = arith.constant 0 : index
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %acc = scf.for %k = %c0 to %K step %cbk iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %c0, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %ts = "ws.load"(%s, %c0, %c0) : (!ws.tensor_desc<tensor<1x4xf32>>, i32, i32) -> tensor<1x4xf32>
        %p = "ws.dot"(%ta, %tb, %zero) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        // CHECK: partition-schedule-extract.mlir:[[@LINE+1]]:15: error: 'tensor.extract' op reads an element at an index that is not a constant; the consumers read it from the slot when they read the tile, so its position must be known there
        %sc = tensor.extract %ts[%i0, %j] : tensor<1x4xf32>
        %v = tensor.splat %sc : tensor<128x128xf32>
        %q = arith.mulf %p, %v : tensor<128x128xf32>
        %d = arith.addf %acc0, %q : tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
