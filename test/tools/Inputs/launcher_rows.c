/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* launcher_rows.c: drives the generated launcher of a LayerNorm row kernel
 * (integration/rows/variants.py's layernorm_f32_128: x, the weight and the
 * bias, y, and the per-row mean and rstd, M and eps) against a stand-in
 * for the CUDA driver. The mean and rstd are stored only by the compute
 * warps, element by element: nothing copies through them with TMA, so the
 * launcher encodes no map for them (their box could be narrower than TMA's
 * 16 bytes), passes a zeroed one and their store views, and asks their
 * base only for an element's alignment. */
#include <stdint.h>
#include <stdio.h>

#define STAND_IN_PRINT_ENCODE
#include "stand_in_driver.h"
#include "layernorm.h"

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
  /* x, w, b, y and its view, mean and its view, rstd and its view, M, eps */
  printf("  launched grid=%u mean map %s\n", gx, map_is_zeroed(params[5]) ? "zeroed" : "encoded");
  show_view("mean", params[6]);
  show_view("rstd", params[8]);
  return CUDA_SUCCESS;
}

static void launch(layernorm_module *m, const char *what, const ws_tensor *mean) {
  ws_tensor x = {.base = 0x100000,
                 .rank = 2,
                 .dtype = WS_DTYPE_F32,
                 .sizes = {1000, 128},
                 .strides = {128, 1}};
  ws_tensor w = {
      .base = 0x200000, .rank = 2, .dtype = WS_DTYPE_F32, .sizes = {1, 128}, .strides = {128, 1}};
  ws_tensor rstd = {
      .base = 0x300000, .rank = 2, .dtype = WS_DTYPE_F32, .sizes = {1, 1000}, .strides = {1000, 1}};
  printf("%s:\n", what);
  CUresult r =
      layernorm_layernorm_launch(m, NULL, 63, 1, 1, &x, &w, &w, &x, mean, &rstd, 1000, 1e-5f);
  printf("  result=%d error=\"%s\"\n", (int)r, m->error);
}

int main(void) {
  layernorm_module m;
  if (layernorm_load(&m) != CUDA_SUCCESS)
    return 1;
  ws_tensor mean = {
      .base = 0x400004, .rank = 2, .dtype = WS_DTYPE_F32, .sizes = {1, 1000}, .strides = {1000, 1}};
  launch(&m, "mean 4-byte aligned", &mean);
  ws_tensor t = mean;
  t.base = 0x400002;
  launch(&m, "mean 2-byte aligned", &t);
  t = mean;
  t.dtype = WS_DTYPE_BF16;
  launch(&m, "mean bf16", &t);
  t = mean;
  t.rank = 1;
  launch(&m, "mean rank 1", &t);
  printf("resident grid=%u\n", layernorm_layernorm_persistent_grid(&m));
  layernorm_unload(&m);
  return 0;
}
