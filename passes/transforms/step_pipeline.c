/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* step_pipeline.c: whether the consumers of a loop with two runs of
 * ws.dot (attention: S = Q K^T, the softmax, O += P V) issue the next
 * step's first run before this step's second (stage 1 for the second run and the math on
 * its carried product), for
 * ws-partition-schedule.
 *
 * Without it a warpgroup issues S, waits for it, runs the softmax and
 * issues P V: its softmax waits for its own S, and the tensor cores idle
 * for it unless the other warpgroup's wgmmas fill the gap. Pipelined (as
 * FlashAttention-3's intra-warpgroup overlap), step n + 1's S goes out
 * first and step n's P V right behind it, in two commit groups; the
 * warpgroup waits for the older group only (S) and runs step n + 1's
 * softmax while P V runs. The math that reads P V's product (O's rescale)
 * runs in the next iteration, between its S and its P V, under S. Step
 * 0's S and softmax come before the loop and the last step's P V after
 * it. The price is registers: S of step n + 1 and its math are live
 * beside O and beside P of step n, which P V still reads. */
#include <stdio.h>
#include <stdlib.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "ws-c/Dialect.h"
#include "../plan/ws_plan.h"
#include "../support/ws_op_list.h"
#include "../support/ws_pass.h"
#include "../target/ws_target.h"
#include "ws_step_pipeline.h"

/* Registers a consumer thread may give to the carried tiles, two S tiles
 * (one being turned into P), the P that P V reads and a mask, of
 * setmaxnreg's 240. Measured on the H100 (the attention suite's bench):
 * at D = 64 without a mask (192) the pipeline gains 3-5%; with
 * a causal mask (208) it lost 5%, at D = 128 (224) and D = 256 (208)
 * 2-3%: ptxas keeps too few registers for the softmax's temporaries to
 * interleave them (no spills either way). Without turns it gains 10% at
 * D = 128, but turns gain more there. Since masks of index tiles are
 * tested once per tile (uniform_select.c), such a mask holds no
 * registers across the step and is not counted: the causal kernel at
 * D = 64 then gains 5%. */
enum { PIPELINE_VALUE_BUDGET = 192 };

static bool is_tile(MlirValue v) { return mlirTypeIsARankedTensor(mlirValueGetType(v)); }

/* Registers per thread for a tile (narrow values packed, as wgmma's A). */
static long long registers_per_thread(MlirValue tile, int threads) {
  return (long long)ws_tile_bytes(mlirValueGetType(tile)) / 4 / threads;
}

/* True for an operand the first run may read a step early: a tile a
 * ws.load fetches (in the loop or before it) or a splat of zeros. */
static bool early_operand(MlirValue v) {
  if (ws_is_zero_splat(v))
    return true;
  return mlirValueIsAOpResult(v) && wsOperationIsA(mlirOpResultGetOwner(v), "load");
}

/* ws.pipeline on the loop: 1 (true), 0 (false) or -1 (absent). */
static int asked(MlirOperation loop) {
  MlirAttribute a = mlirOperationGetDiscardableAttributeByName(
      loop, mlirStringRefCreateFromCString("ws.pipeline"));
  return mlirAttributeIsNull(a) || !mlirAttributeIsABool(a) ? -1 : mlirBoolAttrGetValue(a);
}

