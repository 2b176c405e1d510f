// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects a descriptor of f64, which TMA tiles here do not take.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    // CHECK: verify-descriptor-element-type.mlir:[[@LINE+1]]:17: error: descriptor !ws.tensor_desc<tensor<32x64xf64>>: element type f64 is not supported; expected one of f16, bf16, f32, f8E4M3FN, f8E5M2, i8, i32
    gpu.func @f(%d: !ws.tensor_desc<tensor<32x64xf64>>) kernel {
      gpu.return
    }
  }
}
