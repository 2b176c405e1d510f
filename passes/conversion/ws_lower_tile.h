/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_lower_tile.h: how ws-lower-to-nvvm holds the compute partition's
 * elementwise tiles in registers. Internal.
 *
 * Every compute tile of a kernel has one element count. It is cut into
 * `total` chunks of `vec` elements: 16 bytes of the widest element type
 * when the count allows, else fewer. Thread t of the partition's `threads`
 * holds chunks j * threads + t, for j < `chunks`, so consecutive threads
 * touch consecutive pieces of a row-major slot (free of bank conflicts).
 * When `total` is not a multiple of `threads`, some threads' last chunk lies
 * past the tile: `last_valid` says whether it does not; such a chunk reads
 * slot chunk 0 and writes nothing. f8 tiles are held widened to f32
 * (ws_lower_f8.h).
 *
 * A row kernel (a loop with ws.reduce along the rows) keeps a chunk within
 * a row: vec divides the row length C, so a row is cpr = C / vec chunks
 * held by consecutive threads, and either cpr divides the threads (a row
 * per cpr threads, each with one chunk of it per j) or the threads divide
 * cpr (every thread holds row_q = cpr / threads chunks of each row, j
 * after j). A 1 x R row vector of an R x C tile is one scalar per chunk:
 * the value of that chunk's row (lower_tile_rows.c). A 1 x C row of values
 * per column (a norm's weight, spread over the rows with ws.broadcast
 * along axis 1) is one vector per chunk, like a tile's, holding the values
 * of that chunk's columns: chunk j's are chunk j % row_q's, so only the
 * first row_q are computed. */
#ifndef WS_LOWER_TILE_H
#define WS_LOWER_TILE_H

#include <stddef.h>

#include "../plan/ws_plan.h"
#include "../support/ws_op_list.h"
#include "../support/ws_pass.h"
#include "../support/ws_builder.h"

enum { WS_MAX_CHUNKS = 64 };

/* One tile's chunks in this thread's registers. */
typedef struct ws_tile_regs {
  MlirValue tile;
  MlirValue chunks[WS_MAX_CHUNKS];
} ws_tile_regs;

/* The layout and the tiles lowered so far. ctx, i32, smem (the arena's
 * base) and tid (the thread index) are the caller's to set. */
typedef struct ws_tiles {
  MlirContext ctx;
  MlirType i32;
  MlirValue smem, tid, last_valid;
  int threads, vec, chunks, total;
  /* a row kernel's tile (rows x cols; rows 0: none), its chunks per row,
   * each thread's chunks per row (1 when a row is cpr threads' one chunk
   * each), the threads that share a row, its reductions whose rows span
   * warps (they meet in the row scratch, at byte scratch of shared
   * memory), and how many of those are lowered so far */
  int rows, cols, cpr, row_q, row_threads, cross_reduces, reduces_seen, scratch;
  ws_tile_regs *tiles; /* grows as tiles are lowered; ws_tiles_free */
  int num_tiles;
  long cap;
} ws_tiles;

/* The entry of a tile lowered so far (NULL if none), and a new entry. */
ws_tile_regs *ws_tiles_find(ws_tiles *T, MlirValue tile);
ws_tile_regs *ws_tiles_new(ws_tiles *T, MlirValue tile);

/* The entry of an operand: lowered so far, or a splat built here; NULL
 * after a located error (a tile the compute warps cannot rebuild). */
ws_tile_regs *ws_tiles_operand(ws_tiles *T, ws_builder *b, MlirValue tile);

/* A vector of `vt` with `scalar` in every lane. */
MlirValue ws_tiles_splat(ws_tiles *T, ws_builder *b, MlirValue scalar, MlirType vt);

/* Whether `type` is a row vector of the row kernel's tile (1 x rows, not
 * the tile's own shape). */
bool ws_tiles_is_row_vector(const ws_tiles *T, MlirType type);

/* Whether `type` is a row of values per column of the row kernel's tile
 * (1 x cols of an R x cols tile, R > 1 and not cols: a square tile's
 * 1 x R is a row vector). */
bool ws_tiles_is_col_vector(const ws_tiles *T, MlirType type);

/* A row kernel's tile shape (rows, cols) from the ops' first reduction,
 * or else their first ws.broadcast's result; rows stays 0 without either.
 * Runs in ws_tiles_layout, before vec is chosen. */
void ws_tiles_find_rows(ws_tiles *T, const MlirOperation *ops, size_t n);

/* Checks a row kernel's chunking once vec and chunks are chosen, and
 * counts its reductions that meet in the row scratch (`scratch_bytes`
 * of it reserved by ws-plan-memory); false after a located error. */
