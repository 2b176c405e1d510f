/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* kernel_info_capi.c: wsCollectKernelInfo (ws-c/Compile.h): what a host
 * needs of each planned kernel: its signature (read here) and its plan
 * (read through ws-c/Plan.h). */
#include "ws-c/Compile.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "ws-c/Dialect.h"
#include "ws-c/Plan.h"

typedef struct collector {
  MlirStringRef source;
  WsKernelInfo *out;
  intptr_t n, cap;
  bool failed;
} collector;

static bool name_is(MlirOperation op, const char *name) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return n.length == strlen(name) && memcmp(n.data, name, n.length) == 0;
}

/* How a scalar of type `t` is passed; WsScalarNone when it cannot be. */
static WsScalarType scalar_type(MlirType t) {
  if (mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 32)
    return WsScalarI32;
  if ((mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 64) || mlirTypeIsAIndex(t))
    return WsScalarI64; /* index is passed as i64, as upstream's GPU lowering does */
  if (mlirTypeIsAF32(t))
    return WsScalarF32;
  if (mlirTypeIsAF64(t))
    return WsScalarF64;
  return WsScalarNone;
}

/* Whether MLIR allows `c` in an SSA name after its % (a suffix-id). */
static bool is_name_char(char c) {
  return isalnum((unsigned char)c) || c == '$' || c == '.' || c == '_' || c == '-';
}

/* The `%name` at 1-based `line` and `column` of `source`, into out[cap]
 * without the %; "" when something else is there or the name is longer
 * than cap - 1. */
static void name_at(MlirStringRef source, int line, int column, char *out, size_t cap) {
  size_t at = 0;
  for (int l = 1; l < line && at < source.length; at++)
    if (source.data[at] == '\n')
      l++;
  at += (size_t)(column > 0 ? column - 1 : 0);
  out[0] = '\0';
  if (at >= source.length || source.data[at] != '%')
    return;
  size_t n = 0;
  while (at + 1 + n < source.length && is_name_char(source.data[at + 1 + n]))
    n++;
  if (n > 0 && n < cap)
    snprintf(out, cap, "%.*s", (int)n, source.data + at + 1);
}

/* Argument `arg`'s name: a NameLoc's (an argument a pass added, such as
 * split-K's workspace), else the `%name` its location points at in the
 * source (a parsed argument's location is its name's). */
static void argument_name(MlirStringRef source, MlirValue arg, char *out, size_t cap) {
  MlirLocation loc = mlirValueGetLocation(arg);
  out[0] = '\0';
  if (mlirLocationIsAName(loc)) {
    MlirStringRef n = mlirIdentifierStr(mlirLocationNameGetName(loc));
    if (n.length < cap)
      snprintf(out, cap, "%.*s", (int)n.length, n.data);
  } else if (source.length && mlirLocationIsAFileLineColRange(loc)) {
    name_at(source, mlirLocationFileLineColRangeGetStartLine(loc),
            mlirLocationFileLineColRangeGetStartColumn(loc), out, cap);
  }
}

/* A split-K kernel whose source declares an argument named workspace
 * itself: ws-split-k adds the workspace (the last argument), so the
 * source's own would be a second one a caller fills by mistake. Returns
 * false after a located error at that argument. */
static bool own_workspace_refused(collector *c, MlirOperation func, const WsKernelInfo *info) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  for (int i = 0; i + 1 < info->num_args; i++)
    if (strcmp(info->args[i].name, "workspace") == 0) {
      mlirEmitError(mlirValueGetLocation(mlirBlockGetArgument(entry, i)),
                    "kernel argument %workspace: ws.split_k adds the split-K workspace "
                    "argument itself (the kernel's last); remove this one");
      c->failed = true;
      return false;
    }
  return true;
}

/* A located error on the kernel; describing stops. */
static void refuse_kernel(collector *c, MlirOperation func, const char *message) {
  mlirEmitError(mlirOperationGetLocation(func), message);
  c->failed = true;
}

