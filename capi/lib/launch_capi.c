/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* launch_capi.c: wsLaunchPrepare (ws-c/Launch.h): a kernel's WsKernelInfo
 * turned into the rule table the generated launchers carry, then checked
 * and encoded by the same code (launch_rules.h). */
#include "ws-c/Launch.h"

#include <cuda.h>
#include <stdlib.h>

typedef WsTensor ws_tensor;

static const char *dtype_name(int dtype) {
  const char *name =
      dtype == 0 ? "none (ws_tensor.dtype is not set)" : wsDtypeGetName((WsDtype)dtype);
  return name ? name : "not a ws_dtype";
}

#include "launch_rules.h"

/* A launch's tables, as many as the kernel has arguments (slots hold
 * 64-byte aligned tensor maps, so they come from aligned_alloc). */
typedef struct launch {
  WsKernelInfo kernel; /* its args are the launch's own copy */
  ws_arg_rule *rules;
  ws_arg_slot *slots;
  ws_value *values;
  void **params; /* two per argument at most: a map and its view, or an array and its count */
  int num_params;
  char error[256];
} launch;

static void launch_free(launch *l) {
  if (!l)
    return;
  free(l->kernel.args);
  free(l->rules);
  free(l->slots);
  free(l->values);
  free(l->params);
  free(l);
}

/* CUDA's enumerator for the name ws-c/Dialect.h gives a dtype's TMA type:
 * the names are the enumerators' own, so cuda.h is the one table. */
static CUtensorMapDataType map_type(WsDtype dtype) {
#define WS_MAP_TYPE(t)                                                                             \
  {                                                                                                \
    #t, t                                                                                          \
  }
  static const struct {
    const char *name;
    CUtensorMapDataType type;
  } types[] = {
      WS_MAP_TYPE(CU_TENSOR_MAP_DATA_TYPE_UINT8),    WS_MAP_TYPE(CU_TENSOR_MAP_DATA_TYPE_INT32),
      WS_MAP_TYPE(CU_TENSOR_MAP_DATA_TYPE_FLOAT16),  WS_MAP_TYPE(CU_TENSOR_MAP_DATA_TYPE_FLOAT32),
      WS_MAP_TYPE(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16),
  };
#undef WS_MAP_TYPE
  const char *name = wsDtypeGetTensorMapType(dtype);
  for (size_t i = 0; name && i < sizeof types / sizeof types[0]; i++)
    if (strcmp(types[i].name, name) == 0)
      return types[i].type;
  return CU_TENSOR_MAP_DATA_TYPE_UINT8;
}

static CUtensorMapSwizzle swizzle_of(int bytes) {
  switch (bytes) {
  case 32:
    return CU_TENSOR_MAP_SWIZZLE_32B;
  case 64:
    return CU_TENSOR_MAP_SWIZZLE_64B;
  case 128:
    return CU_TENSOR_MAP_SWIZZLE_128B;
  default:
    return CU_TENSOR_MAP_SWIZZLE_NONE;
  }
}

/* The row of the rule table ws-opt --emit=launcher writes for `a` (its
 * name points into `a`, which must live as long as the row). */
static ws_arg_rule rule_of(const WsKernelArg *a) {
  ws_arg_rule r;
  memset(&r, 0, sizeof r);
  r.name = a->name;
  r.kind = (int)a->kind;
  r.scalar = (int)a->scalar;
  r.divisor = a->kind == WsArgScalar ? a->divisor : 1;
  r.swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
  if (a->kind == WsArgScalar)
    return r;
  r.dtype = (int)a->dtype;
  r.elem_bytes = wsDtypeGetByteWidth(a->dtype);
  r.rank = a->rank;
  if (a->kind == WsArgArray)
    return r;
  r.map_type = map_type(a->dtype);
  for (int d = 0; d < a->rank && d < 5; d++)
    r.box[d] = (cuuint32_t)a->box[d];
  r.swizzle = swizzle_of(a->swizzle);
  r.view = a->view;
  r.direct = a->direct;
  return r;
}

