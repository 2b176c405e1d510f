// ws-verify's errors for ws.reduce and ws.iota (verify-reduce-iota.mlir runs this).
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%s: tensor<64x128xf32>) kernel {
      // CHECK: verify-reduce-iota-errors.mlir:[[@LINE+1]]:12: error: 'ws.reduce' op needs kind = "max", "min" or "sum"
      %a = "ws.reduce"(%s) {kind = "prod", axis = 1 : i32} : (tensor<64x128xf32>) -> tensor<1x64xf32>
      // CHECK: verify-reduce-iota-errors.mlir:[[@LINE+1]]:12: error: 'ws.reduce' op needs axis = 0 or 1 (an i32): the dimension it works along
      %b = "ws.reduce"(%s) {kind = "max"} : (tensor<64x128xf32>) -> tensor<1x64xf32>
      // CHECK: verify-reduce-iota-errors.mlir:[[@LINE+1]]:12: error: 'ws.reduce' op reduces tensor<64x128xf32> along axis 1 to tensor<1x128xf32>; expected a 1 x 64 tile of its element type
      %c = "ws.reduce"(%s) {kind = "max", axis = 1 : i32} : (tensor<64x128xf32>) -> tensor<1x128xf32>
      // CHECK: verify-reduce-iota-errors.mlir:[[@LINE+1]]:12: error: 'ws.reduce' op reduces tensor<64x128xf32> along axis 0 to tensor<1x128xf16>; expected a 1 x 128 tile of its element type (axis = 0 reduces each column; a row's values reduce along axis = 1)
      %d = "ws.reduce"(%s) {kind = "sum", axis = 0 : i32} : (tensor<64x128xf32>) -> tensor<1x128xf16>
      // CHECK: verify-reduce-iota-errors.mlir:[[@LINE+1]]:12: error: 'ws.iota' op makes tensor<64x128xf32>; an index tile is i32
      %e = "ws.iota"() {axis = 0 : i32} : () -> tensor<64x128xf32>
      // CHECK: verify-reduce-iota-errors.mlir:[[@LINE+1]]:12: error: 'ws.iota' op needs axis = 0 or 1 (an i32): the dimension it works along
      %f = "ws.iota"() {axis = 2 : i32} : () -> tensor<64x128xi32>
      gpu.return
    }
  }
}
