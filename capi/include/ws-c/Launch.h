/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * ws-c/Launch.h: check a launch's arguments and build its kernel
 * parameters, with the rules a generated C launcher checks.
 *
 * A runtime (the Python package) describes each argument as a WsTensor or
 * a scalar; wsLaunchPrepare checks them against the kernel's WsKernelInfo
 * (ws-c/Compile.h), encodes each TMA descriptor through the driver's
 * cuTensorMapEncodeTiled, whose address the caller passes, and leaves the
 * `void **` parameter array cuLaunchKernel takes. The rules are the ones
 * ws-opt --emit=launcher copies into every launcher (one source,
 * capi/lib/launch_rules.h), so a refusal has the same words in both. This
 * header needs no CUDA header; the library calls no CUDA function itself.
 */
#ifndef WS_C_LAUNCH_H
#define WS_C_LAUNCH_H

#include <stdbool.h>
#include <stdint.h>

#include "ws-c/Compile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A global tensor: its device address, rank, element type, and sizes and
 * strides (in elements) outermost first; the generated launchers'
 * ws_tensor, field for field. */
typedef struct WsTensor {
  uint64_t base;
  int rank;
  WsDtype dtype;
  uint64_t sizes[5];
  uint64_t strides[5];
} WsTensor;

/* A scalar argument's value, in the field its WsScalarType names. */
typedef union WsScalarValue {
  int32_t i32;
  int64_t i64;
  float f32;
  double f64;
} WsScalarValue;

/* One argument of a launch: `tensor` for a descriptor or an array,
 * `scalar` for a scalar. */
typedef struct WsLaunchArg {
  WsTensor tensor;
  WsScalarValue scalar;
} WsLaunchArg;

/* The parameters of one launch of one kernel: an opaque handle that holds
 * the encoded maps, store views and values the parameters point at. It may
 * be prepared again for other arguments; its parameter array stays at the
 * same address. */
typedef struct WsLaunch {
  void *ptr;
} WsLaunch;

/* A launch of `kernel` (copied, its argument table with it: the info need
 * not outlive it); null when memory ran out, or `kernel` is NULL or has
 * arguments but no table of them. */
WsLaunch wsLaunchCreate(const WsKernelInfo *kernel);

/* Frees a launch (a null one is ignored). */
void wsLaunchDestroy(WsLaunch launch);

/* Whether wsLaunchCreate failed. */
static inline bool wsLaunchIsNull(WsLaunch launch) { return launch.ptr == NULL; }

/* Checks `args` (kernel->num_args of them) and builds the parameters:
 * element types, ranks, sizes, alignment, strides (a dimension of size 1
 * needs none; a tensor with no element becomes zeroed scratch), array
 * rules and each integer's ws.divisibility. `encode_tiled` is the address
 * of the driver's cuTensorMapEncodeTiled; NULL checks every rule but
 * encodes no map (a check without a GPU). `scratch` is the device address
 * of 256 zeroed bytes that stand in for tensors with no element.
 *
 * A split-K kernel (workspace_per_block > 0) also checks its last
 * argument, the workspace address (in args[last].scalar.i64), and the grid: every block must be
 * resident at once, so `grid` (x, y, z) must be at most `resident_grid`
 * blocks along x, and 1 along y and z; a `resident_grid` of 0 leaves the
 * grid unchecked (nothing to launch).
 *
 * Returns success, or failure with wsLaunchGetError saying which argument
 * broke which rule ("arg2: element type must be f32 (got bf16)"). */
MlirLogicalResult wsLaunchPrepare(WsLaunch launch, const WsLaunchArg *args, void *encode_tiled,
                                  uint64_t scratch, const unsigned grid[3], unsigned resident_grid);

/* The parameter array of the last successful prepare (cuLaunchKernel's
 * kernelParams), and its length. */
void **wsLaunchGetParams(WsLaunch launch);
int wsLaunchGetNumParams(WsLaunch launch);

/* Why the last prepare failed ("" after a success). */
const char *wsLaunchGetError(WsLaunch launch);

/* The balanced grid of a persistent kernel whose tile loop runs
 * `iterations` in all (a cluster kernel's loop: over its clusters), given
 * `resident` (its persistent grid: the blocks the device holds at once,
 * whole clusters) and the cluster's blocks (1: none): the fewest blocks,
 * whole clusters, at most `resident`, that take the iterations in as many
 * rounds as the resident grid does, each block (or cluster) then running
 * the same number, give or take one. 512 tiles on 132 SMs: 128 blocks of
 * 4, where the resident grid runs 116 of 4 and 16 of 3. No iteration: one
 * cluster. The generated launchers' NAME_KERNEL_balanced_grid computes the
 * same. A split-K kernel keeps its resident grid. */
unsigned wsLaunchBalancedGrid(uint64_t iterations, unsigned resident, unsigned cluster);

#ifdef __cplusplus
}
#endif

#endif /* WS_C_LAUNCH_H */
