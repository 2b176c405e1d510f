// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Flash-attention forward (integration/attention.mlir) that also stores the
// log-sum-exp of each query row, lse = m + log2(l) in the log2 domain of the
// scaled scores (log2(e) / sqrt(D) scale): the 1 x 128 row vector a
// backward pass or a split-KV combine reads. O and lse are both epilogue
// tiles of the consumers, staged side by side and stored by the store warp.
// Q, K, V, O are B x H x S x 128 f16, lse B x H x 1 x S f32 (S a multiple
// of 4, for TMA's 16-byte strides); grid (ceil(S / 128), H, B).
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @attention_lse(%q: !ws.tensor_desc<tensor<1x1x128x128xf16>>, %k: !ws.tensor_desc<tensor<1x1x128x128xf16>>, %v: !ws.tensor_desc<tensor<1x1x128x128xf16>>, %o: !ws.tensor_desc<tensor<1x1x128x128xf16>>,
                        %lse: !ws.tensor_desc<tensor<1x1x1x128xf32>>, %seq: i32, %scale: f32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %cbm = arith.constant 128 : i32
      %cbn = arith.constant 128 : i32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bxi = arith.index_cast %bx : index to i32
      %byi = arith.index_cast %by : index to i32
      %bz = gpu.block_id z
      %bzi = arith.index_cast %bz : index to i32
      %qoff = arith.muli %bxi, %cbm : i32
      %tq = "ws.load"(%q, %bzi, %byi, %qoff, %c0) : (!ws.tensor_desc<tensor<1x1x128x128xf16>>, i32, i32, i32, i32) -> tensor<128x128xf16>
      %zs = arith.constant dense<0.0> : tensor<128x128xf32>
      %zo = arith.constant dense<0.0> : tensor<128x128xf32>
      %m0 = arith.constant dense<0xFF800000> : tensor<1x128xf32>
      %l0 = arith.constant dense<0.0> : tensor<1x128xf32>
      %r:3 = scf.for %kv = %c0 to %seq step %cbn iter_args(%acc = %zo, %m = %m0, %l = %l0)
          -> (tensor<128x128xf32>, tensor<1x128xf32>, tensor<1x128xf32>) : i32 {
        %tk = "ws.load"(%k, %bzi, %byi, %kv, %c0) : (!ws.tensor_desc<tensor<1x1x128x128xf16>>, i32, i32, i32, i32) -> tensor<128x128xf16>
        %tv = "ws.load"(%v, %bzi, %byi, %kv, %c0) : (!ws.tensor_desc<tensor<1x1x128x128xf16>>, i32, i32, i32, i32) -> tensor<128x128xf16>
        %s = "ws.dot"(%tq, %tk, %zs) {transpose_b} : (tensor<128x128xf16>, tensor<128x128xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        %cols = "ws.iota"() {axis = 1 : i32} : () -> tensor<128x128xi32>
        %left = arith.subi %seq, %kv : i32
        %lefts = tensor.splat %left : tensor<128x128xi32>
        %inside = arith.cmpi slt, %cols, %lefts : tensor<128x128xi32>
        %ninf = arith.constant dense<0xFF800000> : tensor<128x128xf32>
        %sm = arith.select %inside, %s, %ninf : tensor<128x128xi1>, tensor<128x128xf32>
        %mx = "ws.reduce"(%sm) {kind = "max", axis = 1 : i32} : (tensor<128x128xf32>) -> tensor<1x128xf32>
        %scr = tensor.splat %scale : tensor<1x128xf32>
        %mxs = arith.mulf %mx, %scr : tensor<1x128xf32>
        %mn = arith.maximumf %m, %mxs : tensor<1x128xf32>
        %mb = "ws.broadcast"(%mn) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
        %sc = tensor.splat %scale : tensor<128x128xf32>
        %ss = arith.mulf %sm, %sc fastmath<contract> : tensor<128x128xf32>
        %sd = arith.subf %ss, %mb fastmath<contract> : tensor<128x128xf32>
        %p = math.exp2 %sd fastmath<afn> : tensor<128x128xf32>
        %ls = "ws.reduce"(%p) {kind = "sum", axis = 1 : i32} : (tensor<128x128xf32>) -> tensor<1x128xf32>
        %dm = arith.subf %m, %mn : tensor<1x128xf32>
        %alpha = math.exp2 %dm fastmath<afn> : tensor<1x128xf32>
        %la = arith.mulf %l, %alpha : tensor<1x128xf32>
        %ln = arith.addf %la, %ls : tensor<1x128xf32>
        %ab = "ws.broadcast"(%alpha) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
        %accs = arith.mulf %acc, %ab : tensor<128x128xf32>
        %pt = arith.truncf %p : tensor<128x128xf32> to tensor<128x128xf16>
        %o2 = "ws.dot"(%pt, %tv, %accs) : (tensor<128x128xf16>, tensor<128x128xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        scf.yield %o2, %mn, %ln : tensor<128x128xf32>, tensor<1x128xf32>, tensor<1x128xf32>
      } {ws.warp_specialize}
      %lb = "ws.broadcast"(%r#2) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
      %out = arith.divf %r#0, %lb : tensor<128x128xf32>
      %ot = arith.truncf %out : tensor<128x128xf32> to tensor<128x128xf16>
      "ws.store"(%o, %bzi, %byi, %qoff, %c0, %ot) : (!ws.tensor_desc<tensor<1x1x128x128xf16>>, i32, i32, i32, i32, tensor<128x128xf16>) -> ()
      %lg = math.log2 %r#2 : tensor<1x128xf32>
      %lsev = arith.addf %r#1, %lg : tensor<1x128xf32>
      "ws.store"(%lse, %bzi, %byi, %c0, %qoff, %lsev) : (!ws.tensor_desc<tensor<1x1x1x128xf32>>, i32, i32, i32, i32, tensor<1x128xf32>) -> ()
      gpu.return
    }
  }
}
