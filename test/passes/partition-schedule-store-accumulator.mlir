// RUN: ws-opt --pass-pipeline='builtin.module(ws-verify, ws-partition-schedule{explain=true})' %s 2>&1 | FileCheck %s
// RUN: ws-opt %s --emit=ptx -o /dev/null
// A matmul's f32 accumulator stored as it is: the epilogue stages a tile
// the consumers compute from the accumulator, so ws-partition-schedule puts
// the product with a splat of 1.0 (exact) before the store, where a reader
// sees it, and says so. This was refused ('convert it first').
// CHECK: remark: stores the loop's accumulator as it is
// CHECK: %[[ONE:.*]] = arith.constant {{.*}}dense<1.000000e+00> : tensor<128x128xf32>
// CHECK: %[[COPY:.*]] = arith.mulf %{{.*}}, %[[ONE]] {ws.partition = ["compute"]} : tensor<128x128xf32>
// CHECK: "ws.store"(%{{.*}}, %{{.*}}, %{{.*}}, %[[COPY]]) {ws.partition = ["store"]}
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @raw(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>, %c: !ws.tensor_desc<tensor<128x128xf32>>, %K: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %cbk = arith.constant 64 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %acc = scf.for %k = %c0 to %K step %cbk iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %c0, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      } {ws.warp_specialize}
      "ws.store"(%c, %c0, %c0, %acc) : (!ws.tensor_desc<tensor<128x128xf32>>, i32, i32, tensor<128x128xf32>) -> ()
      gpu.return
    }
  }
}

