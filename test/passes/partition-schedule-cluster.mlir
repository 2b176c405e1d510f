// RUN: ws-opt --split-input-file --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule{explain=true})' %s -o %t 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --input-file=%t
// A cluster kernel's K-loop loads that the CTAs of a cluster load alike
// (coordinates that do not depend on a block's place in its cluster) are
// marked ws.cluster_shared: each CTA will load its part of the rows and
// multicast it into every CTA (passes/transforms/cluster_share.c).

// Clusters along x, m from block x and n from block y: the pair shares B.
// REMARK: remark: cluster 2x1 (ws.cluster): A at {{.*}} differs between them (each loads its own); B at {{.*}} is the same in each: each loads 128 of its 256 rows and multicasts them into every CTA's slot; the cluster's CTAs release each slot to one another, since each writes into the other's
// CHECK-LABEL: gpu.func @along_x
// CHECK: "ws.load"(%{{.*}}) {ws.partition = ["load"], ws.stage = 0 : i32} : (!ws.tensor_desc<tensor<128x64xf16>>
// CHECK: "ws.load"(%{{.*}}) {ws.cluster_shared, ws.partition = ["load"], ws.stage = 0 : i32} : (!ws.tensor_desc<tensor<256x64xf16>>
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @along_x(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<256x64xf16>>,
                     %c: !ws.tensor_desc<tensor<128x256xf16>>, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32, ws.cluster = array<i32: 2, 1>} {
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
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<256x64xf16>, tensor<128x256xf32>) -> tensor<128x256xf32>
        scf.yield %d : tensor<128x256xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xf16>
      "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, tensor<128x256xf16>) -> ()
      gpu.return
    }
  }
}

// -----

// Clusters along y: the pair shares A (64 of its 128 rows each).
// REMARK: remark: cluster 1x2 (ws.cluster): A at {{.*}} is the same in each: each loads 64 of its 128 rows and multicasts them into every CTA's slot; B at {{.*}} differs between them (each loads its own)
// CHECK-LABEL: gpu.func @along_y
// CHECK: "ws.load"(%{{.*}}) {ws.cluster_shared, ws.partition = ["load"], ws.stage = 0 : i32} : (!ws.tensor_desc<tensor<128x64xf16>>
// CHECK: "ws.load"(%{{.*}}) {ws.partition = ["load"], ws.stage = 0 : i32} : (!ws.tensor_desc<tensor<256x64xf16>>
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @along_y(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<256x64xf16>>,
                     %c: !ws.tensor_desc<tensor<128x256xf16>>, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32, ws.cluster = array<i32: 1, 2>} {
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
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<256x64xf16>, tensor<128x256xf32>) -> tensor<128x256xf32>
        scf.yield %d : tensor<128x256xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xf16>
      "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, tensor<128x256xf16>) -> ()
      gpu.return
    }
  }
}

// -----

// The cluster's index (block x divided by the cluster's 2) is the same in
// both CTAs: n from it is shared too.
// REMARK: remark: cluster 2x1 (ws.cluster): A at {{.*}} differs between them (each loads its own); B at {{.*}} is the same in each
// CHECK-LABEL: gpu.func @pair_index
// CHECK: {ws.cluster_shared, ws.partition = ["load"], ws.stage = 0 : i32} : (!ws.tensor_desc<tensor<256x64xf16>>
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @pair_index(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<256x64xf16>>,
                     %c: !ws.tensor_desc<tensor<128x256xf16>>, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32, ws.cluster = array<i32: 2, 1>} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %c256 = arith.constant 256 : i32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bxi = arith.index_cast %bx : index to i32
      %byi = arith.index_cast %by : index to i32
      %c2 = arith.constant 2 : i32
      %pair = arith.divui %bxi, %c2 : i32
      %m = arith.muli %bxi, %c128 : i32
      %n = arith.muli %pair, %c256 : i32
      %zero = arith.constant dense<0.0> : tensor<128x256xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x256xf32>) : i32 {
        %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %n, %k) : (!ws.tensor_desc<tensor<256x64xf16>>, i32, i32) -> tensor<256x64xf16>
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<256x64xf16>, tensor<128x256xf32>) -> tensor<128x256xf32>
        scf.yield %d : tensor<128x256xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xf16>
      "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, tensor<128x256xf16>) -> ()
      gpu.return
    }
  }
}
