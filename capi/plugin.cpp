// plugin.cpp: the mlir-opt pass plugin. Registers every ws pass and
// pipeline as a pipeline entry whose builder hands the option text to the C
// API, so `mlir-opt --load-pass-plugin=WSPlugin.so` accepts
// `ws-verify{chip=sm_90a}` exactly as ws-opt does. No logic lives here.
#include <string>

#include "mlir/CAPI/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "ws-c/Passes.h"

static void appendMessage(MlirStringRef s, void *userData) {
  static_cast<std::string *>(userData)->append(s.data, s.length);
}

static void registerWsPasses() {
  for (intptr_t i = 0; i < wsGetNumPasses(); ++i) {
    MlirStringRef arg = wsPassGetArgument(i);
    MlirStringRef summary = wsPassGetSummary(i);
    mlir::registerPassPipeline(
        llvm::StringRef(arg.data, arg.length),
        llvm::StringRef(summary.data, summary.length),
        [arg](mlir::OpPassManager &pm, llvm::StringRef options,
              llvm::function_ref<llvm::LogicalResult(const llvm::Twine &)>
                  errorHandler) -> llvm::LogicalResult {
          std::string message;
          if (mlirLogicalResultIsFailure(wsAddPassByName(
                  wrap(&pm), arg, {options.data(), options.size()},
                  appendMessage, &message)))
            return errorHandler(message);
          return llvm::success();
        },
        [](llvm::function_ref<void(const mlir::detail::PassOptions &)>) {});
  }
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "ws", WS_VERSION, registerWsPasses};
}
