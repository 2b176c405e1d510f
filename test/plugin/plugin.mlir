// mlir-opt runs ws passes from the plugin, with options and beside upstream
// passes, once the dialect is loaded from its IRDL file.
// RUN: %mlir_opt --irdl-file=%ws_irdl --load-pass-plugin=%ws_plugin --pass-pipeline='builtin.module(ws-verify)' %ws_src/integration/add.mlir | FileCheck %s --check-prefix=ADD
// RUN: %mlir_opt --irdl-file=%ws_irdl --load-pass-plugin=%ws_plugin --pass-pipeline='builtin.module(canonicalize, ws-verify{chip=sm_90a}, cse)' %ws_src/integration/matmul.mlir | FileCheck %s --check-prefix=MM
// RUN: %mlir_opt --irdl-file=%ws_irdl --load-pass-plugin=%ws_plugin --pass-pipeline='builtin.module(ws-pipeline{chip=sm_90a format=isa})' %ws_src/integration/add.mlir | FileCheck %s --check-prefix=PTX
// RUN: %mlir_opt --irdl-file=%ws_irdl --load-pass-plugin=%ws_plugin --pass-pipeline='builtin.module(ws-partition-schedule, ws-plan-memory{smem-budget=50000}, ws-insert-barriers, ws-specialize)' %ws_src/integration/add.mlir | FileCheck %s --check-prefix=PLAN
// RUN: not %mlir_opt --irdl-file=%ws_irdl --load-pass-plugin=%ws_plugin --pass-pipeline='builtin.module(ws-verify)' %s 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not %mlir_opt --irdl-file=%ws_irdl --load-pass-plugin=%ws_plugin --pass-pipeline='builtin.module(ws-verify{chip=sm_75})' %s 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: %mlir_opt --load-pass-plugin=%ws_plugin --help | FileCheck %s --check-prefix=HELP
// As a dialect plugin too, the same .so loads the ws dialect: no --irdl-file.
// RUN: %mlir_opt --load-dialect-plugin=%ws_plugin --load-pass-plugin=%ws_plugin --pass-pipeline='builtin.module(canonicalize, ws-verify{chip=sm_90a}, cse)' %ws_src/integration/matmul.mlir | FileCheck %s --check-prefix=MM
// Remarks of the C passes arrive as MLIR remarks.
// RUN: %mlir_opt --irdl-file=%ws_irdl --load-pass-plugin=%ws_plugin --split-input-file --pass-pipeline='builtin.module(ws-partition-schedule)' %S/../passes/partition-schedule-remarks.mlir 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// REMARK: partition-schedule-remarks.mlir:{{[0-9]+}}:7: remark: loop not warp-specialized: it has no ws.load
// The example matmul (integration/matmul.mlir) through the whole pipeline in stock mlir-opt: wgmma.
// RUN: %mlir_opt --irdl-file=%ws_irdl --load-pass-plugin=%ws_plugin --pass-pipeline='builtin.module(ws-pipeline{chip=sm_90a format=isa})' %ws_src/integration/matmul.mlir | FileCheck %s --check-prefix=MMPTX
// MMPTX: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16

// ADD: gpu.func @add
// ADD: "ws.store"
// MM: "ws.dot"{{.*}}{transpose_b}
// PTX: gpu.binary @kernels
// PTX-SAME: setmaxnreg.inc.sync.aligned.u32
// PLAN: ws.smem_bytes = 49216 : i32
// OPT: ws-verify: option 'chip' takes "", sm_90a or sm_100a, got 'sm_75'
// HELP: --ws-pipeline
// HELP: --ws-verify

module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%d: !ws.tensor_desc<tensor<32x64xf32>>, %i: i32) kernel {
      // ERR: plugin.mlir:[[@LINE+1]]:12: error: 'ws.load' op has 3 coordinates but descriptor !ws.tensor_desc<tensor<32x64xf32>> has rank 2; expected 2 coordinates
      %t = "ws.load"(%d, %i, %i, %i) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, i32) -> tensor<32x64xf32>
      gpu.return
    }
  }
}
