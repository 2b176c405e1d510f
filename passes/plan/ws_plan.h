/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_plan.h: the plan of one warp-specialized loop, as the passes record it
 * in attributes, read back into C structs. Internal.
 *
 *   ws-partition-schedule  ws.partition = ["load"] on every op of the loop
 *                          (partition names), the partition table
 *                          ws.partitions = [{name, role, num_warps,
 *                          registers?, first_warp?}] on the loop
 *   ws-plan-memory         ws.ring = {channel, offset, slot_bytes, align,
 *                          swizzle} on each op whose tile crosses partitions,
 *                          ws.channels = [{from, to (partition names),
 *                          depth, full, empty}] on
 *                          the loop, ws.smem_bytes (and ws.row_scratch
 *                          when an elementwise loop reduces rows) on the
 *                          kernel; on
 *                          sm_100a a matmul's ws.tmem = {tile, channel,
 *                          columns, allocated, address} on the loop
 *   ws-insert-barriers     adds to each channel: full_arrivals,
 *                          empty_arrivals, expect_tx, producer_phase,
 *                          consumer_phase, release_fence, publish_fence,
 *                          drain; to each partition: registers, first_warp;
 *                          to the kernel: ws.maxnreg, ws.block_threads,
 *                          ws.blocks_per_sm. It then replaces the loop by
 *                          one branch per partition (passes/specialize.c)
 *                          and moves the tables to the kernel: ws.partitions,
 *                          ws.channels and ws.rings = [{tile, channel,
 *                          offset, slot_bytes, align, swizzle}] (and
 *                          ws.tmem), which the protocol ops name by index.
 */
#ifndef WS_PLAN_H
#define WS_PLAN_H

#include <stdbool.h>

#include "mlir-c/IR.h"

/* What a partition does; the lowering emits one kind of loop per role. */
/* WS_ROLE_MMA: on sm_100a, the one warp whose elected thread issues a
 * matmul's tcgen05.mma into tensor memory (the compute partition then
 * runs only the epilogue). */
typedef enum ws_role {
  WS_ROLE_LOAD,
  WS_ROLE_COMPUTE,
  WS_ROLE_STORE,
  WS_ROLE_MMA,
  WS_NUM_ROLES
} ws_role;
/* WS_MAX_PARTS: a block runs at most 1024 threads, 32 warps, and a
 * partition has at least one warp (an op's partitions are a 32-bit set).
 * Rings and channels have no such bound: their tables grow, and shared
 * memory (ws-plan-memory's budget) is what limits them. */
enum { WS_MAX_PARTS = 32, WS_PART_NAME_MAX = 16, WS_MAX_RING_PARTS = 4 };

extern const char *const ws_role_names[WS_NUM_ROLES];

/* One row of the partition table. Ops name their partitions in
 * ws.partition; channels name their ends. */
typedef struct ws_partition {
  char name[WS_PART_NAME_MAX];
  ws_role role;
  int num_warps;
  int registers; /* 0: not decided yet */
  int first_warp;
  bool pingpong; /* compute of a persistent matmul: its warpgroups take
                    alternate tiles, each the whole tile (ws_pingpong) */
  bool turns;    /* compute of a matmul loop with several ws.dot ops: its two
                    warpgroups take turns issuing their wgmmas (each its own
                    rows), so one's register math runs under the other's */
} ws_partition;

/* How a cluster kernel's CTAs share a ring whose tile every CTA of the
 * cluster loads alike (ws-partition-schedule's ws.cluster_shared): each
 * loads 1 / cluster of its rows (the rank-th part), and
 *   WS_SPLIT_MULTICAST  copies it into that part of every CTA's slot (one
 *                       TMA multicast; the slot holds the whole tile);
 *   WS_SPLIT_PAIR       keeps it in its own slot (1 / cluster of the tile),
 *                       where the pair's one MMA reads every CTA's part
 *                       (an engine with pair_mma). */
typedef enum ws_split { WS_SPLIT_NONE, WS_SPLIT_MULTICAST, WS_SPLIT_PAIR } ws_split;
extern const char *const ws_split_names[3];

