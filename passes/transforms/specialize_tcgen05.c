/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* specialize_tcgen05.c: a matmul on sm_100a: the allocation of tensor
 * memory and its release, and the tcgen05 fences around them (the MMA
 * warp's and the epilogue's protocol is rewrite_tcgen05.c's). Part of
 * ws-specialize (specialize.c). */
#include "specialize_internal.h"

/* ---- a matmul on sm_100a (tcgen05, tensor memory) --------------------------- */

void spec_tcgen05_fence(ws_builder *b, bool before) {
  MlirNamedAttribute kind = ws_named_text(
      b->ctx, "kind", before ? "#nvvm.tcgen05_fence<before>" : "#nvvm.tcgen05_fence<after>");
  ws_build_void(b, "nvvm.tcgen05.fence", 0, NULL, 1, &kind);
}

/* The MMA warp allocates tensor memory before the block-wide barrier after
 * the barrier inits (every lane: tcgen05.alloc is .sync.aligned) and gives
 * up the right to allocate more; the fence before the barrier and the one
 * after it order the allocation before every use. */
/* A builder inside `if (warp == the MMA warp)`: the whole warp, as
 * tcgen05.alloc and dealloc (.sync.aligned) need. */
static ws_builder in_mma_warp(specializer *S, ws_builder *b, MlirValue warp) {
  int mma = ws_plan_find_role(S->plan, WS_ROLE_MMA);
  MlirBlock then_block;
  ws_build_if(b, ws_cmpi(b, "eq", warp, spec_c32(b, S->plan->parts[mma].first_warp)), &then_block,
              NULL);
  return ws_builder_before(mlirBlockGetTerminator(then_block));
}

void spec_alloc_tmem(specializer *S, ws_builder *b, MlirValue warp) {
  ws_builder t = in_mma_warp(S, b, warp);
  ws_build_void(&t, "ws.tmem_alloc", 0, NULL, 0, NULL);
  /* a pair's allocation is both CTAs' (cta_group::2), as its every
   * tcgen05 op must be */
  int ctas = ws_plan_mma_ctas(S->plan);
  MlirNamedAttribute group = ws_named_cta_group(S->ctx, "group", ctas);
  ws_build_void(&t, "nvvm.tcgen05.relinquish_alloc_permit", 0, NULL, ctas > 1, &group);
  spec_tcgen05_fence(&t, true);
}

/* Once every partition is done (the epilogue's last tcgen05.ld waited
 * for, its fence before a block-wide barrier), the MMA warp frees tensor
 * memory. A pair's barrier is the cluster's, which is also its exit: the
 * leader's MMAs wrote both CTAs' tensor memory, and the two MMA warps free
 * it together. */
void spec_dealloc_tmem(specializer *S, ws_builder *b, MlirValue warp) {
  spec_tcgen05_fence(b, true);
  spec_sync_threads(S, b, false);
  ws_builder t = in_mma_warp(S, b, warp);
  spec_tcgen05_fence(&t, false);
  ws_build_void(&t, "ws.tmem_dealloc", 0, NULL, 0, NULL);
}
