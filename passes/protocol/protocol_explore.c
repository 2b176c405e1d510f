/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* protocol_explore.c: every reachable state of a run's model
 * (protocol_model.c), one by one: method=states of ws-check-protocol.
 *
 * A depth-first search from the initial state takes every enabled agent's
 * next event in every state it reaches; visited states are hashed, so each
 * is expanded once. Each move runs the model's checks, and a state where no
 * agent can move must be the end. This decides every rule the model checks
 * for every interleaving, directly; its cost is the number of reachable
 * states, which grows steeply with the ring depth and the number of agents
 * (an 8-stage elementwise kernel has millions). protocol_order.c decides
 * the same by one interleaving and the happens-before order; this search
 * stays as the reference it is tested against, and decides the protocols
 * that method does not take (named barriers with more threads than their
 * count). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ws_protocol_model.h"
#include "../../dialect/ws_text.h"

typedef ws_model_state state;

typedef struct explorer {
  ws_model M;
  /* visited states, encoded, in an arena; open-addressing set of offsets */
  int *arena;
  long arena_n, arena_cap;
  long *table;
  long table_cap, table_used;
  long *stack;
  long stack_n, stack_cap;
  long states, max_states;
} explorer;

/* ---- state sets ---------------------------------------------------------- */

static int encode(const explorer *X, const state *s, int *out) {
  int n = 0;
  for (int a = 0; a < X->M.num_agents; a++)
    out[n++] = s->pc[a];
  for (int b = 0; b < X->M.num_bars; b++) {
    const ws_barrier_state *r = &s->bar[b];
    out[n++] = r->completed;
    out[n++] = r->pending;
    out[n++] = r->tx;
    out[n++] = r->nin;
    for (int i = 0; i < r->nin; i++)
      out[n++] = r->in[i];
  }
  return n;
}

static void decode(const explorer *X, const int *in, state *s) {
  int n = 0;
  for (int a = 0; a < X->M.num_agents; a++)
    s->pc[a] = in[n++];
  for (int b = 0; b < X->M.num_bars; b++) {
    ws_barrier_state *r = &s->bar[b];
    r->completed = in[n++];
    r->pending = in[n++];
    r->tx = in[n++];
    r->nin = in[n++];
    for (int i = 0; i < r->nin; i++)
      r->in[i] = in[n++];
  }
}

static uint64_t hash_ints(const int *v, int n) {
  uint64_t h = 1469598103934665603ull;
  for (int i = 0; i < n; i++)
    h = (h ^ (uint32_t)v[i]) * 1099511628211ull;
  return h ^ (h >> 29);
}

static void table_insert(explorer *X, long offset);

static void table_grow(explorer *X) {
  long old = X->table_cap;
  long *t = X->table;
  X->table_cap = old ? old * 2 : 1 << 14;
  X->table = malloc((size_t)X->table_cap * sizeof *X->table);
  if (!X->table)
    abort();
  memset(X->table, 0xff, (size_t)X->table_cap * sizeof *X->table);
  X->table_used = 0;
  for (long i = 0; i < old; i++)
    if (t[i] >= 0)
      table_insert(X, t[i]);
  free(t);
}

/* Offsets point at [length, ints...]. */
static void table_insert(explorer *X, long offset) {
  const int *v = X->arena + offset;
  uint64_t h = hash_ints(v + 1, v[0]);
  long i = (long)(h & (uint64_t)(X->table_cap - 1));
  while (X->table[i] >= 0)
    i = (i + 1) & (X->table_cap - 1);
  X->table[i] = offset;
  X->table_used++;
}

/* Adds the state to the set; true (and pushed for a visit) when new. */
static bool visit(explorer *X, const state *s) {
  if (2 * (X->table_used + 1) > X->table_cap)
    table_grow(X);
  int need = X->M.num_agents + X->M.num_bars * 4 + X->M.num_bars * X->M.max_in + 1;
  X->arena = ws_grow(X->arena, &X->arena_cap, X->arena_n + need, sizeof *X->arena);
  int *v = X->arena + X->arena_n;
  v[0] = encode(X, s, v + 1);
  uint64_t h = hash_ints(v + 1, v[0]);
  long i = (long)(h & (uint64_t)(X->table_cap - 1));
  for (; X->table[i] >= 0; i = (i + 1) & (X->table_cap - 1)) {
    const int *w = X->arena + X->table[i];
    if (w[0] == v[0] && memcmp(w + 1, v + 1, (size_t)v[0] * sizeof *v) == 0)
      return false;
  }
  X->table[i] = X->arena_n;
  X->table_used++;
  X->stack = ws_grow(X->stack, &X->stack_cap, X->stack_n + 1, sizeof *X->stack);
  X->stack[X->stack_n++] = X->arena_n;
  X->arena_n += v[0] + 1;
  X->states++;
  return true;
}

/* Explores every interleaving; see ws_protocol.h. */
bool ws_explore(const ws_run *run, long max_states, long *states) {
  explorer *X = calloc(1, sizeof *X);
  state *s = malloc(sizeof *s), *next = malloc(sizeof *next);
  if (!X || !s || !next)
    abort();
  X->max_states = max_states;
  ws_model *M = &X->M;
  bool ok = ws_model_init(M, run, s);
  ws_model_state_alloc(M, next);
  if (ok)
    visit(X, s);
  while (ok && X->stack_n) {
    long offset = X->stack[--X->stack_n];
    decode(X, X->arena + offset + 1, s);
    bool moved = false;
    for (int a = 0; a < M->num_agents && ok; a++) {
      int can = ws_model_enabled(M, s, a);
      if (can < 0) {
        ok = false;
        break;
      }
      if (!can)
        continue;
      moved = true;
      ws_model_state_copy(M, next, s);
      ok = ws_model_step(M, next, a);
      if (ok)
        visit(X, next);
    }
    if (ok && !moved)
      ok = ws_model_stuck(M, s);
    if (ok && X->states > X->max_states) {
      char trips[64];
      ws_emit_op_error(run->plan->func,
                       "cannot be checked: its protocol has more than %ld "
                       "states with %s; ws-check-protocol{max-states=N} raises "
                       "the bound (each million states costs about 0.1 GB and 3 s here)",
                       X->max_states, ws_trips_text(run, trips, sizeof trips));
      ok = false;
    }
  }
  *states = X->states;
  ws_model_state_free(s);
  ws_model_state_free(next);
  ws_model_free(M);
  free(X->arena);
  free(X->table);
  free(X->stack);
  free(X);
  free(s);
  free(next);
  return ok;
}
