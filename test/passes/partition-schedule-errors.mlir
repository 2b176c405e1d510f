// RUN: not ws-opt --split-input-file --pass-pipeline='builtin.module(ws-partition-schedule)' %s 2>&1 | FileCheck %s --implicit-check-not=error:

// An op the scheduler has no partition for is an error at that op.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: !ws.tensor_desc<tensor<32x64xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %i0 = arith.constant 0 : index
      scf.for %y = %c0 to %n step %c64 : i32 {
        %t = "ws.load"(%a, %c0, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        // CHECK: partition-schedule-errors.mlir:[[@LINE+1]]:14: error: 'tensor.extract_slice' op cannot be placed in a partition of a ws.warp_specialize loop; supported inside it: ws.load, ws.store, ws.dot, elementwise arith/math on tiles, ws.reduce, ws.broadcast, ws.iota, tensor.splat of a scalar, tensor.extract of a loaded tile (matmul loops), scalar arith
        %e = tensor.extract_slice %t[0, 0] [16, 64] [1, 1] : tensor<32x64xf32> to tensor<16x64xf32>
        "ws.store"(%a, %c0, %y, %t) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----

// A tile computed outside the loop (neither a splat nor a load before it,
// which the load warp fetches once) cannot be rebuilt in the compute
// partition.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: !ws.tensor_desc<tensor<32x64xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %loaded = "ws.load"(%a, %c0, %c0) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
      %first = arith.negf %loaded : tensor<32x64xf32>
      scf.for %y = %c0 to %n step %c64 : i32 {
        %t = "ws.load"(%a, %c0, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        // CHECK: partition-schedule-errors.mlir:[[@LINE+1]]:14: error: 'arith.addf' op uses a tile defined outside the warp-specialized loop that is not a splat; only splat constants and tensor.splat of a scalar can be rebuilt in each partition
        %s = arith.addf %t, %first : tensor<32x64xf32>
        "ws.store"(%a, %c0, %y, %s) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----

// Two marked loops in one kernel.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: !ws.tensor_desc<tensor<32x64xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      scf.for %y = %c0 to %n step %c64 : i32 {
        %t = "ws.load"(%a, %c0, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        "ws.store"(%a, %c0, %y, %t) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      // CHECK: partition-schedule-errors.mlir:[[@LINE+1]]:7: error: 'scf.for' op is a second ws.warp_specialize loop in one kernel; mark one loop per kernel
      scf.for %y = %c0 to %n step %c64 : i32 {
        %t = "ws.load"(%a, %c0, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        "ws.store"(%a, %c0, %y, %t) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----

// A load before an elementwise loop is fetched once per block for the
// loop's math; one the code after the loop uses has no partition to go to.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: !ws.tensor_desc<tensor<32x64xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      // CHECK: partition-schedule-errors.mlir:[[@LINE+1]]:16: error: 'ws.load' op loads a tile before the warp-specialized loop that is used outside it; a load before an elementwise loop is fetched once per block for the loop's math to read
      %first = "ws.load"(%a, %c0, %c0) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
      scf.for %y = %c0 to %n step %c64 : i32 {
        %t = "ws.load"(%a, %c0, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %s = arith.addf %t, %first : tensor<32x64xf32>
        "ws.store"(%a, %c0, %y, %s) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      "ws.store"(%a, %c0, %c0, %first) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      gpu.return
    }
  }
}

// -----

// An elementwise loop carries only 1 x R row vectors of its reductions'
// rows (a running max or sum over a row's chunks): not a 1 x 8 tile of a
// 4-row kernel.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: !ws.tensor_desc<tensor<4x128xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c128 = arith.constant 128 : i32
      %z = arith.constant dense<0.0> : tensor<1x8xf32>
      // CHECK: partition-schedule-errors.mlir:[[@LINE+1]]:12: error: 'scf.for' op carries value #0 of type tensor<1x8xf32>; an elementwise loop carries 1 x 4 row vectors of its tiles' rows (a running max or sum over a row's chunks)
      %r = scf.for %c = %c0 to %n step %c128 iter_args(%s = %z) -> (tensor<1x8xf32>) : i32 {
        %t = "ws.load"(%a, %c0, %c) : (!ws.tensor_desc<tensor<4x128xf32>>, i32, i32) -> tensor<4x128xf32>
        %m = "ws.reduce"(%t) {kind = "max", axis = 1 : i32} : (tensor<4x128xf32>) -> tensor<1x4xf32>
        %s2 = arith.addf %s, %s : tensor<1x8xf32>
        scf.yield %s2 : tensor<1x8xf32>
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----

// Without a ws.dot or a reduction along the rows, a loop has nothing it
// could carry.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: !ws.tensor_desc<tensor<4x128xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c128 = arith.constant 128 : i32
      %z = arith.constant dense<0.0> : tensor<4x128xf32>
      // CHECK: partition-schedule-errors.mlir:[[@LINE+1]]:12: error: 'scf.for' op carries values but has neither a ws.dot nor a ws.reduce along the rows of a tile that is not square; a warp-specialized loop carries a matmul's tiles (its accumulator, running row maxima and sums) or a row kernel's 1 x R row vectors (a running max or sum over a row's chunks)
      %r = scf.for %c = %c0 to %n step %c128 iter_args(%s = %z) -> (tensor<4x128xf32>) : i32 {
        %t = "ws.load"(%a, %c0, %c) : (!ws.tensor_desc<tensor<4x128xf32>>, i32, i32) -> tensor<4x128xf32>
        %s2 = arith.addf %s, %t : tensor<4x128xf32>
        scf.yield %s2 : tensor<4x128xf32>
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----

// A carried row vector is computed in the loop, not passed through.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: !ws.tensor_desc<tensor<4x128xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c128 = arith.constant 128 : i32
      %z = arith.constant dense<0.0> : tensor<1x4xf32>
      // CHECK: partition-schedule-errors.mlir:[[@LINE+1]]:14: error: 'scf.for' op carries row vector #1 but yields the value that came in; each carried row vector must be computed in the loop
      %r:2 = scf.for %c = %c0 to %n step %c128 iter_args(%s = %z, %u = %z) -> (tensor<1x4xf32>, tensor<1x4xf32>) : i32 {
        %t = "ws.load"(%a, %c0, %c) : (!ws.tensor_desc<tensor<4x128xf32>>, i32, i32) -> tensor<4x128xf32>
        %m = "ws.reduce"(%t) {kind = "sum", axis = 1 : i32} : (tensor<4x128xf32>) -> tensor<1x4xf32>
        %s2 = arith.addf %s, %m : tensor<1x4xf32>
        scf.yield %s2, %u : tensor<1x4xf32>, tensor<1x4xf32>
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----

// After a loop over a row's chunks come math on its row vectors and their
// stores; a tile load there has no partition to run in.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: !ws.tensor_desc<tensor<4x128xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c128 = arith.constant 128 : i32
      %z = arith.constant dense<0.0> : tensor<1x4xf32>
      %r = scf.for %c = %c0 to %n step %c128 iter_args(%s = %z) -> (tensor<1x4xf32>) : i32 {
        %t = "ws.load"(%a, %c0, %c) : (!ws.tensor_desc<tensor<4x128xf32>>, i32, i32) -> tensor<4x128xf32>
        %m = "ws.reduce"(%t) {kind = "sum", axis = 1 : i32} : (tensor<4x128xf32>) -> tensor<1x4xf32>
        %s2 = arith.addf %s, %m : tensor<1x4xf32>
        scf.yield %s2 : tensor<1x4xf32>
      } {ws.warp_specialize}
      // CHECK: partition-schedule-errors.mlir:[[@LINE+1]]:13: error: 'ws.load' op cannot come after a warp-specialized elementwise loop; after a row kernel's loop over a row's chunks come math on the 1 x R row vectors it carries, ws.store of them, scalar arith and one second pass over the row's chunks (an scf.for)
      %t2 = "ws.load"(%a, %c0, %c0) : (!ws.tensor_desc<tensor<4x128xf32>>, i32, i32) -> tensor<4x128xf32>
      gpu.return
    }
  }
}

// -----

// A second pass over a row's chunks runs over the first loop's bounds.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: !ws.tensor_desc<tensor<4x128xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c128 = arith.constant 128 : i32
      %z = arith.constant dense<0.0> : tensor<1x4xf32>
      %r = scf.for %c = %c0 to %n step %c128 iter_args(%s = %z) -> (tensor<1x4xf32>) : i32 {
        %t = "ws.load"(%a, %c0, %c) : (!ws.tensor_desc<tensor<4x128xf32>>, i32, i32) -> tensor<4x128xf32>
        %m = "ws.reduce"(%t) {kind = "sum", axis = 1 : i32} : (tensor<4x128xf32>) -> tensor<1x4xf32>
        %s2 = arith.addf %s, %m : tensor<1x4xf32>
        scf.yield %s2 : tensor<1x4xf32>
      } {ws.warp_specialize}
      %c256 = arith.constant 256 : i32
      // CHECK: partition-schedule-errors.mlir:[[@LINE+1]]:7: error: 'scf.for' op is a second pass over a row's chunks with other bounds than the warp-specialized loop before it; it takes that loop's lower bound, upper bound and step (the same values)
      scf.for %c = %c0 to %n step %c256 : i32 {
        %t = "ws.load"(%a, %c0, %c) : (!ws.tensor_desc<tensor<4x128xf32>>, i32, i32) -> tensor<4x128xf32>
        %b = "ws.broadcast"(%r) {axis = 0 : i32} : (tensor<1x4xf32>) -> tensor<4x128xf32>
        %y = arith.mulf %t, %b : tensor<4x128xf32>
        "ws.store"(%a, %c0, %c, %y) : (!ws.tensor_desc<tensor<4x128xf32>>, i32, i32, tensor<4x128xf32>) -> ()
      }
      gpu.return
    }
  }
}

// -----

// The first loop reduces; the second pass reads what it found.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: !ws.tensor_desc<tensor<4x128xf32>>, %o: !ws.tensor_desc<tensor<1x4xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c128 = arith.constant 128 : i32
      %z = arith.constant dense<0.0> : tensor<1x4xf32>
      %r = scf.for %c = %c0 to %n step %c128 iter_args(%s = %z) -> (tensor<1x4xf32>) : i32 {
        %t = "ws.load"(%a, %c0, %c) : (!ws.tensor_desc<tensor<4x128xf32>>, i32, i32) -> tensor<4x128xf32>
        %m = "ws.reduce"(%t) {kind = "sum", axis = 1 : i32} : (tensor<4x128xf32>) -> tensor<1x4xf32>
        %s2 = arith.addf %s, %m : tensor<1x4xf32>
        scf.yield %s2 : tensor<1x4xf32>
      } {ws.warp_specialize}
      scf.for %c = %c0 to %n step %c128 : i32 {
        %t = "ws.load"(%a, %c0, %c) : (!ws.tensor_desc<tensor<4x128xf32>>, i32, i32) -> tensor<4x128xf32>
        // CHECK: partition-schedule-errors.mlir:[[@LINE+1]]:14: error: 'ws.reduce' op reduces in a second pass over a row's chunks; reduce in the warp-specialized loop, which carries what it finds to the second pass
        %m = "ws.reduce"(%t) {kind = "max", axis = 1 : i32} : (tensor<4x128xf32>) -> tensor<1x4xf32>
        "ws.store"(%o, %c0, %c0, %m) : (!ws.tensor_desc<tensor<1x4xf32>>, i32, i32, tensor<1x4xf32>) -> ()
      }
      gpu.return
    }
  }
}
