/* launch_info.c: what the launcher needs of each planned kernel: its
 * signature (read here) and its plan (read through ws-c/Plan.h). */
#include "launch_info.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "ws-c/Dialect.h"
#include "ws-c/Plan.h"

typedef struct collector {
  launch_info *out;
  int n, cap;
  bool failed;
} collector;

static bool name_is(MlirOperation op, const char *name) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return n.length == strlen(name) && memcmp(n.data, name, n.length) == 0;
}

static bool scalar_c_type(MlirType t, char *out, size_t cap) {
  const char *c = NULL;
  if (mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 32)
    c = "int32_t";
  else if ((mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 64) || mlirTypeIsAIndex(t))
    c = "int64_t"; /* index is passed as i64, as upstream's GPU lowering does */
  else if (mlirTypeIsAF32(t))
    c = "float";
  else if (mlirTypeIsAF64(t))
    c = "double";
  if (c)
    snprintf(out, cap, "%s", c);
  return c != NULL;
}

static void describe(collector *c, MlirOperation func, WsPlan plan) {
  if (c->n == c->cap) {
    int cap = c->cap ? 2 * c->cap : 16;
    launch_info *grown = realloc(c->out, (size_t)cap * sizeof *grown);
    if (!grown) {
      fprintf(stderr, "ws-opt: error: out of memory describing the kernels\n");
      c->failed = true;
      return;
    }
    c->out = grown;
    c->cap = cap;
  }
  launch_info *info = &c->out[c->n];
  memset(info, 0, sizeof *info);
  MlirAttribute name = mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("sym_name"));
  MlirStringRef n = mlirStringAttrGetValue(name);
  snprintf(info->name, sizeof info->name, "%.*s", (int)n.length, n.data);
  WsPlanKernel k = wsPlanGetKernel(plan);
  info->block_threads = k.block_threads;
  info->smem_bytes = k.shared_memory_bytes;
  info->blocks_per_sm = k.blocks_per_sm;
  info->persistent = k.persistent;
  info->cluster_x = k.cluster_x > 1 ? k.cluster_x : 1;
  info->cluster_y = k.cluster_y > 1 ? k.cluster_y : 1;
  info->pair = k.pair;
  MlirAttribute ws_bytes = mlirOperationGetAttributeByName(
      func, mlirStringRefCreateFromCString("ws.workspace_per_block"));
  info->workspace_per_block =
      !mlirAttributeIsNull(ws_bytes) && mlirAttributeIsAInteger(ws_bytes)
          ? mlirIntegerAttrGetValueInt(ws_bytes)
          : 0;
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(entry); i++) {
    if (i == LAUNCH_MAX_ARGS) {
      fprintf(stderr, "ws-opt: error: kernel %s has too many arguments\n", info->name);
      c->failed = true;
      return;
    }
    MlirValue arg = mlirBlockGetArgument(entry, i);
    MlirType t = mlirValueGetType(arg);
    launch_arg *a = &info->args[info->num_args++];
    if (wsTypeIsATensorDesc(t)) {
      MlirType box = wsTensorDescTypeGetBox(t);
      MlirType e = mlirShapedTypeGetElementType(box);
      a->is_desc = true;
      a->rank = (int)mlirShapedTypeGetRank(box);
      for (int d = 0; d < a->rank; d++)
        a->box[d] = mlirShapedTypeGetDimSize(box, d);
      a->dtype = wsElementTypeGetDtype(e);
      a->swizzle = wsPlanGetDescriptorSwizzle(plan, arg);
      int64_t inner = wsPlanGetDescriptorBoxInner(plan, arg);
      if (inner > 0)
        a->box[a->rank - 1] = inner;
      int row_dim = 0, parts = wsPlanGetDescriptorRowParts(plan, arg, &row_dim);
      if (parts > 1) /* a split tile: each CTA of a cluster copies its part */
        a->box[row_dim] /= parts;
      a->direct = wsPlanDescriptorIsAccessedDirectly(plan, arg);
      a->view = wsPlanDescriptorHasView(plan, arg);
    } else if (wsTypeIsAKernelArray(t)) {
      a->is_array = true;
      a->rank = 1;
      a->dtype = wsElementTypeGetDtype(mlirShapedTypeGetElementType(t));
    } else if (scalar_c_type(t, a->c_type, sizeof a->c_type)) {
      a->divisor = mlirTypeIsAInteger(t) ? wsPlanGetArgumentDivisibility(plan, i) : 1;
    } else {
      fprintf(stderr, "ws-opt: error: kernel %s: argument %d has a type the "
                      "launcher cannot pass\n", info->name, (int)i);
      c->failed = true;
      return;
    }
  }
  c->n++;
}

/* A kernel is launchable once ws-insert-barriers fixed its block size. */
static MlirWalkResult visit(MlirOperation op, void *user_data) {
  collector *c = user_data;
  if (!name_is(op, "gpu.func"))
    return MlirWalkResultAdvance;
  WsPlan plan = wsPlanCreate(op);
  if (!wsPlanIsNull(plan) && wsPlanGetKernel(plan).block_threads > 0)
    describe(c, op, plan);
  wsPlanDestroy(plan);
  return c->failed ? MlirWalkResultInterrupt : MlirWalkResultAdvance;
}

int launch_info_collect(MlirOperation module, launch_info **out) {
  collector c = {NULL, 0, 0, false};
  mlirOperationWalk(module, visit, &c, MlirWalkPreOrder);
  *out = c.out;
  return c.failed ? -1 : c.n;
}
