// RUN: ws-opt %s --split-input-file --pass-pipeline='builtin.module(ws-partition-schedule{explain=true})' -o %t 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --input-file=%t
// When the consumers of a K loop run the math on each step's products a
// step late (ws.stage = 1 on that math, 0 on the rest): a loop whose one run of wgmmas makes
// fresh products that only the step's math reads, promoted into the
// carried accumulator, where the registers hold two products beside it.

// Promotion for accuracy (FP8 wgmma adds with reduced precision): each
// K step's product added into the f32 accumulator. Two warpgroups share the
// 128 x 128 tile: 64 + 2 x 64 f32 per thread.
// REMARK: [[@LINE+13]]:{{[0-9]+}}: remark: lag 1: the math on each K step's products runs one step late, after the next step's wgmmas are issued, so the tensor cores run it in their shadow instead of waiting for it; the consumers hold two products and the accumulator, 192 f32 per thread of 192
// CHECK-LABEL: gpu.func @promoted
// CHECK: "ws.load"{{.*}}ws.stage = 0 : i32
// CHECK: "ws.dot"{{.*}}ws.partition = ["compute"], ws.stage = 0 : i32
// CHECK: arith.addf{{.*}}ws.partition = ["compute"], ws.stage = 1 : i32
// CHECK: {name = "compute", num_warps = 8 : i32, role = "compute"}
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @promoted(%a: !ws.tensor_desc<tensor<128x128xf8E4M3FN>>, %b: !ws.tensor_desc<tensor<128x128xf8E4M3FN>>,
                       %c: !ws.tensor_desc<tensor<128x128xbf16>>, %K: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %cbk = arith.constant 128 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %acc = scf.for %k = %c0 to %K step %cbk iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %k) : (!ws.tensor_desc<tensor<128x128xf8E4M3FN>>, i32, i32) -> tensor<128x128xf8E4M3FN>
        %tb = "ws.load"(%b, %c0, %k) : (!ws.tensor_desc<tensor<128x128xf8E4M3FN>>, i32, i32) -> tensor<128x128xf8E4M3FN>
        %p = "ws.dot"(%ta, %tb, %zero) {transpose_b} : (tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>, tensor<128x128xf32>) -> tensor<128x128xf32>
        %d = arith.addf %acc0, %p : tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xbf16>
      "ws.store"(%c, %c0, %c0, %out) : (!ws.tensor_desc<tensor<128x128xbf16>>, i32, i32, tensor<128x128xbf16>) -> ()
      gpu.return
    }
  }
}

// -----

// A 128 x 192 tile would hold 96 + 2 x 96 f32 per thread: no lag; the
// step waits for its wgmmas before its math.
// REMARK: [[@LINE+12]]:{{[0-9]+}}: remark: no lag: the math on each K step's products waits for its wgmmas, since two products and the accumulator would take 288 f32 per consumer thread, over the 192 a lag leaves them (a narrower N tile fits)
// CHECK-LABEL: gpu.func @wide
// CHECK-NOT: ws.stage = 1
// CHECK: arith.addf{{.*}}ws.stage = 0 : i32
// CHECK: {name = "compute", num_warps = 8 : i32, role = "compute"}
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @wide(%a: !ws.tensor_desc<tensor<128x128xf8E4M3FN>>, %b: !ws.tensor_desc<tensor<192x128xf8E4M3FN>>,
                   %c: !ws.tensor_desc<tensor<128x192xbf16>>, %K: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %cbk = arith.constant 128 : i32
      %zero = arith.constant dense<0.0> : tensor<128x192xf32>
      %acc = scf.for %k = %c0 to %K step %cbk iter_args(%acc0 = %zero) -> (tensor<128x192xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %k) : (!ws.tensor_desc<tensor<128x128xf8E4M3FN>>, i32, i32) -> tensor<128x128xf8E4M3FN>
        %tb = "ws.load"(%b, %c0, %k) : (!ws.tensor_desc<tensor<192x128xf8E4M3FN>>, i32, i32) -> tensor<192x128xf8E4M3FN>
        %p = "ws.dot"(%ta, %tb, %zero) {transpose_b} : (tensor<128x128xf8E4M3FN>, tensor<192x128xf8E4M3FN>, tensor<128x192xf32>) -> tensor<128x192xf32>
        %d = arith.addf %acc0, %p : tensor<128x192xf32>
        scf.yield %d : tensor<128x192xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x192xf32> to tensor<128x192xbf16>
      "ws.store"(%c, %c0, %c0, %out) : (!ws.tensor_desc<tensor<128x192xbf16>>, i32, i32, tensor<128x192xbf16>) -> ()
      gpu.return
    }
  }
}

// -----

// An A the step computes in registers: the next step's wgmmas would still
// read the registers this step's math rewrites.
// REMARK: [[@LINE+10]]:{{[0-9]+}}: remark: no lag: the math on each K step's products waits for its wgmmas, since the step computes a tile its wgmmas read (an A in registers), which the next step's wgmmas would still read
// CHECK-LABEL: gpu.func @register_a
// CHECK-NOT: ws.stage = 1
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @register_a(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>,
                         %c: !ws.tensor_desc<tensor<128x128xf16>>, %K: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %cbk = arith.constant 64 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %acc = scf.for %k = %c0 to %K step %cbk iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
        %t0 = "ws.load"(%a, %c0, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %c0, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %ta = arith.negf %t0 : tensor<128x64xf16>
        %p = "ws.dot"(%ta, %tb, %zero) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        %d = arith.addf %acc0, %p : tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
      "ws.store"(%c, %c0, %c0, %out) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      gpu.return
    }
  }
}

// -----

// A plain matmul accumulates in wgmma: nothing to lag, nothing said.
// REMARK-NOT: remark: {{(no )?}}lag
// CHECK-LABEL: gpu.func @plain
// CHECK-NOT: ws.stage = 1
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @plain(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>,
                    %c: !ws.tensor_desc<tensor<128x128xf16>>, %K: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %cbk = arith.constant 64 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %acc = scf.for %k = %c0 to %K step %cbk iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %c0, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
      "ws.store"(%c, %c0, %c0, %out) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      gpu.return
    }
  }
}
