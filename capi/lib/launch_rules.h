/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* launch_rules.h: the rules every ws launch checks, and the kernel
 * parameters it builds. One source, two users:
 *  - ws-opt --emit=launcher copies this file into each generated launcher,
 *    which must stand alone (CUDA's driver API, no ws library);
 *  - the C API's wsLaunchPrepare (ws-c/Launch.h) includes it, and the
 *    Python runtime launches through that.
 * So a generated launcher and `kernel[grid](...)` refuse the same tensors
 * with the same words.
 *
 * Before including it, declare the CUDA driver's types (cuda.h), the
 * ws_tensor type (base, rank, dtype, sizes[5], strides[5], outermost
 * first, strides in elements) and `static const char *dtype_name(int)`.
 * Everything here is static, and each function is used by ws_prepare. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* cuTensorMapEncodeTiled's type: a launcher passes the driver's own, the C
 * API the address its caller got from the driver. */
typedef CUresult (*ws_encode_tiled_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *,
                                       const cuuint64_t *, const cuuint64_t *, const cuuint32_t *,
                                       const cuuint32_t *, CUtensorMapInterleave,
                                       CUtensorMapSwizzle, CUtensorMapL2promotion,
                                       CUtensorMapFloatOOBfill);

/* Where a launch's memory must live: cuPointerGetAttributes (a launcher
 * passes the driver's own) and the current context's device. The C API
 * passes none (NULL): the Python runtime checks where torch's tensors live
 * itself, and its library links no driver. */
typedef struct ws_residency {
  CUresult (*attributes)(unsigned, CUpointer_attribute *, void **, CUdeviceptr);
  CUdevice device;
} ws_residency;

/* The kinds and scalar types, numbered as ws-c/Compile.h numbers them. */
enum { WS_ARG_SCALAR = 0, WS_ARG_DESCRIPTOR = 1, WS_ARG_ARRAY = 2 };
enum { WS_SCALAR_I32 = 1, WS_SCALAR_I64 = 2, WS_SCALAR_F32 = 3, WS_SCALAR_F64 = 4 };

/* The scratch behind tensors with no element: a zeroed granule for loads
 * and, apart from it, one that stores may write. */
enum { WS_SCRATCH_STORE_OFFSET = 128, WS_SCRATCH_BYTES = 256 };

/* What a launch checks and passes for one kernel argument. */
typedef struct ws_arg_rule {
  int kind, scalar;
  long long divisor; /* integer scalars: their ws.divisibility (1: none) */
  int dtype, elem_bytes, rank;
  CUtensorMapDataType map_type;
  cuuint32_t box[5]; /* outermost first */
  CUtensorMapSwizzle swizzle;
  int view;         /* the kernel takes a store view after the map */
  int direct;       /* checked, but no TMA copy goes through it: no map */
  const char *name; /* its name in the source ("a" for %a), or NULL */
} ws_arg_rule;

/* One argument as the caller gives it: a tensor, or a scalar's value. */
typedef union ws_value {
  const ws_tensor *tensor;
  int32_t i32;
  int64_t i64;
  float f32;
  double f64;
} ws_value;

/* What one argument's kernel parameters point at. */
typedef struct ws_arg_slot {
  CUtensorMap map;
  int64_t view[12];
  CUdeviceptr array;
  uint64_t count;
  ws_value value;
} ws_arg_slot;

/* Records why an argument was refused; returns CUDA_ERROR_INVALID_VALUE. */
static CUresult refuse(char *error, const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  vsnprintf(error, 256, format, ap);
  va_end(ap);
  return CUDA_ERROR_INVALID_VALUE;
}

/* Adds argument `arg`'s source name to a refusal `r` that names it by
 * number ("arg1: ..." becomes "arg1 (%b): ..."), the words the Python
 * runtime uses too; returns `r`. */
static CUresult name_refusal(char *error, CUresult r, int arg, const char *name) {
  char head[16], rest[256];
  int n = snprintf(head, sizeof head, "arg%d:", arg);
  if (r == CUDA_SUCCESS || !name || !name[0] || strncmp(error, head, (size_t)n) != 0)
    return r;
  snprintf(rest, sizeof rest, "%s", error + n);
  if (snprintf(error, 256, "arg%d (%%%s):%s", arg, name, rest) >= 256)
    error[255] = '\0'; /* cut, as every refusal is, at 255 characters */
  return r;
}

/* Whether tensor `t` of rank `rank` has an element: one without is never
 * read or written, so neither its strides nor its base are looked at. */
static int has_element(const ws_tensor *t, int rank) {
  for (int d = 0; d < rank; d++)
    if (t->sizes[d] == 0)
      return 0;
  return 1;
}

/* Refuses argument `arg` at `base` unless it is the current GPU's memory
 * or managed memory, by the driver's pointer attributes: a kernel reading
 * pageable host memory faults, and pinned host memory or another GPU's is
 * not what it was proved for. No check without `where` (the C API). */
static CUresult check_resident(char *error, int arg, CUdeviceptr base, const ws_residency *where) {
  if (!where)
    return CUDA_SUCCESS;
  unsigned int type = 0, managed = 0;
  int ordinal = -1;
  CUpointer_attribute what[3] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_IS_MANAGED,
                                 CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL};
  void *data[3] = {&type, &managed, &ordinal};
  CUresult r = where->attributes(3, what, data, base);
  if (r != CUDA_SUCCESS)
    return r;
  if (managed || (type == CU_MEMORYTYPE_DEVICE && ordinal == (int)where->device))
    return CUDA_SUCCESS;
  if (type == CU_MEMORYTYPE_DEVICE)
    return refuse(error,
                  "arg%d: must be in the current GPU's memory, device %d (its base is "
                  "on device %d)",
                  arg, (int)where->device, ordinal);
  return refuse(error,
                "arg%d: must be in the current GPU's memory, device %d (its base 0x%llx "
                "is %s)",
                arg, (int)where->device, (unsigned long long)base,
                type == CU_MEMORYTYPE_HOST ? "host memory"
                                           : "no memory CUDA allocated: pageable host memory?");
}