/* Whose barrier an arrival (or a copy's completion) on one of a channel's
 * barriers reaches in a cluster kernel: the CTA's own, the barrier at the
 * same offset in every CTA of the cluster, or the leader's (rank 0). */
typedef enum ws_reach { WS_REACH_OWN, WS_REACH_EVERY, WS_REACH_LEADER } ws_reach;
extern const char *const ws_reach_names[3];

typedef struct ws_ring {
  MlirOperation producer; /* defines the tile (ws.load or a compute op);
                             null once the kernel is specialized */
  MlirType tile;
  int channel, offset, align, swizzle;
  int slot_bytes; /* the distance between slots: the tile padded to align */
  ws_split split; /* how the CTAs of a cluster share the tile (none,
                     multicast or pair); `split = "..."` in the ring's row */
  int parts;      /* 1, or a matmul's C tile published box by box (the
                     store-boxes knob, ws.store_boxes on the loop): `tile` is one
                     of the producer's `parts` column parts, each slot holds one,
                     and the channel steps once per part (`parts = N` in the
                     ring's row) */
} ws_ring;

typedef struct ws_channel {
  int from, to; /* partition indices */
  int depth;
  int full, empty; /* byte offsets of the barrier arrays */
  int full_arrivals, empty_arrivals, expect_tx;
  int producer_phase, consumer_phase;
  bool release_fence, publish_fence;
  int drain;
  /* Whose barriers its arrivals reach (`full_to = "..."`, `empty_to =
   * "..."` in the row; absent: own). A multicast ring's channel releases
   * every CTA's slot (every CTA's load warp writes into each one's), so
   * empty_to = every and empty_arrivals counts every CTA's consumers. A
   * pair's K channel completes every CTA's copies on the leader's full
   * barrier (full_to = leader, whose MMA reads them all); its accumulator
   * channel's releases go to the leader's empty barrier. */
  ws_reach full_to, empty_to;
} ws_channel;

/* A matmul's accumulator in tensor memory (sm_100a): `buffers` (the depth
 * of its channel, from the MMA warp to the epilogue) copies of `columns`
 * 32-bit columns each, buffer i at column i * columns of the allocation of
 * `allocated` columns (a power of two, at least 32), all 128 lanes. The
 * MMA warp allocates it and writes its address at byte `address` of shared
 * memory. A block-scaled ws.dot's scales follow the buffers, one MX atom
 * (a ring) after another at their columns, A's `scale_a_atoms` first, each
 * K step's copied in (tcgen05.cp) over the last. Recorded as ws.tmem =
 * {tile, channel, columns, allocated, address[, scale_rings, scale_columns,
 * scale_a_atoms]} on the loop, then on the kernel. */
/* The engine's shape rules bound the atoms (engine_checks.c): tcgen05
 * takes M = 128 rows a CTA, N at most 256 and, block-scaled, a K tile of
 * one atom (128), so a step has at most 128 / 128 of A's and 256 / 128 of
 * B's: 3; the table keeps room for 4. */
enum { WS_MAX_SCALE_ATOMS = 4 };

/* Compute warps where the kernel sets no ws.num_warps. */
enum { WS_DEFAULT_COMPUTE_WARPS = 4 };
typedef struct ws_tmem {
  MlirType tile; /* null: the kernel has no tensor memory */
  int channel, columns, allocated, address;
  int num_scales, scale_a_atoms; /* 0: not block-scaled */
  int scale_ring[WS_MAX_SCALE_ATOMS], scale_column[WS_MAX_SCALE_ATOMS];
} ws_tmem;

