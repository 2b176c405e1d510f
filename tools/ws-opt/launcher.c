/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* launcher.c: the C launcher writer. The generated code builds each TMA
 * descriptor with cuTensorMapEncodeTiled, with the box and swizzle the
 * compiler chose, raises the kernel's dynamic shared memory limit once at
 * load, and launches with the block size the plan fixed. */
#include "launcher.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "param_names.h"
#include "ws-c/Dialect.h"

/* capi/lib/launch_rules.h's text (tools/ws-opt/CMakeLists.txt embeds it). */
extern const char ws_launch_rules_text[];
extern const size_t ws_launch_rules_text_len;

static void c_identifier(const char *base, char *out, size_t cap) {
  const char *slash = strrchr(base, '/');
  const char *name = slash ? slash + 1 : base;
  size_t i = 0;
  for (; name[i] && i + 1 < cap; i++)
    out[i] = isalnum((unsigned char)name[i]) ? name[i] : '_';
  out[i] = '\0';
  if (!isalpha((unsigned char)out[0]) && i + 1 < cap) {
    memmove(out + 1, out, i + 1);
    out[0] = 'k';
  }
}

/* The name of `dtype` in the launcher's enumeration, after WS_DTYPE_:
 * MLIR's spelling in capitals ("F8E4M3FN"). */
static const char *dtype_suffix(WsDtype dtype, char *buf, size_t cap) {
  const char *n = wsDtypeGetName(dtype);
  size_t i = 0;
  for (; n && n[i] && i + 1 < cap; i++)
    buf[i] = (char)toupper((unsigned char)n[i]);
  buf[i] = '\0';
  return buf;
}

/* The C type a scalar argument is passed as. */
static const char *c_type(WsScalarType t) {
  switch (t) {
  case WsScalarI32:
    return "int32_t";
  case WsScalarI64:
    return "int64_t";
  case WsScalarF32:
    return "float";
  case WsScalarF64:
    return "double";
  case WsScalarNone:
    break;
  }
  return "void";
}

/* Whether kernel k takes an array (memref<?xT>) argument. */
static bool has_array(const WsKernelInfo *k) {
  for (int i = 0; i < k->num_args; i++)
    if (k->args[i].kind == WsArgArray)
      return true;
  return false;
}

/* The parameters, named by the kernel's arguments where C allows
 * (param_names.h), each commented with the position refusals name it by
 * (and its source name where the parameter could not take it), each
 * descriptor's with the element type, rank and TMA box of the ws_tensor
 * it takes, each integer's with its ws.divisibility. */
static void write_params(FILE *f, const WsKernelInfo *k, const launcher_params *p) {
  for (int i = 0; i < k->num_args; i++) {
    const WsKernelArg *a = &k->args[i];
    const char *param = p->name[i];
    char upper[32], what[192] = "", box[64] = "";
    for (int d = 0; a->kind == WsArgDescriptor && d < a->rank; d++)
      snprintf(box + strlen(box), sizeof box - strlen(box), "%s%lld", d ? "x" : ", TMA box ",
               (long long)a->box[d]);
    if (a->kind != WsArgScalar)
      snprintf(what, sizeof what, ": WS_DTYPE_%s, rank %d%s%s",
               dtype_suffix(a->dtype, upper, sizeof upper), a->rank, box,
               a->kind == WsArgArray ? ", an array read element by element" : "");
    else if (k->workspace_per_block && i == k->num_args - 1)
      snprintf(what, sizeof what, ": the split-K workspace's address (a CUdeviceptr)");
    else if (a->divisor > 1)
      snprintf(what, sizeof what, ": a multiple of %lld", (long long)a->divisor);
    if (a->kind != WsArgScalar)
      fprintf(f, ",\n    const ws_tensor *%s", param);
    else
      fprintf(f, ",\n    %s %s", c_type(a->scalar), param);
    bool renamed = strcmp(param, a->name) != 0 && a->name[0];
    fprintf(f, " /* arg%d%s%s%s */", i, renamed ? " %" : "", renamed ? a->name : "", what);
  }
}

