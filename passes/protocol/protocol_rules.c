/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* protocol_rules.c: the rules of ws-check-protocol that need no
 * interleaving: each is decided by one agent's events in order, or by sums
 * over all agents for one barrier phase. The exploration
 * (protocol_explore.c) relies on them: it assumes every agent's iteration
 * counters are in order and its async reads retire where done_at says. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ws_protocol.h"
#include "../target/ws_target.h"
#include "../../dialect/ws_text.h"

enum { WARPGROUP = 128 };

/* ---- memory map ---------------------------------------------------------- */

typedef struct span {
  long long lo, hi;
  const char *what;
  int index;
} span;

/* The memory rule over `spans`, room for every channel's two barrier
 * arrays and every ring. */
static bool check_spans(const ws_plan *plan, span *spans) {
  int n = 0;
  for (int c = 0; c < plan->num_channels; c++) {
    const ws_channel *ch = &plan->channels[c];
    spans[n++] = (span){ch->full, ch->full + 8LL * ch->depth, "full barriers of channel", c};
    spans[n++] = (span){ch->empty, ch->empty + 8LL * ch->depth, "empty barriers of channel", c};
  }
  int barriers = n;
  for (int r = 0; r < plan->num_rings; r++) {
    const ws_ring *ring = &plan->rings[r];
    spans[n++] = (span){ring->offset, ring->offset + ws_ring_bytes(plan, ring), "ring", r};
  }
  for (int i = 0; i < n; i++) {
    if (spans[i].lo < 0 || spans[i].hi > plan->smem_bytes)
      return ws_rule_error(plan->func, "memory",
                           "the %s %d lies at bytes [%lld, %lld), "
                           "outside the kernel's %d bytes of shared memory",
                           spans[i].what, spans[i].index, spans[i].lo, spans[i].hi,
                           plan->smem_bytes);
    for (int j = 0; j < i; j++) {
      bool overlap = spans[i].lo < spans[j].hi && spans[j].lo < spans[i].hi;
      /* Rings of different channels may share memory (a matmul's C tile
       * over its A and B rings): the exploration proves them apart in time. */
      bool rings_apart = i >= barriers && j >= barriers &&
                         plan->rings[spans[i].index].channel != plan->rings[spans[j].index].channel;
      if (overlap && !rings_apart)
        return ws_rule_error(plan->func, "memory",
                             "the %s %d [%lld, %lld) overlaps the "
                             "%s %d [%lld, %lld)",
                             spans[i].what, spans[i].index, spans[i].lo, spans[i].hi, spans[j].what,
                             spans[j].index, spans[j].lo, spans[j].hi);
    }
  }
  return true;
}

/* The alignment TMA needs of a ring's slots: 128 bytes, and a swizzled
 * box's whole pattern (8 rows of the swizzle span: 1024 bytes for 128). */
static int ring_alignment_need(const ws_ring *ring) {
  int pattern = 8 * ring->swizzle;
  return pattern > 128 ? pattern : 128;
}

/* The align rule: every mbarrier on 8 bytes; every ring at its row's
 * alignment, a power of two that covers what its TMA boxes need, with
 * slots a multiple of it apart; tensor memory allocated in a power of two
 * of at least 32 columns that the SM has and the buffers fit, its address
 * word on 4 bytes. A misaligned one faults on the GPU (or, for a swizzled
 * box, reads the wrong bytes). */
static bool check_alignment(const ws_plan *plan) {
  for (int c = 0; c < plan->num_channels; c++) {
    const ws_channel *ch = &plan->channels[c];
    if (ch->full % 8 || ch->empty % 8)
      return ws_rule_error(plan->func, "align",
                           "the %s barriers of channel %d start at byte %d; an mbarrier is "
                           "8 bytes on an 8-byte boundary",
                           ch->full % 8 ? "full" : "empty", c, ch->full % 8 ? ch->full : ch->empty);
  }
  for (int r = 0; r < plan->num_rings; r++) {
    const ws_ring *ring = &plan->rings[r];
    int need = ring_alignment_need(ring);
    if (ring->align < need || (ring->align & (ring->align - 1)))
      return ws_rule_error(plan->func, "align",
                           "ring %d is aligned to %d bytes; its TMA boxes (swizzle %d) need a "
                           "power of two of at least %d",
                           r, ring->align, ring->swizzle, need);
    if (ring->offset % ring->align || ring->slot_bytes % ring->align)
      return ws_rule_error(plan->func, "align",
                           "ring %d starts at byte %d with slots %d bytes apart; both must be "
                           "multiples of its alignment, %d",
                           r, ring->offset, ring->slot_bytes, ring->align);
  }
  const ws_tmem *t = &plan->tmem;
  if (!t->tile.ptr)
    return true;
  int columns = ws_target_of(plan->func) ? ws_target_of(plan->func)->tmem_columns : 0;
  int used =
      t->columns *
      (t->channel >= 0 && t->channel < plan->num_channels ? plan->channels[t->channel].depth : 1);
  const ws_mma_engine *engine = ws_mma_engine_of(plan->func);
  for (int i = 0; i < t->num_scales && i < WS_MAX_SCALE_ATOMS && engine; i++)
    if (t->scale_column[i] + engine->scale_atom_columns > used)
      used = t->scale_column[i] + engine->scale_atom_columns;
  if (t->allocated < 32 || (t->allocated & (t->allocated - 1)) || t->allocated > columns ||
      used > t->allocated)
    return ws_rule_error(plan->func, "align",
                         "tensor memory is allocated %d columns for buffers of %d; tcgen05.alloc "
                         "takes a power of two from 32 to the SM's %d, and the buffers must fit",
                         t->allocated, used, columns);
  if (t->address % 4)
    return ws_rule_error(plan->func, "align",
                         "tcgen05.alloc writes tensor memory's address at byte %d; the word is "
                         "on a 4-byte boundary",
                         t->address);
  return true;
}

bool ws_check_memory_map(const ws_plan *plan) {
  if (!check_alignment(plan))
    return false;
  span *spans = ws_zalloc(2 * (size_t)plan->num_channels + (size_t)plan->num_rings, sizeof *spans);
  bool ok = check_spans(plan, spans);
  free(spans);
  return ok;
}

/* ---- one agent ----------------------------------------------------------- */

