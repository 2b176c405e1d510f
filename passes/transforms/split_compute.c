/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* split_compute.c: whether an elementwise loop's compute runs as several
 * compute partitions, for ws-partition-schedule.
 *
 * The tile ops of a loop step fall into parts that share no tile: the ops
 * linked by the tiles they read and make (a ws.load with the math that
 * reads it, a ws.store with the math that made its tile). Scalars (the
 * coordinates) link nothing: each partition computes its own. With
 * ws.split_compute = true on the loop, each part that has math gets a
 * compute partition of its own, "compute", "compute1", ..., of
 * ws.num_warps warps each, which waits only for its own tiles and hands
 * off only its own: a part whose loads land late does not hold the others
 * back, and the channels of different parts are never waited for in one
 * program order. The load and store warps stay one each (they issue every
 * part's copies). The price is warps: the block runs every part's warps,
 * and registers are shared out over all of them (ws-insert-barriers).
 *
 * A candidate loop is elementwise, carries nothing and reads only tiles
 * it makes or loads itself: a row kernel's reductions and row vectors
 * stay in one partition, whose warps share the rows. */
#include <stdio.h>
#include <stdlib.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "ws-c/Dialect.h"
#include "../plan/ws_row_kernel.h"
#include "../support/ws_op_list.h"
#include "ws_split_compute.h"

/* ws.split_compute on the loop: 1 (true), 0 (false) or -1 (absent). */
static int asked(MlirOperation loop) {
  MlirAttribute a = mlirOperationGetDiscardableAttributeByName(
      loop, mlirStringRefCreateFromCString("ws.split_compute"));
  return mlirAttributeIsNull(a) || !mlirAttributeIsABool(a) ? -1 : mlirBoolAttrGetValue(a);
}

/* An op of the body, found by address (the body's ops sorted by it). */
typedef struct body_op {
  const void *ptr;
  int index;
} body_op;

static int by_address(const void *a, const void *b) {
  const void *x = ((const body_op *)a)->ptr, *y = ((const body_op *)b)->ptr;
  return x < y ? -1 : x > y;
}

/* The index in the body of the op that defines v, or -1 (an argument, or a
 * value from outside the loop). */
static int defining_index(const body_op *sorted, int n, MlirValue v) {
  if (!mlirValueIsAOpResult(v))
    return -1;
  body_op key = {mlirOpResultGetOwner(v).ptr, 0};
  const body_op *hit = bsearch(&key, sorted, (size_t)n, sizeof key, by_address);
  return hit ? hit->index : -1;
}

/* Union-find root with path halving. */
static int root_of(int *parent, int i) {
  while (parent[i] != i)
    i = parent[i] = parent[parent[i]];
  return i;
}

/* Why the loop cannot run its compute as parts, or NULL when it can
 * (tiles only from the loop's own ops: no row kernel's vectors, nothing
 * carried in or loaded before the loop). */
static const char *not_a_candidate(const ws_plan *plan, const MlirOperation *ops,
                                   const unsigned *roles, const body_op *sorted, int n) {
  if (ws_loop_has_dot(plan->loop))
    return "its loop is a matmul loop, whose consumer warpgroups share the accumulator";
  if (mlirOperationGetNumResults(plan->loop) != 0)
    return "its loop carries values (a row kernel's row vectors), which its compute "
           "warps share";
  for (int i = 0; i < n; i++) {
    MlirOperation op = ops[i];
    if (wsOperationIsA(op, "reduce") || wsOperationIsA(op, "broadcast") ||
        ws_load_is_row_vector(op) || ws_store_is_row_vector(op))
      return "its loop works on rows (ws.reduce, ws.broadcast or row vectors), whose "
             "warps share each row";
    if (!roles[i])
      continue;
    for (intptr_t k = 0; k < mlirOperationGetNumOperands(op); k++) {
      MlirValue v = mlirOperationGetOperand(op, k);
      if (mlirTypeIsARankedTensor(mlirValueGetType(v)) && defining_index(sorted, n, v) < 0)
        return "its loop reads a tile it does not make or load itself";
    }
  }
  return NULL;
}

/* Links each tile op to the tile ops whose results it reads; returns the
 * parts that have math (compute ops), numbered by first appearance in
 * part_of (every other op -1). */
static int find_parts(const MlirOperation *ops, const unsigned *roles, const body_op *sorted, int n,
                      int *part_of) {
  int *parent = ws_zalloc((size_t)n, sizeof *parent);
  int *number = ws_zalloc((size_t)n, sizeof *number);
  for (int i = 0; i < n; i++)
    parent[i] = i;
  for (int i = 0; i < n; i++)
    for (intptr_t k = 0; roles[i] && k < mlirOperationGetNumOperands(ops[i]); k++) {
      int j = defining_index(sorted, n, mlirOperationGetOperand(ops[i], k));
      if (j >= 0 && roles[j])
        parent[root_of(parent, i)] = root_of(parent, j);
    }
  int parts = 0;
  for (int i = 0; i < n; i++) {
    part_of[i] = -1;
    if (!(roles[i] & (1u << WS_ROLE_COMPUTE)))
      continue;
    int r = root_of(parent, i);
    if (!number[r])
      number[r] = ++parts;
    part_of[i] = number[r] - 1;
  }
  free(parent);
  free(number);
  return parts;
}

/* Appends the compute partitions of parts 1.. (part 0 keeps `compute`)
 * and turns part numbers into partition indices; false when the table is
 * full. */
static bool add_part_partitions(ws_plan *plan, int compute, int parts, int *part_of, int n) {
  int index[WS_MAX_PARTS];
  index[0] = compute;
  for (int p = 1; p < parts; p++) {
    if (p >= WS_MAX_PARTS || (index[p] = ws_plan_add_partition(plan, WS_ROLE_COMPUTE,
                                                               plan->parts[compute].num_warps)) < 0)
      return false;
    snprintf(plan->parts[index[p]].name, sizeof plan->parts[index[p]].name, "compute%d", p);
  }
  for (int i = 0; i < n; i++)
    if (part_of[i] >= 0)
      part_of[i] = index[part_of[i]];
  return true;
}

int ws_split_compute(ws_plan *plan, int compute, const MlirOperation *ops, const unsigned *roles,
                     int n, int *part_of, char *why, size_t cap) {
  int ask = asked(plan->loop);
  snprintf(why, cap, "%s", "");
  for (int i = 0; i < n; i++)
    part_of[i] = -1;
  body_op *sorted = ws_zalloc((size_t)n, sizeof *sorted);
  for (int i = 0; i < n; i++)
    sorted[i] = (body_op){ops[i].ptr, i};
  qsort(sorted, (size_t)n, sizeof *sorted, by_address);
  const char *rule = not_a_candidate(plan, ops, roles, sorted, n);
  int parts = rule ? 1 : find_parts(ops, roles, sorted, n, part_of);
  free(sorted);
  if (rule || parts < 2 || ask != 1) {
    if (ask == 1)
      snprintf(why, cap, "%s; drop ws.split_compute",
               rule ? rule
                    : "every op of its math reaches every other through the tiles they share "
                      "(a tile that two outputs both read joins them): it is one part");
    else if (!rule && parts >= 2)
      snprintf(why, cap,
               "its math falls into %d parts that share no tile; ws.split_compute = true "
               "gives each part compute warps of its own%s",
               parts, ask == 0 ? " (the loop sets it false)" : "");
    for (int i = 0; i < n; i++)
      part_of[i] = -1;
    return ask == 1 ? 0 : 1;
  }
  if (!add_part_partitions(plan, compute, parts, part_of, n)) {
    snprintf(why, cap, "its %d parts need more partitions than the %d a block's warps hold", parts,
             WS_MAX_PARTS);
    return 0;
  }
  snprintf(why, cap,
           "its math falls into %d parts that share no tile: each runs in a compute "
           "partition of its own (compute, compute1, ...), of %d warps, which waits only for "
           "its own tiles",
           parts, plan->parts[compute].num_warps);
  return parts;
}
