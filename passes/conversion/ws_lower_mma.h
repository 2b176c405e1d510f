/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_lower_mma.h: how the lowering runs a matmul's ws.mma on wgmma and
 * writes the accumulator's fragments to shared memory. Internal.
 *
 * Each of the consumer warpgroups owns `rows` (64 or 128) consecutive rows
 * of the M x N accumulator: `parts` = rows / 64 wgmma m64nNk16 instructions
 * per K step of 16, each thread holding N / 2 f32 of each part, in one
 * !llvm.struct of `per_thread` f32 (part after part). Fragment layout of
 * one part (PTX ISA, wgmma D): thread t of the warpgroup, warp w = t / 32,
 * lane l = t % 32, value 4 j + 2 h + e (j < N / 8, h, e in {0, 1}) is row
 * 16 w + l / 4 + 8 h, column 8 j + 2 (l % 4) + e.
 *
 * A lies in swizzled ring slots K-major: one row of `k * elem_bytes` bytes
 * per M index, cut into boxes of one swizzle span when it is wider (each
 * box M rows of span bytes, box after box), swizzled in 8-row atoms of
 * 8 x span bytes, which is what TMA writes with the same swizzle; a k16
 * step never straddles two boxes. B given N x K (transpose_b) lies the
 * same way. B given K x N lies N-major: one row of
 * N per K index, cut into boxes of one span (b_swizzle bytes) of columns,
 * each box k rows deep, box after box; wgmma reads it transposed, with the
 * box stride as its leading byte offset and an 8-row atom as its stride
 * byte offset.
 *
 * The C tile the fragments are written to is row-major, or, with a swizzle
 * span, in swizzled boxes as ws_slot_offset (ws_lower_store.h) places them;
 * a warp's pairs then hit 32 distinct banks. */
#ifndef WS_LOWER_MMA_H
#define WS_LOWER_MMA_H

#include "../support/ws_builder.h"
#include "../target/ws_target.h"

typedef struct ws_mma_shape {
  int warpgroups, rows, parts, n, k, per_thread;
  /* Where a thread's values lie (see ws_fragment_origin): row warpgroup *
   * rows (0 when col_groups > 1) + warp * warp_rows + part * part_rows +
   * lane / 4 + 8 h; column (warpgroup * n / col_groups when col_groups > 1)
   * + 8 j + 2 (lane % 4) + e. wgmma: warp_rows 16, part_rows 64 (m64
   * parts), col_groups 1. tcgen05.ld 16x256b (ws_lower_tcgen05.h): warp
   * w reads tensor-memory lanes 32 w.., in parts of 16, and the warpgroups
   * split the columns: warp_rows 32, part_rows 16, col_groups warpgroups. */
  int warp_rows, part_rows, col_groups;
  MlirType element;        /* f16 or bf16 */
  const ws_mma_form *form; /* A and B's form of the engine (passes/target) */
  int swizzle;             /* A's span: the widest of 128, 64, 32 dividing its K row */
  bool a_m_major;          /* A given K x M (transpose_a), read M-major: each
                              m64 part one 128-byte box of its K rows */
  bool b_n_major;          /* B given K x N */
  int b_swizzle;           /* B's span: its K row's, or its N boxes' when N-major */
} ws_mma_shape;

/* Columns of an M x N tile one thread's warpgroup holds, and M. */
static inline int ws_shape_cols(const ws_mma_shape *s, int n) { return n / s->col_groups; }
static inline int ws_shape_m(const ws_mma_shape *s) {
  return s->rows * s->warpgroups / s->col_groups;
}

/* The accumulator of one thread: !llvm.struct of per_thread f32. */
MlirType ws_mma_acc_type(MlirContext ctx, const ws_mma_shape *s);

/* Where K step kk (of step_bytes) starts in a K-major tile of `rows` rows
 * whose K row is cut into boxes of `span` bytes (box after box, rows x
 * span each): the byte offset a descriptor of that step adds. */
int ws_mma_k_step_offset(int kk, int step_bytes, int span, int rows);

/* acc + A @ B^T (acc + A @ B when B is N-major) for the calling warpgroup (index `warpgroup`, an
 * i32), with A at shared address a_addr and B at b_addr (i32, shared window; the slot starts,
 * 1024-aligned). Returns the new accumulator. */
MlirValue ws_emit_wgmma(ws_builder *b, const ws_mma_shape *s, MlirValue warpgroup, MlirValue a_addr,
                        MlirValue b_addr, MlirValue acc, bool zero_acc);

enum { WS_MMA_MAX_ACC = 128 };

/* The same with A in registers (wgmma's register form): a_values are the
 * calling thread's values of A (M x K, f16 or bf16) in the accumulator
 * layout of K columns, which is the layout wgmma takes 16-bit A fragments
 * in; acc + A @ B (B as above). For an FP8 form the values are f32 (K a
 * multiple of 32): each pair is rounded to two f8 bytes, and the four
 * lanes of a quad trade them (two shuffles a register) into the 8-bit
 * fragment, where a thread holds four consecutive columns of a row. With
 * zero_acc in ws_emit_wgmma, the first K step ignores acc (scale-d 0). */
MlirValue ws_emit_wgmma_rs(ws_builder *b, const ws_mma_shape *s, const MlirValue *a_values,
                           MlirValue b_addr, MlirValue acc);

/* The row and column of a thread's first fragment value in the M x N tile
 * (`thread` among the consumers); the others are at fixed offsets. */
void ws_fragment_origin(ws_builder *b, const ws_mma_shape *s, MlirValue thread, MlirValue *row0,
                        MlirValue *col0);

/* Writes a thread's fragment values (per_thread scalars of `element_type`,
 * converted already) into the M x N tile at shared pointer `tile`, laid out
 * as ws_slot_offset with `span`; `thread` is the thread index among the
 * consumers. With `part_cols` (0: the whole tile), only the columns of
 * part `part` of the tile's N / part_cols, into an M x part_cols tile at
 * `tile` (a C tile handed over box by box); the warpgroups must share
 * their columns (col_groups 1). */
void ws_emit_fragment_store(ws_builder *b, const ws_mma_shape *s, MlirValue thread, MlirValue tile,
                            const MlirValue *values, MlirType element_type, int span, int part,
                            int part_cols);

/* Where a thread's fragment values come from: an M x N tile laid out as
 * the C tile (ws_emit_fragment_store), a 1 x N row whose value n is every
 * row's column n, or a 1 x M row whose value m is row m's every column (the
 * two bias broadcasts; rows unswizzled). */
typedef enum ws_fragment_source {
  WS_FRAGMENT_FROM_TILE,
  WS_FRAGMENT_FROM_ROW_VECTOR,
  WS_FRAGMENT_FROM_COLUMN_VECTOR,
} ws_fragment_source;

/* Reads a thread's per_thread fragment values (of `element_type`, as
 * stored) from the slot at shared pointer `tile` into `values`. */
void ws_emit_fragment_load(ws_builder *b, const ws_mma_shape *s, MlirValue thread, MlirValue tile,
                           MlirType element_type, int span, ws_fragment_source source,
                           MlirValue *values);

/* v passed through an empty asm with side effects: LLVM must compute v
 * before it, keeps it before the next asm with side effects, and reads the
 * pinned value only after the asms before it (a wgmma wait). No PTX. */
MlirValue ws_pin_register(ws_builder *b, MlirValue v);

#endif
