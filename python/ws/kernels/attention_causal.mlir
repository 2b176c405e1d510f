// Causal flash-attention forward, the family torch.ops.ws.attention runs
// with causal=True: as attention.mlir, with query row i attending to keys
// 0..i only: the KV loop stops after the diagonal block and the scores
// above the diagonal are masked. Fields ${D} (64 or 128) and ${DTYPE}
// (f16 or bf16); grid (ceil(S / 128), H, B), %seq = S, %scale = the
// softmax scale times log2(e).
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @attention(%q: !ws.tensor_desc<tensor<1x1x128x${D}x${DTYPE}>>, %k: !ws.tensor_desc<tensor<1x1x128x${D}x${DTYPE}>>, %v: !ws.tensor_desc<tensor<1x1x128x${D}x${DTYPE}>>, %o: !ws.tensor_desc<tensor<1x1x128x${D}x${DTYPE}>>,
                        %seq: i32, %scale: f32) kernel
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
      %qend = arith.addi %qoff, %cbm : i32
      %end = arith.minsi %qend, %seq : i32
      %tq = "ws.load"(%q, %bzi, %byi, %qoff, %c0) : (!ws.tensor_desc<tensor<1x1x128x${D}x${DTYPE}>>, i32, i32, i32, i32) -> tensor<128x${D}x${DTYPE}>
      %zs = arith.constant dense<0.0> : tensor<128x128xf32>
      %zo = arith.constant dense<0.0> : tensor<128x${D}xf32>
      %m0 = arith.constant dense<0xFF800000> : tensor<1x128xf32>
      %l0 = arith.constant dense<0.0> : tensor<1x128xf32>
      %r:3 = scf.for %kv = %c0 to %end step %cbn iter_args(%acc = %zo, %m = %m0, %l = %l0)
          -> (tensor<128x${D}xf32>, tensor<1x128xf32>, tensor<1x128xf32>) : i32 {
        %tk = "ws.load"(%k, %bzi, %byi, %kv, %c0) : (!ws.tensor_desc<tensor<1x1x128x${D}x${DTYPE}>>, i32, i32, i32, i32) -> tensor<128x${D}x${DTYPE}>
        %tv = "ws.load"(%v, %bzi, %byi, %kv, %c0) : (!ws.tensor_desc<tensor<1x1x128x${D}x${DTYPE}>>, i32, i32, i32, i32) -> tensor<128x${D}x${DTYPE}>
        %s = "ws.dot"(%tq, %tk, %zs) {transpose_b} : (tensor<128x${D}x${DTYPE}>, tensor<128x${D}x${DTYPE}>, tensor<128x128xf32>) -> tensor<128x128xf32>
        %rows = "ws.iota"() {axis = 0 : i32} : () -> tensor<128x128xi32>
        %cols = "ws.iota"() {axis = 1 : i32} : () -> tensor<128x128xi32>
        %kvrel = arith.subi %kv, %qoff : i32
        %kvs = tensor.splat %kvrel : tensor<128x128xi32>
        %kcol = arith.addi %cols, %kvs : tensor<128x128xi32>
        %above = arith.cmpi sgt, %kcol, %rows : tensor<128x128xi32>
        %ninf = arith.constant dense<0xFF800000> : tensor<128x128xf32>
        %sm = arith.select %above, %ninf, %s : tensor<128x128xi1>, tensor<128x128xf32>
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
        %ab = "ws.broadcast"(%alpha) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x${D}xf32>
        %accs = arith.mulf %acc, %ab : tensor<128x${D}xf32>
        %pt = arith.truncf %p : tensor<128x128xf32> to tensor<128x128x${DTYPE}>
        %o2 = "ws.dot"(%pt, %tv, %accs) : (tensor<128x128x${DTYPE}>, tensor<128x${D}x${DTYPE}>, tensor<128x${D}xf32>) -> tensor<128x${D}xf32>
        scf.yield %o2, %mn, %ln : tensor<128x${D}xf32>, tensor<1x128xf32>, tensor<1x128xf32>
      } {ws.warp_specialize}
      %lb = "ws.broadcast"(%r#2) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x${D}xf32>
      %out = arith.divf %r#0, %lb : tensor<128x${D}xf32>
      %ot = arith.truncf %out : tensor<128x${D}xf32> to tensor<128x${D}x${DTYPE}>
      "ws.store"(%o, %bzi, %byi, %qoff, %c0, %ot) : (!ws.tensor_desc<tensor<1x1x128x${D}x${DTYPE}>>, i32, i32, i32, i32, tensor<128x${D}x${DTYPE}>) -> ()
      gpu.return
    }
  }
}
