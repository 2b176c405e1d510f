// RUN: (ws-opt --split-input-file --pass-pipeline='builtin.module(ws-verify)' %s 2>&1; echo "exit=$?") | FileCheck %s
// Each part is processed on its own: good parts print, separated by
// "// -----"; a bad part reports an error with its line in this file, and
// the exit status is 1 because one part failed.

// CHECK: func.func @first
func.func @first() {
  return
}

// -----

// CHECK: split-input-file.mlir:[[@LINE+1]]:1: error: 'func.func' op takes a !ws.tensor_desc argument
func.func @second(%d: !ws.tensor_desc<tensor<16xf16>>) {
  return
}

// -----

// CHECK: // -----
// CHECK-NEXT: module {
// CHECK-NEXT: func.func @third
func.func @third() {
  return
}
// CHECK: exit=1
