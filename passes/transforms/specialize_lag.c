/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* specialize_lag.c: a lagged K loop (two stages, ws.stage): a step's math on fresh products
 * runs under the next step's wgmmas.
 * Part of ws-specialize (specialize.c). */
#include "specialize_internal.h"

/* ---- a lagged K loop (two stages, ws.stage) ---------------------------------------
 *
 * The consumers issue a step's wgmmas (into one of two products) and run
 * the math of the step before while the tensor cores run them. One
 * iteration runs two steps, each product in registers of its own:
 *
 *   scf.for %k = lb to ub step 2 s iter_args(n, accs, %pb, %kb, %real) {
 *     wait full(n); ws.mma (slot n) -> %pa; commit; wait_group 1
 *     scf.if n > start { step n - 1's math on ws.mma_done %pb at %kb,
 *                        reading slot n - 1; release slot n - 1 }
 *     wait full(n + 1); ws.mma (slot n + 1) -> %pb'; commit; wait_group 1
 *     step n's math on ws.mma_done %pa at %k, reading slot n; release slot n
 *     wait_group 0
 *     yield n + 2, accs, %pb', k + s, k + s < ub
 *   }
 *   scf.if n > start { read slot n - 1; scf.if %real { its math }; release }
 *
 * Every wgmma is retired before the iteration ends: ptxas serializes every
 * wgmma of a kernel (C7514) whose loop reads, as %pb, registers a wgmma
 * still in flight from the previous iteration writes, even once a
 * wait_group has retired it. So step n + 1's wgmmas drain at the end of
 * the iteration, and step n - 1's math overlaps step n's wgmmas instead.
 * (The wait_group 1 after step n's wgmmas retires nothing, but without it
 * ptxas waits for them before the math reads %pb: C7517.)
 *
 * Step n + 1 is a phantom when the steps are odd in number: the load warp
 * fills its slot with zeros from past the tensor, and %real = false skips
 * its math (which might not take zeros gracefully); its slot is released
 * all the same. */

