/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* pipeline.c: ws-pipeline, the whole ws flow as one pipeline element:
 *
 *   select: ws-select-kernel{kernel} when kernel= names one (both halves)
 *   plan:   ws-verify{chip}, ws-partition-schedule, ws-plan-memory,
 *           ws-insert-barriers, ws-specialize, ws-check-protocol (check-protocol=false
 *           leaves it out; stage=lower runs it first, on a plan fed back)
 *   lower:  ws-lower-to-nvvm, then upstream lowering of each gpu.module
 *           (scf to cf, gpu and nvvm to llvm) and gpu-module-to-binary
 *
 * stage=plan|lower|all picks the halves (ws-opt --emit=launcher reads the
 * plan between them); format=bin|isa|llvm|none picks what
 * gpu-module-to-binary makes (none stops before it). cuda-path names the
 * toolkit explicitly (ptxas and libdevice, which math ops call), so the
 * result does not depend on CUDA_HOME being set. */
#include <stdio.h>
#include <string.h>

#include "support/ws_pass.h"

#ifndef WS_DEFAULT_CUDA_ROOT
#define WS_DEFAULT_CUDA_ROOT "/usr/local/cuda"
#endif

static const ws_option_spec pipeline_options[] = {
    {"chip", WS_OPTION_STRING, "",
     "target chip; kernels must target it (empty: each gpu.module's own, sm_90a or "
     "sm_100a)",
     "|sm_90a|sm_100a", 0, 0},
    {"format", WS_OPTION_STRING, "bin",
     "what gpu-module-to-binary makes: bin (cubin), isa (PTX), llvm "
     "(bitcode), none (stop before it)",
     "bin|isa|llvm|none", 0, 0},
    {"stage", WS_OPTION_STRING, "all", "which half to run: plan, lower, all", "plan|lower|all", 0,
     0},
    {"smem-budget", WS_OPTION_INT, "0",
     "shared memory per block in bytes (ws-plan-memory; 0: the chip's)", NULL, 0, 1 << 30},
    {"tmem-budget", WS_OPTION_INT, "0",
     "tensor-memory columns per block for a matmul's accumulator (ws-plan-memory; 0: "
     "the chip's)",
     NULL, 0, 512},
    {"max-blocks-per-sm", WS_OPTION_INT, "2",
     "blocks per SM the register cap leaves room for (ws-insert-barriers)", NULL, 1, 8},
    {"cuda-path", WS_OPTION_STRING, WS_DEFAULT_CUDA_ROOT,
     "CUDA toolkit root: ptxas and libdevice for gpu-module-to-binary", NULL, 0, 0},
    {"explain", WS_OPTION_BOOL, "false",
     "every ws pass remarks on each decision it makes (ws-opt --ws-explain)", NULL, 0, 0},
    {"check-protocol", WS_OPTION_BOOL, "true",
     "prove each kernel's protocol with ws-check-protocol after ws-insert-barriers", NULL, 0, 0},
    {"num-stages", WS_OPTION_INT, "0",
     "ring depth where the source sets none (ws-partition-schedule writes it as "
     "ws.num_stages; 0: the planner's)",
     NULL, 0, 8},
    {"overlap", WS_OPTION_STRING, "",
     "a persistent matmul's overlap where the source sets none (ws-partition-schedule "
     "writes it as ws.overlap; empty: the planner's)",
     "|pingpong|cooperative", 0, 0},
    {"l2-keep", WS_OPTION_STRING, "",
     "the ws.dot operand kept in L2 where the loads set no l2 policy: a or b "
     "(ws-partition-schedule writes l2 = \"evict_last\" on its loads, \"evict_first\" "
     "on the other's; empty: none)",
     "|a|b", 0, 0},
    {"store-boxes", WS_OPTION_BOOL, "false",
     "a matmul's C tile goes to the store warp one TMA box at a time, each stored as it "
     "comes (ws-partition-schedule writes ws.store_boxes = true where the source sets "
     "none)",
     NULL, 0, 0},
    {"split-k", WS_OPTION_STRING, "",
     "a persistent matmul's tile loop without ws.split_k is split as ws.split_k = true "
     "(split-K) or \"stream\" (stream-K) would split it (ws-split-k; empty: whole)",
     "|true|stream", 0, 0},
    {"kernel", WS_OPTION_STRING, "",
     "compile only this kernel of the module (ws-select-kernel erases the others first: "
     "an autotuner's member; empty: every kernel)",
     NULL, 0, 0},
};

