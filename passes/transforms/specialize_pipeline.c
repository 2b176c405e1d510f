/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* specialize_pipeline.c: a pipelined loop (two stages, ws.stage): the next step's first
 * ws.dot issued before this step's math.
 * Part of ws-specialize (specialize.c). */
#include "specialize_internal.h"

/* ---- a pipelined loop (two stages, ws.stage) ------------------------------
 *
 * A step with two runs of ws.dot (S = Q K^T; the math; O += P V) runs
 * rotated, so that a warpgroup's softmax of step n + 1 runs while the
 * tensor cores run its P V of step n (FlashAttention-3's intra-warpgroup
 * overlap). The step's math splits in two: the late math reads the second
 * run's product carried from the step before (O's rescale), directly or
 * through other math; the early math is the rest (the softmax).
 *
 *   scf.if lb < ub {
 *     wait full(start); ws.mma S (slot start); commit; wait_group 0
 *     step 0's early math on ws.mma_done S
 *     scf.for %k = lb + s to ub step s iter_args(n = start, X) {
 *       wait full(n + 1); ws.mma S (slot n + 1); commit
 *       step n's late math; fence; ws.mma P V (slot n, X); commit
 *       wait_group 1; step n + 1's early math on ws.mma_done S
 *       wait_group 0; release slot n; P V's product through ws.mma_done
 *       yield n + 1, X of step n + 1
 *     }
 *     the last step's late math; ws.mma P V (its slot); commit;
 *     wait_group 0; release it
 *   }
 *
 * X are the tiles a step's late math, second run or yield read from its
 * early math or its carried tiles (P, O, the row statistics and the
 * rescale factor). The late math runs under S's wgmmas, as it does in
 * FlashAttention-3. Consumers that take turns make S of step n + 1, the
 * late math and P V of step n one turn. Nothing is in flight across the
 * back edge. */

/* The ws.dot ops of a step's first and second run (as many as it has). */
typedef struct step_runs {
  MlirOperation *first, *second;
  int num_first, num_second;
} step_runs;

static bool in_ops(const MlirOperation *ops, int n, MlirOperation op) {
  for (int i = 0; i < n; i++)
    if (mlirOperationEqual(ops[i], op))
      return true;
  return false;
}

/* Reads the two runs off the loop body (ws_loop_dot_runs's order). */
static bool read_step_runs(MlirOperation loop, step_runs *r) {
  r->num_first = r->num_second = 0;
  int dots = ws_count_ops(ws_loop_body(loop), "ws.dot", &(MlirOperation){NULL});
  r->first = ws_zalloc((size_t)dots, sizeof *r->first);
  r->second = ws_zalloc((size_t)dots, sizeof *r->second);
  ws_step_walk w = ws_step_walk_begin(loop);
  while (ws_step_next(&w)) {
    if (!w.dot)
      continue;
    MlirOperation op = w.op;
    int run = w.run;
    if (run > 2)
      return false;
    if (run == 1)
      r->first[r->num_first++] = op;
    else
      r->second[r->num_second++] = op;
  }
  return r->num_first && r->num_second;
}

/* Issues one run's ws.dot ops as ws.mma on `slot` (the splats they read
 * cloned on the way); the results are mapped. */
static bool issue_run(specializer *S, ws_builder *b, value_map *m, int part,
                      const MlirOperation *dots, int num, MlirValue slot) {
  for (MlirOperation op = spec_first_tile_op(S, b, m, part); !mlirOperationIsNull(op);
       op = spec_after(S, b, m, op, part)) {
    if (!wsOperationIsA(op, "dot")) {
      if (ws_feeds_dot(op) && ws_is_splat_tile(op))
        spec_clone_mapped(b, op, m);
      continue;
    }
    if (in_ops(dots, num, op) && !spec_emit_mma(S, b, m, op, slot))
      return false;
  }
  return true;
}

/* Each run's product through ws.mma_done, once a wait retired it. */
static void run_done(ws_builder *b, value_map *m, const MlirOperation *dots, int num) {
  for (int i = 0; i < num; i++) {
    MlirValue src = mlirOperationGetResult(dots[i], 0), p = spec_map_get(m, src);
    spec_map_put(m, src, ws_build_value(b, "ws.mma_done", 1, &p, mlirValueGetType(p), 0, NULL));
  }
}

/* True when v is a result of one of the second run's ws.dot ops. */
static bool from_second_run(const step_runs *r, MlirValue v) {
  return mlirValueIsAOpResult(v) && in_ops(r->second, r->num_second, mlirOpResultGetOwner(v));
}

