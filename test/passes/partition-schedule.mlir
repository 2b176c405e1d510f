// RUN: ws-opt --split-input-file --pass-pipeline='builtin.module(ws-partition-schedule)' %s | FileCheck %s

// The example add (integration/add.mlir): loads to the load partition, the add to compute, the store
// to the store partition; the partition table sits on the loop.
// CHECK-LABEL: gpu.func @add
// CHECK: scf.for
// CHECK-NEXT: "ws.load"{{.*}}{ws.partition = ["load"], ws.stage = 0 : i32}
// CHECK-NEXT: "ws.load"{{.*}}{ws.partition = ["load"], ws.stage = 0 : i32}
// CHECK-NEXT: arith.addf {{.*}}{ws.partition = ["compute"], ws.stage = 0 : i32}
// CHECK-NEXT: "ws.store"{{.*}}{ws.partition = ["store"], ws.stage = 0 : i32}
// CHECK-NEXT: } {ws.partitions = [{name = "load", num_warps = 1 : i32, role = "load"}, {name = "compute", num_warps = 4 : i32, role = "compute"}, {name = "store", num_warps = 1 : i32, role = "store"}], ws.warp_specialize}
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @add(%a: !ws.tensor_desc<tensor<32x64xf32>>, %b: !ws.tensor_desc<tensor<32x64xf32>>,
                  %c: !ws.tensor_desc<tensor<32x64xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      scf.for %y = %c0 to %n step %c64 : i32 {
        %ta = "ws.load"(%a, %c0, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %tb = "ws.load"(%b, %c0, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %tc = arith.addf %ta, %tb : tensor<32x64xf32>
        "ws.store"(%c, %c0, %y, %tc) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----

// Three inputs (a * b + c, scaled by a splat constant from outside the loop)
// with 8 compute warps. Index math is duplicated into exactly the partitions
// that use it: %row feeds the loads and the store, %yo only the store.
// CHECK-LABEL: gpu.func @muladd
// CHECK: scf.for
// CHECK-NEXT: arith.muli {{.*}}{ws.partition = ["load", "store"], ws.stage = 0 : i32} : i32
// CHECK-COUNT-3: "ws.load"{{.*}}{ws.partition = ["load"], ws.stage = 0 : i32}
// CHECK-NEXT: arith.mulf {{.*}}{ws.partition = ["compute"], ws.stage = 0 : i32}
// CHECK-NEXT: arith.addf {{.*}}{ws.partition = ["compute"], ws.stage = 0 : i32}
// CHECK-NEXT: arith.mulf {{.*}}{ws.partition = ["compute"], ws.stage = 0 : i32}
// CHECK-NEXT: arith.addi {{.*}}{ws.partition = ["store"], ws.stage = 0 : i32} : i32
// CHECK-NEXT: "ws.store"{{.*}}{ws.partition = ["store"], ws.stage = 0 : i32}
// CHECK-NEXT: } {ws.partitions = [{{.*}}{name = "compute", num_warps = 8 : i32, role = "compute"}
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @muladd(%a: !ws.tensor_desc<tensor<32x64xf32>>, %b: !ws.tensor_desc<tensor<32x64xf32>>,
                     %c: !ws.tensor_desc<tensor<32x64xf32>>, %o: !ws.tensor_desc<tensor<32x64xf32>>,
                     %n: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %two = arith.constant dense<2.0> : tensor<32x64xf32>
      scf.for %y = %c0 to %n step %c64 : i32 {
        %row = arith.muli %y, %c0 : i32
        %ta = "ws.load"(%a, %row, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %tb = "ws.load"(%b, %row, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %tc = "ws.load"(%c, %row, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %m = arith.mulf %ta, %tb : tensor<32x64xf32>
        %s = arith.addf %m, %tc : tensor<32x64xf32>
        %r = arith.mulf %s, %two : tensor<32x64xf32>
        %yo = arith.addi %y, %c0 : i32
        "ws.store"(%o, %row, %yo, %r) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----

// A copy has no compute: two partitions.
// CHECK-LABEL: gpu.func @copy
// CHECK: {ws.partitions = [{name = "load", num_warps = 1 : i32, role = "load"}, {name = "store", num_warps = 1 : i32, role = "store"}], ws.warp_specialize}
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @copy(%a: !ws.tensor_desc<tensor<16x256xbf16>>, %c: !ws.tensor_desc<tensor<16x256xbf16>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c256 = arith.constant 256 : i32
      scf.for %y = %c0 to %n step %c256 : i32 {
        %t = "ws.load"(%a, %c0, %y) : (!ws.tensor_desc<tensor<16x256xbf16>>, i32, i32) -> tensor<16x256xbf16>
        "ws.store"(%c, %c0, %y, %t) : (!ws.tensor_desc<tensor<16x256xbf16>>, i32, i32, tensor<16x256xbf16>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