/* The launcher's tensor type, shared by every generated header: ws_dtype
 * numbers the element types as ws-c/Dialect.h's WsDtype does, so that a
 * launch can refuse a tensor whose element type is not the kernel's (TMA
 * would step through it in elements of the wrong width). */
static void write_tensor_type(FILE *f) {
  fprintf(f, "#ifndef WS_TENSOR_DEFINED\n#define WS_TENSOR_DEFINED\n"
             "/* The element type of a tensor; WS_DTYPE_NONE (0) is refused. */\n"
             "typedef enum ws_dtype {\n  WS_DTYPE_NONE = 0");
  for (int d = 1; d < WsDtypeCount; d++) {
    char upper[32];
    fprintf(f, ",\n  WS_DTYPE_%s = %d", dtype_suffix((WsDtype)d, upper, sizeof upper), d);
  }
  fprintf(f, "\n} ws_dtype;\n\n"
             "/* A global tensor: its element type, sizes and strides (in elements)\n"
             " * outermost first. TMA needs the base 16-byte aligned, the innermost\n"
             " * stride 1 element, every other stride a multiple of 16 bytes below\n"
             " * 2^40 bytes, and each size at most 2^32; a dimension of size 1 is\n"
             " * never stepped, so its stride may be anything. A descriptor the\n"
             " * compute warps read or write element by element (a row kernel's\n"
             " * row vector) needs only its base aligned to an element. A tensor with a size\n"
             " * of 0 has no element: the kernel reads it as zeros and writes nothing\n"
             " * to it, and its base and strides are not looked at. */\n"
             "typedef struct ws_tensor {\n  CUdeviceptr base;\n  int rank;\n"
             "  ws_dtype dtype;\n  uint64_t sizes[5];\n  uint64_t strides[5];\n"
             "} ws_tensor;\n#endif\n\n");
}

/* Whether the kernel's launcher has a balanced grid: a persistent one's,
 * not a split-K one's (its K split counts on every block of the resident
 * grid). */
static bool has_balanced_grid(const WsKernelInfo *k) {
  return k->persistent && !k->workspace_per_block;
}

static void write_balanced_grid_declaration(FILE *f, const char *name, const WsKernelInfo *k) {
  bool cluster = k->cluster_x * k->cluster_y > 1;
  fprintf(f,
          "/* The grid for %s when its tile loop runs `tiles` iterations in all\n"
          " * (%s): the fewest blocks, at most\n"
          " * %s_%s_persistent_grid's, that take them in as many rounds, %s\n"
          " * then running the same number give or take one. 512 tiles on 132\n"
          " * SMs make 128 blocks of 4, where the persistent grid runs 116 of 4\n"
          " * and 16 of 3. 0 (and a message in m->error) when the device cannot\n"
          " * be queried. */\n"
          "unsigned %s_%s_balanced_grid(%s_module *m, unsigned long long tiles);\n\n",
          k->name,
          cluster ? "its loop steps over clusters: count theirs; the grid is whole\n"
                    " * clusters"
                  : "one per tile it computes",
          name, k->name, cluster ? "each cluster" : "each block", name, k->name, name);
}

/* The end of a launch comment's sentence on what the kernel writes: its
 * tensors, and a split-K kernel's workspace. */
static void write_outside(FILE *f, const char *name, const WsKernelInfo *k) {
  if (!k->workspace_per_block)
    fprintf(f, ", for any grid");
  else
    fprintf(f,
            " and its split-K workspace, the last argument (the int64_t\n"
            " * address of %s_%s_workspace_bytes(grid_x) bytes, zeroed once:\n"
            " * see below), for any grid up to the persistent one",
            name, k->name);
}