typedef struct pending {
  int index, group; /* event index; commit group it belongs to */
} pending;

/* Async reads (wgmma or bulk store) in flight, by commit group. */
typedef struct async_reads {
  pending *items;
  long cap;
  int n, committed;
} async_reads;

static void async_issue(async_reads *q, int index) {
  q->items = ws_grow(q->items, &q->cap, q->n + 1, sizeof *q->items);
  q->items[q->n++] = (pending){index, q->committed};
}

/* wait_group N: every committed group but the newest N is done. */
static void async_retire(async_reads *q, ws_agent *A, int at, int left) {
  int keep = 0;
  for (int i = 0; i < q->n; i++) {
    if (q->items[i].group < q->committed - left)
      A->done_at[q->items[i].index] = at;
    else
      q->items[keep++] = q->items[i];
  }
  q->n = keep;
}

/* The first in-flight read of (channel, slot, iter), or -1. */
static int async_reading(const async_reads *q, const ws_agent *A, const ws_event *rel) {
  for (int i = 0; i < q->n; i++) {
    const ws_event *e = &A->ev[q->items[i].index];
    if (e->channel == rel->channel && e->slot == rel->slot && e->iter == rel->iter)
      return q->items[i].index;
  }
  return -1;
}

typedef struct agent_state {
  /* waits on the agent's own CTA's barriers; arrives on each CTA's */
  long long (*waits)[2];                   /* [channel][full] */
  long long (*arrives)[WS_MAX_CLUSTER][2]; /* [channel][cta][full] */
  int *dirty;                              /* generic accesses since the last proxy fence */
  int num_dirty;
  long dirty_cap;
  async_reads wgmma, bulk;
  /* tcgen05: ops not yet committed (tc), every one issued (tc_all), where
   * the last wait on each barrier and the last fence::after_thread_sync
   * are, and a tcgen05.ld not yet fenced before a thread sync */
  async_reads tc, tc_all;
  int (*last_wait)[2]; /* [channel][full] */
  int fence_after, unfenced_read;
  int *last_copy; /* the last ws.tmem_copy of each ring, or -1 */
} agent_state;

/* Async-proxy users of each channel's slots: TMA writes (producer side),
 * wgmma or TMA-store reads (consumer side). */
typedef struct proxy_use {
  bool *async_write, *async_read; /* per channel */
  MlirOperation *writer, *reader; /* per channel */
} proxy_use;

static void find_proxy_use(const ws_run *run, proxy_use *u) {
  size_t n = (size_t)run->plan->num_channels;
  u->async_write = ws_zalloc(n, sizeof *u->async_write);
  u->async_read = ws_zalloc(n, sizeof *u->async_read);
  u->writer = ws_zalloc(n, sizeof *u->writer);
  u->reader = ws_zalloc(n, sizeof *u->reader);
  for (int a = 0; a < run->num_agents; a++)
    for (int k = 0; k < run->agents[a].n; k++) {
      const ws_event *e = &run->agents[a].ev[k];
      if (e->kind == EV_TMA_LOAD && !u->async_write[e->channel]) {
        u->async_write[e->channel] = true;
        u->writer[e->channel] = e->op;
      } else if ((e->kind == EV_MMA || e->kind == EV_TC_MMA || e->kind == EV_TMEM_COPY ||
                  e->kind == EV_TMA_STORE) &&
                 !u->async_read[e->channel]) {
        u->async_read[e->channel] = true;
        u->reader[e->channel] = e->op;
      }
    }
}

static const char *access_verb(int kind) {
  switch (kind) {
  case EV_TMA_LOAD:
    return "loads (TMA) into";
  case EV_WRITE:
    return "writes";
  case EV_READ:
    return "reads";
  case EV_MMA:
    return "reads (wgmma)";
  case EV_TC_MMA:
    return "reads (tcgen05.mma)";
  case EV_TMEM_COPY:
    return "copies (tcgen05.cp) from";
  case EV_TMEM_WRITE:
    return "writes (tcgen05.mma)";
  case EV_TMEM_READ:
    return "reads (tcgen05.ld)";
  default:
    return "stores (TMA) from";
  }
}

/* "slot 1 of ring 0", or "accumulator buffer 1" in tensor memory. */
static const char *access_what(const ws_event *e, char *buf, size_t cap) {
  if (e->ring < 0)
    snprintf(buf, cap, "tensor-memory accumulator buffer %d", e->slot);
  else
    snprintf(buf, cap, "slot %d of ring %d", e->slot, e->ring);
  return buf;
}

/* ws.mma_done (event k) reads the registers of a tile ws.mma ops write
 * asynchronously: the ws.mma that made it (value events back) must be
 * retired by a wgmma.wait_group first, or the math reads a product the
 * tensor cores are still writing. */
static bool check_mma_done(ws_agent *A, agent_state *s, int k) {
  const ws_event *e = &A->ev[k];
  if (e->value <= 0)
    return true; /* no ws.mma made this tile here */
  int made = k - e->value;
  char loc[64];
  for (int i = 0; i < s->wgmma.n; i++)
    if (s->wgmma.items[i].index == made) /* aux: a tile op's read, else ws.mma_done */
      return ws_rule_error(e->op, e->aux ? "wgmma-wait" : "mma-done",
                           "reads %sthe product of the ws.mma at %s while its wgmma may "
                           "still write it: no wgmma.wait_group retires that wgmma's group "
                           "before this %s",
                           e->aux ? "in registers " : "",
                           ws_op_where(A->ev[made].op, loc, sizeof loc),
                           e->aux ? "read" : "ws.mma_done");
  return true;
}

/* A slot access must sit between the wait that takes the slot for its
 * iteration and the arrive that hands it on, on any CTA's barrier (in a
 * cluster, each CTA whose load warp writes into the slot has its own). */
