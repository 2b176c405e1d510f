/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
// plugin.cpp: the mlir-opt plugin, one shared object with both entry
// points. As a pass plugin it registers every ws pass and pipeline as a
// pipeline entry whose builder hands the option text to the C API, so
// `mlir-opt --load-pass-plugin=WSPlugin.so` accepts `ws-verify{chip=sm_90a}`
// exactly as ws-opt does. As a dialect plugin (`--load-dialect-plugin`) it
// adds a registry extension on the gpu dialect, which every ws kernel needs
// (it lives in a gpu.module) and which the parser loads before it reaches a
// ws type: the extension loads the embedded IRDL definition of ws, so no
// `--irdl-file` is needed. (An extension on the builtin dialect would run
// inside the context's constructor, before an op can be built.) No logic
// lives here.
#include <string>

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "ws-c/Dialect.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "ws-c/Passes.h"

static void appendMessage(MlirStringRef s, void *userData) {
  static_cast<std::string *>(userData)->append(s.data, s.length);
}

// Remarks from the C passes become MLIR remarks, as upstream passes emit.
static void emitRemark(MlirLocation loc, MlirStringRef message, void *) {
  mlir::emitRemark(unwrap(loc)) << llvm::StringRef(message.data, message.length);
}

static void registerWsPasses() {
  for (intptr_t i = 0; i < wsGetNumPasses(); ++i) {
    MlirStringRef arg = wsPassGetArgument(i);
    MlirStringRef summary = wsPassGetSummary(i);
    mlir::registerPassPipeline(
        llvm::StringRef(arg.data, arg.length), llvm::StringRef(summary.data, summary.length),
        [arg](mlir::OpPassManager &pm, llvm::StringRef options,
              llvm::function_ref<llvm::LogicalResult(const llvm::Twine &)> errorHandler)
            -> llvm::LogicalResult {
          std::string message;
          WsDiagnostics diag = {appendMessage, emitRemark, &message};
          if (mlirLogicalResultIsFailure(
                  wsAddPassByName(wrap(&pm), arg, {options.data(), options.size()}, &diag)))
            return errorHandler(message);
          return llvm::success();
        },
        [](llvm::function_ref<void(const mlir::detail::PassOptions &)>) {});
  }
}

static void registerWsDialect(mlir::DialectRegistry *registry) {
  registry->addExtension(+[](mlir::MLIRContext *ctx, mlir::gpu::GPUDialect *) {
    if (mlirLogicalResultIsFailure(wsContextLoadDialect(wrap(ctx))))
      llvm::report_fatal_error("ws: the embedded IRDL definition does not load");
  });
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "ws", WS_VERSION, registerWsDialect};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "ws", WS_VERSION, registerWsPasses};
}
