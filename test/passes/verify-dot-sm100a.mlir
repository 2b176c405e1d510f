// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// A ws.dot in an sm_100a module is refused by ws-verify, in ws's words (no
// wgmma there, no tcgen05 path yet), before any pass emits an NVVM op the
// chip does not have.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @f(%a: tensor<64x32xf16>, %b: tensor<32x128xf16>, %acc: tensor<64x128xf32>) kernel {
      // CHECK: verify-dot-sm100a.mlir:[[@LINE+1]]:12: error: 'ws.dot' op is a matmul on sm_100a, which ws cannot lower yet: ws.dot becomes wgmma, which sm_100a does not have, and the tcgen05 path (a TMEM accumulator, one MMA warp) is not built
      %d = "ws.dot"(%a, %b, %acc) : (tensor<64x32xf16>, tensor<32x128xf16>, tensor<64x128xf32>) -> tensor<64x128xf32>
      gpu.return
    }
  }
}
