// RUN: not ws-opt --split-input-file --ws-pipeline=format=none %s 2>&1 | FileCheck %s --implicit-check-not=error:
// What the compute partition cannot do with f8 or constant tiles is a
// located error, not a crash in the LLVM translation.

// The bits of an f8 tile are not in a register (it is held as f32).
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: !ws.tensor_desc<tensor<4x16xf8E4M3FN>>, %c: !ws.tensor_desc<tensor<4x16xi8>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c16 = arith.constant 16 : i32
      scf.for %y = %c0 to %n step %c16 : i32 {
        %t = "ws.load"(%a, %c0, %y) : (!ws.tensor_desc<tensor<4x16xf8E4M3FN>>, i32, i32) -> tensor<4x16xf8E4M3FN>
        // CHECK: pipeline-f8-errors.mlir:[[@LINE+1]]:14: error: 'arith.bitcast' op reinterprets the bits of an f8 tile, which the compute partition holds widened to f32; use arith.extf/arith.truncf
        %b = arith.bitcast %t : tensor<4x16xf8E4M3FN> to tensor<4x16xi8>
        "ws.store"(%c, %c0, %y, %b) : (!ws.tensor_desc<tensor<4x16xi8>>, i32, i32, tensor<4x16xi8>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----
// A constant tile inside the loop must be a splat.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: !ws.tensor_desc<tensor<1x4xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c4 = arith.constant 4 : i32
      scf.for %y = %c0 to %n step %c4 : i32 {
        %t = "ws.load"(%a, %c0, %y) : (!ws.tensor_desc<tensor<1x4xf32>>, i32, i32) -> tensor<1x4xf32>
        // CHECK: pipeline-f8-errors.mlir:[[@LINE+1]]:14: error: 'arith.constant' op is a tile the compute partition cannot rebuild; only splats can be
        %k = arith.constant dense<[[1.0, 2.0, 3.0, 4.0]]> : tensor<1x4xf32>
        %r = arith.addf %t, %k : tensor<1x4xf32>
        "ws.store"(%a, %c0, %y, %r) : (!ws.tensor_desc<tensor<1x4xf32>>, i32, i32, tensor<1x4xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----

// An FP8 C from a matmul's accumulator: the consumers round their
// fragments to FP8 only for a ws.dot's A (wgmma's register form); the
// error says to store bf16, f16 or f32.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f8_out(%a: !ws.tensor_desc<tensor<128x128xf8E4M3FN>>, %b: !ws.tensor_desc<tensor<128x128xf8E4M3FN>>,
                     %c: !ws.tensor_desc<tensor<128x128xf8E4M3FN>>, %K: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %cbk = arith.constant 128 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %acc = scf.for %k = %c0 to %K step %cbk iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %k) : (!ws.tensor_desc<tensor<128x128xf8E4M3FN>>, i32, i32) -> tensor<128x128xf8E4M3FN>
        %tb = "ws.load"(%b, %c0, %k) : (!ws.tensor_desc<tensor<128x128xf8E4M3FN>>, i32, i32) -> tensor<128x128xf8E4M3FN>
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>, tensor<128x128xf32>) -> tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      } {ws.warp_specialize}
      // CHECK: pipeline-f8-errors.mlir:[[@LINE+1]]:14: error: 'arith.truncf' op makes an FP8 tile from a matmul's accumulator, which ws does not lower but as a ws.dot's A: truncate it to bf16, f16 or f32 (arith.truncf) for the store
      %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf8E4M3FN>
      "ws.store"(%c, %c0, %c0, %out) : (!ws.tensor_desc<tensor<128x128xf8E4M3FN>>, i32, i32, tensor<128x128xf8E4M3FN>) -> ()
      gpu.return
    }
  }
}
