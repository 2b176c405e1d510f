// RUN: ws-opt %s --split-input-file --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule{explain=true})' -o %t 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --input-file=%t
// RUN: not ws-opt %S/Inputs/partition-schedule-pipeline-errors.mlir --split-input-file --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule)' 2>&1 | FileCheck %S/Inputs/partition-schedule-pipeline-errors.mlir --check-prefix=ERR --implicit-check-not=error:
// When the consumers of a loop with two runs of ws.dot (attention: S,
// the softmax, P V) pipeline its steps (ws.stage = 1 on the second run
// and on the math that reads its carried product, O's rescale): where
// the carried tiles, two S tiles and the P that P V reads from registers
// fit in 192 registers per consumer thread, or ws.pipeline = true asks.

// Head dim 64: O is 32 registers per thread, two S tiles 64 each and P 32.
// REMARK: [[@LINE+30]]:{{[0-9]+}}: remark: pipelined: each consumer warpgroup issues the next step's first ws.dot run (S) before this step's second (P V), waits for S alone and runs the next step's math while P V runs; the math that reads P V's result (a rescale) runs under the following S; step 0's first run and math come before the loop, the last step's second run after it; the carried tiles (32 registers per consumer thread), two S tiles (64 each), the P its second run reads from registers (32) take 192, within the 192 of setmaxnreg's 240 that leave ptxas room to interleave the math
// CHECK-LABEL: gpu.func @d64
// CHECK: "ws.dot"{{.*}}ws.partition = ["compute"], ws.stage = 0 : i32
// CHECK: math.exp2{{.*}}ws.stage = 0 : i32
// CHECK: "ws.broadcast"{{.*}}ws.stage = 1 : i32
// CHECK-NEXT: arith.mulf %arg7{{.*}}ws.stage = 1 : i32
// CHECK-NEXT: arith.truncf{{.*}}ws.stage = 0 : i32
// CHECK-NEXT: "ws.dot"{{.*}}ws.partition = ["compute"], ws.stage = 1 : i32
// CHECK: {name = "compute", num_warps = 8 : i32, role = "compute", turns = true}
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @d64(%q: !ws.tensor_desc<tensor<128x64xf16>>, %k: !ws.tensor_desc<tensor<128x64xf16>>, %v: !ws.tensor_desc<tensor<128x64xf16>>, %o: !ws.tensor_desc<tensor<128x64xf16>>,
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

// Head dim 128: O takes 64 registers, 224 in all: not pipelined (on the
// H100 it lost 2-3% there, where turns already overlap the warpgroups).
// REMARK: [[@LINE+25]]:{{[0-9]+}}: remark: not pipelined: each step's math waits for its own first ws.dot run, since the carried tiles (64 registers per consumer thread), two S tiles (64 each), the P its second run reads from registers (32) take 224, over the 192 of setmaxnreg's 240 that leave ptxas room to interleave the math (ws.pipeline = true asks for it all the same)
// CHECK-LABEL: gpu.func @d128
// CHECK-NOT: ws.stage = 1
// CHECK: {name = "compute", num_warps = 8 : i32, role = "compute", turns = true}
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @d128(%q: !ws.tensor_desc<tensor<128x128xf16>>, %k: !ws.tensor_desc<tensor<128x128xf16>>, %v: !ws.tensor_desc<tensor<128x128xf16>>, %o: !ws.tensor_desc<tensor<128x128xf16>>,
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
      %tq = "ws.load"(%q, %row, %c0) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32) -> tensor<128x128xf16>
      %zs = arith.constant dense<0.0> : tensor<128x128xf32>
      %zo = arith.constant dense<0.0> : tensor<128x128xf32>
      %m0 = arith.constant dense<0xFF800000> : tensor<1x128xf32>
      %l0 = arith.constant dense<0.0> : tensor<1x128xf32>
      %r:3 = scf.for %kv = %base to %end step %cbn iter_args(%acc = %zo, %m = %m0, %l = %l0)
          -> (tensor<128x128xf32>, tensor<1x128xf32>, tensor<1x128xf32>) : i32 {
        %tk = "ws.load"(%k, %kv, %c0) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32) -> tensor<128x128xf16>
        %tv = "ws.load"(%v, %kv, %c0) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32) -> tensor<128x128xf16>
        %s = "ws.dot"(%tq, %tk, %zs) {transpose_b} : (tensor<128x128xf16>, tensor<128x128xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
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
        %ab = "ws.broadcast"(%alpha) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
        %accs = arith.mulf %acc, %ab : tensor<128x128xf32>
        %pt = arith.truncf %p : tensor<128x128xf32> to tensor<128x128xf16>
        %o2 = "ws.dot"(%pt, %tv, %accs) : (tensor<128x128xf16>, tensor<128x128xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        scf.yield %o2, %mn, %ln : tensor<128x128xf32>, tensor<1x128xf32>, tensor<1x128xf32>
      } {ws.warp_specialize}
      %lb = "ws.broadcast"(%r#2) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
      %out = arith.divf %r#0, %lb : tensor<128x128xf32>
      %ot = arith.truncf %out : tensor<128x128xf32> to tensor<128x128xf16>
      "ws.store"(%o, %row, %c0, %ot) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      gpu.return
    }
  }
}
// -----

