/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* pass_registry.c: the list of ws passes and pipelines. Constant data, so
 * there is nothing to register and no state to share between contexts. */
#include <string.h>

#include "support/ws_pass.h"

static const ws_pass_def *const all_passes[] = {
    &ws_select_kernel_pass_def,
    &ws_verify_pass_def,
    &ws_tile_order_pass_def,
    &ws_split_k_pass_def,
    &ws_partition_schedule_pass_def,
    &ws_plan_memory_pass_def,
    &ws_insert_barriers_pass_def,
    &ws_specialize_pass_def,
    &ws_check_protocol_pass_def,
    &ws_lower_to_nvvm_pass_def,
    &ws_pipeline_def,
};

int ws_pass_def_count(void) { return (int)(sizeof all_passes / sizeof all_passes[0]); }

const ws_pass_def *ws_pass_def_at(int index) {
  if (index < 0 || index >= ws_pass_def_count())
    return NULL;
  return all_passes[index];
}

const ws_pass_def *ws_find_pass_def(MlirStringRef argument) {
  for (int i = 0; i < ws_pass_def_count(); i++) {
    const char *name = all_passes[i]->argument;
    if (strlen(name) == argument.length && memcmp(name, argument.data, argument.length) == 0)
      return all_passes[i];
  }
  return NULL;
}
