/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_lower_fragment.h: how ws-lower-to-nvvm holds the tiles of a matmul's
 * consumer warpgroups in registers: in wgmma's accumulator layout
 * (ws_lower_mma.h), one scalar per value. Internal.
 *
 * Two kinds of tile share that layout. An M x N tile (an accumulator, the
 * scores of attention, math on them) gives each thread parts x N / 2
 * values: value p N/2 + 4 j + 2 h + e of part p is row 64 p + 16 w + l / 4
 * + 8 h of its warpgroup's rows, column 8 j + 2 (l % 4) + e. A 1 x M row
 * vector (a reduction along the rows: a running max or sum) gives each
 * thread the values of its rows: value 2 p + h. The four lanes that share
 * a row (l / 4) each hold a quarter of its columns, so a row reduction is
 * the thread's own values, then two butterfly shuffles; a broadcast along
 * the rows copies a row vector's value into each of the row's slots. The
 * conversion of an f32 tile to f16 for wgmma's register form (A from
 * registers) is elementwise: the accumulator layout of K columns is the
 * layout of wgmma's A fragments for a K of that many columns (an FP8 A's
 * bytes are gathered across the quad as they are packed, ws_lower_mma.h).
 *
 * Values cross loop boundaries (scf.for iter_args, results, yields) as an
 * !llvm.struct of their scalars, which is what wgmma takes and gives. */
#ifndef WS_LOWER_FRAGMENT_H
#define WS_LOWER_FRAGMENT_H

#include "../support/ws_builder.h"
#include "ws_lower_mma.h"

enum { WS_MAX_FRAGMENT = 128 };

/* One tile's values in a thread's registers. */
typedef struct ws_fragment {
  MlirValue tile;
  int n;     /* columns of an M x N tile; 0 for a 1 x M row vector */
  int count; /* values per thread */
  /* An FP8 tile made of f32 values by arith.truncf (attention's P for an
   * FP8 P V): its format, and the values are the f32 ones, not yet rounded:
   * wgmma's register form rounds them as it packs their bytes, and
   * arith.extf rounds them first. Null for any other tile. */
  MlirType f8;
  MlirValue values[WS_MAX_FRAGMENT];
} ws_fragment;

/* The consumers' layout (warpgroups, rows, parts of `layout`; its n and k
 * are the first ws.mma's) and the tiles lowered so far. */
typedef struct ws_fragments {
  MlirContext ctx;
  ws_mma_shape layout;
  ws_fragment *items; /* grows as tiles are lowered; ws_fragments_free */
  int num;
  long cap;
} ws_fragments;

void ws_fragments_free(ws_fragments *F);

/* The fragment of a tile value (an op result, a loop value), or null. */
ws_fragment *ws_fragment_find(ws_fragments *F, MlirValue tile);

/* A new, empty fragment for `tile`, shaped by its type; null when the type
 * is neither M x N nor 1 x M of the layout's M (or needs more than
 * WS_MAX_FRAGMENT values). */
ws_fragment *ws_fragment_new(ws_fragments *F, MlirValue tile);

/* The layout with N columns: the shape wgmma, the fragment stores and
 * loads take for an M x N tile. */
ws_mma_shape ws_fragments_shape(const ws_fragments *F, int n);

/* The fragment's values as one !llvm.struct, and back. */
MlirValue ws_fragment_pack(ws_builder *b, const ws_fragment *f);
void ws_fragment_unpack(ws_builder *b, MlirValue agg, ws_fragment *f);

/* A tile as the struct `type` of its values: its fragment packed, zeros,
 * or copies of a splat's scalar; null after a located error at `where`. */
MlirValue ws_fragment_struct(ws_fragments *F, ws_builder *b, MlirValue tile, MlirType type,
                             MlirOperation where);

/* A splat tile (ws_is_splat_tile) as one scalar, built at b; null after a
 * located error at `where`. */
MlirValue ws_splat_scalar(ws_builder *b, MlirValue tile, MlirOperation where);

/* The op-by-op rewrites, each false after a located error; `thread` is the
 * thread's index among the consumers that share the tile. */
bool ws_fragments_elementwise(ws_fragments *F, ws_builder *b, MlirOperation op);
bool ws_fragments_reduce(ws_fragments *F, ws_builder *b, MlirOperation op);
bool ws_fragments_broadcast(ws_fragments *F, ws_builder *b, MlirOperation op);
bool ws_fragments_iota(ws_fragments *F, ws_builder *b, MlirOperation op, MlirValue thread);

/* An scf.for carrying tiles: each becomes a struct (its init packed from
 * a splat, its value unpacked at the body's start and after the loop). */
bool ws_fragments_carried_loop(ws_fragments *F, MlirOperation loop);
/* An scf.if whose results are tiles: each becomes a struct of its values
 * (its yields pack them, ws_fragments_yield), unpacked after it. */
bool ws_fragments_carried_if(ws_fragments *F, MlirOperation op);

/* The scf.yield of such a loop: its tiles packed. */
bool ws_fragments_yield(ws_fragments *F, MlirOperation yield);

#endif
