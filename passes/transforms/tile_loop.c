/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* tile_loop.c: a persistent matmul's tile loop, for ws-partition-schedule:
 * the overlap decider (its consumer warpgroups take alternate tiles,
 * ping-pong, or share each tile, cooperative; ws.overlap on the tile loop)
 * and the unnesting that moves ws.warp_specialize to the K loop and marks
 * the outer loop ws.tile_loop. */
#include <stdio.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "ws-c/Dialect.h"
#include "../plan/ws_plan.h"
#include "../support/ws_pass.h"
#include "../target/ws_target.h"
#include "ws_tile_loop.h"
#include "../../dialect/ws_text.h"

static int64_t dim_of(MlirValue v, int d) {
  return mlirShapedTypeGetDimSize(mlirValueGetType(v), d);
}

static void set_unit_attr(MlirOperation op, const char *name, bool on) {
  MlirStringRef ref = mlirStringRefCreateFromCString(name);
  if (on)
    mlirOperationSetDiscardableAttributeByName(op, ref,
                                               mlirUnitAttrGet(mlirOperationGetContext(op)));
  else
    mlirOperationRemoveDiscardableAttributeByName(op, ref);
}

/* v is the same for every tile: defined before the tile loop; or scalar
 * arith in it on such values and the tile's ws.stream_k_unit (the K steps
 * of a stream-K unit, which the protocol proof takes from the runs it
 * checks), at most `depth` ops deep. */
static bool fixed_or_from_unit(MlirValue v, MlirOperation tile, int depth) {
  if (!ws_defined_within(v, tile))
    return true;
  if (!mlirValueIsAOpResult(v) || depth == 0)
    return false;
  MlirOperation op = mlirOpResultGetOwner(v);
  if (wsOperationIsA(op, "stream_k_unit"))
    return mlirOperationEqual(mlirOperationGetParentOperation(op), tile);
  if (!ws_op_name_starts(op, "arith.") || mlirOperationGetNumRegions(op) != 0)
    return false;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
    if (!fixed_or_from_unit(mlirOperationGetOperand(op, i), tile, depth - 1))
      return false;
  return true;
}

/* The ws.dot ops of K loop k that do not accumulate into its carried
 * value: each result is a product the consumers hold next to it. */
int ws_fresh_products(MlirOperation k) {
  MlirBlock body = ws_loop_body(k);
  int n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!wsOperationIsA(op, "dot"))
      continue;
    MlirValue acc = mlirOperationGetOperand(op, 2);
    n += !(mlirValueIsABlockArgument(acc) && mlirBlockEqual(mlirBlockArgumentGetOwner(acc), body));
  }
  return n;
}

/* Shared memory a slot of `tile` takes: its bytes, rounded up to the 1024
 * a swizzled TMA box is aligned to. */
static long long slot_bytes(MlirType tile) { return (ws_tile_bytes(tile) + 1023) / 1024 * 1024; }

/* Whether ping-pong's second C tile would leave the K loop's rings fewer
 * than 3 slots where one C tile (cooperative) leaves 3: with 2 slots the
 * load warp runs only one step ahead, and the kernel waits on memory (128
 * x 128 x 128 f16 tiles ran at 337-380 TFLOP/s ping-pong, 543-653
 * cooperative, on the H100). An estimate of ws-plan-memory's layout: each
 * K-loop load's slot, each epilogue tile's. */
