// RUN: ws-opt --split-input-file --ws-pipeline=stage=plan %s | ws-opt --split-input-file --pass-pipeline='builtin.module(ws-lower-to-nvvm, canonicalize, cse)' | FileCheck %s
// A mask whose compare has one value over the whole tile costs no work per
// element: the consumers test the index ranges once (ws.iota's extent,
// splats, adds and subtracts, exact in i64) and take the select's operand
// whole, or select per element where the tile is mixed. Attention's causal
// mask (columns + kv - q > rows) is false for every block below the
// diagonal; a compare ws cannot bound (eq) stays per element.

// The causal kernel (variants.py's att_bf16_d64_causal, in the (B*H*S) x D
// row form, its step pipeline off to keep the IR short): kvrel = kv - q;
// the compare is true everywhere when kvrel >
// 127 (above the diagonal), false everywhere when kvrel + 127 <= 0.
// CHECK-LABEL: llvm.func @attention
// CHECK: %[[BASE:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK-NEXT: %[[TOP:.*]] = arith.addi %[[BASE]], %c127_i64 : i64
// CHECK-NEXT: %[[ALL:.*]] = arith.cmpi sgt, %[[BASE]], %c127_i64 : i64
// CHECK-NEXT: %[[NONE:.*]] = arith.cmpi sle, %[[TOP]], %c0_i64 : i64
// CHECK-NEXT: arith.cmpi sge, %[[BASE]], %c-2147483648_i64 : i64
// CHECK-NEXT: arith.cmpi sle, %[[TOP]], %c2147483647_i64 : i64
// CHECK-NEXT: %[[EXACT:.*]] = arith.andi
// CHECK-NEXT: %[[A:.*]] = arith.andi %[[ALL]], %[[EXACT]] : i1
// CHECK-NEXT: %[[N:.*]] = arith.andi %[[NONE]], %[[EXACT]] : i1
// CHECK-NEXT: scf.if %[[A]] -> (f32, f32,
// CHECK-NEXT: scf.yield %cst, %cst,
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.if %[[N]] -> (f32, f32,
// CHECK-NEXT: scf.yield %[[S0:[0-9]+]], %[[S1:[0-9]+]],
// CHECK-NEXT: } else {
// CHECK-NEXT: arith.select %{{.*}}, %cst, %[[S0]] : f32
// CHECK-NEXT: arith.select %{{.*}}, %cst, %[[S1]] : f32
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @attention(%q: !ws.tensor_desc<tensor<128x64xbf16>>, %k: !ws.tensor_desc<tensor<128x64xbf16>>, %v: !ws.tensor_desc<tensor<128x64xbf16>>, %o: !ws.tensor_desc<tensor<128x64xbf16>>,
                        %seq: i32 {ws.divisibility = 128 : i32}, %scale: f32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %cbm = arith.constant 128 : i32
      %cbn = arith.constant 128 : i32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bxi = arith.index_cast %bx : index to i32
      %byi = arith.index_cast %by : index to i32
      %base = arith.muli %byi, %seq : i32
      %qoff = arith.muli %bxi, %cbm : i32
      %row = arith.addi %base, %qoff : i32
      %qend = arith.addi %qoff, %cbm : i32
      %last = arith.minsi %qend, %seq : i32
      %end = arith.addi %base, %last : i32
      %tq = "ws.load"(%q, %row, %c0) : (!ws.tensor_desc<tensor<128x64xbf16>>, i32, i32) -> tensor<128x64xbf16>
      %zs = arith.constant dense<0.0> : tensor<128x128xf32>
      %zo = arith.constant dense<0.0> : tensor<128x64xf32>
      %m0 = arith.constant dense<0xFF800000> : tensor<1x128xf32>
      %l0 = arith.constant dense<0.0> : tensor<1x128xf32>
      %r:3 = scf.for %kv = %base to %end step %cbn iter_args(%acc = %zo, %m = %m0, %l = %l0)
          -> (tensor<128x64xf32>, tensor<1x128xf32>, tensor<1x128xf32>) : i32 {
        %tk = "ws.load"(%k, %kv, %c0) : (!ws.tensor_desc<tensor<128x64xbf16>>, i32, i32) -> tensor<128x64xbf16>
        %tv = "ws.load"(%v, %kv, %c0) : (!ws.tensor_desc<tensor<128x64xbf16>>, i32, i32) -> tensor<128x64xbf16>
        %s = "ws.dot"(%tq, %tk, %zs) {transpose_b} : (tensor<128x64xbf16>, tensor<128x64xbf16>, tensor<128x128xf32>) -> tensor<128x128xf32>

        %rows = "ws.iota"() {axis = 0 : i32} : () -> tensor<128x128xi32>
        %cols = "ws.iota"() {axis = 1 : i32} : () -> tensor<128x128xi32>
        %kvrel = arith.subi %kv, %row : i32
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
        %p = math.exp2 %sd : tensor<128x128xf32>
        %ls = "ws.reduce"(%p) {kind = "sum", axis = 1 : i32} : (tensor<128x128xf32>) -> tensor<1x128xf32>
        %dm = arith.subf %m, %mn : tensor<1x128xf32>
        %alpha = math.exp2 %dm : tensor<1x128xf32>
        %la = arith.mulf %l, %alpha : tensor<1x128xf32>
        %ln = arith.addf %la, %ls : tensor<1x128xf32>
        %ab = "ws.broadcast"(%alpha) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x64xf32>
        %accs = arith.mulf %acc, %ab : tensor<128x64xf32>
        %pt = arith.truncf %p : tensor<128x128xf32> to tensor<128x128xbf16>
        %o2 = "ws.dot"(%pt, %tv, %accs) : (tensor<128x128xbf16>, tensor<128x64xbf16>, tensor<128x64xf32>) -> tensor<128x64xf32>
        scf.yield %o2, %mn, %ln : tensor<128x64xf32>, tensor<1x128xf32>, tensor<1x128xf32>
      } {ws.warp_specialize, ws.pipeline = false}
      %lb = "ws.broadcast"(%r#2) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x64xf32>
      %out = arith.divf %r#0, %lb : tensor<128x64xf32>
      %ot = arith.truncf %out : tensor<128x64xf32> to tensor<128x64xbf16>
      "ws.store"(%o, %row, %c0, %ot) : (!ws.tensor_desc<tensor<128x64xbf16>>, i32, i32, tensor<128x64xbf16>) -> ()
      gpu.return
    }
  }
}

