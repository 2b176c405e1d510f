// RUN: ws-opt %s --pass-pipeline='builtin.module(ws-partition-schedule, ws-plan-memory, ws-insert-barriers, ws-specialize)' | FileCheck %s
// RUN: ws-opt %s --emit=ptx --ws-explain -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROVED
// A row kernel carrying 20 row vectors (each row's sum of x * k for 20
// constants k): the compute partition's copy of the loop carries them all
// after its count, and the 20 stores follow it. Registers, not a count,
// bound what a loop carries (at 16, a fixed bound in the loop builder
// dropped the last one, and ws-specialize crashed).
// CHECK: %[[SUMS:.*]]:21 = scf.for
// CHECK-COUNT-20: "ws.store"(%arg1, %c0_i32, %{{.*}}, %[[SUMS]]#{{[0-9]+}})
// PROVED: remark: protocol proved
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @sums(%x: !ws.tensor_desc<tensor<8x256xf32>>, %out: !ws.tensor_desc<tensor<1x8xf32>>, %n: i32) kernel
        attributes {ws.num_warps = 4 : i32} {
      %b = gpu.block_id x
      %bi = arith.index_cast %b : index to i32
      %c0 = arith.constant 0 : i32
      %c8 = arith.constant 8 : i32
      %c256 = arith.constant 256 : i32
      %r0 = arith.muli %bi, %c8 : i32
      %zero = arith.constant dense<0.0> : tensor<1x8xf32>
      %res:20 = scf.for %c = %c0 to %n step %c256 iter_args(%s0 = %zero, %s1 = %zero, %s2 = %zero, %s3 = %zero, %s4 = %zero, %s5 = %zero, %s6 = %zero, %s7 = %zero, %s8 = %zero, %s9 = %zero, %s10 = %zero, %s11 = %zero, %s12 = %zero, %s13 = %zero, %s14 = %zero, %s15 = %zero, %s16 = %zero, %s17 = %zero, %s18 = %zero, %s19 = %zero)
          -> (tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>) : i32 {
        %t = "ws.load"(%x, %r0, %c) : (!ws.tensor_desc<tensor<8x256xf32>>, i32, i32) -> tensor<8x256xf32>
        %k0 = arith.constant dense<1.0> : tensor<8x256xf32>
        %p0 = arith.mulf %t, %k0 : tensor<8x256xf32>
        %q0 = "ws.reduce"(%p0) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n0 = arith.addf %s0, %q0 : tensor<1x8xf32>
        %k1 = arith.constant dense<2.0> : tensor<8x256xf32>
        %p1 = arith.mulf %t, %k1 : tensor<8x256xf32>
        %q1 = "ws.reduce"(%p1) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n1 = arith.addf %s1, %q1 : tensor<1x8xf32>
        %k2 = arith.constant dense<3.0> : tensor<8x256xf32>
        %p2 = arith.mulf %t, %k2 : tensor<8x256xf32>
        %q2 = "ws.reduce"(%p2) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n2 = arith.addf %s2, %q2 : tensor<1x8xf32>
        %k3 = arith.constant dense<4.0> : tensor<8x256xf32>
        %p3 = arith.mulf %t, %k3 : tensor<8x256xf32>
        %q3 = "ws.reduce"(%p3) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n3 = arith.addf %s3, %q3 : tensor<1x8xf32>
        %k4 = arith.constant dense<5.0> : tensor<8x256xf32>
        %p4 = arith.mulf %t, %k4 : tensor<8x256xf32>
        %q4 = "ws.reduce"(%p4) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n4 = arith.addf %s4, %q4 : tensor<1x8xf32>
        %k5 = arith.constant dense<6.0> : tensor<8x256xf32>
        %p5 = arith.mulf %t, %k5 : tensor<8x256xf32>
        %q5 = "ws.reduce"(%p5) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n5 = arith.addf %s5, %q5 : tensor<1x8xf32>
        %k6 = arith.constant dense<7.0> : tensor<8x256xf32>
        %p6 = arith.mulf %t, %k6 : tensor<8x256xf32>
        %q6 = "ws.reduce"(%p6) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n6 = arith.addf %s6, %q6 : tensor<1x8xf32>
        %k7 = arith.constant dense<8.0> : tensor<8x256xf32>
        %p7 = arith.mulf %t, %k7 : tensor<8x256xf32>
        %q7 = "ws.reduce"(%p7) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n7 = arith.addf %s7, %q7 : tensor<1x8xf32>
        %k8 = arith.constant dense<9.0> : tensor<8x256xf32>
        %p8 = arith.mulf %t, %k8 : tensor<8x256xf32>
        %q8 = "ws.reduce"(%p8) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n8 = arith.addf %s8, %q8 : tensor<1x8xf32>
        %k9 = arith.constant dense<10.0> : tensor<8x256xf32>
        %p9 = arith.mulf %t, %k9 : tensor<8x256xf32>
        %q9 = "ws.reduce"(%p9) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n9 = arith.addf %s9, %q9 : tensor<1x8xf32>
        %k10 = arith.constant dense<11.0> : tensor<8x256xf32>
        %p10 = arith.mulf %t, %k10 : tensor<8x256xf32>
        %q10 = "ws.reduce"(%p10) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n10 = arith.addf %s10, %q10 : tensor<1x8xf32>
        %k11 = arith.constant dense<12.0> : tensor<8x256xf32>
        %p11 = arith.mulf %t, %k11 : tensor<8x256xf32>
        %q11 = "ws.reduce"(%p11) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n11 = arith.addf %s11, %q11 : tensor<1x8xf32>
        %k12 = arith.constant dense<13.0> : tensor<8x256xf32>
        %p12 = arith.mulf %t, %k12 : tensor<8x256xf32>
        %q12 = "ws.reduce"(%p12) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n12 = arith.addf %s12, %q12 : tensor<1x8xf32>
        %k13 = arith.constant dense<14.0> : tensor<8x256xf32>
        %p13 = arith.mulf %t, %k13 : tensor<8x256xf32>
        %q13 = "ws.reduce"(%p13) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n13 = arith.addf %s13, %q13 : tensor<1x8xf32>
        %k14 = arith.constant dense<15.0> : tensor<8x256xf32>
        %p14 = arith.mulf %t, %k14 : tensor<8x256xf32>
        %q14 = "ws.reduce"(%p14) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n14 = arith.addf %s14, %q14 : tensor<1x8xf32>
        %k15 = arith.constant dense<16.0> : tensor<8x256xf32>
        %p15 = arith.mulf %t, %k15 : tensor<8x256xf32>
        %q15 = "ws.reduce"(%p15) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n15 = arith.addf %s15, %q15 : tensor<1x8xf32>
        %k16 = arith.constant dense<17.0> : tensor<8x256xf32>
        %p16 = arith.mulf %t, %k16 : tensor<8x256xf32>
        %q16 = "ws.reduce"(%p16) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n16 = arith.addf %s16, %q16 : tensor<1x8xf32>
        %k17 = arith.constant dense<18.0> : tensor<8x256xf32>
        %p17 = arith.mulf %t, %k17 : tensor<8x256xf32>
        %q17 = "ws.reduce"(%p17) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n17 = arith.addf %s17, %q17 : tensor<1x8xf32>
        %k18 = arith.constant dense<19.0> : tensor<8x256xf32>
        %p18 = arith.mulf %t, %k18 : tensor<8x256xf32>
        %q18 = "ws.reduce"(%p18) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n18 = arith.addf %s18, %q18 : tensor<1x8xf32>
        %k19 = arith.constant dense<20.0> : tensor<8x256xf32>
        %p19 = arith.mulf %t, %k19 : tensor<8x256xf32>
        %q19 = "ws.reduce"(%p19) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n19 = arith.addf %s19, %q19 : tensor<1x8xf32>
        scf.yield %n0, %n1, %n2, %n3, %n4, %n5, %n6, %n7, %n8, %n9, %n10, %n11, %n12, %n13, %n14, %n15, %n16, %n17, %n18, %n19 : tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>
      } {ws.warp_specialize}
      "ws.store"(%out, %c0, %r0, %res#0) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#1) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#2) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#3) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#4) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#5) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#6) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#7) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#8) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#9) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#10) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#11) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#12) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#13) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#14) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#15) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#16) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#17) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#18) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#19) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      gpu.return
    }
  }
}
