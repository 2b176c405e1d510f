/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* plan_capi.c: ws-c/Plan.h over the internal plan reader (passes/plan/ws_plan.c):
 * the public tables are the plan's own, index for index. */
#include "ws-c/Plan.h"

#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "ws-c/Dialect.h"
#include "../../passes/plan/ws_plan.h"
#include "../../passes/plan/ws_row_kernel.h"
#include "../../passes/transforms/ws_divisor.h"

typedef struct plan_handle {
  ws_plan plan;
} plan_handle;

static plan_handle *unwrap(WsPlan p) { return (plan_handle *)p.ptr; }

WsPlan wsPlanCreate(MlirOperation kernel) {
  WsPlan none = {NULL};
  MlirOperation loop;
  if (mlirOperationIsNull(kernel))
    return none;
  bool looped = ws_marked_loops(kernel, &loop, 1) == 1;
  if (!looped && !ws_is_specialized_kernel(kernel))
    return none;
  plan_handle *h = calloc(1, sizeof *h);
  if (!h)
    return none;
  bool read = looped ? ws_plan_read(loop, &h->plan) : ws_plan_read_kernel(kernel, &h->plan);
  if (!read || !ws_plan_is_consistent(&h->plan)) {
    ws_plan_release(&h->plan);
    free(h);
    return none;
  }
  return (WsPlan){h};
}

void wsPlanDestroy(WsPlan plan) {
  if (!plan.ptr)
    return;
  ws_plan_release(&unwrap(plan)->plan);
  free(unwrap(plan));
}

WsPlanKernel wsPlanGetKernel(WsPlan plan) {
  const ws_plan *p = &unwrap(plan)->plan;
  return (WsPlanKernel){p->block_threads, p->smem_bytes,       p->maxnreg,    p->blocks_per_sm,
                        p->persistent,    p->cluster[0],       p->cluster[1], ws_plan_is_pair(p),
                        p->row_scratch,   p->row_scratch_bytes};
}

intptr_t wsPlanGetNumPartitions(WsPlan plan) { return unwrap(plan)->plan.num_parts; }

WsPlanPartition wsPlanGetPartition(WsPlan plan, intptr_t index) {
  const ws_partition *part = &unwrap(plan)->plan.parts[index];
  return (WsPlanPartition){part->name, ws_role_names[part->role], part->num_warps, part->registers,
                           part->first_warp};
}

intptr_t wsPlanGetNumRings(WsPlan plan) { return unwrap(plan)->plan.num_rings; }

WsPlanRing wsPlanGetRing(WsPlan plan, intptr_t index) {
  const ws_ring *r = &unwrap(plan)->plan.rings[index];
  return (WsPlanRing){r->producer,   r->tile,  r->channel, r->offset,
                      r->slot_bytes, r->align, r->swizzle, r->parts > 1 ? r->parts : 1};
}

WsPlanTmem wsPlanGetTmem(WsPlan plan) {
  const ws_tmem *t = &unwrap(plan)->plan.tmem;
  return (WsPlanTmem){t->tile, t->channel, t->columns, t->allocated, t->address};
}

intptr_t wsPlanGetNumChannels(WsPlan plan) { return unwrap(plan)->plan.num_channels; }

WsPlanChannel wsPlanGetChannel(WsPlan plan, intptr_t index) {
  const plan_handle *h = unwrap(plan);
  const ws_channel *c = &h->plan.channels[index];
  return (WsPlanChannel){
      .from = c->from,
      .to = c->to,
      .depth = c->depth,
      .full = c->full,
      .empty = c->empty,
      .full_arrivals = c->full_arrivals,
      .empty_arrivals = c->empty_arrivals,
      .expect_tx = c->expect_tx,
      .producer_phase = c->producer_phase,
      .consumer_phase = c->consumer_phase,
      .release_fence = c->release_fence,
      .publish_fence = c->publish_fence,
      .drain = c->drain,
  };
}

/* The ring of a descriptor's use: named by a specialized kernel's TMA ops;
 * before that, on a load itself or on the op producing a stored tile. -1
 * when none. */
static int descriptor_ring(const ws_plan *p, MlirValue desc) {
  for (MlirOpOperand u = mlirValueGetFirstUse(desc); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    MlirValue tile;
    if (wsOperationIsA(user, "tma_load") || wsOperationIsA(user, "tma_store")) {
      int r = ws_int_attr(user, "ring", -1);
      if (r >= 0 && r < p->num_rings)
        return r;
      continue;
    }
    if (wsOperationIsA(user, "load"))
      tile = mlirOperationGetResult(user, 0);
    else if (wsOperationIsA(user, "store"))
      tile = mlirOperationGetOperand(user, mlirOperationGetNumOperands(user) - 1);
    else
      continue;
    int r = ws_ring_of_value(p, tile);
    if (r >= 0)
      return r;
  }
  return -1;
}

int wsPlanGetDescriptorSwizzle(WsPlan plan, MlirValue desc) {
  const ws_plan *p = &unwrap(plan)->plan;
  int r = descriptor_ring(p, desc);
  return r < 0 ? 0 : p->rings[r].swizzle;
}

int64_t wsPlanGetDescriptorBoxInner(WsPlan plan, MlirValue desc) {
  const ws_plan *p = &unwrap(plan)->plan;
  int r = descriptor_ring(p, desc);
  return r < 0 ? 0 : ws_ring_box_cols(&p->rings[r]);
}

bool wsPlanDescriptorIsAccessedDirectly(WsPlan plan, MlirValue desc) {
  (void)plan;
  return ws_desc_is_accessed_directly(desc);
}

bool wsPlanDescriptorHasView(WsPlan plan, MlirValue desc) {
  (void)plan;
  return ws_desc_has_view(desc);
}

int wsPlanGetDescriptorRowParts(WsPlan plan, MlirValue desc, int *row_dim) {
  const ws_plan *p = &unwrap(plan)->plan;
  int r = descriptor_ring(p, desc);
  if (r < 0 || !p->rings[r].split)
    return 1;
  MlirType box = wsTensorDescTypeGetBox(mlirValueGetType(desc));
  *row_dim = (int)(mlirShapedTypeGetRank(box) - mlirShapedTypeGetRank(p->rings[r].tile));
  return ws_plan_cluster_size(p);
}

int64_t wsPlanGetArgumentDivisibility(WsPlan plan, intptr_t index) {
  return ws_argument_divisor(unwrap(plan)->plan.func, index);
}