static void write_header(FILE *f, const char *name, const WsKernelInfo *ks, int n) {
  fprintf(f,
          "/* %s.h: generated by ws-opt --emit=launcher. Do not edit. */\n"
          "#ifndef %s_H\n#define %s_H\n\n#include <stddef.h>\n#include <stdint.h>\n"
          "#include <cuda.h>\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n",
          name, name, name);
  write_tensor_type(f);
  fprintf(f,
          "/* The loaded module: one CUfunction per kernel. When a launch returns\n"
          " * CUDA_ERROR_INVALID_VALUE because of an argument, `error` says which\n"
          " * argument broke which rule (it is \"\" after a successful launch). */\n"
          "typedef struct %s_module {\n  CUmodule module;\n",
          name);
  for (int k = 0; k < n; k++)
    fprintf(f, "  CUfunction %s;\n", ks[k].name);
  fprintf(f,
          "  char error[256];\n"
          "  CUdeviceptr scratch; /* stands in for tensors with no element */\n"
          "} %s_module;\n\n",
          name);
  fprintf(f,
          "/* Loads the embedded cubin into the current context and sets each\n"
          " * kernel's dynamic shared memory limit; allocates 256 bytes of scratch\n"
          " * (see ws_tensor). Unload frees what a load took, also after it failed. */\n"
          "CUresult %s_load(%s_module *m);\nvoid %s_unload(%s_module *m);\n\n",
          name, name, name, name);
  for (int k = 0; k < n; k++) {
    if (ks[k].cluster_x * ks[k].cluster_y > 1)
      fprintf(f,
              "/* %s runs in clusters of %d x %d blocks:\n * %s.\n"
              " * grid_x and grid_y are rounded up to whole clusters; the extra\n"
              " * blocks' tiles lie past the tensors. */\n",
              ks[k].name, ks[k].cluster_x, ks[k].cluster_y,
              ks[k].pair ? "a pair, whose leader issues one MMA for both (each CTA\n"
                           " * loads its own A and half of B)"
                         : "its CTAs share operand tiles through TMA multicast");
    fprintf(f,
            "/* %s: %d threads per block, %d bytes of dynamic shared memory.\n"
            " * Descriptor arguments are global tensors; their TMA boxes are\n"
            " * fixed by the kernel. The kernel reads and writes no byte outside\n"
            " * them",
            ks[k].name, ks[k].block_threads, ks[k].shared_memory_bytes);
    write_outside(f, name, &ks[k]);
    if (has_array(&ks[k]))
      fprintf(f, ". Array arguments (rank 1, contiguous) are read one element\n"
                 " * at a time: an index past the end reads 0, nothing is written");
    fprintf(f,
            ". Arguments TMA cannot take are refused with\n"
            " * CUDA_ERROR_INVALID_VALUE and a message in m->error. */\n"
            "CUresult %s_%s_launch(%s_module *m, CUstream stream,\n"
            "    unsigned grid_x, unsigned grid_y, unsigned grid_z",
            name, ks[k].name, name);
    launcher_params params;
    launcher_params_name(&ks[k], &params);
    write_params(f, &ks[k], &params);
    launcher_params_free(&params);
    fprintf(f, ");\n\n");
    if (ks[k].persistent && ks[k].cluster_x * ks[k].cluster_y > 1)
      fprintf(f,
              "/* %s is persistent over its clusters' tiles: each cluster loops over\n"
              " * them from its cluster index in steps of the clusters, so any grid_x\n"
              " * (grid_y = 1) computes every tile. This is the grid_x that fills the\n"
              " * current context's device once: the clusters of %d blocks it runs at\n"
              " * once (cuOccupancyMaxActiveClusters) times %d; 0 (and a message in\n"
              " * m->error) when the device cannot be queried. */\n"
              "unsigned %s_%s_persistent_grid(%s_module *m);\n\n",
              ks[k].name, ks[k].cluster_x * ks[k].cluster_y, ks[k].cluster_x * ks[k].cluster_y,
              name, ks[k].name, name);
    else if (ks[k].persistent && ks[k].workspace_per_block)
      fprintf(f,
              "/* %s is persistent, with split-K or stream-K (ws.split_k): each\n"
              " * block loops over units (whole tiles, or parts of a tile's K range\n"
              " * that several blocks share) from its block index in steps of the\n"
              " * grid. The block that finishes a shared tile waits for the others'\n"
              " * partial sums, so every block of the grid must be resident at\n"
              " * once: grid_x may not pass this grid, the one\n"
              " * that fills the current context's device once (its SMs x %d\n"
              " * block(s) per SM; 0 and a message in m->error when the device\n"
              " * cannot be queried), and grid_y and grid_z are 1. */\n"
              "unsigned %s_%s_persistent_grid(%s_module *m);\n\n"
              "/* The bytes of the workspace a launch of %s on grid_x blocks takes\n"
              " * (its last argument: the address of a buffer of at least this many\n"
              " * bytes, 16-byte aligned, zeroed before its first launch; each launch\n"
              " * leaves it zeroed again). Launches that may run at once need\n"
              " * workspaces of their own. */\n"
              "size_t %s_%s_workspace_bytes(unsigned grid_x);\n\n",
              ks[k].name, ks[k].blocks_per_sm, name, ks[k].name, name, ks[k].name, name,
              ks[k].name);
    else if (ks[k].persistent)
      fprintf(f,
              "/* %s is persistent: each block loops over tiles from its block index\n"
              " * in steps of the grid, so any grid_x computes every tile (extra\n"
              " * blocks find none). This is the grid that fills the current\n"
              " * context's device once: its SMs x %d block(s) per SM; 0 (and a\n"
              " * message in m->error) when the device cannot be queried. */\n"
              "unsigned %s_%s_persistent_grid(%s_module *m);\n\n",
              ks[k].name, ks[k].blocks_per_sm, name, ks[k].name, name);
    else {
      char how[160];
      if (ks[k].cluster_x * ks[k].cluster_y > 1)
        snprintf(how, sizeof how,
                 "the clusters of %d blocks it\n * runs at once "
                 "(cuOccupancyMaxActiveClusters) times %d",
                 ks[k].cluster_x * ks[k].cluster_y, ks[k].cluster_x * ks[k].cluster_y);
      else
        snprintf(how, sizeof how,
                 "its SMs x %d block(s) per\n * SM, what its register "
                 "cap and shared memory leave room for",
                 ks[k].blocks_per_sm > 0 ? ks[k].blocks_per_sm : 1);
      fprintf(f,
              "/* The grid that fills the current context's device once with %s,\n"
              " * for a kernel that loops over its work from its block index in\n"
              " * steps of the grid: %s; 0 (and a message in\n"
              " * m->error) when the device cannot be queried. */\n"
              "unsigned %s_%s_persistent_grid(%s_module *m);\n\n",
              ks[k].name, how, name, ks[k].name, name);
    }
    if (has_balanced_grid(&ks[k]))
      write_balanced_grid_declaration(f, name, &ks[k]);
  }
  fprintf(f, "#ifdef __cplusplus\n}\n#endif\n\n#endif\n");
}

