// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify accepts a load's L2 policy evict_normal, evict_first or
// evict_last, and rejects any other value, or one that is not a string,
// at the load.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @policies(%a: !ws.tensor_desc<tensor<128x64xf16>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      scf.for %k = %c0 to %n step %c64 : i32 {
        %t0 = "ws.load"(%a, %c0, %k) {l2 = "evict_normal"} : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %t1 = "ws.load"(%a, %c0, %k) {l2 = "evict_first"} : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %t2 = "ws.load"(%a, %c0, %k) {l2 = "evict_last"} : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        // CHECK: verify-load-l2.mlir:[[@LINE+1]]:15: error: 'ws.load' op needs l2 = "evict_normal", "evict_first" or "evict_last" (the L2 policy of its copies), got "evict_often"
        %t3 = "ws.load"(%a, %c0, %k) {l2 = "evict_often"} : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        // CHECK: verify-load-l2.mlir:[[@LINE+1]]:15: error: 'ws.load' op needs l2 = "evict_normal", "evict_first" or "evict_last" (the L2 policy of its copies), got 1 : i32
        %t4 = "ws.load"(%a, %c0, %k) {l2 = 1 : i32} : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