typedef struct ws_plan {
  MlirOperation func, loop; /* loop: null once the kernel is specialized */
  MlirOperation tables;     /* holds ws.partitions and ws.channels: the loop,
                               then the kernel */
  ws_partition parts[WS_MAX_PARTS];
  int num_parts;
  /* The ring and channel tables, grown by ws_plan_add_ring and
   * ws_plan_add_channel (room for *_cap rows), freed by ws_plan_release. */
  ws_ring *rings;
  int num_rings;
  long rings_cap;
  ws_channel *channels;
  int num_channels;
  long channels_cap;
  int smem_bytes, maxnreg, block_threads, blocks_per_sm;
  /* An elementwise loop's row reductions (ws.reduce, axis 1): shared
   * memory where each warp leaves its part of a row that spans warps,
   * `row_scratch_bytes` at byte `row_scratch` (ws.row_scratch = [offset,
   * bytes] on the kernel; 0 bytes: none). */
  int row_scratch, row_scratch_bytes;
  bool persistent; /* specialized from a ws.tile_loop: ws.persistent on the
                      kernel, whose blocks loop over tiles */
  ws_tmem tmem;
  int cluster[2]; /* the kernel's ws.cluster (blocks of a cluster along x
                     and y; {1, 1}: none), read from the kernel */
} ws_plan;

/* The CTAs of the plan's cluster (1: the kernel runs no clusters). */
int ws_plan_cluster_size(const ws_plan *plan);
/* The scale atom of ws.tmem that ring r carries, or -1 when r is no
 * block-scale ring. */
int ws_plan_scale_atom(const ws_plan *plan, int ring);

/* True when the plan's cluster is a pair that issues one MMA (a ring
 * split WS_SPLIT_PAIR): its leader (rank 0) issues the MMAs for both. */
bool ws_plan_is_pair(const ws_plan *plan);

/* The CTAs one MMA (and every tcgen05 op of the kernel) acts for: 2 in a
 * pair (PTX's cta_group::2), else 1. */
int ws_plan_mma_ctas(const ws_plan *plan);

/* Partition bit set of an op (bit i for plan->parts[i], read from the names
 * in its ws.partition); 0 when unscheduled. */
unsigned ws_op_partitions(const ws_plan *plan, MlirOperation op);
void ws_set_op_partitions(const ws_plan *plan, MlirOperation op, unsigned mask);

/* The stage of an op of the marked loop (ws.stage = S : i32, which
 * ws-partition-schedule writes on every op of the loop's body): the
 * partition's copy of the loop runs step n's op of stage S in the
 * iteration of step n + S, so a stage-1 op runs a step behind the stage-0
 * ops of its partition (the lagged math on a K step's wgmma products, or
 * a pipelined step's late math and second run of ws.dot). 0 when unset. */
int ws_op_stage(MlirOperation op);
void ws_set_op_stage(MlirOperation op, int stage);

/* How many stages the ops of the loop's body span: 1 + the most ws.stage
 * of any of them (1 when every op runs in its own step). */
int ws_loop_stages(MlirOperation loop);

/* The role named `name`, or -1. */
int ws_role_from_name(MlirStringRef name);

/* Index of the first partition with `role`, or -1. */
int ws_plan_find_role(const ws_plan *plan, ws_role role);

/* Appends a partition named after its role; returns its index, or -1 when
 * the table is full. */
int ws_plan_add_partition(ws_plan *plan, ws_role role, int num_warps);

/* Appends a zeroed row to the ring (channel) table and returns it; the
 * table grows as needed, so a pointer into it lasts until the next add. */
ws_ring *ws_plan_add_ring(ws_plan *plan);
ws_channel *ws_plan_add_channel(ws_plan *plan);

/* Frees the tables a plan read or built holds (a plan that was never read,
 * zeroed, holds none). */
void ws_plan_release(ws_plan *plan);

/* The gpu.func around `op`, or a null op. */
MlirOperation ws_enclosing_kernel(MlirOperation op);

/* The scf.for ops marked ws.warp_specialize under `root`, in order. */
int ws_marked_loops(MlirOperation root, MlirOperation *loops, int max);

/* Reads every plan attribute present on the loop, its ops and its kernel.
 * Returns false when the loop has no partition table. A plan read back may
 * have been edited: check it before use. */
bool ws_plan_read(MlirOperation loop, ws_plan *plan);

/* ws_plan_read of a loop that ws-plan-memory planned (its plan has
 * channels); false, holding nothing, when it is not scheduled or not
 * planned. */
bool ws_plan_read_planned(MlirOperation loop, ws_plan *plan);

