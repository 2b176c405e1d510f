// RUN: ws-opt --ws-pipeline=stage=plan %s | FileCheck %s
// RUN: ws-opt --emit=ptx %s | FileCheck %s --check-prefix=PTX
// A matmul whose A is a tile the K loop computes from its ws.load (here
// negated, and an e4m3 tile widened to f16) runs on wgmma's register form:
// the consumers read A's slot into registers (ws.read_slot), do the math,
// and issue ws.mma with A as a third operand; having read the slot with
// generic loads, they fence the async proxy before TMA may refill it.
// wgmma reads A's registers while it runs, so the math that rewrites them
// waits for the previous step's wgmma first (wait_group 0, which also
// frees the previous slot); the slot's loads go before that wait.
// (ws-insert-barriers used to leave the math reading the erased ws.load
// and crash.)
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    // CHECK-LABEL: gpu.func @negated_a
    // CHECK: scf.for
    // CHECK: "ws.wait"({{.*}}) {barrier = "full", channel = 0 : i32}
    // CHECK: %[[A:.*]] = "ws.read_slot"(%[[SLOT:[0-9]+]]#0) {ring = 0 : i32} : (i32) -> tensor<128x64xf16>
    // CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
    // CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    // CHECK-NEXT: "ws.arrive"({{.*}}) {barrier = "empty", channel = 0 : i32}
    // CHECK: %[[NEG:.*]] = arith.negf %[[A]] : tensor<128x64xf16>
    // CHECK-NEXT: nvvm.wgmma.fence.aligned
    // CHECK-NEXT: "ws.mma"(%[[SLOT]]#0, %{{.*}}, %[[NEG]]) {ring_b = 1 : i32, transpose_b}
    // CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
    // CHECK-NOT: nvvm.wgmma.wait.group.sync.aligned 1
    // CHECK: scf.yield
    gpu.func @negated_a(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<256x64xf16>>,
                        %c: !ws.tensor_desc<tensor<128x256xf16>>, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %c256 = arith.constant 256 : i32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bxi = arith.index_cast %bx : index to i32
      %byi = arith.index_cast %by : index to i32
      %m = arith.muli %bxi, %c128 : i32
      %n = arith.muli %byi, %c256 : i32
      %zero = arith.constant dense<0.0> : tensor<128x256xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x256xf32>) : i32 {
        %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %n, %k) : (!ws.tensor_desc<tensor<256x64xf16>>, i32, i32) -> tensor<256x64xf16>
        %neg = arith.negf %ta : tensor<128x64xf16>
        %d = "ws.dot"(%neg, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<256x64xf16>, tensor<128x256xf32>) -> tensor<128x256xf32>
        scf.yield %d : tensor<128x256xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xf16>
      "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, tensor<128x256xf16>) -> ()
      gpu.return
    }

    // CHECK-LABEL: gpu.func @widened_e4m3_a
    // CHECK: %[[A8:.*]] = "ws.read_slot"(%[[SLOT8:[0-9]+]]#0) {ring = 0 : i32} : (i32) -> tensor<128x64xf8E4M3FN>
    // CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
    // CHECK: %[[W:.*]] = arith.extf %[[A8]] : tensor<128x64xf8E4M3FN> to tensor<128x64xf16>
    // CHECK: "ws.mma"(%[[SLOT8]]#0, %{{.*}}, %[[W]]) {ring_b = 1 : i32, transpose_b}
    // PTX-LABEL: .entry widened_e4m3_a(
    // PTX: cvt.rn.f16x2.e4m3x2
    // PTX: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
    gpu.func @widened_e4m3_a(%a: !ws.tensor_desc<tensor<128x64xf8E4M3FN>>, %b: !ws.tensor_desc<tensor<256x64xf16>>,
                             %c: !ws.tensor_desc<tensor<128x256xf16>>, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %c256 = arith.constant 256 : i32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bxi = arith.index_cast %bx : index to i32
      %byi = arith.index_cast %by : index to i32
      %m = arith.muli %bxi, %c128 : i32
      %n = arith.muli %byi, %c256 : i32
      %zero = arith.constant dense<0.0> : tensor<128x256xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x256xf32>) : i32 {
        %t8 = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf8E4M3FN>>, i32, i32) -> tensor<128x64xf8E4M3FN>
        %tb = "ws.load"(%b, %n, %k) : (!ws.tensor_desc<tensor<256x64xf16>>, i32, i32) -> tensor<256x64xf16>
        %ta = arith.extf %t8 : tensor<128x64xf8E4M3FN> to tensor<128x64xf16>
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<256x64xf16>, tensor<128x256xf32>) -> tensor<128x256xf32>
        scf.yield %d : tensor<128x256xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xf16>
      "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, tensor<128x256xf16>) -> ()
      gpu.return
    }
  }
}