static bool check_access(const ws_run *run, agent_state *s, const ws_event *e) {
  int take = e->full, give = !e->full; /* readers take full, give empty */
  char what[64];
  int parts = e->kind == EV_WRITE ? run->plan->rings[e->ring].parts : 1;
  if (parts > 1 && e->aux != e->iter % parts)
    return ws_rule_error(e->op, "parts",
                         "writes part %d of its tile in iteration %lld of "
                         "ring %d, which holds its tile in %d parts: part %lld goes there "
                         "(part j of a tile in iteration n * %d + j), the part the store of "
                         "that slot takes",
                         e->aux, e->iter, e->ring, parts, e->iter % parts, parts);
  if (s->waits[e->channel][take] <= e->iter)
    return ws_rule_error(e->op, "balance",
                         "%s %s for iteration %lld "
                         "without first waiting on the %s barrier of channel %d for it",
                         access_verb(e->kind), access_what(e, what, sizeof what), e->iter,
                         ws_barrier_name(take), e->channel);
  /* A TMA load completes on the full barrier itself: it follows expect-tx. */
  for (int cta = 0; cta < run->ctas && e->kind != EV_TMA_LOAD; cta++)
    if (s->arrives[e->channel][cta][give] > e->iter)
      return ws_rule_error(e->op, "balance",
                           "%s %s for iteration %lld "
                           "after this partition already released it with an arrive on "
                           "the %s barrier%s",
                           access_verb(e->kind), access_what(e, what, sizeof what), e->iter,
                           ws_barrier_name(give), run->ctas > 1 ? " of a CTA of its cluster" : "");
  return true;
}

/* tcgen05 ops run asynchronously to the thread: a slot a tcgen05.mma reads
 * or the accumulator buffer it writes may be handed on only by a
 * tcgen05.commit to the barrier (ws.commit), whose arrival lands once they
 * are done; a plain arrive would hand them on while they run. */
static bool check_plain_arrive(const ws_agent *A, agent_state *s, const ws_event *e) {
  char loc[64], what[64];
  for (int i = 0; i < s->tc_all.n; i++) {
    const ws_event *t = &A->ev[s->tc_all.items[i].index];
    if (t->channel == e->channel && t->slot == e->slot && t->iter == e->iter)
      return ws_rule_error(e->op, "tcgen05-commit",
                           "hands %s (iteration %lld) on with a "
                           "plain arrive on the %s barrier of channel %d, but the %s at %s that "
                           "%s it runs asynchronously: only a tcgen05.commit to this barrier "
                           "(ws.commit) arrives once it is done",
                           access_what(t, what, sizeof what), e->iter, ws_barrier_name(e->full),
                           e->channel, t->kind == EV_TMEM_COPY ? "tcgen05.cp" : "tcgen05.mma",
                           ws_op_where(t->op, loc, sizeof loc),
                           t->kind == EV_TMEM_WRITE ? "writes" : "reads");
  }
  return true;
}

/* A block-scaled tcgen05.mma (ws.tmem's scale rings) reads the scales the
 * thread's last tcgen05.cp of each scale ring put in tensor memory: that
 * copy must be of the MMA's own slot and iteration (the tcgen05 ops run in
 * issue order, so a copy before the MMA is done before it reads). */
static bool check_scale_copies(const ws_run *run, const ws_agent *A, agent_state *s,
                               const ws_event *e) {
  char loc[64];
  for (int i = 0; i < run->plan->tmem.num_scales; i++) {
    int ring = run->plan->tmem.scale_ring[i];
    int c = s->last_copy[ring];
    if (c < 0)
      return ws_rule_error(e->op, "scale-copy",
                           "is block-scaled and reads the scales of "
                           "ring %d for iteration %lld, but no ws.tmem_copy (tcgen05.cp) of "
                           "that ring comes before it",
                           ring, e->iter);
    if (A->ev[c].iter != e->iter || A->ev[c].slot != e->slot)
      return ws_rule_error(e->op, "scale-copy",
                           "is block-scaled and reads the scales of "
                           "ring %d for iteration %lld (slot %d), but the last ws.tmem_copy of "
                           "that ring before it (at %s) copied iteration %lld (slot %d)",
                           ring, e->iter, e->slot, ws_op_where(A->ev[c].op, loc, sizeof loc),
                           A->ev[c].iter, A->ev[c].slot);
  }
  return true;
}

/* Tensor memory and thread syncs (PTX's tcgen05 memory model): an access
 * after a barrier wait that orders it after another thread's tcgen05 ops
 * needs tcgen05.fence::after_thread_sync between the wait and it; a
 * tcgen05.ld before an arrive that hands the buffer on needs
 * tcgen05.fence::before_thread_sync between them. */
static bool check_tc_fence(const ws_agent *A, agent_state *s, const ws_event *e) {
  char loc[64];
  if (e->kind == EV_TMEM_READ || e->kind == EV_TMEM_WRITE) {
    int wait = s->last_wait[e->channel][e->full];
    if (s->fence_after <= wait)
      return ws_rule_error(e->op, "tcgen05-fence",
                           "%s tensor-memory accumulator buffer %d "
                           "after the wait on the %s barrier of channel %d at %s with no "
                           "tcgen05.fence::after_thread_sync in between: the %s may be seen "
                           "out of order",
                           e->kind == EV_TMEM_READ ? "reads" : "writes", e->slot,
                           ws_barrier_name(e->full), e->channel,
                           ws_op_where(A->ev[wait].op, loc, sizeof loc),
                           e->kind == EV_TMEM_READ ? "MMAs' writes" : "epilogue's reads");
    return true;
  }
  if (e->kind == EV_ARRIVE && s->unfenced_read >= 0 &&
      A->ev[s->unfenced_read].channel == e->channel)
    return ws_rule_error(e->op, "tcgen05-fence",
                         "hands accumulator buffer %d back after "
                         "the tcgen05.ld at %s with no tcgen05.fence::before_thread_sync in "
                         "between: the next MMAs may overwrite it before the load has read it",
                         e->slot, ws_op_where(A->ev[s->unfenced_read].op, loc, sizeof loc));
  return true;
}

/* A release may hand a slot to the async proxy only after a proxy fence
 * ends this partition's generic accesses of it, and only once the wgmma or
 * bulk-store reads of it are retired. */