/* Reads the plan of a kernel that ws-specialize specialized (the
 * tables on the gpu.func). Returns false when it has none. */
bool ws_plan_read_kernel(MlirOperation func, ws_plan *plan);

/* True when `func` is a specialized kernel (it carries ws.rings). */
bool ws_is_specialized_kernel(MlirOperation func);

/* True when every name and index the plan uses resolves (partitions of
 * ops and channels, ring channels, depths, warp counts); otherwise emits a
 * located error saying what does not and returns false. */
bool ws_plan_check(const ws_plan *plan);

/* The same check, silent. */
bool ws_plan_is_consistent(const ws_plan *plan);

/* Write the plan's parts back as attributes. */
void ws_plan_write_partitions(const ws_plan *plan);
void ws_plan_write_rings(const ws_plan *plan);
void ws_plan_write_channels(const ws_plan *plan);
void ws_plan_write_kernel(const ws_plan *plan);
/* The ring table as ws.rings on the kernel (once the loop is gone). */
void ws_plan_write_ring_table(const ws_plan *plan);
/* ws.tmem on plan->tables, when the plan has tensor memory. */
void ws_plan_write_tmem(const ws_plan *plan);

/* Integer attribute helpers. */
int ws_int_attr(MlirOperation op, const char *name, int fallback);
void ws_set_int_attr(MlirOperation op, const char *name, long long value);
bool ws_has_attr(MlirOperation op, const char *name);
/* A ws.dot's M, N and K from its operands' types: A is M x K, or K x M
 * with transpose_a (read M-major, transposed); B is K x N, or N x K with
 * transpose_b. */
void ws_dot_mnk(MlirOperation dot, int64_t *m, int64_t *n, int64_t *k);
/* True when op's attribute `name` is the string `value`. */
bool ws_string_attr_is(MlirOperation op, const char *name, const char *value);
/* The kernel's ws.cluster = array<i32: X, Y> into cluster (1, 1 without
 * one, or with a malformed one, which ws-verify refuses). */
void ws_kernel_cluster(MlirOperation func, int cluster[2]);

/* The loop body and its ops, in order (terminator excluded). */
MlirBlock ws_loop_body(MlirOperation loop);

/* True when the loop's body holds a ws.dot: a matmul loop (a GEMM's K
 * loop, attention's KV loop), whose consumers hold MMA fragments. Without
 * one the loop is elementwise, whatever it carries (a row kernel's running
 * row vectors). */
bool ws_loop_has_dot(MlirOperation loop);

/* True when v is a ws.load that comes before `loop` in its block: a tile
 * every iteration reads (an attention kernel's Q), loaded once per block. */
bool ws_is_prologue_load(MlirValue v, MlirOperation loop);

/* True when v is defined by an op directly in loop's body. */
bool ws_value_in_loop(MlirValue v, MlirOperation loop);

/* How many ops of `block` are named `name` ("ws.dot"); *first gets the
 * first of them (a null op when none). */
int ws_count_ops(MlirBlock block, const char *name, MlirOperation *first);

/* True when a persistent tile loop's consumers run ping-pong
 * (ws.overlap = "pingpong", which ws-partition-schedule sets or checks). */
bool ws_tile_loop_is_pingpong(MlirOperation tile);

/* True when the plan's loop is elementwise and carries values: a row
 * kernel's loop over a row's chunks, carrying row vectors (a running max
 * and sum), run once per block of rows. */
bool ws_plan_carries_row_vectors(const ws_plan *plan);

/* True when the plan's loop is a row kernel's loop over blocks of whole
 * rows: elementwise, carrying nothing, with a ws.reduce in its body or a
 * ws.broadcast of a 1 x R row vector along its rows. */
bool ws_plan_is_row_block_loop(const ws_plan *plan);

/* The most elements of one tile of the plan's loop body that each compute
 * thread holds (the largest tile over the compute warps' threads); 0
 * without compute warps. */
int ws_plan_tile_elements_per_thread(const ws_plan *plan);

/* True when the plan's loop is a matmul loop (ws_loop_has_dot, with an
 * epilogue after the loop); false once the kernel is specialized. */