/* Its definition: the shared formula (launch_rules.h) over the resident
 * grid. */
static void write_balanced_grid(FILE *f, const char *name, const WsKernelInfo *k) {
  fprintf(f,
          "unsigned %s_%s_balanced_grid(%s_module *m, unsigned long long tiles) {\n"
          "  unsigned resident = %s_%s_persistent_grid(m);\n"
          "  return resident ? ws_balanced_grid(tiles, resident, %du) : 0;\n}\n\n",
          name, k->name, name, name, k->name, k->cluster_x * k->cluster_y);
}

/* The rules and parameter building every launch shares with the C API
 * (capi/lib/launch_rules.h, embedded at build time), after the names of
 * the element types it words its refusals with. */
static void write_rules(FILE *f) {
  fprintf(f, "static const char *dtype_name(int dtype) {\n"
             "  static const char *names[] = {\"none (ws_tensor.dtype is not set)\"");
  for (int d = 1; d < WsDtypeCount; d++)
    fprintf(f, ", \"%s\"", wsDtypeGetName((WsDtype)d));
  fprintf(f,
          "};\n"
          "  return dtype >= 0 && dtype < %d ? names[dtype] : \"not a ws_dtype\";\n"
          "}\n\n",
          (int)WsDtypeCount);
  fwrite(ws_launch_rules_text, 1, ws_launch_rules_text_len, f);
  fputc('\n', f);
}