static bool check_release(ws_agent *A, agent_state *s, const ws_event *e, const proxy_use *u) {
  char loc[64], loc2[64];
  bool to_async = e->full ? u->async_read[e->channel] : u->async_write[e->channel];
  for (int d = 0; d < s->num_dirty && to_async; d++) {
    const ws_event *g = &A->ev[s->dirty[d]];
    if (g->channel == e->channel && g->slot == e->slot && g->iter == e->iter)
      return ws_rule_error(
          e->op, "proxy-fence",
          "hands slot %d of channel %d to the async "
          "proxy (%s at %s) after a generic-proxy %s of it (%s at %s) with "
          "no fence.proxy.async of shared memory (kind async, or async.shared of the CTA or cluster) in between",
          e->slot, e->channel, e->full ? "its reader" : "the TMA refill",
          ws_op_where(e->full ? u->reader[e->channel] : u->writer[e->channel], loc, sizeof loc),
          g->kind == EV_READ ? "read" : "write",
          g->kind == EV_READ ? "ws.read_slot" : "ws.write_slot",
          ws_op_where(g->op, loc2, sizeof loc2));
  }
  if (e->full)
    return true;
  int w = async_reading(&s->wgmma, A, e);
  if (w >= 0)
    return ws_rule_error(e->op, "wgmma-wait",
                         "releases slot %d of channel %d (iteration "
                         "%lld) while the ws.mma at %s that reads it may still run: no "
                         "wgmma.wait_group covers it before this arrive",
                         e->slot, e->channel, e->iter, ws_op_where(A->ev[w].op, loc, sizeof loc));
  int b = async_reading(&s->bulk, A, e);
  if (b >= 0)
    return ws_rule_error(e->op, "bulk-wait",
                         "releases slot %d of channel %d (iteration "
                         "%lld) while the TMA store at %s may still read it: no "
                         "cp.async.bulk.wait_group.read covers it before this arrive",
                         e->slot, e->channel, e->iter, ws_op_where(A->ev[b].op, loc, sizeof loc));
  return true;
}

/* True when wait e (event k of agent A) waits again for the iteration the
 * agent's last wait on that barrier was for, with no event of its own
 * between that could let the barrier's phase move on (an arrive, an
 * expected transfer, a copy or a commit on the channel): the phase it
 * waited for is complete and stays so, and the wait passes at once. */
static bool repeats_last_wait(const ws_agent *A, const agent_state *s, const ws_event *e, int k) {
  int last = s->last_wait[e->channel][e->full];
  if (last < 0 || A->ev[last].iter != e->iter || A->ev[last].cta != e->cta)
    return false;
  for (int j = last + 1; j < k; j++) {
    const ws_event *x = &A->ev[j];
    if (x->channel == e->channel &&
        (x->kind == EV_ARRIVE || x->kind == EV_EXPECT_TX || x->kind == EV_TMA_LOAD ||
         x->kind == EV_TMA_STORE || x->kind == EV_TC_COMMIT || x->kind == EV_TC_MMA ||
         x->kind == EV_MMA))
      return false;
  }
  return true;
}

