// A row kernel with a second pass over a row's chunks (a softmax of rows
// of any length N): the warp-specialized loop carries each row's running
// max and sum over 4 x 128 chunks, and a second loop over the same bounds
// reads the chunks again and stores exp(x - max) / sum. The second pass
// gets channels of its own (its loads' ring 1, its stores' ring 2), which
// every partition counts from 0 in its own copy of the second loop: the
// compute warps run the first loop (channel 0), the math after it, then
// the second; the load warp both loops' loads, the first's kept in L2 for
// the second (evict_last), the second's their last use (evict_first); the
// store warp, which only the second pass feeds, only the second loop, and
// drains before it exits.
// RUN: ws-opt --ws-pipeline=stage=plan %s | FileCheck %s
// RUN: ws-opt %s --emit=ptx -o - | FileCheck %s --check-prefix=PTX

// The hints are the TMA loads' L2 cache policies: evict_last, evict_first.
// PTX: mov.b64 {{.*}}, 1508705875169116160;
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint
// PTX: mov.b64 {{.*}}, 1364590687093260288;
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint

// CHECK-LABEL: gpu.func @softmax
// the compute warps
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (i32, tensor<1x4xf32>, tensor<1x4xf32>)
// CHECK: "ws.wait"(%{{.*}}, %{{.*}}) {barrier = "full", channel = 0 : i32}
// CHECK: "ws.arrive"(%{{.*}}) {barrier = "empty", channel = 0 : i32}
// CHECK: arith.divf %{{.*}}, %{{.*}} : tensor<1x4xf32>
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %c0_i32{{.*}}) -> (i32)
// CHECK: "ws.wait"(%{{.*}}, %{{.*}}) {barrier = "full", channel = 1 : i32}
// CHECK-NEXT: "ws.read_slot"(%{{.*}}) {ring = 1 : i32}
// CHECK: "ws.arrive"(%{{.*}}) {barrier = "empty", channel = 1 : i32}
// CHECK: "ws.wait"(%{{.*}}, %{{.*}}) {barrier = "empty", channel = 2 : i32}
// CHECK-NEXT: "ws.write_slot"(%{{.*}}, %{{.*}}) {ring = 2 : i32}
// CHECK: "ws.arrive"(%{{.*}}) {barrier = "full", channel = 2 : i32}
// the load warp: the first loop's chunks, then the second's
// CHECK: "ws.tma_load"(%arg0, %{{.*}}, %{{.*}}, %{{.*}}) {l2 = "evict_last", ring = 0 : i32}
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %c0_i32{{.*}}) -> (i32)
// CHECK: "ws.wait"(%{{.*}}, %{{.*}}) {barrier = "empty", channel = 1 : i32}
// CHECK: "ws.tma_load"(%arg0, %{{.*}}, %{{.*}}, %{{.*}}) {l2 = "evict_first", ring = 1 : i32}
// the store warp: the second loop alone
// CHECK: scf.if
// CHECK-NOT: channel = 0
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %c0_i32{{.*}}) -> (i32)
// CHECK: "ws.wait"(%{{.*}}, %{{.*}}) {barrier = "full", channel = 2 : i32}
// CHECK-NEXT: "ws.tma_store"(%arg1, %{{.*}}, %{{.*}}, %{{.*}}) {ring = 2 : i32}
// CHECK: nvvm.cp.async.bulk.wait_group 0
// CHECK: gpu.return
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @softmax(%x_desc: !ws.tensor_desc<tensor<4x128xf32>>,
        %y_desc: !ws.tensor_desc<tensor<4x128xf32>>,
        %n: i32) kernel
        attributes {ws.num_warps = 4 : i32} {
      %bid = gpu.block_id x
      %b = arith.index_cast %bid : index to i32
      %c0 = arith.constant 0 : i32
      %cr = arith.constant 4 : i32
      %cc = arith.constant 128 : i32
      %r0 = arith.muli %b, %cr : i32
      %i0 = arith.constant dense<0xFF800000> : tensor<1x4xf32>
      %i1 = arith.constant dense<0.0> : tensor<1x4xf32>
      %res:2 = scf.for %c = %c0 to %n step %cc iter_args(%m = %i0, %s = %i1)
          -> (tensor<1x4xf32>, tensor<1x4xf32>) : i32 {
        %t_x = "ws.load"(%x_desc, %r0, %c) : (!ws.tensor_desc<tensor<4x128xf32>>, i32, i32) -> tensor<4x128xf32>
        %io = "ws.iota"() {axis = 1 : i32} : () -> tensor<4x128xi32>
        %cs = tensor.splat %c : tensor<4x128xi32>
        %col = arith.addi %io, %cs : tensor<4x128xi32>
        %ns = tensor.splat %n : tensor<4x128xi32>
        %valid = arith.cmpi slt, %col, %ns : tensor<4x128xi32>
        %ninft = arith.constant dense<0xFF800000> : tensor<4x128xf32>
        %xm = arith.select %valid, %t_x, %ninft : tensor<4x128xi1>, tensor<4x128xf32>
        %cm = "ws.reduce"(%xm) {kind = "max", axis = 1 : i32} : (tensor<4x128xf32>) -> tensor<1x4xf32>
        %mn = arith.maximumf %m, %cm : tensor<1x4xf32>
        %l2er = arith.constant dense<1.44269504> : tensor<1x4xf32>
        %dm = arith.subf %m, %mn : tensor<1x4xf32>
        %dml = arith.mulf %dm, %l2er : tensor<1x4xf32>
        %alpha = math.exp2 %dml fastmath<afn> : tensor<1x4xf32>
        %mb = "ws.broadcast"(%mn) {axis = 0 : i32} : (tensor<1x4xf32>) -> tensor<4x128xf32>
        %d = arith.subf %xm, %mb : tensor<4x128xf32>
        %l2e = arith.constant dense<1.44269504> : tensor<4x128xf32>
        %dl = arith.mulf %d, %l2e : tensor<4x128xf32>
        %e = math.exp2 %dl fastmath<afn> : tensor<4x128xf32>
        %es = "ws.reduce"(%e) {kind = "sum", axis = 1 : i32} : (tensor<4x128xf32>) -> tensor<1x4xf32>
        %sa = arith.mulf %s, %alpha : tensor<1x4xf32>
        %sn = arith.addf %sa, %es : tensor<1x4xf32>
        scf.yield %mn, %sn : tensor<1x4xf32>, tensor<1x4xf32>
      } {ws.warp_specialize}
      %one = arith.constant dense<1.0> : tensor<1x4xf32>
      %inv = arith.divf %one, %res#1 : tensor<1x4xf32>
      scf.for %c = %c0 to %n step %cc : i32 {
        %t_x = "ws.load"(%x_desc, %r0, %c) : (!ws.tensor_desc<tensor<4x128xf32>>, i32, i32) -> tensor<4x128xf32>
        %mb = "ws.broadcast"(%res#0) {axis = 0 : i32} : (tensor<1x4xf32>) -> tensor<4x128xf32>
        %d = arith.subf %t_x, %mb : tensor<4x128xf32>
        %l2e = arith.constant dense<1.44269504> : tensor<4x128xf32>
        %dl = arith.mulf %d, %l2e : tensor<4x128xf32>
        %e = math.exp2 %dl fastmath<afn> : tensor<4x128xf32>
        %ib = "ws.broadcast"(%inv) {axis = 0 : i32} : (tensor<1x4xf32>) -> tensor<4x128xf32>
        %yf = arith.mulf %e, %ib : tensor<4x128xf32>
        "ws.store"(%y_desc, %r0, %c, %yf) : (!ws.tensor_desc<tensor<4x128xf32>>, i32, i32, tensor<4x128xf32>) -> ()
      }
      gpu.return
    }
  }
}
