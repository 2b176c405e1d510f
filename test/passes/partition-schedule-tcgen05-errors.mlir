// RUN: not ws-opt --split-input-file --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// What tcgen05 cannot take is refused by ws-partition-schedule at the op, in
// ws's words: M other than 128, N not a multiple of 16, a K x N FP8 B, more
// accumulator columns than the epilogue warpgroups hold, tile math inside
// the K loop, an accumulator that does not start at zero; block scales
// that are not ws.loads of the loop, or a block-scaled K tile other than
// one MX atom's 128.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @m64(%a: !ws.tensor_desc<tensor<64x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>,
                     %c: !ws.tensor_desc<tensor<64x128xf16>>, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %init = arith.constant dense<0.0> : tensor<64x128xf32>
      %acc = scf.for %kk = %c0 to %K step %c64 iter_args(%acc0 = %init) -> (tensor<64x128xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %kk) : (!ws.tensor_desc<tensor<64x64xf16>>, i32, i32) -> tensor<64x64xf16>
        %tb = "ws.load"(%b, %c0, %kk) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        // CHECK: partition-schedule-tcgen05-errors.mlir:[[@LINE+1]]:14: error: 'ws.dot' op M tile 64: on sm_100a ws issues tcgen05.mma with M = 128 (accumulator row i in tensor-memory lane i)
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<64x64xf16>, tensor<128x64xf16>, tensor<64x128xf32>) -> tensor<64x128xf32>
        scf.yield %d : tensor<64x128xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<64x128xf32> to tensor<64x128xf16>
      "ws.store"(%c, %c0, %c0, %out) : (!ws.tensor_desc<tensor<64x128xf16>>, i32, i32, tensor<64x128xf16>) -> ()
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @n24(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<24x64xf16>>,
                     %c: !ws.tensor_desc<tensor<128x24xf16>>, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %init = arith.constant dense<0.0> : tensor<128x24xf32>
      %acc = scf.for %kk = %c0 to %K step %c64 iter_args(%acc0 = %init) -> (tensor<128x24xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %kk) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %c0, %kk) : (!ws.tensor_desc<tensor<24x64xf16>>, i32, i32) -> tensor<24x64xf16>
        // CHECK: partition-schedule-tcgen05-errors.mlir:[[@LINE+1]]:14: error: 'ws.dot' op N tile 24: tcgen05.mma with M = 128 takes a multiple of 16 from 16 to 256
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<24x64xf16>, tensor<128x24xf32>) -> tensor<128x24xf32>
        scf.yield %d : tensor<128x24xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x24xf32> to tensor<128x24xf16>
      "ws.store"(%c, %c0, %c0, %out) : (!ws.tensor_desc<tensor<128x24xf16>>, i32, i32, tensor<128x24xf16>) -> ()
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @kn(%a: !ws.tensor_desc<tensor<128x64xf8E4M3FN>>, %b: !ws.tensor_desc<tensor<64x128xf8E4M3FN>>,
                     %c: !ws.tensor_desc<tensor<128x128xf16>>, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %init = arith.constant dense<0.0> : tensor<128x128xf32>
      %acc = scf.for %kk = %c0 to %K step %c64 iter_args(%acc0 = %init) -> (tensor<128x128xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %kk) : (!ws.tensor_desc<tensor<128x64xf8E4M3FN>>, i32, i32) -> tensor<128x64xf8E4M3FN>
        %tb = "ws.load"(%b, %c0, %kk) : (!ws.tensor_desc<tensor<64x128xf8E4M3FN>>, i32, i32) -> tensor<64x128xf8E4M3FN>
        // CHECK: partition-schedule-tcgen05-errors.mlir:[[@LINE+1]]:14: error: 'ws.dot' op takes B as K x N, but tcgen05.mma on f8E4M3FN x f8E4M3FN reads both operands K-major: give B as N x K (a ws.load of the transposed tensor) with transpose_b
        %d = "ws.dot"(%ta, %tb, %acc0)  : (tensor<128x64xf8E4M3FN>, tensor<64x128xf8E4M3FN>, tensor<128x128xf32>) -> tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
      "ws.store"(%c, %c0, %c0, %out) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @wide4(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<256x64xf16>>,
                     %c: !ws.tensor_desc<tensor<128x256xf16>>, %K: i32) kernel
        attributes {ws.num_warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %init = arith.constant dense<0.0> : tensor<128x256xf32>
      %acc = scf.for %kk = %c0 to %K step %c64 iter_args(%acc0 = %init) -> (tensor<128x256xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %kk) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %c0, %kk) : (!ws.tensor_desc<tensor<256x64xf16>>, i32, i32) -> tensor<256x64xf16>
        // CHECK: partition-schedule-tcgen05-errors.mlir:[[@LINE+1]]:14: error: 'ws.dot' op on sm_100a the epilogue warps (ws.num_warps = 4) read the 128x256 accumulator from tensor memory, each warpgroup of 4 a share of at most 128 of its columns: ws.num_warps must be 4 for N <= 128, 8 for N <= 256
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<256x64xf16>, tensor<128x256xf32>) -> tensor<128x256xf32>
        scf.yield %d : tensor<128x256xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xf16>
      "ws.store"(%c, %c0, %c0, %out) : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, tensor<128x256xf16>) -> ()
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @math(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>,
                     %c: !ws.tensor_desc<tensor<128x128xf16>>, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %init = arith.constant dense<0.0> : tensor<128x128xf32>
      %acc = scf.for %kk = %c0 to %K step %c64 iter_args(%acc0 = %init) -> (tensor<128x128xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %kk) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %c0, %kk) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        // CHECK: partition-schedule-tcgen05-errors.mlir:[[@LINE+1]]:15: error: 'arith.mulf' op is tile math inside a matmul loop on sm_100a, where the MMA warp issues the loop's one ws.dot into tensor memory and no warp holds its tiles in registers; math between dots (attention) runs on sm_90a only
        %d2 = arith.mulf %d, %d : tensor<128x128xf32>
        scf.yield %d2 : tensor<128x128xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
      "ws.store"(%c, %c0, %c0, %out) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @ones(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>,
                     %c: !ws.tensor_desc<tensor<128x128xf16>>, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %init = arith.constant dense<1.0> : tensor<128x128xf32>
      // CHECK: partition-schedule-tcgen05-errors.mlir:[[@LINE+1]]:14: error: 'scf.for' op starts its accumulator from a tile that is not dense<0.0>; on sm_100a the first tcgen05.mma of a tile overwrites the accumulator in tensor memory
      %acc = scf.for %kk = %c0 to %K step %c64 iter_args(%acc0 = %init) -> (tensor<128x128xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %kk) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %c0, %kk) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
      "ws.store"(%c, %c0, %c0, %out) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @two(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>,
                  %c: !ws.tensor_desc<tensor<128x128xf16>>, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %init = arith.constant dense<0.0> : tensor<128x128xf32>
      %acc = scf.for %kk = %c0 to %K step %c64 iter_args(%acc0 = %init) -> (tensor<128x128xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %kk) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %c0, %kk) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        // CHECK: partition-schedule-tcgen05-errors.mlir:[[@LINE+1]]:14: error: 'ws.dot' op is one of 2 ws.dot ops of its loop, or does not accumulate into the loop's one carried value; on sm_100a a K loop carries one accumulator, in tensor memory, that its one ws.dot updates each step
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        %e = "ws.dot"(%ta, %tb, %d) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        scf.yield %e : tensor<128x128xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
      "ws.store"(%c, %c0, %c0, %out) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @scale_argument(%a: !ws.tensor_desc<tensor<128x128xf8E4M3FN>>, %b: !ws.tensor_desc<tensor<128x128xf8E4M3FN>>, %sf: !ws.tensor_desc<tensor<32x16xi8>>,
                     %sarg: tensor<32x16xi8>, %c: !ws.tensor_desc<tensor<128x128xbf16>>, %K: i32) kernel
        attributes {ws.num_warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %cbk = arith.constant 128 : i32
      %init = arith.constant dense<0.0> : tensor<128x128xf32>
      %acc = scf.for %kk = %c0 to %K step %cbk iter_args(%acc0 = %init) -> (tensor<128x128xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %kk) : (!ws.tensor_desc<tensor<128x128xf8E4M3FN>>, i32, i32) -> tensor<128x128xf8E4M3FN>
        %tb = "ws.load"(%b, %c0, %kk) : (!ws.tensor_desc<tensor<128x128xf8E4M3FN>>, i32, i32) -> tensor<128x128xf8E4M3FN>
        %sa = "ws.load"(%sf, %c0, %c0) : (!ws.tensor_desc<tensor<32x16xi8>>, i32, i32) -> tensor<32x16xi8>
        %sb = "ws.load"(%sf, %c0, %c0) : (!ws.tensor_desc<tensor<32x16xi8>>, i32, i32) -> tensor<32x16xi8>
        // CHECK: partition-schedule-tcgen05-errors.mlir:[[@LINE+1]]:14: error: 'ws.dot' op reads its scales (operand 3) from a tile that is not a ws.load of its loop; on sm_100a the MMA warp copies the scales from their ring's slot into tensor memory (tcgen05.cp)
        %d = "ws.dot"(%ta, %tb, %acc0, %sarg, %sb) {transpose_b} : (tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>, tensor<128x128xf32>, tensor<32x16xi8>, tensor<32x16xi8>) -> tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xbf16>
      "ws.store"(%c, %c0, %c0, %out) : (!ws.tensor_desc<tensor<128x128xbf16>>, i32, i32, tensor<128x128xbf16>) -> ()
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @scale_k256(%a: !ws.tensor_desc<tensor<128x256xf8E4M3FN>>, %b: !ws.tensor_desc<tensor<128x256xf8E4M3FN>>, %sf: !ws.tensor_desc<tensor<32x16xi8>>,
                     %sarg: tensor<32x16xi8>, %c: !ws.tensor_desc<tensor<128x128xbf16>>, %K: i32) kernel
        attributes {ws.num_warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %cbk = arith.constant 256 : i32
      %init = arith.constant dense<0.0> : tensor<128x128xf32>
      %acc = scf.for %kk = %c0 to %K step %cbk iter_args(%acc0 = %init) -> (tensor<128x128xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %kk) : (!ws.tensor_desc<tensor<128x256xf8E4M3FN>>, i32, i32) -> tensor<128x256xf8E4M3FN>
        %tb = "ws.load"(%b, %c0, %kk) : (!ws.tensor_desc<tensor<128x256xf8E4M3FN>>, i32, i32) -> tensor<128x256xf8E4M3FN>
        %sa = "ws.load"(%sf, %c0, %c0) : (!ws.tensor_desc<tensor<32x16xi8>>, i32, i32) -> tensor<32x16xi8>
        %sb = "ws.load"(%sf, %c0, %c0) : (!ws.tensor_desc<tensor<32x16xi8>>, i32, i32) -> tensor<32x16xi8>
        // CHECK: partition-schedule-tcgen05-errors.mlir:[[@LINE+1]]:14: error: 'ws.dot' op K tile 256: a block-scaled tcgen05.mma takes K tiles of 128 (one MX atom of scales per 128 rows)
        %d = "ws.dot"(%ta, %tb, %acc0, %sa, %sb, %sa, %sb) {transpose_b} : (tensor<128x256xf8E4M3FN>, tensor<128x256xf8E4M3FN>, tensor<128x128xf32>, tensor<32x16xi8>, tensor<32x16xi8>, tensor<32x16xi8>, tensor<32x16xi8>) -> tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xbf16>
      "ws.store"(%c, %c0, %c0, %out) : (!ws.tensor_desc<tensor<128x128xbf16>>, i32, i32, tensor<128x128xbf16>) -> ()
      gpu.return
    }
  }
}
