/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* partition_schedule.c: ws-partition-schedule, which assigns every op of a
 * ws.warp_specialize loop to a partition.
 *
 *   load     ws.load (TMA issue): 1 warp
 *   compute  elementwise arith/math on tiles, ws.dot (wgmma): ws.num_warps
 *            warps (default 4), whole warpgroups; one partition for each
 *            part of an elementwise loop's math that shares no tile with
 *            the rest where the loop asks (ws.split_compute, split_compute.c)
 *   store    ws.store (TMA store): 1 warp
 *   mma      on sm_100a, a matmul's ws.dot (tcgen05.mma into tensor memory,
 *            issued by one thread): 1 warp; the compute warps then run only
 *            the epilogue, reading the accumulator from tensor memory
 *
 * A matmul loop carries one value, the accumulator of its ws.dot, from a
 * dense<0.0> init (a register init); its epilogue (the ops after the loop:
 * elementwise math on the result, then ws.store) is scheduled too: math on
 * the compute warpgroups, which hold the accumulator, the store on the store
 * warp, and a ws.load of an epilogue operand (a bias row or column, a
 * residual tile) on the load warp, which fetches it once its K loop is
 * issued. Each ws.dot is checked against its engine's shape rules, which
 * the engine's row names (passes/target/engine_checks.c).
 *
 * Scalar ops (index math) go to every partition that uses their results, so
 * each partition recomputes them instead of receiving them. A loop that
 * cannot be specialized is left untouched with a remark saying why; an op
 * the scheduler has no place for is an error at that op. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "ws-c/Dialect.h"
#include "../plan/ws_explain.h"
#include "../support/ws_builder.h"
#include "../support/ws_l2_policy.h"
#include "../support/ws_op_list.h"
#include "../support/ws_pass.h"
#include "../plan/ws_plan.h"
#include "../plan/ws_row_kernel.h"
#include "../target/ws_target.h"
#include "ws_cluster_share.h"
#include "ws_product_lag.h"
#include "ws_split_compute.h"
#include "ws_step_pipeline.h"
#include "ws_tile_loop.h"
#include "../../dialect/ws_text.h"

static bool is_tile(MlirType t) { return mlirTypeIsARankedTensor(t); }

/* Elementwise on tiles: an arith or math op without regions whose tile
 * operands and results all have one shape. */
static bool is_elementwise(MlirOperation op, MlirType *shape) {
  if (!(ws_op_name_starts(op, "arith.") || ws_op_name_starts(op, "math.")) ||
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

/* Tiles used in the loop but defined outside it must be splats (constant
 * or of a scalar), which the compute partition can rebuild in registers,
 * or loads before it: a matmul's A, or any operand of an elementwise
 * loop's math (a row kernel's weight), fetched once per block. */
static bool check_outside_tiles(MlirOperation op, MlirOperation loop, bool matmul) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (!is_tile(mlirValueGetType(v)) || !mlirValueIsAOpResult(v))
      continue;
    MlirOperation def = mlirOpResultGetOwner(v);
    bool elementwise = !matmul;
    if (mlirOperationEqual(mlirOperationGetParentOperation(def), loop) ||
        ((elementwise || (i == 0 && wsOperationIsA(op, "dot"))) && ws_is_prologue_load(v, loop)))
      continue;
    if (!ws_has_attr(loop, "ws.warp_specialize") &&
        ws_is_row_vector_type(mlirValueGetType(v), ws_row_kernel_rows(loop)))
      continue; /* a second pass reads the row vectors the first loop found */
    if (!ws_is_splat_tile(def)) {
      ws_emit_op_error(op, "uses a tile defined outside the warp-specialized "
                           "loop that is not a splat; only splat constants and "
                           "tensor.splat of a scalar can be rebuilt in each partition");
      return false;
    }
  }
  return true;
}

static int64_t dim(MlirValue v, int d) { return mlirShapedTypeGetDimSize(mlirValueGetType(v), d); }

/* M of the loop's first ws.dot, 0 when it has none. */
static int64_t dot_rows(MlirOperation loop) {
  MlirOperation dot;
  ws_count_ops(ws_loop_body(loop), "ws.dot", &dot);
  return mlirOperationIsNull(dot) ? 0 : dim(mlirOperationGetOperand(dot, 2), 0);
}

/* A tile the consumer warpgroups of a matmul loop hold in registers: an
 * M x N fragment of its accumulator rows, or a 1 x M row vector (one
 * value per row: a running max or sum). */
static bool is_fragment_shape(MlirType t, int64_t m) {
  return mlirTypeIsARankedTensor(t) && mlirShapedTypeGetRank(t) == 2 &&
         (mlirShapedTypeGetDimSize(t, 0) == m ||
          (mlirShapedTypeGetDimSize(t, 0) == 1 && mlirShapedTypeGetDimSize(t, 1) == m));
}

/* Carried value i of `loop` (a `what`) starts from a splat, which `who`
 * (the partition that carries it) build in registers. */
static bool starts_from_splat(MlirOperation loop, intptr_t i, const char *what, const char *who) {
  MlirValue init = mlirOperationGetOperand(loop, 3 + i);
  if (mlirValueIsAOpResult(init) && ws_is_splat_tile(mlirOpResultGetOwner(init)))
    return true;
  ws_emit_op_error(loop,
                   "starts carried %s #%d from a tile that is not a splat "
                   "(arith.constant dense<v> or tensor.splat of a scalar); the %s "
                   "build it in registers",
                   what, (int)i, who);
  return false;
}

/* A loop carries tiles its consumer warpgroups compute: ws.dot accumulators
 * and, in attention, running row maxima and sums. Each starts from a splat
 * (built in registers) and is yielded from the loop's math; each is an
 * M x N fragment or a 1 x M row vector of the ws.dot rows M. */
static bool check_row_carried(MlirOperation loop);

static bool check_carried(MlirOperation loop) {
  MlirBlock body = ws_loop_body(loop);
  MlirOperation yield = mlirBlockGetTerminator(body);
  int64_t m = dot_rows(loop);
  if (m == 0)
    return check_row_carried(loop);
  for (intptr_t i = 0; i < mlirOperationGetNumResults(loop); i++) {
    MlirValue yielded = mlirOperationGetOperand(yield, i);
    MlirValue carried = mlirBlockGetArgument(body, 1 + i);
    if (!ws_value_in_loop(yielded, loop) || wsOperationIsA(mlirOpResultGetOwner(yielded), "load")) {
      ws_emit_op_error(
          loop,
          "carries a value that is not (only) the accumulator of a "
          "ws.dot or math on it: value #%d is yielded as %s; each "
          "carried tile must be computed in the loop",
          (int)i, mlirValueEqual(yielded, carried) ? "it came in" : "a tile it does not compute");
      return false;
    }
    if (!is_fragment_shape(mlirValueGetType(carried), m)) {
      char t[96];
      ws_emit_op_error(loop,
                       "carries value #%d of type %s; the consumer warpgroups hold "
                       "%lld x N fragments of the ws.dot rows or 1 x %lld row vectors",
                       (int)i, ws_type_str(mlirValueGetType(carried), t, sizeof t), (long long)m,
                       (long long)m);
      return false;
    }
    if (!starts_from_splat(loop, i, "value", "consumer warpgroups"))
      return false;
  }
  return true;
}

