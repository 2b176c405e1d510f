/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_protocol_model.h: the protocol as a transition system, the one model
 * both ways of proving it run (see protocol_model.c for its semantics).
 * Internal.
 *
 *   protocol_model.c    a state (each agent's position, each barrier's
 *                       phase, arrivals, expect-tx and TMA copies in flight),
 *                       which agent may move, what a move does and the
 *                       checks each move makes
 *   protocol_explore.c  every reachable state, one by one (method=states)
 *   protocol_order.c    one interleaving per trip count and the
 *                       happens-before order it shows, which covers every
 *                       other interleaving (method=order, the default) */
#ifndef WS_PROTOCOL_MODEL_H
#define WS_PROTOCOL_MODEL_H

#include "ws_protocol.h"

/* A barrier's state; `in` (room for the model's max_in) lists the TMA
 * copies in flight on it, agent << 24 | event index. */
typedef struct ws_barrier_state {
  int completed, pending, tx, nin;
  int *in;
} ws_barrier_state;

/* pc[a]: the index of agent a's next event (events before it are taken);
 * events with no effect on other agents are taken with the one before.
 * bar: the model's num_bars barriers, their in-flight lists in `pool`
 * (ws_model_state_alloc). */
typedef struct ws_model_state {
  int pc[WS_MAX_AGENTS];
  ws_barrier_state *bar;
  int *pool;
} ws_model_state;

/* The model's tables are sized by the run: a channel's barriers, a ring's
 * accesses and the copies that can be in flight on a barrier (max_in: the
 * most TMA copies the run makes onto one barrier) have no fixed bound. */
typedef struct ws_model {
  const ws_run *run;
  int num_agents, num_bars, num_rings, max_in;
  int (*base)[2]; /* per channel: first barrier of (channel, full) in CTA 0 */
  int per_cta;    /* barriers of one CTA: CTA c's follow at c * per_cta */
  /* per agent and ring that shares memory (else null), at each position:
   * the index of the access of the ring that keeps the agent busy with it
   * there, -1 when none (see index_shared_accesses) */
  int **reach[WS_MAX_AGENTS];
  bool *shares; /* num_rings x num_rings: rings of different channels that overlap */
  int actor;    /* the agent whose event is being checked, or -1 */
} ws_model;

/* True when rings r and q of different channels overlap in memory. */
static inline bool ws_model_shares(const ws_model *M, int r, int q) {
  return M->shares[(long)r * M->num_rings + q];
}

/* Sets up the model of `run` and its initial state (allocated as by
 * ws_model_state_alloc); false after a located error. */
bool ws_model_init(ws_model *M, const ws_run *run, ws_model_state *s);

/* Room for a state of the model; ws_model_state_free frees it. */
void ws_model_state_alloc(const ws_model *M, ws_model_state *s);
void ws_model_state_free(ws_model_state *s);

/* Copies state `from` into `to` (both of the model). */
void ws_model_state_copy(const ws_model *M, ws_model_state *to, const ws_model_state *from);

/* Frees what ws_model_init allocated (also after it failed), the initial
 * state aside. */
void ws_model_free(ws_model *M);

/* 1 when agent a can take its next event in s, 0 when it cannot (exited or
 * blocked), -1 after a located error. */
int ws_model_enabled(ws_model *M, const ws_model_state *s, int a);

/* Takes agent a's next event (enabled) into s, running the checks a move
 * makes (arrival phase and count, slot races, shared memory); false after a
 * located error. A named barrier moves every agent waiting at it. */
bool ws_model_step(ws_model *M, ws_model_state *s, int a);

/* At a state where no agent can move: true when it is the end (every agent
 * exited, no copy in flight), else a located 'deadlock' error. */
bool ws_model_stuck(ws_model *M, const ws_model_state *s);

/* The index in s->bar of (channel, full, slot) in CTA `cta`. */
int ws_model_barrier(const ws_model *M, int cta, int channel, int full, int slot);

/* True when CTA `cta`'s empty barrier of the channel lets a writer into a
 * slot a reader of CTA `reader` reads: its own, every CTA's when the
 * channel's releases reach every CTA, the leader's when they reach it. */
bool ws_model_release_reaches(const ws_plan *plan, int channel, int reader, int cta);

/* "slot 2 of ring 1", or for the accumulator in tensor memory (ring -1)
 * "accumulator buffer 0 (tensor memory)", into buf (64 bytes), for
 * messages. */
const char *ws_model_what(int slot, int ring, char *buf);

/* The event an in-flight id names. */
const ws_event *ws_model_event(const ws_model *M, int id);

/* Emits "with T iterations, in AGENT, MESSAGE" as a located error of rule
 * `rule` at e (AGENT: M->actor, when set); returns false. */
bool ws_model_error(ws_model *M, const ws_event *e, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The 'race' error of access e of `ring` against event k of agent b,
 * which touches ring r2 over the same memory with nothing ordering them;
 * returns false. */
bool ws_model_shared_race(ws_model *M, const ws_event *e, int ring, int r2, int b, int k);

/* "12:7" for op (or "nowhere" for a null op), into buf of 64 bytes. */
const char *ws_model_where(MlirOperation op, char *buf);

#endif