static bool check_agent(const ws_run *run, ws_agent *A, const proxy_use *u) {
  agent_state *s = ws_zalloc(1, sizeof *s);
  size_t channels = (size_t)run->plan->num_channels, rings = (size_t)run->plan->num_rings;
  s->waits = ws_zalloc(channels, sizeof *s->waits);
  s->arrives = ws_zalloc(channels, sizeof *s->arrives);
  s->last_wait = ws_zalloc(channels, sizeof *s->last_wait);
  s->last_copy = ws_zalloc(rings, sizeof *s->last_copy);
  for (size_t r = 0; r < rings; r++)
    s->last_copy[r] = -1;
  bool ok = true;
  /* Ping-pong consumers take every other tile: a warpgroup's waits and
   * arrives skip the other's iterations (the sums over agents check that
   * every phase still gets its arrivals, and its count of them). So do
   * both warpgroups' on a turn channel. */
  bool pingpong = A->part >= 0 && run->plan->parts[A->part].pingpong;
  s->fence_after = s->unfenced_read = -1;
  for (size_t c = 0; c < channels; c++)
    s->last_wait[c][0] = s->last_wait[c][1] = -1;
  for (int k = 0; k < A->n && ok; k++) {
    ws_event *e = &A->ev[k];
    A->done_at[k] = k;
    switch (e->kind) {
    case EV_CTA_SYNC:
      ok = ws_rule_error(e->op, "barrier",
                         "is a block-wide barrier (bar.sync 0: nvvm.barrier0, gpu.barrier) "
                         "among the protocol's ops: it waits for every thread of the block, "
                         "which the other partitions never bring; a specialized kernel has "
                         "one, after the barrier inits, before the partitions");
      break;
    case EV_INIT:
    case EV_INIT_FENCE:
      ok = ws_rule_error(e->op, "init",
                         "runs after other protocol ops or with no "
                         "block-wide barrier before them: barriers must be initialized, "
                         "fenced and published with nvvm.barrier0 before any thread "
                         "uses them");
      break;
    case EV_CLUSTER_ARRIVE:
    case EV_CLUSTER_WAIT:
      ok = ws_rule_error(e->op, "cluster-sync",
                         "is a cluster barrier among the protocol's "
                         "other ops: a cluster kernel has two, after the barrier inits (both "
                         "halves) and as every thread's last ops, and no other (a "
                         "restriction of the check: one that every thread of every CTA "
                         "reaches would not hang, but the check does not follow it)");
      break;
    case EV_WAIT:
    case EV_ARRIVE:
    case EV_EXPECT_TX: {
      bool wait = e->kind == EV_WAIT;
      long long *count =
          wait ? &s->waits[e->channel][e->full] : &s->arrives[e->channel][e->cta][e->full];
      /* a turn channel (consumers to themselves) alternates as well */
      const ws_channel *ch = &run->plan->channels[e->channel];
      bool alternates = pingpong || ch->from == ch->to;
      char cta[32] = "";
      if (run->ctas > 1)
        snprintf(cta, sizeof cta, " of CTA %d", e->cta);
      if (e->iter > *count && alternates) {
        *count = e->iter; /* the other warpgroup's tiles came between */
      } else if (e->iter > *count && e->iter - *count < ws_run_span(run) + 1) {
        ok = ws_rule_error(e->op, "balance",
                           "this partition's %ss on the %s barrier of "
                           "channel %d%s skip iteration %lld (this one is for iteration %lld): "
                           "the %s is not on every path (an scf.if around it?)%s",
                           wait ? "wait" : "arrive", ws_barrier_name(e->full), e->channel, cta,
                           *count, e->iter, wait ? "wait" : "arrive",
                           run->ctas > 1 && !wait ? ", or not to every CTA that needs it (a "
                                                    "cluster channel's release goes to each: "
                                                    "ws.arrive {cluster})"
                                                  : "");
        break;
      }
      if (!wait && e->iter < *count && e->iter >= 0) {
        ok = ws_rule_error(e->op, "counts",
                           "arrives on the %s barrier of channel %d for "
                           "iteration %lld a second time: that phase gets more arrivals "
                           "than its count",
                           ws_barrier_name(e->full), e->channel, e->iter);
        break;
      }
      if (wait && repeats_last_wait(A, s, e, k))
        break; /* its phase is complete and cannot move on before this agent frees it */
      if (e->iter != *count) {
        ok = ws_rule_error(e->op, "phases",
                           "is this partition's %s %s on the %s barrier of "
                           "channel %d since the start (iteration %lld), but its slot and "
                           "phase are those of iteration %lld: slot = i mod depth and the "
                           "phase flip every depth iterations do not hold",
                           *count == 0 ? "first" : "next", wait ? "wait" : "arrive",
                           ws_barrier_name(e->full), e->channel, *count, e->iter);
        break;
      }
      ++*count;
      if (wait)
        s->last_wait[e->channel][e->full] = k;
      if (!wait && e->kind == EV_ARRIVE && !e->aux)
        ok = check_plain_arrive(A, s, e);
      if (ok && !wait)
        ok = check_tc_fence(A, s, e) && check_release(A, s, e, u);
      break;
    }
    case EV_TMEM_COPY: /* read until a commit; the step's MMAs read what it copies */
      ok = check_access(run, s, e);
      async_issue(&s->tc, k);
      async_issue(&s->tc_all, k);
      s->last_copy[e->ring] = k;
      break;
    case EV_TC_MMA:
    case EV_TMEM_WRITE:
    case EV_TMEM_READ:
      ok = check_access(run, s, e) && check_tc_fence(A, s, e) &&
           (e->kind != EV_TC_MMA || check_scale_copies(run, A, s, e));
      if (e->kind == EV_TMEM_READ) {
        s->unfenced_read = k;
      } else {
        async_issue(&s->tc, k);
        async_issue(&s->tc_all, k);
      }
      break;
    case EV_TC_COMMIT: /* done once the commit's arrival (the next event) lands */
      s->tc.committed++;
      async_retire(&s->tc, A, k + 1, 0);
      break;
    case EV_TC_FENCE:
      if (e->aux)
        s->unfenced_read = -1;
      else
        s->fence_after = k;
      break;
    case EV_TMEM_ALLOC:
      ok = ws_rule_error(e->op, "tmem-alloc",
                         "allocates tensor memory after the block-wide "
                         "barrier that publishes the mbarriers: allocate before it (one whole "
                         "warp), so that every warp uses tensor memory after the allocation");
      break;
    case EV_TMEM_DEALLOC:
      ok = ws_rule_error(e->op, "tmem-dealloc",
                         "frees tensor memory before a block-wide "
                         "barrier that every thread reaches after its last tensor-memory "
                         "access: the epilogue's tcgen05.ld or the MMAs may still use it");
      break;
    case EV_TMA_LOAD:
    case EV_WRITE:
    case EV_READ:
    case EV_MMA:
    case EV_TMA_STORE:
      ok = check_access(run, s, e);
      if (e->kind == EV_READ || e->kind == EV_WRITE) {
        s->dirty = ws_grow(s->dirty, &s->dirty_cap, s->num_dirty + 1, sizeof *s->dirty);
        s->dirty[s->num_dirty++] = k;
      } else if (e->kind == EV_MMA) {
        async_issue(&s->wgmma, k);
      } else if (e->kind == EV_TMA_STORE) {
        async_issue(&s->bulk, k);
      }
      break;
    case EV_PROXY_FENCE:
      s->num_dirty = 0;
      break;
    case EV_WGMMA_COMMIT:
      s->wgmma.committed++;
      break;
    case EV_WGMMA_WAIT:
      async_retire(&s->wgmma, A, k, e->value);
      break;
    case EV_MMA_DONE:
      ok = check_mma_done(A, s, k);
      break;
    case EV_BULK_COMMIT:
      s->bulk.committed++;
      break;
    case EV_BULK_WAIT:
      async_retire(&s->bulk, A, k, e->value);
      break;
    default:
      break;
    }
  }
  if (ok && s->wgmma.n)
    ok = ws_rule_error(A->ev[s->wgmma.items[0].index].op, "wgmma-wait",
                       "may still read "
                       "shared memory when its partition exits: no wgmma.wait_group "
                       "retires it");
  if (ok && s->bulk.n)
    ok = ws_rule_error(A->ev[s->bulk.items[0].index].op, "bulk-wait",
                       "may still read "
                       "shared memory when its partition exits: no cp.async.bulk.wait_group "
                       "drains it");
  if (ok && s->tc.n)
    ok = ws_rule_error(A->ev[s->tc.items[0].index].op, "tcgen05-commit",
                       "may still run "
                       "when its partition exits: no ws.commit (tcgen05.commit) after it "
                       "tracks its completion");
  for (int k = 0; k < s->tc.n; k++)
    A->done_at[s->tc.items[k].index] = A->n;
  for (int k = 0; k < s->wgmma.n; k++)
    A->done_at[s->wgmma.items[k].index] = A->n;
  for (int k = 0; k < s->bulk.n; k++)
    A->done_at[s->bulk.items[k].index] = A->n;
  free(s->dirty);
  free(s->wgmma.items);
  free(s->bulk.items);
  free(s->tc.items);
  free(s->tc_all.items);
  free(s->waits);
  free(s->arrives);
  free(s->last_wait);
  free(s->last_copy);
  free(s);
  return ok;
}

/* Tensor memory's lifetime (sm_100a): one whole warp allocates it before
 * the block-wide barrier after the barrier inits, fenced before that
 * barrier; the same warp frees it after the kernel's last block-wide
 * barrier, which every thread reaches after its last tensor-memory access
 * (its tcgen05.ld fenced before it), with a fence::after_thread_sync
 * between that barrier and the dealloc. */
