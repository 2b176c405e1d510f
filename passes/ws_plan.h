/* ws_plan.h: the plan of one warp-specialized loop, as the passes record it
 * in attributes, read back into C structs. Internal.
 *
 *   ws-partition-schedule  ws.partition = ["load"] on every op of the loop,
 *                          ws.partitions = [{name, num_warps, registers?}]
 *                          on the loop
 *   ws-plan-memory         ws.ring = {channel, offset, slot_bytes, align,
 *                          swizzle} on each op whose tile crosses partitions,
 *                          ws.channels = [{from, to, depth, full, empty}] on
 *                          the loop, ws.smem_bytes on the kernel
 *   ws-insert-barriers     adds to each channel: full_arrivals,
 *                          empty_arrivals, expect_tx, producer_phase,
 *                          consumer_phase, release_fence, publish_fence,
 *                          drain; to each partition: registers, first_warp;
 *                          to the kernel: ws.maxnreg, ws.block_threads,
 *                          ws.blocks_per_sm
 */
#ifndef WS_PLAN_H
#define WS_PLAN_H

#include <stdbool.h>

#include "mlir-c/IR.h"

enum { WS_LOAD, WS_COMPUTE, WS_STORE, WS_NUM_PARTS };
enum { WS_MAX_RINGS = 16, WS_MAX_CHANNELS = 6 };

extern const char *const ws_part_names[WS_NUM_PARTS];

typedef struct ws_partition {
  bool present;
  int num_warps;
  int registers; /* 0: not decided yet */
  int first_warp;
} ws_partition;

typedef struct ws_ring {
  MlirOperation producer; /* defines the tile (ws.load or a compute op) */
  MlirType tile;
  int channel, offset, align, swizzle;
  int slot_bytes; /* the distance between slots: the tile padded to align */
} ws_ring;

typedef struct ws_channel {
  int from, to, depth;
  int full, empty; /* byte offsets of the barrier arrays */
  int full_arrivals, empty_arrivals, expect_tx;
  int producer_phase, consumer_phase;
  bool release_fence, publish_fence;
  int drain;
} ws_channel;

typedef struct ws_plan {
  MlirOperation func, loop;
  ws_partition parts[WS_NUM_PARTS];
  ws_ring rings[WS_MAX_RINGS];
  int num_rings;
  ws_channel channels[WS_MAX_CHANNELS];
  int num_channels;
  int smem_bytes, maxnreg, block_threads, blocks_per_sm;
} ws_plan;

/* Partition bit set of an op (bit p for partition p); 0 when unscheduled. */
unsigned ws_op_partitions(MlirOperation op);
void ws_set_op_partitions(MlirOperation op, unsigned mask);
int ws_part_from_name(MlirStringRef name);

/* The gpu.func around `op`, or a null op. */
MlirOperation ws_enclosing_kernel(MlirOperation op);

/* The scf.for ops marked ws.warp_specialize under `root`, in order. */
int ws_marked_loops(MlirOperation root, MlirOperation *loops, int max);

/* Reads every plan attribute present on the loop, its ops and its kernel.
 * Returns false when the loop has no partition table. */
bool ws_plan_read(MlirOperation loop, ws_plan *plan);

/* Write the plan's parts back as attributes. */
void ws_plan_write_partitions(const ws_plan *plan);
void ws_plan_write_rings(const ws_plan *plan);
void ws_plan_write_channels(const ws_plan *plan);
void ws_plan_write_kernel(const ws_plan *plan);

/* Integer attribute helpers. */
int ws_int_attr(MlirOperation op, const char *name, int fallback);
void ws_set_int_attr(MlirOperation op, const char *name, long long value);
bool ws_has_attr(MlirOperation op, const char *name);

/* The loop body and its ops, in order (terminator excluded). */
MlirBlock ws_loop_body(MlirOperation loop);

/* The ring whose tile is `value`, or -1. */
int ws_ring_of_value(const ws_plan *plan, MlirValue value);

/* Bytes of one tile (static tensor type), saturated at WS_MAX_TILE_BYTES
 * (far past any shared-memory budget, and small enough that sums of every
 * ring's slots stay within 64 bits). */
enum { WS_MAX_TILE_BYTES = 1 << 28 };
int ws_tile_bytes(MlirType tile);

#endif