/* An elementwise loop carries row vectors over a row's chunks (a row
 * kernel whose rows are longer than one tile: a running max and sum, a
 * cross-entropy's picked logit): each a 1 x R tile of its ws.reduce rows
 * R, started from a splat and yielded from the loop's math, which the
 * compute warps hold one value per row in registers. */
static bool check_row_carried(MlirOperation loop) {
  MlirBlock body = ws_loop_body(loop);
  MlirOperation yield = mlirBlockGetTerminator(body);
  int64_t rows = ws_row_kernel_rows(yield);
  for (intptr_t i = 0; i < mlirOperationGetNumResults(loop); i++) {
    MlirValue yielded = mlirOperationGetOperand(yield, i);
    MlirType t = mlirValueGetType(yielded);
    if (!ws_is_row_vector_type(t, rows)) {
      char buf[96];
      if (rows)
        ws_emit_op_error(loop,
                         "carries value #%d of type %s; an elementwise loop carries "
                         "1 x %lld row vectors of its tiles' rows (a running max or "
                         "sum over a row's chunks)",
                         (int)i, ws_type_str(t, buf, sizeof buf), (long long)rows);
      else
        ws_emit_op_error(loop, "carries values but has neither a ws.dot nor a ws.reduce "
                               "along the rows of a tile that is not square; a "
                               "warp-specialized loop carries a matmul's tiles (its "
                               "accumulator, running row maxima and sums) or a row "
                               "kernel's 1 x R row vectors (a running max or sum over a "
                               "row's chunks)");
      return false;
    }
    if (!ws_value_in_loop(yielded, loop) || wsOperationIsA(mlirOpResultGetOwner(yielded), "load")) {
      ws_emit_op_error(loop,
                       "carries row vector #%d but yields %s; each carried row "
                       "vector must be computed in the loop",
                       (int)i,
                       mlirValueEqual(yielded, mlirBlockGetArgument(body, 1 + i))
                           ? "the value that came in"
                           : "a tile it does not compute");
      return false;
    }
    if (!starts_from_splat(loop, i, "row vector", "compute warps"))
      return false;
  }
  return true;
}

/* In a matmul loop the consumers' tiles live in the accumulator's fragment
 * layout: each is M x N or 1 x M, a reduction runs along the rows (axis 1)
 * and a broadcast spreads a row vector along them (axis 0). */
static bool broadcasts_a_load(MlirOperation op);
static bool reads_a_load(MlirOperation op);

/* What ws.broadcast takes in a matmul (its consumers hold the tile in
 * wgmma's fragments: each thread a few columns of a few rows). */
#define BROADCAST_AXIS_RULE                                                                        \
  "ws.broadcast spreads a 1 x M row vector the consumers computed along the rows (axis = 0: "      \
  "one value a row, which is how they hold a row max or sum), or a 1 x N row a ws.load fills "     \
  "along the columns (axis = 1: each thread reads its own columns from the slot, used by no "      \
  "other op); a 1 x N row computed in registers has no place in the fragments: broadcast the "     \
  "loaded row first, then apply the math to the M x N tile"

static bool check_fragment_op(MlirOperation op, MlirOperation loop) {
  int64_t m = dot_rows(loop);
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++) {
    MlirType t = mlirValueGetType(mlirOperationGetResult(op, r));
    if (mlirTypeIsARankedTensor(t) && !is_fragment_shape(t, m)) {
      char buf[96];
      ws_emit_op_error(op,
                       "makes a %s tile in a matmul loop; its consumer warpgroups "
                       "hold %lld x N fragments of the ws.dot rows and 1 x %lld row "
                       "vectors",
                       ws_type_str(t, buf, sizeof buf), (long long)m, (long long)m);
      return false;
    }
  }
  int want = wsOperationIsA(op, "reduce") ? 1 : wsOperationIsA(op, "broadcast") ? 0 : -1;
  if (want == 0 && ws_int_attr(op, "axis", -1) == 1 && broadcasts_a_load(op))
    want = 1; /* a 1 x N row the loop loads (a column scale): read from its slot */
  if (want >= 0 && ws_int_attr(op, "axis", -1) != want) {
    ws_emit_op_error(op, "has axis = %d; in a matmul loop %s", ws_int_attr(op, "axis", -1),
                     want ? "ws.reduce runs along each row (axis = 1), giving a 1 x M "
                            "row vector"
                          : BROADCAST_AXIS_RULE);
    return false;
  }
  return true;
}

/* ws.reduce and ws.broadcast in an elementwise loop (a row kernel): the
 * compute warps hold each row of a tile in the chunks of consecutive
 * threads (ws_lower_tile.h), so a reduce runs along the rows (axis 1)
 * into a 1 x M row vector; a broadcast spreads such a vector, computed in
 * the loop, back along them (axis 0), or a 1 x N row of values per column
 * (a norm's weight, loaded in the loop or before it, or math on one)
 * over every row (axis 1). */
static bool check_row_op(MlirOperation op) {
  bool reduce = wsOperationIsA(op, "reduce");
  int axis = ws_int_attr(op, "axis", -1);
  if (reduce && axis != 1) {
    ws_emit_op_error(op,
                     "has axis = %d; in an elementwise loop ws.reduce runs along each "
                     "row of a tile (axis = 1), giving a 1 x M row vector; for a "
                     "column's, transpose the tile's descriptor so that the column is "
                     "a row",
                     axis);
    return false;
  }
  if (!reduce && axis == 0 && reads_a_load(op) &&
      !ws_load_is_row_vector(mlirOpResultGetOwner(mlirOperationGetOperand(op, 0)))) {
    ws_emit_op_error(op, "spreads a loaded tile along the rows (axis = 0) of a square tile; "
                         "in an elementwise loop a loaded 1 x N row spreads over every row "
                         "(axis = 1, a value per column), and axis 0 spreads a 1 x R row "
                         "vector over R x C tiles (R != C, so that rows and columns are told "
                         "apart): a ws.reduce along axis 1, math on one, or a 1 x R row "
                         "vector loaded through its own box");
    return false;
  }
  return true;
}

