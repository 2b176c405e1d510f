/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* tile_order.c: ws-tile-order, which picks the order a persistent (or
 * any) matmul walks its output tiles in and expands ws.tile_coords into
 * that order's index arithmetic. It runs on the input, after ws-verify and
 * before ws-split-k, so every later pass sees plain arith.
 *
 * The order is grouped (Triton's GROUP_SIZE_M): tiles come G rows of M
 * tiles at a time, down each column of the group, so that the blocks of a
 * wave (the chip's SMs' worth of consecutive tiles) share G rows of A and
 * about SMs / G columns of B, which L2 then serves instead of DRAM. A wave
 * reads G x BM rows of A and SMs / G x BN rows of B (of K each); their sum
 * is least at G = sqrt(SMs x BN / BM), and the planner takes the largest
 * power of two at or below it (in integers: no libm) (measured on the H100: 16 for 128 x 256
 * tiles, 8 for 128 x 128). In a cluster of c blocks along x a unit of the
 * order is c M tiles, the c CTAs of a cluster taking its rows in rank
 * order, so G counts units. `order = "row"` (row-major) or `group = N` on
 * the op forces a choice. */
#include <stdio.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "ws-c/Dialect.h"
#include "../plan/ws_plan.h"
#include "../support/ws_builder.h"
#include "../support/ws_op_list.h"
#include "../support/ws_pass.h"
#include "../target/ws_target.h"

/* The block's rank in its cluster along x, as `type`, read at the top of
 * the kernel (a tile loop's body takes no gpu index ops). */
static MlirValue cluster_rank(MlirOperation op, MlirType type) {
  MlirOperation kernel = ws_enclosing_kernel(op);
  ws_builder b = ws_builder_before(
      mlirBlockGetFirstOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(kernel, 0))));
  MlirNamedAttribute x = ws_named_text(b.ctx, "dimension", "#gpu<dim x>");
  MlirValue rank =
      ws_build_value(&b, "gpu.cluster_block_id", 0, NULL, mlirIndexTypeGet(b.ctx), 1, &x);
  return ws_build_value(&b, "arith.index_cast", 1, &rank, type, 0, NULL);
}

/* The group the planner picks: the largest power of two at or below
 * sqrt(sms x bn / bm) / c, at least 1 (see the top). */
static int plan_group(int sms, int bm, int bn, int c) {
  int g = 1;
  while ((long long)(2 * g * c) * (2 * g * c) * bm <= (long long)sms * bn)
    g *= 2;
  return g;
}

/* The unit (cluster) row and the column of tile t: row-major, or grouped
 * by `group` unit rows. Counts are kept at least 1 so that no division
 * traps on an empty output (whose tile loop runs no tile anyway). */
static void order_tiles(ws_builder *b, MlirValue t, MlirValue units_m, MlirValue tiles_n, int group,
                        MlirValue *pm, MlirValue *pn) {
  MlirValue one = ws_const_i32(b, 1);
  MlirValue cols = ws_arith(b, "arith.maxui", tiles_n, one);
  if (!group) {
    *pm = ws_arith(b, "arith.divui", t, cols);
    *pn = ws_arith(b, "arith.remui", t, cols);
    return;
  }
  MlirValue g = ws_const_i32(b, group);
  MlirValue in_group = ws_arith(b, "arith.muli", cols, g);
  MlirValue first = ws_arith(b, "arith.muli", ws_arith(b, "arith.divui", t, in_group), g);
  MlirValue left = ws_arith(b, "arith.subi", ws_arith(b, "arith.maxui", units_m, first), first);
  MlirValue size = ws_arith(b, "arith.maxui", ws_arith(b, "arith.minui", left, g), one);
  MlirValue r = ws_arith(b, "arith.remui", t, in_group);
  *pm = ws_arith(b, "arith.addi", first, ws_arith(b, "arith.remui", r, size));
  *pn = ws_arith(b, "arith.divui", r, size);
}

/* Replaces one ws.tile_coords by its order's arithmetic, with a remark
 * saying which order and why. */