static bool check_tmem_lifetime(const ws_run *run) {
  MlirOperation func = run->plan->func;
  if (!run->plan->tmem.tile.ptr)
    return true;
  if (mlirOperationIsNull(run->tmem_alloc))
    return ws_rule_error(func, "tmem-alloc",
                         "uses tensor memory (ws.tmem) but no warp "
                         "allocates it (ws.tmem_alloc) before the block-wide barrier after the "
                         "barrier inits");
  if (run->alloc_threads != 32 * run->ctas)
    return ws_rule_error(run->tmem_alloc, "tmem-alloc",
                         "is run by %d thread(s)%s; "
                         "tcgen05.alloc is .sync.aligned: exactly one whole warp runs it",
                         run->alloc_threads,
                         run->ctas > 1 ? " of the pair (one warp of each CTA "
                                         "allocates together)"
                                       : "");
  if (!run->alloc_fenced)
    return ws_rule_error(run->tmem_alloc, "tcgen05-fence",
                         "is not followed by "
                         "tcgen05.fence::before_thread_sync before the block-wide barrier "
                         "that publishes the allocation");
  if (mlirOperationIsNull(run->tmem_dealloc))
    return ws_rule_error(func, "tmem-dealloc",
                         "never frees its tensor memory after the "
                         "last block-wide barrier (ws.tmem_dealloc): the next block on the SM "
                         "would wait for it forever");
  if (run->final_threads != run->threads)
    return ws_rule_error(run->final_sync, "tmem-dealloc",
                         "is the barrier the dealloc "
                         "waits behind, but %d of the block's %d threads reach it",
                         run->final_threads, run->threads);
  if (run->dealloc_threads != 32 * run->ctas || run->dealloc_warp != run->alloc_warp)
    return ws_rule_error(run->tmem_dealloc, "tmem-dealloc",
                         "is run by %d thread(s) of warp "
                         "%d; the warp that allocated (warp %d) frees, all 32 lanes",
                         run->dealloc_threads, run->dealloc_warp, run->alloc_warp);
  if (!run->dealloc_fenced)
    return ws_rule_error(run->tmem_dealloc, "tcgen05-fence",
                         "follows the block-wide "
                         "barrier with no tcgen05.fence::after_thread_sync in between");
  if (!mlirOperationIsNull(run->unfenced_read))
    return ws_rule_error(run->unfenced_read, "tcgen05-fence",
                         "is a thread's last "
                         "tensor-memory read, with no tcgen05.fence::before_thread_sync before "
                         "the barrier the dealloc waits behind");
  return true;
}

/* ---- sums over agents ---------------------------------------------------- */

typedef struct phase_sum {
  int cta, channel, full;
  long long iter;
  int arrivals, expect, tma;
  MlirOperation first_arrive, first_expect, first_tma;
  MlirOperation remote_commit; /* a peer's tcgen05.commit arriving (asynchronously) */
} phase_sum;

typedef struct sums {
  phase_sum *items;
  int n, cap;
} sums;

static phase_sum *sum_at(sums *S, int cta, int channel, int full, long long iter) {
  for (int i = 0; i < S->n; i++)
    if (S->items[i].cta == cta && S->items[i].channel == channel && S->items[i].full == full &&
        S->items[i].iter == iter)
      return &S->items[i];
  if (S->n == S->cap) {
    S->cap = S->cap ? 2 * S->cap : 64;
    S->items = realloc(S->items, (size_t)S->cap * sizeof *S->items);
    if (!S->items)
      abort();
  }
  phase_sum *p = &S->items[S->n++];
  memset(p, 0, sizeof *p);
  p->cta = cta, p->channel = channel, p->full = full, p->iter = iter;
  return p;
}

static void collect_sums(const ws_run *run, sums *S) {
  for (int a = 0; a < run->num_agents; a++)
    for (int k = 0; k < run->agents[a].n; k++) {
      const ws_event *e = &run->agents[a].ev[k];
      if (e->kind == EV_ARRIVE || e->kind == EV_EXPECT_TX) {
        phase_sum *p = sum_at(S, e->cta, e->channel, e->full, e->iter);
        p->arrivals += ws_event_arrivals(&run->agents[a], e);
        if (mlirOperationIsNull(p->first_arrive))
          p->first_arrive = e->op;
        if (e->aux && e->cta != run->agents[a].cta)
          p->remote_commit = e->op;
        if (e->kind == EV_EXPECT_TX) {
          p->expect += e->value * run->agents[a].mult;
          if (mlirOperationIsNull(p->first_expect))
            p->first_expect = e->op;
        }
      } else if (e->kind == EV_TMA_LOAD) {
        phase_sum *p = sum_at(S, e->cta, e->channel, 1, e->iter);
        p->tma += e->value * run->agents[a].mult;
        if (mlirOperationIsNull(p->first_tma))
          p->first_tma = e->op;
      }
    }
}

/* The bytes of the TMA loads of (cta, channel, iter), listed for a message. */
static void list_tma(const ws_run *run, int cta, int channel, long long iter, char *buf, int cap) {
  ws_text t;
  ws_text_init(&t, buf, (size_t)cap);
  for (int a = 0; a < run->num_agents; a++)
    for (int k = 0; k < run->agents[a].n; k++) {
      const ws_event *e = &run->agents[a].ev[k];
      char loc[64];
      char from[32] = ""; /* a cluster's copies may be another CTA's */
      if (run->ctas > 1)
        snprintf(from, sizeof from, " by CTA %d", run->agents[a].cta);
      if (e->kind == EV_TMA_LOAD && e->cta == cta && e->channel == channel && e->iter == iter)
        ws_text_appendf(&t, "%sring %d: %d at %s%s", t.len ? ", " : "", e->ring, e->value,
                        ws_op_where(e->op, loc, sizeof loc), from);
    }
  if (!t.len)
    ws_text_appendf(&t, "none");
}

/* A peer's tcgen05.commit arrives whenever its MMAs are done, which may be
 * after the peer has passed every barrier: so the CTA it arrives in must
 * itself wait for that phase (its load warp, for its last slots) before it
 * exits, or the arrival lands in shared memory the CTA has given up. */
