/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* cluster_share.c: which tiles of a cluster kernel's K loop the CTAs of a
 * cluster load alike, for ws-partition-schedule.
 *
 * A kernel with ws.cluster = array<i32: X, Y> runs its blocks in clusters
 * of X x Y consecutive block ids. A ws.load of the K loop whose coordinates
 * do not depend on a block's place in its cluster (its rank) loads the same
 * box in every CTA of the cluster: a matmul tiled with m from block x and n
 * from block y, in clusters along x, loads the same B in both CTAs. Such a
 * load is marked ws.cluster_shared: each CTA will load 1 / size of its rows and
 * multicast them into every CTA's slot, so the cluster reads B from L2 once
 * instead of once per CTA.
 *
 * A value is rank-uniform when it is built, through scalar arith, from
 * constants, kernel arguments, block ids along dimensions the cluster does
 * not span (or divided by a multiple of its extent there), cluster ids,
 * grid and cluster sizes, and induction variables of loops with uniform
 * bounds. Anything else (the thread, the rank itself, a loaded value) is
 * not. The K loop's bounds, and a persistent kernel's tile loop's, must be
 * uniform too: every CTA of a cluster then runs the same steps, so each
 * one's multicast meets the other's expectation.
 *
 * On an engine whose pair of CTAs issues one MMA (tcgen05's cta_group::2)
 * the shared tile is B, split across the pair instead of multicast: each
 * CTA keeps its half of B's N rows in its own slot, brings its own rows of
 * A, and the leader's one MMA of 2 x 128 rows reads both CTAs' slots. That
 * needs a cluster along the blocks that step A's rows and B N x K; other
 * shapes are located errors. A block-scaled pair's scale atoms are not
 * split: the leader's tcgen05.cp.cta_group::2 copies each CTA's own atoms
 * (its rows of A's scales, all of B's) into its own tensor memory, the
 * layout seed 003's 2-CTA kernel gives them. */
#include <stdio.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "ws-c/Dialect.h"
#include "../plan/ws_plan.h"
#include "../target/ws_target.h"
#include "../support/ws_pass.h"
#include "ws_cluster_share.h"
#include "../../dialect/ws_text.h"

enum { UNIFORM_DEPTH = 64 };

/* The gpu.block_id under a value's index casts, or a null op. */
static MlirOperation block_id_of(MlirValue v) {
  while (mlirValueIsAOpResult(v)) {
    MlirOperation def = mlirOpResultGetOwner(v);
    if (ws_op_is(def, "gpu.block_id"))
      return def;
    if (!ws_op_is(def, "arith.index_cast") && !ws_op_is(def, "arith.index_castui"))
      break;
    v = mlirOperationGetOperand(def, 0);
  }
  return (MlirOperation){NULL};
}

static bool uniform(MlirValue v, const int *cluster, int depth);

/* A gpu index op: uniform unless it is the block's place along a dimension
 * the cluster spans (gpu.block_id, gpu.cluster_block_id there). */
static bool uniform_index_op(MlirOperation def, const int *cluster) {
  int d = ws_gpu_dimension(def);
  bool spanned = d >= 0 && d < 2 && cluster[d] > 1;
  if (ws_op_is(def, "gpu.block_id") || ws_op_is(def, "gpu.cluster_block_id"))
    return !spanned;
  return ws_op_is(def, "gpu.cluster_id") || ws_op_is(def, "gpu.cluster_dim") ||
         ws_op_is(def, "gpu.cluster_dim_blocks") || ws_op_is(def, "gpu.grid_dim") ||
         ws_op_is(def, "gpu.block_dim");
}

/* x / c with x a block id along a spanned dimension and c a multiple of
 * the cluster's extent there: the cluster's index, the same for its CTAs. */
static bool divides_out_rank(MlirOperation def, const int *cluster) {
  if (!ws_op_is(def, "arith.divui") && !ws_op_is(def, "arith.divsi"))
    return false;
  MlirOperation id = block_id_of(mlirOperationGetOperand(def, 0));
  long long c;
  if (mlirOperationIsNull(id) || !ws_constant_int(mlirOperationGetOperand(def, 1), &c))
    return false;
  int d = ws_gpu_dimension(id);
  return d >= 0 && d < 2 && c > 0 && c % cluster[d] == 0;
}

/* An scf.for's induction variable is uniform when its start and step are,
 * and its bound too (the loops we ask about must run alike). */
static bool uniform_loop(MlirOperation loop, const int *cluster, int depth) {
  for (int i = 0; i < 3; i++)
    if (!uniform(mlirOperationGetOperand(loop, i), cluster, depth + 1))
      return false;
  return true;
}

static bool uniform(MlirValue v, const int *cluster, int depth) {
  if (depth > UNIFORM_DEPTH)
    return false; /* a chain this long is no index computation ws can follow */
  if (mlirValueIsABlockArgument(v)) {
    MlirOperation owner = mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v));
    if (ws_op_is(owner, "gpu.func"))
      return true; /* a kernel argument */
    return ws_op_is(owner, "scf.for") && mlirBlockArgumentGetArgNumber(v) == 0 &&
           uniform_loop(owner, cluster, depth);
  }
  MlirOperation def = mlirOpResultGetOwner(v);
  if (ws_op_is(def, "arith.constant"))
    return true;
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(def));
  if (name.length > 4 && memcmp(name.data, "gpu.", 4) == 0)
    return uniform_index_op(def, cluster);
  if (divides_out_rank(def, cluster))
    return true;
  if (name.length < 6 || memcmp(name.data, "arith.", 6) != 0)
    return false;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(def); i++)
    if (!uniform(mlirOperationGetOperand(def, i), cluster, depth + 1))
      return false;
  return true;
}

