// RUN: not ws-opt %s 2>&1 | FileCheck %s --implicit-check-not=error:
// The ws dialect is closed: an op it does not define is rejected at parse.
func.func @f() {
  // CHECK: irdl-unknown-op.mlir:[[@LINE+1]]:3: error: unregistered operation 'ws.frobnicate' found in dialect ('ws') that does not allow unknown operations
  "ws.frobnicate"() : () -> ()
  return
}
