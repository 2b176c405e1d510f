// ws.store with reduce = "add" adds its tile into the tensor: the store
// warp issues TMA's reduce-add (cp.reduce.async.bulk.tensor .add) in its
// bulk group, and a tile on a ragged edge adds element by element with
// atomic adds; the protocol is a store's. f32 and bf16.
// RUN: ws-opt %ws_src/integration/reduce/reduce_add_f32.mlir --emit=ptx -o - | FileCheck %s --check-prefix=F32
// RUN: ws-opt %ws_src/integration/reduce/reduce_add_bf16.mlir --emit=ptx -o - | FileCheck %s --check-prefix=BF16
// RUN: ws-opt %ws_src/integration/reduce/reduce_add_f32.mlir --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule,ws-plan-memory,ws-insert-barriers,ws-specialize)' | FileCheck %s --check-prefix=SPEC
// RUN: not ws-opt --split-input-file --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:

// F32: atom.global.add.f32
// F32: cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group
// F32-NOT: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
// BF16: atom.global.add.noftz.bf16
// BF16: cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group
// SPEC: "ws.tma_store"({{.*}}) {reduce = "add", ring = 1 : i32}
// RUN: ws-opt %ws_src/integration/reduce/reduce_add_f32.mlir --ws-explain -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// EXPLAIN: remark: partition store: a TMA reduce-add from a shared-memory slot (reduce = "add": each element added into the tensor atomically; a tile reaching a partial 16-byte granule at the tensor's edge adds element by element with atomic adds), issued by one lane of the store warp

// Only add, and only of floats TMA adds.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: !ws.tensor_desc<tensor<32x64xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      scf.for %y = %c0 to %n step %c64 : i32 {
        %t = "ws.load"(%a, %c0, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %e = math.exp %t : tensor<32x64xf32>
        // CHECK: lower-to-nvvm-reduce-add.mlir:[[@LINE+1]]:9: error: 'ws.store' op carries reduce = "max" on a store of f32; the one reduction is reduce = "add", which adds an f32, f16 or bf16 tile into the tensor (TMA's reduce-add)
        "ws.store"(%a, %c0, %y, %e) {reduce = "max"} : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: !ws.tensor_desc<tensor<32x64xi32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      scf.for %y = %c0 to %n step %c64 : i32 {
        %t = "ws.load"(%a, %c0, %y) : (!ws.tensor_desc<tensor<32x64xi32>>, i32, i32) -> tensor<32x64xi32>
        %e = arith.addi %t, %t : tensor<32x64xi32>
        // CHECK: lower-to-nvvm-reduce-add.mlir:[[@LINE+1]]:9: error: 'ws.store' op carries reduce = "add" on a store of i32; the one reduction is reduce = "add", which adds an f32, f16 or bf16 tile into the tensor (TMA's reduce-add)
        "ws.store"(%a, %c0, %y, %e) {reduce = "add"} : (!ws.tensor_desc<tensor<32x64xi32>>, i32, i32, tensor<32x64xi32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