static bool check_commits_awaited(const ws_run *run, sums *S) {
  for (int i = 0; i < S->n; i++) {
    const phase_sum *p = &S->items[i];
    if (mlirOperationIsNull(p->remote_commit))
      continue;
    int depth = run->plan->channels[p->channel].depth;
    long long waited_for = p->full ? p->iter : p->iter + depth; /* the wait that needs it */
    bool awaited = false;
    for (int a = 0; a < run->num_agents && !awaited; a++) {
      const ws_agent *A = &run->agents[a];
      for (int k = 0; k < A->n && !awaited; k++)
        awaited = A->ev[k].kind == EV_WAIT && A->ev[k].cta == p->cta && A->cta == p->cta &&
                  A->ev[k].channel == p->channel && A->ev[k].full == p->full &&
                  A->ev[k].iter == waited_for;
    }
    if (!awaited) {
      char trips[64];
      return ws_rule_error(p->remote_commit, "cluster-exit",
                           "arrives (a tcgen05.commit of "
                           "another CTA, landing once its MMAs are done) on the %s barrier of "
                           "channel %d of CTA %d for iteration %lld, but no thread of CTA %d "
                           "waits for that phase (with %s): the CTA may exit before the "
                           "arrival lands; its load warp waits for its last releases before "
                           "it exits",
                           ws_barrier_name(p->full), p->channel, p->cta, p->iter, p->cta,
                           ws_trips_text(run, trips, sizeof trips));
    }
  }
  return true;
}

/* Every phase some wait needs gets arrivals, exactly the barrier's count
 * of them, and a full barrier's expect-tx equals its TMA bytes. */
static bool check_sums(const ws_run *run) {
  sums S = {0};
  collect_sums(run, &S);
  bool ok = true;
  char loc[64], list[512];
  for (int i = 0; i < S.n && ok; i++) {
    const phase_sum *p = &S.items[i];
    int count = run->init[p->channel].count[p->full];
    MlirOperation init = run->init[p->channel].op[p->full];
    if (mlirOperationIsNull(init)) {
      ok = ws_rule_error(mlirOperationIsNull(p->first_arrive) ? p->first_tma : p->first_arrive,
                         "init",
                         "uses the %s barrier of channel %d, which no thread "
                         "initializes with ws.init_barrier before nvvm.barrier0",
                         ws_barrier_name(p->full), p->channel);
    } else if (p->arrivals != count && p->arrivals) {
      char cta[32] = "";
      if (run->ctas > 1)
        snprintf(cta, sizeof cta, " of CTA %d", p->cta);
      ok = ws_rule_error(p->first_arrive, "counts",
                         "%d thread%s arrive on the %s barrier of "
                         "channel %d%s for iteration %lld, but it was initialized with count "
                         "%d (ws.init_barrier at %s): its phase %s",
                         p->arrivals, p->arrivals == 1 ? "" : "s", ws_barrier_name(p->full),
                         p->channel, cta, p->iter, count, ws_op_where(init, loc, sizeof loc),
                         p->arrivals < count ? "never completes"
                                             : "completes early and "
                                               "the extra arrivals fall into the next one");
    } else if (p->full && p->expect != p->tma) {
      list_tma(run, p->cta, p->channel, p->iter, list, sizeof list);
      ok = ws_rule_error(mlirOperationIsNull(p->first_expect) ? p->first_tma : p->first_expect,
                         "expect-tx",
                         "%d bytes are expected on the full barrier of channel "
                         "%d for iteration %lld, but the TMA copies that complete on it in "
                         "that phase bring %d (%s)",
                         p->expect, p->channel, p->iter, p->tma, list);
    }
  }
  /* Waits that need arrivals nobody makes. */
  for (int a = 0; a < run->num_agents && ok; a++)
    for (int k = 0; k < run->agents[a].n && ok; k++) {
      const ws_event *e = &run->agents[a].ev[k];
      if (e->kind != EV_WAIT)
        continue;
      int depth = run->plan->channels[e->channel].depth;
      long long needed =
          e->full ? e->iter : e->iter - depth; /* empty: a slot's first use is free */
      if (needed < 0)
        continue;
      const phase_sum *p = sum_at(&S, e->cta, e->channel, e->full, needed);
      if (!p->arrivals) {
        char who[96], trips[64];
        ok = ws_rule_error(e->op, "balance",
                           "%s waits on the %s barrier of channel %d for "
                           "iteration %lld, which needs the arrivals of iteration %lld, but "
                           "no partition arrives on it then (with %s): an "
                           "arrive is missing or skipped on this path",
                           ws_agent_name(run, &run->agents[a], who, sizeof who),
                           ws_barrier_name(e->full), e->channel, e->iter, needed,
                           ws_trips_text(run, trips, sizeof trips));
      }
    }
  ok = ok && check_commits_awaited(run, &S);
  free(S.items);
  return ok;
}

/* ---- registers ----------------------------------------------------------- */

static bool check_registers(const ws_run *run) {
  const ws_plan *plan = run->plan;
  int groups = run->threads / WARPGROUP;
  long long total = 0, pool = (long long)plan->maxnreg * run->threads;
  char loc[64];
  bool any = false;
  for (int t = 0; t < run->threads; t++)
    any |= run->regs[t].count > 0;
  if (!any) /* every thread keeps the entry cap */
    total = pool;
  else if (run->threads % WARPGROUP)
    return ws_rule_error(plan->func, "registers",
                         "its %d threads are not whole warpgroups, "
                         "and setmaxnreg needs every warp of a warpgroup",
                         run->threads);
  for (int g = 0; g < groups && any; g++) {
    const ws_thread_regs *first = &run->regs[g * WARPGROUP];
    for (int t = g * WARPGROUP; t < (g + 1) * WARPGROUP; t++) {
      const ws_thread_regs *r = &run->regs[t];
      char trips[64];
      if (r->count != 1)
        return ws_rule_error(r->count ? r->op : plan->func, "registers",
                             "thread %d of "
                             "warpgroup %d runs %d setmaxnreg (with %s); every "
                             "thread of a warpgroup must run exactly one",
                             t, g, r->count, ws_trips_text(run, trips, sizeof trips));
      if (r->value != first->value || r->increase != first->increase)
        return ws_rule_error(r->op, "registers",
                             "warpgroup %d sets %d registers in thread "
                             "%d but %d in thread %d (at %s): setmaxnreg is per warpgroup",
                             g, r->value, t, first->value, g * WARPGROUP,
                             ws_op_where(first->op, loc, sizeof loc));
    }
    int v = first->value;
    if (v % 8 || v < 24 || v > 256)
      return ws_rule_error(first->op, "registers",
                           "sets %d registers; setmaxnreg takes a "
                           "multiple of 8 in [24, 256]",
                           v);
    if (first->increase ? v < plan->maxnreg : v > plan->maxnreg)
      return ws_rule_error(first->op, "registers",
                           "%s to %d registers from the entry cap of "
                           "%d",
                           first->increase ? "increases" : "decreases", v, plan->maxnreg);
    total += (long long)v * WARPGROUP;
  }
  if (total > pool)
    return ws_rule_error(run->regs[0].op, "registers",
                         "the warpgroups ask for %lld registers "
                         "in all, past the block's pool of %lld (%d threads at the entry cap "
                         "of %d): setmaxnreg.inc would wait forever",
                         total, pool, run->threads, plan->maxnreg);
  const ws_target *target = ws_target_of(plan->func); /* NULL: ws-verify refuses it */
  long long sm_registers = target ? target->registers_per_sm : 0;
  long long block = (long long)plan->maxnreg * run->cta_threads;
  if (target && block * (plan->blocks_per_sm > 0 ? plan->blocks_per_sm : 1) > sm_registers)
    return ws_rule_error(plan->func, "registers",
                         "%d block(s) of %lld registers do not fit "
                         "the %lld of an SM",
                         plan->blocks_per_sm, block, sm_registers);
  return true;
}