static const char *swizzle_name(int bytes) {
  switch (bytes) {
  case 32:
    return "CU_TENSOR_MAP_SWIZZLE_32B";
  case 64:
    return "CU_TENSOR_MAP_SWIZZLE_64B";
  case 128:
    return "CU_TENSOR_MAP_SWIZZLE_128B";
  default:
    return "CU_TENSOR_MAP_SWIZZLE_NONE";
  }
}

/* A split-K launch: the shared rule (ws_check_split_k) over the resident
 * grid the module counts (an owner waits for units of other blocks). */
static void write_workspace_checks(FILE *f, const char *name, const WsKernelInfo *k,
                                   const char *workspace) {
  int last = k->num_args - 1;
  fprintf(f,
          "  unsigned resident = %s_%s_persistent_grid(m);\n"
          "  if (resident == 0)\n    return CUDA_ERROR_INVALID_VALUE; /* m->error says why */\n"
          "  const unsigned grid[3] = {grid_x, grid_y, grid_z};\n"
          "  CUresult checked = ws_check_split_k(m->error, %d, %s, "
          "\"%s_%s_workspace_bytes\", grid,\n      resident, \"%s_%s_persistent_grid\");\n"
          "  if (name_refusal(m->error, checked, %d, %s_%s_rules[%d].name) != CUDA_SUCCESS)\n"
          "    return checked;\n",
          name, k->name, last, workspace, name, k->name, name, k->name, last, name, k->name, last);
}

/* A rule row's source name (refusals name the argument by it) and its
 * end. The name holds only the characters of an MLIR SSA name, none of
 * which a C string escapes. */
static void write_rule_name(FILE *f, const WsKernelArg *a) {
  if (a->name[0])
    fprintf(f, ", .name = \"%s\"", a->name);
  fprintf(f, "},\n");
}

/* The kernel's rule table: one row per argument, read by ws_prepare. */
static void write_rule_table(FILE *f, const char *name, const WsKernelInfo *k) {
  static const char *const scalars[] = {"", "WS_SCALAR_I32", "WS_SCALAR_I64", "WS_SCALAR_F32",
                                        "WS_SCALAR_F64"};
  fprintf(f, "static const ws_arg_rule %s_%s_rules[%d] = {\n", name, k->name, k->num_args);
  for (int i = 0; i < k->num_args; i++) {
    const WsKernelArg *a = &k->args[i];
    char upper[32];
    if (a->kind == WsArgScalar) {
      fprintf(f, "    /* arg%d */ {.kind = WS_ARG_SCALAR, .scalar = %s, .divisor = %lld", i,
              scalars[a->scalar], (long long)a->divisor);
      write_rule_name(f, a);
      continue;
    }
    fprintf(f, "    /* arg%d */ {.kind = %s, .dtype = WS_DTYPE_%s, .elem_bytes = %d, .rank = %d", i,
            a->kind == WsArgArray ? "WS_ARG_ARRAY" : "WS_ARG_DESCRIPTOR",
            dtype_suffix(a->dtype, upper, sizeof upper), wsDtypeGetByteWidth(a->dtype), a->rank);
    if (a->kind == WsArgDescriptor) {
      fprintf(f, ",\n                 .map_type = %s, .box = {", wsDtypeGetTensorMapType(a->dtype));
      for (int d = 0; d < a->rank; d++)
        fprintf(f, "%s%lld", d ? ", " : "", (long long)a->box[d]);
      fprintf(f, "}, .swizzle = %s", swizzle_name(a->swizzle));
      if (a->view)
        fprintf(f, ", .view = 1");
      if (a->direct)
        fprintf(f, ", .direct = 1");
    }
    write_rule_name(f, a);
  }
  fprintf(f, "};\n\n");
}