bool ws_pingpong_starves_rings(MlirOperation tile, MlirOperation k) {
  const ws_target *target = ws_target_of(tile);
  if (!target)
    return false;
  long long step = 0, epilogue = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(ws_loop_body(k)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (wsOperationIsA(op, "load"))
      step += slot_bytes(mlirValueGetType(mlirOperationGetResult(op, 0)));
  for (MlirOperation op = mlirOperationGetNextInBlock(k); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (wsOperationIsA(op, "store"))
      epilogue += slot_bytes(
          mlirValueGetType(mlirOperationGetOperand(op, mlirOperationGetNumOperands(op) - 1)));
    else if (wsOperationIsA(op, "load"))
      epilogue += slot_bytes(mlirValueGetType(mlirOperationGetResult(op, 0)));
  if (!step)
    return false;
  long long budget = target->smem_per_block;
  return (budget - 2 * epilogue) / step < 3 && (budget - epilogue) / step >= 3;
}

/* How a persistent matmul overlaps a tile's epilogue with the next tile's
 * K loop, recorded as ws.overlap on the tile loop: "pingpong" (the two
 * consumer warpgroups take alternate tiles, each the whole accumulator,
 * so one's epilogue runs while the other's K loop does) where one
 * warpgroup can hold the accumulator (8 warps, M = 128, M x N / 128 at most
 * 128 f32 per thread); else "cooperative" (both warpgroups share each tile
 * and the store warp drains C while they go on). The user's ws.overlap
 * wins when it can be had; false after an error. */
static bool choose_overlap(MlirOperation tile, MlirOperation k) {
  MlirOperation dot;
  ws_count_ops(ws_loop_body(k), "ws.dot", &dot);
  MlirOperation func = ws_enclosing_kernel(tile);
  int warps = ws_int_attr(func, "ws.num_warps", WS_DEFAULT_COMPUTE_WARPS);
  int64_t m = mlirOperationIsNull(dot) ? 0 : dim_of(mlirOperationGetOperand(dot, 2), 0);
  int64_t n = mlirOperationIsNull(dot) ? 0 : dim_of(mlirOperationGetOperand(dot, 2), 1);
  /* every accumulator the K loop carries (a SwiGLU's two) and each ws.dot
   * into a fresh accumulator (a block-scaled product) is an M x N tile a
   * warpgroup holds */
  int64_t tiles = mlirOperationGetNumResults(k) + ws_fresh_products(k);
  bool can = warps == 8 && m == 128 && tiles * m * n / 128 <= 128;
  bool starves = can && ws_pingpong_starves_rings(tile, k);
  MlirStringRef key = mlirStringRefCreateFromCString("ws.overlap");
  MlirAttribute asked = mlirOperationGetDiscardableAttributeByName(tile, key);
  bool pingpong = can && !starves;
  if (ws_mma_engine_of(tile)->accumulator == WS_ACC_TENSOR_MEMORY) {
    /* the accumulator lives in tensor memory, double-buffered by
     * ws-plan-memory: the MMA warp fills one while the epilogue drains the
     * other, whatever the epilogue warps do */
    if (!mlirAttributeIsNull(asked) &&
        !(mlirAttributeIsAString(asked) && ws_ref_eq(mlirStringAttrGetValue(asked), "tmem"))) {
      ws_emit_op_error(tile, "has ws.overlap on sm_100a, where a persistent matmul overlaps "
                             "its tiles through two tensor-memory accumulators (\"tmem\", "
                             "the only choice there)");
      return false;
    }
    mlirOperationSetDiscardableAttributeByName(
        tile, key,
        mlirStringAttrGet(mlirOperationGetContext(tile), mlirStringRefCreateFromCString("tmem")));
    return true;
  }
  if (!mlirAttributeIsNull(asked)) {
    MlirStringRef v = mlirAttributeIsAString(asked) ? mlirStringAttrGetValue(asked)
                                                    : mlirStringRefCreateFromCString("");
    if (!ws_ref_eq(v, "pingpong") && !ws_ref_eq(v, "cooperative")) {
      ws_emit_op_error(tile,
                       "has ws.overlap = %.*s; expected \"pingpong\" or "
                       "\"cooperative\"",
                       (int)v.length, v.data);
      return false;
    }
    pingpong = ws_ref_eq(v, "pingpong");
    if (pingpong && !can) {
      char why[160];
      if (warps != 8)
        snprintf(why, sizeof why, "ws.num_warps is %d, not 8 (two warpgroups)", warps);
      else if (m != 128)
        snprintf(why, sizeof why, "M is %lld, not 128", (long long)m);
      else
        snprintf(why, sizeof why,
                 "%lld tile(s) of N = %lld (%s), %lld f32 per thread where 128 fit",
                 (long long)tiles, (long long)n,
                 tiles > 1 ? "the K loop's accumulators and fresh products" : "the accumulator",
                 (long long)(tiles * m * n / 128));
      ws_emit_op_error(tile,
                       "asks for ws.overlap = \"pingpong\", where each consumer "
                       "warpgroup holds a whole %lldx%lld accumulator on its own; "
                       "here %s (ping-pong needs 8 warps, M = 128 and N <= 128; "
                       "\"cooperative\" has no such limit)",
                       (long long)m, (long long)n, why);
      return false;
    }
  }
  mlirOperationSetDiscardableAttributeByName(
      tile, key,
      mlirStringAttrGet(mlirOperationGetContext(tile),
                        mlirStringRefCreateFromCString(pingpong ? "pingpong" : "cooperative")));
  return true;
}

/* A ws.warp_specialize loop whose body holds an scf.for is a persistent
 * matmul: the marked loop runs over tile ids, the loop inside it is the K
 * loop. Checks that shape and moves the mark: the tile loop becomes
 * ws.tile_loop and the K loop ws.warp_specialize (with ws.num_stages), so
 * that every later pass plans the K loop as it plans any matmul and finds
 * the tile loop around it. Returns the K loop, the loop itself when it
 * holds no loop, or a null op after an error. */
MlirOperation ws_unnest_tile_loop(MlirOperation tile) {
  MlirBlock body = ws_loop_body(tile);
  MlirOperation k;
  int loops = ws_count_ops(body, "scf.for", &k);
  if (loops == 0)
    return tile;
  if (loops > 1 || mlirOperationGetNumResults(tile) != 0 || mlirOperationGetNumResults(k) == 0) {
    ws_emit_op_error(tile,
                     "is a persistent tile loop only if it carries nothing and "
                     "holds one scf.for, a K loop carrying its ws.dot accumulators "
                     "(it holds %d loop(s) and carries %d value(s); its K loop "
                     "carries %d)",
                     loops, (int)mlirOperationGetNumResults(tile),
                     loops ? (int)mlirOperationGetNumResults(k) : 0);
    return (MlirOperation){NULL};
  }
  for (int i = 0; i < 3; i++)
    if (!fixed_or_from_unit(mlirOperationGetOperand(k, i), tile, 8)) {
      ws_emit_op_error(k,
                       "has its %s computed inside the tile loop; every tile runs "
                       "the same K steps (only ws.split_k = \"stream\" varies "
                       "them), so compute the K loop's bounds before the tile loop",
                       (const char *[]){"lower bound", "upper bound", "step"}[i]);
      return (MlirOperation){NULL};
    }
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationEqual(op, k);
       op = mlirOperationGetNextInBlock(op))
    if (!ws_is_scalar_math(op) && !ws_is_splat_tile(op)) {
      ws_emit_op_error(op, "cannot come before the K loop of a persistent tile loop; "
                           "there: scalar arith (the tile's coordinates) and splat "
                           "tiles");
      return (MlirOperation){NULL};
    }
  if (!choose_overlap(tile, k))
    return (MlirOperation){NULL};
  set_unit_attr(tile, "ws.warp_specialize", false);
  set_unit_attr(tile, "ws.tile_loop", true);
  set_unit_attr(k, "ws.warp_specialize", true);
  static const char *const moved[] = {"ws.num_stages", "ws.store_boxes"};
  for (int i = 0; i < 2; i++) {
    MlirStringRef name = mlirStringRefCreateFromCString(moved[i]);
    MlirAttribute attr = mlirOperationGetDiscardableAttributeByName(tile, name);
    if (!mlirAttributeIsNull(attr)) {
      mlirOperationSetDiscardableAttributeByName(k, name, attr);
      mlirOperationRemoveDiscardableAttributeByName(tile, name);
    }
  }
  return k;
}

/* A step known only at run time could be 0 or negative, and every
 * partition's copy of the loop would then never end. Such a loop runs to
 * `step > 0 ? ub : lb`: no iteration at all for a step that is not
 * positive. Constant steps are checked by ws-verify. */
