/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws-c/Plan.h: the plan the ws passes record on a kernel, read back.
 *
 * ws-partition-schedule, ws-plan-memory and ws-insert-barriers leave their
 * decisions on the IR as attributes (see README, "The pipeline"), so a
 * planned module can be printed, edited and fed back. This is the one
 * reader of those attributes: the passes, the launcher writer and any tool
 * that wants to know what ws decided (threads, shared memory, partitions,
 * rings, channels, swizzles) use it.
 *
 * A WsPlan is an opaque handle owned by the caller (wsPlanDestroy). It
 * refers to operations and types of the module it was read from and is
 * valid as long as they are. Nothing here keeps global state. */
#ifndef WS_C_PLAN_H
#define WS_C_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct WsPlan {
  void *ptr;
} WsPlan;

/* Reads the plan of `kernel`: a gpu.func holding a ws.warp_specialize loop
 * (the plan is on the loop and its ops), or one that ws-specialize
 * specialized (the plan is on the kernel: ws.partitions, ws.channels,
 * ws.rings). Returns a null plan when the kernel has no partition table (it
 * was not scheduled, or the scheduler left it alone) or when its plan does
 * not hold together (a name or index that resolves to nothing, as a hand
 * edit can leave; the ws passes report those with a located error). Parts
 * decided by later passes read as 0 until those passes ran. */
WsPlan wsPlanCreate(MlirOperation kernel);

/* Frees a plan (a null plan is ignored). */
void wsPlanDestroy(WsPlan plan);

/* True for the null plan. */
static inline bool wsPlanIsNull(WsPlan plan) { return plan.ptr == NULL; }

/* The launch shape ws-insert-barriers fixed: threads per block, dynamic
 * shared memory in bytes, the register cap at entry (.maxnreg), the
 * blocks per SM that cap leaves room for, and whether the kernel is
 * persistent (specialized from a tile loop: each block loops over tiles
 * from its block index in steps of the grid, so one block per SM slot,
 * SMs x blocks_per_sm, fills the device), and its cluster (ws.cluster:
 * blocks per cluster along x and y; 1 x 1 when it runs none), which a
 * launch must make and its grid be whole clusters of; `pair` when the
 * cluster is an sm_100a pair whose leader issues one MMA for both CTAs
 * (else a cluster shares tiles by TMA multicast); and the row scratch of
 * an elementwise loop that reduces rows spanning warps (its warps' parts
 * meet there): `row_scratch_bytes` at byte `row_scratch_offset` of the
 * shared memory (0 bytes: none). */
typedef struct WsPlanKernel {
  int block_threads;
  int shared_memory_bytes;
  int max_registers;
  int blocks_per_sm;
  bool persistent;
  int cluster_x, cluster_y;
  bool pair;
  int row_scratch_offset, row_scratch_bytes;
} WsPlanKernel;
WsPlanKernel wsPlanGetKernel(WsPlan plan);

/* Partitions, by index: the name ops carry in ws.partition, the role
 * ("load", "compute", "store", or "mma": sm_100a's tcgen05 warp), warps, registers after
 * setmaxnreg, and the first warp of the block they own. The strings live as long as the plan. */
typedef struct WsPlanPartition {
  const char *name;
  const char *role;
  int num_warps;
  int registers;
  int first_warp;
} WsPlanPartition;
intptr_t wsPlanGetNumPartitions(WsPlan plan);
WsPlanPartition wsPlanGetPartition(WsPlan plan, intptr_t index);

/* Rings: the op that produces the tile (null once the kernel is
 * specialized: its TMA and slot ops name the ring by index), the tile type, its channel, the
 * byte offset in the shared-memory arena, the distance between slots, the
 * alignment and the swizzle span in bytes (0: none), and the parts it
 * holds the producer's tile in (1; or a C tile handed to the store warp one
 * TMA box at a time, store-boxes: `tile` is one of `parts` column parts,
 * a slot holds one part). */
typedef struct WsPlanRing {
  MlirOperation producer;
  MlirType tile;
  int channel;
  int offset;
  int slot_bytes;
  int align;
  int swizzle;
  int parts;
} WsPlanRing;
intptr_t wsPlanGetNumRings(WsPlan plan);
WsPlanRing wsPlanGetRing(WsPlan plan, intptr_t index);

/* Channels: from and to are partition indices; depth is the slot count;
 * full and empty the byte offsets of the barrier arrays; the rest is the
 * protocol ws-insert-barriers fixed (arrive counts, expect-tx bytes, start
 * phases, proxy fences, TMA store groups kept in flight). */
typedef struct WsPlanChannel {
  int from, to, depth;
  int full, empty;
  int full_arrivals, empty_arrivals, expect_tx;
  int producer_phase, consumer_phase;
  bool release_fence, publish_fence;
  int drain;
} WsPlanChannel;
intptr_t wsPlanGetNumChannels(WsPlan plan);
WsPlanChannel wsPlanGetChannel(WsPlan plan, intptr_t index);

/* Tensor memory (sm_100a): a matmul's accumulator tile (null type when
 * the kernel has none), the channel that hands it from the MMA warp to the
 * epilogue (its depth is the number of buffers), the 32-bit columns of one
 * buffer (buffer i starts at column i * columns, in all 128 lanes), the
 * columns allocated (a power of two, at least 32) and the byte offset of
 * the shared-memory word the allocation's address is written to. */
typedef struct WsPlanTmem {
  MlirType tile;
  int channel;
  int columns;
  int allocated;
  int address;
} WsPlanTmem;
WsPlanTmem wsPlanGetTmem(WsPlan plan);

/* The swizzle span (bytes; 0 for none) of the ring that descriptor
 * argument `desc` fills (a ws.load) or drains (a ws.store): what the host
 * must encode in its CUtensorMap. 0 when no ring is attached to it. */
int wsPlanGetDescriptorSwizzle(WsPlan plan, MlirValue desc);

/* The innermost extent (elements) of one TMA box of that ring: the tile's
 * row, or one swizzle span of it when the row is wider (the kernel then
 * moves the tile as several boxes side by side). The other extents are the
 * tile's. 0 when no ring is attached to the descriptor. */
int64_t wsPlanGetDescriptorBoxInner(WsPlan plan, MlirValue desc);

/* True when no TMA copy goes through descriptor argument `desc`: only a
 * row kernel's row vectors are loaded or stored through it, element by
 * element by the compute warps (its box may be narrower than TMA's 16
 * bytes). The host then encodes no CUtensorMap for it and fills its store
 * view alone, which the kernel takes whether it loads or stores. */
bool wsPlanDescriptorIsAccessedDirectly(WsPlan plan, MlirValue desc);

/* True when the kernel takes a store view after descriptor argument `desc`
 * (the launcher fills it: base, sizes, byte strides): a ws.store writes
 * through it, or it is accessed directly (above). */
bool wsPlanDescriptorHasView(WsPlan plan, MlirValue desc);

/* How many CTAs of a cluster share the ring of that descriptor (a
 * multicast ring: each copies its part of the tile's rows into all of
 * them), or 1. Each TMA box then has 1 / parts of the tile's rows: the
 * extent of box dimension *row_dim (outermost first) is divided by it. */
int wsPlanGetDescriptorRowParts(WsPlan plan, MlirValue desc, int *row_dim);

/* The ws.divisibility of the kernel's scalar argument `index` (1 when it
 * has none): the divisor the compiler's proofs assumed, which a launcher
 * must check its argument against. */
int64_t wsPlanGetArgumentDivisibility(WsPlan plan, intptr_t index);

#ifdef __cplusplus
}
#endif

#endif /* WS_C_PLAN_H */