ws_pipeline_choice ws_choose_step_pipeline(const ws_plan *plan, int compute, char *why,
                                           size_t cap) {
  MlirOperation loop = plan->loop;
  const ws_partition *c = &plan->parts[compute];
  int ask = asked(loop);
  ws_pipeline_choice no = ask == 1 ? WS_PIPELINE_REFUSED : WS_PIPELINE_OFF;
  snprintf(why, cap, "%s", "");
  bool lag = ws_loop_stages(loop) > 1; /* the lag, decided first, staged its math */
  if (ws_mma_engine_of(loop)->accumulator != WS_ACC_REGISTERS || c->pingpong || lag ||
      !mlirOperationIsNull(ws_plan_tile_loop(plan)) || ws_loop_dot_runs(loop) != 2) {
    /* said when asked, and for a loop of more runs (an attention
     * backward's), which --ws-explain's remark then names */
    if (ask == 1 || ws_loop_dot_runs(loop) > 2)
      snprintf(why, cap,
               "a pipelined loop has two runs of ws.dot accumulating in registers "
               "(wgmma), outside a persistent tile loop and without a lag; this one "
               "has %d run(s)%s",
               ws_loop_dot_runs(loop),
               !mlirOperationIsNull(ws_plan_tile_loop(plan)) ? " in a persistent tile loop"
               : lag                                         ? " and a lag"
               : ws_mma_engine_of(loop)->accumulator != WS_ACC_REGISTERS
                   ? " accumulating in tensor memory"
                   : "");
    return no;
  }
  if (ask == 0) {
    snprintf(why, cap, "ws.pipeline = false asks for none");
    return WS_PIPELINE_OFF;
  }
  int threads = c->num_warps * 32;
  long long s_values = 0, p_values = 0, mask_values = 0;
  ws_step_walk w = ws_step_walk_begin(loop);
  while (ws_step_next(&w)) {
    MlirOperation op = w.op;
    bool dot = w.dot;
    int run = w.run;
    if (ws_is_splat_tile(op))
      continue; /* rebuilt where it is used: no math of its own */
    if (!dot && run == 1 && mlirOperationGetNumResults(op) == 1) {
      MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
      MlirType e = mlirTypeIsARankedTensor(t) ? mlirShapedTypeGetElementType(t) : t;
      /* a byte per flag, as the register-pressure remark counts it */
      long long regs =
          mlirTypeIsARankedTensor(t) && mlirShapedTypeGetRank(t) == 2
              ? mlirShapedTypeGetDimSize(t, 0) * mlirShapedTypeGetDimSize(t, 1) / 4 / threads
              : 0;
      if (mlirTypeIsAInteger(e) && mlirIntegerTypeGetWidth(e) == 1 && regs > mask_values &&
          !ws_is_index_mask(mlirOperationGetResult(op, 0)))
        mask_values = regs; /* a mask (causal, or a ragged last block) the lowering
                               cannot test once per tile */
    }
    if (!dot && run != 1) {
      snprintf(why, cap, "the step has register math %s its first ws.dot",
               run == 0 ? "before" : "after its last");
      return no;
    }
    if (dot && run == 1) {
      for (int i = 0; i < 3; i++)
        if (!early_operand(mlirOperationGetOperand(op, i))) {
          snprintf(why, cap,
                   "a ws.dot of the step's first run reads operand %d other "
                   "than from a ws.load (or zeros), so it cannot be issued a "
                   "step early",
                   i);
          return no;
        }
      s_values += registers_per_thread(mlirOperationGetResult(op, 0), threads);
    } else if (dot && !early_operand(mlirOperationGetOperand(op, 0))) {
      p_values += registers_per_thread(mlirOperationGetOperand(op, 0), threads);
    }
  }
  long long carried = 0;
  for (intptr_t i = 0; i < mlirOperationGetNumResults(loop); i++)
    if (is_tile(mlirOperationGetResult(loop, i)))
      carried += registers_per_thread(mlirOperationGetResult(loop, i), threads);
  long long values = carried + 2 * s_values + p_values + mask_values;
  char head[240], mask[64] = "";
  if (mask_values)
    snprintf(mask, sizeof mask, " and a mask (%lld)", mask_values);
  snprintf(head, sizeof head,
           "the carried tiles (%lld registers per consumer thread), two S "
           "tiles (%lld each), the P its second run reads from registers "
           "(%lld)%s take %lld",
           carried, s_values, p_values, mask, values);
  /* three warpgroups get 160 registers each, not 240: two thirds */
  bool three = c->num_warps > 8;
  int budget = three ? PIPELINE_VALUE_BUDGET * 2 / 3 : PIPELINE_VALUE_BUDGET;
  int registers = three ? 160 : 240;
  bool fits = values <= budget;
  if (!fits && ask != 1) {
    snprintf(why, cap,
             "%s, over the %d of setmaxnreg's %d that leave ptxas room to "
             "interleave the math (ws.pipeline = true asks for it all the same)",
             head, budget, registers);
    return WS_PIPELINE_OFF;
  }
  snprintf(why, cap,
           "%s, %s the %d of setmaxnreg's %d that leave ptxas room to interleave "
           "the math%s",
           head, fits ? "within" : "over", budget, registers,
           ask == 1 ? "; ws.pipeline = true asks for it" : "");
  return WS_PIPELINE_ON;
}

