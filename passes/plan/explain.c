/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* explain.c: the text of the --ws-explain remarks (see ws_explain.h). The
 * passes decide; this file only says what they decided and why, from the
 * plan they recorded, so the remarks cannot drift from the IR. */
#include <stdio.h>
#include <string.h>

#include "mlir-c/BuiltinTypes.h"
#include "ws-c/Dialect.h"
#include "ws_explain.h"
#include "ws_row_kernel.h"
#include "../target/ws_target.h"
#include "../../dialect/ws_text.h"

static MlirLocation loc_of(MlirOperation op) { return mlirOperationGetLocation(op); }

/* "load, compute" for a partition mask. */
static const char *part_names(const ws_plan *plan, unsigned mask, char *buf, size_t cap) {
  ws_text t;
  ws_text_init(&t, buf, cap);
  for (int p = 0; p < plan->num_parts; p++)
    if (mask & (1u << p))
      ws_text_appendf(&t, "%s%s", t.len ? ", " : "", plan->parts[p].name);
  return buf;
}

static bool has_tile_result(MlirOperation op) {
  return mlirOperationGetNumResults(op) > 0 &&
         mlirTypeIsARankedTensor(mlirValueGetType(mlirOperationGetResult(op, 0)));
}

/* Why an op is where ws-partition-schedule put it. */
static const char *placement_reason(MlirOperation op) {
  if (ws_load_is_row_vector(op))
    return "a row vector, one value per row: the compute warps read it element by "
           "element from global memory (no ring, no TMA)";
  if (wsOperationIsA(op, "load"))
    return "a TMA load: one elected lane of the load warp issues it, so no compute "
           "warp waits on global memory";
  if (ws_store_is_row_vector(op))
    return "a row vector, one value per row: the compute warps store it element by "
           "element (no ring, no TMA), each from the thread holding the row's first chunk";
  if (wsOperationIsA(op, "store") && ws_string_attr_is(op, "reduce", "add"))
    return "a TMA reduce-add from a shared-memory slot (reduce = \"add\": each element "
           "added into the tensor atomically; a tile reaching a partial 16-byte granule at "
           "the tensor's edge adds element by element with atomic adds), issued by one lane "
           "of the store warp";
  if (wsOperationIsA(op, "store"))
    return "a TMA store from a shared-memory slot, issued by one lane of the store "
           "warp, so no compute warp waits on global writes";
  if (wsOperationIsA(op, "dot") && ws_mma_engine_of(op) && ws_mma_engine_of(op)->mma_partition)
    return "tcgen05.mma, issued by one elected thread of the MMA warp into an "
           "accumulator in tensor memory: the tensor cores read A and B from their "
           "shared-memory rings, and no warp holds the accumulator while it grows";
  if (wsOperationIsA(op, "dot") &&
      !(mlirValueIsAOpResult(mlirOperationGetOperand(op, 0)) &&
        wsOperationIsA(mlirOpResultGetOwner(mlirOperationGetOperand(op, 0)), "load")))
    return "wgmma on the compute warpgroups, its register form: the tensor cores read "
           "B from its shared-memory ring and A from the registers the consumers "
           "computed it in";
  if (wsOperationIsA(op, "dot"))
    return "wgmma on the compute warpgroups: the tensor cores read A and B from "
           "their shared-memory rings";
  if (has_tile_result(op))
    return "math on tiles runs in the compute warps' registers";
  if (ws_op_is(op, "tensor.extract"))
    return "one element of a loaded tile (a block's scale): each consumer thread reads "
           "it from the ring's slot when it reads the tile";
  return "scalar arithmetic is copied into each partition that uses its result";
}

/* The last placement remarked: ops a pass wrote at one source location
 * (stream-K's K offset, five scalar ops at the first ws.load) say it once. */
typedef struct placement {
  MlirLocation loc;
  unsigned mask;
  const char *reason;
} placement;

