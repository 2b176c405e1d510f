/* partition_schedule.c: ws-partition-schedule, which assigns every op of a
 * ws.warp_specialize loop to a partition.
 *
 *   load     ws.load (TMA issue): 1 warp
 *   compute  elementwise arith/math on tiles: ws.num_warps warps (default 4)
 *   store    ws.store (TMA store): 1 warp
 *
 * Scalar ops (index math) go to every partition that uses their results, so
 * each partition recomputes them instead of receiving them. A loop that
 * cannot be specialized is left untouched with a remark saying why; an op
 * the scheduler has no place for is an error at that op. */
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "ws-c/Dialect.h"
#include "ws_pass.h"
#include "ws_plan.h"
#include "../dialect/ws_text.h"

enum { DEFAULT_COMPUTE_WARPS = 4 };

static bool name_starts(MlirOperation op, const char *prefix) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  size_t k = strlen(prefix);
  return n.length >= k && memcmp(n.data, prefix, k) == 0;
}

static bool is_tile(MlirType t) { return mlirTypeIsARankedTensor(t); }

static bool touches_tiles(MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
    if (is_tile(mlirValueGetType(mlirOperationGetOperand(op, i))))
      return true;
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++)
    if (is_tile(mlirValueGetType(mlirOperationGetResult(op, i))))
      return true;
  return false;
}

/* Elementwise on tiles: an arith or math op without regions whose tile
 * operands and results all have one shape. */
static bool is_elementwise(MlirOperation op, MlirType *shape) {
  if (!(name_starts(op, "arith.") || name_starts(op, "math.")) ||
      mlirOperationGetNumRegions(op) != 0 || mlirOperationGetNumResults(op) != 1)
    return false;
  MlirType first = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!is_tile(first))
    return false;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
    MlirType t = mlirValueGetType(mlirOperationGetOperand(op, i));
    if (!is_tile(t))
      return false;
    for (intptr_t d = 0; d < mlirShapedTypeGetRank(first); d++)
      if (mlirShapedTypeGetRank(t) != mlirShapedTypeGetRank(first) ||
          mlirShapedTypeGetDimSize(t, d) != mlirShapedTypeGetDimSize(first, d))
        return false;
  }
  *shape = first;
  return true;
}

/* Scalar index math: arith ops on integers or index, no regions. */
static bool is_scalar_math(MlirOperation op) {
  return name_starts(op, "arith.") && mlirOperationGetNumRegions(op) == 0 &&
         !touches_tiles(op);
}

/* Tiles used in the loop but defined outside it must be splat constants,
 * which the compute partition can rebuild in registers. */
static bool check_outside_tiles(MlirOperation op, MlirOperation loop) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (!is_tile(mlirValueGetType(v)) || !mlirValueIsAOpResult(v))
      continue;
    MlirOperation def = mlirOpResultGetOwner(v);
    if (mlirOperationEqual(mlirOperationGetParentOperation(def), loop))
      continue;
    MlirAttribute value = mlirOperationGetAttributeByName(
        def, mlirStringRefCreateFromCString("value"));
    bool splat = name_starts(def, "arith.constant") &&
                 !mlirAttributeIsNull(value) &&
                 mlirAttributeIsADenseElements(value) &&
                 mlirDenseElementsAttrIsSplat(value);
    if (!splat) {
      ws_emit_op_error(op, "uses a tile defined outside the warp-specialized "
                           "loop that is not a splat constant; only splat "
                           "constants can be rebuilt in each partition");
      return false;
    }
  }
  return true;
}

typedef enum { OP_OK, OP_ERROR, OP_SKIP } op_verdict;

/* Gives tile ops their role (as a bit of a role mask); scalar ops are
 * decided afterwards, once the partition table exists. */
static op_verdict classify(MlirOperation op, MlirOperation loop, unsigned *mask,
                           const ws_pass_env *env) {
  MlirType shape;
  if (wsOperationIsA(op, "load")) {
    *mask = 1u << WS_ROLE_LOAD;
  } else if (wsOperationIsA(op, "store")) {
    MlirValue v = mlirOperationGetOperand(op, mlirOperationGetNumOperands(op) - 1);
    if (!mlirValueIsAOpResult(v) ||
        !mlirOperationEqual(mlirOperationGetParentOperation(mlirOpResultGetOwner(v)), loop)) {
      ws_emit_op_error(op, "stores a tile defined outside the warp-specialized "
                           "loop; load or compute it inside the loop");
      return OP_ERROR;
    }
    *mask = 1u << WS_ROLE_STORE;
  } else if (wsOperationIsA(op, "dot")) {
    ws_remark(env, mlirOperationGetLocation(op),
              "loop not warp-specialized: ws.dot needs the MMA partition, "
              "which this scheduler does not build yet");
    return OP_SKIP;
  } else if (is_elementwise(op, &shape)) {
    *mask = 1u << WS_ROLE_COMPUTE;
  } else if (is_scalar_math(op)) {
    *mask = 0;
  } else {
    ws_emit_op_error(op, "cannot be placed in a partition of a "
                         "ws.warp_specialize loop; supported inside it: "
                         "ws.load, ws.store, elementwise arith/math on tiles, "
                         "scalar arith");
    return OP_ERROR;
  }
  return check_outside_tiles(op, loop) ? OP_OK : OP_ERROR;
}

