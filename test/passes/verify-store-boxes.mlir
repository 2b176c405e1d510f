// RUN: not ws-opt --split-input-file --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify takes ws.store_boxes = true or false on the loop marked
// ws.warp_specialize, and nothing else: not an integer, not on a loop
// that is not marked.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      // CHECK: verify-store-boxes.mlir:[[@LINE+1]]:7: error: 'scf.for' op ws.store_boxes = 1 : i32; expected true or false
      scf.for %iv = %c0 to %n step %c1 : i32 {
      } {ws.warp_specialize, ws.store_boxes = 1 : i32}
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      // CHECK: verify-store-boxes.mlir:[[@LINE+1]]:7: error: 'scf.for' op carries ws.store_boxes; it belongs on the scf.for marked ws.warp_specialize
      scf.for %iv = %c0 to %n step %c1 : i32 {
      } {ws.store_boxes = true}
      gpu.return
    }
  }
}
