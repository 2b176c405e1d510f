/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_lower_store.h: how the lowering writes one tile from shared memory to
 * its global tensor, exactly. Internal.
 *
 * A TMA store clips at a tensor's edge only in whole 16-byte granules of the
 * innermost dimension, so a row whose length is not a multiple of 16 bytes
 * would get the rest of its last granule written. Every stored descriptor
 * therefore comes with a store view (a grid-constant kernel parameter the
 * launcher fills, int64 x 12):
 *   [0] base address   [1] limit: the first column of the last partial
 *   granule (INT64_MAX when rows end on a granule)
 *   [2..6] sizes       [7..11] strides in bytes, both outermost first.
 * A tile whose columns stay below the limit and whose coordinates are not
 * negative is stored by TMA; any other tile is copied element by element,
 * each element checked against the tensor's bounds (a TMA store with a
 * negative coordinate faults with an illegal instruction on the H100,
 * though a TMA load clips it). */
#ifndef WS_LOWER_STORE_H
#define WS_LOWER_STORE_H

#include <stdint.h>

#include "../support/ws_builder.h"

enum { WS_STORE_VIEW_WORDS = 12 };

/* The byte offset of element (row, col) (i32 values) in a slot holding a
 * rows x cols tile of elem_bytes: row-major when span is 0; otherwise cut
 * into boxes of span bytes of columns, each rows x span bytes, box after
 * box, with the 16-byte piece p of a box's byte offset o moved to
 * p ^ ((o >> 7) & (span / 16 - 1)): where a TMA box with that swizzle puts
 * it (the slot starts 1024-aligned and rows is a multiple of 8). */
MlirValue ws_slot_offset(ws_builder *b, MlirValue row, MlirValue col, int rows, int cols,
                         int elem_bytes, int span);

typedef struct ws_store_site {
  MlirValue map;       /* !llvm.ptr: the grid-constant CUtensorMap */
  MlirValue view;      /* !llvm.ptr: the grid-constant store view */
  MlirValue src;       /* !llvm.ptr<3>: the box, row-major or swizzled */
  MlirValue coords[5]; /* i32, outermost first */
  int rank;
  int64_t box[5]; /* outermost first */
  int elem_bytes;
  int swizzle;      /* the box's swizzle span in bytes, 0 for none */
  MlirType element; /* the tile's element type */
  bool add;         /* reduce = "add": TMA's reduce-add, atomic adds on the edge */
  /* the element path as a call of this llvm.func (ws_build_element_path),
   * or a null op: the element path inline */
  MlirOperation element_path;
} ws_store_site;

/* Emits the exact store of one TMA box at b (run by one thread). */
void ws_emit_exact_store(ws_builder *b, const ws_store_site *s);

/* An llvm.func @name (view, src, coords: the site's) that runs the element
 * path of stores shaped as `s` (rank, box, element size, swizzle), put
 * after `after` in its block, for a kernel of many stores to call instead
 * of inlining one loop nest per store: LLVM's loop analyses grow with the
 * square of the loops in one function. */
MlirOperation ws_build_element_path(MlirOperation after, const ws_store_site *s, const char *name);

/* True when two sites' element paths are the same code (one function serves
 * both). */
bool ws_same_element_path(const ws_store_site *a, const ws_store_site *b);

/* Stores scalar `value` at element `coords` (rank i32 values, outermost
 * first) of the tensor behind store view `view`, when it lies inside it
 * (a row kernel's row vector, written element by element by the compute
 * warps, ws_row_kernel.h). */
void ws_emit_element_store(ws_builder *b, MlirValue view, int rank, const MlirValue *coords,
                           MlirValue value);

/* The scalar at element `coords` of that tensor when it lies inside it,
 * else `zero` (whose type is the element's): a row kernel's row vector
 * read element by element. */
MlirValue ws_emit_element_load(ws_builder *b, MlirValue view, int rank, const MlirValue *coords,
                               MlirValue zero);

#endif
