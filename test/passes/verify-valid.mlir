// RUN: ws-opt --pass-pipeline='builtin.module(ws-verify)' %s | FileCheck %s
// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify{chip=sm_100a})' %s --split-input-file 2>&1 | FileCheck %s --check-prefix=CHIP
// ws-verify accepts every element type (coordinates proven 16-byte aligned
// through ws.divisibility), ranks 1 and 5, a tile that drops its box's
// leading unit extents, both dot forms, ws.num_stages on the marked loop
// and an sm_100a target, and leaves the IR as it was.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    // CHECK-LABEL: gpu.func @types
    gpu.func @types(%a: !ws.tensor_desc<tensor<16xf16>>, %b: !ws.tensor_desc<tensor<8x64xbf16>>,
                    %c: !ws.tensor_desc<tensor<4xf32>>, %d: !ws.tensor_desc<tensor<2x2x2x2x16xf8E4M3FN>>,
                    %e: !ws.tensor_desc<tensor<256x16xf8E5M2>>, %f: !ws.tensor_desc<tensor<1x16xi8>>,
                    %g: !ws.tensor_desc<tensor<1x4xi32>>, %i: i32 {ws.divisibility = 16 : i32}) kernel {
      // CHECK: "ws.load"{{.*}} -> tensor<16xf16>
      %t = "ws.load"(%a, %i) : (!ws.tensor_desc<tensor<16xf16>>, i32) -> tensor<16xf16>
      // CHECK: "ws.load"{{.*}} -> tensor<2x2x2x2x16xf8E4M3FN>
      %u = "ws.load"(%d, %i, %i, %i, %i, %i) : (!ws.tensor_desc<tensor<2x2x2x2x16xf8E4M3FN>>, i32, i32, i32, i32, i32) -> tensor<2x2x2x2x16xf8E4M3FN>
      // CHECK: "ws.store"
      "ws.store"(%a, %i, %t) : (!ws.tensor_desc<tensor<16xf16>>, i32, tensor<16xf16>) -> ()
      gpu.return
    }
    // CHECK-LABEL: gpu.func @unit_extents
    gpu.func @unit_extents(%h: !ws.tensor_desc<tensor<1x1x128x64xf16>>, %i: i32) kernel {
      %c0 = arith.constant 0 : i32
      // CHECK: "ws.load"{{.*}} -> tensor<128x64xf16>
      %t = "ws.load"(%h, %i, %i, %i, %c0) : (!ws.tensor_desc<tensor<1x1x128x64xf16>>, i32, i32, i32, i32) -> tensor<128x64xf16>
      // CHECK: "ws.store"{{.*}}tensor<128x64xf16>) -> ()
      "ws.store"(%h, %i, %i, %i, %c0, %t) : (!ws.tensor_desc<tensor<1x1x128x64xf16>>, i32, i32, i32, i32, tensor<128x64xf16>) -> ()
      gpu.return
    }
    // CHECK-LABEL: gpu.func @dots
    gpu.func @dots(%a: tensor<64x32xf16>, %b: tensor<32x128xf16>, %bt: tensor<128x32xf16>,
                   %acc: tensor<64x128xf32>, %n: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      // CHECK: scf.for
      scf.for %iv = %c0 to %n step %c1 : i32 {
        // CHECK: "ws.dot"{{.*}}tensor<32x128xf16>
        %d0 = "ws.dot"(%a, %b, %acc) : (tensor<64x32xf16>, tensor<32x128xf16>, tensor<64x128xf32>) -> tensor<64x128xf32>
        // CHECK: "ws.dot"{{.*}}transpose_b
        %d1 = "ws.dot"(%a, %bt, %acc) {transpose_b} : (tensor<64x32xf16>, tensor<128x32xf16>, tensor<64x128xf32>) -> tensor<64x128xf32>
      // CHECK: } {ws.num_stages = 3 : i32, ws.warp_specialize}
      } {ws.warp_specialize, ws.num_stages = 3 : i32}
      gpu.return
    }
  }
}
// -----
// The sm_90a part above fails under chip=sm_100a; this sm_100a part passes.
// CHIP: verify-valid.mlir:8:3: error: 'gpu.module' op targets chip "sm_90a" but the pipeline was asked for chip=sm_100a
// CHIP-NOT: error
// CHIP: gpu.module @b [#nvvm.target<chip = "sm_100a">]
module attributes {gpu.container_module} {
  gpu.module @b [#nvvm.target<chip = "sm_100a">] {
    gpu.func @k(%a: !ws.tensor_desc<tensor<16xf16>>) kernel {
      gpu.return
    }
  }
}