/* Checks tensor `t` (argument `arg`) against the kernel's element type
 * and rank and against what TMA accepts; gives each dimension's stride in
 * bytes, outermost first. A dimension of size 1 is never stepped: its
 * stride is replaced by one TMA takes (the extent inside it, rounded up
 * to 16 bytes). A tensor with no element gets no stride rule (see encode).
 * The base must be `align`-byte aligned: TMA's 16, or an element's for a
 * tensor only stored element by element. */
static CUresult check_tensor(char *error, int arg, const ws_tensor *t, int dtype, int elem_bytes,
                             int rank, cuuint64_t byte_strides[5], int *empty, int align) {
  if (!t)
    return refuse(error, "arg%d: the ws_tensor pointer is NULL", arg);
  if (t->rank != rank)
    return refuse(error, "arg%d: rank must be %d, the kernel's box rank (got %d)%s", arg, rank,
                  t->rank,
                  t->rank >= 0 && t->rank < rank
                      ? "; view a tensor of fewer dimensions with leading sizes of 1 (a 1-D "
                        "N as 1 x N), whose strides are not checked"
                      : "");
  if ((int)t->dtype != dtype)
    return refuse(error, "arg%d: element type must be %s (got %s)", arg, dtype_name(dtype),
                  dtype_name((int)t->dtype));
  for (int d = 0; d < rank; d++)
    if (t->sizes[d] > (1ull << 32))
      return refuse(error,
                    "arg%d: each size must be at most 2^32 (got %llu in "
                    "dimension %d)",
                    arg, (unsigned long long)t->sizes[d], d);
  *empty = !has_element(t, rank);
  if (*empty)
    return CUDA_SUCCESS;
  if (t->base % align)
    return refuse(error, "arg%d: base must be %d-byte aligned (got 0x%llx)", arg, align,
                  (unsigned long long)t->base);
  if (t->sizes[rank - 1] != 1 && t->strides[rank - 1] != 1)
    return refuse(error, "arg%d: the innermost stride must be 1 element (got %llu)", arg,
                  (unsigned long long)t->strides[rank - 1]);
  byte_strides[rank - 1] = (cuuint64_t)elem_bytes;
  for (int d = rank - 2; d >= 0; d--) {
    if (t->sizes[d] == 1) {
      cuuint64_t inner = byte_strides[d + 1], n = t->sizes[d + 1];
      cuuint64_t extent = n <= (1ull << 40) / inner ? (inner * n + 15) / 16 * 16 : 16;
      byte_strides[d] = extent && extent < (1ull << 40) ? extent : 16;
      continue;
    }
    unsigned long long bytes = t->strides[d] * (unsigned long long)elem_bytes;
    if (bytes % 16 || bytes == 0 || bytes >= (1ull << 40) || t->strides[d] >= (1ull << 40))
      return refuse(error,
                    "arg%d: each outer stride of a dimension larger than 1 "
                    "must be a nonzero multiple of 16 bytes below 2^40 bytes (got %llu "
                    "elements of %d bytes in dimension %d)",
                    arg, (unsigned long long)t->strides[d], elem_bytes, d);
    byte_strides[d] = bytes;
  }
  return CUDA_SUCCESS;
}

/* Builds a tiled TMA descriptor; box and swizzle come from the plan. TMA
 * cannot describe a tensor with no element, so such a tensor becomes one
 * element of zeroed scratch (`scratch`: its own for a stored tensor):
 * every load of it reads zeros and a store lands in the scratch. With no
 * encoder (a check without a driver), the map is left zeroed. */
