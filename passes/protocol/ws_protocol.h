/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_protocol.h: the model ws-check-protocol proves its rules on (see
 * check_protocol.c for what is proved and how). Internal.
 *
 *   protocol_report.c   array growth, names and the rule-error form all
 *                       the others use
 *   protocol_compile.c  compiles a specialized kernel into a small program
 *                       over integers (protocol_program.h), and
 *   protocol_run.c      runs it for every thread of the
 *                       block and a given trip count of the partition loops:
 *                       each thread's protocol events, threads with equal
 *                       events in one warpgroup grouped into agents
 *   protocol_rules.c    the rules one agent's events, or the sum over all
 *                       agents, decide: balance, phases, counts, expect-tx,
 *                       proxy fences, wgmma and bulk waits, registers, init
 *   protocol_model.c    the agents as a transition system over the barriers
 *                       (ws_protocol_model.h), with the checks of each move
 *   protocol_order.c    every interleaving decided from one and its
 *                       happens-before order (the default method)
 *   protocol_explore.c  every interleaving, state by state (method=states:
 *                       the reference, and the fallback for named barriers
 *                       the order method does not take) */
#ifndef WS_PROTOCOL_H
#define WS_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>

#include "mlir-c/IR.h"
#include "../plan/ws_plan.h"
#include "../support/ws_op_list.h"

typedef enum ws_ev_kind {
  EV_INIT,         /* ws.init_barrier: channel, full, value = count */
  EV_INIT_FENCE,   /* nvvm.fence.mbarrier.init */
  EV_CTA_SYNC,     /* nvvm.barrier0 */
  EV_BAR_SYNC,     /* nvvm.barrier id, n: aux = id, value = threads */
  EV_SETMAXNREG,   /* value = registers, aux = 1 for increase */
  EV_WAIT,         /* ws.wait: channel, full, slot, iter, round, parity */
  EV_ARRIVE,       /* ws.arrive */
  EV_EXPECT_TX,    /* ws.arrive_expect_tx (on full): value = bytes */
  EV_TMA_LOAD,     /* ring, slot...: value = bytes (async write) */
  EV_WRITE,        /* ws.write_slot (generic write) */
  EV_READ,         /* ws.read_slot (generic read) */
  EV_MMA,          /* ws.mma: ring, ring_b (async reads) */
  EV_TMA_STORE,    /* ring (async read) */
  EV_PROXY_FENCE,  /* nvvm.fence.proxy of an async kind */
  EV_WGMMA_COMMIT, /* nvvm.wgmma.commit.group */
  EV_WGMMA_WAIT,   /* value = groups left pending */
  EV_MMA_DONE,     /* ws.mma_done: value = how many events back the ws.mma
                      that made its tile is (0: no ws.mma made it) */
  EV_BULK_COMMIT,  /* nvvm.cp.async.bulk.commit.group */
  EV_BULK_WAIT,    /* value = groups left pending, aux = 1 for .read */
  /* sm_100a: tcgen05 and tensor memory. ws.commit is EV_TC_COMMIT, then an
   * EV_ARRIVE with aux = 1 (the arrival lands once the MMAs it tracks are
   * done: every later observer of the barrier sees them done). */
  EV_TC_MMA,       /* ws.tc_mma: ring, ring_b (async reads until a commit) */
  EV_TMEM_COPY,    /* ws.tmem_copy: ring (an async read until a commit) */
  EV_TMEM_WRITE,   /* ws.tc_mma: its accumulator buffer (channel, slot) */
  EV_TMEM_READ,    /* ws.tmem_load: the buffer (channel, slot) */
  EV_TC_COMMIT,    /* ws.commit: tracks every tcgen05 op issued before */
  EV_TC_FENCE,     /* nvvm.tcgen05.fence: aux = 1 before_thread_sync */
  EV_TMEM_ALLOC,   /* ws.tmem_alloc */
  EV_TMEM_DEALLOC, /* ws.tmem_dealloc */
  /* clusters: nvvm.cluster.arrive (aux = 1: nvvm.cluster.arrive.relaxed,
   * which orders none of the thread's accesses before it) and
   * nvvm.cluster.wait, the barrier of every thread of every CTA of the
   * cluster */
  EV_CLUSTER_ARRIVE,
  EV_CLUSTER_WAIT,
  WS_NUM_EV_KINDS
} ws_ev_kind;

/* A cluster kernel (ws.cluster) runs its CTAs side by side: each event
 * touches the barrier or slot of one CTA (`cta`: its own, or a peer's for
 * a remote arrival or a multicast copy). ws.arrive {cluster} is one event
 * per CTA of the cluster, each an arrival of every warp of the agent
 * (per_warp); a multicast ws.tma_load is one copy per CTA, each of the
 * loading CTA's part of the tile's bytes. The proof models as many CTAs
 * as ws builds a cluster of (the target table's max_cluster, 2 on both
 * chips: ws-verify refuses a larger ws.cluster first); a chip row with a
 * larger one raises this with it. */