/* tensor.extract in a matmul loop reads one element of a tile the loop
 * loads (a block's scale): the consumers read it from the slot, each
 * thread the same element, and use it as a scalar (a tensor.splat of it,
 * say). Not in an elementwise loop, whose compute threads each hold
 * their own chunks of a tile. */
static bool check_extract(MlirOperation op, MlirOperation loop, bool matmul) {
  MlirValue t = mlirOperationGetOperand(op, 0);
  if (!matmul || !ws_mma_engine_of(loop)->loop_math) {
    ws_emit_op_error(op, "reads one element of a tile; that runs in the loop of a matmul "
                         "on sm_90a (its consumer warpgroups read it from the ring's slot), "
                         "not in an elementwise loop or on sm_100a");
    return false;
  }
  if (!mlirValueIsAOpResult(t) || !wsOperationIsA(mlirOpResultGetOwner(t), "load") ||
      !mlirOperationEqual(mlirOperationGetParentOperation(mlirOpResultGetOwner(t)), loop)) {
    ws_emit_op_error(op, "reads an element of a tile that is not a ws.load of the loop; "
                         "tensor.extract reads a loaded tile from its slot");
    return false;
  }
  for (intptr_t i = 1; i < mlirOperationGetNumOperands(op); i++) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (!mlirValueIsAOpResult(v) || !ws_op_is(mlirOpResultGetOwner(v), "arith.constant")) {
      ws_emit_op_error(op, "reads an element at an index that is not a constant; the "
                           "consumers read it from the slot when they read the tile, so "
                           "its position must be known there");
      return false;
    }
  }
  return true;
}

typedef enum { OP_OK, OP_ERROR } op_verdict;

/* Gives tile ops their role (as a bit of a role mask); scalar ops are
 * decided afterwards, once the partition table exists. `matmul` is
 * ws_loop_has_dot(loop), asked once per loop by the caller: asked per op,
 * it walked the body once an op. */
static op_verdict classify(MlirOperation op, MlirOperation loop, bool matmul, unsigned *mask) {
  MlirType shape;
  if (wsOperationIsA(op, "load")) { /* a row vector the compute warps read themselves */
    *mask = 1u << (ws_load_is_row_vector(op) ? WS_ROLE_COMPUTE : WS_ROLE_LOAD);
  } else if (wsOperationIsA(op, "store")) {
    MlirValue v = mlirOperationGetOperand(op, mlirOperationGetNumOperands(op) - 1);
    if (!mlirValueIsAOpResult(v) ||
        !mlirOperationEqual(mlirOperationGetParentOperation(mlirOpResultGetOwner(v)), loop)) {
      ws_emit_op_error(op, "stores a tile defined outside the warp-specialized "
                           "loop; load or compute it inside the loop");
      return OP_ERROR;
    }
    if (matmul) {
      ws_emit_op_error(op, "stores a tile inside a matmul loop; ws stores a matmul loop's "
                           "tiles after it, from its epilogue (the accumulator the loop "
                           "carries and yields, or math on it): a store each step (a "
                           "gradient added into global memory as the loop runs) is not "
                           "supported yet");
      return OP_ERROR;
    }
    if (ws_store_is_row_vector(op)) { /* written by the compute warps themselves */
      *mask = 1u << WS_ROLE_COMPUTE;
      return OP_OK;
    }
    *mask = 1u << WS_ROLE_STORE;
  } else if (wsOperationIsA(op, "dot")) {
    bool own = ws_mma_engine_of(loop)->mma_partition;
    if (!ws_mma_engine_of(loop)->check_dot(op, loop))
      return OP_ERROR;
    *mask = 1u << (own ? WS_ROLE_MMA : WS_ROLE_COMPUTE);
  } else if (!ws_mma_engine_of(loop)->loop_math && matmul && ws_touches_tiles(op)) {
    ws_emit_op_error(op, "is tile math inside a matmul loop on sm_100a, where the MMA "
                         "warp issues the loop's one ws.dot into tensor memory and no "
                         "warp holds its tiles in registers; math between dots "
                         "(attention) runs on sm_90a only");
    return OP_ERROR;
  } else if (is_elementwise(op, &shape) || ws_op_is(op, "tensor.splat") ||
             wsOperationIsA(op, "iota") || wsOperationIsA(op, "reduce") ||
             wsOperationIsA(op, "broadcast")) {
    if (!matmul && (wsOperationIsA(op, "reduce") || wsOperationIsA(op, "broadcast")) &&
        !check_row_op(op))
      return OP_ERROR;
    if (matmul && !check_fragment_op(op, loop))
      return OP_ERROR;
    *mask = 1u << WS_ROLE_COMPUTE;
  } else if (ws_op_is(op, "tensor.extract")) {
    if (!check_extract(op, loop, matmul))
      return OP_ERROR;
    *mask = 1u << WS_ROLE_COMPUTE;
  } else if (ws_is_scalar_math(op)) {
    *mask = 0;
  } else {
    ws_emit_op_error(op, "cannot be placed in a partition of a "
                         "ws.warp_specialize loop; supported inside it: "
                         "ws.load, ws.store, ws.dot, elementwise arith/math on "
                         "tiles, ws.reduce, ws.broadcast, ws.iota, tensor.splat "
                         "of a scalar, tensor.extract of a loaded tile (matmul "
                         "loops), scalar arith, memref.load of a kernel array");
    return OP_ERROR;
  }
  return check_outside_tiles(op, loop, matmul) ? OP_OK : OP_ERROR;
}

/* The partitions that use an op's results (the yield counts as all). */
static unsigned users_mask(const ws_plan *plan, MlirOperation op, unsigned all) {
  unsigned mask = 0;
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
    for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, r));
         !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
      MlirOperation user = mlirOpOperandGetOwner(u);
      unsigned m = ws_op_partitions(plan, user);
      mask |= ws_op_name_starts(user, "scf.yield") ? all : m;
    }
  return mask;
}

/* A ws.broadcast of an epilogue's ws.load that nothing else uses (the
 * consumers read the bias from its slot straight into the broadcast). */
static bool broadcasts_a_load(MlirOperation op) {
  MlirValue v = mlirOperationGetOperand(op, 0);
  if (!mlirValueIsAOpResult(v) || !wsOperationIsA(mlirOpResultGetOwner(v), "load"))
    return false;
  MlirOpOperand u = mlirValueGetFirstUse(v);
  return !mlirOpOperandIsNull(u) && mlirOpOperandIsNull(mlirOpOperandGetNextUse(u));
}

/* A ws.broadcast of a loaded tile (else of one in registers: a row vector
 * the loop computed, such as attention's row sums). */
static bool reads_a_load(MlirOperation op) {
  MlirValue v = mlirOperationGetOperand(op, 0);
  return mlirValueIsAOpResult(v) && wsOperationIsA(mlirOpResultGetOwner(v), "load");
}

