/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* launcher_split_k.c: drives the generated launcher of a split-K kernel
 * (integration/matmul/variants.py's pmm_128x256x64_w8_sk) against a
 * stand-in for the CUDA driver: the workspace is grid x (128 x 256 f32 +
 * 128) bytes, its address is the kernel's last parameter, and a null or
 * misaligned workspace or a grid past the one whose blocks are all
 * resident at once is refused with a message. */
#include <stdint.h>
#include <stdio.h>

#include "split.h"
#define STAND_IN_SILENT_ENCODE
#include "stand_in_driver.h"

CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                        unsigned by, unsigned bz, unsigned smem, CUstream s, void **params,
                        void **extra) {
  (void)f;
  (void)gy;
  (void)gz;
  (void)bx;
  (void)by;
  (void)bz;
  (void)smem;
  (void)s;
  (void)extra;
  /* A, its view... : the workspace follows M, N and K, last */
  printf("  launched grid=%u workspace=0x%llx\n", gx, (unsigned long long)*(int64_t *)params[7]);
  return CUDA_SUCCESS;
}

static ws_tensor matrix(uint64_t rows, uint64_t cols) {
  ws_tensor t = {.base = 0x10000,
                 .rank = 2,
                 .dtype = WS_DTYPE_F16,
                 .sizes = {rows, cols},
                 .strides = {cols, 1}};
  return t;
}

int main(void) {
  split_module m;
  if (split_load(&m) != CUDA_SUCCESS)
    return 1;
  ws_tensor a = matrix(256, 8192), b = matrix(8192, 8192), c = matrix(256, 8192);
  printf("bytes for 132 blocks: %zu\n", split_pmm_128x256x64_w8_sk_workspace_bytes(132));
  struct {
    unsigned grid;
    int64_t workspace;
  } runs[] = {
      {132, 0x200000}, {132, 0}, {132, 0x200008}, {133, 0x200000}, {132, (int64_t)STAND_IN_HOST}};
  for (unsigned i = 0; i < sizeof runs / sizeof runs[0]; i++) {
    printf("grid %u, workspace 0x%llx:\n", runs[i].grid, (unsigned long long)runs[i].workspace);
    CUresult r = split_pmm_128x256x64_w8_sk_launch(&m, NULL, runs[i].grid, 1, 1, &a, &b, &c, 256,
                                                   8192, 8192, runs[i].workspace);
    printf("  result=%d error=\"%s\"\n", (int)r, m.error);
  }
  return 0;
}
