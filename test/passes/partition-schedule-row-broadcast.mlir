// RUN: ws-opt %S/../../integration/combine/splitkv_combine_4.mlir --emit=plan | FileCheck %s
// RUN: ws-opt %S/../../integration/combine/splitkv_combine_4.mlir --emit=ptx -o /dev/null
// A loop that reads 1 x R row vectors and spreads them over its rows with
// ws.broadcast, but reduces none (split-KV attention's combine: the splits'
// log-sum-exps weigh their partial outputs), is a row kernel: the compute
// warps read the row vectors themselves, and only the 16 x 64 tiles take
// rings. It passed the plan and the proof, then failed in the lowering
// ('arith.maximumf' op requires the same type for all operands and
// results), the row vectors lowered as tiles of one layout and their math
// as another.
// CHECK: "rings": [
// CHECK-COUNT-5: "tile": "tensor<16x64xf32>"
// CHECK-NOT: "tile": "tensor<1x16xf32>"
// CHECK: "channels"
