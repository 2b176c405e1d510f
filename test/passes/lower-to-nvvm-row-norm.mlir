// A row kernel's norm pieces (a mean-centred row times a weight): a 1 x N
// weight loaded before the loop, spread over the rows (ws.broadcast along
// axis 1), and a row vector (each row's mean) stored by the compute warps.
// The load warp fetches the weight once per block into a ring of depth 1;
// the compute warps wait for it once, read their chunks' columns of it into
// registers before their loop, and release it (after a proxy fence, as
// they read it through the generic proxy) once the loop is done. The mean
// is no TMA copy: the compute warps store it element by element, from the
// first thread of each row, bounded by the tensor (its store view).
// RUN: ws-opt --ws-pipeline=stage=plan %s | FileCheck %s --check-prefix=PLAN
// RUN: ws-opt --ws-pipeline=stage=plan %s | ws-opt --pass-pipeline='builtin.module(ws-lower-to-nvvm)' | FileCheck %s

// PLAN-LABEL: gpu.func @norm
// PLAN-SAME: ws.rings = [{{{.*}}channel = 0 : i32, offset = 0 : i32, slot_bytes = 1024 : i32, swizzle = 0 : i32, tile = tensor<1x256xf32>}
// the compute warps: the weight once, then the loop with the mean's store
// PLAN: "ws.wait"(%{{.*}}, %{{.*}}) {barrier = "full", channel = 0 : i32}
// PLAN-NEXT: "ws.read_slot"(%{{.*}}) {ring = 0 : i32} : (i32) -> tensor<1x256xf32>
// PLAN: scf.for
// PLAN: "ws.reduce"
// PLAN: "ws.broadcast"(%{{.*}}) {axis = 1 : i32} : (tensor<1x256xf32>) -> tensor<4x256xf32>
// PLAN: "ws.store"(%arg3, %{{.*}}, %arg5, %{{.*}}) : (!ws.tensor_desc<tensor<1x4xf32>>, i32, i32, tensor<1x4xf32>) -> ()
// PLAN: "ws.write_slot"
// PLAN: scf.yield
// PLAN: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// PLAN-NEXT: "ws.arrive"(%{{.*}}) {barrier = "empty", channel = 0 : i32}
// the load warp: the weight once, before its loop
// PLAN: "ws.tma_load"(%arg1, %{{.*}}, %{{.*}}, %{{.*}}) {ring = 0 : i32}
// PLAN-NEXT: scf.for
// PLAN-NOT: {ring = 0 : i32}
// PLAN: gpu.return

// Each thread holds two chunks (rows r and r + 2 of 64 threads each): the
// weight's vector of its columns is read once from the slot, and the first
// thread of each row stores its row's mean when the row is inside the
// tensor.
// CHECK-LABEL: llvm.func @norm
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK: scf.for
// CHECK: scf.if
// CHECK: llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<1>
// CHECK-NEXT: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<1>
// CHECK: scf.if
// CHECK: llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<1>
// CHECK-NEXT: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<1>
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @norm(%x: !ws.tensor_desc<tensor<4x256xf32>>, %w: !ws.tensor_desc<tensor<1x256xf32>>,
                   %y: !ws.tensor_desc<tensor<4x256xf32>>, %mean: !ws.tensor_desc<tensor<1x4xf32>>,
                   %rows: i32) kernel attributes {ws.num_warps = 4 : i32} {
      %bid = gpu.block_id x
      %nb = gpu.grid_dim x
      %b = arith.index_cast %bid : index to i32
      %g = arith.index_cast %nb : index to i32
      %c0 = arith.constant 0 : i32
      %c4 = arith.constant 4 : i32
      %first = arith.muli %b, %c4 : i32
      %step = arith.muli %g, %c4 : i32
      %tw = "ws.load"(%w, %c0, %c0) : (!ws.tensor_desc<tensor<1x256xf32>>, i32, i32) -> tensor<1x256xf32>
      scf.for %r = %first to %rows step %step : i32 {
        %t = "ws.load"(%x, %r, %c0) : (!ws.tensor_desc<tensor<4x256xf32>>, i32, i32) -> tensor<4x256xf32>
        %s = "ws.reduce"(%t) {kind = "sum", axis = 1 : i32} : (tensor<4x256xf32>) -> tensor<1x4xf32>
        %inv = arith.constant dense<3.906250e-03> : tensor<1x4xf32>
        %mu = arith.mulf %s, %inv : tensor<1x4xf32>
        %mb = "ws.broadcast"(%mu) {axis = 0 : i32} : (tensor<1x4xf32>) -> tensor<4x256xf32>
        %wb = "ws.broadcast"(%tw) {axis = 1 : i32} : (tensor<1x256xf32>) -> tensor<4x256xf32>
        %d = arith.subf %t, %mb : tensor<4x256xf32>
        %o = arith.mulf %d, %wb : tensor<4x256xf32>
        "ws.store"(%y, %r, %c0, %o) : (!ws.tensor_desc<tensor<4x256xf32>>, i32, i32, tensor<4x256xf32>) -> ()
        "ws.store"(%mean, %c0, %r, %mu) : (!ws.tensor_desc<tensor<1x4xf32>>, i32, i32, tensor<1x4xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
