// RUN: not ws-opt --split-input-file --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// Attention kernels (integration/attention/variants.py, head dim 64) broken in
// ways the scheduler rejects, each at the op that breaks its rule.

// -----
// A row max along the columns (axis 0): the consumers' rows are split over lanes, not their columns.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @attention(%q: !ws.tensor_desc<tensor<128x64xf16>>, %k: !ws.tensor_desc<tensor<128x64xf16>>, %v: !ws.tensor_desc<tensor<128x64xf16>>, %o: !ws.tensor_desc<tensor<128x64xf16>>,
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
      %end = arith.addi %base, %seq : i32
      %tq = "ws.load"(%q, %row, %c0) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
      %zs = arith.constant dense<0.0> : tensor<128x128xf32>
      %zo = arith.constant dense<0.0> : tensor<128x64xf32>
      %m0 = arith.constant dense<0xFF800000> : tensor<1x128xf32>
      %l0 = arith.constant dense<0.0> : tensor<1x128xf32>
      %r:3 = scf.for %kv = %base to %end step %cbn iter_args(%acc = %zo, %m = %m0, %l = %l0)
          -> (tensor<128x64xf32>, tensor<1x128xf32>, tensor<1x128xf32>) : i32 {
        %tk = "ws.load"(%k, %kv, %c0) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tv = "ws.load"(%v, %kv, %c0) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %s = "ws.dot"(%tq, %tk, %zs) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        %sc = tensor.splat %scale : tensor<128x128xf32>
        %ss = arith.mulf %s, %sc : tensor<128x128xf32>

        // CHECK: partition-schedule-attention-errors.mlir:[[@LINE+1]]:15: error: 'ws.reduce' op has axis = 0; in a matmul loop ws.reduce runs along each row (axis = 1), giving a 1 x M row vector
        %mx = "ws.reduce"(%ss) {kind = "max", axis = 0 : i32} : (tensor<128x128xf32>) -> tensor<1x128xf32>
        %mn = arith.maximumf %m, %mx : tensor<1x128xf32>
        %mb = "ws.broadcast"(%mn) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
        %sd = arith.subf %ss, %mb : tensor<128x128xf32>
        %p = math.exp2 %sd : tensor<128x128xf32>
        %ls = "ws.reduce"(%p) {kind = "sum", axis = 1 : i32} : (tensor<128x128xf32>) -> tensor<1x128xf32>
        %dm = arith.subf %m, %mn : tensor<1x128xf32>
        %alpha = math.exp2 %dm : tensor<1x128xf32>
        %la = arith.mulf %l, %alpha : tensor<1x128xf32>
        %ln = arith.addf %la, %ls : tensor<1x128xf32>
        %ab = "ws.broadcast"(%alpha) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x64xf32>
        %accs = arith.mulf %acc, %ab : tensor<128x64xf32>
        %pt = arith.truncf %p : tensor<128x128xf32> to tensor<128x128xf16>
        %o2 = "ws.dot"(%pt, %tv, %accs) : (tensor<128x128xf16>, tensor<128x64xf16>, tensor<128x64xf32>) -> tensor<128x64xf32>
        scf.yield %o2, %mn, %ln : tensor<128x64xf32>, tensor<1x128xf32>, tensor<1x128xf32>
      } {ws.warp_specialize}
      %lb = "ws.broadcast"(%r#2) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x64xf32>
      %out = arith.divf %r#0, %lb : tensor<128x64xf32>
      %ot = arith.truncf %out : tensor<128x64xf32> to tensor<128x64xf16>
      "ws.store"(%o, %row, %c0, %ot) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32, tensor<128x64xf16>) -> ()
      gpu.return
    }
  }
}


