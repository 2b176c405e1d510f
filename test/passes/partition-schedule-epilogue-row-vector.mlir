// RUN: ws-opt %s --emit=plan | FileCheck %s --check-prefix=PLAN
// RUN: ws-opt %s --pass-pipeline='builtin.module(ws-partition-schedule, ws-plan-memory, ws-insert-barriers, ws-specialize)' | FileCheck %s --check-prefix=SPEC
// RUN: ws-opt %s --pass-pipeline='builtin.module(ws-partition-schedule, ws-plan-memory, ws-insert-barriers, ws-specialize, ws-lower-to-nvvm)' | FileCheck %s --check-prefix=LOWER
// RUN: ws-opt %s --emit=ptx --ws-explain -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROVED
// A row vector (here the log-sum-exp, m + log l) stored from attention's
// epilogue, as a backward pass or a split-KV combine needs it: the
// consumers stage it in a 1 x 128 ring of its own beside O's (both are
// live at once), from the fragments' layout, where the first thread of
// each row's quad writes the row's value, and the store warp stores it
// with TMA like any epilogue tile.
// PLAN: {"index": 3, "tile": "tensor<128x128xf16>", "channel": 2, "depth": 1, "offset": 0, "slot_bytes": 32768
// PLAN: {"index": 4, "tile": "tensor<1x128xf32>", "channel": 2, "depth": 1, "offset": 32768, "slot_bytes": 512, "bytes": 512, "align": 128, "swizzle": 0}
// SPEC: "ws.write_slot"(%{{.*}}, %[[SLOT:.*]]) {ring = 3 : i32} : (tensor<128x128xf16>, i32) -> ()
// SPEC-NEXT: "ws.write_slot"(%{{.*}}, %[[SLOT]]) {ring = 4 : i32} : (tensor<1x128xf32>, i32) -> ()
// SPEC: "ws.tma_store"(%arg4, %c0_i32, %{{.*}}) {ring = 4 : i32} : (!ws.tensor_desc<tensor<1x128xf32>>, i32, i32, i32) -> ()
// LOWER: %[[LANE:.*]] = arith.andi %{{.*}}, %c3_i32{{.*}} : i32
// LOWER-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
// LOWER-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %[[LANE]], %[[ZERO]] : i32
// LOWER-NEXT: scf.if %[[FIRST]] {
// LOWER-COUNT-2: llvm.store %{{.*}} : f32, !llvm.ptr<3>
// LOWER-NEXT: }
// PROVED: remark: protocol proved: 4 channel(s), 5 ring(s)
// Flash-attention forward, warp-specialized by ws: O = softmax(Q K^T / sqrt(D)) V
// for one block of 128 query rows of one (batch, head) per thread block, head
// dimension 128, f16 in and out, f32 accumulation, online softmax.
//
// Q, K, V and O are B x H x S x 128 tensors (any strides: B x S x H x D
// storage is a view too), read through 1 x 1 x 128 x 128 boxes, so a tile is
// one head's rows and TMA clips it at S (zeros in, nothing written past S).
// Launch on grid (ceil(S / 128), H, B) with %seq = S (any S >= 1) and %scale =
// log2(e) / sqrt(128). The last KV block's columns at or past S are masked
// with ws.iota. The row max is taken on the unscaled scores (the scale is
// positive) and scaled once per row, so that exp2's argument s * scale -
// max is one fused multiply-add (fastmath<contract>), as FlashAttention-3
// does. The user writes the math; ws decides the rest: the load warp
// fetches Q once and K and V into a ring, two consumer warpgroups (64 rows
// each) run S = Q K^T from shared memory, the row max and sum with quad
// shuffles on the wgmma fragments, and O += P V with P in registers (wgmma's
// register form), taking turns at their wgmmas so that one's softmax runs
// under the other's; the store warp writes O. `ws-opt attention.mlir
// --ws-explain` says why.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @attention(%q: !ws.tensor_desc<tensor<1x1x128x128xf16>>, %k: !ws.tensor_desc<tensor<1x1x128x128xf16>>, %v: !ws.tensor_desc<tensor<1x1x128x128xf16>>, %o: !ws.tensor_desc<tensor<1x1x128x128xf16>>, %lse: !ws.tensor_desc<tensor<1x128xf32>>,
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
      %lg = math.log %r#2 : tensor<1x128xf32>
      %lsev = arith.addf %r#1, %lg : tensor<1x128xf32>
      "ws.store"(%lse, %c0, %qoff, %lsev) : (!ws.tensor_desc<tensor<1x128xf32>>, i32, i32, tensor<1x128xf32>) -> ()
      "ws.store"(%o, %bzi, %byi, %qoff, %c0, %ot) : (!ws.tensor_desc<tensor<1x1x128x128xf16>>, i32, i32, i32, i32, tensor<128x128xf16>) -> ()
      gpu.return
    }
  }
}
