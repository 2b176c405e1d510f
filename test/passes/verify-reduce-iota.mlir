// RUN: ws-opt --split-input-file --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
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