// -----
// Q loaded before the loop but also stored: a prologue load feeds wgmma only.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @attention(%q: !ws.tensor_desc<tensor<128x64xf16>>, %k: !ws.tensor_desc<tensor<128x64xf16>>, %v: !ws.tensor_desc<tensor<128x64xf16>>, %o: !ws.tensor_desc<tensor<128x64xf16>>,
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
      %end = arith.addi %base, %seq : i32
      // CHECK: partition-schedule-attention-errors.mlir:[[@LINE+1]]:13: error: 'ws.load' op loads a tile before the warp-specialized loop that is used other than as operand a of a ws.dot in the loop
      %tq = "ws.load"(%q, %row, %c0) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
      %zs = arith.constant dense<0.0> : tensor<128x128xf32>
      "ws.store"(%o, %row, %c0, %tq) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32, tensor<128x64xf16>) -> ()
      %zo = arith.constant dense<0.0> : tensor<128x64xf32>
      %m0 = arith.constant dense<0xFF800000> : tensor<1x128xf32>
      %l0 = arith.constant dense<0.0> : tensor<1x128xf32>
      %r:3 = scf.for %kv = %base to %end step %cbn iter_args(%acc = %zo, %m = %m0, %l = %l0)
          -> (tensor<128x64xf32>, tensor<1x128xf32>, tensor<1x128xf32>) : i32 {
        %tk = "ws.load"(%k, %kv, %c0) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tv = "ws.load"(%v, %kv, %c0) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %s = "ws.dot"(%tq, %tk, %zs) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        %sc = tensor.splat %scale : tensor<128x128xf32>
        %ss = arith.mulf %s, %sc : tensor<128x128xf32>

        %mx = "ws.reduce"(%ss) {kind = "max", axis = 1 : i32} : (tensor<128x128xf32>) -> tensor<1x128xf32>
        %mn = arith.maximumf %m, %mx : tensor<1x128xf32>
        %mb = "ws.broadcast"(%mn) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
        %sd = arith.subf %ss, %mb : tensor<128x128xf32>
        %p = math.exp2 %sd : tensor<128x128xf32>
        %ls = "ws.reduce"(%p) {kind = "sum", axis = 1 : i32} : (tensor<128x128xf32>) -> tensor<1x128xf32>
        %dm = arith.subf %m, %mn : tensor<1x128xf32>
        %alpha = math.exp2 %dm : tensor<1x128xf32>
        %la = arith.mulf %l, %alpha : tensor<1x128xf32>
        %ln = arith.addf %la, %ls : tensor<1x128xf32>
        %ab = "ws.broadcast"(%alpha) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x64xf32>
        %accs = arith.mulf %acc, %ab : tensor<128x64xf32>
        %pt = arith.truncf %p : tensor<128x128xf32> to tensor<128x128xf16>
        %o2 = "ws.dot"(%pt, %tv, %accs) : (tensor<128x128xf16>, tensor<128x64xf16>, tensor<128x64xf32>) -> tensor<128x64xf32>
        scf.yield %o2, %mn, %ln : tensor<128x64xf32>, tensor<1x128xf32>, tensor<1x128xf32>
      } {ws.warp_specialize}
      %lb = "ws.broadcast"(%r#2) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x64xf32>
      %out = arith.divf %r#0, %lb : tensor<128x64xf32>
      %ot = arith.truncf %out : tensor<128x64xf32> to tensor<128x64xf16>
      "ws.store"(%o, %row, %c0, %ot) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32, tensor<128x64xf16>) -> ()
      gpu.return
    }
  }
}


// -----
// The running sum yielded as it came in: every carried tile must be computed in the loop.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @attention(%q: !ws.tensor_desc<tensor<128x64xf16>>, %k: !ws.tensor_desc<tensor<128x64xf16>>, %v: !ws.tensor_desc<tensor<128x64xf16>>, %o: !ws.tensor_desc<tensor<128x64xf16>>,
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
      %end = arith.addi %base, %seq : i32
      %tq = "ws.load"(%q, %row, %c0) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
      %zs = arith.constant dense<0.0> : tensor<128x128xf32>
      %zo = arith.constant dense<0.0> : tensor<128x64xf32>
      %m0 = arith.constant dense<0xFF800000> : tensor<1x128xf32>
      %l0 = arith.constant dense<0.0> : tensor<1x128xf32>
      // CHECK: partition-schedule-attention-errors.mlir:[[@LINE+1]]:14: error: 'scf.for' op carries a value that is not (only) the accumulator of a ws.dot or math on it: value #2 is yielded as it came in
      %r:3 = scf.for %kv = %base to %end step %cbn iter_args(%acc = %zo, %m = %m0, %l = %l0)
          -> (tensor<128x64xf32>, tensor<1x128xf32>, tensor<1x128xf32>) : i32 {
        %tk = "ws.load"(%k, %kv, %c0) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tv = "ws.load"(%v, %kv, %c0) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %s = "ws.dot"(%tq, %tk, %zs) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        %sc = tensor.splat %scale : tensor<128x128xf32>
        %ss = arith.mulf %s, %sc : tensor<128x128xf32>

        %mx = "ws.reduce"(%ss) {kind = "max", axis = 1 : i32} : (tensor<128x128xf32>) -> tensor<1x128xf32>
        %mn = arith.maximumf %m, %mx : tensor<1x128xf32>
        %mb = "ws.broadcast"(%mn) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
        %sd = arith.subf %ss, %mb : tensor<128x128xf32>
        %p = math.exp2 %sd : tensor<128x128xf32>
        %ls = "ws.reduce"(%p) {kind = "sum", axis = 1 : i32} : (tensor<128x128xf32>) -> tensor<1x128xf32>
        %dm = arith.subf %m, %mn : tensor<1x128xf32>
        %alpha = math.exp2 %dm : tensor<1x128xf32>
        %la = arith.mulf %l, %alpha : tensor<1x128xf32>
        %ln = arith.addf %la, %ls : tensor<1x128xf32>
        %ab = "ws.broadcast"(%alpha) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x64xf32>
        %accs = arith.mulf %acc, %ab : tensor<128x64xf32>
        %pt = arith.truncf %p : tensor<128x128xf32> to tensor<128x128xf16>
        %o2 = "ws.dot"(%pt, %tv, %accs) : (tensor<128x128xf16>, tensor<128x64xf16>, tensor<128x64xf32>) -> tensor<128x64xf32>
        scf.yield %o2, %mn, %l : tensor<128x64xf32>, tensor<1x128xf32>, tensor<1x128xf32>
      } {ws.warp_specialize}
      %lb = "ws.broadcast"(%r#2) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x64xf32>
      %out = arith.divf %r#0, %lb : tensor<128x64xf32>
      %ot = arith.truncf %out : tensor<128x64xf32> to tensor<128x64xf16>
      "ws.store"(%o, %row, %c0, %ot) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32, tensor<128x64xf16>) -> ()
      gpu.return
    }
  }
}


