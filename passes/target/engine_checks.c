/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* engine_checks.c: the shape rules of each MMA engine, which the engine's
 * row names (ws_mma_engine.check_dot): what a ws.dot must be for the engine,
 * its rings and its accumulator to take it. ws-partition-schedule asks them
 * of every ws.dot of a marked loop.
 *
 * wgmma: each of the ws.num_warps / 4 consumer warpgroups owns
 * M / warpgroups rows, which must be 64 or 128 (one or two m64
 * instructions); N a multiple of 8 up to 256; K a multiple of the form's.
 * B is given N x K (transpose_b, read K-major) or K x N (read N-major, so
 * its N row must be a multiple of 32 bytes); A M x K (K-major), or K x M
 * (transpose_a, a ws.load read M-major: 16-bit forms, whose 64 rows of M
 * per instruction are one 128-byte swizzle span). */
#include <stdio.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "ws-c/Dialect.h"
#include "ws_target.h"
#include "../plan/ws_plan.h"
#include "../support/ws_pass.h"
#include "../../dialect/ws_text.h"

static int64_t dim(MlirValue v, int d) { return mlirShapedTypeGetDimSize(mlirValueGetType(v), d); }

/* wgmma reads B from a ring the load warp fills each iteration, and A from
 * one too, from the ring of a load before the loop, or from registers (a
 * tile the consumers compute in the loop: wgmma's register form). */
bool ws_check_wgmma_operands(MlirOperation dot, MlirOperation loop) {
  MlirValue a = mlirOperationGetOperand(dot, 0), b = mlirOperationGetOperand(dot, 1);
  bool a_ok = ws_is_prologue_load(a, loop) || ws_value_in_loop(a, loop);
  if (!a_ok) {
    ws_emit_op_error(dot, "operand a must be a ws.load of the same loop or of the code "
                          "before it, or a tile the loop computes: wgmma reads A from "
                          "the shared-memory rings TMA fills, or from registers");
    return false;
  }
  if (ws_has_attr(dot, "transpose_a") && !ws_is_prologue_load(a, loop) &&
      !(mlirValueIsAOpResult(a) && wsOperationIsA(mlirOpResultGetOwner(a), "load"))) {
    ws_emit_op_error(dot, "reads A transposed (transpose_a), which wgmma takes from shared "
                          "memory only: A must be a ws.load (of the loop or before it), not "
                          "a tile the loop computes");
    return false;
  }
  if (!ws_value_in_loop(b, loop) || !wsOperationIsA(mlirOpResultGetOwner(b), "load")) {
    ws_emit_op_error(dot, "operand b must be a ws.load of the same loop: wgmma reads B "
                          "from the shared-memory rings TMA fills (a tile the loop "
                          "computes, a weight converted in registers say, can be A: "
                          "compute C^T = B^T A^T)");
    return false;
  }
  return true;
}

/* B's layout: N x K (transpose_b, K-major) always; K x N (N-major) where
 * the form reads it so and its N row is a whole swizzle span. */
static bool check_b_layout(MlirOperation dot, const ws_mma_engine *engine, const ws_mma_form *form,
                           bool k_major_b, int64_t n, int eb) {
  if (form->k_major_only && !k_major_b) {
    ws_emit_op_error(dot,
                     "takes B as K x N, but %s on %s x %s reads both operands "
                     "K-major: give B as N x K (a ws.load of the transposed tensor) "
                     "with transpose_b",
                     engine->name, wsDtypeGetName(form->a), wsDtypeGetName(form->b));
    return false;
  }
  if (!k_major_b && ws_swizzle_span(n * eb) == 0) {
    ws_emit_op_error(dot,
                     "N tile %lld of a K x N B: its row of %lld bytes must be a "
                     "multiple of 32 bytes (a swizzle span); use transpose_b for "
                     "narrower tiles",
                     (long long)n, (long long)(n * eb));
    return false;
  }
  return true;
}