static bool marked(const value_map *set, MlirValue v) {
  return set->cap && spec_map_find(set, v)->from.ptr;
}

/* The late values, from the stages ws-partition-schedule wrote
 * (ws_stage_step_pipeline): the carried tiles the second run yields (O)
 * and every result of a stage-1 op, each mapped to itself in `late`. */
static void late_values(const specializer *S, const step_runs *r, value_map *late) {
  MlirBlock body = ws_loop_body(S->plan->loop);
  MlirOperation yield = mlirBlockGetTerminator(body);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(yield); i++)
    if (from_second_run(r, mlirOperationGetOperand(yield, i)))
      spec_map_put(late, mlirBlockGetArgument(body, 1 + i), mlirBlockGetArgument(body, 1 + i));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    for (intptr_t i = 0; ws_op_stage(op) == 1 && i < mlirOperationGetNumResults(op); i++)
      spec_map_put(late, mlirOperationGetResult(op, i), mlirOperationGetResult(op, i));
}

static bool is_late(const value_map *late, MlirOperation op) {
  return mlirOperationGetNumResults(op) && marked(late, mlirOperationGetResult(op, 0));
}

/* The step's early or late math (every tile op but the ws.dots), reading
 * ring tiles from `slot` where not already read. */
static void emit_step_math(specializer *S, ws_builder *b, value_map *m, int part, int in,
                           MlirValue slot, const value_map *late, bool late_part) {
  for (MlirOperation op = spec_first_tile_op(S, b, m, part); !mlirOperationIsNull(op);
       op = spec_after(S, b, m, op, part)) {
    if (wsOperationIsA(op, "dot") || is_late(late, op) != late_part)
      continue;
    spec_read_ring_operands(S, b, m, op, in, slot);
    spec_clone_mapped(b, op, m);
  }
}

/* Adds v to xs (X above) when it is a tile of the step (the early math's,
 * the first run's or a carried one) and not there yet; false when xs is
 * full. */
static bool add_step_input(const step_runs *r, const value_map *late, MlirBlock body, MlirValue v,
                           MlirValue *xs, int cap, int *num) {
  if (!mlirTypeIsARankedTensor(mlirValueGetType(v)) || from_second_run(r, v))
    return true;
  if (mlirValueIsAOpResult(v)) {
    MlirOperation def = mlirOpResultGetOwner(v);
    if (!mlirBlockEqual(mlirOperationGetBlock(def), body) || is_late(late, def) ||
        wsOperationIsA(def, "load") || ws_is_splat_tile(def))
      return true; /* from outside, rebuilt, or read from its slot by the ws.mma */
  } else if (!mlirBlockEqual(mlirBlockArgumentGetOwner(v), body)) {
    return true;
  }
  for (int j = 0; j < *num; j++)
    if (mlirValueEqual(xs[j], v))
      return true;
  if (*num == cap)
    return false;
  xs[(*num)++] = v;
  return true;
}

/* X: what the late math, the second run and the yield read from the rest
 * of the step; false when there are more than `cap`. */
static bool collect_step_inputs(const step_runs *r, const value_map *late, MlirOperation loop,
                                MlirValue *xs, int cap, int *num) {
  MlirBlock body = ws_loop_body(loop);
  *num = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    bool reader =
        ws_op_is(op, "scf.yield") || in_ops(r->second, r->num_second, op) || is_late(late, op);
    for (intptr_t i = 0; reader && i < mlirOperationGetNumOperands(op); i++)
      if (!add_step_input(r, late, body, mlirOperationGetOperand(op, i), xs, cap, num))
        return false;
  }
  return true;
}

/* The yield's values of the step the map holds, into out[]. */
static void step_results(specializer *S, value_map *m, MlirValue *out) {
  MlirOperation yield = mlirBlockGetTerminator(ws_loop_body(S->plan->loop));
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(yield); i++)
    out[i] = spec_map_get(m, mlirOperationGetOperand(yield, i));
}

/* A step's late math, then its second run on `slot` (fenced: the late
 * math wrote registers its wgmmas read), committed. */
static bool late_math_and_second_run(specializer *S, ws_builder *b, value_map *m, int part, int in,
                                     MlirValue slot, const value_map *late, const step_runs *r) {
  spec_forget_ring_reads(S, m);
  emit_step_math(S, b, m, part, in, slot, late, true);
  ws_build_void(b, "nvvm.wgmma.fence.aligned", 0, NULL, 0, NULL);
  bool ok = issue_run(S, b, m, part, r->second, r->num_second, slot);
  ws_build_void(b, "nvvm.wgmma.commit.group.sync.aligned", 0, NULL, 0, NULL);
  return ok;
}

