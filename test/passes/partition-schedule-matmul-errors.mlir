// RUN: not ws-opt --split-input-file --pass-pipeline='builtin.module(ws-partition-schedule)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// Matmul loops wgmma cannot take, each a located error naming the rule.
// An M tile of 96 over one warpgroup: wgmma takes 64 or 128 rows.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @m96(%a: !ws.tensor_desc<tensor<96x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>, %K: i32) kernel attributes {ws.num_warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %cbk = arith.constant 64 : i32
      %zero = arith.constant dense<0.0> : tensor<96x128xf32>
      %one = arith.constant dense<1.0> : tensor<96x128xf32>
      %ta0 = arith.constant dense<1.0> : tensor<96x64xf16>
      %acc = scf.for %k = %c0 to %K step %cbk iter_args(%acc0 = %zero) -> (tensor<96x128xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %k) : (!ws.tensor_desc<tensor<96x64xf16>>, i32, i32) -> tensor<96x64xf16>
        %tb = "ws.load"(%b, %c0, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        // CHECK: partition-schedule-matmul-errors.mlir:[[@LINE+1]]:14: error: 'ws.dot' op M tile 96 over 1 consumer warpgroup(s) gives 96 rows each; wgmma needs 64 or 128
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<96x64xf16>, tensor<128x64xf16>, tensor<96x128xf32>) -> tensor<96x128xf32>
        scf.yield %d : tensor<96x128xf32>
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----
// A K tile of 40 is not a whole number of k16 steps.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @k40(%a: !ws.tensor_desc<tensor<128x40xf16>>, %b: !ws.tensor_desc<tensor<128x40xf16>>, %K: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %cbk = arith.constant 40 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %one = arith.constant dense<1.0> : tensor<128x128xf32>
      %ta0 = arith.constant dense<1.0> : tensor<128x40xf16>
      %acc = scf.for %k = %c0 to %K step %cbk iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %k) : (!ws.tensor_desc<tensor<128x40xf16>>, i32, i32) -> tensor<128x40xf16>
        %tb = "ws.load"(%b, %c0, %k) : (!ws.tensor_desc<tensor<128x40xf16>>, i32, i32) -> tensor<128x40xf16>
        // CHECK: partition-schedule-matmul-errors.mlir:[[@LINE+1]]:14: error: 'ws.dot' op K tile 40: must be a multiple of 16 (one wgmma k16 step of f16)
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x40xf16>, tensor<128x40xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----
// A operand that is not a ws.load of the loop.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @not_load(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>, %K: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %cbk = arith.constant 64 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %one = arith.constant dense<1.0> : tensor<128x128xf32>
      %ta0 = arith.constant dense<1.0> : tensor<128x64xf16>
      %acc = scf.for %k = %c0 to %K step %cbk iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %c0, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        // CHECK: partition-schedule-matmul-errors.mlir:[[@LINE+1]]:14: error: 'ws.dot' op operand a must be a ws.load of the same loop
        %d = "ws.dot"(%ta0, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----
// B given K x N whose N row (24 x 2 = 48 bytes) is no swizzle span.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @plain_b(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<64x24xf16>>, %K: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %cbk = arith.constant 64 : i32
      %zero = arith.constant dense<0.0> : tensor<128x24xf32>
      %acc = scf.for %k = %c0 to %K step %cbk iter_args(%acc0 = %zero) -> (tensor<128x24xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %k, %c0) : (!ws.tensor_desc<tensor<64x24xf16>>, i32, i32) -> tensor<64x24xf16>
        // CHECK: partition-schedule-matmul-errors.mlir:[[@LINE+1]]:14: error: 'ws.dot' op N tile 24 of a K x N B: its row of 48 bytes must be a multiple of 32 bytes
        %d = "ws.dot"(%ta, %tb, %acc0)  : (tensor<128x64xf16>, tensor<64x24xf16>, tensor<128x24xf32>) -> tensor<128x24xf32>
        scf.yield %d : tensor<128x24xf32>
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----
// FP8 wgmma reads both operands K-major: a K x N B is refused, and so is a
// K tile that is not a multiple of 32 (FP8's K per instruction). (An A
// computed in the loop is wgmma's register form, which FP8 has too:
// lower-to-nvvm-f8-register-a.mlir.)
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f8_kn(%a: !ws.tensor_desc<tensor<128x128xf8E4M3FN>>, %b: !ws.tensor_desc<tensor<128x128xf8E4M3FN>>, %K: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %cbk = arith.constant 128 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %acc = scf.for %k = %c0 to %K step %cbk iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %k) : (!ws.tensor_desc<tensor<128x128xf8E4M3FN>>, i32, i32) -> tensor<128x128xf8E4M3FN>
        %tb = "ws.load"(%b, %k, %c0) : (!ws.tensor_desc<tensor<128x128xf8E4M3FN>>, i32, i32) -> tensor<128x128xf8E4M3FN>
        // CHECK: partition-schedule-matmul-errors.mlir:[[@LINE+1]]:14: error: 'ws.dot' op takes B as K x N, but wgmma on f8E4M3FN x f8E4M3FN reads both operands K-major: give B as N x K (a ws.load of the transposed tensor) with transpose_b
        %d = "ws.dot"(%ta, %tb, %acc0) : (tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>, tensor<128x128xf32>) -> tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f8_k16(%a: !ws.tensor_desc<tensor<128x16xf8E5M2>>, %b: !ws.tensor_desc<tensor<128x16xf8E4M3FN>>, %K: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %cbk = arith.constant 16 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %acc = scf.for %k = %c0 to %K step %cbk iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %k) : (!ws.tensor_desc<tensor<128x16xf8E5M2>>, i32, i32) -> tensor<128x16xf8E5M2>
        %tb = "ws.load"(%b, %c0, %k) : (!ws.tensor_desc<tensor<128x16xf8E4M3FN>>, i32, i32) -> tensor<128x16xf8E4M3FN>
        // CHECK: partition-schedule-matmul-errors.mlir:[[@LINE+1]]:14: error: 'ws.dot' op K tile 16: must be a multiple of 32 (one wgmma k32 step of f8E5M2)
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x16xf8E5M2>, tensor<128x16xf8E4M3FN>, tensor<128x128xf32>) -> tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
// -----
// The accumulator starts from a tile computed before the loop, not a splat
// the consumers can build in registers.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @ones(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>, %K: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %cbk = arith.constant 64 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %one = arith.constant dense<1.0> : tensor<128x128xf32>
      %ta0 = arith.constant dense<1.0> : tensor<128x64xf16>
      %two = arith.addf %one, %one : tensor<128x128xf32>
      // CHECK: partition-schedule-matmul-errors.mlir:[[@LINE+1]]:14: error: 'scf.for' op starts carried value #0 from a tile that is not a splat (arith.constant dense<v> or tensor.splat of a scalar); the consumer warpgroups build it in registers
      %acc = scf.for %k = %c0 to %K step %cbk iter_args(%acc0 = %two) -> (tensor<128x128xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %c0, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----
// The loop carries something else than the ws.dot accumulator.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @other(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>, %K: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %cbk = arith.constant 64 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %one = arith.constant dense<1.0> : tensor<128x128xf32>
      %ta0 = arith.constant dense<1.0> : tensor<128x64xf16>
      // CHECK: partition-schedule-matmul-errors.mlir:[[@LINE+1]]:14: error: 'scf.for' op carries a value that is not (only) the accumulator of a ws.dot
      %acc = scf.for %k = %c0 to %K step %cbk iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %c0, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        scf.yield %acc0 : tensor<128x128xf32>
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----

// A B the loop computes (an int8 weight converted and scaled in registers,
// as the activation's partner): wgmma reads B from shared memory only; the
// error says so and how the weight can be A instead, and it is the only
// error (not one per op that computes B).
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @computed_b(%wt: !ws.tensor_desc<tensor<64x128xi8>>, %xt: !ws.tensor_desc<tensor<64x128xf16>>,
                         %scales: !ws.tensor_desc<tensor<1x64xf16>>, %yt: !ws.tensor_desc<tensor<64x64xf16>>, %K: i32) kernel
        attributes {ws.num_warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %c128 = arith.constant 128 : i32
      %zero = arith.constant dense<0.0> : tensor<64x64xf32>
      %acc = scf.for %k = %c0 to %K step %c128 iter_args(%acc0 = %zero) -> (tensor<64x64xf32>) : i32 {
        %kb = arith.divui %k, %c128 : i32
        %w = "ws.load"(%wt, %c0, %k) : (!ws.tensor_desc<tensor<64x128xi8>>, i32, i32) -> tensor<64x128xi8>
        %x = "ws.load"(%xt, %c0, %k) : (!ws.tensor_desc<tensor<64x128xf16>>, i32, i32) -> tensor<64x128xf16>
        %g = "ws.load"(%scales, %kb, %c0) : (!ws.tensor_desc<tensor<1x64xf16>>, i32, i32) -> tensor<1x64xf16>
        %wf = arith.sitofp %w : tensor<64x128xi8> to tensor<64x128xf16>
        %gs = "ws.broadcast"(%g) {axis = 0 : i32} : (tensor<1x64xf16>) -> tensor<64x128xf16>
        %wa = arith.mulf %wf, %gs : tensor<64x128xf16>
        // CHECK: partition-schedule-matmul-errors.mlir:[[@LINE+1]]:14: error: 'ws.dot' op operand b must be a ws.load of the same loop: wgmma reads B from the shared-memory rings TMA fills (a tile the loop computes, a weight converted in registers say, can be A: compute C^T = B^T A^T)
        %d = "ws.dot"(%x, %wa, %acc0) {transpose_b} : (tensor<64x128xf16>, tensor<64x128xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
        scf.yield %d : tensor<64x64xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<64x64xf32> to tensor<64x64xf16>
      "ws.store"(%yt, %c0, %c0, %out) : (!ws.tensor_desc<tensor<64x64xf16>>, i32, i32, tensor<64x64xf16>) -> ()
      gpu.return
    }
  }
}

// -----
// transpose_a on a tile the loop computes: wgmma reads an M-major A from
// shared memory only.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @ta_registers(%a: !ws.tensor_desc<tensor<64x128xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>, %K: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %cbk = arith.constant 64 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %two = arith.constant dense<2.0> : tensor<64x128xf16>
      %acc = scf.for %k = %c0 to %K step %cbk iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
        %ta = "ws.load"(%a, %k, %c0) : (!ws.tensor_desc<tensor<64x128xf16>>, i32, i32) -> tensor<64x128xf16>
        %tb = "ws.load"(%b, %c0, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %ta2 = arith.mulf %ta, %two : tensor<64x128xf16>
        // CHECK: partition-schedule-matmul-errors.mlir:[[@LINE+1]]:14: error: 'ws.dot' op reads A transposed (transpose_a), which wgmma takes from shared memory only: A must be a ws.load (of the loop or before it), not a tile the loop computes
        %d = "ws.dot"(%ta2, %tb, %acc0) {transpose_a, transpose_b} : (tensor<64x128xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----
// A ws.store inside a matmul loop (a product added into global memory each
// step): refused at the store, not left to the later passes.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @store_in_loop(%a: !ws.tensor_desc<tensor<128x64xbf16>>, %b: !ws.tensor_desc<tensor<64x64xbf16>>, %c: !ws.tensor_desc<tensor<128x64xf32>>, %K: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %zero = arith.constant dense<0.0> : tensor<128x64xf32>
      scf.for %k = %c0 to %K step %c64 : i32 {
        %ta = "ws.load"(%a, %c0, %k) : (!ws.tensor_desc<tensor<128x64xbf16>>, i32, i32) -> tensor<128x64xbf16>
        %tb = "ws.load"(%b, %c0, %k) : (!ws.tensor_desc<tensor<64x64xbf16>>, i32, i32) -> tensor<64x64xbf16>
        %d = "ws.dot"(%ta, %tb, %zero) {transpose_b} : (tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32>) -> tensor<128x64xf32>
        // CHECK: partition-schedule-matmul-errors.mlir:[[@LINE+1]]:9: error: 'ws.store' op stores a tile inside a matmul loop; ws stores a matmul loop's tiles after it, from its epilogue
        "ws.store"(%c, %c0, %c0, %d) {reduce = "add"} : (!ws.tensor_desc<tensor<128x64xf32>>, i32, i32, tensor<128x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
