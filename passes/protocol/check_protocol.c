/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* check_protocol.c: ws-check-protocol, which proves that the protocol a
 * specialized kernel runs cannot deadlock or race, or fails with an error at
 * the op that breaks a rule (and names the op it conflicts with).
 *
 * What it reads: the IR ws-specialize leaves, nothing else. Every
 * partition is a branch on the thread index with its own loop; the protocol
 * is ops (ws.init_barrier, ws.slot_phase, ws.wait, ws.arrive,
 * ws.arrive_expect_tx, ws.tma_load/tma_store, ws.read_slot/write_slot,
 * ws.mma, nvvm fences, wgmma and bulk-group commits and waits, nvvm.barrier,
 * setmaxregister); barriers, rings and slot bytes are the kernel's
 * ws.channels and ws.rings. A plan saved and edited by hand is checked the
 * same way.
 *
 * The abstraction (protocol_compile.c, protocol_run.c): the kernel is run for every thread of
 * the block, with integer arithmetic, the thread index, elect.sync and
 * ws.slot_phase evaluated and every other value unknown. The partition
 * loops run T times, for every T from 0 to max(2P + 2, S + E + Q + 2),
 * where P is the protocol's period (the lcm of the ring depths): every
 * slot in both phases, the first uses, the steady state and the drain.
 * S, E and Q come from the program (protocol_horizon.c, which states why
 * these runs cover every trip count): how far from the first and the last
 * iteration a decision compares the iteration with constants, and the
 * period its remainders add; a decision of no such form, or one that
 * would need more than 64 more trips, is refused (rule 'trips'). Threads
 * of a warpgroup with equal events form one agent.
 *
 * A persistent kernel nests its loops two deep: each partition's tile loop,
 * with the K loop inside (the consumers' and the load warp's). Both levels
 * have runtime bounds, so the run takes two counts: K loops run T times for
 * T from 0 to at least 2 x Pk + 2 (Pk: the lcm of the depths of the
 * channels stepped inside the K loops, the A/B rings), tile loops N times
 * for N from 0 to at least 2 x Pt + 2 (Pt: the lcm of the depths of the
 * channels stepped once per tile, the C hand-off), every pair; each level
 * longer where its decisions ask (protocol_horizon.c). The counts a channel carries go on
 * from tile to tile, so tile i's K steps start at count i x T, and the
 * rules see the phase each wait and arrive is for across tile boundaries.
 * N need not reach the K rings' period: a tile boundary at another residue
 * of the K count only renames the rings' slots and flips their phases,
 * which no rule depends on, and the start (all slots free) is the first
 * tile's, which every T covers. A loop without protocol ops over the
 * bounds of a level (the ping-pong consumers' count of a tile's K steps)
 * runs that level's count, so what it computes is known. Ping-pong
 * consumers take every other tile, so each warpgroup's waits and arrives
 * skip the other's iterations: 'phases' holds them to increasing
 * iterations instead of consecutive ones, and the sums over agents still
 * give every phase its arrivals and its count.
 *
 * The rules, each named in its errors:
 *   memory       barrier arrays and rings lie inside the kernel's shared
 *                memory and apart (rings of two channels may share memory;
 *                'race' proves them apart in time)
 *   align        every mbarrier on 8 bytes; every ring at its row's
 *                alignment, a power of two covering its TMA boxes (128
 *                bytes; 8 rows of a swizzled box's span), slots a multiple
 *                of it apart; tensor memory allocated in a power of two of
 *                32 to 512 columns holding its buffers, its address word on
 *                4 bytes
 *   init         one thread initializes each barrier, fences the inits and
 *                the block-wide barrier publishes them before any use
 *   phases       slot = i mod depth with the channel's depth, the phase
 *                flips every depth iterations, producers start at phase 1
 *                and consumers at 0, the n-th wait or arrive of a partition
 *                on a barrier is for iteration n, in every copy of the loop
 *                (a wait repeated for the phase it just waited for, with no
 *                arrive, copy or commit of its own on the channel between,
 *                passes at once and counts once); in every interleaving a
 *                wait passes on the phase it is for, never on an older one
 *                of the same parity
 *   parts        a ring held in parts (store-boxes) is written part j of a
 *                tile in iteration n * parts + j, the part its slot's store
 *                takes
 *   balance      a slot is accessed only between the wait that takes it for
 *                its iteration and the arrive that hands it on; every phase
 *                some wait needs gets arrivals on every path (scf.if,
 *                zero-trip loops)
 *   counts       the threads arriving on a barrier in a phase equal its init
 *                count, and every arrive lands in the phase of its iteration
 *   barrier      the block-wide barrier (bar.sync 0: nvvm.barrier0,
 *                gpu.barrier) comes once, before the partitions; a named
 *                barrier is a constant id from 1 to 15 for a constant
 *                multiple of 32 threads; no other synchronizing op (an
 *                mbarrier, bar.arrive, a raw TMA, wgmma or tcgen05 op)
 *                appears but the ones the check models
 *   trips        every decision that depends on the iteration repeats with
 *                a period past a prefix and before a suffix that the runs
 *                cover (no product, xor or shift of the iteration, no
 *                threshold past 64 more trips)
 *   boxes        every TMA copy moves the tile of the ring slot it fills or
 *                reads, in shape and element type
 *   expect-tx    the bytes expected on a full barrier equal the bytes of the
 *                TMA copies that complete on it in that phase
 *   proxy-fence  a fence.proxy.async separates a partition's generic
 *                accesses of a slot from the arrive that hands it to the
 *                async proxy (TMA, wgmma); only a fence of shared memory
 *                counts, of kind async (every state space) or async.shared
 *                (of the CTA or the cluster), never async.global
 *   wgmma-wait   a slot wgmma reads is released only after a
 *                wgmma.wait_group that retires that wgmma
 *   mma-done     a product wgmma writes is read (ws.mma_done, a lagged
 *                loop's math) only after a wgmma.wait_group that retires
 *                the ws.mma that made it
 *   bulk-wait    a TMA store's source slot is released only after a
 *                cp.async.bulk.wait_group(.read) that covers the store, and
 *                every store is drained before exit
 *   registers    every thread of a warpgroup runs exactly one setmaxnreg,
 *                all with one value, a multiple of 8 in [24, 256], up from
 *                or down to the entry cap; the warpgroups' total fits the
 *                block's pool (cap x threads), and the blocks of an SM fit
 *                its 65536 registers
 *   race         no access of a slot while its other side may access it:
 *                decided over every interleaving (protocol_order.c)
 *   deadlock     every interleaving ends with every partition at its exit
 *                and no TMA copy in flight, and no barrier can complete a
 *                phase past a wait that has not passed (protocol_order.c)
 * The first five, 'proxy-fence', the three waits and 'registers' are decided
 * on each run without interleaving (protocol_rules.c); 'race', 'deadlock'
 * and the phase an arrive lands in are decided over every interleaving of
 * the agents as automata over the barriers (protocol_model.c).
 *
 * How every interleaving is decided (method=order, the default;
 * protocol_order.c has the argument in full). The partitions interact only
 * through the barriers, and on a barrier only in one way: a phase completes
 * once its arrivals and copies are in, and a wait passes once the phase it
 * is for has completed. Arrivals and copies commute, waits only read. So if
 * every arrive and copy lands in the phase of its own iteration, every wait
 * passes on the phase it is for (not on an older one of the same parity, and
 * not after the barrier ran a phase past it), and each named barrier is
 * passed by one fixed set of agents, then an event can move exactly when its
 * predecessors in one partial order (program order, arrivals before their
 * phase's completion, completions before their waits) have moved. Then the
 * reachable states are exactly the down-closed sets of that order, every
 * interleaving ends in the same state, and any one interleaving shows
 * whether the protocol deadlocks. The check runs one interleaving per trip
 * count, gives every event and every phase completion a vector clock (the
 * smallest reachable state holding it), and decides each rule in the
 * smallest state where it could fail: the three conditions themselves, each
 * slot access against the completions that must precede or follow it, and
 * each access of shared ring memory against every access of the other
 * ring (ordered one way or the other, async reads until their wait). That is
 * the same set of states the state-by-state search visits, decided without
 * visiting them: linear in the events where the search grows exponentially
 * with the ring depth. Which interleaving is run does not matter (seed= runs
 * another, and the tests show the verdicts agree), and method=states, the
 * search itself, stays as the reference the tests compare against and
 * decides the kernels outside the third condition (named barriers passed by
 * more threads than their count).
 *
 * A cluster kernel (ws.cluster) is run CTA by CTA, every thread of every
 * CTA of the cluster, and checked as one block whose barriers and slots
 * are per CTA: each event names the CTA it touches (a peer's, for a remote
 * arrival or a multicast copy, which is one copy per CTA). A write waits
 * for its writer's empty barrier, which the readers of every CTA it writes
 * into arrive on; a read must precede every empty barrier that lets a
 * writer in. Named barriers are per CTA. Three rules more:
 *   init         (also) a cluster barrier publishes the inits when CTAs
 *                touch each other's barriers or slots; its arrive may be
 *                relaxed only after its thread's own fence.mbarrier.init
 *                of them and where nothing else needs publishing (no
 *                tensor-memory alloc before it, in a kernel of any size)
 *   cluster-sync no cluster barrier but the one after the inits and the
 *                one that ends every thread
 *   cluster-exit every thread of every CTA ends at a cluster barrier whose
 *                arrive releases, so no CTA exits while a peer may still
 *                arrive on its barriers or copy into its slots
 * The CTAs run the same program (the rank is known, and the scheduler
 * made the loops' bounds the same in every CTA).
 *
 * What is assumed: loops with runtime bounds in different partitions share
 * one lb/ub/step per nesting level (checked) and so one trip count; a run
 * with T > 2 x P + 2 repeats the slot and phase pattern of a shorter one; elect.sync elects
 * lane 0; threads of a warpgroup with equal events can be treated as one
 * agent (they arrive together); the hardware's mbarrier, TMA, wgmma and
 * bulk-group semantics are as stated in protocol_model.c. What is not
 * checked: the data a tile holds (the lowering and the GPU tests cover it).
 *
 * Cost: explain=true prints the states of the interleavings run and the
 * happens-before checks made. On the 8-stage elementwise kernels (2 to 6
 * input rings) 3,505 to 5,557 states over T = 0..18, 4 to 9 ms of a 70 to
 * 110 ms ws-pipeline (method=states visits 2.5 to over 10 million states
 * there: 6 to 30 s); on the 128x256x64 matmul 660 states, 2.6 ms of 350 ms
 * (integration/bench/proof_cost.py measures it). The interpreter that runs
 * every thread for each trip count is most of it; its cost grows with the
 * square of 2 x P + 2, so a hand-edited plan whose ring depths have a large
 * lcm costs more. max-states bounds method=states per trip count; past it
 * the check fails with an error naming the option, it never guesses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/ws_pass.h"
#include "../plan/ws_plan.h"
#include "ws_protocol.h"
#include "../../dialect/ws_text.h"

/* What proving a kernel cost, for explain=true. */
typedef struct proof_cost {
  long states, checks;
  long long explored; /* trip counts left to the state-by-state search */
} proof_cost;

/* Decides every interleaving of one run: by happens-before, or state by
 * state when asked to or when the run is outside that method. */
static bool prove_run(const ws_run *run, const ws_pass_options *opts, proof_cost *cost) {
  long states = 0, checks = 0;
  bool by_order = strcmp(ws_option_string(opts, "method"), "order") == 0;
  if (by_order) {
    int r = ws_order_check(run, (unsigned)ws_option_int(opts, "seed"), &states, &checks);
    cost->states += states;
    cost->checks += checks;
    if (r != 0)
      return r > 0;
  }
  cost->explored++;
  bool ok = ws_explore(run, (long)ws_option_int(opts, "max-states"), &states);
  cost->states += states;
  return ok;
}

/* Stream-K's runs (ws.stream_k_unit), besides the equal ones: a block
 * runs n whole tiles of S K steps, then three units covering L of the K
 * steps shared out (S <= L <= 2S, as split_k.c's schedule gives every
 * block from one wave up): a steps of its first tile (its last a), b of
 * the next and c of the one after (b = min(S, L - a), c = L - a - b; an
 * empty unit runs 0 steps). Every such sequence for S up to SHARED_MOST
 * and n up to WHOLE_BEFORE: units of unequal counts next to each other,
 * odd and even, empty ones between, after a whole tile or not. Longer
 * units are the equal runs' (K trip counts to 2P + 2): every count a
 * partition keeps goes on from unit to unit in its loops' iter_args, so
 * a unit's length only moves where the next one starts in the rings.
 * That last step is an argument, not a run (docs/design/stream-k.md). */
enum { WHOLE_BEFORE = 1, SHARED_MOST = 3 };

static bool prove_stream_k(ws_program *program, const ws_pass_options *opts, long long most,
                           ws_run *run, proof_cost *cost, long long *count) {
  long long seq[WHOLE_BEFORE + 3];
  for (long long S = 1; S <= most && S <= SHARED_MOST; S++)
    for (long long n = 0; n <= WHOLE_BEFORE; n++)
      for (long long L = S; L <= 2 * S; L++)
        for (long long a = 1; a <= S; a++) {
          for (long long i = 0; i < n; i++)
            seq[i] = S;
          long long b = L - a < S ? L - a : S;
          seq[n] = a, seq[n + 1] = b, seq[n + 2] = L - a - b;
          bool ok = ws_protocol_run_sequence(program, seq, (int)n + 3, run) &&
                    ws_check_run_rules(run) && prove_run(run, opts, cost);
          ws_run_free(run);
          if (!ok)
            return false;
          ++*count;
        }
  return true;
}

/* The trip counts that cover every trip count (protocol_horizon.c): for
 * each loop level, max(2P + 2, S + E + Q + 2), where the protocol's
 * decisions repeat with period Q (a multiple of the level's ring period P)
 * S iterations past the first and E before the last. In a nested kernel
 * level 0 is the tile loops and level 1 the K loops; else level 0 is the
 * one loop. False after a located error (no such form, or more trips than
 * the proof runs). */
static bool covering_trips(const ws_program *program, bool nested, long long *trips,
                           long long *tiles) {
  ws_horizon h;
  if (!ws_protocol_horizon(program, WS_HORIZON_MAX, &h))
    return false;
  long long periods[2] = {nested ? ws_protocol_tile_period(program) : ws_protocol_period(program),
                          ws_protocol_k_period(program)};
  long long need[2];
  for (int l = 0; l < 2; l++) {
    long long q = periods[l];
    while (q % h.period[l] && q <= WS_HORIZON_MAX) /* the lcm, by steps of the depth */
      q += periods[l];
    long long least = 2 * periods[l] + 2;
    need[l] = h.start[l] + h.end[l] + q + 2;
    need[l] = need[l] > least ? need[l] : least;
    bool past = h.start[l] > WS_HORIZON_MAX || h.end[l] > WS_HORIZON_MAX ||
                h.period[l] > WS_HORIZON_MAX || need[l] > WS_HORIZON_MAX + least;
    if (past && (l == 0 || nested)) {
      MlirOperation at = q > h.start[l] + h.end[l] ? h.period_op[l]
                         : h.start[l] >= h.end[l]  ? h.start_op[l]
                                                   : h.end_op[l];
      char what[160];
      if (q > h.start[l] + h.end[l])
        snprintf(what, sizeof what, "its decisions repeat only every %s%lld iterations",
                 h.period[l] > WS_HORIZON_MAX ? "more than " : "",
                 h.period[l] > WS_HORIZON_MAX ? (long long)WS_HORIZON_MAX : q);
      else
        snprintf(what, sizeof what,
                 "it compares the iteration with constants %s%lld from its first and %lld "
                 "from its last",
                 h.start[l] > WS_HORIZON_MAX ? "past " : "",
                 h.start[l] > WS_HORIZON_MAX ? (long long)WS_HORIZON_MAX : h.start[l], h.end[l]);
      ws_emit_op_error(at,
                       "breaks the protocol rule 'trips': %s, so covering every trip count "
                       "would take runs of more trips than the %lld the proof runs; ws's "
                       "protocols repeat with their ring depths from the first iterations",
                       what, WS_HORIZON_MAX + least);
      return false;
    }
  }
  *trips = nested ? need[1] : need[0];
  *tiles = nested ? need[0] : 0;
  return true;
}

/* Proves the kernel whose plan is read; false after a located error. */
static bool check_plan(MlirOperation func, const ws_plan *plan, const ws_pass_options *opts,
                       const ws_pass_env *env) {
  if (!ws_plan_check(plan) || !ws_check_memory_map(plan))
    return false;
  ws_program *program = ws_protocol_compile(func, plan);
  if (!program)
    return false;
  bool nested = ws_protocol_is_nested(program);
  long long trips = ws_option_int(opts, "max-trips"), tiles = 0;
  if (trips == 0 && !covering_trips(program, nested, &trips, &tiles)) {
    ws_protocol_free(program);
    return false;
  }
  if (ws_option_int(opts, "max-trips"))
    tiles = nested ? trips : 0;
  bool ok = true;
  proof_cost cost = {0, 0, 0};
  ws_run *run = malloc(sizeof *run);
  if (!run)
    abort();
  for (long long n = 0; n <= tiles && ok; n++)
    for (long long t = 0; t <= trips && ok; t++) {
      ok = ws_protocol_run(program, t, n, run) && ws_check_run_rules(run) &&
           prove_run(run, opts, &cost);
      ws_run_free(run);
    }
  long long seqs = 0;
  if (ok && nested && ws_protocol_is_stream_k(program))
    ok = prove_stream_k(program, opts, trips, run, &cost, &seqs);
  free(run);
  ws_protocol_free(program);
  if (!ok || !ws_option_bool(opts, "explain"))
    return ok;
  char counts[256];
  int n = nested ? snprintf(counts, sizeof counts, "tile counts 0 to %lld, K trip counts 0 to %lld",
                            tiles, trips)
                 : snprintf(counts, sizeof counts, "trip counts 0 to %lld", trips);
  if (ws_plan_cluster_size(plan) > 1 && n > 0 && (size_t)n < sizeof counts)
    n +=
        snprintf(counts + n, sizeof counts - (size_t)n, ", the %d CTAs of a %dx%d cluster together",
                 ws_plan_cluster_size(plan), plan->cluster[0], plan->cluster[1]);
  if (seqs && n > 0 && (size_t)n < sizeof counts)
    snprintf(counts + n, sizeof counts - (size_t)n,
             ", %lld stream-K runs (units of unequal K "
             "steps, tiles of 1 to %lld)",
             seqs, trips < SHARED_MOST ? trips : SHARED_MOST);
  if (cost.explored == (tiles + 1) * (trips + 1) + seqs)
    ws_remark(env, mlirOperationGetLocation(func),
              "protocol proved: %d channel(s), %d ring(s), %s, "
              "%ld states explored (every interleaving, state by state); no deadlock, "
              "race, miscount or register overrun",
              plan->num_channels, plan->num_rings, counts, cost.states);
  else
    ws_remark(env, mlirOperationGetLocation(func),
              "protocol proved: %d channel(s), %d ring(s), %s, "
              "%ld states explored (one interleaving per trip count%s) and %ld "
              "happens-before checks covering every other; no deadlock, race, miscount "
              "or register overrun",
              plan->num_channels, plan->num_rings, counts, cost.states,
              cost.explored ? ", every interleaving where its named barriers need it" : "",
              cost.checks);
  return ok;
}

/* Proves one kernel; false after a located error. */
static bool check_kernel(MlirOperation func, const ws_pass_options *opts, const ws_pass_env *env) {
  ws_plan plan;
  if (!ws_plan_read_kernel(func, &plan))
    return true;
  bool ok = check_plan(func, &plan, opts, env);
  ws_plan_release(&plan);
  return ok;
}

typedef struct check_walk {
  const ws_pass_options *opts;
  const ws_pass_env *env;
  bool ok;
} check_walk;

/* The check only reads the IR, so each kernel is proved where the walk
 * finds it. */
static MlirWalkResult check_each_kernel(MlirOperation op, void *data) {
  check_walk *w = data;
  if (!ws_op_is(op, "gpu.func"))
    return MlirWalkResultAdvance;
  if (ws_is_specialized_kernel(op))
    w->ok &= check_kernel(op, w->opts, w->env);
  return MlirWalkResultSkip;
}

static bool run_check_protocol(MlirOperation root, const ws_pass_options *opts,
                               const ws_pass_env *env) {
  if (!ws_verify_root(root, ""))
    return false;
  check_walk w = {opts, env, true};
  mlirOperationWalk(root, check_each_kernel, &w, MlirWalkPreOrder);
  return w.ok;
}

static const ws_option_spec check_protocol_options[] = {
    {"max-states", WS_OPTION_INT, "2000000",
     "states the exploration may visit per trip count before it gives up "
     "(with an error: it never guesses)",
     NULL, 1000, 1LL << 31},
    {"max-trips", WS_OPTION_INT, "0",
     "check trip counts 0..N (0: what covers every trip count: 2 x the protocol's period + 2, longer where a decision compares the iteration with constants or takes a remainder)",
     NULL, 0, 4096},
    {"method", WS_OPTION_STRING, "order",
     "how every interleaving is decided: order (one interleaving per trip count "
     "and its happens-before order; linear in the events) or states (every "
     "reachable state, one by one: the reference, exponential in the ring depth)",
     "order|states", 0, 0},
    {"seed", WS_OPTION_INT, "0",
     "which interleaving method=order runs (0: each partition in turn, as far as "
     "it goes; N: one event at a time, picked pseudo-randomly from N); the verdict "
     "does not depend on it, and the tests show that",
     NULL, 0, 4294967295LL},
    {"explain", WS_OPTION_BOOL, "false",
     "remark on each kernel proved: its channels, trip counts and states", NULL, 0, 0},
};

const ws_pass_def ws_check_protocol_pass_def = {
    .argument = "ws-check-protocol",
    .summary = "Prove that every specialized kernel's barrier protocol cannot "
               "deadlock or race (balance, counts, phases, expect-tx, proxy "
               "fences, wgmma and bulk waits, registers, and every interleaving "
               "of its partitions), or fail at the op that breaks a rule",
    WS_PASS_OPTIONS(check_protocol_options),
    .run = run_check_protocol,
};
