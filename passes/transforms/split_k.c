/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* split_k.c: ws-split-k, which splits the K range of a persistent matmul's
 * tiles over several blocks when there are fewer tiles than blocks, so
 * that a thin output (M = 256 against thousands of K) keeps every SM busy.
 * It runs on the input, before ws-partition-schedule, on a tile loop
 * marked ws.split_k = true, and rewrites it into plain IR:
 *
 *   before the tile loop (every block computes the same):
 *     k_steps = ceil(K / BK)
 *     splits  = clamp(grid / tiles, 1, min(MAX_SPLITS, k_steps / MIN_STEPS))
 *     span    = ceil(k_steps / splits) * BK     (the K range of one split)
 *   scf.for %u = block_id to tiles * splits step grid_dim {   (a unit)
 *     %t = %u / splits, %s = %u % splits      (the user's %t is now %t)
 *     K loop: scf.for %kk = 0 to span step BK, its %k = %kk + %s * span
 *     %sum = ws.split_k_sum %acc, %workspace, %u, %splits
 *     epilogue on %sum; ws.store at column -2^30 unless %s = splits - 1
 *   }
 *
 * Every unit runs the same number of K steps, so every partition's loops
 * stay as the protocol proof knows them; a split that reaches past K loads
 * zeros (TMA fills what lies outside a tensor), which add nothing. The
 * last split of a tile (its owner) waits for the others' partial sums in
 * the workspace (a new i64 kernel argument, the address of a buffer of
 * grid x ws.workspace_per_block bytes, zeroed once) and adds them in a
 * fixed order, so results do not change from run to run; the others
 * publish theirs and store nothing (a store wholly outside the tensor
 * writes no byte). An owner only waits for units of lower index, which
 * every block runs in increasing order: with all blocks of the grid
 * resident at once (the launcher refuses a grid past the persistent one)
 * no wait can be circular. ws.split_k_sum is lowered by
 * conversion/lower_split_k.c.
 *
 * ws.split_k = "stream" (or the option split-k=stream) is stream-K, for
 * shapes of at least one wave of tiles: the loop runs `whole` tiles
 * round-robin (all but the last two waves' worth), then three units per
 * block over the last tiles' K steps, shared out in equal runs
 * (ws.stream_k_unit gives each unit's tile, K steps and starting step;
 * the K loop runs that many steps from there, wrapping); after it
 * ws.stream_k_sum, and a unit that ends its tile stores C. A block runs
 * its parts last tile first: the first publishes the start of a tile,
 * the last (the owner of the tile it ends) waits for the previous block's
 * first, which no wait precedes, so no wait can be circular either. */
#include <stdio.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "ws-c/Dialect.h"
#include "../plan/ws_plan.h"
#include "../support/ws_builder.h"
#include "../support/ws_op_list.h"
#include "../support/ws_pass.h"
#include "../target/ws_target.h"
#include "../../dialect/ws_text.h"

/* A split runs at least MIN_STEPS K steps (fewer would spend more on the
 * exchange than they save), and a tile splits at most MAX_SPLITS ways. */
enum { MIN_STEPS = 8, MAX_SPLITS = 4 };

/* The column a contributor's store is moved to: far left of any tensor,
 * so that the store's every box lies outside it and writes nothing. */
#define OFF_TENSOR (-(1 << 30))

static MlirOperation defining_op(MlirValue v) {
  return mlirValueIsAOpResult(v) ? mlirOpResultGetOwner(v) : (MlirOperation){NULL};
}

/* v is gpu.<what> x, possibly through arith.index_cast. */
static bool is_gpu_x(MlirValue v, const char *what) {
  MlirOperation op = defining_op(v);
  if (!mlirOperationIsNull(op) && ws_op_is(op, "arith.index_cast"))
    op = defining_op(mlirOperationGetOperand(op, 0));
  return !mlirOperationIsNull(op) && ws_op_is(op, what) && ws_gpu_dimension(op) == 0;
}

/* The one scf.for in the tile loop's body (the K loop), or null. */
static MlirOperation only_loop(MlirOperation tile) {
  MlirOperation k = {NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(ws_loop_body(tile)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (ws_op_is(op, "scf.for")) {
      if (!mlirOperationIsNull(k))
        return (MlirOperation){NULL};
      k = op;
    }
  return k;
}

/* Why the tile loop cannot be split, or NULL when it can; *at is the op
 * the error belongs to (the tile loop unless the K loop is at fault). */
static const char *refusal(MlirOperation tile, MlirOperation k, MlirOperation func,
                           MlirOperation *at) {
  long long v;
  *at = tile;
  if (mlirOperationIsNull(k) || mlirOperationGetNumResults(k) != 1)
    return "is not a persistent matmul's tile loop (a loop over tile ids holding one K loop "
           "that carries a ws.dot accumulator); put ws.split_k on that tile loop";
#define TILE_LOOP_FORM                                                                             \
  "; it must run from gpu.block_id x in steps of gpu.grid_dim x, the form whose blocks "           \
  "take their units in order, which the split's waits rely on"
  if (!is_gpu_x(mlirOperationGetOperand(tile, 0), "gpu.block_id"))
    return "does not start at gpu.block_id x" TILE_LOOP_FORM;
  if (!is_gpu_x(mlirOperationGetOperand(tile, 2), "gpu.grid_dim"))
    return "does not step by gpu.grid_dim x" TILE_LOOP_FORM;
#undef TILE_LOOP_FORM
  *at = k;
  if (!ws_constant_int(mlirOperationGetOperand(k, 0), &v) || v != 0 ||
      !ws_constant_int(mlirOperationGetOperand(k, 2), &v) || v <= 0)
    return "does not run from 0 in a constant step (the splits divide its steps); run it "
           "from 0 in steps of the K tile and add any offset to the ws.load coordinates";
  if (ws_defined_within(mlirOperationGetOperand(k, 1), tile))
    return "has its upper bound computed inside the tile loop (every tile splits the same "
           "K); compute it before the tile loop";
  *at = tile;
  if (ws_has_attr(func, "ws.cluster"))
    return "runs in clusters (ws.cluster), which split-K does not take yet";
  if (ws_mma_engine_of(tile)->accumulator == WS_ACC_TENSOR_MEMORY)
    return "is on a chip whose accumulator lives in tensor memory (sm_100a), where split-K "
           "is not built yet";
  return NULL;
}

/* The splits of each tile, the same in every block: as many as the grid
 * has blocks per tile, at most MAX_SPLITS and at most k_steps / MIN_STEPS,
 * at least 1. */
static MlirValue count_splits(ws_builder *b, MlirValue tiles, MlirValue grid, MlirValue k_steps) {
  MlirValue one = ws_const_i32(b, 1);
  MlirValue per_tile = ws_arith(b, "arith.divui", grid, ws_arith(b, "arith.maxui", tiles, one));
  MlirValue by_k = ws_arith(b, "arith.divui", k_steps, ws_const_i32(b, MIN_STEPS));
  MlirValue cap = ws_arith(b, "arith.minui", by_k, ws_const_i32(b, MAX_SPLITS));
  return ws_arith(b, "arith.maxui", ws_arith(b, "arith.minui", per_tile, cap), one);
}

/* Replaces every use of `of` by `with`, except the use by `keep`. */
static void replace_uses_except(MlirValue of, MlirValue with, MlirOperation keep) {
  mlirValueReplaceAllUsesExcept(of, with, 1, &keep);
}

/* The kernel's new last argument: the workspace's address, an i64, named
 * "workspace" by its location (a launch's refusals name it so). */
static MlirValue add_workspace_argument(MlirOperation func, MlirLocation loc) {
  MlirContext ctx = mlirOperationGetContext(func);
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  MlirLocation named = mlirLocationNameGet(ctx, mlirStringRefCreateFromCString("workspace"), loc);
  MlirValue arg = mlirBlockAddArgument(entry, mlirIntegerTypeGet(ctx, 64), named);
  intptr_t n = mlirBlockGetNumArguments(entry);
  MlirType inputs[64];
  if (n > 64)
    return (MlirValue){NULL};
  for (intptr_t i = 0; i < n; i++)
    inputs[i] = mlirValueGetType(mlirBlockGetArgument(entry, i));
  MlirType fn = mlirFunctionTypeGet(ctx, n, inputs, 0, NULL);
  mlirOperationSetAttributeByName(func, mlirStringRefCreateFromCString("function_type"),
                                  mlirTypeAttrGet(fn));
  return arg;
}

/* Moves the innermost coordinate of every ws.store after the K loop to
 * OFF_TENSOR unless `owner`: only a tile's owner writes C. */
static void store_only_owner(MlirOperation k, MlirValue owner) {
  for (MlirOperation op = mlirOperationGetNextInBlock(k); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!wsOperationIsA(op, "store"))
      continue;
    intptr_t inner = mlirOperationGetNumOperands(op) - 2; /* desc, coords..., value */
    ws_builder b = ws_builder_before(op);
    mlirOperationSetOperand(
        op, inner,
        ws_select(&b, owner, mlirOperationGetOperand(op, inner), ws_const_i32(&b, OFF_TENSOR)));
  }
}

/* Bytes of the workspace per block of the grid: a contributor's f32
 * accumulator, then its ready flags (one 4-byte word per consumer
 * warpgroup) in a 128-byte line. */
static long long workspace_per_block(MlirValue acc) {
  MlirType t = mlirValueGetType(acc);
  return mlirShapedTypeGetDimSize(t, 0) * mlirShapedTypeGetDimSize(t, 1) * 4 + 128;
}

/* What both forms start from: the K loop, its f32 accumulator, the
 * kernel's new workspace argument, the tile loop's tiles and grid, the K
 * step and the K steps (computed before the tile loop, at `pre`). */
typedef struct split_site {
  MlirOperation k;
  MlirValue acc, workspace, tiles, grid, bk, k_steps;
  ws_builder pre;
} split_site;

/* Fills `s` for a tile loop that may be split; false after a located
 * error. */
static bool prepare_split(MlirOperation tile, const char *mode, split_site *s) {
  MlirOperation func = ws_enclosing_kernel(tile), at;
  s->k = only_loop(tile);
  const char *why = refusal(tile, s->k, func, &at);
  if (why) {
    ws_emit_op_error(at, "%s ws.split_k = %s, but it %s",
                     mlirOperationEqual(at, tile) ? "asks for"
                                                  : "is the K loop of a tile loop marked",
                     mode, why);
    return false;
  }
  s->acc = mlirOperationGetResult(s->k, 0);
  MlirType t = mlirValueGetType(s->acc);
  if (!mlirTypeIsARankedTensor(t) || mlirShapedTypeGetRank(t) != 2 ||
      mlirShapedTypeGetElementType(t).ptr != mlirF32TypeGet(mlirOperationGetContext(tile)).ptr) {
    ws_emit_op_error(s->k, "carries no 2-d f32 accumulator, which ws.split_k sums across blocks");
    return false;
  }
  s->workspace = add_workspace_argument(func, mlirOperationGetLocation(tile));
  if (mlirValueIsNull(s->workspace)) {
    ws_emit_op_error(func, "has too many arguments for a workspace");
    return false;
  }
  s->pre = ws_builder_before(tile);
  s->tiles = mlirOperationGetOperand(tile, 1);
  s->grid = mlirOperationGetOperand(tile, 2);
  s->bk = mlirOperationGetOperand(s->k, 2);
  s->k_steps = ws_ceil_div(&s->pre, mlirOperationGetOperand(s->k, 1), s->bk);
  return true;
}

/* What both forms do last: only a tile's owner stores (`owner`), the
 * workspace's size per block goes on the kernel, the mark goes, and with
 * explain the remark `what` says how, the workspace's size after it. */
static void finish_split(MlirOperation tile, MlirOperation k, MlirValue acc, MlirValue owner,
                         const ws_pass_env *env, bool explain, const char *what) {
  store_only_owner(k, owner);
  long long per_block = workspace_per_block(acc);
  ws_set_int_attr(ws_enclosing_kernel(tile), "ws.workspace_per_block", per_block);
  mlirOperationRemoveAttributeByName(tile, mlirStringRefCreateFromCString("ws.split_k"));
  if (explain)
    ws_remark(env, mlirOperationGetLocation(tile),
              "%s (the workspace: %lld bytes per block of "
              "the grid, a new i64 argument)",
              what, per_block);
}

/* The K loop's %k becomes its own plus `first` (a split's first K); for
 * a stream-K unit (`rotate` not null) starting `rotate` elements in and
 * wrapping at `span` (the unit's K elements), so that a whole tile can
 * start where the other blocks are. */
static void shift_k(MlirOperation k, MlirValue first, MlirValue rotate, MlirValue span) {
  MlirBlock kbody = ws_loop_body(k);
  MlirValue kk = mlirBlockGetArgument(kbody, 0), at = kk;
  ws_builder in = ws_builder_before(mlirBlockGetFirstOperation(kbody));
  if (!mlirValueIsNull(rotate)) {
    at = ws_arith(&in, "arith.addi", kk, rotate);
    MlirValue back = ws_arith(&in, "arith.subi", at, span);
    at = ws_select(&in, ws_cmpi(&in, "uge", at, span), back, at);
  }
  MlirValue k_abs = ws_arith(&in, "arith.addi", at, first);
  /* the first op built reads %k; every other use goes to k_abs */
  replace_uses_except(kk, k_abs, mlirBlockGetFirstOperation(kbody));
}

/* The op `name` (the exchange of partial sums, ops[0] the accumulator)
 * right after the K loop, in place of the accumulator everywhere after
 * it; *post builds after it. */
static void sum_after(MlirOperation k, const char *name, int n, const MlirValue *ops,
                      ws_builder *post) {
  *post = ws_builder_before(mlirOperationGetNextInBlock(k));
  MlirValue sum = ws_build_value(post, name, n, ops, mlirValueGetType(ops[0]), 0, NULL);
  replace_uses_except(ops[0], sum, defining_op(sum));
}

static bool split_tile_loop(MlirOperation tile, const ws_pass_env *env, bool explain) {
  split_site in;
  if (!prepare_split(tile, "true", &in))
    return false;
  MlirOperation k = in.k;
  MlirValue acc = in.acc;
  /* before the tile loop: the splits and their span */
  MlirValue splits = count_splits(&in.pre, in.tiles, in.grid, in.k_steps);
  MlirValue steps = ws_ceil_div(&in.pre, in.k_steps, splits);
  MlirValue span = ws_arith(&in.pre, "arith.muli", steps, in.bk);
  mlirOperationSetOperand(tile, 1, ws_arith(&in.pre, "arith.muli", in.tiles, splits));
  mlirOperationSetOperand(k, 1, span);
  /* the unit's tile and split, first in the tile loop's body */
  MlirBlock body = ws_loop_body(tile);
  MlirValue unit = mlirBlockGetArgument(body, 0);
  ws_builder head = ws_builder_before(mlirBlockGetFirstOperation(body));
  MlirValue t = ws_arith(&head, "arith.divui", unit, splits);
  replace_uses_except(unit, t, defining_op(t));
  MlirValue split = ws_arith(&head, "arith.remui", unit, splits);
  shift_k(k, ws_arith(&head, "arith.muli", split, span), (MlirValue){NULL}, (MlirValue){NULL});
  /* after the K loop: the sum over the splits, and the owner's store */
  ws_builder post;
  MlirValue ops[4] = {acc, in.workspace, unit, splits};
  sum_after(k, "ws.split_k_sum", 4, ops, &post);
  MlirValue last = ws_arith(&post, "arith.subi", splits, ws_const_i32(&post, 1));
  char what[320];
  snprintf(what, sizeof what,
           "split-K: each tile's K range is split over up to %d blocks when "
           "the grid has more blocks than tiles (splits = grid / tiles, each of at least %d K "
           "steps); a tile's last split adds the others' f32 partial sums in a fixed order "
           "from the workspace and alone stores C",
           MAX_SPLITS, MIN_STEPS);
  finish_split(tile, k, acc, ws_cmpi(&post, "eq", split, last), env, explain, what);
  return true;
}

/* Stream-K's whole tiles, run round-robin before the K steps are shared
 * out: all but the last two waves' worth. Only from one wave up (tiles >=
 * grid) and with K steps to share; else every tile is whole, as without
 * ws.split_k. *units is the tile loop's new bound: the whole tiles and
 * three units per block after them, or the tiles. */
static MlirValue count_whole_tiles(ws_builder *b, MlirValue tiles, MlirValue grid,
                                   MlirValue k_steps, MlirValue *units) {
  MlirValue zero = ws_const_i32(b, 0);
  MlirValue waves = ws_ceil_div(b, tiles, grid);
  MlirValue two_waves = ws_arith(b, "arith.muli", grid, ws_const_i32(b, 2));
  MlirValue dp = ws_select(
      b, ws_cmpi(b, "uge", tiles, two_waves),
      ws_arith(b, "arith.muli", ws_arith(b, "arith.subi", waves, ws_const_i32(b, 2)), grid), zero);
  MlirValue stream =
      ws_arith(b, "arith.andi", ws_cmpi(b, "ugt", k_steps, zero), ws_cmpi(b, "uge", tiles, grid));
  MlirValue three = ws_arith(b, "arith.muli", grid, ws_const_i32(b, 3));
  *units = ws_select(b, stream, ws_arith(b, "arith.addi", dp, three), tiles);
  return ws_select(b, stream, dp, tiles);
}

/* ws.split_k = "stream": the tile loop runs stream-K's units (the
 * ws.stream_k_unit op says which), each K loop over its unit's K steps,
 * then ws.stream_k_sum; a unit stores C when it ends its tile. */
static bool stream_tile_loop(MlirOperation tile, const ws_pass_env *env, bool explain) {
  split_site in;
  if (!prepare_split(tile, "\"stream\"", &in))
    return false;
  MlirOperation k = in.k;
  MlirValue acc = in.acc, tiles = in.tiles, grid = in.grid, bk = in.bk, k_steps = in.k_steps;
  MlirValue units, whole = count_whole_tiles(&in.pre, tiles, grid, k_steps, &units);
  mlirOperationSetOperand(tile, 1, units);
  /* the unit's tile and K steps, first in the tile loop's body */
  MlirBlock body = ws_loop_body(tile);
  MlirValue unit = mlirBlockGetArgument(body, 0);
  ws_builder head = ws_builder_before(mlirBlockGetFirstOperation(body));
  MlirValue ops[5] = {unit, whole, tiles, k_steps, grid};
  MlirType i32 = mlirValueGetType(unit), types[4] = {i32, i32, i32, i32};
  MlirOperation u = ws_build(&head, "ws.stream_k_unit", 5, ops, 4, types, 0, NULL, 0);
  MlirValue t = mlirOperationGetResult(u, 0), kb = mlirOperationGetResult(u, 1);
  MlirValue ke = mlirOperationGetResult(u, 2), ks = mlirOperationGetResult(u, 3);
  replace_uses_except(unit, t, u);
  MlirValue span = ws_arith(&head, "arith.muli", ws_arith(&head, "arith.subi", ke, kb), bk);
  mlirOperationSetOperand(k, 1, span);
  shift_k(k, ws_arith(&head, "arith.muli", kb, bk),
          ws_arith(&head, "arith.muli", ws_arith(&head, "arith.subi", ks, kb), bk), span);
  /* after the K loop: the owner's sum, and the store of a tile's end */
  ws_builder post;
  MlirValue sum_ops[5] = {acc, in.workspace, kb, ke, k_steps};
  sum_after(k, "ws.stream_k_sum", 5, sum_ops, &post);
  finish_split(tile, k, acc, ws_cmpi(&post, "eq", ke, k_steps), env, explain,
               "stream-K: with T tiles on G blocks (T >= G), the first (ceil(T / G) - 2) x G "
               "tiles run whole, round-robin (none when T < 2G); the other tiles' K steps are "
               "shared out in G equal runs, one per block, each at most three units (parts of "
               "tiles, run last tile first and in step with the other blocks' K); a tile split "
               "over two blocks is finished by the one holding its end, which adds the other's "
               "f32 partial sum from the workspace. With T < G, or no K step, every tile runs "
               "whole");
  return true;
}

/* Loops marked ws.split_k, and (to say why they stay whole) persistent
 * tile loops without it. */
typedef struct split_loops {
  ws_op_list asked, whole;
} split_loops;

static MlirWalkResult push_split_loop(MlirOperation op, void *user_data) {
  split_loops *l = user_data;
  MlirAttribute a =
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("ws.split_k"));
  if (ws_op_is(op, "scf.for") && !mlirAttributeIsNull(a))
    ws_op_list_push(&l->asked, op);
  else if (ws_op_is(op, "scf.for") && ws_has_attr(op, "ws.warp_specialize") &&
           !mlirOperationIsNull(only_loop(op)))
    ws_op_list_push(&l->whole, op);
  return MlirWalkResultAdvance;
}

static bool run_split_k(MlirOperation root, const ws_pass_options *opts, const ws_pass_env *env) {
  if (!ws_verify_root(root, ""))
    return false;
  bool explain = ws_option_bool(opts, "explain");
  const char *knob = ws_option_string(opts, "split-k");
  split_loops found = {{0}, {0}};
  mlirOperationWalk(root, push_split_loop, &found, MlirWalkPreOrder);
  ws_op_list loops = found.asked;
  bool ok = true;
  if (knob[0]) { /* split-k=: the unmarked tile loops as if marked */
    for (long i = 0; i < found.whole.len; i++) {
      MlirOperation loop = found.whole.items[i];
      ok &= strcmp(knob, "stream") == 0 ? stream_tile_loop(loop, env, explain)
                                        : split_tile_loop(loop, env, explain);
    }
    found.whole.len = 0;
  }
  for (long i = 0; explain && i < found.whole.len; i++)
    ws_remark(env, mlirOperationGetLocation(found.whole.items[i]),
              "split-K: off (ws.split_k = true on this tile loop splits each tile's K range "
              "over blocks when the grid has more blocks than tiles, a thin output's case; "
              "the kernel then takes a workspace argument, so ws does not add it unasked)");
  ws_op_list_free(&found.whole);
  for (long i = 0; i < loops.len; i++) {
    MlirOperation loop = loops.items[i];
    MlirAttribute a =
        mlirOperationGetAttributeByName(loop, mlirStringRefCreateFromCString("ws.split_k"));
    if (mlirAttributeIsAString(a))
      ok &= stream_tile_loop(loop, env, explain);
    else if (mlirBoolAttrGetValue(a))
      ok &= split_tile_loop(loop, env, explain);
    else
      mlirOperationRemoveAttributeByName(loop, mlirStringRefCreateFromCString("ws.split_k"));
  }
  ws_op_list_free(&loops);
  return ok;
}

static const ws_option_spec split_k_options[] = {
    {"explain", WS_OPTION_BOOL, "false", "remark how each split tile loop was split", NULL, 0, 0},
    {"split-k", WS_OPTION_STRING, "",
     "split a persistent matmul's tile loop that has no ws.split_k as ws.split_k = true or "
     "\"stream\" would (a knob an autotuner turns; empty: leave it whole)",
     "|true|stream", 0, 0},
};

const ws_pass_def ws_split_k_pass_def = {
    .argument = "ws-split-k",
    .summary = "Split the K range of a persistent matmul's tiles over blocks "
               "(ws.split_k = true on its tile loop), or share its last tiles' K steps "
               "out evenly (ws.split_k = \"stream\": stream-K)",
    WS_PASS_OPTIONS(split_k_options),
    .run = run_split_k,
};
