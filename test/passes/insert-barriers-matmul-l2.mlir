// A matmul whose loads name their L2 policies: A, which every block of a
// thin output (M = 256 against N = 8192) reads again, evict_last; B, each
// tile of which only the two blocks of its column read, evict_first. The
// load warp's copies carry the policies, and each becomes the TMA load's
// L2 cache hint (CUTLASS's encodings of evict_last and evict_first).
// `evict_normal`, the default, is no hint at all (the second function).
// The pipeline's l2-keep=a (an autotuner's knob) gives each dot's A loads
// evict_last and its B loads evict_first where the source says nothing,
// l2-keep=b the reverse (the third function); the policies written in the
// source stand (the first two).
// RUN: ws-opt --ws-pipeline=stage=plan %s | FileCheck %s
// RUN: ws-opt %s --emit=ptx -o - | FileCheck %s --check-prefix=PTX
// RUN: ws-opt --ws-pipeline='stage=plan l2-keep=a' %s | FileCheck %s --check-prefix=KEEPA
// RUN: ws-opt --ws-pipeline='stage=plan l2-keep=b' %s | FileCheck %s --check-prefix=KEEPB

// CHECK-LABEL: gpu.func @thin
// CHECK: "ws.tma_load"(%arg0, %{{.*}}, %{{.*}}, %{{.*}}) {l2 = "evict_last", ring = 0 : i32}
// CHECK: "ws.tma_load"(%arg1, %{{.*}}, %{{.*}}, %{{.*}}) {l2 = "evict_first", ring = 1 : i32}
// CHECK-LABEL: gpu.func @plain
// CHECK: "ws.tma_load"(%arg0, %{{.*}}, %{{.*}}, %{{.*}}) {ring = 0 : i32}
// CHECK: "ws.tma_load"(%arg1, %{{.*}}, %{{.*}}, %{{.*}}) {ring = 1 : i32}
// CHECK-LABEL: gpu.func @unmarked
// CHECK: "ws.tma_load"(%arg0, %{{.*}}, %{{.*}}, %{{.*}}) {ring = 0 : i32}
// CHECK: "ws.tma_load"(%arg1, %{{.*}}, %{{.*}}, %{{.*}}) {ring = 1 : i32}

// KEEPA-LABEL: gpu.func @thin
// KEEPA: "ws.tma_load"(%arg0, %{{.*}}, %{{.*}}, %{{.*}}) {l2 = "evict_last", ring = 0 : i32}
// KEEPA: "ws.tma_load"(%arg1, %{{.*}}, %{{.*}}, %{{.*}}) {l2 = "evict_first", ring = 1 : i32}
// KEEPA-LABEL: gpu.func @plain
// KEEPA: "ws.tma_load"(%arg0, %{{.*}}, %{{.*}}, %{{.*}}) {ring = 0 : i32}
// KEEPA: "ws.tma_load"(%arg1, %{{.*}}, %{{.*}}, %{{.*}}) {l2 = "evict_first", ring = 1 : i32}
// KEEPA-LABEL: gpu.func @unmarked
// KEEPA: "ws.tma_load"(%arg0, %{{.*}}, %{{.*}}, %{{.*}}) {l2 = "evict_last", ring = 0 : i32}
// KEEPA: "ws.tma_load"(%arg1, %{{.*}}, %{{.*}}, %{{.*}}) {l2 = "evict_first", ring = 1 : i32}

// KEEPB-LABEL: gpu.func @thin
// KEEPB: "ws.tma_load"(%arg0, %{{.*}}, %{{.*}}, %{{.*}}) {l2 = "evict_last", ring = 0 : i32}
// KEEPB: "ws.tma_load"(%arg1, %{{.*}}, %{{.*}}, %{{.*}}) {l2 = "evict_first", ring = 1 : i32}
// KEEPB-LABEL: gpu.func @plain
// KEEPB: "ws.tma_load"(%arg0, %{{.*}}, %{{.*}}, %{{.*}}) {ring = 0 : i32}
// KEEPB: "ws.tma_load"(%arg1, %{{.*}}, %{{.*}}, %{{.*}}) {l2 = "evict_last", ring = 1 : i32}
// KEEPB-LABEL: gpu.func @unmarked
// KEEPB: "ws.tma_load"(%arg0, %{{.*}}, %{{.*}}, %{{.*}}) {l2 = "evict_first", ring = 0 : i32}
// KEEPB: "ws.tma_load"(%arg1, %{{.*}}, %{{.*}}, %{{.*}}) {l2 = "evict_last", ring = 1 : i32}

// PTX-LABEL: .entry thin(
// PTX: mov.b64 {{.*}}, 1508705875169116160;
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint
// PTX: mov.b64 {{.*}}, 1364590687093260288;
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint
// PTX-LABEL: .entry plain(
// PTX-NOT: cache_hint
// PTX: ret;
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @thin(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>,
                   %c: !ws.tensor_desc<tensor<128x128xf16>>, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bxi = arith.index_cast %bx : index to i32
      %byi = arith.index_cast %by : index to i32
      %m = arith.muli %bxi, %c128 : i32
      %n = arith.muli %byi, %c128 : i32
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
        %ta = "ws.load"(%a, %m, %k) {l2 = "evict_last"} : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %n, %k) {l2 = "evict_first"} : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
      "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      gpu.return
    }
    gpu.func @plain(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>,
                    %c: !ws.tensor_desc<tensor<128x128xf16>>, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bxi = arith.index_cast %bx : index to i32
      %byi = arith.index_cast %by : index to i32
      %m = arith.muli %bxi, %c128 : i32
      %n = arith.muli %byi, %c128 : i32
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
        %ta = "ws.load"(%a, %m, %k) {l2 = "evict_normal"} : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %n, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
      "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      gpu.return
    }
    gpu.func @unmarked(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>,
                       %c: !ws.tensor_desc<tensor<128x128xf16>>, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bxi = arith.index_cast %bx : index to i32
      %byi = arith.index_cast %by : index to i32
      %m = arith.muli %bxi, %c128 : i32
      %n = arith.muli %byi, %c128 : i32
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
        %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %n, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
      "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      gpu.return
    }
  }
}