/* The end of the block a matmul's epilogue lies in: the kernel's
 * gpu.return, or the yield of a persistent kernel's tile loop. */
static bool ends_epilogue(MlirOperation op) {
  return mlirOperationIsNull(op) || ws_op_is(op, "gpu.return") || ws_op_is(op, "scf.yield");
}

/* A ws.store of the matmul loop's accumulator itself (an f32 C): the
 * epilogue stages a tile the consumers compute from the accumulator, so
 * the store gets one, the accumulator times a splat of 1.0 (exact for
 * every value), put before it in the IR where a reader sees it. */
static void copy_stored_accumulators(const ws_plan *plan, bool explain, const ws_pass_env *env) {
  for (MlirOperation op = mlirOperationGetNextInBlock(plan->loop); !ends_epilogue(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!wsOperationIsA(op, "store"))
      continue;
    intptr_t last = mlirOperationGetNumOperands(op) - 1;
    MlirValue stored = mlirOperationGetOperand(op, last);
    if (!mlirValueIsAOpResult(stored) ||
        !mlirOperationEqual(mlirOpResultGetOwner(stored), plan->loop))
      continue;
    ws_builder b = ws_builder_before(op);
    MlirType type = mlirValueGetType(stored);
    MlirNamedAttribute one =
        ws_named(b.ctx, "value", mlirDenseElementsAttrFloatSplatGet(type, 1.0f));
    MlirValue ones = ws_build_value(&b, "arith.constant", 0, NULL, type, 1, &one);
    MlirValue operands[2] = {stored, ones};
    MlirValue copy = ws_build_value(&b, "arith.mulf", 2, operands, type, 0, NULL);
    mlirOperationSetOperand(op, last, copy);
    if (explain)
      ws_remark(env, mlirOperationGetLocation(op),
                "stores the loop's accumulator as it is: the consumers stage it for the store "
                "warp as the product with 1.0 (exact), the tile the epilogue computes");
  }
}

/* The ops after a matmul loop: math on the accumulator runs where it is
 * (compute), ws.store on the store warp (a partition added for it), scalars
 * where they are used. */
static bool schedule_epilogue(ws_plan *plan, unsigned *index_of) {
  ws_op_list ops = {0};
  bool ok = true;
  for (MlirOperation op = mlirOperationGetNextInBlock(plan->loop); ok && !ends_epilogue(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirType shape;
    if (wsOperationIsA(op, "store") && !index_of[WS_ROLE_STORE]) {
      int p = ws_plan_add_partition(plan, WS_ROLE_STORE, 1);
      index_of[WS_ROLE_STORE] = 1u << p;
    } else if (!wsOperationIsA(op, "store") && !wsOperationIsA(op, "load") &&
               !wsOperationIsA(op, "broadcast") && !wsOperationIsA(op, "split_k_sum") &&
               !wsOperationIsA(op, "stream_k_sum") && !is_elementwise(op, &shape) &&
               !ws_op_is(op, "tensor.splat") && !ws_is_scalar_math(op)) {
      ws_emit_op_error(op, "cannot be in the epilogue of a warp-specialized "
                           "matmul; after the loop: elementwise arith/math on "
                           "its result, ws.load of an operand (a residual, or a "
                           "bias through ws.broadcast), tensor.splat of a scalar, "
                           "scalar arith, ws.store");
      ok = false;
      break;
    } else if (wsOperationIsA(op, "broadcast") &&
               (reads_a_load(op) ? !broadcasts_a_load(op) : ws_int_attr(op, "axis", -1) != 0)) {
      ws_emit_op_error(op, "spreads a tile that is neither a ws.load of the epilogue nor a "
                           "row vector in registers spread along the rows; in a matmul's "
                           "epilogue " BROADCAST_AXIS_RULE);
      ok = false;
      break;
    }
    ws_op_list_push(&ops, op);
  }
  unsigned all = (1u << plan->num_parts) - 1;
  for (size_t i = ops.len; ok && i-- > 0;) {
    MlirOperation op = ops.items[i];
    unsigned m = wsOperationIsA(op, "store")  ? index_of[WS_ROLE_STORE]
                 : wsOperationIsA(op, "load") ? index_of[WS_ROLE_LOAD]
                 : ws_is_scalar_math(op)      ? users_mask(plan, op, all)
                                              : index_of[WS_ROLE_COMPUTE];
    ws_set_op_partitions(plan, op, m ? m : all);
  }
  ws_op_list_free(&ops);
  return ok;
}

/* The partitions of a role mask (index_of: each role's partition bit). */
static unsigned role_partitions(unsigned roles, const unsigned *index_of) {
  unsigned m = 0;
  for (int r = 0; r < WS_NUM_ROLES; r++)
    if ((roles >> r) & 1)
      m |= index_of[r];
  return m;
}

/* A row kernel's second pass over a row's chunks (ws_plan_second_pass):
 * the loop's bounds, nothing carried, no ws.reduce (the first loop
 * reduces); its ops take their roles as the loop's do (ws.load on the load
 * warp, ws.store on a store warp, added if the first loop stores nothing,
 * math in the compute warps, which read the first loop's row vectors);
 * the loop op goes to every partition with an op in it. */
static bool schedule_second_pass(ws_plan *plan, MlirOperation pass, unsigned *index_of) {
  for (int i = 0; i < 3; i++)
    if (!mlirValueEqual(mlirOperationGetOperand(pass, i), mlirOperationGetOperand(plan->loop, i))) {
      ws_emit_op_error(pass, "is a second pass over a row's chunks with other bounds than the "
                             "warp-specialized loop before it; it takes that loop's lower "
                             "bound, upper bound and step (the same values)");
      return false;
    }
  if (mlirOperationGetNumResults(pass) != 0) {
    ws_emit_op_error(pass, "is a second pass over a row's chunks that carries values; the "
                           "first loop carries the row vectors, the second reads them");
    return false;
  }
  ws_op_list ops = {0};
  unsigned roles = 0, *masks = NULL;
  MlirOperation term = mlirBlockGetTerminator(ws_loop_body(pass));
  for (MlirOperation op = mlirBlockGetFirstOperation(ws_loop_body(pass));
       !mlirOperationEqual(op, term); op = mlirOperationGetNextInBlock(op))
    ws_op_list_push(&ops, op);
  masks = calloc(ops.len + 1, sizeof *masks);
  bool ok = masks != NULL, pass_matmul = ws_loop_has_dot(pass);
  for (long i = 0; ok && i < ops.len; i++) {
    if (wsOperationIsA(ops.items[i], "reduce")) {
      ws_emit_op_error(ops.items[i], "reduces in a second pass over a row's chunks; reduce "
                                     "in the warp-specialized loop, which carries what it "
                                     "finds to the second pass");
      ok = false;
    }
    ok = ok && classify(ops.items[i], pass, pass_matmul, &masks[i]) == OP_OK;
    roles |= masks[i];
  }
  if (ok && (roles & (1u << WS_ROLE_STORE)) && !index_of[WS_ROLE_STORE])
    index_of[WS_ROLE_STORE] = 1u << ws_plan_add_partition(plan, WS_ROLE_STORE, 1);
  unsigned all = (1u << plan->num_parts) - 1, used = index_of[WS_ROLE_COMPUTE];
  for (long i = ops.len; ok && i-- > 0;) { /* scalars see their users' partitions */
    unsigned m = role_partitions(masks[i], index_of);
    m = m ? m : users_mask(plan, ops.items[i], all);
    ws_set_op_partitions(plan, ops.items[i], m ? m : all);
    used |= m ? m : all;
  }
  if (ok) {
    ws_set_op_partitions(plan, term, used);
    ws_set_op_partitions(plan, pass, used);
  }
  free(masks);
  ws_op_list_free(&ops);
  return ok;
}

/* The ops after an elementwise loop that carries row vectors (a row
 * kernel over a row's chunks): math on the row vectors and ws.store of
 * them, all in the compute warps, which hold them; scalars where they are
 * used; a second pass over the row's chunks (schedule_second_pass). */
static bool schedule_row_epilogue(ws_plan *plan, unsigned *index_of) {
  ws_op_list ops = {0};
  bool ok = true;
  MlirOperation second = ws_plan_second_pass(plan);
  for (MlirOperation op = mlirOperationGetNextInBlock(plan->loop); ok && !ends_epilogue(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (mlirOperationEqual(op, second)) {
      ok = schedule_second_pass(plan, op, index_of);
      continue;
    }
    MlirType shape;
    bool row_math = (is_elementwise(op, &shape) || ws_op_is(op, "tensor.splat")) &&
                    ws_is_row_vector_type(mlirValueGetType(mlirOperationGetResult(op, 0)),
                                          ws_row_kernel_rows(op));
    if (!row_math && !ws_store_is_row_vector(op) && !ws_is_scalar_math(op)) {
      ws_emit_op_error(op, "cannot come after a warp-specialized elementwise loop; after a "
                           "row kernel's loop over a row's chunks come math on the 1 x R "
                           "row vectors it carries, ws.store of them, scalar arith and one "
                           "second pass over the row's chunks (an scf.for)");
      ok = false;
    }
    ws_op_list_push(&ops, op);
  }
  unsigned all = (1u << plan->num_parts) - 1;
  for (size_t i = ops.len; ok && i-- > 0;) {
    unsigned m = ws_is_scalar_math(ops.items[i]) ? users_mask(plan, ops.items[i], all)
                                                 : index_of[WS_ROLE_COMPUTE];
    ws_set_op_partitions(plan, ops.items[i], m ? m : all);
  }
  ws_op_list_free(&ops);
  return ok;
}

/* True when a result of `op` is an operand of the K loop itself: one of
 * its bounds (`bounds`: a stream-K unit's K steps, which every partition
 * running the loop computes), or else its accumulator's init, which the
 * consumers carry. */
static bool feeds_k_loop(const ws_plan *plan, MlirOperation op, bool bounds) {
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
    for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, r));
         !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
      if (mlirOperationEqual(mlirOpOperandGetOwner(u), plan->loop) &&
          (mlirOpOperandGetOperandNumber(u) < 3) == bounds)
        return true;
  return false;
}

