/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* launcher_balanced_grid.c: drives NAME_KERNEL_balanced_grid of two
 * persistent launchers (integration/matmul/variants.py's pmm_128x256x64_w8,
 * and pmm_128x128x64_w8_c2, persistent over clusters of two) against a
 * stand-in for the CUDA driver (132 SMs; 66 clusters of two): the fewest
 * blocks that run a tile loop's iterations in as many rounds as the
 * persistent grid does, counted in clusters for the cluster kernel. */
#include <stdio.h>

#include "plain.h"
#include "pair.h"
#define STAND_IN_SILENT_ENCODE
#define STAND_IN_SILENT_LAUNCH
#include "stand_in_driver.h"

int main(void) {
  plain_module p;
  pair_module c;
  if (plain_load(&p) != CUDA_SUCCESS || pair_load(&c) != CUDA_SUCCESS)
    return 1;
  static const unsigned long long tiles[] = {0, 1, 100, 132, 133, 512, 2048, 4096 * 4096};
  for (unsigned i = 0; i < sizeof tiles / sizeof tiles[0]; i++)
    printf("tiles %llu: plain %u, pair %u\n", tiles[i],
           plain_pmm_128x256x64_w8_balanced_grid(&p, tiles[i]),
           pair_pmm_128x128x64_w8_c2_balanced_grid(&c, tiles[i]));
  plain_unload(&p);
  pair_unload(&c);
  return 0;
}