/* The values a pipelined loop handles, room for `cap` each (the loop's
 * carried values and one per op of its body: every tile X may be): X
 * (xs), the scf.if's values and types (vals, types), the loop's iter args
 * (init, next). */
typedef struct pipe_values {
  MlirValue *xs, *vals, *init, *next;
  MlirType *types;
  int cap;
} pipe_values;

static MlirValue pipelined_k_loop(specializer *S, ws_builder *at, value_map *m, int part, int in,
                                  MlirValue start, const turn_order *turns, const pipe_values *v);

/* The pipelined loop of the consumers (see above), counting from `start`;
 * maps the source loop's results and returns the count after it, or null
 * after an error. */
MlirValue spec_emit_pipelined_k_loop(specializer *S, ws_builder *at, value_map *m, int part, int in,
                                     MlirValue start, const turn_order *turns) {
  MlirOperation loop = S->plan->loop;
  int cap = (int)mlirOperationGetNumResults(loop) + 2;
  for (MlirOperation op = mlirBlockGetFirstOperation(ws_loop_body(loop)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    cap++;
  MlirValue *all = spec_values(4 * cap);
  MlirType *types = ws_zalloc((size_t)cap, sizeof *types);
  pipe_values v = {all, all + cap, all + 2 * cap, all + 3 * cap, types, cap};
  MlirValue count = pipelined_k_loop(S, at, m, part, in, start, turns, &v);
  free(all);
  free(types);
  return count;
}

static MlirValue pipelined_k_loop(specializer *S, ws_builder *at, value_map *m, int part, int in,
                                  MlirValue start, const turn_order *turns, const pipe_values *v) {
  MlirOperation loop = S->plan->loop;
  MlirBlock src = ws_loop_body(loop);
  MlirValue iv = mlirBlockGetArgument(src, 0);
  int carried = (int)mlirOperationGetNumResults(loop), nx = 0;
  step_runs r = {0};
  value_map late = {0};
  MlirValue *xs = v->xs, *vals = v->vals;
  bool ok = read_step_runs(loop, &r);
  if (ok)
    late_values(S, &r, &late);
  if (!ok || !collect_step_inputs(&r, &late, loop, xs, v->cap - 1, &nx)) {
    spec_map_free(&late);
    free(r.first);
    free(r.second);
    ws_emit_op_error(loop, "cannot be pipelined: it needs two runs of ws.dot a step");
    return (MlirValue){NULL};
  }
  MlirValue lb = spec_map_get(m, mlirOperationGetOperand(loop, 0));
  MlirValue ub = spec_map_get(m, mlirOperationGetOperand(loop, 1));
  MlirValue step = mlirOperationGetOperand(loop, 2);
  /* scf.if lb < ub -> (count, the loop's results) */
  MlirType *types = v->types;
  types[0] = S->i32;
  vals[0] = start;
  for (int i = 0; i < carried; i++) {
    types[1 + i] = mlirValueGetType(mlirOperationGetResult(loop, i));
    vals[1 + i] = spec_map_get(m, mlirOperationGetOperand(loop, 3 + i));
  }
  MlirBlock then_block, else_block;
  MlirOperation any = ws_build_if_values(at, ws_cmpi(at, "slt", lb, ub), 1 + carried, types,
                                         &then_block, &else_block);
  ws_build_terminator(else_block, at->loc, "scf.yield", 1 + carried, vals);
  ws_builder t = ws_builder_at_end(then_block, at->loc);
  /* step 0: S, then its early math */
  spec_map_put(m, iv, lb);
  for (int i = 0; i < carried; i++)
    spec_map_put(m, mlirBlockGetArgument(src, 1 + i), vals[1 + i]);
  MlirValue slot, phase;
  spec_slot_phase(S, &t, start, in, S->plan->channels[in].consumer_phase, &slot, &phase);
  spec_wait_barrier(S, &t, in, true, slot, phase);
  ws_build_void(&t, "nvvm.wgmma.fence.aligned", 0, NULL, 0, NULL);
  ok = issue_run(S, &t, m, part, r.first, r.num_first, slot);
  ws_build_void(&t, "nvvm.wgmma.commit.group.sync.aligned", 0, NULL, 0, NULL);
  if (turns->ch >= 0)
    spec_end_turn(S, &t, turns, spec_turn_at(&t, turns, start, 0));
  spec_wgmma_wait(&t, 0);
  run_done(&t, m, r.first, r.num_first);
  spec_forget_ring_reads(S, m);
  emit_step_math(S, &t, m, part, in, slot, &late, false);
  /* the loop: S of step n + 1, step n's late math and P V, step n + 1's
   * early math */
  MlirValue *init = v->init;
  init[0] = start;
  for (int i = 0; i < nx; i++)
    init[1 + i] = spec_map_get(m, xs[i]);
  MlirBlock body;
  MlirOperation copy =
      ws_build_for(&t, ws_arith(&t, "arith.addi", lb, step), ub, step, 1 + nx, init, &body);
  ws_builder b = ws_builder_at_end(body, at->loc);
  MlirValue n = mlirBlockGetArgument(body, 1), n1 = ws_arith(&b, "arith.addi", n, spec_c32(&b, 1));
  spec_map_put(m, iv, mlirBlockGetArgument(body, 0));
  if (turns->ch >= 0)
    spec_take_turn_after(S, &b, turns, spec_turn_at(&b, turns, n1, 0));
  MlirValue next_slot, prev_slot;
  spec_slot_phase(S, &b, n1, in, S->plan->channels[in].consumer_phase, &next_slot, &phase);
  spec_wait_barrier(S, &b, in, true, next_slot, phase);
  ws_build_void(&b, "nvvm.wgmma.fence.aligned", 0, NULL, 0, NULL);
  ok = ok && issue_run(S, &b, m, part, r.first, r.num_first, next_slot);
  ws_build_void(&b, "nvvm.wgmma.commit.group.sync.aligned", 0, NULL, 0, NULL);
  for (int i = 0; i < nx; i++)
    spec_map_put(m, xs[i], mlirBlockGetArgument(body, 2 + i));
  spec_slot_phase(S, &b, n, in, S->plan->channels[in].consumer_phase, &prev_slot, NULL);
  ok = ok && late_math_and_second_run(S, &b, m, part, in, prev_slot, &late, &r);
  if (turns->ch >= 0)
    spec_end_turn(S, &b, turns, spec_turn_at(&b, turns, n1, 0));
  /* step n + 1's carried tiles: step n's yield (P V's products pending) */
  MlirValue *next = v->next;
  step_results(S, m, next);
  spec_wgmma_wait(&b, 1);
  run_done(&b, m, r.first, r.num_first);
  MlirOperation yield = mlirBlockGetTerminator(src);
  for (int i = 0; i < carried; i++)
    spec_map_put(m, mlirBlockGetArgument(src, 1 + i), next[i]);
  spec_forget_ring_reads(S, m);
  emit_step_math(S, &b, m, part, in, next_slot, &late, false);
  spec_wgmma_wait(&b, 0);
  spec_release_slot(S, &b, in, n);
  run_done(&b, m, r.second, r.num_second);
  for (int i = 0; i < carried; i++)
    if (from_second_run(&r, mlirOperationGetOperand(yield, i)))
      spec_map_put(m, mlirBlockGetArgument(src, 1 + i),
                   spec_map_get(m, mlirOperationGetOperand(yield, i)));
  next[0] = n1;
  for (int i = 0; i < nx; i++)
    next[1 + i] = spec_map_get(m, xs[i]);
  ws_build_terminator(body, b.loc, "scf.yield", 1 + nx, next);
  /* the last step's late math and P V */
  MlirValue last = mlirOperationGetResult(copy, 0);
  spec_map_put(m, iv, lb); /* scalars the walks clone on the way, unused */
  for (int i = 0; i < nx; i++)
    spec_map_put(m, xs[i], mlirOperationGetResult(copy, 1 + i));
  if (turns->ch >= 0)
    spec_take_turn_after(
        S, &t, turns,
        spec_turn_at(&t, turns, ws_arith(&t, "arith.addi", last, spec_c32(&t, 1)), 0));
  spec_slot_phase(S, &t, last, in, S->plan->channels[in].consumer_phase, &slot, NULL);
  ok = ok && late_math_and_second_run(S, &t, m, part, in, slot, &late, &r);
  spec_wgmma_wait(&t, 0);
  spec_release_slot(S, &t, in, last);
  run_done(&t, m, r.second, r.num_second);
  vals[0] = ws_arith(&t, "arith.addi", last, spec_c32(&t, 1));
  step_results(S, m, vals + 1);
  ws_build_terminator(then_block, at->loc, "scf.yield", 1 + carried, vals);
  spec_map_free(&late);
  free(r.first);
  free(r.second);
  for (int i = 0; i < carried; i++)
    spec_map_put(m, mlirOperationGetResult(loop, i), mlirOperationGetResult(any, 1 + i));
  return ok ? mlirOperationGetResult(any, 0) : (MlirValue){NULL};
}
