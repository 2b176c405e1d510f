// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects ws.warp_specialize on an op that is not scf.for.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%n: i32) kernel {
      // CHECK: verify-warp-specialize-not-for.mlir:[[@LINE+1]]:12: error: 'arith.addi' op carries ws.warp_specialize; only an scf.for loop can be warp-specialized
      %x = arith.addi %n, %n {ws.warp_specialize} : i32
      gpu.return
    }
  }
}