static void describe(collector *c, MlirOperation func, WsPlan plan) {
  if (c->n == c->cap) {
    intptr_t cap = c->cap ? 2 * c->cap : 16;
    WsKernelInfo *grown = realloc(c->out, (size_t)cap * sizeof *grown);
    if (!grown) {
      refuse_kernel(c, func, "out of memory describing the kernels");
      return;
    }
    c->out = grown;
    c->cap = cap;
  }
  WsKernelInfo *info = &c->out[c->n];
  memset(info, 0, sizeof *info);
  MlirAttribute name =
      mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("sym_name"));
  MlirStringRef n = mlirStringAttrGetValue(name);
  info->name = malloc(n.length + 1);
  if (!info->name) {
    refuse_kernel(c, func, "out of memory describing the kernels");
    return;
  }
  memcpy(info->name, n.data, n.length);
  info->name[n.length] = '\0';
  c->n++; /* owned by the table from here on, freed with it */
  WsPlanKernel k = wsPlanGetKernel(plan);
  info->block_threads = k.block_threads;
  info->shared_memory_bytes = k.shared_memory_bytes;
  info->blocks_per_sm = k.blocks_per_sm;
  info->persistent = k.persistent;
  info->cluster_x = k.cluster_x > 1 ? k.cluster_x : 1;
  info->cluster_y = k.cluster_y > 1 ? k.cluster_y : 1;
  info->pair = k.pair;
  MlirAttribute ws_bytes = mlirOperationGetAttributeByName(
      func, mlirStringRefCreateFromCString("ws.workspace_per_block"));
  info->workspace_per_block = !mlirAttributeIsNull(ws_bytes) && mlirAttributeIsAInteger(ws_bytes)
                                  ? mlirIntegerAttrGetValueInt(ws_bytes)
                                  : 0;
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  intptr_t num = mlirBlockGetNumArguments(entry);
  info->args = calloc((size_t)num + 1, sizeof *info->args); /* the parameter space bounds num */
  if (!info->args) {
    refuse_kernel(c, func, "out of memory describing the kernels");
    return;
  }
  for (intptr_t i = 0; i < num; i++) {
    MlirValue arg = mlirBlockGetArgument(entry, i);
    MlirType t = mlirValueGetType(arg);
    WsKernelArg *a = &info->args[info->num_args++];
    argument_name(c->source, arg, a->name, sizeof a->name);
    if (wsTypeIsATensorDesc(t)) {
      MlirType box = wsTensorDescTypeGetBox(t);
      MlirType e = mlirShapedTypeGetElementType(box);
      a->kind = WsArgDescriptor;
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
      a->kind = WsArgArray;
      a->rank = 1;
      a->dtype = wsElementTypeGetDtype(mlirShapedTypeGetElementType(t));
    } else if ((a->scalar = scalar_type(t)) != WsScalarNone) {
      a->kind = WsArgScalar;
      a->divisor =
          mlirTypeIsAInteger(t) || mlirTypeIsAIndex(t) ? wsPlanGetArgumentDivisibility(plan, i) : 1;
    } else {
      char message[256];
      snprintf(message, sizeof message,
               "kernel argument %d has a type a launch cannot "
               "pass: a scalar is i32, i64, index, f32 or f64 "
               "(pass an f32 or i32 and convert it in the kernel)",
               (int)i);
      refuse_kernel(c, func, message);
      return;
    }
  }
  if (info->workspace_per_block)
    own_workspace_refused(c, func, info);
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

intptr_t wsCollectKernelInfo(MlirOperation module, MlirStringRef source, WsKernelInfo **kernels) {
  collector c = {source, NULL, 0, 0, false};
  mlirOperationWalk(module, visit, &c, MlirWalkPreOrder);
  if (c.failed) {
    wsKernelInfoFree(c.out, c.n);
    c.out = NULL;
  }
  *kernels = c.out;
  return c.failed ? -1 : c.n;
}

void wsKernelInfoFree(WsKernelInfo *kernels, intptr_t count) {
  for (intptr_t i = 0; kernels && i < count; i++) {
    free(kernels[i].name);
    free(kernels[i].args);
  }
  free(kernels);
}
