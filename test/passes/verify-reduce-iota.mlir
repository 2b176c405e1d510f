// RUN: ws-opt --split-input-file --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not ws-opt --split-input-file --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule)' %s 2>&1 | FileCheck %s --check-prefix=SCHED --implicit-check-not=error:
// RUN: not ws-opt --split-input-file --pass-pipeline='builtin.module(ws-verify)' %S/Inputs/verify-reduce-iota-errors.mlir 2>&1 | FileCheck %S/Inputs/verify-reduce-iota-errors.mlir --implicit-check-not=error:
// ws.reduce and ws.iota: the row statistics and index tiles of an
// attention kernel's softmax and masks. They verify and print back; the
// passes do not place them in a warp-specialized loop yet, which is a
// located error.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%s: tensor<64x128xf32>) kernel {
      // a row max, spread back over the columns
      %m = "ws.reduce"(%s) {kind = "max", axis = 1 : i32} : (tensor<64x128xf32>) -> tensor<1x64xf32>
      %mb = "ws.broadcast"(%m) {axis = 0 : i32} : (tensor<1x64xf32>) -> tensor<64x128xf32>
      %d = arith.subf %s, %mb : tensor<64x128xf32>
      // a causal mask: row index >= column index
      %r = "ws.iota"() {axis = 0 : i32} : () -> tensor<64x128xi32>
      %c = "ws.iota"() {axis = 1 : i32} : () -> tensor<64x128xi32>
      %keep = arith.cmpi sge, %r, %c : tensor<64x128xi32>
      gpu.return
    }
  }
}

// -----
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @g(%in: !ws.tensor_desc<tensor<64x128xf32>>, %out: !ws.tensor_desc<tensor<1x64xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      scf.for %i = %c0 to %n step %c64 : i32 {
        %t = "ws.load"(%in, %i, %c0) : (!ws.tensor_desc<tensor<64x128xf32>>, i32, i32) -> tensor<64x128xf32>
        %s = "ws.reduce"(%t) {kind = "sum", axis = 1 : i32} : (tensor<64x128xf32>) -> tensor<1x64xf32>
        // SCHED: verify-reduce-iota.mlir:[[@LINE+1]]:9: error: 'ws.store' op stores a row vector of the loop's reductions (1 x M); a row kernel stores tiles of its rows: spread the vector along them (ws.broadcast, axis = 0) and store that tile
        "ws.store"(%out, %c0, %i, %s) : (!ws.tensor_desc<tensor<1x64xf32>>, i32, i32, tensor<1x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
