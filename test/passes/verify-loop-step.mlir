// RUN: not ws-opt --split-input-file --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects a warp-specialized loop, or a loop inside one, whose
// constant step is 0 or negative: its kernel would never end.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @zero(%n: i32) kernel {
      %c0 = arith.constant 0 : i32
      // CHECK: verify-loop-step.mlir:[[@LINE+1]]:7: error: 'scf.for' op has a step of 0; a loop that is, or is inside, a warp-specialized loop needs a positive step (this one would never end)
      scf.for %iv = %c0 to %n step %c0 : i32 {
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @negative_inner(%n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %cm2 = arith.constant -2 : i64
      %c0l = arith.constant 0 : i64
      %nl = arith.constant 8 : i64
      scf.for %iv = %c0 to %n step %c1 : i32 {
        // CHECK: verify-loop-step.mlir:[[@LINE+1]]:9: error: 'scf.for' op has a step of -2; a loop that is, or is inside, a warp-specialized loop needs a positive step (this one would never end)
        scf.for %j = %c0l to %nl step %cm2 : i64 {
        }
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----

// A positive step, constant or not, passes.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @positive(%n: i32, %s: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      scf.for %iv = %c0 to %n step %s : i32 {
        scf.for %j = %c0 to %n step %c1 : i32 {
        }
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
