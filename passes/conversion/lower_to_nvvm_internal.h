/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* lower_to_nvvm_internal.h: what the files of ws-lower-to-nvvm share: the
 * lowering state and the helpers one file calls in another, by the file
 * that defines them (each one's comment is at its definition). Internal to
 * passes/conversion/. */
#ifndef WS_LOWER_TO_NVVM_INTERNAL_H
#define WS_LOWER_TO_NVVM_INTERNAL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/LLVM.h"
#include "mlir-c/Dialect/NVVM.h"
#include "ws-c/Dialect.h"
#include "../support/ws_builder.h"
#include "ws_lower_f8.h"
#include "ws_lower_fast_math.h"
#include "ws_lower_fragment.h"
#include "ws_lower_memref.h"
#include "ws_lower_mma.h"
#include "ws_lower_split_k.h"
#include "ws_lower_store.h"
#include "ws_lower_tcgen05.h"
#include "ws_lower_tile.h"
#include "ws_register_pressure.h"
#include "../support/ws_l2_policy.h"
#include "../support/ws_op_list.h"
#include "../support/ws_pass.h"
#include "../plan/ws_plan.h"
#include "../plan/ws_row_kernel.h"
#include "../../dialect/ws_text.h"

/* WS_INLINE_STORE_SITES: a kernel of up to this many TMA stores inlines
 * each store's element path (the ragged-edge loops); one of more stores
 * calls one function per shape of store instead (ws_build_element_path),
 * since LLVM's loop analyses take time quadratic in the loops of one
 * function (200 stores took 17 s). The suites' kernels have at most 3. */
enum { WAIT_HINT_NS = 1000000, WS_INLINE_STORE_SITES = 8 };

/* Ops of the kernel in walk order: the rewrite visits them, then erases
 * the replaced ones last to first (uses before definitions). */
typedef struct lowering {
  ws_plan plan;
  const ws_pass_env *explain; /* remark on the tiles' registers, or null */
  MlirContext ctx;
  MlirLocation loc;
  MlirOperation old_func, new_func;
  MlirValue *descs, *views; /* stored descriptors' views (one per argument at most) */
  int num_views;
  MlirValue warpgroup; /* tid / 128, read from lane 0: see emit_entry */
  int compute;         /* index of the (first) compute partition, or -1 */
  int compute_parts;   /* how many compute partitions (a split elementwise loop: several) */
  MlirType i32, ptr_shared, ptr_cluster;
  /* the arena's base and the thread index (tiles.smem, tiles.tid), the
   * compute partition's tiles (ws_lower_tile.h) */
  ws_tiles tiles;
  /* a matmul (the kernel has ws.mma): its consumers' tiles in wgmma's
   * accumulator layout (frags.layout, ws_lower_fragment.h) */
  bool matmul;
  ws_fragments frags;
  ws_op_list ops, dead;
  /* the kernel's ws.tma_store ops, and past WS_INLINE_STORE_SITES the
   * element paths they share: one site of each shape with its function */
  int store_sites;
  ws_store_site *paths;
  int num_paths;
  long paths_cap;
} lowering;

/* lower_to_nvvm.c */
MlirValue lower_c32(ws_builder *b, int64_t v);
int lower_table_index(MlirOperation op, const char *key, int limit, const char *table);
int lower_ring_of(const lowering *L, MlirOperation op);
int lower_int_attr(MlirOperation op, const char *key);
MlirValue lower_slot_ptr(lowering *L, ws_builder *b, int base, MlirValue slot, int stride);
MlirNamedAttribute lower_tc_group(lowering *L);
MlirValue lower_store_view_of(lowering *L, MlirOperation op);
MlirValue lower_mma_thread(lowering *L, ws_builder *b);
MlirValue lower_slot_address(lowering *L, ws_builder *b, int r, MlirValue slot);

/* lower_tmem.c */
bool lower_tmem_alloc(lowering *L, ws_builder *b, MlirOperation op);
bool lower_tmem_dealloc(lowering *L, ws_builder *b, MlirOperation op);
bool lower_tc_mma(lowering *L, ws_builder *b, MlirOperation op);
bool lower_tmem_copy(lowering *L, ws_builder *b, MlirOperation op);
bool lower_tmem_load(lowering *L, ws_builder *b, MlirOperation op);

/* lower_slots.c */
bool lower_read_elements(lowering *L, ws_builder *b, MlirOperation op, const ws_ring *ring);
bool lower_read_slot(lowering *L, ws_builder *b, MlirOperation op);
bool lower_iota(lowering *L, ws_builder *b, MlirOperation op);
bool lower_row_op(lowering *L, ws_builder *b, MlirOperation op);
bool lower_row_vector_access(lowering *L, ws_builder *b, MlirOperation op);
bool lower_mma_done(lowering *L, ws_builder *b, MlirOperation op);
bool lower_k_sum(lowering *L, ws_builder *b, MlirOperation op);
bool lower_stream_k_unit(lowering *L, ws_builder *b, MlirOperation op);
bool lower_write_slot(lowering *L, ws_builder *b, MlirOperation op);

#endif