static CUresult encode(char *error, int arg, CUtensorMap *map, const ws_tensor *t,
                       const ws_arg_rule *rule, ws_encode_tiled_fn encode_tiled,
                       CUdeviceptr scratch, cuuint64_t byte_strides[5]) {
  cuuint64_t dims[5] = {0}, strides[5] = {0};
  cuuint32_t box[5] = {0}, unit[5] = {0};
  int empty = 0, rank = rule->rank;
  CUresult r =
      check_tensor(error, arg, t, rule->dtype, rule->elem_bytes, rank, byte_strides, &empty, 16);
  if (r != CUDA_SUCCESS || !encode_tiled)
    return r;
  for (int d = 0; d < rank; d++) {
    dims[d] = empty ? 1 : t->sizes[rank - 1 - d];
    box[d] = rule->box[rank - 1 - d];
    unit[d] = 1;
    if (d > 0)
      strides[d - 1] = empty ? 16 : byte_strides[rank - 1 - d];
  }
  void *base = (void *)(empty ? scratch : t->base);
  r = encode_tiled(map, rule->map_type, (cuuint32_t)rank, base, dims, strides, box, unit,
                   CU_TENSOR_MAP_INTERLEAVE_NONE, rule->swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                   CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    snprintf(error, 256, "arg%d: cuTensorMapEncodeTiled refused the tensor (CUresult %d)", arg,
             (int)r);
  return r;
}

/* What a kernel that stores into `t` reads besides the descriptor:
 * base, the column from which a tile is stored element by element
 * (the last whole 16-byte granule of a row ends there; no limit when
 * rows end on a granule), sizes and byte strides, outermost first. A
 * tensor with no element has sizes of 0: nothing is stored to it. */
static void store_view(int64_t view[12], const ws_tensor *t, const cuuint64_t byte_strides[5],
                       int elem_bytes, int rank) {
  uint64_t inner = t->sizes[rank - 1];
  uint64_t per_granule = 16 / (uint64_t)elem_bytes;
  int empty = !has_element(t, rank);
  view[0] = (int64_t)t->base;
  view[1] = inner % per_granule ? (int64_t)(inner / per_granule * per_granule) : INT64_MAX;
  for (int d = 0; d < 5; d++) {
    view[2 + d] = d < rank ? (int64_t)t->sizes[d] : 1;
    view[7 + d] = d < rank && !empty ? (int64_t)byte_strides[d] : 0;
  }
}

/* Checks array `t` (argument `arg`): rank 1, the kernel's element type,
 * contiguous and aligned to its element; gives its base and count. The
 * kernel reads it element by element, zero past the end, so an empty one
 * needs no base. */
static CUresult check_array(char *error, int arg, const ws_tensor *t, int dtype, int elem_bytes,
                            CUdeviceptr *base, uint64_t *count) {
  if (!t)
    return refuse(error, "arg%d: the ws_tensor pointer is NULL", arg);
  if (t->rank != 1)
    return refuse(error, "arg%d: rank must be 1, the kernel's array (got %d)", arg, t->rank);
  if ((int)t->dtype != dtype)
    return refuse(error, "arg%d: element type must be %s (got %s)", arg, dtype_name(dtype),
                  dtype_name((int)t->dtype));
  *count = t->sizes[0];
  *base = *count ? t->base : 0;
  if (*count > 1 && t->strides[0] != 1)
    return refuse(error, "arg%d: an array's stride must be 1 element (got %llu)", arg,
                  (unsigned long long)t->strides[0]);
  if (*count && t->base % (CUdeviceptr)elem_bytes)
    return refuse(error, "arg%d: base must be %d-byte aligned (got 0x%llx)", arg, elem_bytes,
                  (unsigned long long)t->base);
  return CUDA_SUCCESS;
}

/* A descriptor argument: checked and encoded (or, accessed directly, only
 * checked), then its map and store view as parameters. */
static CUresult prepare_descriptor(char *error, int arg, const ws_arg_rule *rule, ws_arg_slot *slot,
                                   ws_encode_tiled_fn encode_tiled, CUdeviceptr scratch,
                                   void **params, int *p) {
  const ws_tensor *t = slot->value.tensor;
  cuuint64_t strides[5];
  CUresult r;
  memset(&slot->map, 0, sizeof slot->map);
  if (rule->direct) {
    int empty;
    r = check_tensor(error, arg, t, rule->dtype, rule->elem_bytes, rule->rank, strides, &empty,
                     rule->elem_bytes);
  } else {
    r = encode(error, arg, &slot->map, t, rule, encode_tiled,
               scratch + (rule->view ? WS_SCRATCH_STORE_OFFSET : 0), strides);
  }
  if (r != CUDA_SUCCESS)
    return r;
  params[(*p)++] = &slot->map;
  if (rule->view) {
    store_view(slot->view, t, strides, rule->elem_bytes, rule->rank);
    params[(*p)++] = slot->view;
  }
  return CUDA_SUCCESS;
}

/* A split-K launch (an owner waits for units of other blocks): argument
 * `arg` is the workspace, a 16-byte aligned address of `bytes_of`(grid_x)
 * bytes; every block must be resident at once, so the grid is at most
 * `resident` blocks (named `resident_of` in the message) along x and 1
 * along y and z. A `resident` of 0 leaves the grid unchecked: a check
 * with no device to count on. Inline: only split-K launchers call it. */
static inline CUresult ws_check_split_k(char *error, int arg, uint64_t workspace,
                                        const char *bytes_of, const unsigned grid[3],
                                        unsigned resident, const char *resident_of) {
  if (workspace == 0 || workspace % 16 != 0)
    return refuse(error,
                  "arg%d: the split-K workspace must be a 16-byte aligned address of "
                  "%s(grid_x) bytes, zeroed before the first launch",
                  arg, bytes_of);
  if (resident && (grid[1] != 1 || grid[2] != 1 || grid[0] > resident))
    return refuse(error,
                  "split-K waits across blocks, so every block must be resident at "
                  "once: grid_x at most %u (%s), grid_y and grid_z 1 (got %u x %u x %u)",
                  resident, resident_of, grid[0], grid[1], grid[2]);
  return CUDA_SUCCESS;
}

/* wsLaunchBalancedGrid (ws-c/Launch.h): the fewest blocks, whole
 * clusters, at most `resident`, that run a tile loop's `iterations` in as
 * many rounds as `resident` blocks do, the rounds counted in clusters (a
 * cluster kernel's loop steps over clusters). Inline: only persistent
 * launchers call it. */
static inline unsigned ws_balanced_grid(uint64_t iterations, unsigned resident, unsigned cluster) {
  if (cluster == 0)
    cluster = 1;
  uint64_t units = resident / cluster; /* the clusters (or blocks) resident at once */
  if (iterations == 0 || units == 0)
    return cluster;
  uint64_t rounds = (iterations + units - 1) / units;
  return (unsigned)((iterations + rounds - 1) / rounds) * cluster;
}

/* Checks every argument of a launch and points `params` at its kernel
 * parameters, in the kernel's order: a descriptor's map (then its store
 * view), an array's base and count, a scalar. First the divisors the
 * proofs assumed, then each argument in turn, a tensor with an element
 * last for where it lives (`where`; NULL: not checked). Returns CUDA_SUCCESS, or
 * CUDA_ERROR_INVALID_VALUE with `error` saying which argument (by number
 * and source name) broke which rule (or the encoder's own refusal). */
static CUresult ws_prepare(char *error, const ws_arg_rule *rules, int n, const ws_value *values,
                           ws_encode_tiled_fn encode_tiled, const ws_residency *where,
                           CUdeviceptr scratch, ws_arg_slot *slots, void **params,
                           int *num_params) {
  for (int i = 0; i < n; i++) {
    const ws_arg_rule *rule = &rules[i];
    if (rule->kind != WS_ARG_SCALAR || rule->divisor <= 1)
      continue;
    long long v = rule->scalar == WS_SCALAR_I32 ? values[i].i32 : (long long)values[i].i64;
    if (v % rule->divisor != 0)
      return name_refusal(error,
                          refuse(error,
                                 "arg%d: must be a multiple of its ws.divisibility, "
                                 "%lld (got %lld)",
                                 i, rule->divisor, v),
                          i, rule->name);
  }
  int p = 0;
  for (int i = 0; i < n; i++) {
    const ws_arg_rule *rule = &rules[i];
    ws_arg_slot *slot = &slots[i];
    CUresult r = CUDA_SUCCESS;
    slot->value = values[i];
    if (rule->kind == WS_ARG_SCALAR) {
      params[p++] = &slot->value;
    } else if (rule->kind == WS_ARG_ARRAY) {
      r = check_array(error, i, slot->value.tensor, rule->dtype, rule->elem_bytes, &slot->array,
                      &slot->count);
      params[p++] = &slot->array;
      params[p++] = &slot->count;
    } else {
      r = prepare_descriptor(error, i, rule, slot, encode_tiled, scratch, params, &p);
    }
    if (r == CUDA_SUCCESS && rule->kind != WS_ARG_SCALAR &&
        has_element(slot->value.tensor, rule->kind == WS_ARG_ARRAY ? 1 : rule->rank))
      r = check_resident(error, i, slot->value.tensor->base, where);
    if (r != CUDA_SUCCESS)
      return name_refusal(error, r, i, rule->name);
  }
  *num_params = p;
  return CUDA_SUCCESS;
}