// The same, with ws.pipeline = true.
// REMARK: [[@LINE+25]]:{{[0-9]+}}: remark: pipelined: {{.*}} take 224, over the 192 of setmaxnreg's 240 that leave ptxas room to interleave the math; ws.pipeline = true asks for it
// CHECK-LABEL: gpu.func @d128_forced
// CHECK: "ws.dot"{{.*}}ws.stage = 1 : i32
// CHECK: {name = "compute", num_warps = 8 : i32, role = "compute", turns = true}
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @d128_forced(%q: !ws.tensor_desc<tensor<128x128xf16>>, %k: !ws.tensor_desc<tensor<128x128xf16>>, %v: !ws.tensor_desc<tensor<128x128xf16>>, %o: !ws.tensor_desc<tensor<128x128xf16>>,
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
      %tq = "ws.load"(%q, %row, %c0) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32) -> tensor<128x128xf16>
      %zs = arith.constant dense<0.0> : tensor<128x128xf32>
      %zo = arith.constant dense<0.0> : tensor<128x128xf32>
      %m0 = arith.constant dense<0xFF800000> : tensor<1x128xf32>
      %l0 = arith.constant dense<0.0> : tensor<1x128xf32>
      %r:3 = scf.for %kv = %base to %end step %cbn iter_args(%acc = %zo, %m = %m0, %l = %l0)
          -> (tensor<128x128xf32>, tensor<1x128xf32>, tensor<1x128xf32>) : i32 {
        %tk = "ws.load"(%k, %kv, %c0) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32) -> tensor<128x128xf16>
        %tv = "ws.load"(%v, %kv, %c0) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32) -> tensor<128x128xf16>
        %s = "ws.dot"(%tq, %tk, %zs) {transpose_b} : (tensor<128x128xf16>, tensor<128x128xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
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
        %ab = "ws.broadcast"(%alpha) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
        %accs = arith.mulf %acc, %ab : tensor<128x128xf32>
        %pt = arith.truncf %p : tensor<128x128xf32> to tensor<128x128xf16>
        %o2 = "ws.dot"(%pt, %tv, %accs) : (tensor<128x128xf16>, tensor<128x128xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        scf.yield %o2, %mn, %ln : tensor<128x128xf32>, tensor<1x128xf32>, tensor<1x128xf32>
      } {ws.warp_specialize, ws.pipeline = true}
      %lb = "ws.broadcast"(%r#2) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x128xf32>
      %out = arith.divf %r#0, %lb : tensor<128x128xf32>
      %ot = arith.truncf %out : tensor<128x128xf32> to tensor<128x128xf16>
      "ws.store"(%o, %row, %c0, %ot) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      gpu.return
    }
  }
}
// -----

// Head dim 64 with ws.pipeline = false.
// REMARK: [[@LINE+25]]:{{[0-9]+}}: remark: not pipelined: each step's math waits for its own first ws.dot run, since ws.pipeline = false asks for none
// CHECK-LABEL: gpu.func @d64_off
// CHECK-NOT: ws.stage = 1
// CHECK: {name = "compute", num_warps = 8 : i32, role = "compute", turns = true}
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @d64_off(%q: !ws.tensor_desc<tensor<128x64xf16>>, %k: !ws.tensor_desc<tensor<128x64xf16>>, %v: !ws.tensor_desc<tensor<128x64xf16>>, %o: !ws.tensor_desc<tensor<128x64xf16>>,
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
      } {ws.warp_specialize, ws.pipeline = false}
      %lb = "ws.broadcast"(%r#2) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x64xf32>
      %out = arith.divf %r#0, %lb : tensor<128x64xf32>
      %ot = arith.truncf %out : tensor<128x64xf32> to tensor<128x64xf16>
      "ws.store"(%o, %row, %c0, %ot) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32, tensor<128x64xf16>) -> ()
      gpu.return
    }
  }
}
