/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* lower_tmem.c: the tensor-memory ops of an sm_100a matmul (ws.tmem_alloc,
 * ws.tmem_dealloc, ws.tc_mma, ws.tmem_copy, ws.tmem_load): part of
 * ws-lower-to-nvvm (lower_to_nvvm.c). */
#include "lower_to_nvvm_internal.h"

/* ---- a matmul on sm_100a ------------------------------------------------ */

/* The tensor-memory address of accumulator buffer `buffer` (an i32): the
 * allocation's address, which ws.tmem_alloc left in shared memory, plus
 * the buffer's first column. */
static MlirValue tmem_column(lowering *L, ws_builder *b, MlirValue buffer, int column) {
  MlirValue word = ws_byte_ptr_const(b, L->tiles.smem, L->plan.tmem.address);
  MlirValue base = ws_build_value(b, "llvm.load", 1, &word, L->i32, 0, NULL);
  if (!mlirValueIsNull(buffer))
    base = ws_arith(b, "arith.addi", base,
                    ws_arith(b, "arith.muli", buffer, lower_c32(b, L->plan.tmem.columns)));
  if (column)
    base = ws_arith(b, "arith.addi", base, lower_c32(b, column));
  return ws_build_value(b, "llvm.inttoptr", 1, &base, ws_type(L->ctx, "!llvm.ptr<6>"), 0, NULL);
}

/* The tensor-memory address of accumulator buffer `buffer` (i32; null:
 * the allocation's start), read from where the MMA warp's alloc wrote it. */
static MlirValue tmem_buffer(lowering *L, ws_builder *b, MlirValue buffer) {
  return tmem_column(L, b, buffer, 0);
}

static bool has_tmem(lowering *L, MlirOperation op) {
  if (L->plan.tmem.tile.ptr)
    return true;
  ws_emit_op_error(op, "needs the kernel's ws.tmem (tensor memory); run ws-plan-memory");
  return false;
}

/* ws.tmem_alloc / ws.tmem_dealloc: the plan's columns, by the whole warp
 * (a pair's: one warp of each CTA together, cta_group::2). */
bool lower_tmem_alloc(lowering *L, ws_builder *b, MlirOperation op) {
  if (!has_tmem(L, op))
    return false;
  MlirValue ops[2] = {ws_byte_ptr_const(b, L->tiles.smem, L->plan.tmem.address),
                      lower_c32(b, L->plan.tmem.allocated)};
  MlirNamedAttribute group = lower_tc_group(L);
  ws_build_void(b, "nvvm.tcgen05.alloc", 2, ops, 1, &group);
  return true;
}

bool lower_tmem_dealloc(lowering *L, ws_builder *b, MlirOperation op) {
  if (!has_tmem(L, op))
    return false;
  MlirValue ops[2] = {tmem_buffer(L, b, (MlirValue){NULL}), lower_c32(b, L->plan.tmem.allocated)};
  MlirNamedAttribute group = lower_tc_group(L);
  ws_build_void(b, "nvvm.tcgen05.dealloc", 2, ops, 1, &group);
  return true;
}

/* ws.tc_mma: the K step's tcgen05.mma from ring_a's and ring_b's slots
 * into the accumulator buffer; block-scaled (the plan's ws.tmem has scale
 * columns), tcgen05.mma.block_scale reading A's first scale atom's columns
 * and B's. */
bool lower_tc_mma(lowering *L, ws_builder *b, MlirOperation op) {
  int ra = lower_table_index(op, "ring_a", L->plan.num_rings, "ws.rings");
  int rb = lower_table_index(op, "ring_b", L->plan.num_rings, "ws.rings");
  if (ra < 0 || rb < 0 || !has_tmem(L, op))
    return false;
  const ws_ring *a = &L->plan.rings[ra], *bt = &L->plan.rings[rb];
  const ws_tmem *tm = &L->plan.tmem;
  bool n_major = !ws_has_attr(op, "transpose_b");
  int n = (int)mlirShapedTypeGetDimSize(bt->tile, n_major ? 1 : 0);
  int k = (int)mlirShapedTypeGetDimSize(a->tile, 1);
  MlirType ta = mlirShapedTypeGetElementType(a->tile), tb = mlirShapedTypeGetElementType(bt->tile);
  const ws_mma_engine *engine = ws_mma_engine_of(op);
  const ws_mma_form *form =
      tm->num_scales ? ws_mma_find_scaled_form(engine, ta, tb) : ws_mma_find_form(engine, ta, tb);
  if (!form || mlirShapedTypeGetDimSize(a->tile, 0) != 128 ||
      mlirShapedTypeGetDimSize(bt->tile, n_major ? 0 : 1) != k || n != tm->columns || !a->swizzle ||
      !bt->swizzle || k % form->k) {
    ws_emit_op_error(op, "does not match its rings and ws.tmem: tcgen05.mma here takes A "
                         "128 x K and B N x K (or K x N without transpose_b), both swizzled, "
                         "of a form of the engine, into an accumulator of N columns");
    return false;
  }
  MlirValue slot = mlirOperationGetOperand(op, 0), scales[2];
  if (tm->num_scales) {
    scales[0] = tmem_column(L, b, (MlirValue){NULL}, tm->scale_column[0]);
    scales[1] = tmem_column(L, b, (MlirValue){NULL}, tm->scale_column[tm->scale_a_atoms]);
  }
  ws_emit_tcgen05_mma(b, form, n, k, a->swizzle, bt->swizzle, n_major, ws_plan_mma_ctas(&L->plan),
                      lower_slot_address(L, b, ra, slot), lower_slot_address(L, b, rb, slot),
                      tmem_buffer(L, b, mlirOperationGetOperand(op, 1)),
                      mlirOperationGetOperand(op, 2), tm->num_scales ? scales : NULL);
  return true;
}

/* ws.tmem_copy: the slot's scale atom (ring `ring`) into its columns. */
bool lower_tmem_copy(lowering *L, ws_builder *b, MlirOperation op) {
  int r = lower_table_index(op, "ring", L->plan.num_rings, "ws.rings");
  if (r < 0 || !has_tmem(L, op))
    return false;
  const ws_tmem *tm = &L->plan.tmem;
  int atom = ws_plan_scale_atom(&L->plan, r);
  if (atom < 0 || L->plan.rings[r].swizzle) {
    ws_emit_op_error(op, "copies ring %d, which is not an unswizzled scale ring of ws.tmem", r);
    return false;
  }
  ws_emit_tcgen05_scale_copy(b, ws_plan_mma_ctas(&L->plan),
                             lower_slot_address(L, b, r, mlirOperationGetOperand(op, 0)),
                             tmem_column(L, b, (MlirValue){NULL}, tm->scale_column[atom]));
  return true;
}

/* ws.tmem_load: the accumulator buffer into the epilogue's fragments. */
bool lower_tmem_load(lowering *L, ws_builder *b, MlirOperation op) {
  if (!has_tmem(L, op))
    return false;
  ws_fragment *f = ws_fragment_new(&L->frags, mlirOperationGetResult(op, 0));
  if (!f || !f->n) {
    ws_emit_op_error(op, "reads a tile that is not the epilogue warps' 128 x N accumulator");
    return false;
  }
  ws_mma_shape s = ws_fragments_shape(&L->frags, f->n);
  ws_emit_tmem_load(b, &s, tmem_buffer(L, b, mlirOperationGetOperand(op, 0)), L->tiles.tid,
                    mlirOperationGetOperand(op, 1), f->values);
  return true;
}