/* ---- all ----------------------------------------------------------------- */

/* True when a CTA of the run touches another's barriers or slots (a
 * remote arrival, a multicast copy). */
static bool touches_peers(const ws_run *run) {
  for (int a = 0; a < run->num_agents; a++)
    for (int k = 0; k < run->agents[a].n; k++)
      if (run->agents[a].ev[k].cta != run->agents[a].cta)
        return true;
  return false;
}

/* A cluster kernel: its peers arrive on and copy into each CTA's barriers
 * and slots, so the inits must be published to the cluster (its barrier,
 * not the block's) before any of that (a relaxed arrive:
 * check_relaxed_publish); and every thread ends at
 * a cluster barrier whose arrive releases, so that no CTA exits (its
 * shared memory gone) while a peer may still arrive on it or copy into
 * it. */
static bool check_cluster(const ws_run *run) {
  if (run->ctas < 2 || !touches_peers(run))
    return true;
  if (!run->cluster_published)
    return ws_rule_error(mlirOperationIsNull(run->cta_sync) ? run->plan->func : run->cta_sync,
                         "init",
                         "publishes the barrier inits to this CTA only, but the CTAs "
                         "of a cluster arrive on and copy into each other's: a cluster barrier "
                         "(nvvm.cluster.arrive and nvvm.cluster.wait) must, or a peer's remote "
                         "arrival may reach a barrier before its init");
  if (run->exit_threads != run->threads)
    return ws_rule_error(mlirOperationIsNull(run->exit_sync) ? run->plan->func : run->exit_sync,
                         "cluster-exit",
                         "%d of the cluster's %d threads end with a cluster "
                         "barrier (nvvm.cluster.arrive and nvvm.cluster.wait as their last "
                         "ops): a CTA may exit while a peer still arrives on its barriers or "
                         "copies into its slots",
                         run->exit_threads, run->threads);
  if (!mlirOperationIsNull(run->exit_relaxed))
    return ws_rule_error(run->exit_relaxed, "cluster-exit",
                         "is relaxed: it orders none of "
                         "the thread's remote arrivals and copies before it, so one may still be "
                         "in flight when the peer exits; the exit's arrive must release "
                         "(nvvm.cluster.arrive)");
  return true;
}

static bool check_init(const ws_run *run) {
  for (int c = 0; c < run->plan->num_channels; c++)
    for (int f = 0; f < 2; f++) {
      MlirOperation op = run->init[c].op[f];
      if (mlirOperationIsNull(op))
        continue;
      for (int cta = 0; cta < run->ctas; cta++)
        if (run->init[c].threads[cta][f] != 1)
          return ws_rule_error(op, "init",
                               "runs in %d threads%s; one thread must initialize "
                               "each barrier",
                               run->init[c].threads[cta][f], run->ctas > 1 ? " of a CTA" : "");
    }
  for (int c = 0; c < run->plan->num_channels; c++)
    if (!mlirOperationIsNull(run->init[c].op[0]) || !mlirOperationIsNull(run->init[c].op[1]))
      if (!run->init_fenced)
        return ws_rule_error(
            mlirOperationIsNull(run->cta_sync) ? run->init[c].op[0] : run->cta_sync, "init",
            "the barrier initializations before it are not made "
            "visible with nvvm.fence.mbarrier.init");
  return true;
}

/* A relaxed cluster arrive after the inits (any cluster size) orders
 * nothing its thread wrote before it: the inits only through that
 * thread's own nvvm.fence.mbarrier.init between them and the arrive, and
 * tensor memory's address, which ws.tmem_alloc writes, not at all. */
static bool check_relaxed_publish(const ws_run *run) {
  if (!mlirOperationIsNull(run->relaxed_unfenced))
    return ws_rule_error(run->relaxed_unfenced, "init",
                         "is relaxed, but this thread's barrier "
                         "inits before it have no nvvm.fence.mbarrier.init of its own between "
                         "them and it: nothing orders them before another thread's arrival; "
                         "fence them first, or release (nvvm.cluster.arrive)");
  if (!mlirOperationIsNull(run->publish_relaxed) && !mlirOperationIsNull(run->tmem_alloc))
    return ws_rule_error(run->publish_relaxed, "init",
                         "is relaxed: it publishes the barrier "
                         "inits (the nvvm.fence.mbarrier.init before it orders them) but not the "
                         "tensor-memory address ws.tmem_alloc writes before it: this arrive must "
                         "release (nvvm.cluster.arrive)");
  return true;
}

bool ws_check_run_rules(ws_run *run) {
  if (!check_init(run) || !check_relaxed_publish(run) || !check_cluster(run))
    return false;
  proxy_use u;
  find_proxy_use(run, &u);
  bool ok = true;
  for (int a = 0; a < run->num_agents && ok; a++)
    ok = check_agent(run, &run->agents[a], &u);
  free(u.async_write);
  free(u.async_read);
  free(u.writer);
  free(u.reader);
  return ok && check_sums(run) && check_registers(run) && check_tmem_lifetime(run);
}