/* How many kernel parameters the arguments become (see ws_prepare). */
static int count_params(const WsKernelInfo *k) {
  int n = 0;
  for (int i = 0; i < k->num_args; i++)
    n += k->args[i].kind == WsArgArray || k->args[i].view ? 2 : 1;
  return n;
}

static void write_launch(FILE *f, const char *name, const WsKernelInfo *k) {
  static const char *const value_field[] = {"", "i32", "i64", "f32", "f64"};
  write_rule_table(f, name, k);
  fprintf(f,
          "CUresult %s_%s_launch(%s_module *m, CUstream stream,\n"
          "    unsigned grid_x, unsigned grid_y, unsigned grid_z",
          name, k->name, name);
  launcher_params params;
  launcher_params_name(k, &params);
  write_params(f, k, &params);
  fprintf(f, ") {\n  m->error[0] = '\\0';\n  CUresult r;\n");
  const char *workspace = k->workspace_per_block ? params.name[k->num_args - 1] : NULL;
  if (workspace)
    write_workspace_checks(f, name, k, workspace);
  fprintf(f, "  ws_value values[%d];\n", k->num_args);
  for (int i = 0; i < k->num_args; i++) {
    const WsKernelArg *a = &k->args[i];
    fprintf(f, "  values[%d].%s = %s;\n", i,
            a->kind == WsArgScalar ? value_field[a->scalar] : "tensor", params.name[i]);
  }
  /* where each tensor lives, asked of the driver (ws_residency) */
  fprintf(f,
          "  ws_residency where = {cuPointerGetAttributes, 0};\n"
          "  if ((r = cuCtxGetDevice(&where.device)) != CUDA_SUCCESS) {\n"
          "    snprintf(m->error, sizeof m->error, \"no current CUDA context to launch in "
          "(cuCtxGetDevice: CUresult %%d); make one current, e.g. with cuCtxSetCurrent\", "
          "(int)r);\n    return r;\n  }\n"
          "  ws_arg_slot slots[%d];\n  void *params[%d];\n  int num_params = 0;\n"
          "  r = ws_prepare(m->error, %s_%s_rules, %d, values, cuTensorMapEncodeTiled, &where,\n"
          "                 m->scratch, slots, params, &num_params);\n"
          "  if (r != CUDA_SUCCESS)\n    return r;\n",
          k->num_args, count_params(k), name, k->name, k->num_args);
  if (workspace)
    fprintf(f,
            "  r = check_resident(m->error, %d, (CUdeviceptr)%s, &where);\n"
            "  if (name_refusal(m->error, r, %d, %s_%s_rules[%d].name) != CUDA_SUCCESS)\n"
            "    return r;\n",
            k->num_args - 1, workspace, k->num_args - 1, name, k->name, k->num_args - 1);
  if (k->cluster_x * k->cluster_y == 1) {
    fprintf(f,
            "  return cuLaunchKernel(m->%s, grid_x, grid_y, grid_z, %d, 1, 1, %d, "
            "stream, params, NULL);\n}\n\n",
            k->name, k->block_threads, k->shared_memory_bytes);
    launcher_params_free(&params);
    return;
  }
  fprintf(f,
          "  CUlaunchAttribute cluster;\n"
          "  cluster.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;\n"
          "  cluster.value.clusterDim.x = %d;\n  cluster.value.clusterDim.y = %d;\n"
          "  cluster.value.clusterDim.z = 1;\n"
          "  CUlaunchConfig config = {0};\n"
          "  config.gridDimX = (grid_x + %d) / %d * %d; /* whole clusters */\n"
          "  config.gridDimY = (grid_y + %d) / %d * %d;\n  config.gridDimZ = grid_z;\n"
          "  config.blockDimX = %d;\n  config.blockDimY = 1;\n  config.blockDimZ = 1;\n"
          "  config.sharedMemBytes = %d;\n  config.hStream = stream;\n"
          "  config.attrs = &cluster;\n  config.numAttrs = 1;\n"
          "  return cuLaunchKernelEx(&config, m->%s, params, NULL);\n}\n\n",
          k->cluster_x, k->cluster_y, k->cluster_x - 1, k->cluster_x, k->cluster_x,
          k->cluster_y - 1, k->cluster_y, k->cluster_y, k->block_threads, k->shared_memory_bytes,
          k->name);
  launcher_params_free(&params);
}

