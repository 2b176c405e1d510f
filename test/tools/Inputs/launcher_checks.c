/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* launcher_checks.c: drives a generated launcher (add_kernel, from
 * integration/add.mlir: three f32 tensors of rank 2 and an i32) against a
 * stand-in for the CUDA driver, so that every refusal and every stride the
 * launcher hands TMA can be checked on a machine without a GPU. */
#include <stdio.h>
#include <string.h>

#include "add_kernel.h"
#include "add_kernel.c"
#include "stand_in_driver.h"

/* The rest of the stand-in driver: records what a real one would be asked. */
CUresult cuTensorMapEncodeTiled(CUtensorMap *map, CUtensorMapDataType type, cuuint32_t rank,
                                void *base, const cuuint64_t *dims, const cuuint64_t *strides,
                                const cuuint32_t *box, const cuuint32_t *unit,
                                CUtensorMapInterleave il, CUtensorMapSwizzle sw,
                                CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob) {
  (void)map;
  (void)box;
  (void)unit;
  (void)il;
  (void)sw;
  (void)l2;
  (void)oob;
  printf("  encode type=%d ", (int)type);
  show_encoding(base, rank, dims, strides);
  for (cuuint32_t d = 0; d + 1 < rank; d++)
    if (strides[d] % 16 || strides[d] == 0 || strides[d] >= (1ull << 40))
      return CUDA_ERROR_INVALID_VALUE; /* what the real driver refuses */
  return CUDA_SUCCESS;
}
CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                        unsigned by, unsigned bz, unsigned smem, CUstream s, void **params,
                        void **extra) {
  (void)f;
  (void)gy;
  (void)gz;
  (void)by;
  (void)bz;
  (void)s;
  (void)params;
  (void)extra;
  printf("  launched grid=%u block=%u smem=%u\n", gx, bx, smem);
  return CUDA_SUCCESS;
}

static ws_tensor matrix(uint64_t rows, uint64_t cols, uint64_t stride) {
  ws_tensor t = {.base = 0x10000,
                 .rank = 2,
                 .dtype = WS_DTYPE_F32,
                 .sizes = {rows, cols},
                 .strides = {stride, 1}};
  return t;
}

static void launch(add_kernel_module *m, const char *what, ws_tensor a, ws_tensor b, ws_tensor c) {
  printf("%s:\n", what);
  CUresult r = add_kernel_add_launch(m, NULL, 1, 1, 1, &a, &b, &c, 64);
  printf("  result=%d error=\"%s\"\n", (int)r, m->error);
}

int main(void) {
  add_kernel_module m;
  if (add_kernel_load(&m) != CUDA_SUCCESS)
    return 1;
  ws_tensor good = matrix(64, 100, 100);
  launch(&m, "good", good, good, good);

  ws_tensor t = good;
  t.dtype = WS_DTYPE_NONE;
  launch(&m, "dtype unset", t, good, good);
  t.dtype = WS_DTYPE_BF16;
  launch(&m, "dtype bf16", good, t, good);
  t.dtype = WS_DTYPE_F16;
  launch(&m, "dtype f16 stored", good, good, t);
  t.dtype = (ws_dtype)99;
  launch(&m, "dtype 99", t, good, good);

  t = good;
  t.rank = 3;
  launch(&m, "rank 3", t, good, good);

  /* A (1, 777) row: its outer stride of 777 elements is never stepped. */
  ws_tensor row = matrix(1, 777, 777);
  launch(&m, "one row of 777", row, row, row);
  /* K = 0 as torch.empty(M, 0) has it: strides (1, 1). */
  ws_tensor empty = matrix(64, 0, 1);
  empty.base = 0;
  launch(&m, "no columns", empty, empty, empty);
  /* A (1, 1) tensor with any strides. */
  ws_tensor one = matrix(1, 1, 3);
  one.strides[1] = 5;
  launch(&m, "one element", one, one, one);

  /* Memory the kernel could only fault on, or was not proved for. */
  t = good;
  t.base = STAND_IN_HOST + 0x1000;
  launch(&m, "pageable host memory", good, t, good);
  t.base = STAND_IN_PINNED + 0x1000;
  launch(&m, "pinned host memory", good, good, t);
  t.base = STAND_IN_OTHER_GPU + 0x1000;
  launch(&m, "another GPU's memory", t, good, good);
  /* a tensor with no element is never read: its base is not looked at */
  empty.base = STAND_IN_HOST;
  launch(&m, "no columns in host memory", good, empty, good);

  launch(&m, "stride of 777", matrix(2, 777, 777), good, good);
  t = good;
  t.strides[1] = 2;
  launch(&m, "inner stride 2", t, good, good);
  t = good;
  t.base += 4;
  launch(&m, "misaligned", good, t, good);
  launch(&m, "size past 2^32", matrix(2, (1ull << 32) + 1, 1ull << 33), good, good);
  printf("NULL:\n");
  CUresult r = add_kernel_add_launch(&m, NULL, 1, 1, 1, &good, NULL, &good, 64);
  printf("  result=%d error=\"%s\"\n", (int)r, m.error);
  add_kernel_unload(&m);
  return 0;
}
