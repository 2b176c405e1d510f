// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects ws.num_stages on a loop that is not marked.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      // CHECK: verify-num-stages-unmarked.mlir:[[@LINE+1]]:7: error: 'scf.for' op carries ws.num_stages; it belongs on the scf.for marked ws.warp_specialize
      scf.for %iv = %c0 to %n step %c1 : i32 {
      } {ws.num_stages = 2 : i32}
      gpu.return
    }
  }
}