/* A cluster kernel's persistent grid: the clusters the device runs at
 * once (cuOccupancyMaxActiveClusters) times the cluster's blocks. */
static void write_cluster_grid(FILE *f, const char *name, const WsKernelInfo *k) {
  int size = k->cluster_x * k->cluster_y;
  fprintf(f,
          "unsigned %s_%s_persistent_grid(%s_module *m) {\n"
          "  CUlaunchAttribute cluster;\n"
          "  cluster.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;\n"
          "  cluster.value.clusterDim.x = %d;\n  cluster.value.clusterDim.y = %d;\n"
          "  cluster.value.clusterDim.z = 1;\n"
          "  CUlaunchConfig config = {0};\n"
          "  config.gridDimX = %d;\n  config.gridDimY = %d;\n  config.gridDimZ = 1;\n"
          "  config.blockDimX = %d;\n  config.blockDimY = 1;\n  config.blockDimZ = 1;\n"
          "  config.sharedMemBytes = %d;\n  config.attrs = &cluster;\n"
          "  config.numAttrs = 1;\n  int clusters = 0;\n  m->error[0] = '\\0';\n"
          "  if (cuOccupancyMaxActiveClusters(&clusters, m->%s, &config) != CUDA_SUCCESS ||\n"
          "      clusters <= 0) {\n"
          "    snprintf(m->error, sizeof m->error, \"the device runs no cluster of %d "
          "blocks of this kernel\");\n    return 0;\n  }\n"
          "  return (unsigned)clusters * %du;\n}\n\n",
          name, k->name, name, k->cluster_x, k->cluster_y, k->cluster_x, k->cluster_y,
          k->block_threads, k->shared_memory_bytes, k->name, size, size);
}

static void write_persistent_grid(FILE *f, const char *name, const WsKernelInfo *k) {
  if (k->cluster_x * k->cluster_y > 1) {
    write_cluster_grid(f, name, k);
    return;
  }
  fprintf(f,
          "unsigned %s_%s_persistent_grid(%s_module *m) {\n"
          "  CUdevice dev;\n  int sms = 0;\n  m->error[0] = '\\0';\n"
          "  if (cuCtxGetDevice(&dev) != CUDA_SUCCESS ||\n"
          "      cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev) !=\n"
          "          CUDA_SUCCESS || sms <= 0) {\n"
          "    snprintf(m->error, sizeof m->error, \"no current device to size the grid for\");\n"
          "    return 0;\n  }\n  return (unsigned)sms * %du;\n}\n\n",
          name, k->name, name, k->blocks_per_sm > 0 ? k->blocks_per_sm : 1);
}

/* `file`: the name the files have (the stem without its folder), which
 * the source includes its header by; `name`: the C prefix made of it. */