/* True when every coordinate of a ws.load or ws.store is rank-uniform: its
 * operands after the descriptor, up to the stored tile. */
static bool coords_uniform(MlirOperation op, const int *cluster) {
  intptr_t last = mlirOperationGetNumOperands(op) - (wsOperationIsA(op, "store") ? 1 : 0);
  for (intptr_t i = 1; i < last; i++)
    if (!uniform(mlirOperationGetOperand(op, i), cluster, 0))
      return false;
  return true;
}

/* Finds a ws.store whose coordinates are all rank-uniform: every CTA of a
 * cluster would store the same tile (the block's place in its cluster feeds
 * no coordinate), computed twice while another is never computed. */
typedef struct store_walk {
  const int *cluster;
  MlirOperation found;
} store_walk;

static MlirWalkResult find_uniform_store(MlirOperation op, void *user) {
  store_walk *w = user;
  if (!wsOperationIsA(op, "store") || !coords_uniform(op, w->cluster))
    return MlirWalkResultAdvance;
  w->found = op;
  return MlirWalkResultInterrupt;
}

/* Which operand of a ws.dot a load makes (0: A, 1: B, 3 on: block
 * scales), or -1. */
static int dot_operand_number(MlirOperation load) {
  for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(load, 0));
       !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
    if (wsOperationIsA(mlirOpOperandGetOwner(u), "dot"))
      return (int)mlirOpOperandGetOperandNumber(u);
  return -1;
}

static const char *operand_name(MlirOperation load) {
  int i = dot_operand_number(load);
  return i == 0 ? "A" : i == 1 ? "B" : i > 2 ? "a block scale atom" : "the tile";
}

/* The ws.load that makes operand `i` of a ws.dot (ws-partition-schedule
 * checked that tcgen05.mma reads both from loads of its loop). */
static MlirOperation dot_operand_load(MlirOperation dot, int i) {
  return mlirOpResultGetOwner(mlirOperationGetOperand(dot, i));
}

/* A pair MMA's demands on the marked loads of the loop's one ws.dot (the
 * tcgen05 schedule allows no other; see the top): false after a located
 * error saying what would work. */
static bool check_pair(MlirOperation loop, const int *cluster) {
  MlirOperation dot = mlirBlockGetFirstOperation(ws_loop_body(loop));
  while (!wsOperationIsA(dot, "dot"))
    dot = mlirOperationGetNextInBlock(dot);
  const char *engine = ws_mma_engine_of(loop)->name;
  MlirOperation a = dot_operand_load(dot, 0), b = dot_operand_load(dot, 1);
  if (!ws_has_attr(b, "ws.cluster_shared") || ws_has_attr(a, "ws.cluster_shared")) {
    ws_emit_op_error(dot,
                     "runs in a %dx%d cluster (ws.cluster) that does not share B alone: "
                     "a pair of CTAs issues one %s of 2 x 128 rows (cta_group::2), each "
                     "CTA bringing its own rows of A and half of B, so the pair must "
                     "load the same B and different A: a cluster along the blocks that "
                     "step M (array<i32: 2, 1> with m from block x)",
                     cluster[0], cluster[1], engine);
    return false;
  }
  if (!ws_has_attr(dot, "transpose_b")) {
    ws_emit_op_error(dot,
                     "reads B as K x N in a %dx%d cluster; a pair of CTAs splits B "
                     "along N between them, each loading half of its rows given N x K, "
                     "so B must be N x K (transpose_b)",
                     cluster[0], cluster[1]);
    return false;
  }
  return true;
}

