// RUN: ws-opt --split-input-file --ws-pipeline=stage=plan %s | not ws-opt --split-input-file --pass-pipeline='builtin.module(ws-lower-to-nvvm)' 2>&1 | FileCheck %s
// An FP8 ws.dot with A from registers: the f32 tile the loop computed,
// truncated to e4m3 (attention's P for an FP8 P V). Each pair of values is
// rounded to two e4m3 bytes (cvt), two pairs make a word, and each of the
// four registers a k32 step of wgmma reads takes two shuffles within the
// quad and one prmt: in the accumulator layout lane c of a quad holds
// columns 2c, 2c+1 of each group of 8, the 8-bit A fragment wants 4c..4c+3.
// The 8-bit register form has no transpose operand.

// CHECK-LABEL: llvm.func @fp8_register_a
// CHECK: nvvm.read.ptx.sreg.laneid
// CHECK: %[[SEL:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
// CHECK: nvvm.convert.f32x2.to.f8x2 %{{.*}}, %{{.*}} {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : vector<2xi8>(f8E4M3FN)
// CHECK: llvm.shufflevector %{{.*}}, %{{.*}} [0, 1, 2, 3] : vector<2xi8>
// CHECK: nvvm.shfl.sync  idx
// CHECK: nvvm.shfl.sync  idx
// CHECK: nvvm.prmt <default> %[[SEL]]
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3
// CHECK-SAME: p, 1, 1;
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @fp8_register_a(%a: !ws.tensor_desc<tensor<128x64xf8E4M3FN>>, %b: !ws.tensor_desc<tensor<64x64xf8E4M3FN>>,
                             %v: !ws.tensor_desc<tensor<64x64xf8E4M3FN>>, %c: !ws.tensor_desc<tensor<128x64xf16>>, %k: i32) kernel
        attributes {ws.num_warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %zs = arith.constant dense<0.0> : tensor<128x64xf32>
      %r = scf.for %kv = %c0 to %k step %c64 iter_args(%acc = %zs) -> (tensor<128x64xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %c0) : (!ws.tensor_desc<tensor<128x64xf8E4M3FN>>, i32, i32) -> tensor<128x64xf8E4M3FN>
        %tb = "ws.load"(%b, %kv, %c0) : (!ws.tensor_desc<tensor<64x64xf8E4M3FN>>, i32, i32) -> tensor<64x64xf8E4M3FN>
        %tv = "ws.load"(%v, %c0, %kv) : (!ws.tensor_desc<tensor<64x64xf8E4M3FN>>, i32, i32) -> tensor<64x64xf8E4M3FN>
        %s = "ws.dot"(%ta, %tb, %zs) {transpose_b} : (tensor<128x64xf8E4M3FN>, tensor<64x64xf8E4M3FN>, tensor<128x64xf32>) -> tensor<128x64xf32>
        %p = arith.truncf %s : tensor<128x64xf32> to tensor<128x64xf8E4M3FN>
        %o = "ws.dot"(%p, %tv, %acc) {transpose_b} : (tensor<128x64xf8E4M3FN>, tensor<64x64xf8E4M3FN>, tensor<128x64xf32>) -> tensor<128x64xf32>
        scf.yield %o : tensor<128x64xf32>
      } {ws.warp_specialize}
      %rh = arith.truncf %r : tensor<128x64xf32> to tensor<128x64xf16>
      "ws.store"(%c, %c0, %c0, %rh) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32, tensor<128x64xf16>) -> ()
      gpu.return
    }
  }
}

// -----

// The rounded tile feeds a ws.dot (or arith.extf) only: a truncf whose
// tile any other op reads is refused at the truncf.
// CHECK: error: 'arith.truncf' op makes an FP8 tile from a matmul's accumulator, which ws does not lower but as a ws.dot's A
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @fp8_math(%a: !ws.tensor_desc<tensor<128x64xf8E4M3FN>>, %b: !ws.tensor_desc<tensor<64x64xf8E4M3FN>>,
                       %v: !ws.tensor_desc<tensor<64x64xf8E4M3FN>>, %c: !ws.tensor_desc<tensor<128x64xf16>>, %k: i32) kernel
        attributes {ws.num_warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %zs = arith.constant dense<0.0> : tensor<128x64xf32>
      %r = scf.for %kv = %c0 to %k step %c64 iter_args(%acc = %zs) -> (tensor<128x64xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %c0) : (!ws.tensor_desc<tensor<128x64xf8E4M3FN>>, i32, i32) -> tensor<128x64xf8E4M3FN>
        %tb = "ws.load"(%b, %kv, %c0) : (!ws.tensor_desc<tensor<64x64xf8E4M3FN>>, i32, i32) -> tensor<64x64xf8E4M3FN>
        %tv = "ws.load"(%v, %c0, %kv) : (!ws.tensor_desc<tensor<64x64xf8E4M3FN>>, i32, i32) -> tensor<64x64xf8E4M3FN>
        %s = "ws.dot"(%ta, %tb, %zs) {transpose_b} : (tensor<128x64xf8E4M3FN>, tensor<64x64xf8E4M3FN>, tensor<128x64xf32>) -> tensor<128x64xf32>
        %p = arith.truncf %s : tensor<128x64xf32> to tensor<128x64xf8E4M3FN>
        %p2 = arith.mulf %p, %p : tensor<128x64xf8E4M3FN>
        %o = "ws.dot"(%p2, %tv, %acc) {transpose_b} : (tensor<128x64xf8E4M3FN>, tensor<64x64xf8E4M3FN>, tensor<128x64xf32>) -> tensor<128x64xf32>
        scf.yield %o : tensor<128x64xf32>
      } {ws.warp_specialize}
      %rh = arith.truncf %r : tensor<128x64xf32> to tensor<128x64xf16>
      "ws.store"(%c, %c0, %c0, %rh) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32, tensor<128x64xf16>) -> ()
      gpu.return
    }
  }
}
