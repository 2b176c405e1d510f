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
 * (ws_lower_f8.h). */
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
  ws_tile_regs *tiles; /* grows as tiles are lowered; ws_tiles_free */
  int num_tiles;
  long cap;
} ws_tiles;

/* Frees the tile table. */
void ws_tiles_free(ws_tiles *T);

/* Whether op has one result, a tile. */
bool ws_has_tile_result(MlirOperation op);

/* The element type of a tile value. */
MlirType ws_tile_element(MlirValue v);

/* Chooses vec, total and chunks for `threads` threads from the tiles the
 * ops produce (splat constants take their users' layout); false after a
 * located error (tiles of two sizes, or more than WS_MAX_CHUNKS chunks). */
bool ws_tiles_layout(ws_tiles *T, int threads, const MlirOperation *ops, size_t n);

/* Remarks (through env) on the registers per thread the compute
 * partition's tiles need where most of them are live at once (a tile lives
 * from its op to its last use; a splat is rebuilt at each use), at the op
 * where that peak is, naming the live tiles, against `registers`, what
 * setmaxnreg gives the partition: above it, ptxas may spill to local
 * memory (ws_register_pressure.h). Tiles are never refused for their
 * number: the table has no cap, and LLVM frees each tile's registers after
 * its last use. */
void ws_tiles_explain_pressure(const ws_tiles *T, const MlirOperation *ops, size_t n,
                               int registers, const ws_pass_env *env);

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
bool ws_tiles_read_slot(ws_tiles *T, ws_builder *b, MlirOperation op, const ws_ring *ring,
                        int r);
bool ws_tiles_write_slot(ws_tiles *T, ws_builder *b, MlirOperation op, const ws_ring *ring,
                         int r);

#endif
