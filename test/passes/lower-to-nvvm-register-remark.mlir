// RUN: ws-opt %s --split-input-file --ws-explain --emit=ptx -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// --ws-explain's estimate of the consumer warpgroups' tile registers at
// their peak (passes/conversion/register_pressure.c): an op with regions
// (an scf.if of the lagged loop) defines its results where its regions
// end, so the accumulator it rewrites is not counted twice; and a peak
// within 24 of the registers setmaxnreg gives (what addresses, indices
// and loop state take) says ptxas may spill.

// Promoted FP8 on 8 warps, lagged: the accumulator and two products, 64
// f32 each, of 240.
// CHECK: remark: registers: the consumer warpgroups' tiles need 192 per thread where most are live, here: 3 tile(s), tensor<128x128xf32> at {{.*}} (64), tensor<128x128xf32> at {{.*}} (64), tensor<128x128xf32> at {{.*}} (64); the compute warps have 240 after setmaxnreg (addresses, indices and loop state take some of the rest)
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @promoted8(%a: !ws.tensor_desc<tensor<128x128xf8E4M3FN>>, %b: !ws.tensor_desc<tensor<128x128xf8E4M3FN>>,
                        %c: !ws.tensor_desc<tensor<128x128xbf16>>, %K: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %cbk = arith.constant 128 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %acc = scf.for %k = %c0 to %K step %cbk iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %k) : (!ws.tensor_desc<tensor<128x128xf8E4M3FN>>, i32, i32) -> tensor<128x128xf8E4M3FN>
        %tb = "ws.load"(%b, %c0, %k) : (!ws.tensor_desc<tensor<128x128xf8E4M3FN>>, i32, i32) -> tensor<128x128xf8E4M3FN>
        %p = "ws.dot"(%ta, %tb, %zero) {transpose_b} : (tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>, tensor<128x128xf32>) -> tensor<128x128xf32>
        %d = arith.addf %acc0, %p : tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xbf16>
      "ws.store"(%c, %c0, %c0, %out) : (!ws.tensor_desc<tensor<128x128xbf16>>, i32, i32, tensor<128x128xbf16>) -> ()
      gpu.return
    }
  }
}

// -----

// The same on 4 warps: no lag (the products would not fit), the
// accumulator and one product of 128 f32 each: 256 of 256, nothing left
// for the rest.
// CHECK: remark: registers: the consumer warpgroups' tiles need 256 per thread where most are live, here: 2 tile(s), tensor<128x128xf32> at {{.*}} (128), tensor<128x128xf32> at {{.*}} (128); the compute warps have 256 after setmaxnreg, which leaves fewer than the 24 or so that addresses, indices and loop state take, so ptxas may spill to local memory (ptxas -v says): use more compute warps (ws.num_warps), smaller tiles, or fewer tiles live at once
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @promoted4(%a: !ws.tensor_desc<tensor<128x128xf8E4M3FN>>, %b: !ws.tensor_desc<tensor<128x128xf8E4M3FN>>,
                        %c: !ws.tensor_desc<tensor<128x128xbf16>>, %K: i32) kernel attributes {ws.num_warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %cbk = arith.constant 128 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %acc = scf.for %k = %c0 to %K step %cbk iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %k) : (!ws.tensor_desc<tensor<128x128xf8E4M3FN>>, i32, i32) -> tensor<128x128xf8E4M3FN>
        %tb = "ws.load"(%b, %c0, %k) : (!ws.tensor_desc<tensor<128x128xf8E4M3FN>>, i32, i32) -> tensor<128x128xf8E4M3FN>
        %p = "ws.dot"(%ta, %tb, %zero) {transpose_b} : (tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>, tensor<128x128xf32>) -> tensor<128x128xf32>
        %d = arith.addf %acc0, %p : tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xbf16>
      "ws.store"(%c, %c0, %c0, %out) : (!ws.tensor_desc<tensor<128x128xbf16>>, i32, i32, tensor<128x128xbf16>) -> ()
      gpu.return
    }
  }
}

// -----

// A persistent kernel: the accumulator lives in the K loop, so the remark
// points there (its line and the tile's), not at the tile loop around it.
// CHECK: lower-to-nvvm-register-remark.mlir:[[@LINE+16]]:16: remark: registers: the consumer warpgroups' tiles need 128 per thread where most are live, here: 1 tile(s), tensor<128x256xf32> at [[@LINE+16]]:16 (128)
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @persistent(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<256x64xf16>>,
                         %c: !ws.tensor_desc<tensor<128x256xf16>>, %T: i32, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %zero = arith.constant dense<0.0> : tensor<128x256xf32>
      %bx = gpu.block_id x
      %gx = gpu.grid_dim x
      %first = arith.index_cast %bx : index to i32
      %grid = arith.index_cast %gx : index to i32
      scf.for %t = %first to %T step %grid : i32 {
        %m = arith.muli %t, %c128 : i32
        %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x256xf32>) : i32 {
          %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %tb = "ws.load"(%b, %c0, %k) : (!ws.tensor_desc<tensor<256x64xf16>>, i32, i32) -> tensor<256x64xf16>
          %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<256x64xf16>, tensor<128x256xf32>) -> tensor<128x256xf32>
          scf.yield %d : tensor<128x256xf32>
        }
        %out = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xf16>
        "ws.store"(%c, %m, %c0, %out) : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, tensor<128x256xf16>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
