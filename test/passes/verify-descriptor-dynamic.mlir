// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects a box with a dynamic dimension.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    // CHECK: verify-descriptor-dynamic.mlir:[[@LINE+1]]:17: error: descriptor !ws.tensor_desc<tensor<?x64xf16>>: box dimension 0 is dynamic; expected a static box shape
    gpu.func @f(%d: !ws.tensor_desc<tensor<?x64xf16>>) kernel {
      gpu.return
    }
  }
}
