// The IR dumps and the timing report go to stderr; stdout keeps the result.
// RUN: ws-opt --mlir-print-ir-before-all --mlir-print-ir-after-all --pass-pipeline='builtin.module(ws-verify, cse)' %s 2>&1 >/dev/null | FileCheck %s --check-prefix=DUMP
// RUN: ws-opt --mlir-timing --pass-pipeline='builtin.module(ws-verify, cse)' %s 2>&1 >/dev/null | FileCheck %s --check-prefix=TIME
// RUN: ws-opt --mlir-timing --mlir-print-ir-after-all --pass-pipeline='builtin.module(ws-verify)' %s 2>/dev/null | FileCheck %s --check-prefix=OUT

// DUMP: IR Dump Before ws-verify
// DUMP: func.func @f
// DUMP: IR Dump After ws-verify
// DUMP: IR Dump Before CSE
// DUMP: IR Dump After CSE

// TIME: Execution time report
// TIME: ws-verify
// TIME: CSE
// TIME: Total

// OUT: func.func @f
func.func @f() {
  return
}