/* The partitions that use an op's results (the yield counts as all). */
static unsigned users_mask(const ws_plan *plan, MlirOperation op, unsigned all) {
  unsigned mask = 0;
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
    for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, r));
         !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
      MlirOperation user = mlirOpOperandGetOwner(u);
      unsigned m = ws_op_partitions(plan, user);
      mask |= name_starts(user, "scf.yield") ? all : m;
    }
  return mask;
}

static bool schedule_loop(MlirOperation loop, int compute_warps,
                          const ws_pass_env *env) {
  MlirLocation loc = mlirOperationGetLocation(loop);
  if (mlirOperationGetNumResults(loop) != 0) {
    ws_remark(env, loc, "loop not warp-specialized: it carries values between "
                        "iterations (iter_args), which this scheduler does "
                        "not partition yet");
    return true;
  }
  MlirBlock body = ws_loop_body(loop);
  enum { max_ops = 512 };
  MlirOperation ops[max_ops];
  unsigned masks[max_ops];
  int n = 0;
  bool has_load = false, ok = true;
  MlirOperation term = mlirBlockGetTerminator(body);
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (mlirOperationEqual(op, term))
      break;
    if (n == max_ops) {
      ws_emit_op_error(loop, "has more than %d ops; split it", max_ops);
      return false;
    }
    op_verdict v = classify(op, loop, &masks[n], env);
    if (v == OP_SKIP)
      return true;
    ok &= v == OP_OK;
    has_load |= wsOperationIsA(op, "load");
    ops[n++] = op;
  }
  if (!ok)
    return false;
  if (!has_load) {
    ws_remark(env, loc, "loop not warp-specialized: it has no ws.load, so "
                        "there is nothing for a producer partition to do");
    return true;
  }
  /* The table: one partition per role present, in role order. */
  unsigned roles = 0;
  for (int i = 0; i < n; i++)
    roles |= masks[i];
  ws_plan plan;
  memset(&plan, 0, sizeof plan);
  plan.loop = plan.tables = loop;
  int warps[WS_NUM_ROLES] = {1, compute_warps, 1};
  unsigned index_of[WS_NUM_ROLES] = {0};
  for (int r = 0; r < WS_NUM_ROLES; r++)
    if ((roles >> r) & 1)
      index_of[r] = 1u << ws_plan_add_partition(&plan, (ws_role)r, warps[r]);
  unsigned present = (1u << plan.num_parts) - 1;
  /* Scalars, last to first, so each sees its users' partitions. */
  for (int i = n - 1; i >= 0; i--) {
    unsigned m = 0;
    for (int r = 0; r < WS_NUM_ROLES; r++)
      if ((masks[i] >> r) & 1)
        m |= index_of[r];
    if (m == 0) {
      m = users_mask(&plan, ops[i], present);
      m = m ? m : present;
    }
    ws_set_op_partitions(&plan, ops[i], m);
  }
  ws_set_op_partitions(&plan, term, present);
  ws_plan_write_partitions(&plan);
  return true;
}

/* One marked loop per kernel (the partitions own the whole block); the
 * first one in a kernel is scheduled, any later one is an error. */
static bool schedule(MlirOperation loop, const ws_pass_options *opts,
                     const ws_pass_env *env) {
  (void)opts;
  MlirOperation func = ws_enclosing_kernel(loop);
  MlirOperation first;
  if (ws_marked_loops(func, &first, 1) == 1 && !mlirOperationEqual(first, loop)) {
    ws_emit_op_error(loop, "is a second ws.warp_specialize loop in one "
                           "kernel; mark one loop per kernel");
    return false;
  }
  if (ws_has_attr(loop, "ws.partitions"))
    return true; /* already scheduled */
  return schedule_loop(loop, ws_int_attr(func, "ws.num_warps", DEFAULT_COMPUTE_WARPS), env);
}

static bool run_schedule(MlirOperation root, const ws_pass_options *opts,
                         const ws_pass_env *env) {
  return ws_run_on_marked_loops(root, schedule, opts, env);
}

const ws_pass_def ws_partition_schedule_pass_def = {
    .argument = "ws-partition-schedule",
    .summary = "Assign the ops of each ws.warp_specialize loop to load, "
               "compute and store partitions",
    .run = run_schedule,
};