/* The step's last ws.dot: the math on its products comes after it. */
static MlirOperation last_dot(MlirOperation loop) {
  MlirOperation last = {NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(ws_loop_body(loop)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (wsOperationIsA(op, "dot"))
      last = op;
  return last;
}

/* The tiles a step reads from the rings are read anew for another step. */
void spec_forget_ring_reads(specializer *S, value_map *m) {
  for (int r = 0; r < S->plan->num_rings; r++)
    if (!mlirOperationIsNull(S->plan->rings[r].producer)) {
      MlirValue v = mlirOperationGetResult(S->plan->rings[r].producer, 0);
      spec_map_put(m, v, v);
    }
}

/* One step's wgmmas: wait for slot n, then the partition's ops up to the
 * last ws.dot at k (scalars and the splats a dot reads cloned, each ws.dot
 * a ws.mma on the slot into its fresh product, products[i]; the math
 * waits for math_step), then commit. Returns the slot, or null after an
 * error. */
static MlirValue issue_step(specializer *S, ws_builder *b, value_map *m, int part, int in,
                            MlirValue n, MlirValue *products) {
  MlirOperation stop = last_dot(S->plan->loop);
  MlirValue slot, phase;
  spec_slot_phase(S, b, n, in, S->plan->channels[in].consumer_phase, &slot, &phase);
  spec_wait_barrier(S, b, in, true, slot, phase);
  ws_build_void(b, "nvvm.wgmma.fence.aligned", 0, NULL, 0, NULL);
  int k = 0;
  for (MlirOperation op = spec_first_tile_op(S, b, m, part); !mlirOperationIsNull(op);
       op = spec_after(S, b, m, op, part)) {
    if (!wsOperationIsA(op, "dot")) {
      if (ws_feeds_dot(op))
        spec_clone_mapped(b, op, m); /* a splat */
      continue;
    }
    if (!spec_emit_mma(S, b, m, op, slot))
      return (MlirValue){NULL};
    products[k++] = spec_map_get(m, mlirOperationGetResult(op, 0));
    if (mlirOperationEqual(op, stop))
      break;
  }
  ws_build_void(b, "nvvm.wgmma.commit.group.sync.aligned", 0, NULL, 0, NULL);
  return slot;
}

/* The ring tiles a step's math reads, read from `slot` (mapped). */
static void read_math_operands(specializer *S, ws_builder *b, value_map *m, int part, int in,
                               MlirValue slot) {
  for (MlirOperation op = mlirBlockGetFirstOperation(ws_loop_body(S->plan->loop));
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (spec_in_partition(S, op, part) && !wsOperationIsA(op, "dot"))
      spec_read_ring_operands(S, b, m, op, in, slot);
}

/* The products of a step whose wgmmas a wait retired, each through
 * ws.mma_done (the math reads what it returns), into ready[]. */
static void products_done(ws_builder *b, int num, const MlirValue *products, MlirValue *ready) {
  for (int i = 0; i < num; i++)
    ready[i] =
        ws_build_value(b, "ws.mma_done", 1, &products[i], mlirValueGetType(products[i]), 0, NULL);
}

/* One step's math at k on its ready products: the partition's scalars at
 * k, then every op but the ws.dots (math before them, such as a block
 * scale's, and after them), reading ring tiles from `slot` where not
 * already read; accs (the carried tiles) in and out. */
static void math_step(specializer *S, ws_builder *b, value_map *m, int part, int in, MlirValue k,
                      MlirValue slot, const MlirValue *products, MlirValue *accs) {
  MlirOperation loop = S->plan->loop;
  MlirBlock src = ws_loop_body(loop);
  spec_map_put(m, mlirBlockGetArgument(src, 0), k);
  int carried = (int)mlirOperationGetNumResults(loop);
  for (int i = 0; i < carried; i++)
    spec_map_put(m, mlirBlockGetArgument(src, 1 + i), accs[i]);
  int j = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(src); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (wsOperationIsA(op, "dot"))
      spec_map_put(m, mlirOperationGetResult(op, 0), products[j++]);
  for (MlirOperation op = spec_first_tile_op(S, b, m, part); !mlirOperationIsNull(op);
       op = spec_after(S, b, m, op, part)) {
    if (wsOperationIsA(op, "dot"))
      continue;
    spec_read_ring_operands(S, b, m, op, in, slot);
    spec_clone_mapped(b, op, m);
  }
  MlirOperation yield = mlirBlockGetTerminator(src);
  for (int i = 0; i < carried; i++)
    accs[i] = spec_map_get(m, mlirOperationGetOperand(yield, i));
}

/* Step `n`'s slot back to the load warp (its wgmmas and reads are done). */
void spec_release_slot(specializer *S, ws_builder *b, int in, MlirValue n) {
  MlirValue slot;
  spec_slot_phase(S, b, n, in, S->plan->channels[in].consumer_phase, &slot, NULL);
  if (S->plan->channels[in].release_fence)
    spec_fence_async_shared(b);
  spec_arrive(S, b, in, false, slot);
}

/* scf.if cond -> (types of accs): the then block's builder in *then_b and
 * the else block already yielding accs; the caller ends the then block. */
static MlirOperation if_accs(ws_builder *b, MlirValue cond, int num, const MlirValue *accs,
                             MlirBlock *then_block, ws_builder *then_b) {
  MlirType *types = ws_zalloc((size_t)num, sizeof *types);
  for (int i = 0; i < num; i++)
    types[i] = mlirValueGetType(accs[i]);
  MlirBlock else_block;
  MlirOperation op = ws_build_if_values(b, cond, num, types, then_block, &else_block);
  free(types);
  ws_build_terminator(else_block, b->loc, "scf.yield", num, accs);
  *then_b = ws_builder_at_end(*then_block, b->loc);
  return op;
}

/* The values a lagged loop handles, as many as it carries and makes: its
 * iter args (init, next: the count, the accumulators, the odd steps'
 * products, their k, whether real), each step's products (prod_a, prod_b,
 * ready) and accumulators (accs, step_accs). */
typedef struct lag_values {
  MlirValue *init, *next, *prod_a, *prod_b, *ready, *accs, *step_accs;
} lag_values;

static MlirValue lagged_k_loop(specializer *S, ws_builder *at, value_map *m, int part, int in,
                               MlirValue start, int np, const lag_values *v);

/* The lagged K loop of the consumers (see above), counting from `start`;
 * maps the source loop's results and returns the count after it, or null
 * after an error. */
MlirValue spec_emit_lagged_k_loop(specializer *S, ws_builder *at, value_map *m, int part, int in,
                                  MlirValue start) {
  MlirOperation loop = S->plan->loop;
  int carried = (int)mlirOperationGetNumResults(loop);
  int np = ws_count_ops(ws_loop_body(loop), "ws.dot", &(MlirOperation){NULL});
  int args = 1 + carried + np + 2;
  MlirValue *all = spec_values(2 * args + 3 * np + 2 * carried);
  lag_values v = {all,
                  all + args,
                  all + 2 * args,
                  all + 2 * args + np,
                  all + 2 * args + 2 * np,
                  all + 2 * args + 3 * np,
                  all + 2 * args + 3 * np + carried};
  MlirValue count = lagged_k_loop(S, at, m, part, in, start, np, &v);
  free(all);
  return count;
}

static MlirValue lagged_k_loop(specializer *S, ws_builder *at, value_map *m, int part, int in,
                               MlirValue start, int np, const lag_values *v) {
  MlirOperation loop = S->plan->loop;
  MlirBlock src = ws_loop_body(loop);
  int carried = (int)mlirOperationGetNumResults(loop);
  MlirValue *init = v->init, *prod_a = v->prod_a, *prod_b = v->prod_b;
  np = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(src); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (wsOperationIsA(op, "dot"))
      prod_b[np++] = spec_map_get(m, mlirOperationGetOperand(op, 2)); /* its zeros */
  /* iter args: n, accs, the odd steps' products, their k, whether real */
  int nv = 0;
  init[nv++] = start;
  for (int i = 0; i < carried; i++)
    init[nv++] = spec_map_get(m, mlirOperationGetOperand(loop, 3 + i));
  for (int i = 0; i < np; i++)
    init[nv++] = prod_b[i];
  init[nv++] = spec_map_get(m, mlirOperationGetOperand(loop, 0));
  init[nv++] = ws_const_int(at, 0, mlirIntegerTypeGet(S->ctx, 1));
  MlirBlock body;
  ws_builder here = spec_at_loop_of(at, loop);
  MlirOperation copy = ws_build_for(&here, spec_map_get(m, mlirOperationGetOperand(loop, 0)),
                                    spec_map_get(m, mlirOperationGetOperand(loop, 1)), S->pair_step,
                                    nv, init, &body);
  ws_builder b = ws_builder_at_end(body, at->loc);
  MlirValue k = mlirBlockGetArgument(body, 0), n = mlirBlockGetArgument(body, 1);
  MlirValue *accs = v->accs;
  for (int i = 0; i < carried; i++)
    accs[i] = mlirBlockGetArgument(body, 2 + i);
  for (int i = 0; i < np; i++)
    prod_b[i] = mlirBlockGetArgument(body, 2 + carried + i);
  MlirValue k_b = mlirBlockGetArgument(body, 2 + carried + np);
  MlirValue iv = mlirBlockGetArgument(src, 0);
  /* step n: its wgmmas, then step n - 1's math */
  spec_map_put(m, iv, k);
  MlirValue slot_a = issue_step(S, &b, m, part, in, n, prod_a);
  if (mlirValueIsNull(slot_a))
    return slot_a;
  spec_wgmma_wait(&b, 1); /* retires nothing (%pb is done), but ends ptxas's stage */
  MlirBlock then_block;
  ws_builder t;
  MlirOperation first = if_accs(&b, ws_cmpi(&b, "ugt", n, start), carried, accs, &then_block, &t);
  MlirValue prev = ws_arith(&t, "arith.subi", n, spec_c32(&t, 1)), prev_slot;
  spec_slot_phase(S, &t, prev, in, S->plan->channels[in].consumer_phase, &prev_slot, NULL);
  spec_forget_ring_reads(S, m);
  MlirValue *step_accs = v->step_accs, *ready = v->ready;
  memcpy(step_accs, accs, sizeof(MlirValue) * (size_t)carried);
  products_done(&t, np, prod_b, ready);
  math_step(S, &t, m, part, in, k_b, prev_slot, ready, step_accs);
  spec_release_slot(S, &t, in, prev);
  ws_build_terminator(then_block, b.loc, "scf.yield", carried, step_accs);
  for (int i = 0; i < carried; i++)
    accs[i] = mlirOperationGetResult(first, i);
  /* step n + 1: its wgmmas, then step n's math */
  spec_map_put(m, iv, k);
  MlirValue n1 = spec_second_step(S, &b, m, n), k1 = spec_map_get(m, iv);
  if (mlirValueIsNull(issue_step(S, &b, m, part, in, n1, prod_b)))
    return (MlirValue){NULL};
  spec_wgmma_wait(&b, 1);
  spec_forget_ring_reads(S, m);
  products_done(&b, np, prod_a, ready);
  math_step(S, &b, m, part, in, k, slot_a, ready, accs);
  spec_release_slot(S, &b, in, n);
  spec_wgmma_wait(&b, 0); /* nothing in flight across the back edge */
  MlirValue *next = v->next;
  nv = 0;
  next[nv++] = ws_arith(&b, "arith.addi", n, spec_c32(&b, 2));
  for (int i = 0; i < carried; i++)
    next[nv++] = accs[i];
  for (int i = 0; i < np; i++)
    next[nv++] = prod_b[i];
  next[nv++] = k1;
  next[nv++] = ws_cmpi(&b, "slt", k1, spec_map_get(m, mlirOperationGetOperand(loop, 1)));
  ws_build_terminator(body, b.loc, "scf.yield", nv, next);
  /* after the loop: the last odd step's math, if it was real */
  MlirValue count = mlirOperationGetResult(copy, 0);
  for (int i = 0; i < carried; i++)
    accs[i] = mlirOperationGetResult(copy, 1 + i);
  for (int i = 0; i < np; i++)
    prod_b[i] = mlirOperationGetResult(copy, 1 + carried + i);
  MlirValue k_last = mlirOperationGetResult(copy, 1 + carried + np);
  MlirValue real = mlirOperationGetResult(copy, 2 + carried + np);
  MlirOperation last =
      if_accs(at, ws_cmpi(at, "ugt", count, start), carried, accs, &then_block, &t);
  prev = ws_arith(&t, "arith.subi", count, spec_c32(&t, 1));
  spec_slot_phase(S, &t, prev, in, S->plan->channels[in].consumer_phase, &prev_slot, NULL);
  spec_forget_ring_reads(S, m);
  /* the slot's reads and ws.mma_done are protocol: outside %real's if */
  read_math_operands(S, &t, m, part, in, prev_slot);
  products_done(&t, np, prod_b, ready);
  MlirBlock math_block;
  ws_builder mb;
  MlirOperation odd = if_accs(&t, real, carried, accs, &math_block, &mb);
  memcpy(step_accs, accs, sizeof(MlirValue) * (size_t)carried);
  math_step(S, &mb, m, part, in, k_last, prev_slot, ready, step_accs);
  ws_build_terminator(math_block, b.loc, "scf.yield", carried, step_accs);
  for (int i = 0; i < carried; i++)
    step_accs[i] = mlirOperationGetResult(odd, i);
  spec_release_slot(S, &t, in, prev);
  ws_build_terminator(then_block, b.loc, "scf.yield", carried, step_accs);
  for (int i = 0; i < carried; i++)
    spec_map_put(m, mlirOperationGetResult(loop, i), mlirOperationGetResult(last, i));
  return count;
}