enum { WS_MAX_CLUSTER = 2 };

typedef struct ws_event {
  MlirOperation op;
  long long iter;  /* the iteration count ws.slot_phase turned into the slot */
  long long round; /* iter / depth: which use of the slot */
  int kind, channel, full, ring, ring_b, slot, parity, value, aux;
  int cta;       /* the CTA whose barrier or slot it touches */
  bool per_warp; /* an arrival by each warp of the agent, not each thread */
} ws_event;

/* Threads of one warpgroup that run the same events after the block-wide
 * barrier: modelled as one process that arrives `mult` times at once. */
typedef struct ws_agent {
  ws_event *ev;
  int n;
  int mult, warpgroup, first_warp, last_warp, first_thread;
  int cta;      /* its CTA's rank in the cluster (0 without one) */
  int part;     /* partition of first_warp, or -1 */
  int *done_at; /* per event: for async reads, the index of the wait that
                   retires them (n when none does); else the event itself */
} ws_agent;

typedef struct ws_thread_regs {
  MlirOperation op; /* the first setmaxnreg, or null */
  int count, value, increase;
} ws_thread_regs;

/* WS_MAX_AGENTS: a CTA runs at most 32 warps, and the threads of a warp
 * run at most two sequences of protocol events (its elected thread's and
 * the others'), so each CTA of a cluster has at most 64 agents. */
enum {
  WS_MAX_AGENTS = 2 * 32 * WS_MAX_CLUSTER,
  WS_MAX_THREADS = 1024 * WS_MAX_CLUSTER,
  WS_MAX_SEQUENCE = 8
};

/* One run: the kernel's events for one trip count. */
typedef struct ws_run {
  const ws_plan *plan;
  long long trips; /* iterations of every runtime-bounded (K) loop */
  long long tiles; /* of every tile loop of a persistent kernel; else -1 */
  /* a stream-K run (ws_protocol_run_sequence): tile iteration i runs
   * seq[i] K steps (seq_len > 0), trips is the most of them */
  long long seq[WS_MAX_SEQUENCE];
  int seq_len;
  ws_agent agents[WS_MAX_AGENTS];
  int num_agents;
  /* ws.init_barrier per channel (plan->num_channels of them) and barrier
   * (0 empty, 1 full): the first op, its count and the threads of each CTA
   * that run it. */
  struct ws_channel_init {
    MlirOperation op[2];
    int count[2], threads[WS_MAX_CLUSTER][2];
  } *init;
  bool init_fenced;       /* fence.mbarrier.init after the last init */
  MlirOperation cta_sync; /* the barrier after the inits; null when no thread reached one */
  /* A cluster kernel: whether that barrier is the cluster's (nvvm.cluster
   * arrive and wait: the inits are visible to the peers before they arrive
   * or copy), and the cluster barrier every thread ends with (exit_sync,
   * reached by exit_threads), so that no CTA exits while a peer may still
   * write into it. The first's arrive may be relaxed
   * (nvvm.cluster.arrive.relaxed; publish_relaxed, the op) where the
   * fence.mbarrier.init before it orders the inits and nothing else needs
   * publishing; the exit's may not (exit_relaxed: a remote arrival or copy
   * before it may still be in flight when the peer exits). */
  bool cluster_published;
  MlirOperation exit_sync, publish_relaxed, exit_relaxed;
  /* a relaxed arrive after inits of its own thread that no
   * fence.mbarrier.init of that thread orders before it */
  MlirOperation relaxed_unfenced;
  int exit_threads;
  /* Tensor memory (sm_100a): the threads that allocate before cta_sync
   * (fenced: a tcgen05.fence::before_thread_sync after it), and after the
   * kernel's last block-wide barrier (final_sync, reached by
   * final_threads), the threads that free it (fenced: a
   * tcgen05.fence::after_thread_sync before). unfenced_read: a thread's
   * last tcgen05.ld with no fence::before_thread_sync before final_sync. */
  MlirOperation tmem_alloc, tmem_dealloc, final_sync, unfenced_read;
  int alloc_threads, alloc_warp, dealloc_threads, dealloc_warp, final_threads;
  bool alloc_fenced, dealloc_fenced;
  int threads;     /* of every CTA of the cluster */
  int ctas;        /* the cluster's CTAs (1: none) */
  int cta_threads; /* of one CTA (the block) */
  ws_thread_regs regs[WS_MAX_THREADS];
} ws_run;

typedef struct ws_program ws_program;