/* A persistent kernel's ops before its K loop, in the tile loop (tile
 * coordinates, splat tiles): each goes to the partitions that use it (the
 * accumulator's init to the consumers), and each partition recomputes it
 * for every tile. */
static bool schedule_prologue(ws_plan *plan, MlirOperation tile, const unsigned *index_of) {
  ws_op_list ops = {0};
  for (MlirOperation op = mlirBlockGetFirstOperation(ws_loop_body(tile));
       !mlirOperationEqual(op, plan->loop); op = mlirOperationGetNextInBlock(op))
    ws_op_list_push(&ops, op);
  unsigned all = (1u << plan->num_parts) - 1;
  for (size_t i = ops.len; i-- > 0;) {
    unsigned m = users_mask(plan, ops.items[i], all) |
                 (feeds_k_loop(plan, ops.items[i], false) ? index_of[WS_ROLE_COMPUTE] : 0) |
                 (feeds_k_loop(plan, ops.items[i], true) ? all : 0);
    ws_set_op_partitions(plan, ops.items[i], m ? m : all);
  }
  ws_op_list_free(&ops);
  return true;
}

/* A ws.load before the loop (an attention kernel's Q, which every
 * iteration's ws.dot reads; a row kernel's weight, which its math reads):
 * the load warp fetches it once per block; the consumers wait for it
 * before their loop and release it after. */
static bool schedule_prologue_loads(ws_plan *plan, const unsigned *index_of, bool matmul) {
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirOperationGetBlock(plan->loop));
       !mlirOperationEqual(op, plan->loop); op = mlirOperationGetNextInBlock(op)) {
    if (!wsOperationIsA(op, "load"))
      continue;
    if (!matmul && ws_load_is_row_vector(op)) { /* the compute warps read it, for anyone */
      ws_set_op_partitions(plan, op, index_of[WS_ROLE_COMPUTE]);
      continue;
    }
    for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, 0));
         !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
      MlirOperation user = mlirOpOperandGetOwner(u);
      MlirOperation parent = mlirOperationGetParentOperation(user);
      bool in_loop = mlirOperationEqual(parent, plan->loop) ||
                     mlirOperationEqual(parent, ws_plan_second_pass(plan));
      if (!matmul && !in_loop) {
        ws_emit_op_error(op, "loads a tile before the warp-specialized loop that is used "
                             "outside it; a load before an elementwise loop is fetched "
                             "once per block for the loop's math to read");
        return false;
      }
      if (matmul &&
          (!wsOperationIsA(user, "dot") || mlirOpOperandGetOperandNumber(u) != 0 || !in_loop)) {
        ws_emit_op_error(op, "loads a tile before the warp-specialized loop that is "
                             "used other than as operand a of a ws.dot in the loop; a "
                             "load before the loop is fetched once per block for wgmma "
                             "to read from shared memory");
        return false;
      }
    }
    ws_set_op_partitions(plan, op, index_of[WS_ROLE_LOAD]);
  }
  return true;
}

