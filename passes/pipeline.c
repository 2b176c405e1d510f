/* pipeline.c: ws-pipeline, the whole ws flow as one pipeline element.
 *
 * For now the flow is the verifier; each later stage (partition scheduling,
 * memory planning, barriers, lowering) is appended here as it lands, so the
 * C API's wsAddPipeline and `ws-opt --ws-pipeline` always mean "all of it". */
#include <stdio.h>

#include "ws_pass.h"

static const ws_option_spec pipeline_options[] = {
    {"chip", WS_OPTION_STRING, "sm_90a",
     "target chip; kernels must target it", "sm_90a|sm_100a", 0, 0},
};

static bool build_pipeline(MlirOpPassManager pm, const ws_pass_options *opts,
                           const WsDiagnostics *diag, char error[WS_ERROR_MAX]) {
  char text[WS_OPTION_TEXT_MAX + 8];
  snprintf(text, sizeof text, "chip=%s", opts->v[0].s);
  return ws_add_configured_pass(pm, &ws_verify_pass_def,
                                mlirStringRefCreateFromCString(text), diag,
                                error);
}

const ws_pass_def ws_pipeline_def = {
    .argument = "ws-pipeline",
    .summary = "The whole ws flow, from tile-level kernel to target code",
    .options = pipeline_options,
    .num_options = 1,
    .build = build_pipeline,
};