/* Compiles the specialized kernel `func` (plan read from it). Null after a
 * located error: an op the check cannot follow, a slot not made by
 * ws.slot_phase, a slot_phase whose depth or start phase contradicts the
 * channel table. */
ws_program *ws_protocol_compile(MlirOperation func, const ws_plan *plan);
void ws_protocol_free(ws_program *p);

/* The period of the protocol in iterations (every slot at every phase). */
int ws_protocol_period(const ws_program *p);

/* What the protocol's decisions owe to the iteration of each loop level
 * (protocol_horizon.c): they repeat with a multiple of `period` past
 * `start` iterations from the first and before `end` from the last (the
 * constants of comparisons with the trip count), so runs of up to
 * start + end + Q + 2 trips cover every trip count, Q the lcm of `period`
 * and the level's ring period. `*_op` is the op that set each (for the
 * error when the count is past what the proof runs). False after a
 * located error (a decision of no such form), with `failed` set. */
typedef struct ws_horizon {
  long long start[2], end[2], period[2];
  MlirOperation start_op[2], end_op[2], period_op[2];
  bool failed;
} ws_horizon;

/* The most trips the proof runs a level to cover every trip count. */
enum { WS_HORIZON_MAX = 64 };

bool ws_protocol_horizon(const ws_program *p, long long limit, ws_horizon *out);

/* A persistent kernel: loops with protocol ops nest two deep (each
 * partition's tile loop, with its K loop inside). The periods of its two
 * kinds of channel: the lcm of the depths of those stepped inside the K
 * loops, and of those stepped once per tile (the C hand-off). */
bool ws_protocol_is_nested(const ws_program *p);
int ws_protocol_tile_period(const ws_program *p);
int ws_protocol_k_period(const ws_program *p);

/* Runs every thread with loops of runtime bounds taking `trips` iterations
 * (a nested kernel's tile loops take `tiles`, its K loops `trips`) and
 * fills `run`. False after a located error. Free with ws_run_free. */
bool ws_protocol_run(ws_program *p, long long trips, long long tiles, ws_run *run);
void ws_run_free(ws_run *run);

/* A stream-K kernel (ws.stream_k_unit in its tile loops): its tile
 * iterations may each run K steps of their own. ws_protocol_run gives
 * every one `trips`; ws_protocol_run_sequence gives iteration i seq[i],
 * over `tiles` (at most WS_MAX_SEQUENCE) iterations. */
bool ws_protocol_is_stream_k(const ws_program *p);
bool ws_protocol_run_sequence(ws_program *p, const long long *seq, int tiles, ws_run *run);

/* The rules of protocol_rules.c, each false after a located error. */
bool ws_check_memory_map(const ws_plan *plan);
bool ws_check_run_rules(ws_run *run);

/* Explores every interleaving of run's agents; false after a located error
 * (a deadlock, an arrival past a phase, a slot race). `max_states` bounds
 * the work: past it the check fails rather than guess. `*states` gets the
 * number of states visited. */
bool ws_explore(const ws_run *run, long max_states, long *states);

/* Decides every interleaving of run's agents from one interleaving and its
 * happens-before order (protocol_order.c): 1 when proved, -1 after a
 * located error, 0 when the run is outside what the method takes (named
 * barriers passed by more threads than their count, or unevenly): then
 * ws_explore decides it. `seed` picks the interleaving run (0: each agent
 * in turn as far as it goes); the verdict does not depend on it. `*states` gets the states of the
 * interleaving run,
 * `*checks` the ordering checks made. */
int ws_order_check(const ws_run *run, unsigned seed, long *states, long *checks);

/* Messages. Emits "'OP' op breaks the protocol rule 'RULE': MESSAGE" at op;
 * returns false. */
bool ws_rule_error(MlirOperation op, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
const char *ws_barrier_name(int full);
/* The arrivals agent A's arrive event e makes: its threads, or its warps. */
int ws_event_arrivals(const ws_agent *A, const ws_event *e);

/* "the compute partition (warps 0-3)" into buf ("... of CTA 1" in a
 * cluster). */
const char *ws_agent_name(const ws_run *run, const ws_agent *a, char *buf, int cap);

/* The most iterations a channel's count can reach in the run: the K
 * trips, times the tiles of a persistent kernel. */
long long ws_run_span(const ws_run *run);

/* How many iterations the run takes, for messages: "3 iterations", or
 * "2 tiles of 3 iterations" for a persistent kernel. */
const char *ws_trips_text(const ws_run *run, char *buf, int cap);
/* "12:7" for op's location, into buf. */
const char *ws_op_where(MlirOperation op, char *buf, int cap);
/* The first event of `kind` on `ring` (any agent; ring -1: any), or null. */
const ws_event *ws_find_event(const ws_run *run, int kind, int ring);

#endif
