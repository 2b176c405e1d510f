/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* launcher_varlen.c: drives the generated launcher of a varlen attention
 * kernel (integration/attention/variants.py's att_f16_d128_varlen: four
 * window views and the sequence offsets, an i32 kernel array) against a
 * stand-in for the CUDA driver: the array's base and element count are the
 * kernel's parameters after the descriptors, an empty array passes no
 * base, and an array of the wrong type, rank, stride or alignment is
 * refused with a message. */
#include <stdint.h>
#include <stdio.h>

#define STAND_IN_PRINT_ENCODE
#define STAND_IN_ENCODES_SHOWN 1 /* the first window view */
#include "stand_in_driver.h"
#include "varlen.h"

CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                        unsigned by, unsigned bz, unsigned smem, CUstream s, void **params,
                        void **extra) {
  (void)f;
  (void)bx;
  (void)by;
  (void)bz;
  (void)smem;
  (void)s;
  (void)extra;
  /* Q, K, V, O and O's store view, then the array's base and count, T */
  printf("  launched grid=%u,%u,%u array=0x%llx count=%llu total=%d\n", gx, gy, gz,
         (unsigned long long)*(CUdeviceptr *)params[5], (unsigned long long)*(uint64_t *)params[6],
         *(int32_t *)params[7]);
  return CUDA_SUCCESS;
}

/* tokens x 32 heads x 128, as (tokens + 1) x 32 x tokens x 128 windows */
static ws_tensor windows(uint64_t tokens) {
  ws_tensor t = {.base = 0x100000,
                 .rank = 4,
                 .dtype = WS_DTYPE_F16,
                 .sizes = {tokens + 1, 32, tokens, 128},
                 .strides = {4096, 128, 4096, 1}};
  return t;
}

static void launch(varlen_module *m, const char *what, const ws_tensor *cu, unsigned sequences) {
  ws_tensor w = windows(1000);
  printf("%s:\n", what);
  CUresult r = varlen_attention_launch(m, NULL, 8, 32, sequences, &w, &w, &w, &w, cu, 1000, 0.127f);
  printf("  result=%d error=\"%s\"\n", (int)r, m->error);
}

int main(void) {
  varlen_module m;
  if (varlen_load(&m) != CUDA_SUCCESS)
    return 1;
  ws_tensor cu = {.base = 0x20004, .rank = 1, .dtype = WS_DTYPE_I32, .sizes = {5}, .strides = {1}};
  launch(&m, "four sequences", &cu, 4);
  ws_tensor t = cu;
  t.sizes[0] = 0;
  t.base = 0x3;
  launch(&m, "no offsets", &t, 4);
  t = cu;
  t.dtype = WS_DTYPE_F32;
  launch(&m, "f32 offsets", &t, 4);
  t = cu;
  t.rank = 2;
  launch(&m, "rank 2", &t, 4);
  t = cu;
  t.strides[0] = 2;
  launch(&m, "stride 2", &t, 4);
  t = cu;
  t.sizes[0] = 1;
  t.strides[0] = 7;
  launch(&m, "one offset, any stride", &t, 0);
  t = cu;
  t.base = 0x20002;
  launch(&m, "misaligned", &t, 4);
  launch(&m, "null", NULL, 4);
  return 0;
}
