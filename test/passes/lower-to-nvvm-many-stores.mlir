// RUN: ws-opt %S/../../integration/combine/fanout_12.mlir --emit=mlir | FileCheck %s
// RUN: ws-opt %S/../../integration/add.mlir --emit=mlir | FileCheck %s --check-prefix=FEW
// A kernel of more than 8 TMA stores (a + b written to 12 outputs): each
// store keeps its one-instruction TMA path, and the element path of a
// tile that reaches a partial granule is one function the 12 stores call,
// not 12 loop nests (whose analysis in LLVM grows with their square). A
// kernel of few stores keeps its element path inline.
// CHECK: llvm.func @fanout_12(
// CHECK-COUNT-12: llvm.call @fanout_12_store_elements_0(%{{.*}}) : (!llvm.ptr, !llvm.ptr<3>, i32, i32) -> ()
// CHECK-NOT: llvm.call
// CHECK: llvm.func internal @fanout_12_store_elements_0(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr<3>, %{{.*}}: i32, %{{.*}}: i32) attributes {passthrough = ["noinline"]}
// CHECK-NOT: llvm.func
// FEW-NOT: llvm.call
// FEW-NOT: store_elements
