// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects a misspelled ws attribute.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      // CHECK: verify-unknown-attribute.mlir:[[@LINE+1]]:7: error: 'scf.for' op has unknown attribute 'ws.warp_specialise'; ws attributes in the input are ws.warp_specialize, ws.num_stages, ws.split_k, ws.store_boxes, ws.split_compute, ws.overlap, ws.pipeline, ws.num_warps, ws.cluster (and ws.divisibility on a kernel argument)
      scf.for %iv = %c0 to %n step %c1 : i32 {
      } {ws.warp_specialise}
      gpu.return
    }
  }
}
