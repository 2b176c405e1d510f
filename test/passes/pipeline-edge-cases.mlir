// RUN: not ws-opt --split-input-file --ws-pipeline=format=isa %s 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=Sanitizer
// Kernels that verify but are unusual: each gets a located error or a
// remark, never a crash (index -1 into the rings was one, found by UBSan).
// dead_load
// CHECK: pipeline-edge-cases.mlir:{{[0-9]+}}:14: remark: the loaded tile is not used by another partition; the load is dropped
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: !ws.tensor_desc<tensor<32x64xf32>>, %c: !ws.tensor_desc<tensor<32x64xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %cst = arith.constant dense<1.0> : tensor<32x64xf32>
      scf.for %y = %c0 to %n step %c64 : i32 {
        %t = "ws.load"(%a, %c0, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %u = "ws.load"(%c, %c0, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        "ws.store"(%c, %c0, %y, %t) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
// -----
// dead_compute
// CHECK: pipeline-edge-cases.mlir:{{[0-9]+}}:14: error: 'ws.load' op produces a tile that two other partitions use; each tile may cross to one partition
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: !ws.tensor_desc<tensor<32x64xf32>>, %c: !ws.tensor_desc<tensor<32x64xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %cst = arith.constant dense<1.0> : tensor<32x64xf32>
      scf.for %y = %c0 to %n step %c64 : i32 {
        %t = "ws.load"(%a, %c0, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %d = arith.addf %t, %t : tensor<32x64xf32>
        "ws.store"(%c, %c0, %y, %t) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
// -----
// store_const
// CHECK: pipeline-edge-cases.mlir:{{[0-9]+}}:9: error: 'ws.store' op stores a tile defined outside the warp-specialized loop; load or compute it inside the loop
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: !ws.tensor_desc<tensor<32x64xf32>>, %c: !ws.tensor_desc<tensor<32x64xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %cst = arith.constant dense<1.0> : tensor<32x64xf32>
      scf.for %y = %c0 to %n step %c64 : i32 {
        %t = "ws.load"(%a, %c0, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        "ws.store"(%c, %c0, %y, %cst) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
// -----
// load_only
// CHECK: pipeline-edge-cases.mlir:{{[0-9]+}}:14: remark: the loaded tile is not used by another partition
// CHECK: pipeline-edge-cases.mlir:{{[0-9]+}}:7: error: 'scf.for' op moves no tile between partitions (no loaded tile is used), so there is nothing to warp-specialize
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: !ws.tensor_desc<tensor<32x64xf32>>, %c: !ws.tensor_desc<tensor<32x64xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %cst = arith.constant dense<1.0> : tensor<32x64xf32>
      scf.for %y = %c0 to %n step %c64 : i32 {
        %t = "ws.load"(%a, %c0, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
// -----
// nested
// CHECK: pipeline-edge-cases.mlir:{{[0-9]+}}:7: error: 'scf.for' op must be at the top level of its kernel to be specialized
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: !ws.tensor_desc<tensor<32x64xf32>>, %c: !ws.tensor_desc<tensor<32x64xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %cst = arith.constant dense<1.0> : tensor<32x64xf32>
      scf.for %z = %c0 to %n step %c64 : i32 {
      scf.for %y = %c0 to %n step %c64 : i32 {
        %t = "ws.load"(%a, %c0, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        "ws.store"(%c, %c0, %y, %t) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      }
      gpu.return
    }
  }
}
// -----
// index_loop
// An index-typed loop compiles.
// CHECK: gpu.binary @k
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: !ws.tensor_desc<tensor<32x64xf32>>, %c: !ws.tensor_desc<tensor<32x64xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %cst = arith.constant dense<1.0> : tensor<32x64xf32>
      %i0 = arith.constant 0 : index
      %i64 = arith.constant 64 : index
      %ni = arith.index_cast %n : i32 to index
      scf.for %yi = %i0 to %ni step %i64 {
        %y = arith.index_cast %yi : index to i32
        %t = "ws.load"(%a, %c0, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %s = arith.addf %t, %cst : tensor<32x64xf32>
        "ws.store"(%c, %c0, %y, %s) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
