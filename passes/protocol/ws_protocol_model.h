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

enum { WS_MAX_BARRIERS = 2 * WS_MAX_CHANNELS * 16 * WS_MAX_CLUSTER, WS_MAX_IN_FLIGHT = 16 };

typedef struct ws_barrier_state {
  int completed, pending, tx, nin;
  int in[WS_MAX_IN_FLIGHT]; /* TMA copies in flight: agent << 24 | event index */
} ws_barrier_state;

/* pc[a]: the index of agent a's next event (events before it are taken);
 * events with no effect on other agents are taken with the one before. */
typedef struct ws_model_state {
  int pc[WS_MAX_AGENTS];
  ws_barrier_state bar[WS_MAX_BARRIERS];
} ws_model_state;

typedef struct ws_model {
  const ws_run *run;
  int num_agents, num_bars;
  int base[WS_MAX_CHANNELS][2]; /* first barrier of (channel, full) in CTA 0 */
  int per_cta;                  /* barriers of one CTA: CTA c's follow at c * per_cta */
  /* per agent and ring that shares memory (else null), at each position:
   * the index of the access of the ring that keeps the agent busy with it
   * there, -1 when none (see index_shared_accesses) */
  int *reach[WS_MAX_AGENTS][WS_MAX_RINGS];
  bool shares[WS_MAX_RINGS][WS_MAX_RINGS]; /* rings of different channels that overlap */
  int actor;                               /* the agent whose event is being checked, or -1 */
} ws_model;

/* Sets up the model of `run` and its initial state; false after a located
 * error (more barriers than the model holds). */
bool ws_model_init(ws_model *M, const ws_run *run, ws_model_state *s);

/* Frees what ws_model_init allocated (also after it failed). */
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