bool ws_plan_is_matmul(const ws_plan *plan);

/* The scf.for over tile ids around the plan's K loop (marked ws.tile_loop
 * by ws-partition-schedule: a persistent matmul), or a null op. */
MlirOperation ws_plan_tile_loop(const ws_plan *plan);

/* True when op comes before the plan's loop in its block: a ws.load
 * whose tile every iteration reads (an attention kernel's Q block), fetched
 * once per block before the loop. */
bool ws_plan_in_prologue(const ws_plan *plan, MlirOperation op);

/* True when op comes after the plan's loop (a matmul's epilogue, once per
 * block or tile). */
bool ws_plan_in_epilogue(const ws_plan *plan, MlirOperation op);

/* A row kernel's second pass over a row's chunks: the first scf.for after
 * a loop that carries row vectors (ws_plan_carries_row_vectors), which
 * reads the row again with what the first found (its max and sum); a
 * null op when there is none. */
MlirOperation ws_plan_second_pass(const ws_plan *plan);

/* True when op is in the body of the second pass, and when a ring's tile
 * is made there: its channels step once per iteration of the second pass,
 * counted from 0, apart from the loop's. */
bool ws_plan_in_second_pass(const ws_plan *plan, MlirOperation op);
bool ws_ring_is_second_pass(const ws_plan *plan, const ws_ring *ring);
bool ws_channel_is_second_pass(const ws_plan *plan, int channel);

/* The planned ops in order, from a null op on: those before the loop in
 * its block, the loop's body, those after it and the second pass's body
 * (never the loop ops themselves); null after the last. */
MlirOperation ws_plan_next_op(const ws_plan *plan, MlirOperation op);

/* True when the ring's tile is made after the loop (a matmul's epilogue
 * tile, staged once per block). Needs the producer: before specialization. */
bool ws_ring_is_epilogue(const ws_plan *plan, const ws_ring *ring);

/* True when the channel's rings are epilogue tiles: stepped once per block
 * (once per tile in a persistent kernel), not per K step. Needs the
 * producers: before specialization. */
bool ws_channel_is_epilogue(const ws_plan *plan, int channel);

/* The same for the prologue: a ring or channel of tiles loaded once per
 * block before the loop. */
bool ws_ring_is_prologue(const ws_plan *plan, const ws_ring *ring);
bool ws_channel_is_prologue(const ws_plan *plan, int channel);

/* True when the ring's tile is read into registers (by math, or as the
 * ws.dot accumulator), not only as a ws.dot's A or B operand, which wgmma
 * and tcgen05 read from shared memory themselves. Needs the producer. */
bool ws_ring_is_read_in_registers(const ws_plan *plan, const ws_ring *ring);
bool ws_channel_is_read_in_registers(const ws_plan *plan, int channel);

/* True when a loop step is known to be positive: a constant above 0, or
 * the grid's or a block's size (gpu.grid_dim, gpu.block_dim, through an
 * index_cast). */
bool ws_step_is_positive(MlirValue step);

/* Bytes of one innermost row of a tile. */
long long ws_tile_row_bytes(MlirType tile);

/* A swizzle span that fits rows of `row_bytes`: the widest of 128, 64 and
 * 32 bytes dividing it, or 0 when none does (the row stays unswizzled). */
int ws_swizzle_span(long long row_bytes);

/* The type of one of `parts` equal column parts of `tile` (its innermost
 * dimension divided by parts). */
MlirType ws_tile_column_part(MlirType tile, int parts);

/* TMA's widest box dimension (elements). */
enum { WS_TMA_MAX_BOX_DIM = 256 };

/* The inner extent (elements) of the TMA boxes that move an unswizzled
 * row of `cols` elements of `elem_bytes` each: the row itself up to
 * WS_TMA_MAX_BOX_DIM, else the widest divisor of it that fits a box and
 * spans a multiple of 16 bytes (a row kernel's long rows, several boxes
 * side by side); 0 when none does. */
int ws_row_box_cols(long long cols, int elem_bytes);

