// A row kernel's reductions in an elementwise loop (lower_tile_rows.c): a
// row softmax. Each thread's chunk of a row is reduced in registers, then
// over the lanes that share the row (butterfly shuffles), and a row that
// spans warps meets in the row scratch (ws.row_scratch, after the barriers):
// every warp stores its part, the compute warps meet at named barrier 1,
// and every thread adds the parts of its row. The two reductions alternate
// the scratch's two buffers, so one barrier each suffices. A row within one
// warp needs no scratch and no barrier.
// RUN: ws-opt --split-input-file --ws-pipeline=stage=plan %s | ws-opt --split-input-file --pass-pipeline='builtin.module(ws-lower-to-nvvm)' | FileCheck %s
// RUN: ws-opt --split-input-file --ws-pipeline=stage=plan %s | FileCheck %s --check-prefix=PLAN

// 8 x 256 f32 over 4 warps: vec 4, a row is 64 chunks, two warps' lanes.
// PLAN-LABEL: gpu.func @softmax
// PLAN-SAME: ws.row_scratch = array<i32: 16416, 256>
// CHECK-LABEL: llvm.func @softmax
// CHECK-COUNT-5: nvvm.shfl.sync  bfly
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK-COUNT-2: llvm.load {{.*}} : !llvm.ptr<3> -> f32
// CHECK: nvvm.barrier id
// CHECK-NOT: nvvm.barrier id
// CHECK: llvm.return
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @softmax(%x: !ws.tensor_desc<tensor<8x256xf32>>, %y: !ws.tensor_desc<tensor<8x256xf32>>,
                      %rows: i32) kernel attributes {ws.num_warps = 4 : i32} {
      %bid = gpu.block_id x
      %nb = gpu.grid_dim x
      %b = arith.index_cast %bid : index to i32
      %g = arith.index_cast %nb : index to i32
      %c8 = arith.constant 8 : i32
      %c0 = arith.constant 0 : i32
      %first = arith.muli %b, %c8 : i32
      %step = arith.muli %g, %c8 : i32
      scf.for %r = %first to %rows step %step : i32 {
        %t = "ws.load"(%x, %r, %c0) : (!ws.tensor_desc<tensor<8x256xf32>>, i32, i32) -> tensor<8x256xf32>
        %mx = "ws.reduce"(%t) {kind = "max", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %mb = "ws.broadcast"(%mx) {axis = 0 : i32} : (tensor<1x8xf32>) -> tensor<8x256xf32>
        %d = arith.subf %t, %mb : tensor<8x256xf32>
        %e = math.exp2 %d fastmath<afn> : tensor<8x256xf32>
        %s = "ws.reduce"(%e) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %one = arith.constant dense<1.0> : tensor<1x8xf32>
        %inv = arith.divf %one, %s : tensor<1x8xf32>
        %ib = "ws.broadcast"(%inv) {axis = 0 : i32} : (tensor<1x8xf32>) -> tensor<8x256xf32>
        %o = arith.mulf %e, %ib : tensor<8x256xf32>
        "ws.store"(%y, %r, %c0, %o) : (!ws.tensor_desc<tensor<8x256xf32>>, i32, i32, tensor<8x256xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----
// 16 x 128 f32 over 4 warps: a row is 32 chunks, one warp's lanes: shuffles
// over 1, 2, 4, 8 and 16 lanes and no named barrier. The plan reserves the
// scratch all the same (it sizes it before the lowering picks the chunks).
// PLAN-LABEL: gpu.func @row_max
// PLAN-SAME: ws.row_scratch = array<i32: 16416, 512>
// CHECK-LABEL: llvm.func @row_max
// CHECK-COUNT-5: nvvm.shfl.sync  bfly {{.*}} : f32 -> f32
// CHECK: arith.maximumf
// CHECK-NOT: nvvm.barrier id
// CHECK: llvm.return
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @row_max(%x: !ws.tensor_desc<tensor<16x128xf32>>, %y: !ws.tensor_desc<tensor<16x128xf32>>,
                      %rows: i32) kernel attributes {ws.num_warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %c16 = arith.constant 16 : i32
      scf.for %r = %c0 to %rows step %c16 : i32 {
        %t = "ws.load"(%x, %r, %c0) : (!ws.tensor_desc<tensor<16x128xf32>>, i32, i32) -> tensor<16x128xf32>
        %mx = "ws.reduce"(%t) {kind = "max", axis = 1 : i32} : (tensor<16x128xf32>) -> tensor<1x16xf32>
        %mb = "ws.broadcast"(%mx) {axis = 0 : i32} : (tensor<1x16xf32>) -> tensor<16x128xf32>
        %d = arith.subf %t, %mb : tensor<16x128xf32>
        "ws.store"(%y, %r, %c0, %d) : (!ws.tensor_desc<tensor<16x128xf32>>, i32, i32, tensor<16x128xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
