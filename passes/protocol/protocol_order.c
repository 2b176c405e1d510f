/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* protocol_order.c: every interleaving of a run's model (protocol_model.c)
 * decided from one interleaving and the happens-before order it shows:
 * method=order of ws-check-protocol, the default.
 *
 * Why one interleaving can stand for all. Call G the order each event must
 * keep in every interleaving: program order within an agent; an arrive or
 * TMA copy for iteration i before the completion of the phase i / depth of
 * its barrier; that completion before every wait for it; a named barrier's
 * agents all together. If, in every interleaving,
 *   (a) every arrive and TMA copy lands in the phase of its iteration,
 *   (b) every wait passes on the phase it is for (the completion of phase
 *       k - 1 precedes the wait, and the wait precedes the completion of
 *       phase k + 1, so the parity cannot alias), and
 *   (c) each named barrier has one set of agents whose threads make its
 *       count, passing it the same number of times,
 * then an event can move exactly when its predecessors in G have moved.
 * Every interleaving is then a sequence of down-closed sets of G, every
 * down-closed set of G is a reachable state, and every run ends in the one
 * state where all events of G have moved (the model has no other choice to
 * make: arrivals and copies on one barrier commute, waits only read). So:
 *  - a deadlock in one interleaving is a deadlock in all, and an
 *    interleaving that ends with every agent exited shows that none
 *    deadlocks;
 *  - a check that must hold when event e moves holds in every
 *    interleaving when it holds in the smallest state where e can move
 *    (e's predecessors in G), or in the smallest state that also holds the
 *    other event the check is about.
 * The states are vectors: a down-closed set of G is the position of each
 * agent (protocol_model.h's pc), and the smallest down-closed set holding a
 * set of events is the componentwise maximum of their vectors (vector
 * clocks). The run computes each event's vector and each phase
 * completion's (the maximum over the arrivals and copies it counted), then
 * every check is a comparison of vectors:
 *   counts       an arrive for phase r: completion r - 1 <= its
 *                predecessors, so it cannot land in an earlier phase;
 *   phases       a wait for completion k: completion k - 1 <= its
 *                predecessors (it cannot pass on completion k - 2, whose
 *                parity is the same);
 *   deadlock     the wait precedes completion k + 1 (the barrier cannot run
 *                a phase past it and make it wait for k + 2);
 *   race         a write for round r after completion r of the empty barrier
 *                and, when generic, before completion r + 1 of the full one;
 *                a read after completion r + 1 of the full barrier and
 *                before completion r + 1 of the empty one; a TMA copy after
 *                completion r of its full barrier; memory two rings share:
 *                each access of one before every access of the other is
 *                issued or after it retired (taken, or its async read
 *                waited for), and after the landing of every copy into the
 *                other that it does not precede.
 * (a), (b) and (c) are these checks (and (c) is read off the events); the
 * one interleaving run also makes every check of the model itself. When
 * they all hold, every interleaving is proved; when one fails, the error
 * names the two events it could not order. A kernel outside (c) is left to
 * protocol_explore.c.
 *
 * Cost: one interleaving per trip count (a state per event) and, per event,
 * a few comparisons of vectors of one int per agent: linear in the events,
 * whatever the ring depth. The states explain=true counts are those of the
 * interleavings run. */
#include <stdlib.h>
#include <string.h>

#include "ws_protocol_model.h"

typedef struct phase_clocks {
  int *v; /* completion k (k = 1..n) at v[(k - 1) * m] */
  int n;
  long cap;
} phase_clocks;

typedef struct order {
  ws_model M;
  ws_model_state s;
  const ws_run *run;
  int m;                     /* agents: the length of a vector */
  int *clock[WS_MAX_AGENTS]; /* clock[a][i * m]: the smallest state holding event i of a */
  int cur[WS_MAX_AGENTS][WS_MAX_AGENTS]; /* each agent's latest vector */
  int start[WS_MAX_AGENTS];              /* the initial state */
  int (*open)[WS_MAX_AGENTS];            /* per barrier: maximum over the open phase's arrivals */
  phase_clocks *done;                    /* per barrier */
  int **loads;                           /* per ring: its TMA loads, agent << 24 | event */
  int *num_loads;
  long *loads_cap;
  long states, checks;
} order;

static void join(int *into, const int *v, int m) {
  for (int i = 0; i < m; i++)
    if (v[i] > into[i])
      into[i] = v[i];
}

static bool within(const int *v, const int *state, int m) {
  for (int i = 0; i < m; i++)
    if (v[i] > state[i])
      return false;
  return true;
}

/* Completion k of barrier b (the state it needs), or null if it never
 * happens (k <= 0 happens at the start). */
static const int *completion(const order *O, int b, long long k) {
  if (k <= 0)
    return O->start;
  if (k > O->done[b].n)
    return NULL;
  return O->done[b].v + (k - 1) * O->m;
}

/* The latest event of agent a before position pc, for messages (falls back
 * to the agent's first event). */
static const ws_event *event_before(const order *O, int a, int pc) {
  const ws_agent *A = &O->run->agents[a];
  int i = pc - 1 < A->n - 1 ? pc - 1 : A->n - 1;
  return &A->ev[i < 0 ? 0 : i];
}

/* An event `need` holds that `have` does not: what the check could not order. */
static const ws_event *unordered(const order *O, const int *need, const int *have) {
  for (int a = 0; a < O->m; a++)
    if (need[a] > have[a])
      return event_before(O, a, need[a]);
  return NULL;
}

/* The completion count a wait is for: its parity passes once the barrier
 * has completed k phases (k = round + 1 for a consumer, which waits for its
 * round's data; k = round for a producer, whose first round is free). */
static long long wait_target(const ws_event *e) {
  return e->round + 1 - ((e->parity ^ e->round) & 1);
}

/* ---- the one interleaving ------------------------------------------------ */

static void record_phase(order *O, int b) {
  phase_clocks *p = &O->done[b];
  p->v = ws_grow(p->v, &p->cap, (long)(p->n + 1) * O->m, sizeof *p->v);
  memcpy(p->v + (long)p->n * O->m, O->open[b], (size_t)O->m * sizeof *p->v);
  p->n++;
  memcpy(O->open[b], O->start, (size_t)O->m * sizeof *O->start);
}

/* Stamps agent a's event at `at` with `v` (its own position filled in). */
static void stamp(order *O, int a, int at, int *v) {
  v[a] = O->s.pc[a];
  memcpy(O->clock[a] + (long)at * O->m, v, (size_t)O->m * sizeof *v);
  memcpy(O->cur[a], v, (size_t)O->m * sizeof *v);
}

/* Takes agent a's next event and computes its vector; false after an
 * error. The checks of the move are the model's, plus: a wait passes on the
 * completion it is for, a TMA copy is issued in the phase it completes. */
static bool take(order *O, int a) {
  ws_model *M = &O->M;
  const ws_agent *A = &O->run->agents[a];
  int at = O->s.pc[a], m = O->m;
  const ws_event *e = &A->ev[at];
  int v[WS_MAX_AGENTS], group[WS_MAX_AGENTS], ng = 0, bar = -1, before = 0;
  memcpy(v, O->cur[a], (size_t)m * sizeof *v);
  M->actor = a;
  if (e->kind == EV_WAIT) {
    int b = ws_model_barrier(M, e->cta, e->channel, e->full, e->slot);
    long long k = wait_target(e);
    if (O->s.bar[b].completed != k)
      return ws_model_error(M, e, "phases",
                            "this wait for iteration %lld is for phase %lld "
                            "of the %s barrier of channel %d slot %d, but it passes after "
                            "%d phases: the parity of another phase lets it through",
                            e->iter, k - 1, ws_barrier_name(e->full), e->channel, e->slot,
                            O->s.bar[b].completed);
    join(v, completion(O, b, k), m);
  } else if (e->kind == EV_BAR_SYNC) {
    for (int o = 0; o < O->m; o++) {
      const ws_agent *Ag = &O->run->agents[o];
      int pc = O->s.pc[o];
      if (Ag->cta == A->cta && pc < Ag->n && Ag->ev[pc].kind == EV_BAR_SYNC &&
          Ag->ev[pc].aux == e->aux) {
        group[ng++] = o;
        join(v, O->cur[o], m);
      }
    }
  } else if (e->kind == EV_ARRIVE || e->kind == EV_EXPECT_TX || e->kind == EV_TMA_LOAD) {
    bar = ws_model_barrier(M, e->cta, e->channel, e->kind == EV_TMA_LOAD ? 1 : e->full, e->slot);
    before = O->s.bar[bar].completed;
    if (e->kind == EV_TMA_LOAD && before != e->round)
      return ws_model_error(M, e, "race",
                            "this TMA load for iteration %lld is issued while "
                            "the full barrier of channel %d slot %d is in phase %d, not %lld: "
                            "its bytes would complete another phase",
                            e->iter, e->channel, e->slot, before, e->round);
  }
  int pcs[WS_MAX_AGENTS];
  for (int g = 0; g < ng; g++)
    pcs[g] = O->s.pc[group[g]];
  if (!ws_model_step(M, &O->s, a))
    return false;
  O->states++;
  if (ng) {
    for (int g = 0; g < ng; g++)
      v[group[g]] = O->s.pc[group[g]];
    for (int g = 0; g < ng; g++)
      stamp(O, group[g], pcs[g], v);
    return true;
  }
  stamp(O, a, at, v);
  if (bar >= 0) {
    join(O->open[bar], v, m);
    if (O->s.bar[bar].completed > before)
      record_phase(O, bar);
  }
  return true;
}

/* Runs the agents until none can move: with seed 0 each in turn, as far as
 * it goes; otherwise one event at a time, from an enabled agent the seed
 * picks. Which interleaving is run does not change the verdict (see the
 * file comment); the seed lets the tests show that. */
static bool run_one_interleaving(order *O, unsigned seed) {
  unsigned x = seed;
  for (bool moved = true; moved;) {
    moved = false;
    int ready[WS_MAX_AGENTS], n = 0;
    for (int a = 0; a < O->m; a++) {
      int can = ws_model_enabled(&O->M, &O->s, a);
      if (can < 0)
        return false;
      if (can)
        ready[n++] = a;
    }
    if (!n)
      break;
    if (seed) {
      x ^= x << 13, x ^= x >> 17, x ^= x << 5; /* xorshift32 */
      if (!take(O, ready[x % (unsigned)n]))
        return false;
      moved = true;
      continue;
    }
    for (int i = 0; i < n; i++) {
      int a = ready[i], can;
      while ((can = ws_model_enabled(&O->M, &O->s, a)) > 0) {
        if (!take(O, a))
          return false;
        moved = true;
      }
      if (can < 0)
        return false;
    }
  }
  return ws_model_stuck(&O->M, &O->s);
}

/* ---- every other interleaving -------------------------------------------- */

/* Condition (c): each named barrier id is passed by one set of agents, the
 * same number of times each, whose threads make its count. */
static bool named_barriers_regular(const order *O) {
  for (int a = 0; a < O->m; a++)
    for (int i = 0; i < O->run->agents[a].n; i++) {
      const ws_event *e = &O->run->agents[a].ev[i];
      if (e->kind != EV_BAR_SYNC)
        continue;
      int times = -1, threads = 0;
      for (int o = 0; o < O->m; o++) {
        const ws_agent *Ag = &O->run->agents[o];
        int n = 0;
        if (Ag->cta != O->run->agents[a].cta)
          continue; /* each CTA has its named barriers */
        for (int j = 0; j < Ag->n; j++)
          if (Ag->ev[j].kind == EV_BAR_SYNC && Ag->ev[j].aux == e->aux) {
            if (Ag->ev[j].value != e->value)
              return false;
            n++;
          }
        if (!n)
          continue;
        if (times >= 0 && n != times)
          return false;
        times = n;
        threads += Ag->mult;
      }
      if (threads != (e->value > 0 ? e->value : O->run->cta_threads))
        return false;
    }
  return true;
}

static const char *where_of(const ws_event *e, char *buf) {
  return ws_model_where(e ? e->op : (MlirOperation){NULL}, buf);
}

/* Event i of agent a happens before every state holding `state`. */
static bool holds(const int *state, int a, int i) { return state[a] > i; }

/* True when event k of agent b touches `ring` (a slot access of it). */
static bool touches(const ws_event *y, int ring) {
  return y->kind != EV_TMA_LOAD && (y->ring == ring || y->ring_b == ring);
}

/* The shared-memory check for access e (agent a, index i, `pre` the
 * smallest state where it moves) of `ring`: every access of a ring whose
 * memory it shares is ordered with it, one way or the other (e before the
 * access is issued, or the access retired before e: taken, or its async
 * read waited for), and no TMA copy into that ring may be in flight. The
 * model's check (protocol_model.c) in every state it can meet. */
static bool order_shared(order *O, int a, int i, const int *pre, const ws_event *e, int ring) {
  ws_model *M = &O->M;
  int m = O->m, q[WS_MAX_AGENTS];
  for (int r2 = 0; r2 < O->run->plan->num_rings && ring >= 0; r2++) {
    if (!ws_model_shares(M, ring, r2))
      continue;
    for (int b = 0; b < m; b++) {
      const ws_agent *B = &O->run->agents[b];
      if (B->cta != e->cta)
        continue; /* another CTA's memory */
      for (int k = 0; k < B->n; k++) {
        if (!touches(&B->ev[k], r2))
          continue;
        O->checks++;
        if (holds(O->clock[b] + (long)k * m, a, i) || holds(pre, b, B->done_at[k]))
          continue;
        return ws_model_shared_race(M, e, ring, r2, b, k);
      }
    }
    for (int l = 0; l < O->num_loads[r2]; l++) {
      int s = O->loads[r2][l] >> 24, j = O->loads[r2][l] & 0xffffff;
      const ws_event *t = &O->run->agents[s].ev[j];
      const int *tv = O->clock[s] + (long)j * m;
      if (t->cta != e->cta)
        continue;
      O->checks++;
      if (holds(tv, a, i))
        continue;
      memcpy(q, pre, (size_t)m * sizeof *q);
      join(q, tv, m);
      const int *landed =
          completion(O, ws_model_barrier(M, t->cta, t->channel, 1, t->slot), t->round + 1);
      if (!landed || !within(landed, q, m)) {
        char loc[64];
        return ws_model_error(M, e, "race",
                              "this op uses ring %d, whose memory ring %d "
                              "shares, while the TMA load at %s into ring %d may be in "
                              "flight",
                              ring, r2, ws_model_where(t->op, loc), r2);
      }
    }
  }
  return true;
}

/* A slot write for round r (agent a, index i, smallest state `pre`): after
 * the writer's own CTA's empty barrier released the slot (in a cluster the
 * readers of every CTA it writes into arrive there), before the target's
 * full barrier publishes it. */
static bool order_write(order *O, int a, int i, const int *pre, const ws_event *e) {
  ws_model *M = &O->M;
  char loc[64], what[64];
  ws_model_what(e->slot, e->ring, what);
  int writer = O->run->agents[a].cta;
  const int *released =
      completion(O, ws_model_barrier(M, writer, e->channel, 0, e->slot), e->round);
  O->checks++;
  if (released && !within(released, pre, O->m))
    return ws_model_error(M, e, "race",
                          "this op writes %s for iteration "
                          "%lld while the reads of iteration %lld may still run: nothing "
                          "orders it after the release at %s",
                          what, e->iter, e->iter - O->run->plan->channels[e->channel].depth,
                          where_of(unordered(O, released, pre), loc));
  if (e->kind == EV_TMA_LOAD) {
    const int *prev = completion(O, ws_model_barrier(M, e->cta, e->channel, 1, e->slot), e->round);
    if (prev && !within(prev, pre, O->m))
      return ws_model_error(M, e, "race",
                            "this TMA load for iteration %lld may be issued "
                            "before the full barrier of channel %d slot %d completes the "
                            "phase before its own (at %s): its bytes would complete that "
                            "phase",
                            e->iter, e->channel, e->slot, where_of(unordered(O, prev, pre), loc));
    return true;
  }
  const int *published =
      completion(O, ws_model_barrier(M, e->cta, e->channel, 1, e->slot), e->round + 1);
  if (published && !holds(published, a, i))
    return ws_model_error(M, e, "race",
                          "this op writes %s for iteration "
                          "%lld, but the full barrier may complete that phase before it (at "
                          "%s): its readers may read it first",
                          what, e->iter, where_of(unordered(O, published, pre), loc));
  return true;
}

/* A slot read for round r: after its full barrier published the slot,
 * before any empty barrier that lets a writer into it (the CTA's own; in a
 * cluster channel, every CTA's) released it. */
static bool order_read(order *O, int a, int i, const int *pre, const ws_event *e, int ring) {
  ws_model *M = &O->M;
  char loc[64], what[64];
  ws_model_what(e->slot, ring, what);
  const int *written =
      completion(O, ws_model_barrier(M, e->cta, e->channel, 1, e->slot), e->round + 1);
  O->checks++;
  if (!written || !within(written, pre, O->m))
    return ws_model_error(M, e, "race",
                          "this op reads %s for iteration "
                          "%lld before the write of that iteration may be complete: nothing "
                          "orders it after %s",
                          what, e->iter,
                          written ? where_of(unordered(O, written, pre), loc)
                                  : "a phase that never completes");
  for (int cta = 0; cta < O->run->ctas; cta++) {
    if (!ws_model_release_reaches(O->run->plan, e->channel, e->cta, cta))
      continue;
    const int *released =
        completion(O, ws_model_barrier(M, cta, e->channel, 0, e->slot), e->round + 1);
    if (released && !holds(released, a, i))
      return ws_model_error(M, e, "race",
                            "this op reads %s for iteration "
                            "%lld, but it may be released before it (the release at %s "
                            "does not wait for it), so the next write may overwrite it",
                            what, e->iter, where_of(unordered(O, released, pre), loc));
  }
  return true;
}

/* Conditions (a) and (b) and the model's checks, for agent a's event i. */
static bool order_event(order *O, int a, int i, const int *pre) {
  ws_model *M = &O->M;
  const ws_event *e = &O->run->agents[a].ev[i];
  char loc[64];
  M->actor = a;
  switch (e->kind) {
  case EV_ARRIVE:
  case EV_EXPECT_TX: {
    const int *opened =
        completion(O, ws_model_barrier(M, e->cta, e->channel, e->full, e->slot), e->round);
    O->checks++;
    if (opened && !within(opened, pre, O->m))
      return ws_model_error(M, e, "counts",
                            "this arrive for iteration %lld (phase %lld of "
                            "slot %d) may reach the %s barrier of channel %d before phase "
                            "%lld completes (nothing orders it after %s): that phase gets "
                            "more arrivals than its count",
                            e->iter, e->round, e->slot, ws_barrier_name(e->full), e->channel,
                            e->round - 1, where_of(unordered(O, opened, pre), loc));
    return true;
  }
  case EV_WAIT: {
    int b = ws_model_barrier(M, e->cta, e->channel, e->full, e->slot);
    long long k = wait_target(e);
    const int *earlier = completion(O, b, k - 1), *later = completion(O, b, k + 1);
    O->checks += 2;
    if (earlier && !within(earlier, pre, O->m))
      return ws_model_error(M, e, "phases",
                            "this wait for iteration %lld is for phase %lld "
                            "of the %s barrier of channel %d slot %d, but it may be reached "
                            "before phase %lld completes (nothing orders it after %s), and "
                            "then the parity of phase %lld lets it through",
                            e->iter, k - 1, ws_barrier_name(e->full), e->channel, e->slot, k - 2,
                            where_of(unordered(O, earlier, pre), loc), k - 3);
    if (later && !holds(later, a, i))
      return ws_model_error(M, e, "deadlock",
                            "this wait for iteration %lld is for phase "
                            "%lld of the %s barrier of channel %d slot %d, but phase %lld may "
                            "complete before it (at %s does not wait for it), and then it "
                            "waits for phase %lld",
                            e->iter, k - 1, ws_barrier_name(e->full), e->channel, e->slot, k,
                            where_of(unordered(O, later, pre), loc), k + 1);
    return true;
  }
  case EV_TMA_LOAD:
  case EV_WRITE:
  case EV_TMEM_WRITE:
    return order_write(O, a, i, pre, e) && order_shared(O, a, i, pre, e, e->ring);
  case EV_TMEM_READ:
  case EV_READ:
  case EV_MMA:
  case EV_TC_MMA:
  case EV_TMEM_COPY:
  case EV_TMA_STORE:
    return order_read(O, a, i, pre, e, e->ring) && order_shared(O, a, i, pre, e, e->ring) &&
           (e->ring_b < 0 ||
            (order_read(O, a, i, pre, e, e->ring_b) && order_shared(O, a, i, pre, e, e->ring_b)));
  default:
    return true;
  }
}

/* Every event of the run, in each agent's order, against its smallest
 * state. Local events (fences, commits) are taken with the event before
 * them and carry no vector of their own. */
static bool order_all(order *O) {
  for (int a = 0; a < O->m; a++) {
    const ws_agent *A = &O->run->agents[a];
    const int *pre = O->start;
    for (int i = O->start[a]; i < A->n;) {
      const int *v = O->clock[a] + (long)i * O->m;
      if (!order_event(O, a, i, pre))
        return false;
      pre = v;
      i = v[a];
    }
  }
  return true;
}

/* ---- entry --------------------------------------------------------------- */

/* Lists the TMA loads into each ring, for the shared-memory check. */
static void index_loads(order *O) {
  for (int a = 0; a < O->m; a++)
    for (int j = 0; j < O->run->agents[a].n; j++) {
      const ws_event *t = &O->run->agents[a].ev[j];
      for (int k = 0; k < 2 && t->kind == EV_TMA_LOAD; k++) {
        int r = k ? t->ring_b : t->ring;
        if (r < 0 || (k && r == t->ring))
          continue;
        O->loads[r] =
            ws_grow(O->loads[r], &O->loads_cap[r], O->num_loads[r] + 1, sizeof **O->loads);
        O->loads[r][O->num_loads[r]++] = a << 24 | j;
      }
    }
}

int ws_order_check(const ws_run *run, unsigned seed, long *states, long *checks) {
  order *O = calloc(1, sizeof *O);
  if (!O)
    abort();
  O->run = run;
  O->m = run->num_agents;
  int result = -1;
  if (!ws_model_init(&O->M, run, &O->s))
    goto out;
  size_t bars = (size_t)O->M.num_bars + 1, rings = (size_t)run->plan->num_rings + 1;
  O->open = ws_zalloc(bars, sizeof *O->open);
  O->done = ws_zalloc(bars, sizeof *O->done);
  O->loads = ws_zalloc(rings, sizeof *O->loads);
  O->num_loads = ws_zalloc(rings, sizeof *O->num_loads);
  O->loads_cap = ws_zalloc(rings, sizeof *O->loads_cap);
  if (!named_barriers_regular(O)) {
    result = 0;
    goto out;
  }
  for (int a = 0; a < O->m; a++) {
    O->start[a] = O->s.pc[a];
    O->clock[a] = calloc((size_t)run->agents[a].n * (size_t)O->m + 1, sizeof *O->clock[a]);
    if (!O->clock[a])
      abort();
  }
  for (int a = 0; a < O->m; a++)
    memcpy(O->cur[a], O->start, (size_t)O->m * sizeof *O->start);
  for (int b = 0; b < O->M.num_bars; b++)
    memcpy(O->open[b], O->start, (size_t)O->m * sizeof *O->start);
  O->states = 1;
  index_loads(O);
  if (run_one_interleaving(O, seed) && order_all(O))
    result = 1;
out:
  *states = O->states;
  *checks = O->checks;
  for (int a = 0; a < WS_MAX_AGENTS; a++)
    free(O->clock[a]);
  for (int b = 0; O->done && b < O->M.num_bars; b++)
    free(O->done[b].v);
  for (int r = 0; O->loads && r < run->plan->num_rings; r++)
    free(O->loads[r]);
  free(O->open);
  free(O->done);
  free(O->loads);
  free(O->num_loads);
  free(O->loads_cap);
  ws_model_state_free(&O->s);
  ws_model_free(&O->M);
  free(O);
  return result;
}
