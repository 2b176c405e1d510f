/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* insert_barriers.c: ws-insert-barriers, which fixes the producer/consumer
 * protocol of every channel and the register budget of every warpgroup.
 *
 * Per channel (one full/empty mbarrier pair per ring slot; slot = i % depth
 * and phase = (i / depth) & 1 from the iteration count i):
 *  - full: the producer arrives. A TMA producer arrives once with expect-tx
 *    of the exact bytes of its boxes; a compute producer with every thread;
 *    the MMA warp (sm_100a) once, by tcgen05.commit.
 *  - an MMA warp releases each K step's slot with one tcgen05.commit, which
 *    arrives when the MMAs that read the slot are done.
 *  - empty: the consumer arrives when it is done with a slot: every compute
 *    thread, or the store thread once its TMA store has read the slot.
 *  - producers wait on empty starting at phase 1 (a fresh barrier counts as
 *    having completed the phase before phase 0, so the first wait passes),
 *    consumers wait on full starting at phase 0.
 *  - fence.proxy.async where generic accesses meet TMA: before a compute
 *    consumer releases a slot that TMA will refill (release_fence), and
 *    after a compute producer writes a slot a TMA store will read
 *    (publish_fence).
 *  - a TMA store consumer keeps depth-1 stores in flight: it waits with
 *    cp.async.bulk.wait_group.read depth-1 before releasing the slot of the
 *    store issued depth-1 steps ago, and drains all at exit (drain).
 *
 * Registers: compute warps form warpgroups 0.. (every compute partition's,
 * in table order, where an elementwise loop's compute is split); load and
 * store warps share the next warpgroup. The kernel gets a register cap at
 * entry (.maxnreg) that lets blocks_per_sm blocks fit; the block's pool is that cap times its
 * threads. The producer warpgroup drops to 24 with setmaxnreg.dec and the
 * compute warpgroups take what it frees (setmaxnreg.inc), in multiples of 8,
 * at most 256, never more than the pool holds. Totals are checked against
 * the pool and the 65536 registers of an SM. blocks_per_sm is the fewer of
 * what shared memory allows and max-blocks-per-sm, which a matmul sets to
 * 1 and a row kernel to its own count (kind_blocks).
 *
 * It decides and writes: the loop's ws.partitions and ws.channels gain
 * these fields and the kernel its ws.maxnreg, ws.block_threads and
 * ws.blocks_per_sm. ws-specialize (specialize.c) then builds the
 * partitions from them. */
#include <stdio.h>
#include <string.h>

#include "../plan/ws_explain.h"
#include "../support/ws_pass.h"
#include "../plan/ws_plan.h"
#include "../target/ws_target.h"
#include "../../dialect/ws_text.h"

/* The chip's budgets come from its row in passes/target/ws_target.h. */
enum {
  PRODUCER_REGISTERS = 24,
  WARP_THREADS = 32,
  WARPGROUP_THREADS = 128,
};

/* A compute partition arrives with every thread (with one warpgroup's
 * when its warpgroups take alternate tiles); a TMA partition with one
 * elected lane. */
static int arrivals(const ws_partition *p) {
  if (p->role != WS_ROLE_COMPUTE)
    return 1;
  return p->pingpong ? WARPGROUP_THREADS : p->num_warps * 32;
}

static void plan_channel(ws_plan *plan, ws_channel *c) {
  int index = (int)(c - plan->channels);
  ws_role from = plan->parts[c->from].role, to = plan->parts[c->to].role;
  int ctas = ws_plan_cluster_size(plan);
  c->expect_tx = 0;
  for (int r = 0; r < plan->num_rings; r++) {
    const ws_ring *ring = &plan->rings[r];
    if (ring->channel != index || from != WS_ROLE_LOAD)
      continue;
    int bytes = ws_tile_bytes(ring->tile); /* the box, not its padded slot */
    /* the leader's barrier expects the copies of every CTA: each one's own
     * tile, and its part of a split one */
    c->expect_tx += c->full_to == WS_REACH_LEADER && !ring->split ? bytes * ctas : bytes;
  }
  /* a turn channel (consumers to themselves) is passed by one warpgroup */
  bool turn = c->from == c->to;
  c->full_arrivals = turn ? WARPGROUP_THREADS : arrivals(&plan->parts[c->from]);
  c->empty_arrivals = turn ? WARPGROUP_THREADS : arrivals(&plan->parts[c->to]);
  /* Releases that reach another CTA's barrier come one per warp, from the
   * consumers of every CTA (a multicast ring: each CTA's load warp writes
   * into every CTA's slots; a pair's accumulator: every CTA's epilogue
   * hands its rows back to the leader). An MMA warp's commit is one
   * arrival on each barrier it reaches. */
  if (c->empty_to != WS_REACH_OWN && to != WS_ROLE_MMA)
    c->empty_arrivals = c->empty_arrivals / WARP_THREADS * ctas;
  c->producer_phase = 1;
  c->consumer_phase = 0;
  /* wgmma reads a matmul's K-loop slots through the async proxy, as TMA
   * writes them: no generic access to fence, unless the consumers also
   * read a tile into registers (an A they compute from it). Its epilogue
   * operands are read with generic loads. */
  c->release_fence = from == WS_ROLE_LOAD && to == WS_ROLE_COMPUTE &&
                     (!ws_plan_is_matmul(plan) || ws_channel_is_epilogue(plan, index) ||
                      ws_channel_is_read_in_registers(plan, index));
  c->publish_fence = from == WS_ROLE_COMPUTE && to == WS_ROLE_STORE;
  c->drain = to == WS_ROLE_STORE ? c->depth - 1 : 0;
}

/* Blocks per SM for a row kernel (see kind_blocks). */
enum { ROW_KERNEL_BLOCKS = 4 };

/* The blocks per SM a kernel's kind fixes, over max-blocks-per-sm. A
 * matmul takes the SM alone: ptxas allocates the whole kernel within the
 * entry cap, and its consumers hold the accumulator. A loop over a row's chunks
 * runs once per block, so each block's ring fills and drains once, and
 * four blocks keep memory busy through the gaps (2.7 TB/s for a
 * cross-entropy at 4096 x 128256 on the H100, where 2 gave 2.2). A loop
 * over blocks of rows (rings of depth 1, ws-plan-memory) takes as many as
 * leave the compute threads twice the elements of a tile they hold in
 * registers at entry (ptxas allocates the whole kernel within that cap):
 * four for 32 elements a thread over 4 compute warps, two over 8; more
 * blocks ran faster where nothing spilled (RMSNorm at 65536 x 1024 bf16:
 * 0.97 of a device copy with four blocks of 4 warps, 0.95 with two of 8).
 * 0 for other loops: the option's. */
static int kind_blocks(const ws_plan *plan, int threads) {
  if (ws_plan_is_matmul(plan))
    return 1;
  if (ws_plan_carries_row_vectors(plan))
    return ROW_KERNEL_BLOCKS;
  if (!ws_plan_is_row_block_loop(plan))
    return 0;
  const ws_target *target = ws_target_of(plan->loop);
  int need = 2 * ws_plan_tile_elements_per_thread(plan);
  int blocks = ROW_KERNEL_BLOCKS;
  while (blocks > 1 && target->registers_per_sm / blocks / threads / 8 * 8 < need)
    blocks--;
  return blocks;
}

/* Warp layout and register budgets; false (after an error) when they cannot
 * fit the register file or the block's threads. Compute partitions take
 * whole warpgroups from warp 0 on, in table order (several where an
 * elementwise loop's compute is split, ws.split_compute); the producers
 * share the warpgroup after them. */
static bool plan_registers(ws_plan *plan, int max_blocks, ws_register_math *m) {
  const ws_target *target = ws_target_of(plan->loop);
  const int SM_REGISTERS = target->registers_per_sm, MAX_REGISTERS = target->max_registers;
  int compute_warps = 0, computes = 0;
  for (int p = 0; p < plan->num_parts; p++)
    if (plan->parts[p].role == WS_ROLE_COMPUTE) {
      compute_warps += plan->parts[p].num_warps;
      computes++;
    }
  bool compute = computes > 0;
  int producers = plan->num_parts - computes;
  int warps = compute_warps + (compute_warps ? 4 : producers);
  int threads = warps * 32;
  if (threads > target->max_block_threads) {
    ws_emit_op_error(plan->loop,
                     "warp plan does not fit: %d compute partition(s) of %d warps in all and "
                     "a producer warpgroup need %d threads; a block runs at most %d: give each "
                     "compute partition fewer warps (ws.num_warps), or split fewer parts",
                     computes, compute_warps, threads, target->max_block_threads);
    return false;
  }
  int fixed = kind_blocks(plan, threads);
  if (fixed)
    max_blocks = fixed;
  int by_smem = target->smem_per_sm / (plan->smem_bytes + target->smem_reserved_per_block);
  int blocks = by_smem < max_blocks ? by_smem : max_blocks;
  if (blocks < 1)
    blocks = 1;
  int block_regs = SM_REGISTERS / blocks;
  int cap = block_regs / threads / 8 * 8;
  if (cap > MAX_REGISTERS - 1)
    cap = MAX_REGISTERS - 8; /* .maxnreg takes at most 255 */
  int next = 0;
  for (int p = 0; p < plan->num_parts; p++)
    if (plan->parts[p].role == WS_ROLE_COMPUTE) {
      plan->parts[p].first_warp = next;
      next += plan->parts[p].num_warps;
    }
  for (int p = 0; p < plan->num_parts; p++)
    if (plan->parts[p].role != WS_ROLE_COMPUTE)
      plan->parts[p].first_warp = next++;
  /* setmaxnreg moves registers within the pool the block got at launch,
   * cap * threads; .inc waits until .dec has freed enough, so sizing it
   * from anything larger than the pool would wait forever. */
  long pool = (long)cap * threads;
  int compute_regs = cap;
  if (compute) {
    int free_regs = (int)pool - PRODUCER_REGISTERS * WARPGROUP_THREADS;
    compute_regs = free_regs / (compute_warps * 32) / 8 * 8;
    if (compute_regs > MAX_REGISTERS)
      compute_regs = MAX_REGISTERS;
  }
  for (int p = 0; p < plan->num_parts; p++)
    plan->parts[p].registers = plan->parts[p].role == WS_ROLE_COMPUTE ? compute_regs
                               : compute                              ? PRODUCER_REGISTERS
                                                                      : cap;
  long total = compute ? (long)compute_regs * compute_warps * 32 +
                             (long)PRODUCER_REGISTERS * WARPGROUP_THREADS
                       : (long)cap * threads;
  if (total > pool || pool * blocks > SM_REGISTERS || compute_regs < cap) {
    ws_emit_op_error(plan->loop,
                     "register plan does not fit: warpgroups need "
                     "%ld registers of a block pool of %ld (%d per "
                     "thread at entry), %d block(s) of which must "
                     "fit the %d of an SM",
                     total, pool, cap, blocks, SM_REGISTERS);
    return false;
  }
  plan->maxnreg = cap;
  plan->block_threads = threads;
  plan->blocks_per_sm = blocks;
  *m = (ws_register_math){
      max_blocks,   by_smem,           blocks, threads, cap, pool, PRODUCER_REGISTERS,
      compute_regs, compute_warps * 32};
  return true;
}

/* Completes a checked plan's protocol (each channel's counts, phases,
 * fences and drain; the warp layout and registers) and writes it into the
 * loop's tables, where ws-specialize reads it; false after a located error. */
static bool write_protocol(ws_plan *plan, int max_blocks, const ws_pass_options *opts,
                           const ws_pass_env *env) {
  for (int c = 0; c < plan->num_channels; c++)
    plan_channel(plan, &plan->channels[c]);
  ws_register_math m;
  if (!plan_registers(plan, max_blocks, &m))
    return false;
  if (ws_option_bool(opts, "explain"))
    ws_explain_protocol(plan, &m, env);
  ws_plan_write_partitions(plan);
  ws_plan_write_channels(plan);
  ws_plan_write_kernel(plan);
  return true;
}

static bool insert_barriers(MlirOperation loop, const ws_pass_options *opts,
                            const ws_pass_env *env) {
  int max_blocks = (int)ws_option_int(opts, "max-blocks-per-sm");
  ws_plan plan;
  if (!ws_plan_read_planned(loop, &plan))
    return true; /* not scheduled or not planned */
  bool ok = ws_plan_check(&plan) && write_protocol(&plan, max_blocks, opts, env);
  ws_plan_release(&plan);
  return ok;
}

static bool run_insert_barriers(MlirOperation root, const ws_pass_options *opts,
                                const ws_pass_env *env) {
  return ws_run_on_marked_loops(root, insert_barriers, opts, env);
}

static const ws_option_spec insert_barriers_options[] = {
    {"max-blocks-per-sm", WS_OPTION_INT, "2",
     "blocks per SM the register cap at entry leaves room for (fewer when "
     "shared memory allows fewer)",
     NULL, 1, 8},
    {"explain", WS_OPTION_BOOL, "false",
     "remark on the warp layout, each warpgroup's registers (with the pool "
     "arithmetic) and each channel's counts, phases, fences and drain",
     NULL, 0, 0},
};

const ws_pass_def ws_insert_barriers_pass_def = {
    .argument = "ws-insert-barriers",
    .summary = "Fix the mbarrier protocol of every channel (arrive counts, "
               "phases, expect-tx, proxy fences, store drain), the warp "
               "layout and the setmaxnreg budget of every warpgroup, and "
               "write them into the loop's ws.partitions and ws.channels "
               "(ws-specialize then builds the partitions)",
    WS_PASS_OPTIONS(insert_barriers_options),
    .run = run_insert_barriers,
};