bool ws_tiles_check_rows(ws_tiles *T, const MlirOperation *ops, size_t n, int scratch_bytes);

/* ws.reduce along the rows (axis 1) of an f32 tile, into a row vector:
 * each thread's values of a row, its row's lanes through butterfly
 * shuffles, and where a row spans warps their parts through the row
 * scratch and one named barrier of the compute warps; false after a
 * located error. */
bool ws_tiles_reduce(ws_tiles *T, ws_builder *b, MlirOperation op);

/* ws.broadcast of a row vector along the rows (axis 0): each chunk its
 * row's value in every lane; of a row of values per column over the rows
 * (axis 1): each chunk its columns' values. False after a located error. */
bool ws_tiles_broadcast(ws_tiles *T, ws_builder *b, MlirOperation op);

/* An elementwise op on row vectors: one scalar op per chunk. */
bool ws_tiles_row_vector_op(ws_tiles *T, ws_builder *b, MlirOperation op);

/* The byte offset, in a 1 x cols slot of `elem_bytes` elements, of the
 * columns of this thread's chunk j. */
MlirValue ws_tiles_col_offset(ws_tiles *T, ws_builder *b, int j, int elem_bytes);

/* ws.store of a row vector (ws_row_kernel.h) through the store view
 * `view` of its descriptor: element i at the store's coordinates plus i
 * in the innermost, from the thread holding row i's first chunk, when it
 * lies inside the tensor; false after a located error. */
bool ws_tiles_store_rows(ws_tiles *T, ws_builder *b, MlirOperation op, MlirValue view);

/* ws.load of a row vector (ws_row_kernel.h) through the store view `view`
 * of its descriptor: every thread reads the elements of the rows it holds
 * (element i at the load's coordinates plus i in the innermost), zero for
 * one outside the tensor; false after a located error. */
bool ws_tiles_load_rows(ws_tiles *T, ws_builder *b, MlirOperation op, MlirValue view);

/* scf.for carrying row vectors (a row kernel over a row's chunks), in
 * place: each carried as a struct of this thread's values of its rows,
 * built from the init before the loop and read back at the body's start
 * and after the loop; and the scf.yield of its body, which packs them.
 * False after a located error. */
bool ws_tiles_carried_loop(ws_tiles *T, MlirOperation loop);
bool ws_tiles_yield(ws_tiles *T, MlirOperation yield);

/* Frees the tile table. */
void ws_tiles_free(ws_tiles *T);

/* Whether op has one result, a tile. */
bool ws_has_tile_result(MlirOperation op);

/* The element type of a tile value. */
MlirType ws_tile_element(MlirValue v);

/* Chooses vec, total and chunks for `threads` threads from the tiles the
 * ops produce (splat constants take their users' layout; a row kernel's
 * row vectors are the tile's rows), with the row scratch ws-plan-memory
 * reserved (`scratch_bytes`); false after a located error (tiles of two
 * sizes, more than WS_MAX_CHUNKS chunks, rows the chunks cannot follow). */
bool ws_tiles_layout(ws_tiles *T, int threads, const MlirOperation *ops, size_t n,
                     int scratch_bytes);

/* Remarks (through env) on the registers per thread the compute
 * partition's tiles need where most of them are live at once (a tile lives
 * from its op to its last use; a splat is rebuilt at each use), at the op
 * where that peak is, naming the live tiles, against `registers`, what
 * setmaxnreg gives the partition: above it, ptxas may spill to local
 * memory (ws_register_pressure.h). Tiles are never refused for their
 * number: the table has no cap, and LLVM frees each tile's registers after
 * its last use. */
void ws_tiles_explain_pressure(const ws_tiles *T, const MlirOperation *ops, size_t n, int registers,
                               const ws_pass_env *env);

/* Emits last_valid at the kernel's entry (b), after tid is set. */
void ws_tiles_entry(ws_tiles *T, ws_builder *b);

/* Lowers an elementwise op with a tile result before b: one vector op per
 * chunk; false after a located error. */
bool ws_tiles_vectorize(ws_tiles *T, ws_builder *b, MlirOperation op);

/* ws.iota: each of this thread's chunks holds its elements' indices along
 * the op's axis (the element's position in the row-major tile divided or
 * reduced by the row length); false after a located error. */
bool ws_tiles_iota(ws_tiles *T, ws_builder *b, MlirOperation op);

/* ws.read_slot / ws.write_slot of `ring` (index r, for messages), a chunk
 * at a time; false after a located error. */
bool ws_tiles_read_slot(ws_tiles *T, ws_builder *b, MlirOperation op, const ws_ring *ring, int r);
bool ws_tiles_write_slot(ws_tiles *T, ws_builder *b, MlirOperation op, const ws_ring *ring, int r);

#endif
