// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Three parts of work that share no tile, in f16 over 64 x 64 tiles:
// p = a * b, q = c - d and r = max(f, 0), each in a compute partition of
// 8 warps (ws.num_warps = 8): 24 compute warps and the producers'
// warpgroup, 896 threads a block.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @three_parts(%a: !ws.tensor_desc<tensor<64x64xf16>>, %b: !ws.tensor_desc<tensor<64x64xf16>>,
                          %p: !ws.tensor_desc<tensor<64x64xf16>>, %c: !ws.tensor_desc<tensor<64x64xf16>>,
                          %d: !ws.tensor_desc<tensor<64x64xf16>>, %q: !ws.tensor_desc<tensor<64x64xf16>>,
                          %f: !ws.tensor_desc<tensor<64x64xf16>>, %r: !ws.tensor_desc<tensor<64x64xf16>>,
                          %n: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %pid = gpu.block_id x
      %pid32 = arith.index_cast %pid : index to i32
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %x = arith.muli %pid32, %c64 : i32
      scf.for %y = %c0 to %n step %c64 : i32 {
        %ta = "ws.load"(%a, %x, %y) : (!ws.tensor_desc<tensor<64x64xf16>>, i32, i32) -> tensor<64x64xf16>
        %tb = "ws.load"(%b, %x, %y) : (!ws.tensor_desc<tensor<64x64xf16>>, i32, i32) -> tensor<64x64xf16>
        %tc = "ws.load"(%c, %x, %y) : (!ws.tensor_desc<tensor<64x64xf16>>, i32, i32) -> tensor<64x64xf16>
        %td = "ws.load"(%d, %x, %y) : (!ws.tensor_desc<tensor<64x64xf16>>, i32, i32) -> tensor<64x64xf16>
        %tf = "ws.load"(%f, %x, %y) : (!ws.tensor_desc<tensor<64x64xf16>>, i32, i32) -> tensor<64x64xf16>
        %tp = arith.mulf %ta, %tb : tensor<64x64xf16>
        %tq = arith.subf %tc, %td : tensor<64x64xf16>
        %zero = arith.constant dense<0.0> : tensor<64x64xf16>
        %tr = arith.maximumf %tf, %zero : tensor<64x64xf16>
        "ws.store"(%p, %x, %y, %tp) : (!ws.tensor_desc<tensor<64x64xf16>>, i32, i32, tensor<64x64xf16>) -> ()
        "ws.store"(%q, %x, %y, %tq) : (!ws.tensor_desc<tensor<64x64xf16>>, i32, i32, tensor<64x64xf16>) -> ()
        "ws.store"(%r, %x, %y, %tr) : (!ws.tensor_desc<tensor<64x64xf16>>, i32, i32, tensor<64x64xf16>) -> ()
      } {ws.warp_specialize, ws.split_compute = true}
      gpu.return
    }
  }
}