static void write_source(FILE *f, const char *file, const char *name, const WsKernelInfo *ks, int n,
                         const unsigned char *cubin, size_t len) {
  fprintf(f,
          "/* %s.c: generated by ws-opt --emit=launcher. Do not edit. */\n"
          "#include \"%s.h\"\n\n#include <stddef.h>\n\n"
          "static const unsigned char cubin[%zu] __attribute__((aligned(8))) = {",
          file, file, len);
  for (size_t i = 0; i < len; i++)
    fprintf(f, "%s%u,", i % 20 ? "" : "\n  ", cubin[i]);
  fprintf(f, "\n};\n\n");
  write_rules(f);
  fprintf(f,
          "CUresult %s_load(%s_module *m) {\n  m->error[0] = '\\0';\n"
          "  m->module = NULL;\n  m->scratch = 0;\n"
          "  CUresult r = cuMemAlloc(&m->scratch, WS_SCRATCH_BYTES);\n"
          "  if (r == CUDA_SUCCESS)\n    r = cuMemsetD8(m->scratch, 0, WS_SCRATCH_BYTES);\n"
          "  if (r == CUDA_SUCCESS)\n    r = cuModuleLoadData(&m->module, cubin);\n"
          "  if (r != CUDA_SUCCESS)\n    return r;\n",
          name, name);
  for (int k = 0; k < n; k++)
    fprintf(
        f,
        "  if ((r = cuModuleGetFunction(&m->%s, m->module, \"%s\")) != CUDA_SUCCESS ||\n"
        "      (r = cuFuncSetAttribute(m->%s, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,\n"
        "                              %d)) != CUDA_SUCCESS)\n    return r;\n",
        ks[k].name, ks[k].name, ks[k].name, ks[k].shared_memory_bytes);
  fprintf(f,
          "  return CUDA_SUCCESS;\n}\n\nvoid %s_unload(%s_module *m) {\n"
          "  if (m->module)\n    cuModuleUnload(m->module);\n  m->module = NULL;\n"
          "  if (m->scratch)\n    cuMemFree(m->scratch);\n  m->scratch = 0;\n}\n\n",
          name, name);
  for (int k = 0; k < n; k++) {
    write_launch(f, name, &ks[k]);
    write_persistent_grid(f, name, &ks[k]);
    if (has_balanced_grid(&ks[k]))
      write_balanced_grid(f, name, &ks[k]);
    if (ks[k].workspace_per_block)
      fprintf(f,
              "size_t %s_%s_workspace_bytes(unsigned grid_x) {\n"
              "  return (size_t)grid_x * %lldu;\n}\n\n",
              name, ks[k].name, (long long)ks[k].workspace_per_block);
  }
}

static FILE *open_with_suffix(const char *base, const char *suffix) {
  char path[4096];
  snprintf(path, sizeof path, "%s%s", base, suffix);
  FILE *f = fopen(path, "w");
  if (!f) /* the reason, e.g. "No such file or directory": ws-opt makes no folder */
    fprintf(stderr, "ws-opt: error: cannot write '%s': %s\n", path, strerror(errno));
  return f;
}

bool launcher_write(const char *base, const WsKernelInfo *kernels, int count,
                    const unsigned char *cubin, size_t cubin_len) {
  /* -o out/add and -o out/add.c (or .h) both mean out/add.c and out/add.h */
  char stem[4096], name[128];
  snprintf(stem, sizeof stem, "%s", base);
  size_t len = strlen(stem);
  if (len > 2 && stem[len - 2] == '.' && (stem[len - 1] == 'c' || stem[len - 1] == 'h'))
    stem[len - 2] = '\0';
  const char *slash = strrchr(stem, '/');
  const char *file = slash ? slash + 1 : stem;
  c_identifier(stem, name, sizeof name);
  FILE *h = open_with_suffix(stem, ".h");
  FILE *c = h ? open_with_suffix(stem, ".c") : NULL;
  if (c) {
    write_header(h, name, kernels, count);
    write_source(c, file, name, kernels, count, cubin, cubin_len);
  }
  bool ok = c && !ferror(h) && !ferror(c);
  if (h)
    ok &= fclose(h) == 0;
  if (c)
    ok &= fclose(c) == 0;
  return ok;
}