bool ws_mark_cluster_loads(MlirOperation loop, bool explain, const ws_pass_env *env) {
  MlirOperation func = ws_enclosing_kernel(loop);
  int cluster[2];
  ws_kernel_cluster(func, cluster);
  int size = cluster[0] * cluster[1];
  if (size < 2)
    return true;
  if (!ws_loop_has_dot(loop)) {
    ws_emit_op_error(func, "has ws.cluster, which ws builds for matmul kernels only (a K "
                           "loop whose operands the cluster's CTAs share); this kernel's "
                           "loop is elementwise");
    return false;
  }
  MlirOperation parent = mlirOperationGetParentOperation(loop);
  MlirOperation tiles = ws_has_attr(parent, "ws.tile_loop") ? parent : (MlirOperation){NULL};
  if (!mlirOperationIsNull(tiles) && cluster[1] > 1) {
    ws_emit_op_error(tiles,
                     "is a persistent tile loop in clusters along y (ws.cluster = "
                     "array<i32: %d, %d>); a persistent kernel's grid is one row of "
                     "blocks, so its clusters run along x: array<i32: %d, 1>",
                     cluster[0], cluster[1], cluster[1]);
    return false;
  }
  store_walk w = {cluster, {NULL}};
  mlirOperationWalk(func, find_uniform_store, &w, MlirWalkPreOrder);
  if (!mlirOperationIsNull(w.found)) {
    ws_emit_op_error(w.found,
                     "stores the same tile in every CTA of a %dx%d cluster "
                     "(ws.cluster): none of its coordinates depends on the block's "
                     "place in its cluster, so the tile is computed twice and "
                     "another never; derive the unshared coordinate from it "
                     "(gpu.cluster_block_id %s, or the block id along the cluster)",
                     cluster[0], cluster[1], cluster[0] > 1 ? "x" : "y");
    return false;
  }
  MlirOperation loops[2] = {loop, tiles};
  for (int i = 0; i < 2; i++)
    if (!mlirOperationIsNull(loops[i]) && !uniform_loop(loops[i], cluster, 0)) {
      ws_emit_op_error(loops[i],
                       "runs in the CTAs of a %dx%d cluster (ws.cluster), which "
                       "must all take its steps alike, but its bounds or step "
                       "depend on a block's place in its cluster; %s",
                       cluster[0], cluster[1],
                       i ? "loop over the clusters' tiles: from gpu.cluster_id by "
                           "gpu.cluster_dim, with gpu.cluster_block_id picking the "
                           "CTA's tile of its cluster's (docs/language.md, Clusters)"
                         : "take them from kernel arguments and constants");
      return false;
    }
  const ws_mma_engine *engine = ws_mma_engine_of(loop);
  bool pair = engine && engine->pair_mma;
  int shared = 0;
  char text[2048];
  ws_text t;
  ws_text_init(&t, text, sizeof text);
  MlirBlock body = ws_loop_body(loop);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!wsOperationIsA(op, "load"))
      continue;
    char loc[64];
    ws_loc_str(mlirOperationGetLocation(op), loc, sizeof loc);
    int64_t rows = mlirShapedTypeGetDimSize(mlirValueGetType(mlirOperationGetResult(op, 0)), 0);
    if (!coords_uniform(op, cluster)) {
      ws_text_appendf(&t, "%s%s at %s differs between them (each loads its own)", t.len ? "; " : "",
                      operand_name(op), loc);
      continue;
    }
    if (pair && dot_operand_number(op) > 2) {
      ws_text_appendf(&t,
                      "%s%s at %s is the same in each, and each loads it all: the "
                      "leader's tcgen05.cp (cta_group::2) copies each CTA's scales "
                      "into its own tensor memory",
                      t.len ? "; " : "", operand_name(op), loc);
      continue;
    }
    if (rows % (8 * size)) {
      ws_text_appendf(&t,
                      "%s%s at %s is the same in each, but its %lld rows do not split "
                      "into parts of a multiple of 8 (each loads it all)",
                      t.len ? "; " : "", operand_name(op), loc, (long long)rows);
      continue;
    }
    mlirOperationSetDiscardableAttributeByName(op,
                                               mlirStringRefCreateFromCString("ws.cluster_shared"),
                                               mlirUnitAttrGet(mlirOperationGetContext(op)));
    shared++;
    ws_text_appendf(&t,
                    "%s%s at %s is the same in each: each loads %lld of its %lld rows "
                    "%s",
                    t.len ? "; " : "", operand_name(op), loc, (long long)(rows / size),
                    (long long)rows,
                    pair ? "into its own slot, and the leader's one tcgen05.mma of the pair "
                           "(cta_group::2) reads both"
                         : "and multicasts them into every CTA's slot");
  }
  if (!shared) {
    ws_emit_op_error(func,
                     "has ws.cluster = array<i32: %d, %d>, but no tile of its K loop is "
                     "loaded alike by the CTAs of a cluster: %s. Compute the shared "
                     "operand's coordinates without the block's place in its cluster "
                     "(block x for a cluster along x): for instance m from block x and "
                     "n from block y, which shares B along x",
                     cluster[0], cluster[1], text);
    return false;
  }
  if (pair && !check_pair(loop, cluster))
    return false;
  if (explain)
    ws_remark(env, mlirOperationGetLocation(func), "cluster %dx%d (ws.cluster): %s; %s", cluster[0],
              cluster[1], text,
              pair ? "every CTA's copies complete on the leader's full barrier, its MMA's "
                     "commit releases both CTAs' slots, and both epilogues hand the "
                     "accumulator back to the leader"
                   : "the cluster's CTAs release each slot to one another, since each "
                     "writes into the other's");
  return true;
}