/* What wgmma and the swizzled rings can take (see ws_target.h). */
bool ws_check_dot_for_wgmma(MlirOperation dot, MlirOperation loop) {
  if (!ws_check_wgmma_operands(dot, loop))
    return false;
  MlirOperation func = ws_enclosing_kernel(loop);
  int warpgroups = ws_int_attr(func, "ws.num_warps", WS_DEFAULT_COMPUTE_WARPS) / 4;
  MlirOperation parent = mlirOperationGetParentOperation(loop);
  if (ws_has_attr(parent, "ws.tile_loop") && ws_tile_loop_is_pingpong(parent))
    warpgroups = 1; /* each warpgroup holds the whole accumulator */
  MlirValue a = mlirOperationGetOperand(dot, 0), b = mlirOperationGetOperand(dot, 1);
  bool k_major_b = ws_has_attr(dot, "transpose_b");
  int64_t m, n, k;
  ws_dot_mnk(dot, &m, &n, &k);
  /* ws-verify made A and B a form of the engine, of one K */
  MlirType et = mlirShapedTypeGetElementType(mlirValueGetType(a));
  int eb = wsElementTypeByteWidth(et);
  const ws_mma_engine *engine = ws_mma_engine_of(dot);
  const ws_mma_form *form =
      ws_mma_find_form(engine, et, mlirShapedTypeGetElementType(mlirValueGetType(b)));
  if (!form->register_a && !ws_is_prologue_load(a, loop) &&
      !(ws_value_in_loop(a, loop) && wsOperationIsA(mlirOpResultGetOwner(a), "load"))) {
    ws_emit_op_error(dot,
                     "computes A in the loop, but %s on %s x %s reads A from "
                     "shared memory only (no register form): give A as a ws.load",
                     engine->name, wsDtypeGetName(form->a), wsDtypeGetName(form->b));
    return false;
  }
  if (!check_b_layout(dot, engine, form, k_major_b, n, eb))
    return false;
  int64_t rows = warpgroups ? m / warpgroups : 0;
  if (warpgroups < 1 || m % warpgroups || (rows != 64 && rows != 128)) {
    ws_emit_op_error(dot,
                     "M tile %lld over %d consumer warpgroup(s) gives %lld rows "
                     "each; wgmma needs 64 or 128 (one or two m64 instructions)",
                     (long long)m, warpgroups, (long long)rows);
    return false;
  }
  if (n % engine->n_multiple || n < engine->n_multiple || n > engine->n_max) {
    ws_emit_op_error(dot, "N tile %lld: %s takes a multiple of %d from %d to %d", (long long)n,
                     engine->name, engine->n_multiple, engine->n_multiple, engine->n_max);
    return false;
  }
  if (k % form->k) {
    ws_emit_op_error(dot, "K tile %lld: must be a multiple of %d (one %s k%d step of %s)",
                     (long long)k, form->k, engine->name, form->k, wsDtypeGetName(form->a));
    return false;
  }
  if (rows * n > 64 * 256) {
    ws_emit_op_error(dot,
                     "each consumer warpgroup would hold a %lldx%lld f32 "
                     "accumulator (%lld registers per thread); at most 128 fit",
                     (long long)rows, (long long)n, (long long)(rows * n / 128));
    return false;
  }
  return true;
}

/* A block-scaled ws.dot's scales are ws.loads of its loop, which ride the
 * K channel's ring with A and B, one MX atom deep in K (a K tile of
 * scale_atom_k), so that each K step's tcgen05.cp fills the scale buffers
 * the step's MMAs read, byte j of each word for K block j. */
static bool check_scale_loads(MlirOperation dot, MlirOperation loop, const ws_mma_engine *engine,
                              int64_t k) {
  for (intptr_t i = 3; i < mlirOperationGetNumOperands(dot); i++) {
    MlirValue s = mlirOperationGetOperand(dot, i);
    if (!ws_value_in_loop(s, loop) || !wsOperationIsA(mlirOpResultGetOwner(s), "load")) {
      ws_emit_op_error(dot,
                       "reads its scales (operand %lld) from a tile that is not a "
                       "ws.load of its loop; on sm_100a the MMA warp copies the scales "
                       "from their ring's slot into tensor memory (tcgen05.cp)",
                       (long long)i);
      return false;
    }
  }
  if (k != engine->scale_atom_k) {
    ws_emit_op_error(dot,
                     "K tile %lld: a block-scaled %s takes K tiles of %d (one MX atom of "
                     "scales per 128 rows)",
                     (long long)k, engine->name, engine->scale_atom_k);
    return false;
  }
  return true;
}

/* What tcgen05.mma and the epilogue's tcgen05.ld take (sm_100a): one
 * ws.dot per K step, from two ws.loads of the loop (A M x K, K-major; B
 * N x K with transpose_b, or K x N, N-major, for f16 and bf16), M = 128
 * (accumulator row i in tensor-memory lane i), N a multiple of 16 from 16
 * to 256 (its columns), K a multiple of the form's (16, or 32 for FP8),
 * a form of the engine's table, from a zero accumulator. The epilogue
 * warpgroups split the columns (warp w of each reads lanes 32w..32w+31),
 * at most 128 f32 per thread. */