/* True for math that is as cheap to redo where it is used as to carry:
 * a ws.broadcast of a row vector, an index tile, a splat. */
static bool rebuilt_where_used(MlirOperation op) {
  return wsOperationIsA(op, "broadcast") || wsOperationIsA(op, "iota") || ws_is_splat_tile(op);
}

/* True when v is late: a carried tile the second run makes (late_arg) or
 * a result of a stage-1 op of the body. */
static bool is_late_value(MlirValue v, MlirBlock body, const bool *late_arg) {
  if (mlirValueIsAOpResult(v)) {
    MlirOperation def = mlirOpResultGetOwner(v);
    return mlirBlockEqual(mlirOperationGetBlock(def), body) && ws_op_stage(def) == 1;
  }
  intptr_t i = mlirBlockArgumentGetArgNumber(v);
  return mlirBlockEqual(mlirBlockArgumentGetOwner(v), body) && i > 0 && late_arg[i - 1];
}

/* True when every user of op's one result is a late op with results
 * (not a ws.dot), and it has one. */
static bool only_late_users(MlirOperation op) {
  bool any = false;
  for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, 0));
       !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    if (!mlirOperationGetNumResults(user) || wsOperationIsA(user, "dot") || ws_op_stage(user) != 1)
      return false;
    any = true;
  }
  return any;
}

void ws_stage_step_pipeline(MlirOperation loop) {
  MlirBlock body = ws_loop_body(loop);
  MlirOperation yield = mlirBlockGetTerminator(body);
  intptr_t carried = mlirOperationGetNumOperands(yield);
  bool *late_arg = ws_zalloc((size_t)carried, sizeof *late_arg);
  ws_op_list second = {0};
  ws_step_walk w = ws_step_walk_begin(loop);
  while (ws_step_next(&w))
    if (w.dot && w.run == 2)
      ws_op_list_push(&second, w.op);
  for (intptr_t i = 0; i < carried; i++) {
    MlirValue v = mlirOperationGetOperand(yield, i);
    for (long k = 0; k < second.len && mlirValueIsAOpResult(v); k++)
      late_arg[i] |= mlirOperationEqual(mlirOpResultGetOwner(v), second.items[k]);
  }
  ws_op_list ops = {0};
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationEqual(op, yield);
       op = mlirOperationGetNextInBlock(op)) {
    ws_op_list_push(&ops, op);
    bool reads = false;
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(op) && !reads; i++)
      reads = is_late_value(mlirOperationGetOperand(op, i), body, late_arg);
    if (reads && mlirOperationGetNumResults(op))
      ws_set_op_stage(op, 1);
  }
  for (long k = ops.len; k-- > 0;) { /* users come after: one backward pass */
    MlirOperation op = ops.items[k];
    if (mlirOperationGetNumResults(op) == 1 && rebuilt_where_used(op) && ws_op_stage(op) != 1 &&
        only_late_users(op))
      ws_set_op_stage(op, 1);
  }
  ws_op_list_free(&ops);
  ws_op_list_free(&second);
  free(late_arg);
}