// -----

// The same kernel masking the diagonal itself (eq): no range test, the
// select per element.
// CHECK-LABEL: llvm.func @attention
// CHECK-NOT: scf.if %{{.*}} -> (f32
// CHECK: arith.select %{{.*}}, %cst, %{{.*}} : f32
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @attention(%q: !ws.tensor_desc<tensor<128x64xbf16>>, %k: !ws.tensor_desc<tensor<128x64xbf16>>, %v: !ws.tensor_desc<tensor<128x64xbf16>>, %o: !ws.tensor_desc<tensor<128x64xbf16>>,
                        %seq: i32 {ws.divisibility = 128 : i32}, %scale: f32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %cbm = arith.constant 128 : i32
      %cbn = arith.constant 128 : i32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bxi = arith.index_cast %bx : index to i32
      %byi = arith.index_cast %by : index to i32
      %base = arith.muli %byi, %seq : i32
      %qoff = arith.muli %bxi, %cbm : i32
      %row = arith.addi %base, %qoff : i32
      %qend = arith.addi %qoff, %cbm : i32
      %last = arith.minsi %qend, %seq : i32
      %end = arith.addi %base, %last : i32
      %tq = "ws.load"(%q, %row, %c0) : (!ws.tensor_desc<tensor<128x64xbf16>>, i32, i32) -> tensor<128x64xbf16>
      %zs = arith.constant dense<0.0> : tensor<128x128xf32>
      %zo = arith.constant dense<0.0> : tensor<128x64xf32>
      %m0 = arith.constant dense<0xFF800000> : tensor<1x128xf32>
      %l0 = arith.constant dense<0.0> : tensor<1x128xf32>
      %r:3 = scf.for %kv = %base to %end step %cbn iter_args(%acc = %zo, %m = %m0, %l = %l0)
          -> (tensor<128x64xf32>, tensor<1x128xf32>, tensor<1x128xf32>) : i32 {
        %tk = "ws.load"(%k, %kv, %c0) : (!ws.tensor_desc<tensor<128x64xbf16>>, i32, i32) -> tensor<128x64xbf16>
        %tv = "ws.load"(%v, %kv, %c0) : (!ws.tensor_desc<tensor<128x64xbf16>>, i32, i32) -> tensor<128x64xbf16>
        %s = "ws.dot"(%tq, %tk, %zs) {transpose_b} : (tensor<128x64xbf16>, tensor<128x64xbf16>, tensor<128x128xf32>) -> tensor<128x128xf32>

        %rows = "ws.iota"() {axis = 0 : i32} : () -> tensor<128x128xi32>
        %cols = "ws.iota"() {axis = 1 : i32} : () -> tensor<128x128xi32>
        %kvrel = arith.subi %kv, %row : i32
        %kvs = tensor.splat %kvrel : tensor<128x128xi32>
        %kcol = arith.addi %cols, %kvs : tensor<128x128xi32>
        %above = arith.cmpi eq, %kcol, %rows : tensor<128x128xi32>
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
        %p = math.exp2 %sd : tensor<128x128xf32>
        %ls = "ws.reduce"(%p) {kind = "sum", axis = 1 : i32} : (tensor<128x128xf32>) -> tensor<1x128xf32>
        %dm = arith.subf %m, %mn : tensor<1x128xf32>
        %alpha = math.exp2 %dm : tensor<1x128xf32>
        %la = arith.mulf %l, %alpha : tensor<1x128xf32>
        %ln = arith.addf %la, %ls : tensor<1x128xf32>
        %ab = "ws.broadcast"(%alpha) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x64xf32>
        %accs = arith.mulf %acc, %ab : tensor<128x64xf32>
        %pt = arith.truncf %p : tensor<128x128xf32> to tensor<128x128xbf16>
        %o2 = "ws.dot"(%pt, %tv, %accs) : (tensor<128x128xbf16>, tensor<128x64xbf16>, tensor<128x64xf32>) -> tensor<128x64xf32>
        scf.yield %o2, %mn, %ln : tensor<128x64xf32>, tensor<1x128xf32>, tensor<1x128xf32>
      } {ws.warp_specialize}
      %lb = "ws.broadcast"(%r#2) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x64xf32>
      %out = arith.divf %r#0, %lb : tensor<128x64xf32>
      %ot = arith.truncf %out : tensor<128x64xf32> to tensor<128x64xbf16>
      "ws.store"(%o, %row, %c0, %ot) : (!ws.tensor_desc<tensor<128x64xbf16>>, i32, i32, tensor<128x64xbf16>) -> ()
      gpu.return
    }
  }
}
