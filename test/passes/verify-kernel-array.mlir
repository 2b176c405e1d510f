// RUN: not ws-opt --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// A kernel takes arrays as rank-1 memrefs of i32 or f32 with the identity
// layout and only reads them (memref.load, memref.dim): ws-verify names
// any other memref argument, any other use of an array, and any other
// memref op in a ws kernel (ws lowers none).
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    // CHECK: verify-kernel-array.mlir:[[@LINE+3]]:17: error: kernel argument 0 of type memref<?x4xi32>: a kernel takes an array as a rank-1 memref of i32 or f32 with the identity layout (memref<?xi32>, memref<?xf32>) and reads it with memref.load; tiles come through !ws.tensor_desc
    // CHECK: verify-kernel-array.mlir:[[@LINE+2]]:38: error: kernel argument 1 of type memref<?xf16>
    // CHECK: verify-kernel-array.mlir:[[@LINE+1]]:57: error: kernel argument 2 of type memref<8xi32, strided<[2]>>
    gpu.func @f(%a: memref<?x4xi32>, %b: memref<?xf16>, %c: memref<8xi32, strided<[2]>>) kernel {
      gpu.return
    }
    gpu.func @g(%cu: memref<?xi32>, %n: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %cu[%c0] : memref<?xi32>
      %d = memref.dim %n, %c0 : memref<?xf32>
      // CHECK: verify-kernel-array.mlir:[[@LINE+1]]:7: error: 'memref.store' op uses kernel argument 0, an array: a kernel reads its arrays with memref.load and memref.dim only; results leave through ws.store to a !ws.tensor_desc
      memref.store %v, %cu[%c0] : memref<?xi32>
      gpu.return
    }
    gpu.func @h(%a: !ws.tensor_desc<tensor<32x64xf32>>) kernel {
      %c0 = arith.constant 0 : index
      // CHECK: verify-kernel-array.mlir:[[@LINE+1]]:14: error: 'memref.alloca' op in a ws kernel: memory is read through !ws.tensor_desc tiles and kernel arrays (memref<?xi32> or memref<?xf32> arguments, read with memref.load and memref.dim); ws lowers no other memref
      %buf = memref.alloca() : memref<4xf32>
      // CHECK: verify-kernel-array.mlir:[[@LINE+1]]:12: error: 'memref.load' op in a ws kernel
      %x = memref.load %buf[%c0] : memref<4xf32>
      gpu.return
    }
  }
}