/* Why a persistent matmul's consumers run ping-pong or cooperatively. */
static void explain_overlap(const ws_plan *plan, MlirOperation tile, const ws_pass_env *env) {
  const ws_partition *c = &plan->parts[ws_plan_find_role(plan, WS_ROLE_COMPUTE)];
  MlirValue acc = mlirOperationGetResult(plan->loop, 0);
  long long m = dim(acc, 0), n = dim(acc, 1);
  if (ws_plan_find_role(plan, WS_ROLE_MMA) >= 0)
    ws_remark(env, mlirOperationGetLocation(tile),
              "persistent, on sm_100a: the MMA warp accumulates each %lldx%lld tile in "
              "tensor memory and hands it to the %d epilogue warpgroup(s); ws-plan-memory "
              "double-buffers the accumulator where tensor memory holds two, so the MMAs "
              "of the next tile run while the epilogue drains this one",
              m, n, c->num_warps / 4);
  else if (c->pingpong)
    ws_remark(env, mlirOperationGetLocation(tile),
              "persistent, ping-pong: each of the %d consumer warpgroups holds a whole "
              "%lldx%lld accumulator (%lld f32 per thread) and takes every other tile, so "
              "one's epilogue runs while the other's K loop does; the load warp fills one "
              "ring for both in tile order (ws.overlap = \"cooperative\" shares each tile "
              "instead)",
              c->num_warps / 4, m, n, m * n / 128);
  else
    ws_remark(env, mlirOperationGetLocation(tile),
              "persistent, cooperative: the %d consumer warpgroup(s) share each %lldx%lld "
              "tile (%lld f32 per thread) and hand C to the store warp, which drains it "
              "while they start the next tile; ping-pong needs one warpgroup to hold a "
              "whole accumulator (8 warps, M = 128, N <= 128%s) and is chosen where it can "
              "be unless ws.overlap = \"cooperative\" asks for this%s",
              c->num_warps / 4, m, n, m * n / (c->num_warps * 32),
              ws_fresh_products(plan->loop) ? "; N <= 64 here, where each warpgroup would also "
                                              "hold a product its K loop makes beside it"
                                            : "",
              ws_pingpong_starves_rings(tile, plan->loop)
                  ? " or its second C tile would leave the K loop's rings 2 slots where "
                    "cooperative has 3 (the load warp would run one step ahead; "
                    "ws.overlap = \"pingpong\" still asks for it)"
                  : "");
}

/* The remark on a choice of the consumers' loop mode (a lag, the step
 * pipeline): `why` (no remark when empty) in the text of what was chosen. */
static void remark_choice(const ws_pass_env *env, MlirLocation loc, bool chosen, const char *yes,
                          const char *no, const char *why) {
  if (why[0])
    ws_remark(env, loc, chosen ? yes : no, why);
}

/* Turns pay where the math between the dots is a fair share of a step:
 * with a ws.dot wider than this (K or N, an attention head dim of 256) the
 * step is long in the tensor cores already, and on the H100 turns cost 10%
 * there (483 -> 434 TFLOP/s at D = 256) where they gain 11% at D = 128. */
enum { TURN_MAX_WIDTH = 128 };

/* Whether the consumers of a (not persistent) matmul loop take turns: two
 * warpgroups, each with its own rows, and two runs of ws.dot per step
 * (ws_loop_dot_runs: wgmmas, register math on their results, more
 * wgmmas). The wgmmas of one warpgroup's step end and the next step's
 * start (its last dots, then its first) are one turn; the other
 * warpgroup's register math runs meanwhile, and the tensor cores never
 * wait for both to finish it. Not when a ws.dot is wider than
 * TURN_MAX_WIDTH (*wide names it). */
static bool takes_turns(const ws_plan *plan, const MlirOperation *ops, int n, int compute_warps,
                        MlirOperation *wide) {
  *wide = (MlirOperation){NULL};
  if ((compute_warps != 8 && compute_warps != 12) || !ws_plan_is_matmul(plan) ||
      !mlirOperationIsNull(ws_plan_tile_loop(plan)) || ws_loop_dot_runs(plan->loop) < 2)
    return false;
  for (int i = 0; i < n; i++) {
    bool dot = wsOperationIsA(ops[i], "dot");
    if (dot && (dim(mlirOperationGetOperand(ops[i], 0), 1) > TURN_MAX_WIDTH ||
                dim(mlirOperationGetResult(ops[i], 0), 1) > TURN_MAX_WIDTH))
      *wide = ops[i];
  }
  return mlirOperationIsNull(*wide);
}

/* An elementwise loop's compute as one partition or one for each part of
 * its work (split_compute.c), with the remark that says why. */
static bool split_compute(ws_plan *plan, int compute, const MlirOperation *ops,
                          const unsigned *roles, int n, int *part_of, bool explain,
                          const ws_pass_env *env) {
  char why[512];
  int parts = ws_split_compute(plan, compute, ops, roles, n, part_of, why, sizeof why);
  if (!parts) {
    ws_emit_op_error(plan->loop,
                     "asks for ws.split_compute = true, but its compute cannot be "
                     "split: %s",
                     why);
    return false;
  }
  if (explain && why[0])
    ws_remark(env, mlirOperationGetLocation(plan->loop), "%s: %s",
              parts > 1 ? "split compute" : "one compute partition", why);
  return true;
}

