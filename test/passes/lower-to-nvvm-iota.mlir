// ws.iota in an elementwise loop: a mask on and below each tile's diagonal
// (integration/variants.py's tril_f32, run exact on the H100). Each thread's
// chunk holds its elements' row (axis 0) or column (axis 1): its position in
// the row-major tile, (chunk * threads + thread) * vec + lane, divided by or
// reduced modulo the row length.
// RUN: ws-opt --ws-pipeline=stage=plan %s | ws-opt --pass-pipeline='builtin.module(ws-lower-to-nvvm)' | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @tril(%a: !ws.tensor_desc<tensor<32x64xf32>>, %b: !ws.tensor_desc<tensor<32x64xf32>>,
                   %out: !ws.tensor_desc<tensor<32x64xf32>>, %n: i32) kernel attributes {ws.num_warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %bx = gpu.block_id x
      %bxi = arith.index_cast %bx : index to i32
      %c32 = arith.constant 32 : i32
      %x = arith.muli %bxi, %c32 : i32
      scf.for %y = %c0 to %n step %c64 : i32 {
        %ta = "ws.load"(%a, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %tb = "ws.load"(%b, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %r = "ws.iota"() {axis = 0 : i32} : () -> tensor<32x64xi32>
        %c = "ws.iota"() {axis = 1 : i32} : () -> tensor<32x64xi32>
        %keep = arith.cmpi sge, %r, %c : tensor<32x64xi32>
        %sum = arith.addf %ta, %tb : tensor<32x64xf32>
        %o = arith.select %keep, %sum, %ta : tensor<32x64xi1>, tensor<32x64xf32>
        "ws.store"(%out, %x, %y, %o) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// CHECK-DAG: %[[LANES:.*]] = arith.constant dense<[0, 1, 2, 3]> : vector<4xi32>
// CHECK-DAG: %[[ROW:.*]] = arith.constant dense<64> : vector<4xi32>
// CHECK:     %[[AT:.*]] = arith.addi %{{.*}}, %[[LANES]] : vector<4xi32>
// CHECK-NEXT: arith.divui %[[AT]], %[[ROW]] : vector<4xi32>
// CHECK:     arith.remui %{{.*}}, %{{.*}} : vector<4xi32>
// CHECK:     arith.cmpi sge, %{{.*}}, %{{.*}} : vector<4xi32>
// CHECK:     arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<4xi1>, vector<4xf32>