WsLaunch wsLaunchCreate(const WsKernelInfo *kernel) {
  if (!kernel || kernel->num_args < 0 || (kernel->num_args > 0 && !kernel->args))
    return (WsLaunch){NULL}; /* a table wsCompile never makes */
  size_t n = (size_t)kernel->num_args + 1;
  /* a slot's tensor map is 64-byte aligned; sizeof is a multiple of that */
  size_t slot_bytes = (n * sizeof(ws_arg_slot) + _Alignof(ws_arg_slot) - 1) /
                      _Alignof(ws_arg_slot) * _Alignof(ws_arg_slot);
  launch *l = calloc(1, sizeof *l);
  if (!l)
    return (WsLaunch){NULL};
  l->kernel = *kernel;
  l->kernel.name = NULL; /* the caller's; the launch names arguments, not kernels */
  l->kernel.args = malloc(n * sizeof *l->kernel.args);
  l->rules = calloc(n, sizeof *l->rules);
  l->slots = aligned_alloc(_Alignof(ws_arg_slot), slot_bytes);
  l->values = calloc(n, sizeof *l->values);
  l->params = calloc(2 * n, sizeof *l->params);
  if (!l->kernel.args || !l->rules || !l->slots || !l->values || !l->params) {
    launch_free(l);
    return (WsLaunch){NULL};
  }
  memset(l->slots, 0, slot_bytes);
  if (kernel->num_args > 0)
    memcpy(l->kernel.args, kernel->args, (size_t)kernel->num_args * sizeof *l->kernel.args);
  for (int i = 0; i < kernel->num_args; i++)
    l->rules[i] = rule_of(&l->kernel.args[i]);
  return (WsLaunch){l};
}

void wsLaunchDestroy(WsLaunch handle) { launch_free(handle.ptr); }

MlirLogicalResult wsLaunchPrepare(WsLaunch handle, const WsLaunchArg *args, void *encode_tiled,
                                  uint64_t scratch, const unsigned grid[3],
                                  unsigned resident_grid) {
  launch *l = handle.ptr;
  if (!l)
    return mlirLogicalResultFailure();
  l->error[0] = '\0';
  l->num_params = 0;
  int last = l->kernel.num_args - 1;
  if (l->kernel.workspace_per_block &&
      name_refusal(l->error,
                   ws_check_split_k(l->error, last, (uint64_t)args[last].scalar.i64,
                                    "workspace_bytes", grid, resident_grid, "the resident grid"),
                   last, l->rules[last].name) != CUDA_SUCCESS)
    return mlirLogicalResultFailure();
  ws_value *values = l->values;
  for (int i = 0; i < l->kernel.num_args; i++) {
    const WsLaunchArg *a = &args[i];
    switch (l->rules[i].kind == WS_ARG_SCALAR ? l->rules[i].scalar : 0) {
    case WS_SCALAR_I32:
      values[i].i32 = a->scalar.i32;
      break;
    case WS_SCALAR_I64:
      values[i].i64 = a->scalar.i64;
      break;
    case WS_SCALAR_F32:
      values[i].f32 = a->scalar.f32;
      break;
    case WS_SCALAR_F64:
      values[i].f64 = a->scalar.f64;
      break;
    default:
      values[i].tensor = &a->tensor;
      break;
    }
  }
  /* A function pointer from the caller's object pointer: POSIX's dlsym
   * contract, which the driver's own entry point lookups follow. */
  ws_encode_tiled_fn encode_fn;
  memcpy(&encode_fn, &encode_tiled, sizeof encode_fn);
  CUresult r = ws_prepare(l->error, l->rules, l->kernel.num_args, values, encode_fn, NULL,
                          (CUdeviceptr)scratch, l->slots, l->params, &l->num_params);
  return r == CUDA_SUCCESS ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

void **wsLaunchGetParams(WsLaunch handle) {
  launch *l = handle.ptr;
  return l ? l->params : NULL;
}

int wsLaunchGetNumParams(WsLaunch handle) {
  launch *l = handle.ptr;
  return l ? l->num_params : 0;
}

unsigned wsLaunchBalancedGrid(uint64_t iterations, unsigned resident, unsigned cluster) {
  return ws_balanced_grid(iterations, resident, cluster);
}

const char *wsLaunchGetError(WsLaunch handle) {
  launch *l = handle.ptr;
  return l ? l->error : "";
}