bool ws_check_dot_for_tcgen05(MlirOperation dot, MlirOperation loop) {
  MlirValue a = mlirOperationGetOperand(dot, 0), b = mlirOperationGetOperand(dot, 1);
  if (!ws_value_in_loop(a, loop) || !wsOperationIsA(mlirOpResultGetOwner(a), "load") ||
      !ws_value_in_loop(b, loop) || !wsOperationIsA(mlirOpResultGetOwner(b), "load")) {
    ws_emit_op_error(dot, "on sm_100a reads A and B from ws.loads of its loop: "
                          "tcgen05.mma takes both from the shared-memory rings TMA fills");
    return false;
  }
  bool k_major_b = ws_has_attr(dot, "transpose_b");
  const ws_mma_engine *engine = ws_mma_engine_of(dot); /* ws-verify checked the types */
  MlirType et = mlirShapedTypeGetElementType(mlirValueGetType(a));
  bool scaled = mlirOperationGetNumOperands(dot) > 3;
  const ws_mma_form *form = (scaled ? ws_mma_find_scaled_form : ws_mma_find_form)(
      engine, et, mlirShapedTypeGetElementType(mlirValueGetType(b)));
  int64_t m = dim(a, 0), k = dim(a, 1), n = dim(b, k_major_b ? 0 : 1);
  if (scaled && !check_scale_loads(dot, loop, engine, k))
    return false;
  if (!check_b_layout(dot, engine, form, k_major_b, n, wsElementTypeByteWidth(et)))
    return false;
  if (m != 128) {
    ws_emit_op_error(dot,
                     "M tile %lld: on sm_100a ws issues tcgen05.mma with M = 128 "
                     "(accumulator row i in tensor-memory lane i)",
                     (long long)m);
    return false;
  }
  if (n % engine->n_multiple || n < engine->n_multiple || n > engine->n_max) {
    ws_emit_op_error(dot,
                     "N tile %lld: %s with M = 128 takes a multiple of %d "
                     "from %d to %d",
                     (long long)n, engine->name, engine->n_multiple, engine->n_multiple,
                     engine->n_max);
    return false;
  }
  if (k % form->k) {
    ws_emit_op_error(dot, "K tile %lld: must be a multiple of %d (one %s K step of %s)",
                     (long long)k, form->k, engine->name, wsDtypeGetName(form->a));
    return false;
  }
  MlirOperation func = ws_enclosing_kernel(loop);
  int warps = ws_int_attr(func, "ws.num_warps", WS_DEFAULT_COMPUTE_WARPS);
  if ((warps != 4 && warps != 8) || n / (warps / 4) > 128) {
    ws_emit_op_error(dot,
                     "on sm_100a the epilogue warps (ws.num_warps = %d) read the "
                     "128x%lld accumulator from tensor memory, each warpgroup of 4 a "
                     "share of at most 128 of its columns: ws.num_warps must be 4 for "
                     "N <= 128, 8 for N <= 256",
                     warps, (long long)n);
    return false;
  }
  MlirBlock body = ws_loop_body(loop);
  MlirOperation first;
  int dots = ws_count_ops(body, "ws.dot", &first);
  if (dots != 1 || mlirOperationGetNumResults(loop) != 1 ||
      !mlirValueEqual(mlirOperationGetOperand(dot, 2), mlirBlockGetArgument(body, 1))) {
    if (mlirOperationEqual(dot, first)) /* one error per loop, at its first ws.dot */
      ws_emit_op_error(dot,
                       "is one of %d ws.dot ops of its loop, or does not accumulate "
                       "into the loop's one carried value; on sm_100a a K loop carries "
                       "one accumulator, in tensor memory, that its one ws.dot "
                       "updates each step",
                       dots);
    return false;
  }
  MlirValue init = mlirOperationGetOperand(loop, 3);
  if (!ws_is_zero_splat(init)) {
    ws_emit_op_error(loop, "starts its accumulator from a tile that is not dense<0.0>; on "
                           "sm_100a the first tcgen05.mma of a tile overwrites the "
                           "accumulator in tensor memory");
    return false;
  }
  return true;
}
