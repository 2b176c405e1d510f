/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_dtypes.c: the element-type table of ws-c/Dialect.h (names, widths,
 * TMA types). It needs no MLIR library, so libws-launch.so, which checks
 * launches on machines that only run kernels, carries it too. */
#include "ws-c/Dialect.h"

/* One row per element type a tile may hold: everything the dialect, the
 * passes and the launcher need to know of it. Indexed by WsDtype. */
typedef struct dtype_row {
  const char *name;
  int bytes;
  const char *tensor_map_type;
} dtype_row;

static const dtype_row dtype_rows[WsDtypeCount] = {
    [WsDtypeF32] = {"f32", 4, "CU_TENSOR_MAP_DATA_TYPE_FLOAT32"},
    [WsDtypeF16] = {"f16", 2, "CU_TENSOR_MAP_DATA_TYPE_FLOAT16"},
    [WsDtypeBF16] = {"bf16", 2, "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16"},
    [WsDtypeF8E4M3FN] = {"f8E4M3FN", 1, "CU_TENSOR_MAP_DATA_TYPE_UINT8"},
    [WsDtypeF8E5M2] = {"f8E5M2", 1, "CU_TENSOR_MAP_DATA_TYPE_UINT8"},
    [WsDtypeI8] = {"i8", 1, "CU_TENSOR_MAP_DATA_TYPE_UINT8"},
    [WsDtypeI32] = {"i32", 4, "CU_TENSOR_MAP_DATA_TYPE_INT32"},
};

static const dtype_row *dtype_row_of(WsDtype d) {
  if ((int)d <= WsDtypeNone || (int)d >= WsDtypeCount)
    return NULL;
  return &dtype_rows[d];
}

const char *wsDtypeGetName(WsDtype d) {
  const dtype_row *r = dtype_row_of(d);
  return r ? r->name : NULL;
}

int wsDtypeGetByteWidth(WsDtype d) {
  const dtype_row *r = dtype_row_of(d);
  return r ? r->bytes : 0;
}

const char *wsDtypeGetTensorMapType(WsDtype d) {
  const dtype_row *r = dtype_row_of(d);
  return r ? r->tensor_map_type : NULL;
}
