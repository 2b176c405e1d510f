// A row kernel over a row's chunks (a cross-entropy): the warp-specialized
// loop runs over the columns of one block of R = 4 rows in 4 x 128 chunks
// and carries three 1 x 4 row vectors (the running max, the rescaled sum
// of exponentials, the label's logit); the labels, a 1 x 4 i32 row vector,
// are read before it and the loss and logsumexp stored after it. The
// compute warps read the labels straight from global memory (no ring, no
// TMA), carry the row vectors in their copy of the loop, and run what
// follows it; the load warp's copy carries only its count. Such a kernel
// runs once per block, so the plan takes 4 blocks per SM.
// RUN: ws-opt --ws-pipeline=stage=plan %s | FileCheck %s --check-prefix=PLAN
// RUN: ws-opt --ws-pipeline=stage=plan %s | ws-opt --pass-pipeline='builtin.module(ws-lower-to-nvvm)' | FileCheck %s

// PLAN-LABEL: gpu.func @cross_entropy
// PLAN-SAME: ws.blocks_per_sm = 4 : i32
// PLAN-NOT: ring = 1
// the compute warps: the labels, the loop with its row vectors, the epilogue
// PLAN: %[[LAB:.*]] = "ws.load"(%arg1, %{{.*}}, %{{.*}}) : (!ws.tensor_desc<tensor<1x4xi32>>, i32, i32) -> tensor<1x4xi32>
// PLAN: %[[RES:.*]]:4 = scf.for %{{.*}} iter_args({{.*}}) -> (i32, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>)
// PLAN: "ws.wait"(%{{.*}}, %{{.*}}) {barrier = "full", channel = 0 : i32}
// PLAN: "ws.broadcast"(%[[LAB]]) {axis = 0 : i32} : (tensor<1x4xi32>) -> tensor<4x128xi32>
// PLAN: scf.yield %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>
// PLAN: math.log %[[RES]]#2 : tensor<1x4xf32>
// PLAN: "ws.store"(%arg2, %{{.*}}) : (!ws.tensor_desc<tensor<1x4xf32>>, i32, i32, tensor<1x4xf32>) -> ()
// PLAN: "ws.store"(%arg3, %{{.*}}) : (!ws.tensor_desc<tensor<1x4xf32>>, i32, i32, tensor<1x4xf32>) -> ()
// the load warp: its count alone
// PLAN: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (i32)
// PLAN-NEXT: "ws.slot_phase"
// PLAN: "ws.tma_load"(%arg0, %{{.*}}, %{{.*}}, %{{.*}}) {ring = 0 : i32}
// PLAN: gpu.return

// Lowered: each thread reads its row's label (zero past the tensor), and
// the loop carries each row vector as a struct of the thread's values of
// it (one row here), unpacked at the body's start and after the loop.
// CHECK-LABEL: llvm.func @cross_entropy
// CHECK: scf.if
// CHECK: llvm.load %{{.*}} : !llvm.ptr<1> -> i32
// CHECK: } else {
// CHECK-NEXT: scf.yield %{{.*}} : i32
// CHECK: %[[LOOP:.*]]:4 = scf.for {{.*}} -> (i32, !llvm.struct<(f32)>, !llvm.struct<(f32)>, !llvm.struct<(f32)>)
// CHECK-NEXT: llvm.extractvalue %{{.*}}[0] : !llvm.struct<(f32)>
// CHECK: scf.yield %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32, !llvm.struct<(f32)>, !llvm.struct<(f32)>, !llvm.struct<(f32)>
// CHECK: llvm.extractvalue %[[LOOP]]#1[0] : !llvm.struct<(f32)>
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<1>
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<1>
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @cross_entropy(%x_desc: !ws.tensor_desc<tensor<4x128xf32>>, %labels_desc: !ws.tensor_desc<tensor<1x4xi32>>,
        %loss_desc: !ws.tensor_desc<tensor<1x4xf32>>, %lse_desc: !ws.tensor_desc<tensor<1x4xf32>>, %n: i32, %ignore: i32) kernel
        attributes {ws.num_warps = 4 : i32} {
      %bid = gpu.block_id x
      %b = arith.index_cast %bid : index to i32
      %c0 = arith.constant 0 : i32
      %cr = arith.constant 4 : i32
      %cc = arith.constant 128 : i32
      %r0 = arith.muli %b, %cr : i32
      %lab = "ws.load"(%labels_desc, %c0, %r0) : (!ws.tensor_desc<tensor<1x4xi32>>, i32, i32) -> tensor<1x4xi32>
      %ninf = arith.constant dense<0xFF800000> : tensor<1x4xf32>
      %zero = arith.constant dense<0.0> : tensor<1x4xf32>
      %res:3 = scf.for %c = %c0 to %n step %cc iter_args(%m = %ninf, %s = %zero, %xl = %zero)
          -> (tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>) : i32 {
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
        %lb = "ws.broadcast"(%lab) {axis = 0 : i32} : (tensor<1x4xi32>) -> tensor<4x128xi32>
        %hit = arith.cmpi eq, %col, %lb : tensor<4x128xi32>
        %zt = arith.constant dense<0.0> : tensor<4x128xf32>
        %pick = arith.select %hit, %t_x, %zt : tensor<4x128xi1>, tensor<4x128xf32>
        %ps = "ws.reduce"(%pick) {kind = "sum", axis = 1 : i32} : (tensor<4x128xf32>) -> tensor<1x4xf32>
        %xln = arith.addf %xl, %ps : tensor<1x4xf32>
        scf.yield %mn, %sn, %xln : tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>
      } {ws.warp_specialize}
      %ls = math.log %res#1 : tensor<1x4xf32>
      %lse = arith.addf %res#0, %ls : tensor<1x4xf32>
      %loss0 = arith.subf %lse, %res#2 : tensor<1x4xf32>
      %is = tensor.splat %ignore : tensor<1x4xi32>
      %ign = arith.cmpi eq, %lab, %is : tensor<1x4xi32>
      %loss = arith.select %ign, %zero, %loss0 : tensor<1x4xi1>, tensor<1x4xf32>
      "ws.store"(%loss_desc, %c0, %r0, %loss) : (!ws.tensor_desc<tensor<1x4xf32>>, i32, i32, tensor<1x4xf32>) -> ()
      "ws.store"(%lse_desc, %c0, %r0, %lse) : (!ws.tensor_desc<tensor<1x4xf32>>, i32, i32, tensor<1x4xf32>) -> ()
      gpu.return
    }
  }
}