static void expand(MlirOperation op, bool explain, const ws_pass_env *env) {
  MlirAttribute tile = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("tile"));
  int bm = mlirDenseI32ArrayGetElement(tile, 0), bn = mlirDenseI32ArrayGetElement(tile, 1);
  int cluster[2];
  ws_kernel_cluster(ws_enclosing_kernel(op), cluster);
  int c = cluster[0], sms = ws_target_of(op)->sms;
  int forced = ws_int_attr(op, "group", 0);
  int group = ws_string_attr_is(op, "order", "row") ? 0
              : forced                              ? forced
                                                    : plan_group(sms, bm, bn, c);
  ws_builder b = ws_builder_before(op);
  MlirValue tiles_m = ws_ceil_div(&b, mlirOperationGetOperand(op, 1), ws_const_i32(&b, bm));
  MlirValue tiles_n = ws_ceil_div(&b, mlirOperationGetOperand(op, 2), ws_const_i32(&b, bn));
  MlirValue units_m = c > 1 ? ws_ceil_div(&b, tiles_m, ws_const_i32(&b, c)) : tiles_m;
  MlirValue pm, pn;
  order_tiles(&b, mlirOperationGetOperand(op, 0), units_m, tiles_n, group, &pm, &pn);
  if (c > 1) { /* the cluster's unit row: its CTAs' M tiles, in rank order */
    MlirValue rank = cluster_rank(op, mlirValueGetType(pm));
    pm = ws_arith(&b, "arith.addi", ws_arith(&b, "arith.muli", pm, ws_const_i32(&b, c)), rank);
  }
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0),
                                ws_arith(&b, "arith.muli", pm, ws_const_i32(&b, bm)));
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 1),
                                ws_arith(&b, "arith.muli", pn, ws_const_i32(&b, bn)));
  if (explain && !group)
    ws_remark(env, mlirOperationGetLocation(op),
              "tile order: row-major (order = \"row\" "
              "on the op): a wave of %d tiles runs along rows of C, sharing A's rows",
              sms);
  else if (explain) {
    int cols = (sms + group * c - 1) / (group * c);
    ws_remark(env, mlirOperationGetLocation(op),
              "tile order: grouped, %d row%s of %s at a time, down each column of the group "
              "(%s): a wave of %d tiles (an %s's SMs) then reads %d rows of A tiles and "
              "about %d columns of B's, %d + %d = %d rows of K that L2 holds for the wave; "
              "G x %d + %d / G x %d is least where its two terms are equal%s; group = N or "
              "order = \"row\" on the op forces another",
              group, group == 1 ? "" : "s", c > 1 ? "cluster tiles" : "M tiles",
              forced ? "group on the op" : "the planner's pick", sms, ws_target_of(op)->chip,
              group * c, cols, group * c * bm, cols * bn, group * c * bm + cols * bn, c * bm,
              sms / c, bn,
              forced ? ""
                     : ", and the planner takes the largest power of two at or below "
                       "that G");
  }
  mlirOperationDestroy(op);
}

static MlirWalkResult push_tile_coords(MlirOperation op, void *user_data) {
  if (wsOperationIsA(op, "tile_coords"))
    ws_op_list_push(user_data, op);
  return MlirWalkResultAdvance;
}

static bool run_tile_order(MlirOperation root, const ws_pass_options *opts,
                           const ws_pass_env *env) {
  if (!ws_verify_root(root, ""))
    return false;
  ws_op_list ops = {0};
  mlirOperationWalk(root, push_tile_coords, &ops, MlirWalkPreOrder);
  for (long i = 0; i < ops.len; i++)
    expand(ops.items[i], ws_option_bool(opts, "explain"), env);
  ws_op_list_free(&ops);
  return true;
}

static const ws_option_spec tile_order_options[] = {
    {"explain", WS_OPTION_BOOL, "false", "remark which tile order each ws.tile_coords got", NULL, 0,
     0},
};

const ws_pass_def ws_tile_order_pass_def = {
    .argument = "ws-tile-order",
    .summary = "Pick the order of a matmul's output tiles and expand ws.tile_coords",
    WS_PASS_OPTIONS(tile_order_options),
    .run = run_tile_order,
};
