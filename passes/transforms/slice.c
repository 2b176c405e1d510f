/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* slice.c: the second half of the one slicer (rewrite_crossings.c is the
 * first). Once every crossing is protocol ops tagged with their partition,
 * a partition's code is the kernel's partitioned ops with the others'
 * taken out:
 *
 *   walk the ops of the loop's block (its prologue, the loop, its
 *   epilogue), and
 *   - an op tagged with the partition: cloned, its operands through the
 *     partition's value map;
 *   - a loop in which the partition has work (an op that is not index
 *     math, or holds ops): copied with the values it carries that the
 *     partition makes (a carried value whose yield comes from one of its
 *     ops), its body sliced the same way; a loop the rewrite built for
 *     one partition alone (no op in it tagged) is cloned whole like any
 *     of its ops;
 *   - anything else: left out.
 *
 * It knows nothing of kernels. An op that reads a value another partition
 * makes is the rewrite's mistake, refused here by name rather than left to
 * fail in LLVM. Triton's PartitionLoops does the same for its loops (read,
 * not copied). Part of ws-specialize (specialize.c). */
#include "specialize_internal.h"

/* Whether the partition has work in `loop`'s body or a loop in it: a TMA
 * warp that only a row kernel's second pass needs has no copy of the
 * first loop. */
static bool has_work_in(const specializer *S, MlirOperation loop, int part) {
  for (MlirOperation op = mlirBlockGetFirstOperation(ws_loop_body(loop)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (ws_op_is(op, "scf.for") ? has_work_in(S, op, part)
                                : spec_in_partition(S, op, part) &&
                                      (!spec_is_scalar(op) || mlirOperationGetNumRegions(op) > 0))
      return true;
  return false;
}

/* A value another partition makes, which the partition's copy of an op
 * cannot read: the rewrite left a crossing without a channel. */
static bool made_elsewhere(const specializer *S, const value_map *m, MlirValue v, int part) {
  if (!mlirValueIsAOpResult(v) || !mlirValueEqual(spec_map_get(m, v), v))
    return false;
  unsigned mask = ws_op_partitions(S->plan, mlirOpResultGetOwner(v));
  return mask && !((mask >> part) & 1);
}

/* Whether any op in `loop`'s body carries a partition tag: a loop of the
 * kernel's, which the slicer cuts, rather than one the rewrite built for
 * one partition, which it copies whole. */
static bool holds_tagged(const specializer *S, MlirOperation loop) {
  for (MlirOperation op = mlirBlockGetFirstOperation(ws_loop_body(loop)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (ws_op_partitions(S->plan, op))
      return true;
  return false;
}

static void slice_ops(specializer *S, ws_builder *b, value_map *m, MlirOperation op,
                      MlirOperation stop, int part);

/* Whether the partition's copy of `loop` carries value i: its yield comes
 * from the partition's op in the body (or from a loop in it whose copy
 * carries it), or is the body's own argument that the partition reads. */
static bool carries(const specializer *S, MlirOperation loop, intptr_t i, int part) {
  MlirBlock body = ws_loop_body(loop);
  MlirValue y = mlirOperationGetOperand(mlirBlockGetTerminator(body), i);
  if (mlirValueIsAOpResult(y)) {
    MlirOperation def = mlirOpResultGetOwner(y);
    if (!mlirBlockEqual(mlirOperationGetBlock(def), body))
      return false;
    if (ws_op_is(def, "scf.for") && holds_tagged(S, def)) /* a count an inner loop goes on
                                                               with (a tile's K steps) */
      return has_work_in(S, def, part) && carries(S, def, mlirOpResultGetResultNumber(y), part);
    return spec_in_partition(S, def, part);
  }
  for (MlirOpOperand u = mlirValueGetFirstUse(y); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u))
    if (spec_in_partition(S, mlirOpOperandGetOwner(u), part))
      return true;
  return false;
}

/* The partition's copy of `loop`: the values it carries (carries), its
 * body sliced; the kept results mapped for what follows. */
static void slice_loop(specializer *S, ws_builder *b, value_map *m, MlirOperation loop, int part) {
  MlirBlock src = ws_loop_body(loop);
  MlirOperation yield = mlirBlockGetTerminator(src);
  intptr_t carried = mlirOperationGetNumResults(loop), kept = 0;
  intptr_t *which = ws_zalloc((size_t)carried + 1, sizeof *which);
  MlirValue *values = spec_values((int)carried + 1);
  for (intptr_t i = 0; i < carried; i++)
    if (carries(S, loop, i, part)) {
      which[kept] = i;
      values[kept++] = spec_map_get(m, mlirOperationGetOperand(loop, 3 + i));
    }
  MlirBlock body;
  ws_builder here = spec_at_loop_of(b, loop);
  MlirOperation copy =
      ws_build_for(&here, spec_map_get(m, mlirOperationGetOperand(loop, 0)),
                   spec_map_get(m, mlirOperationGetOperand(loop, 1)),
                   spec_map_get(m, mlirOperationGetOperand(loop, 2)), kept, values, &body);
  spec_map_put(m, mlirBlockGetArgument(src, 0), mlirBlockGetArgument(body, 0));
  for (intptr_t k = 0; k < kept; k++)
    spec_map_put(m, mlirBlockGetArgument(src, 1 + which[k]), mlirBlockGetArgument(body, 1 + k));
  ws_builder in = ws_builder_at_end(body, b->loc);
  slice_ops(S, &in, m, mlirBlockGetFirstOperation(src), yield, part);
  for (intptr_t k = 0; k < kept; k++)
    values[k] = spec_map_get(m, mlirOperationGetOperand(yield, which[k]));
  ws_build_terminator(body, b->loc, "scf.yield", kept, values);
  for (intptr_t k = 0; k < kept; k++)
    spec_map_put(m, mlirOperationGetResult(loop, which[k]), mlirOperationGetResult(copy, k));
  free(values);
  free(which);
}

/* The partition's share of the ops [op, stop) of one block, at b. */
static void slice_ops(specializer *S, ws_builder *b, value_map *m, MlirOperation op,
                      MlirOperation stop, int part) {
  for (; !S->failed && !mlirOperationEqual(op, stop); op = mlirOperationGetNextInBlock(op)) {
    if (ws_op_is(op, "scf.for") && (has_work_in(S, op, part) || holds_tagged(S, op))) {
      if (has_work_in(S, op, part))
        slice_loop(S, b, m, op, part);
      continue;
    } /* else a loop of one partition's own, tagged whole (ping-pong's count of K steps) */
    if (!spec_in_partition(S, op, part))
      continue;
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
      if (made_elsewhere(S, m, mlirOperationGetOperand(op, i), part)) {
        ws_emit_op_error(op,
                         "reads operand %d, which partition \"%s\" does not make and no "
                         "channel brings it; this is a defect of ws-specialize",
                         (int)i, S->plan->parts[part].name);
        S->failed = true;
        return;
      }
    spec_clone_mapped(b, op, m);
  }
}

void spec_slice_partition(specializer *S, ws_builder *outer, int part) {
  value_map *m = spec_fresh_map(S);
  MlirOperation tile = ws_plan_tile_loop(S->plan);
  MlirBlock block = mlirOperationGetBlock(mlirOperationIsNull(tile) ? S->plan->loop : tile);
  slice_ops(S, outer, m, mlirBlockGetFirstOperation(block), mlirBlockGetTerminator(block), part);
}
