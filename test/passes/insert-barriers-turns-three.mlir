// RUN: ws-opt --ws-pipeline=stage=plan %s | FileCheck %s
// RUN: ws-opt --ws-pipeline=stage=plan %s | ws-opt --pass-pipeline='builtin.module(ws-check-protocol{explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROVED
// RUN: ws-opt --ws-pipeline=stage=plan %s | sed -e 's/depth = 2 : i32, drain = 0 : i32, empty = \([0-9]*\) : i32, empty_arrivals = 128 : i32/depth = 1 : i32, drain = 0 : i32, empty = \1 : i32, empty_arrivals = 128 : i32/' \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONE_SLOT
// Three consumer warpgroups (ws.num_warps = 12, 64 rows each of a 192-row
// query block) take turns at their wgmmas, as two do: turn 3 n + w is
// warpgroup w's at step n, and each waits for turn c - 1 right after its
// own turn c - 3. The turn channel then needs two slots (W - 1), so that
// a wait is never two phases ahead of its barrier: with one, the proof
// finds the wait that passes on the parity of the phase before.
// (Measured on the H100 at D = 64: not faster than two warpgroups of 64
// rows.)

// CHECK: {consumer_phase = 0 : i32, depth = 2 : i32, drain = 0 : i32, empty = {{[0-9]+}} : i32, empty_arrivals = 128 : i32, expect_tx = 0 : i32, from = "compute", full = {{[0-9]+}} : i32, full_arrivals = 128 : i32
// CHECK-SAME: name = "compute", num_warps = 12 : i32, registers = 160 : i32, role = "compute", turns = true
// CHECK: arith.muli %{{.*}}, %c3_i32
// PROVED: remark: protocol proved
// ONE_SLOT: error: 'ws.wait' op breaks the protocol rule 'phases'
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @attention(%q: !ws.tensor_desc<tensor<1x1x192x64xbf16>>, %k: !ws.tensor_desc<tensor<1x1x128x64xbf16>>, %v: !ws.tensor_desc<tensor<1x1x128x64xbf16>>, %o: !ws.tensor_desc<tensor<1x1x192x64xbf16>>,
                        %seq: i32, %scale: f32) kernel
        attributes {ws.num_warps = 12 : i32} {
      %c0 = arith.constant 0 : i32
      %cbm = arith.constant 192 : i32
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
      %tq = "ws.load"(%q, %bzi, %byi, %qoff, %c0) : (!ws.tensor_desc<tensor<1x1x192x64xbf16>>, i32, i32, i32, i32) -> tensor<192x64xbf16>
      %zs = arith.constant dense<0.0> : tensor<192x128xf32>
      %zo = arith.constant dense<0.0> : tensor<192x64xf32>
      %m0 = arith.constant dense<0xFF800000> : tensor<1x192xf32>
      %l0 = arith.constant dense<0.0> : tensor<1x192xf32>
      %r:3 = scf.for %kv = %c0 to %end step %cbn iter_args(%acc = %zo, %m = %m0, %l = %l0)
          -> (tensor<192x64xf32>, tensor<1x192xf32>, tensor<1x192xf32>) : i32 {
        %tk = "ws.load"(%k, %bzi, %byi, %kv, %c0) : (!ws.tensor_desc<tensor<1x1x128x64xbf16>>, i32, i32, i32, i32) -> tensor<128x64xbf16>
        %tv = "ws.load"(%v, %bzi, %byi, %kv, %c0) : (!ws.tensor_desc<tensor<1x1x128x64xbf16>>, i32, i32, i32, i32) -> tensor<128x64xbf16>
        %s = "ws.dot"(%tq, %tk, %zs) {transpose_b} : (tensor<192x64xbf16>, tensor<128x64xbf16>, tensor<192x128xf32>) -> tensor<192x128xf32>
        %rows = "ws.iota"() {axis = 0 : i32} : () -> tensor<192x128xi32>
        %cols = "ws.iota"() {axis = 1 : i32} : () -> tensor<192x128xi32>
        %kvrel = arith.subi %kv, %qoff : i32
        %kvs = tensor.splat %kvrel : tensor<192x128xi32>
        %kcol = arith.addi %cols, %kvs : tensor<192x128xi32>
        %above = arith.cmpi sgt, %kcol, %rows : tensor<192x128xi32>
        %ninf = arith.constant dense<0xFF800000> : tensor<192x128xf32>
        %sm = arith.select %above, %ninf, %s : tensor<192x128xi1>, tensor<192x128xf32>
        %mx = "ws.reduce"(%sm) {kind = "max", axis = 1 : i32} : (tensor<192x128xf32>) -> tensor<1x192xf32>
        %scr = tensor.splat %scale : tensor<1x192xf32>
        %mxs = arith.mulf %mx, %scr : tensor<1x192xf32>
        %mn = arith.maximumf %m, %mxs : tensor<1x192xf32>
        %mb = "ws.broadcast"(%mn) {axis = 0 : i32} : (tensor<1x192xf32>) -> tensor<192x128xf32>
        %sc = tensor.splat %scale : tensor<192x128xf32>
        %ss = arith.mulf %sm, %sc fastmath<contract> : tensor<192x128xf32>
        %sd = arith.subf %ss, %mb fastmath<contract> : tensor<192x128xf32>
        %p = math.exp2 %sd fastmath<afn> : tensor<192x128xf32>
        %ls = "ws.reduce"(%p) {kind = "sum", axis = 1 : i32} : (tensor<192x128xf32>) -> tensor<1x192xf32>
        %dm = arith.subf %m, %mn : tensor<1x192xf32>
        %alpha = math.exp2 %dm fastmath<afn> : tensor<1x192xf32>
        %la = arith.mulf %l, %alpha : tensor<1x192xf32>
        %ln = arith.addf %la, %ls : tensor<1x192xf32>
        %ab = "ws.broadcast"(%alpha) {axis = 0 : i32} : (tensor<1x192xf32>) -> tensor<192x64xf32>
        %accs = arith.mulf %acc, %ab : tensor<192x64xf32>
        %pt = arith.truncf %p : tensor<192x128xf32> to tensor<192x128xbf16>
        %o2 = "ws.dot"(%pt, %tv, %accs) : (tensor<192x128xbf16>, tensor<128x64xbf16>, tensor<192x64xf32>) -> tensor<192x64xf32>
        scf.yield %o2, %mn, %ln : tensor<192x64xf32>, tensor<1x192xf32>, tensor<1x192xf32>
      } {ws.warp_specialize}
      %lb = "ws.broadcast"(%r#2) {axis = 0 : i32} : (tensor<1x192xf32>) -> tensor<192x64xf32>
      %out = arith.divf %r#0, %lb : tensor<192x64xf32>
      %ot = arith.truncf %out : tensor<192x64xf32> to tensor<192x64xbf16>
      "ws.store"(%o, %bzi, %byi, %qoff, %c0, %ot) : (!ws.tensor_desc<tensor<1x1x192x64xbf16>>, i32, i32, i32, i32, tensor<192x64xbf16>) -> ()
      gpu.return
    }
  }
}
