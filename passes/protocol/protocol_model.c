/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* protocol_model.c: the protocol of one run (protocol_run.c) as a
 * transition system over the mbarriers, the model both provers run
 * (protocol_explore.c state by state, protocol_order.c by happens-before).
 *
 * A state is each agent's position in its events plus each barrier's phase
 * (phases completed), arrivals still missing, expect-tx bytes and the TMA
 * copies in flight on it. The hardware semantics, as the model runs them:
 *  - a wait with parity p passes when the barrier's current phase has the
 *    other parity (the phase of parity p is complete);
 *  - an arrive takes `mult` arrivals (an elected lane: 1; a warpgroup: 128)
 *    and expect-tx adds bytes; a TMA copy is in flight on the barrier it
 *    completes on; a phase completes, at once, when no arrival is missing
 *    and the oldest copies in flight bring exactly the bytes expected
 *    (those copies land), and the next phase expects the init count again;
 *  - nvvm.barrier id, n lets its agents through together when n threads
 *    are there.
 * A phase completing as early as it can is no loss: waiting longer only
 * delays the waiters, and copies still in flight are checked against every
 * access. Events with no effect on other agents (fences, commits, the
 * wgmma and bulk waits, setmaxnreg) are taken with the event before them;
 * protocol_rules.c checks them on each agent alone.
 *
 * Each move checks, and fails with a located error otherwise:
 *  - an arrive for iteration i lands in phase i / depth of its barrier, and
 *    no phase gets more arrivals than its count ('counts');
 *  - a slot is written (TMA or generic) only after the empty barrier
 *    completed the phase of its previous use and before its full barrier
 *    completed this one; it is read (generic, wgmma, TMA store) only after
 *    the full barrier completed the phase, with no copy still in flight,
 *    and before the empty barrier completed it ('race');
 *  - memory two rings share (a matmul's C tile over its A and B rings) is
 *    touched through one only when every access of the other, its async
 *    reads retired and its copies landed, is done in every agent ('race').
 * A state where no agent can move is the end: every agent has exited and no
 * copy is in flight; otherwise a 'deadlock'. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ws_protocol_model.h"

#include <stdlib.h>
#include "../../dialect/ws_text.h"

const ws_event *ws_model_event(const ws_model *X, int id) {
  return &X->run->agents[id >> 24].ev[id & 0xffffff];
}

static bool is_local(int kind) {
  return kind == EV_PROXY_FENCE || kind == EV_WGMMA_COMMIT || kind == EV_WGMMA_WAIT ||
         kind == EV_BULK_COMMIT || kind == EV_BULK_WAIT || kind == EV_SETMAXNREG ||
         kind == EV_TC_COMMIT || kind == EV_TC_FENCE || kind == EV_MMA_DONE;
}

static void advance(const ws_model *X, ws_model_state *s, int a) {
  const ws_agent *A = &X->run->agents[a];
  s->pc[a]++;
  while (s->pc[a] < A->n && is_local(A->ev[s->pc[a]].kind))
    s->pc[a]++;
}

bool ws_model_release_reaches(const ws_plan *plan, int channel, int reader, int cta) {
  ws_reach to = plan->channels[channel].empty_to;
  return cta == reader || to == WS_REACH_EVERY || (to == WS_REACH_LEADER && cta == 0);
}

int ws_model_barrier(const ws_model *X, int cta, int channel, int full, int slot) {
  return cta * X->per_cta + X->base[channel][full] + slot;
}

static ws_barrier_state *bar_of(const ws_model *X, ws_model_state *s, int cta, int channel,
                                int full, int slot) {
  return &s->bar[ws_model_barrier(X, cta, channel, full, slot)];
}

static void complete_phases(const ws_model *X, ws_barrier_state *b, int count) {
  if (b->pending > 0)
    return;
  int bytes = 0;
  for (int j = 0; j <= b->nin; j++) {
    if (bytes == b->tx) {
      b->completed++;
      b->pending = count;
      b->tx = 0;
      memmove(b->in, b->in + j, (size_t)(b->nin - j) * sizeof *b->in);
      b->nin -= j;
      return;
    }
    if (j < b->nin)
      bytes += ws_model_event(X, b->in[j])->value;
  }
}

bool ws_model_error(ws_model *X, const ws_event *e, const char *rule, const char *fmt, ...) {
  char msg[900], who[112] = "";
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (X->actor >= 0) {
    char name[96];
    snprintf(who, sizeof who, " in %s,",
             ws_agent_name(X->run, &X->run->agents[X->actor], name, sizeof name));
  }
  char trips[64];
  return ws_rule_error(e->op, rule, "with %s,%s %s", ws_trips_text(X->run, trips, sizeof trips),
                       who, msg);
}

/* An op of another kind that touches the ring (ring -1: the accumulator
 * in tensor memory), for messages. */
static MlirOperation other_side(const ws_model *X, int ring, bool writer) {
  static const int writers[] = {EV_TMA_LOAD, EV_WRITE, EV_TMEM_WRITE},
                   readers[] = {EV_READ,      EV_MMA,       EV_TC_MMA,
                                EV_TMEM_COPY, EV_TMA_STORE, EV_TMEM_READ};
  const int *kinds = writer ? writers : readers;
  for (int i = 0; i < (writer ? 3 : 6); i++) {
    if ((ring < 0) != (kinds[i] == EV_TMEM_READ || kinds[i] == EV_TMEM_WRITE))
      continue;
    const ws_event *e = ws_find_event(X->run, kinds[i], ring);
    if (e)
      return e->op;
  }
  return (MlirOperation){NULL};
}

const char *ws_model_where(MlirOperation op, char *buf) {
  if (mlirOperationIsNull(op)) {
    snprintf(buf, 64, "nowhere");
    return buf;
  }
  return ws_op_where(op, buf, 64);
}

bool ws_model_shared_race(ws_model *X, const ws_event *e, int ring, int r2, int b, int k) {
  const ws_agent *B = &X->run->agents[b];
  char who[96], loc[64];
  return ws_model_error(X, e, "race",
                        "this op uses ring %d, whose memory ring %d shares, "
                        "while %s may access ring %d at the same time (at %s): nothing "
                        "orders them",
                        ring, r2, ws_agent_name(X->run, B, who, sizeof who), r2,
                        ws_model_where(B->ev[k].op, loc));
}

/* Memory that `ring` shares with a ring of another channel: no agent may
 * be at an access of that ring (its next move, so that both could go next)
 * or have an async read of it in flight, and no TMA copy into it may be in
 * flight. With every interleaving explored, two accesses that are not
 * ordered meet this check one way or the other. */
static bool check_shared(ws_model *X, const ws_model_state *s, const ws_event *e, int ring) {
  for (int r2 = 0; r2 < X->run->plan->num_rings && ring >= 0; r2++) {
    if (!ws_model_shares(X, ring, r2))
      continue;
    for (int b = 0; b < X->num_agents; b++) {
      const ws_agent *B = &X->run->agents[b];
      if (B->cta != e->cta)
        continue; /* another CTA's memory */
      int pc = s->pc[b], k = pc < B->n && X->reach[b][r2] ? X->reach[b][r2][pc] : -1;
      if (k < 0 || B->done_at[k] < pc)
        continue;
      return ws_model_shared_race(X, e, ring, r2, b, k);
    }
    for (int b = 0; b < X->num_bars; b++)
      for (int i = 0; i < s->bar[b].nin; i++)
        if (ws_model_event(X, s->bar[b].in[i])->ring == r2 &&
            ws_model_event(X, s->bar[b].in[i])->cta == e->cta) {
          char loc[64];
          return ws_model_error(X, e, "race",
                                "this op uses ring %d, whose memory ring %d "
                                "shares, while the TMA load at %s into ring %d is in flight",
                                ring, r2,
                                ws_model_where(ws_model_event(X, s->bar[b].in[i])->op, loc), r2);
        }
  }
  return true;
}

const char *ws_model_what(int slot, int ring, char *buf) {
  if (ring < 0)
    snprintf(buf, 64, "accumulator buffer %d (tensor memory)", slot);
  else
    snprintf(buf, 64, "slot %d of ring %d", slot, ring);
  return buf;
}

/* A write into CTA e->cta's slot waits for the writer's own CTA's empty
 * barrier: in a cluster, the readers of every CTA it writes into arrive on
 * it (a multicast copy's writer is the peer). */
static bool check_write(ws_model *X, ws_model_state *s, const ws_event *e) {
  int writer = X->actor >= 0 ? X->run->agents[X->actor].cta : e->cta;
  ws_barrier_state *full = bar_of(X, s, e->cta, e->channel, 1, e->slot);
  ws_barrier_state *empty = bar_of(X, s, writer, e->channel, 0, e->slot);
  char loc[64], what[64];
  ws_model_what(e->slot, e->ring, what);
  if (empty->completed < e->round)
    return ws_model_error(X, e, "race",
                          "this op writes %s for iteration "
                          "%lld while the reads of iteration %lld may still run (at %s): the "
                          "empty barrier has completed %d of the %lld phases it needs",
                          what, e->iter, e->iter - X->run->plan->channels[e->channel].depth,
                          ws_model_where(other_side(X, e->ring, false), loc), empty->completed,
                          e->round);
  if (full->completed > e->round)
    return ws_model_error(X, e, "race",
                          "this op writes %s for iteration "
                          "%lld after the full barrier already completed that phase: its "
                          "readers (at %s) may have read it before",
                          what, e->iter, ws_model_where(other_side(X, e->ring, false), loc));
  return check_shared(X, s, e, e->ring);
}

/* A read of the slot: after its full barrier completed the phase, before
 * any empty barrier that lets a writer into the slot (the CTA's own; in a
 * cluster channel, every CTA's) completed it. */
static bool check_read_ring(ws_model *X, ws_model_state *s, const ws_event *e, int ring) {
  ws_barrier_state *full = bar_of(X, s, e->cta, e->channel, 1, e->slot);
  ws_barrier_state *empty = bar_of(X, s, e->cta, e->channel, 0, e->slot);
  int released_in = e->cta;
  for (int cta = 0; cta < X->run->ctas; cta++) /* the one furthest on */
    if (ws_model_release_reaches(X->run->plan, e->channel, e->cta, cta) &&
        bar_of(X, s, cta, e->channel, 0, e->slot)->completed > empty->completed) {
      empty = bar_of(X, s, cta, e->channel, 0, e->slot);
      released_in = cta;
    }
  char loc[64], cta_text[32] = "", what[64];
  ws_model_what(e->slot, ring, what);
  if (X->run->ctas > 1)
    snprintf(cta_text, sizeof cta_text, " of CTA %d", released_in);
  if (full->completed <= e->round)
    return ws_model_error(X, e, "race",
                          "this op reads %s for iteration "
                          "%lld before the write of that iteration (at %s) is complete: the "
                          "full barrier has completed %d of the %lld phases it needs",
                          what, e->iter, ws_model_where(other_side(X, ring, true), loc),
                          full->completed, e->round + 1);
  MlirOperation writer_op = other_side(X, ring, true);
  bool writer = !mlirOperationIsNull(writer_op); /* none: no write in this run's steps */
  if (empty->completed > e->round)
    return ws_model_error(X, e, "race",
                          "this op reads %s for iteration "
                          "%lld after it was released (the empty barrier%s completed "
                          "that phase), so the next write (%s%s) may overwrite it",
                          what, e->iter, cta_text, writer ? "at " : "a later MMA's",
                          writer ? ws_model_where(writer_op, loc) : "");
  for (int i = 0; i < full->nin; i++) {
    const ws_event *t = ws_model_event(X, full->in[i]);
    if (t->ring == ring)
      return ws_model_error(X, e, "race",
                            "this op reads %s for iteration "
                            "%lld while the TMA load at %s into it is still in flight: the "
                            "full barrier completed before all of its bytes arrived",
                            what, e->iter, ws_model_where(t->op, loc));
  }
  return check_shared(X, s, e, ring);
}

static bool arrive(ws_model *X, ws_model_state *s, int a, const ws_event *e) {
  ws_barrier_state *b = bar_of(X, s, e->cta, e->channel, e->full, e->slot);
  int count = X->run->init[e->channel].count[e->full];
  const ws_agent *A = &X->run->agents[a];
  if (b->completed != e->round)
    return ws_model_error(X, e, "counts",
                          "this arrive for iteration %lld (phase %lld of slot "
                          "%d) reaches the %s barrier of channel %d while it is in phase %d: "
                          "%s",
                          e->iter, e->round, e->slot, ws_barrier_name(e->full), e->channel,
                          b->completed,
                          b->completed < e->round ? "that phase gets more arrivals than its count"
                                                  : "its own phase completed without it");
  b->pending -= ws_event_arrivals(A, e);
  if (b->pending < 0)
    return ws_model_error(X, e, "counts",
                          "phase %d of the %s barrier of channel %d slot %d "
                          "gets %d more arrivals than its count of %d",
                          b->completed, ws_barrier_name(e->full), e->channel, e->slot, -b->pending,
                          count);
  if (e->kind == EV_EXPECT_TX)
    b->tx += e->value;
  complete_phases(X, b, count);
  return true;
}

/* Whether agent o waits at nvvm.barrier `id` of CTA `cta` (a named
 * barrier is the block's: each CTA of a cluster has its own). */
static bool at_bar_sync(const ws_model *X, const ws_model_state *s, int o, int cta, int id) {
  const ws_agent *O = &X->run->agents[o];
  return O->cta == cta && s->pc[o] < O->n && O->ev[s->pc[o]].kind == EV_BAR_SYNC &&
         O->ev[s->pc[o]].aux == id;
}

/* Agents at nvvm.barrier `id` of CTA `cta`, and the threads they bring. */
static int at_named_barrier(const ws_model *X, const ws_model_state *s, int cta, int id) {
  int threads = 0;
  for (int a = 0; a < X->num_agents; a++)
    if (at_bar_sync(X, s, a, cta, id))
      threads += X->run->agents[a].mult;
  return threads;
}

/* Takes agent a's next event into *s; false after an error. */
bool ws_model_step(ws_model *X, ws_model_state *s, int a) {
  const ws_agent *A = &X->run->agents[a];
  const ws_event *e = &A->ev[s->pc[a]];
  int id = (a << 24) | s->pc[a];
  X->actor = a;
  switch (e->kind) {
  case EV_ARRIVE:
  case EV_EXPECT_TX:
    if (!arrive(X, s, a, e))
      return false;
    break;
  case EV_TMA_LOAD: {
    if (!check_write(X, s, e))
      return false;
    ws_barrier_state *b = bar_of(X, s, e->cta, e->channel, 1, e->slot);
    b->in[b->nin++] = id; /* room for every copy of the run onto it (max_in) */
    complete_phases(X, b, X->run->init[e->channel].count[1]);
    break;
  }
  case EV_WRITE:
  case EV_TMEM_WRITE:
    if (!check_write(X, s, e))
      return false;
    break;
  case EV_TMEM_READ:
  case EV_READ:
  case EV_MMA:
  case EV_TC_MMA:
  case EV_TMEM_COPY:
  case EV_TMA_STORE:
    if (!check_read_ring(X, s, e, e->ring) ||
        (e->ring_b >= 0 && !check_read_ring(X, s, e, e->ring_b)))
      return false;
    break;
  case EV_BAR_SYNC:
    for (int o = 0; o < X->num_agents; o++)
      if (o != a && at_bar_sync(X, s, o, A->cta, e->aux))
        advance(X, s, o);
    break;
  default:
    break;
  }
  advance(X, s, a);
  return true;
}

/* Whether agent a can take its next event in s (-1: an error). */
int ws_model_enabled(ws_model *X, const ws_model_state *s, int a) {
  const ws_agent *A = &X->run->agents[a];
  if (s->pc[a] >= A->n)
    return 0;
  const ws_event *e = &A->ev[s->pc[a]];
  if (e->kind == EV_WAIT) {
    const ws_barrier_state *b = &s->bar[ws_model_barrier(X, e->cta, e->channel, e->full, e->slot)];
    return (b->completed & 1) != e->parity;
  }
  if (e->kind == EV_BAR_SYNC) {
    int threads = at_named_barrier(X, s, A->cta, e->aux);
    X->actor = a;
    if (e->value > 0 && threads > e->value) {
      ws_model_error(X, e, "deadlock", "%d threads reach nvvm.barrier %d, which is for %d", threads,
                     e->aux, e->value);
      return -1;
    }
    /* the lowest agent there moves the whole group */
    for (int o = 0; o < a; o++)
      if (at_bar_sync(X, s, o, A->cta, e->aux))
        return 0;
    return threads == (e->value > 0 ? e->value : X->run->cta_threads);
  }
  return 1;
}

/* Describes why agent a is stuck, for the deadlock message. */
static void describe_stuck(const ws_model *X, const ws_model_state *s, int a, ws_text *t) {
  const ws_agent *A = &X->run->agents[a];
  const ws_event *e = &A->ev[s->pc[a]];
  char who[96], loc[64];
  ws_agent_name(X->run, A, who, sizeof who);
  if (e->kind == EV_WAIT) {
    const ws_barrier_state *b = &s->bar[ws_model_barrier(X, e->cta, e->channel, e->full, e->slot)];
    int landing = 0;
    for (int i = 0; i < b->nin; i++)
      landing += ws_model_event(X, b->in[i])->value;
    ws_text_appendf(t,
                    "%s waits at %s on the %s barrier of channel %d slot %d for "
                    "iteration %lld (parity %d), which stays in phase %d with %d "
                    "arrival%s and %d of %d expected bytes missing",
                    who, ws_model_where(e->op, loc), ws_barrier_name(e->full), e->channel, e->slot,
                    e->iter, e->parity, b->completed, b->pending, b->pending == 1 ? "" : "s",
                    b->tx - landing > 0 ? b->tx - landing : 0, b->tx);
  } else {
    ws_text_appendf(t, "%s waits at %s (nvvm.barrier %d) for %d threads; %d arrive", who,
                    ws_model_where(e->op, loc), e->aux, e->value,
                    at_named_barrier(X, s, A->cta, e->aux));
  }
}

static bool report_deadlock(ws_model *X, const ws_model_state *s) {
  char msg[900];
  X->actor = -1;
  ws_text t;
  ws_text_init(&t, msg, sizeof msg);
  const ws_event *first = NULL;
  for (int a = 0; a < X->num_agents; a++) {
    const ws_agent *A = &X->run->agents[a];
    if (s->pc[a] >= A->n)
      continue;
    if (!first)
      first = &A->ev[s->pc[a]];
    else
      ws_text_appendf(&t, "; ");
    describe_stuck(X, s, a, &t);
  }
  return ws_model_error(X, first, "deadlock", "no partition can move: %s", msg);
}

bool ws_model_stuck(ws_model *X, const ws_model_state *s) {
  X->actor = -1;
  for (int a = 0; a < X->num_agents; a++)
    if (s->pc[a] < X->run->agents[a].n)
      return report_deadlock(X, s);
  for (int b = 0; b < X->num_bars; b++)
    if (s->bar[b].nin) {
      const ws_event *e = ws_model_event(X, s->bar[b].in[0]);
      return ws_model_error(X, e, "deadlock",
                            "this TMA load is still in flight when every "
                            "partition has exited: no wait covers its barrier phase");
    }
  return true;
}

/* For each agent and each ring that shares memory: at every position, the
 * access of the ring (not a TMA copy, whose flight the barriers track) that
 * keeps it busy there, if any: the one at that position, or the latest
 * before it whose async read is not yet waited for. */
static void index_shared_accesses(ws_model *X) {
  const ws_run *run = X->run;
  for (int r = 0; r < run->plan->num_rings; r++) {
    bool shared = false;
    for (int q = 0; q < run->plan->num_rings; q++)
      shared |= ws_model_shares(X, r, q);
    for (int a = 0; a < run->num_agents && shared; a++) {
      const ws_agent *A = &run->agents[a];
      int *reach = malloc(((size_t)A->n + 1) * sizeof *reach);
      if (!reach)
        abort();
      int last = -1;
      for (int k = 0; k < A->n; k++) {
        const ws_event *e = &A->ev[k];
        bool access = e->kind != EV_TMA_LOAD && (e->ring == r || e->ring_b == r);
        if (access && (last < 0 || A->done_at[k] >= A->done_at[last]))
          last = k;
        reach[k] = access ? k : last;
      }
      reach[A->n] = -1;
      X->reach[a][r] = reach;
    }
  }
}

/* The most TMA copies the run makes onto one full barrier: room enough for
 * every copy that can be in flight on it, even in a broken protocol. */
static int most_copies_per_barrier(const ws_model *X) {
  int *copies = ws_zalloc((size_t)X->num_bars, sizeof *copies), most = 1;
  for (int a = 0; a < X->run->num_agents; a++)
    for (int k = 0; k < X->run->agents[a].n; k++) {
      const ws_event *e = &X->run->agents[a].ev[k];
      if (e->kind != EV_TMA_LOAD)
        continue;
      int b = ws_model_barrier(X, e->cta, e->channel, 1, e->slot);
      if (++copies[b] > most)
        most = copies[b];
    }
  free(copies);
  return most;
}

void ws_model_state_alloc(const ws_model *X, ws_model_state *s) {
  s->bar = ws_zalloc((size_t)X->num_bars, sizeof *s->bar);
  s->pool = ws_zalloc((size_t)X->num_bars * (size_t)X->max_in, sizeof *s->pool);
  for (int b = 0; b < X->num_bars; b++)
    s->bar[b].in = s->pool + (long)b * X->max_in;
}

void ws_model_state_free(ws_model_state *s) {
  free(s->bar);
  free(s->pool);
  s->bar = NULL;
  s->pool = NULL;
}

void ws_model_state_copy(const ws_model *X, ws_model_state *to, const ws_model_state *from) {
  memcpy(to->pc, from->pc, (size_t)X->num_agents * sizeof *to->pc);
  for (int b = 0; b < X->num_bars; b++) {
    ws_barrier_state *t = &to->bar[b];
    const ws_barrier_state *f = &from->bar[b];
    t->completed = f->completed;
    t->pending = f->pending;
    t->tx = f->tx;
    t->nin = f->nin;
    memcpy(t->in, f->in, (size_t)f->nin * sizeof *t->in);
  }
}

bool ws_model_init(ws_model *X, const ws_run *run, ws_model_state *s) {
  const ws_plan *plan = run->plan;
  memset(X, 0, sizeof *X);
  X->actor = -1;
  X->run = run;
  X->num_agents = run->num_agents;
  X->num_rings = plan->num_rings;
  X->base = ws_zalloc((size_t)plan->num_channels, sizeof *X->base);
  for (int c = 0; c < plan->num_channels; c++)
    for (int f = 0; f < 2; f++) {
      X->base[c][f] = X->per_cta;
      X->per_cta += plan->channels[c].depth;
    }
  X->num_bars = X->per_cta * run->ctas;
  X->max_in = most_copies_per_barrier(X);
  ws_model_state_alloc(X, s);
  for (int cta = 0; cta < run->ctas; cta++)
    for (int c = 0; c < plan->num_channels; c++)
      for (int f = 0; f < 2; f++)
        for (int k = 0; k < plan->channels[c].depth; k++) {
          ws_barrier_state *b = &s->bar[ws_model_barrier(X, cta, c, f, k)];
          b->completed = b->tx = b->nin = 0;
          b->pending = run->init[c].count[f];
        }
  for (int a = 0; a < run->num_agents; a++) {
    s->pc[a] = -1;
    advance(X, s, a);
  }
  X->shares = ws_zalloc((size_t)plan->num_rings * (size_t)plan->num_rings, sizeof *X->shares);
  for (int r = 0; r < plan->num_rings; r++)
    for (int q = 0; q < plan->num_rings; q++) {
      const ws_ring *x = &plan->rings[r], *y = &plan->rings[q];
      long long xe = x->offset + ws_ring_bytes(plan, x);
      long long ye = y->offset + ws_ring_bytes(plan, y);
      X->shares[(long)r * plan->num_rings + q] =
          x->channel != y->channel && x->offset < ye && y->offset < xe;
    }
  for (int a = 0; a < run->num_agents; a++)
    X->reach[a] = ws_zalloc((size_t)plan->num_rings, sizeof *X->reach[a]);
  index_shared_accesses(X);
  return true;
}

void ws_model_free(ws_model *X) {
  for (int a = 0; a < WS_MAX_AGENTS; a++) {
    for (int r = 0; X->reach[a] && r < X->num_rings; r++)
      free(X->reach[a][r]);
    free(X->reach[a]);
    X->reach[a] = NULL;
  }
  free(X->base);
  free(X->shares);
  X->base = NULL;
  X->shares = NULL;
}
