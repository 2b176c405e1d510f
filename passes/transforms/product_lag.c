/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* product_lag.c: whether the consumers of a matmul's K loop run the math on
 * a step's wgmma products one step late (ws.stage = 1 on that math), for
 * ws-partition-schedule.
 *
 * A K loop that makes a fresh product each step (a ws.dot into
 * dense<0.0>) and promotes it into the carried accumulator on the CUDA
 * cores (block scales, or plain promotion for FP8's accuracy) would wait
 * for each step's wgmmas before its math: the tensor cores then idle for
 * the math and for their own pipeline to drain and refill, every step. With
 * a lag of 1 the consumers issue step n's wgmmas, wait until only those are
 * in flight, and only then run step n - 1's math, which the tensor cores
 * overlap with step n's wgmmas. The price is a second product in registers
 * (each warpgroup holds two, alternately written by the wgmmas of even and
 * odd steps) and a phantom K step when a tile has an odd number of them
 * (the load warp fills it with zeros from past the tensor's end; its math is
 * skipped). */
#include <stdio.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "ws-c/Dialect.h"
#include "../plan/ws_plan.h"
#include "../support/ws_pass.h"
#include "../target/ws_target.h"
#include "ws_product_lag.h"
#include "../../dialect/ws_text.h"

/* Registers a consumer thread may give to the accumulators and the two
 * products of a lagged loop (f32 values): the rest of setmaxnreg's 240
 * holds addresses, counts, scales and the math's temporaries. */
enum { LAG_VALUE_BUDGET = 192 };

static bool is_tile(MlirValue v) { return mlirTypeIsARankedTensor(mlirValueGetType(v)); }

static long long values_per_thread(MlirValue tile, int threads) {
  MlirType t = mlirValueGetType(tile);
  return mlirShapedTypeGetDimSize(t, 0) * mlirShapedTypeGetDimSize(t, 1) / threads;
}

/* True when every use of v is in `body` and none is a ws.dot or the yield
 * (a product is read by the step's math alone). */
static bool used_by_math_only(MlirValue v, MlirBlock body) {
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    if (!mlirBlockEqual(mlirOperationGetBlock(user), body) || wsOperationIsA(user, "dot") ||
        ws_op_is(user, "scf.yield"))
      return false;
  }
  return true;
}

/* The K loop's step as a constant, or 0. */
static long long constant_step(MlirOperation loop) {
  MlirValue step = mlirOperationGetOperand(loop, 2);
  if (!mlirValueIsAOpResult(step) || !ws_op_is(mlirOpResultGetOwner(step), "arith.constant"))
    return 0;
  MlirAttribute a = mlirOperationGetAttributeByName(mlirOpResultGetOwner(step),
                                                    mlirStringRefCreateFromCString("value"));
  return mlirAttributeIsAInteger(a) ? mlirIntegerAttrGetValueInt(a) : 0;
}

int ws_choose_product_lag(const ws_plan *plan, int compute, char *why, size_t cap) {
  MlirOperation loop = plan->loop;
  MlirBlock body = ws_loop_body(loop);
  const ws_partition *c = &plan->parts[compute];
  snprintf(why, cap, "%s", "");
  if (ws_mma_engine_of(loop)->accumulator != WS_ACC_REGISTERS || c->pingpong ||
      ws_loop_dot_runs(loop) != 1)
    return 0;
  int threads = c->num_warps * 32, products = 0, carried = 0;
  long long values = 0;
  bool after_run = false;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    bool tile_op = mlirOperationGetNumResults(op) == 1 && is_tile(mlirOperationGetResult(op, 0));
    if (wsOperationIsA(op, "dot")) {
      MlirValue p = mlirOperationGetResult(op, 0);
      if (!ws_is_zero_splat(mlirOperationGetOperand(op, 2)))
        return 0; /* accumulates in wgmma: nothing to promote */
      if (!used_by_math_only(p, body)) {
        snprintf(why, cap, "a product is read other than by the step's math");
        return 0;
      }
      products++;
      values += 2 * values_per_thread(p, threads);
      after_run = true;
    } else if (!after_run && tile_op && !wsOperationIsA(op, "load") && !ws_is_splat_tile(op) &&
               ws_feeds_dot(op)) {
      snprintf(why, cap,
               "the step computes a tile its wgmmas read (an A in registers), "
               "which the next step's wgmmas would still read");
      return 0;
    }
  }
  for (intptr_t i = 0; i < mlirOperationGetNumResults(loop); i++) {
    MlirValue acc = mlirOperationGetResult(loop, i);
    if (!is_tile(acc) || mlirShapedTypeGetDimSize(mlirValueGetType(acc), 0) == 1)
      return 0;
    values += values_per_thread(acc, threads);
    carried++;
  }
  if (!products || !carried)
    return 0;
  if (constant_step(loop) <= 0) {
    snprintf(why, cap,
             "the K step is not a constant, and a lagged loop takes two steps "
             "per iteration");
    return 0;
  }
  if (values > LAG_VALUE_BUDGET) {
    snprintf(why, cap,
             "two products and the accumulator would take %lld f32 per consumer "
             "thread, over the %d a lag leaves them (a narrower N tile fits)",
             values, LAG_VALUE_BUDGET);
    return 0;
  }
  snprintf(why, cap,
           "the consumers hold two products and the accumulator, %lld f32 per "
           "thread of %d",
           values, LAG_VALUE_BUDGET);
  return 1;
}

void ws_stage_product_lag(MlirOperation loop) {
  for (MlirOperation op = mlirBlockGetFirstOperation(ws_loop_body(loop)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    bool issued = wsOperationIsA(op, "dot") || (ws_feeds_dot(op) && ws_is_splat_tile(op));
    if (ws_is_step_tile_op(op) && !issued && !ws_op_is(op, "scf.yield"))
      ws_set_op_stage(op, 1);
  }
}
