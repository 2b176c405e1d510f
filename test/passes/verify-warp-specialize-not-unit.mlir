// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects ws.warp_specialize with a value.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      // CHECK: verify-warp-specialize-not-unit.mlir:[[@LINE+1]]:7: error: 'scf.for' op ws.warp_specialize must be a unit attribute
      scf.for %iv = %c0 to %n step %c1 : i32 {
      } {ws.warp_specialize = 1 : i32}
      gpu.return
    }
  }
}
