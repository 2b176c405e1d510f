// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws.stage (which ws-partition-schedule writes on every op of the marked
// loop) in a saved schedule: 0 or 1, the stages ws-specialize builds.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      scf.for %iv = %c0 to %n step %c1 : i32 {
        // CHECK: verify-stage.mlir:[[@LINE+1]]:16: error: 'arith.addi' op has ws.stage = 2; ws-specialize builds loops of stages 0 and 1 (an op that runs in its own step, or one step behind)
        %two = arith.addi %iv, %c1 {ws.stage = 2 : i32} : i32
        // CHECK: verify-stage.mlir:[[@LINE+1]]:18: error: 'arith.addi' op attribute ws.stage has the wrong kind (it is written by the ws passes; see passes/plan/ws_plan.h)
        %three = arith.addi %iv, %c1 {ws.stage = "late"} : i32
        %zero = arith.addi %iv, %c1 {ws.stage = 0 : i32} : i32
      }
      gpu.return
    }
  }
}
