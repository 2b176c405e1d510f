// RUN: not ws-opt --split-input-file %s 2>&1 | FileCheck %s --implicit-check-not=error:
// IRDL checks operand and result kinds; each part is rejected on its own and
// its error points at the right line of this file.
func.func @f(%d: !ws.tensor_desc<tensor<32x64xf32>>, %i: i64) {
  // CHECK: irdl-operand-kinds.mlir:[[@LINE+1]]:8: error: expected 'i32' but got 'i64'
  %t = "ws.load"(%d, %i, %i) : (!ws.tensor_desc<tensor<32x64xf32>>, i64, i64) -> tensor<32x64xf32>
  return
}
// -----
func.func @f(%d: tensor<32x64xf32>, %i: i32) {
  // CHECK: irdl-operand-kinds.mlir:[[@LINE+1]]:8: error: expected base type 'ws.tensor_desc' but got 'builtin.tensor'
  %t = "ws.load"(%d, %i, %i) : (tensor<32x64xf32>, i32, i32) -> tensor<32x64xf32>
  return
}
// -----
// CHECK: irdl-operand-kinds.mlir:[[@LINE+1]]:22: error: expected base type 'builtin.tensor' but got 'builtin.f32'
func.func @f(%d: !ws.tensor_desc<f32>) {
  return
}
// -----
func.func @f(%a: tensor<4x4xf16>) {
  // CHECK: irdl-operand-kinds.mlir:[[@LINE+1]]:8: error: op expects at least 3 operands, but got 2
  %r = "ws.dot"(%a, %a) : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16>
  return
}
// -----
func.func @f(%a: tensor<4x4xf16>, %c: tensor<4x4xf32>) {
  // CHECK: irdl-operand-kinds.mlir:[[@LINE+1]]:8: error: expected 'tensor<4x4xf32>' but got 'tensor<4x4xf16>'
  %r = "ws.dot"(%a, %a, %c) : (tensor<4x4xf16>, tensor<4x4xf16>, tensor<4x4xf32>) -> tensor<4x4xf16>
  return
}
