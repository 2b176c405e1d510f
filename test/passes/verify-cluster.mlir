// RUN: not ws-opt --split-input-file --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// ws.cluster = array<i32: X, Y> asks for clusters of X x Y blocks: on a
// gpu.func kernel only, two positive extents, along one dimension, at
// most the chip's max_cluster CTAs (2 on sm_90a and sm_100a).

module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    // CHECK: verify-cluster.mlir:[[@LINE+1]]:5: error: 'gpu.func' op ws.cluster = array<i32: 2, 2>; expected array<i32: X, Y>, the blocks of one cluster along x and y, with X x Y at most 2 on sm_90a (2 x 1 or 1 x 2)
    gpu.func @square() kernel attributes {ws.cluster = array<i32: 2, 2>} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    // CHECK: verify-cluster.mlir:[[@LINE+1]]:5: error: 'gpu.func' op ws.cluster = array<i32: 4, 1>; expected array<i32: X, Y>, the blocks of one cluster along x and y, with X x Y at most 2 on sm_90a (2 x 1 or 1 x 2)
    gpu.func @four() kernel attributes {ws.cluster = array<i32: 4, 1>} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    // CHECK: verify-cluster.mlir:[[@LINE+1]]:5: error: 'gpu.func' op ws.cluster = 2 : i32; expected array<i32: X, Y>, the blocks of one cluster along x and y, with X x Y at most 2 on sm_90a (2 x 1 or 1 x 2)
    gpu.func @scalar() kernel attributes {ws.cluster = 2 : i32} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    // CHECK: verify-cluster.mlir:[[@LINE+1]]:5: error: 'gpu.func' op ws.cluster = array<i32: 4, 1>; expected array<i32: X, Y>, the blocks of one cluster along x and y, with X x Y at most 2 on sm_100a (2 x 1 or 1 x 2)
    gpu.func @blackwell() kernel attributes {ws.cluster = array<i32: 4, 1>} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @on_loop(%n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      // CHECK: verify-cluster.mlir:[[@LINE+1]]:7: error: 'scf.for' op carries ws.cluster; it belongs on a gpu.func kernel
      scf.for %i = %c0 to %n step %c1 : i32 {
      } {ws.cluster = array<i32: 2, 1>}
      gpu.return
    }
  }
}
