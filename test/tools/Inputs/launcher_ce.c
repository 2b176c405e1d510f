/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* launcher_ce.c: drives the generated launcher of a cross-entropy row
 * kernel (integration/rows/variants.py's cross_entropy_bf16_4096: the
 * logits, the labels, the loss and the logsumexp, N and the ignore index)
 * against a stand-in for the CUDA driver. Only the logits go through TMA:
 * the labels are read and the loss and lse written element by element by
 * the compute warps, so those get no map, their views, and an element's
 * alignment rule. The logits' rows must be padded to 16 bytes. */
#include <stdint.h>
#include <stdio.h>

#define STAND_IN_PRINT_ENCODE
#include "stand_in_driver.h"
#include "ce.h"

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
  /* x, labels and its view, loss and its view, lse and its view, N, ignore */
  printf("  launched grid=%u labels map %s n=%d ignore=%d\n", gx,
         map_is_zeroed(params[1]) ? "zeroed" : "encoded", *(int32_t *)params[7],
         *(int32_t *)params[8]);
  show_view("labels", params[2]);
  show_view("loss", params[4]);
  show_view("lse", params[6]);
  return CUDA_SUCCESS;
}

static void launch(ce_module *m, const char *what, const ws_tensor *x, const ws_tensor *labels) {
  ws_tensor loss = {
      .base = 0x300000, .rank = 2, .dtype = WS_DTYPE_F32, .sizes = {1, 8192}, .strides = {8192, 1}};
  ws_tensor lse = loss;
  lse.base = 0x400000;
  printf("%s:\n", what);
  CUresult r = ce_cross_entropy_launch(m, NULL, 8192, 1, 1, x, labels, &loss, &lse, 50257, -100);
  printf("  result=%d error=\"%s\"\n", (int)r, m->error);
}

int main(void) {
  ce_module m;
  if (ce_load(&m) != CUDA_SUCCESS)
    return 1;
  /* 8192 rows of 50257 bf16 logits, each row padded to 50264 (16 bytes) */
  ws_tensor x = {.base = 0x100000,
                 .rank = 2,
                 .dtype = WS_DTYPE_BF16,
                 .sizes = {8192, 50257},
                 .strides = {50264, 1}};
  ws_tensor labels = {
      .base = 0x200004, .rank = 2, .dtype = WS_DTYPE_I32, .sizes = {1, 8192}, .strides = {8192, 1}};
  launch(&m, "padded logits", &x, &labels);
  ws_tensor t = x;
  t.strides[0] = 50257;
  launch(&m, "unpadded logits", &t, &labels);
  ws_tensor l = labels;
  l.dtype = WS_DTYPE_F32;
  launch(&m, "f32 labels", &x, &l);
  l = labels;
  l.base = 0x200002;
  launch(&m, "labels 2-byte aligned", &x, &l);
  ce_unload(&m);
  return 0;
}