static void remark_placement(const ws_plan *plan, const ws_pass_env *env, MlirOperation op,
                             const char *where, placement *last) {
  char names[128];
  unsigned mask = ws_op_partitions(plan, op);
  placement now = {loc_of(op), mask, placement_reason(op)};
  if (last->reason && mlirLocationEqual(last->loc, now.loc) && last->mask == mask &&
      strcmp(last->reason, now.reason) == 0)
    return;
  *last = now;
  ws_remark(env, now.loc, "partition%s %s%s: %s", (mask & (mask - 1)) ? "s" : "",
            part_names(plan, mask, names, sizeof names), where, now.reason);
}

void ws_explain_schedule(const ws_plan *plan, const ws_pass_env *env) {
  char text[512];
  ws_text t;
  ws_text_init(&t, text, sizeof text);
  for (int p = 0; p < plan->num_parts; p++)
    ws_text_appendf(&t, "%s%s (%d warp%s)", p ? ", " : "", plan->parts[p].name,
                    plan->parts[p].num_warps, plan->parts[p].num_warps == 1 ? "" : "s");
  ws_remark(env, loc_of(plan->loop),
            "partitions: %s; the compute warps come from "
            "ws.num_warps on the kernel (4 without it), the load%s and store "
            "partitions take one warp each",
            text, ws_plan_find_role(plan, WS_ROLE_MMA) >= 0 ? ", MMA" : "");
  int compute = ws_plan_find_role(plan, WS_ROLE_COMPUTE);
  if (compute >= 0 && plan->parts[compute].turns)
    ws_remark(env, loc_of(plan->loop),
              "turns: the %d consumer warpgroups (each its own "
              "rows) take turns at their wgmmas, since a step runs ws.dot, math on its "
              "result, then ws.dot again: a turn is one warpgroup's last wgmmas of a step "
              "and its first of the next, so its math runs under the others' turns and the "
              "tensor cores need not wait for all to finish it; a channel from the "
              "consumers to themselves passes the turn",
              plan->parts[compute].num_warps / 4);
  MlirBlock body = ws_loop_body(plan->loop);
  placement last = {{NULL}, 0, NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (!ws_op_is(op, "scf.yield"))
      remark_placement(plan, env, op, "", &last);
  for (MlirOperation op = mlirOperationGetNextInBlock(plan->loop);
       !mlirOperationIsNull(op) && ws_op_partitions(plan, op); op = mlirOperationGetNextInBlock(op))
    remark_placement(plan, env, op, " (epilogue)", &last);
}

/* Why a ring has its swizzle. */
static void swizzle_reason(const ws_plan *plan, const ws_ring *r, char *buf, size_t cap) {
  long long row = ws_tile_row_bytes(r->tile);
  bool operand = ws_ring_is_epilogue(plan, r) && wsOperationIsA(r->producer, "load");
  if (!r->swizzle && ws_plan_scale_atom(plan, (int)(r - plan->rings)) >= 0)
    snprintf(buf, cap,
             "unswizzled (a block scale atom: tcgen05.cp reads its rows of 16 "
             "bytes as they lie)");
  else if (!r->swizzle && operand)
    snprintf(buf, cap,
             "unswizzled (a bias row: each consumer thread reads the values "
             "its fragment's columns or rows meet)");
  else if (!r->swizzle && ws_ring_is_epilogue(plan, r) && ws_plan_is_matmul(plan))
    snprintf(buf, cap,
             "unswizzled (the consumers write it from their fragments, each thread "
             "its values, and the store warp stores it with TMA)");
  else if (!r->swizzle && ws_ring_is_read_in_registers(plan, r) && ws_plan_is_matmul(plan))
    snprintf(buf, cap,
             "unswizzled (the consumers read it into registers: each thread "
             "the values its fragment needs)");
  else if (!r->swizzle)
    snprintf(buf, cap,
             "unswizzled (row-major: the compute partition and the exact "
             "store read it linearly)");
  else if (row > r->swizzle)
    snprintf(buf, cap,
             "swizzle %d: the widest of 128, 64 and 32 bytes dividing its "
             "%lld-byte rows, filled by %lld TMA boxes of %d bytes side by side",
             r->swizzle, row, row / r->swizzle, r->swizzle);
  else
    snprintf(buf, cap,
             "swizzle %d: the widest of 128, 64 and 32 bytes dividing its "
             "%lld-byte rows (%s)",
             r->swizzle, row,
             operand                        ? "the consumers' fragment reads spread over "
                                              "all 32 banks"
             : ws_ring_is_epilogue(plan, r) ? "the consumers' fragment writes spread over "
                                              "all 32 banks"
             : ws_plan_find_role(plan, WS_ROLE_MMA) >= 0
                 ? "tcgen05.mma reads it through that swizzle"
                 : "wgmma reads it through that swizzle");
}

void ws_explain_memory(const ws_plan *plan, const char *depth_why, int budget,
                       const ws_pass_env *env) {
  char tile[128], why[256];
  for (int i = 0; i < plan->num_rings; i++) {
    const ws_ring *r = &plan->rings[i];
    const ws_channel *c = &plan->channels[r->channel];
    swizzle_reason(plan, r, why, sizeof why);
    ws_remark(env, loc_of(r->producer),
              "ring %d: %s of %d bytes crosses from %s to %s "
              "(channel %d)%s; slots of %d bytes (aligned to %d: %s); %s; depth %d: "
              "%lld bytes at [%d, %lld)",
              i, ws_type_str(r->tile, tile, sizeof tile), ws_tile_bytes(r->tile),
              plan->parts[c->from].name, plan->parts[c->to].name, r->channel,
              r->split == WS_SPLIT_PAIR        ? ", split across the pair (split = \"pair\": each "
                                                 "CTA's slot holds its part of the rows, which "
                                                 "the leader's MMA reads in both)"
              : r->split == WS_SPLIT_MULTICAST ? ", shared by the cluster (split = "
                                                 "\"multicast\": each CTA copies its part "
                                                 "of the rows into every CTA's slot)"
              : r->parts > 1 ? ", one TMA box of the C tile a slot (store-boxes: the "
                               "compute warps publish each box as soon as it is written, "
                               "and the store warp stores it while they write the next)"
                             : "",
              r->slot_bytes, r->align,
              r->swizzle ? "a swizzled TMA box starts on a "
                           "1024-byte boundary"
                         : "a TMA box starts on a 128-byte boundary",
              why, c->depth, ws_ring_bytes(plan, r), r->offset, r->offset + ws_ring_bytes(plan, r));
  }
  ws_text t;
  ws_text_grown(&t);
  for (int i = 0; i < plan->num_rings; i++)
    ws_text_appendf(&t, "ring %d [%d, %lld), ", i, plan->rings[i].offset,
                    plan->rings[i].offset + ws_ring_bytes(plan, &plan->rings[i]));
  for (int c = 0; c < plan->num_channels; c++)
    ws_text_appendf(&t, "channel %d barriers [%d, %d)%s", c, plan->channels[c].full,
                    plan->channels[c].empty + 8 * plan->channels[c].depth,
                    c + 1 < plan->num_channels ? ", " : "");
  if (plan->row_scratch_bytes)
    ws_text_appendf(&t, ", row scratch [%d, %d) (a row that spans warps meets there)",
                    plan->row_scratch, plan->row_scratch + plan->row_scratch_bytes);
  ws_remark(env, loc_of(plan->loop), "ring depths: %s; shared memory: %d of %d bytes: %s",
            depth_why, plan->smem_bytes, budget, t.buf);
  ws_text_release(&t);
}

/* Where a cluster channel's arrivals go, when not only to the CTA's own
 * barriers: a pair's leader-side barriers and the multicast commits. */
static void explain_reach(const ws_pass_env *env, MlirLocation loc, const ws_plan *plan, int c) {
  const ws_channel *ch = &plan->channels[c];
  bool commits = plan->parts[ch->to].role == WS_ROLE_MMA;
  if (ch->full_to == WS_REACH_LEADER)
    ws_remark(env, loc,
              "channel %d: the full barrier is the leader's (CTA 0): every CTA's "
              "copies complete on it, only the leader's load warp arrives (expecting the "
              "pair's %d bytes) and only its MMA warp waits; the other load warp does not "
              "arrive",
              c, ch->expect_tx);
  if (ch->full_to == WS_REACH_EVERY)
    ws_remark(env, loc,
              "channel %d: the leader's commit arrives on the full barrier of "
              "every CTA of the pair (tcgen05.commit multicast): each epilogue then reads "
              "its own rows",
              c);
  if (ch->empty_to == WS_REACH_EVERY && commits)
    ws_remark(env, loc,
              "channel %d: the leader's commit releases the slot in every CTA of "
              "the pair (tcgen05.commit multicast to each one's empty barrier), since its "
              "MMA reads all of them; each load warp waits for its last %d releases before "
              "it exits, so that no commit lands in a CTA that has left",
              c, ch->depth);
}

void ws_explain_protocol(const ws_plan *plan, const ws_register_math *m, const ws_pass_env *env) {
  MlirLocation loc = loc_of(plan->loop);
  char text[WS_MAX_PARTS * (WS_PART_NAME_MAX + 24)];
  ws_text t;
  ws_text_init(&t, text, sizeof text);
  for (int p = 0; p < plan->num_parts; p++) {
    const ws_partition *part = &plan->parts[p];
    ws_text_appendf(&t, "%s%s warp%s %d", p ? ", " : "", part->name, part->num_warps > 1 ? "s" : "",
                    part->first_warp);
    if (part->num_warps > 1)
      ws_text_appendf(&t, "-%d", part->first_warp + part->num_warps - 1);
  }
  bool tcgen05 = ws_plan_find_role(plan, WS_ROLE_MMA) >= 0;
  ws_remark(env, loc,
            "warp layout: %s; %d threads in %d warpgroup(s): compute warps "
            "first (whole warpgroups, as %s and setmaxnreg need), the load%s and store "
            "warps share the next warpgroup",
            text, m->threads, (m->threads + 127) / 128, tcgen05 ? "tcgen05.ld" : "wgmma",
            tcgen05 ? ", MMA" : "");
  char why[192] = "";
  if (ws_plan_is_matmul(plan))
    snprintf(why, sizeof why, " for a matmul: its consumers hold the accumulator");
  else if (ws_plan_carries_row_vectors(plan))
    snprintf(why, sizeof why,
             " for a loop over a row's chunks: each block fills and "
             "drains its ring once");
  else if (ws_plan_is_row_block_loop(plan))
    snprintf(why, sizeof why,
             " for a loop over blocks of rows: the most, up to 4, whose "
             "entry cap is at least twice the %d elements a compute thread holds of a tile",
             ws_plan_tile_elements_per_thread(plan));
  ws_remark(env, loc,
            "registers: %d block(s) per SM (the fewer of %s%d%s, and the %d that "
            "shared memory allows); entry cap %d = 65536 / %d / %d threads, down to a "
            "multiple of 8 (at most 248); pool %d x %d = %ld",
            m->blocks, why[0] && !ws_plan_is_matmul(plan) ? "" : "max-blocks-per-sm, ",
            m->max_blocks, why, m->by_smem, m->cap, m->blocks, m->threads, m->cap, m->threads,
            m->pool);
  if (m->compute_threads)
    ws_remark(env, loc,
              "registers: the producer warpgroup drops to %d (setmaxnreg.dec, "
              "%d x 128 = %d), the compute warpgroups take (%ld - %d) / %d threads = %d "
              "each (setmaxnreg.inc, a multiple of 8, at most 256): %ld of the pool's %ld",
              m->producer_regs, m->producer_regs, m->producer_regs * 128, m->pool,
              m->producer_regs * 128, m->compute_threads, m->compute_regs,
              (long)m->compute_regs * m->compute_threads + m->producer_regs * 128L, m->pool);
  for (int c = 0; c < plan->num_channels; c++) {
    const ws_channel *ch = &plan->channels[c];
    const char *from = plan->parts[ch->from].name, *to = plan->parts[ch->to].name;
    char tx[96] = "";
    if (ch->expect_tx)
      snprintf(tx, sizeof tx, " with expect-tx of %d bytes (every box TMA writes)", ch->expect_tx);
    if (ch->from == ch->to) {
      ws_remark(env, loc,
                "channel %d (%s -> %s): the turn of its warpgroups: %d slot; "
                "the warpgroup whose turn ends arrives with its %d threads, the next "
                "waits for that phase before its wgmmas",
                c, from, to, ch->depth, ch->full_arrivals);
      continue;
    }
    bool commits_full = plan->parts[ch->from].role == WS_ROLE_MMA;
    bool commits_empty = plan->parts[ch->to].role == WS_ROLE_MMA;
    ws_remark(env, loc,
              "channel %d (%s -> %s): %d slot%s; the full barrier counts %d "
              "arrival%s (%s)%s, the empty barrier %d (%s); %s waits on empty from phase "
              "%d (a fresh slot is free), %s on full from phase %d",
              c, from, to, ch->depth, ch->depth == 1 ? "" : "s", ch->full_arrivals,
              ch->full_arrivals == 1 ? "" : "s",
              commits_full             ? "tcgen05.commit from the MMA warp: it lands once "
                                         "the tile's MMAs are done"
              : ch->full_arrivals == 1 ? "one elected lane"
                                       : "every compute thread",
              tx, ch->empty_arrivals,
              commits_empty                     ? "tcgen05.commit from the MMA warp: it lands once "
                                                  "the MMAs that read the slot are done"
              : ch->empty_arrivals == 1         ? "one lane, once its TMA store has read the slot"
              : ch->empty_to == WS_REACH_EVERY  ? "one lane of each compute warp of every CTA of "
                                                  "the cluster, after its last read: each "
                                                  "CTA's load warp writes into every CTA's slots"
              : ch->empty_to == WS_REACH_LEADER ? "one lane of each compute warp of every CTA "
                                                  "of the pair, after its last read: the "
                                                  "leader's MMA writes every CTA's rows"
                                                : "every compute thread, after its last read",
              from, ch->producer_phase, to, ch->consumer_phase);
    explain_reach(env, loc, plan, c);
    if (ch->release_fence)
      ws_remark(env, loc,
                "channel %d: fence.proxy.async before %s releases a slot: its "
                "generic reads must be ordered before TMA (the async proxy) refills it",
                c, to);
    if (ch->publish_fence)
      ws_remark(env, loc,
                "channel %d: fence.proxy.async after %s writes a slot and before "
                "it publishes it: the TMA store reads it through the async proxy",
                c, from);
    if (!ch->release_fence && !ch->publish_fence)
      ws_remark(env, loc, "channel %d: no proxy fence: %s", c,
                ws_plan_is_matmul(plan) && plan->parts[ch->from].role == WS_ROLE_LOAD
                    ? (tcgen05 ? "TMA writes the slots and tcgen05.mma reads them, both "
                                 "through the async proxy"
                               : "TMA writes the slots and wgmma reads them, both through "
                                 "the async proxy")
                : plan->tmem.tile.ptr && c == plan->tmem.channel
                    ? "its buffers are in tensor memory, ordered by tcgen05 fences around "
                      "the barrier waits and arrivals instead"
                    : "no generic access of its slots meets an async one");
    if (ch->drain && ws_plan_is_matmul(plan) && ws_channel_is_epilogue(plan, c) &&
        mlirOperationIsNull(ws_plan_tile_loop(plan)))
      ws_remark(env, loc,
                "channel %d: %s stores each of its %d slots as it fills (one C tile "
                "a block: no slot is filled twice, so none is released) and drains the "
                "stores before it exits",
                c, to, ch->depth);
    else if (ch->drain)
      ws_remark(env, loc,
                "channel %d: %s keeps %d TMA store%s in flight "
                "(cp.async.bulk.wait_group.read %d) and releases the slot of the store "
                "issued %d step%s before; it drains them all before it exits",
                c, to, ch->drain, ch->drain == 1 ? "" : "s", ch->drain, ch->drain,
                ch->drain == 1 ? "" : "s");
  }
}