/* The row scratch (bytes) a row kernel's reductions of `rows` rows over
 * `warps` compute warps need: one f32 per row and warp, in two buffers
 * that successive reductions alternate. */
long long ws_row_scratch_need(long long rows, int warps);

/* The inner extent (elements) of one TMA box of the ring: the tile's row,
 * one swizzle span when the row is wider (TMA swizzles boxes whose row
 * is at most one span), or ws_row_box_cols of an unswizzled row wider
 * than a box. A slot holds its boxes one after another, each rows x box
 * bytes: ws_ring_boxes of them. */
int ws_ring_box_cols(const ws_ring *ring);
int ws_ring_boxes(const ws_ring *ring);

/* The ring whose tile is `value`, or -1. */
int ws_ring_of_value(const ws_plan *plan, MlirValue value);

/* Bytes of one tile (static tensor type), saturated at WS_MAX_TILE_BYTES
 * (far past any shared-memory budget, and small enough that sums of every
 * ring's slots stay within 64 bits). */
enum { WS_MAX_TILE_BYTES = 1 << 28 };
int ws_tile_bytes(MlirType tile);

/* Bytes of a ring: its channel's depth times its slot bytes, in 64 bits
 * (slot bytes saturate at WS_MAX_TILE_BYTES, and 8 of them pass INT_MAX). */
long long ws_ring_bytes(const ws_plan *plan, const ws_ring *ring);

/* A splat tile the compute partition builds in registers wherever it is
 * used: an arith.constant with a splat dense value, or a tensor.splat of a
 * scalar (a kernel argument, or scalar arith) of the tile's element type. */
bool ws_is_splat_tile(MlirOperation def);

/* An index tile: an i32 tile built from ws.iota, splats, arith.addi and
 * arith.subi (a mask's rows and columns). The lowering computes its values
 * where a compare needs them, so none is kept across a step. */
bool ws_is_index_tile(MlirValue tile);

/* An index mask: arith.cmpi (slt, sle, sgt or sge) of two index tiles. The lowering
 * tests such a mask's compare once per tile (uniform_select.c) and builds
 * its flags only in a tile where they differ, so it holds no registers
 * across the step. */
bool ws_is_index_mask(MlirValue mask);

/* True for an arith.constant splat of 0.0 (a matmul's fresh accumulator). */
bool ws_is_zero_splat(MlirValue v);

/* True when op's name starts with `prefix` ("arith."). */
bool ws_op_name_starts(MlirOperation op, const char *prefix);

/* True when an operand or a result of op is a tile (a ranked tensor). */
bool ws_touches_tiles(MlirOperation op);

/* Scalar index math every partition may repeat: arith ops on integers or
 * index (no regions, no tiles), reads of kernel arrays, and stream-K's
 * ws.stream_k_unit. */
bool ws_is_scalar_math(MlirOperation op);

/* True when some result of op is an operand of a ws.dot. */
bool ws_feeds_dot(MlirOperation op);

/* A consumers' tile op of a step: one with a tile result or in the ws
 * dialect, ws.load aside. */
bool ws_is_step_tile_op(MlirOperation op);

/* The runs of ws.dot in a step of a matmul loop: its consumers' tile ops
 * (ws_is_step_tile_op, the yield aside) in order, where a ws.dot that comes first or after one that
 * is not a ws.dot starts a run. Between runs there is register math on
 * wgmma results; ws-partition-schedule lets the consumers take turns when
 * there are two, and the specializer places the turns at the runs. */
int ws_loop_dot_runs(MlirOperation loop);

/* A walk over a step's tile ops that numbers the runs of ws.dot as
 * ws_loop_dot_runs counts them, for the passes that need to know which
 * run an op is in or after: ws_step_walk(loop) starts it, and each
 * ws_step_next moves `op` to the next tile op, `dot` says whether it is a
 * ws.dot and `run` is the number of the run it is in or follows (0 before
 * the first); false at the yield. */
typedef struct ws_step_walk {
  MlirOperation op, yield;
  bool dot;
  int run;
} ws_step_walk;
ws_step_walk ws_step_walk_begin(MlirOperation loop);
bool ws_step_next(ws_step_walk *w);

#endif
