// RUN: ws-opt --ws-pipeline=stage=plan %s | ws-opt --pass-pipeline='builtin.module(ws-lower-to-nvvm)' | FileCheck %s
// RUN: ws-opt --emit=ptx %s -o - | FileCheck %s --check-prefix=PTX
// A kernel array (memref<?xi32>, memref<?xf32>) arrives as a global
// pointer and its element count, and memref.load reads one element under
// a test of the index against the count (zero past the end, so no index
// faults): here the row range of a block from cumulative offsets, before
// the loop, and a scale per step inside it.

// CHECK-LABEL: llvm.func @offsets(
// CHECK-SAME: %[[CU:[a-z0-9]+]]: !llvm.ptr<1>, %[[COUNT:[a-z0-9]+]]: i64, %[[W:[a-z0-9]+]]: !llvm.ptr<1>, %[[WCOUNT:[a-z0-9]+]]: i64
// CHECK: %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %[[COUNT]] : i64
// CHECK: scf.if %[[IN]] -> (i32) {
// CHECK: %[[AT:.*]] = llvm.getelementptr %[[CU]][%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK: llvm.load %[[AT]] {alignment = 4 : i64} : !llvm.ptr<1> -> i32
// CHECK: } else {
// CHECK: arith.constant 0 : i32
// CHECK: arith.cmpi ult, %{{.*}}, %[[WCOUNT]] : i64
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK-NOT: memref.
// PTX-LABEL: .entry offsets
// PTX: ld.global.b32
// PTX: ld.global.b32
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @offsets(%a: !ws.tensor_desc<tensor<32x64xf32>>, %c: !ws.tensor_desc<tensor<32x64xf32>>,
                      %cu: memref<?xi32>, %w: memref<?xf32>) kernel {
      %bx = gpu.block_id x
      %c1 = arith.constant 1 : index
      %bx1 = arith.addi %bx, %c1 : index
      %begin = memref.load %cu[%bx] : memref<?xi32>
      %end = memref.load %cu[%bx1] : memref<?xi32>
      %c0 = arith.constant 0 : i32
      %c32 = arith.constant 32 : i32
      scf.for %x = %begin to %end step %c32 : i32 {
        %ta = "ws.load"(%a, %x, %c0) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %i = arith.index_cast %x : i32 to index
        %s = memref.load %w[%i] : memref<?xf32>
        %ss = tensor.splat %s : tensor<32x64xf32>
        %tc = arith.mulf %ta, %ss : tensor<32x64xf32>
        "ws.store"(%c, %x, %c0, %tc) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
