// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects a descriptor argument on a func.func.
module {
  // CHECK: verify-descriptor-outside-gpu-func.mlir:[[@LINE+1]]:3: error: 'func.func' op takes a !ws.tensor_desc argument; descriptors are only allowed on gpu.func kernels
  func.func @host(%d: !ws.tensor_desc<tensor<32x64xf32>>) {
    return
  }
}