/* The partition table and every op's partitions, from the ops' roles. */
static bool schedule_ops(MlirOperation loop, const MlirOperation *ops, const unsigned *masks, int n,
                         int compute_warps, bool explain, const ws_pass_env *env) {
  MlirLocation loc = mlirOperationGetLocation(loop);
  bool matmul = ws_loop_has_dot(loop);
  MlirOperation term = mlirBlockGetTerminator(ws_loop_body(loop));
  bool has_load = false;
  for (int i = 0; i < n; i++)
    has_load |= wsOperationIsA(ops[i], "load");
  if (!has_load) {
    ws_remark(env, loc,
              "loop not warp-specialized: it has no ws.load, so "
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
  /* an MMA warp (sm_100a) leaves the compute warps the epilogue */
  if (roles & (1u << WS_ROLE_MMA))
    roles |= 1u << WS_ROLE_COMPUTE;
  int warps[WS_NUM_ROLES] = {1, compute_warps, 1, 1};
  unsigned index_of[WS_NUM_ROLES] = {0};
  for (int r = 0; r < WS_NUM_ROLES; r++)
    if ((roles >> r) & 1)
      index_of[r] = 1u << ws_plan_add_partition(&plan, (ws_role)r, warps[r]);
  MlirOperation tile = ws_plan_tile_loop(&plan);
  int compute = ws_plan_find_role(&plan, WS_ROLE_COMPUTE);
  for (int i = 0; i < n; i++) /* every op in its own step, until a decider says otherwise */
    ws_set_op_stage(ops[i], 0);
  if (!mlirOperationIsNull(tile) && compute >= 0)
    plan.parts[compute].pingpong = ws_tile_loop_is_pingpong(tile);
  if (compute >= 0) {
    MlirOperation wide;
    plan.parts[compute].turns = takes_turns(&plan, ops, n, compute_warps, &wide);
    if (compute_warps == 12 && !plan.parts[compute].turns) {
      ws_emit_op_error(loop,
                       "has ws.num_warps = 12 on its kernel: three consumer "
                       "warpgroups are for a loop whose warpgroups take turns at "
                       "their wgmmas (attention: two runs of ws.dot a step, none "
                       "wider than %d, not persistent); use 4 or 8",
                       TURN_MAX_WIDTH);
      return false;
    }
    if (explain && !mlirOperationIsNull(wide))
      ws_remark(env, mlirOperationGetLocation(wide),
                "no turns: this ws.dot is wider than %d (K or N), so a step is long in "
                "the tensor cores already and the consumer warpgroups issue their wgmmas "
                "as they come",
                TURN_MAX_WIDTH);
    char why[512];
    int lag = ws_choose_product_lag(&plan, compute, why, sizeof why);
    if (lag)
      ws_stage_product_lag(loop);
    if (explain)
      remark_choice(env, loc, lag,
                    "lag 1: the math on each K step's products runs one step late, after "
                    "the next step's wgmmas are issued, so the tensor cores run it in their "
                    "shadow instead of waiting for it; %s",
                    "no lag: the math on each K step's products waits for its wgmmas, "
                    "since %s",
                    why);
    ws_pipeline_choice pipe = ws_choose_step_pipeline(&plan, compute, why, sizeof why);
    if (pipe == WS_PIPELINE_REFUSED) {
      ws_emit_op_error(loop, "asks for ws.pipeline = true, but it cannot be pipelined: %s", why);
      return false;
    }
    if (pipe == WS_PIPELINE_ON)
      ws_stage_step_pipeline(loop);
    if (explain)
      remark_choice(env, loc, pipe == WS_PIPELINE_ON,
                    "pipelined: each consumer warpgroup issues the next step's first "
                    "ws.dot run (S) before this step's second (P V), waits for S alone and "
                    "runs the next step's math while P V runs; the math that reads P V's "
                    "result (a rescale) runs under the following S; step 0's first run "
                    "and math come before the loop, the last step's second run after it; %s",
                    "not pipelined: each step's math waits for its own first ws.dot run, "
                    "since %s",
                    why);
  }
  int *part_of = ws_zalloc((size_t)n, sizeof *part_of);
  for (int i = 0; i < n; i++)
    part_of[i] = -1; /* the partition of its role */
  if (compute >= 0 && !split_compute(&plan, compute, ops, masks, n, part_of, explain, env)) {
    free(part_of);
    return false;
  }
  unsigned present = (1u << plan.num_parts) - 1;
  /* Scalars, last to first, so each sees its users' partitions. */
  for (int i = n - 1; i >= 0; i--) {
    unsigned m = part_of[i] >= 0 ? 1u << part_of[i] : role_partitions(masks[i], index_of);
    if (m == 0) {
      m = users_mask(&plan, ops[i], present);
      m = m ? m : present;
    }
    ws_set_op_partitions(&plan, ops[i], m);
  }
  free(part_of);
  ws_set_op_partitions(&plan, term, present);
  if (matmul)
    copy_stored_accumulators(&plan, explain, env);
  if (matmul && !schedule_epilogue(&plan, index_of))
    return false;
  if (!matmul && mlirOperationGetNumResults(loop) != 0 && !schedule_row_epilogue(&plan, index_of))
    return false;
  if (!ws_mark_cluster_loads(loop, explain, env))
    return false;
  if (mlirOperationIsNull(tile) && !schedule_prologue_loads(&plan, index_of, matmul))
    return false;
  if (!mlirOperationIsNull(tile) && !schedule_prologue(&plan, tile, index_of))
    return false;
  ws_plan_write_partitions(&plan);
  if (explain)
    ws_explain_schedule(&plan, env);
  if (explain && !mlirOperationIsNull(tile) && compute >= 0)
    explain_overlap(&plan, tile, env);
  return true;
}

/* Classifies every op of the loop (however many: the lists grow), then
 * builds the table and the ops' partitions (schedule_ops). */
static bool schedule_loop(MlirOperation loop, int compute_warps, bool explain,
                          const ws_pass_env *env) {
  if (mlirOperationGetNumResults(loop) != 0 && !check_carried(loop))
    return false;
  MlirBlock body = ws_loop_body(loop);
  ws_op_list ops = {0};
  MlirOperation term = mlirBlockGetTerminator(body);
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op) && !mlirOperationEqual(op, term);
       op = mlirOperationGetNextInBlock(op))
    ws_op_list_push(&ops, op);
  unsigned *masks = calloc(ops.len + 1, sizeof *masks);
  if (!masks)
    abort();
  /* a ws.dot whose operands wgmma cannot read explains what the tile
   * errors its operands' math would give otherwise (a B computed in
   * registers, say): report it alone */
  bool dots_ok = true, ok = true;
  const ws_mma_engine *engine = ws_mma_engine_of(loop);
  for (long i = 0; i < ops.len && engine->check_operands; i++)
    if (wsOperationIsA(ops.items[i], "dot"))
      dots_ok &= engine->check_operands(ops.items[i], loop);
  bool matmul = ws_loop_has_dot(loop);
  for (long i = 0; dots_ok && i < ops.len; i++) /* every op's errors, not the first only */
    ok &= classify(ops.items[i], loop, matmul, &masks[i]) == OP_OK;
  ok = dots_ok && ok &&
       schedule_ops(loop, ops.items, masks, (int)ops.len, compute_warps, explain, env);
  free(masks);
  ws_op_list_free(&ops);
  return ok;
}

static void guard_step(MlirOperation loop) {
  MlirValue lb = mlirOperationGetOperand(loop, 0), ub = mlirOperationGetOperand(loop, 1);
  MlirValue step = mlirOperationGetOperand(loop, 2);
  if (ws_step_is_positive(step))
    return;
  ws_builder b = ws_builder_before(loop);
  MlirValue zero = ws_const_int(&b, 0, mlirValueGetType(step));
  mlirOperationSetOperand(loop, 1, ws_select(&b, ws_cmpi(&b, "sgt", step, zero), ub, lb));
}

/* Sets the L2 policy of the load an operand comes from, unless it has
 * one (an operand the loop computes has no copies to hint). */
static void set_l2_policy(MlirValue operand, ws_l2_policy policy) {
  MlirOperation load =
      mlirValueIsAOpResult(operand) ? mlirOpResultGetOwner(operand) : (MlirOperation){NULL};
  if (!mlirOperationIsNull(load) && wsOperationIsA(load, "load") && !ws_has_attr(load, "l2"))
    ws_l2_policy_set(load, policy);
}

