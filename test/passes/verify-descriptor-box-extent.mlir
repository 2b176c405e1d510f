// RUN: not ws-opt --split-input-file --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws-verify rejects a box dimension above TMA's 256.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    // CHECK: verify-descriptor-box-extent.mlir:[[@LINE+1]]:17: error: descriptor !ws.tensor_desc<tensor<512x64xf16>>: box dimension 0 is 512; TMA boxes take 1 to 256 elements per dimension
    gpu.func @f(%d: !ws.tensor_desc<tensor<512x64xf16>>) kernel {
      gpu.return
    }
  }
}

// -----
// An innermost box dimension wider than 256 is moved as boxes side by side
// when a divisor of it of at most 256 spans a multiple of 16 bytes: 4096
// bf16 as 16 boxes of 256 is taken, 257 f32 (prime) is not.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @wide(%d: !ws.tensor_desc<tensor<2x4096xbf16>>) kernel {
      gpu.return
    }
    // CHECK: verify-descriptor-box-extent.mlir:[[@LINE+1]]:19: error: descriptor !ws.tensor_desc<tensor<1x257xf32>>: box dimension 1 is 257; TMA boxes take 1 to 256 elements per dimension (a wider innermost one is moved as several boxes side by side when a divisor of it of at most 256 spans a multiple of 16 bytes)
    gpu.func @odd(%d: !ws.tensor_desc<tensor<1x257xf32>>) kernel {
      gpu.return
    }
  }
}
