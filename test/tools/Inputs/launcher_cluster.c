/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* launcher_cluster.c: drives the generated launchers of two cluster
 * kernels (integration/matmul/variants.py's mm_128x256x64_w8_c2x1, tiled in
 * clusters of two along x, and pmm_128x128x64_w8_c2, persistent over pairs
 * of tiles) against a stand-in for the CUDA driver: the launch makes
 * clusters of the kernel's shape over a grid of whole clusters, the shared
 * operand's TMA box is the CTA's half of the tile, and the persistent grid
 * is the clusters the device runs at once times their blocks. */
#include <stdio.h>
#include <stdint.h>

#include "tiled.h"
#include "persistent.h"
#include "stand_in_driver.h"

CUresult cuTensorMapEncodeTiled(CUtensorMap *map, CUtensorMapDataType type, cuuint32_t rank,
                                void *base, const cuuint64_t *dims, const cuuint64_t *strides,
                                const cuuint32_t *box, const cuuint32_t *unit,
                                CUtensorMapInterleave il, CUtensorMapSwizzle sw,
                                CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob) {
  (void)map;
  (void)type;
  (void)base;
  (void)dims;
  (void)strides;
  (void)unit;
  (void)il;
  (void)sw;
  (void)l2;
  (void)oob;
  printf("  encode box=");
  for (cuuint32_t d = 0; d < rank; d++) /* innermost first, as TMA takes it */
    printf("%s%u", d ? "," : "", box[d]);
  printf("\n");
  return CUDA_SUCCESS;
}
CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                        unsigned by, unsigned bz, unsigned smem, CUstream s, void **params,
                        void **extra) {
  (void)f;
  (void)gx;
  (void)gy;
  (void)gz;
  (void)bx;
  (void)by;
  (void)bz;
  (void)smem;
  (void)s;
  (void)params;
  (void)extra;
  printf("  launched without a cluster\n");
  return CUDA_SUCCESS;
}
static void print_cluster(const CUlaunchConfig *c) {
  for (unsigned i = 0; i < c->numAttrs; i++)
    if (c->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
      printf(" cluster=%u,%u,%u", c->attrs[i].value.clusterDim.x, c->attrs[i].value.clusterDim.y,
             c->attrs[i].value.clusterDim.z);
}
CUresult cuLaunchKernelEx(const CUlaunchConfig *c, CUfunction f, void **params, void **extra) {
  (void)f;
  (void)params;
  (void)extra;
  printf("  launched grid=%u,%u,%u block=%u smem=%u", c->gridDimX, c->gridDimY, c->gridDimZ,
         c->blockDimX, c->sharedMemBytes);
  print_cluster(c);
  printf("\n");
  return CUDA_SUCCESS;
}
CUresult cuOccupancyMaxActiveClusters(int *clusters, CUfunction f, const CUlaunchConfig *c) {
  (void)f;
  printf("  occupancy block=%u smem=%u", c->blockDimX, c->sharedMemBytes);
  print_cluster(c);
  printf("\n");
  *clusters = 66; /* an H100's 132 SMs in pairs */
  return CUDA_SUCCESS;
}

static ws_tensor matrix(uint64_t rows, uint64_t cols, uint64_t stride) {
  ws_tensor t = {.base = 0x10000,
                 .rank = 2,
                 .dtype = WS_DTYPE_F16,
                 .sizes = {rows, cols},
                 .strides = {stride, 1}};
  return t;
}

int main(void) {
  tiled_module t;
  persistent_module p;
  if (tiled_load(&t) != CUDA_SUCCESS || persistent_load(&p) != CUDA_SUCCESS)
    return 1;
  ws_tensor a = matrix(1000, 512, 512), b = matrix(700, 512, 512), c = matrix(1000, 700, 704);
  /* 1000 rows are 8 tiles of 128 (7.8); 7 tiles is an odd grid: rounded to 8 */
  for (unsigned gx = 7; gx <= 8; gx++) {
    printf("tiled grid %u x 3:\n", gx);
    CUresult r = tiled_mm_128x256x64_w8_c2x1_launch(&t, NULL, gx, 3, 1, &a, &b, &c, 512);
    printf("  result=%d error=\"%s\"\n", (int)r, t.error);
  }
  printf("persistent grid:\n");
  unsigned grid = persistent_pmm_128x128x64_w8_c2_persistent_grid(&p);
  printf("  grid=%u error=\"%s\"\n", grid, p.error);
  printf("persistent, grid 3:\n");
  CUresult r =
      persistent_pmm_128x128x64_w8_c2_launch(&p, NULL, 3, 1, 1, &a, &b, &c, 1000, 700, 512);
  printf("  result=%d error=\"%s\"\n", (int)r, p.error);
  return 0;
}
