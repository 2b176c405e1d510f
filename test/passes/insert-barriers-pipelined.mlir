// RUN: ws-opt %s --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule,ws-plan-memory,ws-insert-barriers,ws-specialize)' | FileCheck %s
// RUN: ws-opt --emit=ptx %s | FileCheck %s --check-prefix=PTX
// A pipelined attention loop (head dim 64, staged by the step pipeline): the
// consumers issue step 0's S and run its softmax before the loop, under
// scf.if lb < ub; each iteration of the loop from lb + step issues S of
// step n + 1 (slot n + 1), then step n's rescale of O and its P V (slot n,
// P and O carried from the iteration before), in one turn; it waits for S
// alone (wait_group 1) before the softmax of step n + 1, then for P V
// (wait_group 0) before freeing slot n. P V of the last step comes after
// the loop; with no step at all, the scf.if yields the inits.
// CHECK-LABEL: gpu.func @attention
// CHECK: scf.if %{{.*}} -> (i32, tensor<128x64xf32>, tensor<1x128xf32>, tensor<1x128xf32>) {
// CHECK: "ws.wait"(%[[S0:.*]]#0, %{{.*}}) {barrier = "full", channel = 1 : i32}
// CHECK: %[[S:.*]] = "ws.mma"(%[[S0]]#0, %{{.*}}) {ring_a = 0 : i32, ring_b = 1 : i32, transpose_b}
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: "ws.arrive"({{.*}}) {barrier = "full", channel = 3 : i32}
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: "ws.mma_done"(%[[S]])
// CHECK: %[[LB1:.*]] = arith.addi %{{.*}}, %c128_i32{{.*}} : i32
// CHECK: scf.for %{{.*}} = %[[LB1]] to %{{.*}} step %c128_i32{{.*}} iter_args(%[[N:[^ ]*]] = %{{[^,]*}}, %{{[^,]*}}, %[[O:[^ ]*]] = %{{[^,]*}}, %[[P:[^ ]*]] = %{{[^,]*}},
// CHECK: %[[N1:.*]] = arith.addi %[[N]], %c1_i32
// CHECK: "ws.wait"({{.*}}) {barrier = "full", channel = 3 : i32}
// CHECK: %[[NEXT:.*]]:2 = "ws.slot_phase"(%[[N1]])
// CHECK: "ws.wait"(%[[NEXT]]#0, %[[NEXT]]#1) {barrier = "full", channel = 1 : i32}
// CHECK-NEXT: nvvm.wgmma.fence.aligned
// CHECK-NEXT: %[[S1:.*]] = "ws.mma"(%[[NEXT]]#0, %{{.*}}) {ring_a = 0 : i32, ring_b = 1 : i32, transpose_b}
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK: %[[PREV:.*]]:2 = "ws.slot_phase"(%[[N]])
// CHECK: %[[OS:.*]] = arith.mulf %[[O]], %{{.*}} : tensor<128x64xf32>
// CHECK-NEXT: nvvm.wgmma.fence.aligned
// CHECK-NEXT: %[[PV:.*]] = "ws.mma"(%[[PREV]]#0, %[[OS]], %[[P]]) {ring_b = 2 : i32}
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK: "ws.arrive"({{.*}}) {barrier = "full", channel = 3 : i32}
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NEXT: "ws.mma_done"(%[[S1]])
// CHECK: math.exp2
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: %[[FREE:.*]]:2 = "ws.slot_phase"(%[[N]])
// CHECK-NEXT: "ws.arrive"(%[[FREE]]#0) {barrier = "empty", channel = 1 : i32}
// CHECK-NEXT: %[[OD:.*]] = "ws.mma_done"(%[[PV]])
// CHECK-NEXT: scf.yield %[[N1]], %{{.*}}, %[[OD]],
// CHECK: "ws.wait"({{.*}}) {barrier = "full", channel = 3 : i32}
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NEXT: %[[LAST:.*]] = "ws.mma"({{.*}}) {ring_b = 2 : i32}
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: "ws.arrive"({{.*}}) {barrier = "empty", channel = 1 : i32}
// CHECK-NEXT: "ws.mma_done"(%[[LAST]])
// CHECK: } else {
// CHECK-NEXT: scf.yield %c0_i32{{.*}}, %cst{{.*}}, %cst{{.*}}, %cst{{.*}} : i32, tensor<128x64xf32>, tensor<1x128xf32>, tensor<1x128xf32>
// In the PTX, S of the next step and P V of this one are in flight together.
// PTX: wgmma.commit_group.sync.aligned
// PTX: wgmma.wait_group.sync.aligned 1;
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
