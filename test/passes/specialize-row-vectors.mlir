// RUN: ws-opt %s --pass-pipeline='builtin.module(ws-partition-schedule, ws-plan-memory, ws-insert-barriers, ws-specialize)' | FileCheck %s
// RUN: ws-opt %s --emit=ptx --ws-explain -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROVED
// A row kernel carrying 70 row vectors (each row's sum of x * k for 70
// constants k): the compute partition's copy of the loop carries them all
// after its count, the 70 stores follow it, and the proof's interpreter
// copies them all. Registers, not a count, bound what a loop carries: at
// 16 the loop builder dropped the last value and ws-specialize crashed;
// past 64 the proof refused the kernel.
// CHECK: %[[SUMS:.*]]:71 = scf.for
// CHECK-COUNT-70: "ws.store"(%arg1, %c0_i32, %{{.*}}, %[[SUMS]]#{{[0-9]+}})
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
      %res:70 = scf.for %c = %c0 to %n step %c256 iter_args(%s0 = %zero, %s1 = %zero, %s2 = %zero, %s3 = %zero, %s4 = %zero, %s5 = %zero, %s6 = %zero, %s7 = %zero, %s8 = %zero, %s9 = %zero, %s10 = %zero, %s11 = %zero, %s12 = %zero, %s13 = %zero, %s14 = %zero, %s15 = %zero, %s16 = %zero, %s17 = %zero, %s18 = %zero, %s19 = %zero, %s20 = %zero, %s21 = %zero, %s22 = %zero, %s23 = %zero, %s24 = %zero, %s25 = %zero, %s26 = %zero, %s27 = %zero, %s28 = %zero, %s29 = %zero, %s30 = %zero, %s31 = %zero, %s32 = %zero, %s33 = %zero, %s34 = %zero, %s35 = %zero, %s36 = %zero, %s37 = %zero, %s38 = %zero, %s39 = %zero, %s40 = %zero, %s41 = %zero, %s42 = %zero, %s43 = %zero, %s44 = %zero, %s45 = %zero, %s46 = %zero, %s47 = %zero, %s48 = %zero, %s49 = %zero, %s50 = %zero, %s51 = %zero, %s52 = %zero, %s53 = %zero, %s54 = %zero, %s55 = %zero, %s56 = %zero, %s57 = %zero, %s58 = %zero, %s59 = %zero, %s60 = %zero, %s61 = %zero, %s62 = %zero, %s63 = %zero, %s64 = %zero, %s65 = %zero, %s66 = %zero, %s67 = %zero, %s68 = %zero, %s69 = %zero)
          -> (tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>) : i32 {
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
        %k20 = arith.constant dense<21.0> : tensor<8x256xf32>
        %p20 = arith.mulf %t, %k20 : tensor<8x256xf32>
        %q20 = "ws.reduce"(%p20) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n20 = arith.addf %s20, %q20 : tensor<1x8xf32>
        %k21 = arith.constant dense<22.0> : tensor<8x256xf32>
        %p21 = arith.mulf %t, %k21 : tensor<8x256xf32>
        %q21 = "ws.reduce"(%p21) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n21 = arith.addf %s21, %q21 : tensor<1x8xf32>
        %k22 = arith.constant dense<23.0> : tensor<8x256xf32>
        %p22 = arith.mulf %t, %k22 : tensor<8x256xf32>
        %q22 = "ws.reduce"(%p22) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n22 = arith.addf %s22, %q22 : tensor<1x8xf32>
        %k23 = arith.constant dense<24.0> : tensor<8x256xf32>
        %p23 = arith.mulf %t, %k23 : tensor<8x256xf32>
        %q23 = "ws.reduce"(%p23) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n23 = arith.addf %s23, %q23 : tensor<1x8xf32>
        %k24 = arith.constant dense<25.0> : tensor<8x256xf32>
        %p24 = arith.mulf %t, %k24 : tensor<8x256xf32>
        %q24 = "ws.reduce"(%p24) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n24 = arith.addf %s24, %q24 : tensor<1x8xf32>
        %k25 = arith.constant dense<26.0> : tensor<8x256xf32>
        %p25 = arith.mulf %t, %k25 : tensor<8x256xf32>
        %q25 = "ws.reduce"(%p25) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n25 = arith.addf %s25, %q25 : tensor<1x8xf32>
        %k26 = arith.constant dense<27.0> : tensor<8x256xf32>
        %p26 = arith.mulf %t, %k26 : tensor<8x256xf32>
        %q26 = "ws.reduce"(%p26) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n26 = arith.addf %s26, %q26 : tensor<1x8xf32>
        %k27 = arith.constant dense<28.0> : tensor<8x256xf32>
        %p27 = arith.mulf %t, %k27 : tensor<8x256xf32>
        %q27 = "ws.reduce"(%p27) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n27 = arith.addf %s27, %q27 : tensor<1x8xf32>
        %k28 = arith.constant dense<29.0> : tensor<8x256xf32>
        %p28 = arith.mulf %t, %k28 : tensor<8x256xf32>
        %q28 = "ws.reduce"(%p28) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n28 = arith.addf %s28, %q28 : tensor<1x8xf32>
        %k29 = arith.constant dense<30.0> : tensor<8x256xf32>
        %p29 = arith.mulf %t, %k29 : tensor<8x256xf32>
        %q29 = "ws.reduce"(%p29) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n29 = arith.addf %s29, %q29 : tensor<1x8xf32>
        %k30 = arith.constant dense<31.0> : tensor<8x256xf32>
        %p30 = arith.mulf %t, %k30 : tensor<8x256xf32>
        %q30 = "ws.reduce"(%p30) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n30 = arith.addf %s30, %q30 : tensor<1x8xf32>
        %k31 = arith.constant dense<32.0> : tensor<8x256xf32>
        %p31 = arith.mulf %t, %k31 : tensor<8x256xf32>
        %q31 = "ws.reduce"(%p31) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n31 = arith.addf %s31, %q31 : tensor<1x8xf32>
        %k32 = arith.constant dense<33.0> : tensor<8x256xf32>
        %p32 = arith.mulf %t, %k32 : tensor<8x256xf32>
        %q32 = "ws.reduce"(%p32) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n32 = arith.addf %s32, %q32 : tensor<1x8xf32>
        %k33 = arith.constant dense<34.0> : tensor<8x256xf32>
        %p33 = arith.mulf %t, %k33 : tensor<8x256xf32>
        %q33 = "ws.reduce"(%p33) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n33 = arith.addf %s33, %q33 : tensor<1x8xf32>
        %k34 = arith.constant dense<35.0> : tensor<8x256xf32>
        %p34 = arith.mulf %t, %k34 : tensor<8x256xf32>
        %q34 = "ws.reduce"(%p34) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n34 = arith.addf %s34, %q34 : tensor<1x8xf32>
        %k35 = arith.constant dense<36.0> : tensor<8x256xf32>
        %p35 = arith.mulf %t, %k35 : tensor<8x256xf32>
        %q35 = "ws.reduce"(%p35) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n35 = arith.addf %s35, %q35 : tensor<1x8xf32>
        %k36 = arith.constant dense<37.0> : tensor<8x256xf32>
        %p36 = arith.mulf %t, %k36 : tensor<8x256xf32>
        %q36 = "ws.reduce"(%p36) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n36 = arith.addf %s36, %q36 : tensor<1x8xf32>
        %k37 = arith.constant dense<38.0> : tensor<8x256xf32>
        %p37 = arith.mulf %t, %k37 : tensor<8x256xf32>
        %q37 = "ws.reduce"(%p37) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n37 = arith.addf %s37, %q37 : tensor<1x8xf32>
        %k38 = arith.constant dense<39.0> : tensor<8x256xf32>
        %p38 = arith.mulf %t, %k38 : tensor<8x256xf32>
        %q38 = "ws.reduce"(%p38) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n38 = arith.addf %s38, %q38 : tensor<1x8xf32>
        %k39 = arith.constant dense<40.0> : tensor<8x256xf32>
        %p39 = arith.mulf %t, %k39 : tensor<8x256xf32>
        %q39 = "ws.reduce"(%p39) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n39 = arith.addf %s39, %q39 : tensor<1x8xf32>
        %k40 = arith.constant dense<41.0> : tensor<8x256xf32>
        %p40 = arith.mulf %t, %k40 : tensor<8x256xf32>
        %q40 = "ws.reduce"(%p40) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n40 = arith.addf %s40, %q40 : tensor<1x8xf32>
        %k41 = arith.constant dense<42.0> : tensor<8x256xf32>
        %p41 = arith.mulf %t, %k41 : tensor<8x256xf32>
        %q41 = "ws.reduce"(%p41) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n41 = arith.addf %s41, %q41 : tensor<1x8xf32>
        %k42 = arith.constant dense<43.0> : tensor<8x256xf32>
        %p42 = arith.mulf %t, %k42 : tensor<8x256xf32>
        %q42 = "ws.reduce"(%p42) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n42 = arith.addf %s42, %q42 : tensor<1x8xf32>
        %k43 = arith.constant dense<44.0> : tensor<8x256xf32>
        %p43 = arith.mulf %t, %k43 : tensor<8x256xf32>
        %q43 = "ws.reduce"(%p43) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n43 = arith.addf %s43, %q43 : tensor<1x8xf32>
        %k44 = arith.constant dense<45.0> : tensor<8x256xf32>
        %p44 = arith.mulf %t, %k44 : tensor<8x256xf32>
        %q44 = "ws.reduce"(%p44) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n44 = arith.addf %s44, %q44 : tensor<1x8xf32>
        %k45 = arith.constant dense<46.0> : tensor<8x256xf32>
        %p45 = arith.mulf %t, %k45 : tensor<8x256xf32>
        %q45 = "ws.reduce"(%p45) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n45 = arith.addf %s45, %q45 : tensor<1x8xf32>
        %k46 = arith.constant dense<47.0> : tensor<8x256xf32>
        %p46 = arith.mulf %t, %k46 : tensor<8x256xf32>
        %q46 = "ws.reduce"(%p46) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n46 = arith.addf %s46, %q46 : tensor<1x8xf32>
        %k47 = arith.constant dense<48.0> : tensor<8x256xf32>
        %p47 = arith.mulf %t, %k47 : tensor<8x256xf32>
        %q47 = "ws.reduce"(%p47) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n47 = arith.addf %s47, %q47 : tensor<1x8xf32>
        %k48 = arith.constant dense<49.0> : tensor<8x256xf32>
        %p48 = arith.mulf %t, %k48 : tensor<8x256xf32>
        %q48 = "ws.reduce"(%p48) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n48 = arith.addf %s48, %q48 : tensor<1x8xf32>
        %k49 = arith.constant dense<50.0> : tensor<8x256xf32>
        %p49 = arith.mulf %t, %k49 : tensor<8x256xf32>
        %q49 = "ws.reduce"(%p49) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n49 = arith.addf %s49, %q49 : tensor<1x8xf32>
        %k50 = arith.constant dense<51.0> : tensor<8x256xf32>
        %p50 = arith.mulf %t, %k50 : tensor<8x256xf32>
        %q50 = "ws.reduce"(%p50) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n50 = arith.addf %s50, %q50 : tensor<1x8xf32>
        %k51 = arith.constant dense<52.0> : tensor<8x256xf32>
        %p51 = arith.mulf %t, %k51 : tensor<8x256xf32>
        %q51 = "ws.reduce"(%p51) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n51 = arith.addf %s51, %q51 : tensor<1x8xf32>
        %k52 = arith.constant dense<53.0> : tensor<8x256xf32>
        %p52 = arith.mulf %t, %k52 : tensor<8x256xf32>
        %q52 = "ws.reduce"(%p52) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n52 = arith.addf %s52, %q52 : tensor<1x8xf32>
        %k53 = arith.constant dense<54.0> : tensor<8x256xf32>
        %p53 = arith.mulf %t, %k53 : tensor<8x256xf32>
        %q53 = "ws.reduce"(%p53) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n53 = arith.addf %s53, %q53 : tensor<1x8xf32>
        %k54 = arith.constant dense<55.0> : tensor<8x256xf32>
        %p54 = arith.mulf %t, %k54 : tensor<8x256xf32>
        %q54 = "ws.reduce"(%p54) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n54 = arith.addf %s54, %q54 : tensor<1x8xf32>
        %k55 = arith.constant dense<56.0> : tensor<8x256xf32>
        %p55 = arith.mulf %t, %k55 : tensor<8x256xf32>
        %q55 = "ws.reduce"(%p55) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n55 = arith.addf %s55, %q55 : tensor<1x8xf32>
        %k56 = arith.constant dense<57.0> : tensor<8x256xf32>
        %p56 = arith.mulf %t, %k56 : tensor<8x256xf32>
        %q56 = "ws.reduce"(%p56) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n56 = arith.addf %s56, %q56 : tensor<1x8xf32>
        %k57 = arith.constant dense<58.0> : tensor<8x256xf32>
        %p57 = arith.mulf %t, %k57 : tensor<8x256xf32>
        %q57 = "ws.reduce"(%p57) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n57 = arith.addf %s57, %q57 : tensor<1x8xf32>
        %k58 = arith.constant dense<59.0> : tensor<8x256xf32>
        %p58 = arith.mulf %t, %k58 : tensor<8x256xf32>
        %q58 = "ws.reduce"(%p58) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n58 = arith.addf %s58, %q58 : tensor<1x8xf32>
        %k59 = arith.constant dense<60.0> : tensor<8x256xf32>
        %p59 = arith.mulf %t, %k59 : tensor<8x256xf32>
        %q59 = "ws.reduce"(%p59) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n59 = arith.addf %s59, %q59 : tensor<1x8xf32>
        %k60 = arith.constant dense<61.0> : tensor<8x256xf32>
        %p60 = arith.mulf %t, %k60 : tensor<8x256xf32>
        %q60 = "ws.reduce"(%p60) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n60 = arith.addf %s60, %q60 : tensor<1x8xf32>
        %k61 = arith.constant dense<62.0> : tensor<8x256xf32>
        %p61 = arith.mulf %t, %k61 : tensor<8x256xf32>
        %q61 = "ws.reduce"(%p61) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n61 = arith.addf %s61, %q61 : tensor<1x8xf32>
        %k62 = arith.constant dense<63.0> : tensor<8x256xf32>
        %p62 = arith.mulf %t, %k62 : tensor<8x256xf32>
        %q62 = "ws.reduce"(%p62) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n62 = arith.addf %s62, %q62 : tensor<1x8xf32>
        %k63 = arith.constant dense<64.0> : tensor<8x256xf32>
        %p63 = arith.mulf %t, %k63 : tensor<8x256xf32>
        %q63 = "ws.reduce"(%p63) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n63 = arith.addf %s63, %q63 : tensor<1x8xf32>
        %k64 = arith.constant dense<65.0> : tensor<8x256xf32>
        %p64 = arith.mulf %t, %k64 : tensor<8x256xf32>
        %q64 = "ws.reduce"(%p64) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n64 = arith.addf %s64, %q64 : tensor<1x8xf32>
        %k65 = arith.constant dense<66.0> : tensor<8x256xf32>
        %p65 = arith.mulf %t, %k65 : tensor<8x256xf32>
        %q65 = "ws.reduce"(%p65) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n65 = arith.addf %s65, %q65 : tensor<1x8xf32>
        %k66 = arith.constant dense<67.0> : tensor<8x256xf32>
        %p66 = arith.mulf %t, %k66 : tensor<8x256xf32>
        %q66 = "ws.reduce"(%p66) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n66 = arith.addf %s66, %q66 : tensor<1x8xf32>
        %k67 = arith.constant dense<68.0> : tensor<8x256xf32>
        %p67 = arith.mulf %t, %k67 : tensor<8x256xf32>
        %q67 = "ws.reduce"(%p67) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n67 = arith.addf %s67, %q67 : tensor<1x8xf32>
        %k68 = arith.constant dense<69.0> : tensor<8x256xf32>
        %p68 = arith.mulf %t, %k68 : tensor<8x256xf32>
        %q68 = "ws.reduce"(%p68) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n68 = arith.addf %s68, %q68 : tensor<1x8xf32>
        %k69 = arith.constant dense<70.0> : tensor<8x256xf32>
        %p69 = arith.mulf %t, %k69 : tensor<8x256xf32>
        %q69 = "ws.reduce"(%p69) {kind = "sum", axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<1x8xf32>
        %n69 = arith.addf %s69, %q69 : tensor<1x8xf32>
        scf.yield %n0, %n1, %n2, %n3, %n4, %n5, %n6, %n7, %n8, %n9, %n10, %n11, %n12, %n13, %n14, %n15, %n16, %n17, %n18, %n19, %n20, %n21, %n22, %n23, %n24, %n25, %n26, %n27, %n28, %n29, %n30, %n31, %n32, %n33, %n34, %n35, %n36, %n37, %n38, %n39, %n40, %n41, %n42, %n43, %n44, %n45, %n46, %n47, %n48, %n49, %n50, %n51, %n52, %n53, %n54, %n55, %n56, %n57, %n58, %n59, %n60, %n61, %n62, %n63, %n64, %n65, %n66, %n67, %n68, %n69 : tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>
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
      "ws.store"(%out, %c0, %r0, %res#20) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#21) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#22) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#23) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#24) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#25) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#26) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#27) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#28) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#29) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#30) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#31) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#32) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#33) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#34) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#35) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#36) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#37) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#38) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#39) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#40) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#41) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#42) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#43) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#44) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#45) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#46) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#47) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#48) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#49) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#50) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#51) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#52) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#53) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#54) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#55) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#56) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#57) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#58) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#59) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#60) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#61) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#62) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#63) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#64) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#65) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#66) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#67) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#68) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      "ws.store"(%out, %c0, %r0, %res#69) : (!ws.tensor_desc<tensor<1x8xf32>>, i32, i32, tensor<1x8xf32>) -> ()
      gpu.return
    }
  }
}