/* l2-keep=a (b): each ws.dot's A (B) tiles stay in L2, evict_last, and the
 * other operand's are streamed, evict_first. */
static MlirWalkResult keep_operand_in_l2(MlirOperation op, void *keep) {
  if (wsOperationIsA(op, "dot")) {
    bool a = *(const char *)keep == 'a';
    set_l2_policy(mlirOperationGetOperand(op, 0), a ? WS_L2_LAST : WS_L2_FIRST);
    set_l2_policy(mlirOperationGetOperand(op, 1), a ? WS_L2_FIRST : WS_L2_LAST);
  }
  return MlirWalkResultAdvance;
}

/* The pipeline's num-stages=, overlap=, l2-keep= and store-boxes= are knobs an
 * autotuner turns without editing the source: each becomes the attribute
 * it stands for on a marked loop (or its dots' loads) that has none, so
 * the later passes (and a lit test) read it from the IR as if the user
 * had written it. overlap= applies only to a persistent tile loop (one
 * holding its K loop) of an engine whose accumulator lives in registers;
 * elsewhere there is nothing to choose. */
static void apply_knob_options(MlirOperation marked, const ws_pass_options *opts,
                               const ws_pass_env *env) {
  MlirContext ctx = mlirOperationGetContext(marked);
  int stages = (int)ws_option_int(opts, "num-stages");
  int own_stages = ws_int_attr(marked, "ws.num_stages", 0);
  if (stages > 0 && !ws_has_attr(marked, "ws.num_stages"))
    mlirOperationSetDiscardableAttributeByName(
        marked, mlirStringRefCreateFromCString("ws.num_stages"),
        mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 32), stages));
  else if (stages > 0 && own_stages != stages && ws_option_bool(opts, "explain"))
    ws_remark(env, mlirOperationGetLocation(marked),
              "num-stages=%d: not applied here: the loop sets ws.num_stages = %d itself", stages,
              own_stages);
  const char *overlap = ws_option_string(opts, "overlap");
  MlirOperation k;
  const char *unused =
      !overlap[0]                         ? NULL
      : ws_has_attr(marked, "ws.overlap") ? "the loop sets ws.overlap itself"
      : ws_count_ops(ws_loop_body(marked), "scf.for", &k) != 1
          ? "the loop is not a persistent tile loop holding a K loop (overlap picks how a "
            "persistent matmul's consumer warpgroups take its tiles; a tiled kernel's block "
            "computes one tile)"
      : ws_mma_engine_of(marked)->accumulator == WS_ACC_TENSOR_MEMORY
          ? "its accumulators live in tensor memory, where the MMA warp overlaps tiles itself"
          : NULL;
  if (overlap[0] && !unused)
    mlirOperationSetDiscardableAttributeByName(
        marked, mlirStringRefCreateFromCString("ws.overlap"),
        mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(overlap)));
  else if (unused && ws_option_bool(opts, "explain"))
    ws_remark(env, mlirOperationGetLocation(marked), "overlap=%s: not applied here: %s", overlap,
              unused);
  const char *keep = ws_option_string(opts, "l2-keep");
  if (keep[0])
    mlirOperationWalk(marked, keep_operand_in_l2, (void *)keep, MlirWalkPreOrder);
  if (ws_option_bool(opts, "store-boxes") && !ws_has_attr(marked, "ws.store_boxes"))
    mlirOperationSetDiscardableAttributeByName(
        marked, mlirStringRefCreateFromCString("ws.store_boxes"), mlirBoolAttrGet(ctx, 1));
}

/* One marked loop per kernel (the partitions own the whole block); the
 * first one in a kernel is scheduled, any later one is an error. */
static bool schedule(MlirOperation loop, const ws_pass_options *opts, const ws_pass_env *env) {
  MlirOperation func = ws_enclosing_kernel(loop);
  MlirOperation first;
  if (ws_marked_loops(func, &first, 1) == 1 && !mlirOperationEqual(first, loop)) {
    if (!ws_op_within(loop, first)) /* a loop inside the first: reported there */
      ws_emit_op_error(loop, "is a second ws.warp_specialize loop in one "
                             "kernel; mark one loop per kernel");
    return false;
  }
  if (ws_has_attr(loop, "ws.partitions"))
    return true; /* already scheduled */
  MlirOperation inner[2];
  if (ws_marked_loops(loop, inner, 2) == 2) { /* the walk counts the loop itself first */
    char at[64];
    ws_emit_op_error(inner[1],
                     "carries ws.warp_specialize inside the loop marked at %s; mark "
                     "one loop: a persistent kernel's loop over tiles, or else its "
                     "K loop",
                     ws_loc_str(mlirOperationGetLocation(loop), at, sizeof at));
    return false;
  }
  MlirOperation marked = loop;
  apply_knob_options(marked, opts, env);
  guard_step(marked);
  loop = ws_unnest_tile_loop(marked);
  if (mlirOperationIsNull(loop))
    return false;
  if (!mlirOperationEqual(loop, marked))
    guard_step(loop);
  return schedule_loop(loop, ws_int_attr(func, "ws.num_warps", WS_DEFAULT_COMPUTE_WARPS),
                       ws_option_bool(opts, "explain"), env);
}

static bool run_schedule(MlirOperation root, const ws_pass_options *opts, const ws_pass_env *env) {
  return ws_run_on_marked_loops(root, schedule, opts, env);
}

static const ws_option_spec schedule_options[] = {
    {"explain", WS_OPTION_BOOL, "false",
     "remark why each op went to its partition, and the partition table", NULL, 0, 0},
    {"num-stages", WS_OPTION_INT, "0",
     "ws.num_stages for each marked loop without one (0: the planner's depth)", NULL, 0, 8},
    {"overlap", WS_OPTION_STRING, "",
     "ws.overlap for each sm_90a persistent tile loop without one (empty: the "
     "planner's choice)",
     "|pingpong|cooperative", 0, 0},
    {"l2-keep", WS_OPTION_STRING, "",
     "the ws.dot operand whose loads without an l2 policy stay in L2 (evict_last) "
     "while the other's are streamed (evict_first); empty: no policy",
     "|a|b", 0, 0},
    {"store-boxes", WS_OPTION_BOOL, "false",
     "ws.store_boxes = true for each marked loop without ws.store_boxes: a matmul's C "
     "tile goes to the store warp one TMA box at a time",
     NULL, 0, 0},
};

const ws_pass_def ws_partition_schedule_pass_def = {
    .argument = "ws-partition-schedule",
    .summary = "Assign the ops of each ws.warp_specialize loop to load, "
               "compute and store partitions",
    WS_PASS_OPTIONS(schedule_options),
    .run = run_schedule,
};