/* Adds the pass `def`, configured with the pipeline's options it shares
 * by name (chip, smem-budget, max-blocks-per-sm, explain...). */
static bool add(MlirOpPassManager pm, const ws_pass_def *def, const ws_pass_options *opts,
                const WsDiagnostics *diag, char error[WS_ERROR_MAX]) {
  char text[WS_MAX_OPTIONS * (WS_OPTION_TEXT_MAX + 32)];
  ws_forward_options(opts, def, text, sizeof text);
  return ws_add_configured_pass(pm, def, mlirStringRefCreateFromCString(text), diag, error);
}

/* MLIR reports a pipeline error in pieces; they are appended. */
static void note_upstream_error(MlirStringRef message, void *error) {
  char *e = error;
  size_t used = strlen(e);
  snprintf(e + used, WS_ERROR_MAX - used, "%.*s", (int)message.length, message.data);
}

static bool add_upstream(MlirOpPassManager pm, const char *text, char error[WS_ERROR_MAX]) {
  error[0] = '\0';
  return mlirLogicalResultIsSuccess(mlirOpPassManagerAddPipeline(
      pm, mlirStringRefCreateFromCString(text), note_upstream_error, error));
}

static bool build_pipeline(MlirOpPassManager pm, const ws_pass_options *opts,
                           const WsDiagnostics *diag, char error[WS_ERROR_MAX]) {
  const char *stage = ws_option_string(opts, "stage");
  bool plan = strcmp(stage, "lower") != 0, lower = strcmp(stage, "plan") != 0;
  if (ws_option_string(opts, "kernel")[0] &&
      !add(pm, &ws_select_kernel_pass_def, opts, diag, error))
    return false;
  if (plan && (!add(pm, &ws_verify_pass_def, opts, diag, error) ||
               !add(pm, &ws_tile_order_pass_def, opts, diag, error) ||
               !add(pm, &ws_split_k_pass_def, opts, diag, error) ||
               !add(pm, &ws_partition_schedule_pass_def, opts, diag, error) ||
               !add(pm, &ws_plan_memory_pass_def, opts, diag, error) ||
               !add(pm, &ws_insert_barriers_pass_def, opts, diag, error) ||
               !add(pm, &ws_specialize_pass_def, opts, diag, error)))
    return false;
  /* The check ends the plan half, and starts stage=lower: a plan fed back
   * may have been edited. */
  if (ws_option_bool(opts, "check-protocol") &&
      !add(pm, &ws_check_protocol_pass_def, opts, diag, error))
    return false;
  if (!lower)
    return true;
  if (!add(pm, &ws_lower_to_nvvm_pass_def, opts, diag, error) ||
      !add_upstream(pm,
                    "gpu.module(convert-scf-to-cf, convert-gpu-to-nvvm, "
                    "convert-nvvm-to-llvm, canonicalize, cse, "
                    "reconcile-unrealized-casts)",
                    error))
    return false;
  const char *format = ws_option_string(opts, "format");
  if (strcmp(format, "none") == 0)
    return true;
  const char *cuda = ws_option_string(opts, "cuda-path");
  if (strpbrk(cuda, " \t{}\"'") || !cuda[0]) {
    snprintf(error, WS_ERROR_MAX,
             "ws-pipeline: cuda-path '%s' must be a non-empty "
             "path without spaces, quotes or braces",
             cuda);
    return false;
  }
  char text[2 * WS_OPTION_TEXT_MAX + 96];
  snprintf(text, sizeof text, "gpu-module-to-binary{format=%s toolkit=%s}", format, cuda);
  return add_upstream(pm, text, error);
}

const ws_pass_def ws_pipeline_def = {
    .argument = "ws-pipeline",
    .summary = "The whole ws flow, from tile-level kernel to cubin",
    WS_PASS_OPTIONS(pipeline_options),
    .build = build_pipeline,
};
