/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* protocol_run.c: the interpreter of the program protocol_compile.c makes:
 * one run per thread of the block (of every CTA of a cluster) for a trip
 * count, each thread's events recorded, then threads whose events are equal
 * merged into agents. */
#include "protocol_program.h"

/* ---- run ----------------------------------------------------------------- */

static unsigned long long mask(int width) { return width >= 64 ? ~0ull : (1ull << width) - 1; }

static long long sext(unsigned long long v, int width) {
  if (width >= 64 || width == 0)
    return (long long)v;
  unsigned long long sign = 1ull << (width - 1);
  return (long long)((v ^ sign) - sign);
}

static void set(ws_program *P, int r, long long v) {
  if (P->pinned[r])
    return;
  P->val[r] = (long long)((unsigned long long)v & mask(P->width[r]));
  P->known[r] = P->width[r] != 0;
}

/* The register's value is not known (unless the run pinned it). */
static void forget(ws_program *P, int r) {
  if (!P->pinned[r])
    P->known[r] = 0;
}

/* Pins the bounds of each level that are not constants (see loop_level):
 * lb 0 and step 1 where free, ub = lb + trips x step. */
static void pin_level_bounds(ws_program *P) {
  memset(P->pinned, 0, (size_t)P->nregs + 1);
  for (int l = 0; l < (P->stream_k ? 1 : P->levels); l++) {
    const struct loop_level *L = &P->level[l];
    MlirValue v[3] = {L->lb, L->ub, L->step};
    long long c[3] = {0, 0, 1};
    bool known[3];
    for (int k = 0; k < 3; k++)
      known[k] = ws_constant_int(v[k], &c[k]);
    if (known[0] && known[1] && known[2])
      continue; /* a count of its own */
    if (!known[2])
      c[2] = 1;
    if (known[1] && !known[0])
      c[0] = c[1] - P->trips[l] * c[2];
    else
      c[1] = c[0] + P->trips[l] * c[2];
    for (int k = 0; k < 3; k++)
      if (!known[k]) {
        int r = program_reg_of(P, v[k]);
        P->val[r] = (long long)((unsigned long long)c[k] & mask(P->width[r]));
        P->known[r] = P->width[r] != 0;
        P->pinned[r] = 1;
      }
  }
}

static bool binop(int op, unsigned long long a, unsigned long long b, int w,
                  unsigned long long *out) {
  long long sa = sext(a, w), sb = sext(b, w);
  switch (op) {
  case B_ADD:
    *out = a + b;
    return true;
  case B_SUB:
    *out = a - b;
    return true;
  case B_MUL:
    *out = a * b;
    return true;
  case B_DIVU:
    if (!b)
      return false;
    *out = a / b;
    return true;
  case B_REMU:
    if (!b)
      return false;
    *out = a % b;
    return true;
  case B_DIVS:
    if (!sb)
      return false;
    *out = (unsigned long long)(sa / sb);
    return true;
  case B_REMS:
    if (!sb)
      return false;
    *out = (unsigned long long)(sa % sb);
    return true;
  case B_AND:
    *out = a & b;
    return true;
  case B_OR:
    *out = a | b;
    return true;
  case B_XOR:
    *out = a ^ b;
    return true;
  case B_SHL:
    *out = b < 64 ? a << b : 0;
    return true;
  case B_SHRU:
    *out = b < 64 ? a >> b : 0;
    return true;
  case B_SHRS:
    *out = (unsigned long long)(b < 64 ? sa >> b : sa < 0 ? -1 : 0);
    return true;
  case B_MAXU:
    *out = a > b ? a : b;
    return true;
  case B_MINU:
    *out = a < b ? a : b;
    return true;
  case B_MAXS:
    *out = (unsigned long long)(sa > sb ? sa : sb);
    return true;
  case B_MINS:
    *out = (unsigned long long)(sa < sb ? sa : sb);
    return true;
  }
  return false;
}

static bool compare(int pred, unsigned long long a, unsigned long long b, int w) {
  long long sa = sext(a, w), sb = sext(b, w);
  switch (pred) {
  case 0:
    return a == b;
  case 1:
    return a != b;
  case 2:
    return sa < sb;
  case 3:
    return sa <= sb;
  case 4:
    return sa > sb;
  case 5:
    return sa >= sb;
  case 6:
    return a < b;
  case 7:
    return a <= b;
  case 8:
    return a > b;
  default:
    return a >= b;
  }
}

static void record(ws_program *P, const insn *i) {
  P->scratch = ws_grow(P->scratch, &P->scratch_cap, P->scratch_n + 1, sizeof *P->scratch);
  ws_event *e = &P->scratch[P->scratch_n++];
  *e = i->ev;
  e->cta = i->cta >= 0 ? i->cta : P->cta;
  if (i->ev.kind == EV_MMA_DONE) { /* distance back to the ws.mma, when one made it */
    long long at = P->known[i->dst] ? P->val[i->dst] : -1;
    e->value = at >= 0 && at < P->scratch_n - 1 ? (int)(P->scratch_n - 1 - at) : 0;
  } else if (i->ev.kind == EV_BAR_SYNC) {
    e->aux = i->a >= 0 && P->known[i->a] ? (int)P->val[i->a] : 0;
    e->value = i->b >= 0 && P->known[i->b] ? (int)P->val[i->b] : -1;
  } else if (i->a >= 0) {
    e->slot = (int)P->val[i->a];
    e->iter = P->iterv[i->a];
    e->round = P->roundv[i->a];
    if (i->b >= 0)
      e->parity = (int)P->val[i->b];
  }
}

/* Copies n values of one op's args to another's (at most most_carried:
 * what an scf.if or scf.for yields), through the program's buffer. */
static void copy_args(ws_program *P, int from, int to, int n) {
  long long *tmp = P->carry_val;
  unsigned char *k = P->carry_known;
  for (int j = 0; j < n; j++) {
    tmp[j] = P->val[P->args[from + j]];
    k[j] = P->known[P->args[from + j]];
  }
  for (int j = 0; j < n; j++) {
    int r = P->args[to + j];
    if (P->pinned[r])
      continue;
    P->val[r] = tmp[j];
    P->known[r] = k[j] && P->width[r];
    P->iterv[r] = P->iterv[P->args[from + j]];
    P->roundv[r] = P->roundv[P->args[from + j]];
  }
}

static long long trip_count(ws_program *P, const insn *f) {
  if (!P->known[f->a] || !P->known[f->b] || !P->known[f->c]) {
    const struct loop_level *L = &P->level[f->imm];
    if (f->a == program_reg_of(P, L->lb) && f->b == program_reg_of(P, L->ub) &&
        f->c == program_reg_of(P, L->step))
      return P->trips[f->imm];
    program_fail(P, f->op,
                 "its bounds differ from those of the other partitions' loops and are "
                 "not computed from them, so the check cannot pair their iterations");
    return -1; /* the caller's failure is not reported: the first one is */
  }
  int w = P->width[f->a];
  long long lb = sext((unsigned long long)P->val[f->a], w);
  long long ub = sext((unsigned long long)P->val[f->b], w);
  long long step = sext((unsigned long long)P->val[f->c], w);
  if (step <= 0)
    return -1;
  return ub > lb ? (ub - lb + step - 1) / step : 0;
}

static void set_iv(ws_program *P, const insn *f, long long i) {
  int iv = P->args[f->args];
  if (P->known[f->a] && P->known[f->c])
    set(P, iv, P->val[f->a] + i * P->val[f->c]);
  else
    forget(P, iv);
}

enum { MAX_TRIPS = 4096, MAX_EVENTS_PER_THREAD = 1 << 20 };

/* Runs thread `tid` into P->scratch; false after an error. */
static bool run_thread(ws_program *P, int tid) {
  memset(P->known, 0, (size_t)P->nregs);
  pin_level_bounds(P);
  P->scratch_n = 0;
  P->depth = 0;
  P->tid = tid;
  int pc = 0;
  for (;;) {
    const insn *i = &P->code[pc];
    switch (i->code) {
    case C_CONST:
      set(P, i->dst, i->imm);
      pc++;
      break;
    case C_BIN: {
      unsigned long long out;
      if (P->known[i->a] && P->known[i->b] &&
          binop(i->sub, (unsigned long long)P->val[i->a], (unsigned long long)P->val[i->b],
                P->width[i->dst], &out))
        set(P, i->dst, (long long)out);
      else
        forget(P, i->dst);
      pc++;
      break;
    }
    case C_CMP:
      if (P->known[i->a] && P->known[i->b])
        set(P, i->dst,
            compare(i->sub, (unsigned long long)P->val[i->a], (unsigned long long)P->val[i->b],
                    P->width[i->a]));
      else
        forget(P, i->dst);
      pc++;
      break;
    case C_SELECT:
      if (P->known[i->a] && P->known[P->val[i->a] ? i->b : i->c])
        set(P, i->dst, P->val[P->val[i->a] ? i->b : i->c]);
      else
        forget(P, i->dst);
      pc++;
      break;
    case C_CAST:
      if (P->known[i->a])
        set(P, i->dst,
            i->sub ? sext((unsigned long long)P->val[i->a], P->width[i->a]) : P->val[i->a]);
      else
        forget(P, i->dst);
      pc++;
      break;
    case C_TID:
      set(P, i->dst, i->sub ? tid % 32 : tid);
      pc++;
      break;
    case C_ELECT:
      set(P, i->dst, tid % 32 == 0);
      pc++;
      break;
    case C_RANK:
      set(P, i->dst, i->sub ? 0 : P->cta);
      pc++;
      break;
    case C_UNKNOWN:
      forget(P, i->dst);
      pc++;
      break;
    case C_SLOT_PHASE: {
      if (!P->known[i->a]) {
        program_fail(P, i->op,
                     "its iteration count is not computable from the loop's "
                     "iteration arguments");
        return false;
      }
      unsigned long long x = (unsigned long long)P->val[i->a];
      unsigned long long depth = (unsigned long long)i->imm;
      set(P, i->dst, (long long)(x % depth));
      set(P, i->b, (long long)(((x / depth) + (unsigned long long)i->sub) & 1));
      P->iterv[i->dst] = (long long)x;
      P->roundv[i->dst] = (long long)(x / depth);
      pc++;
      break;
    }
    case C_IF:
      if (!P->known[i->a]) {
        if (i->protocol) {
          if (!P->failed)
            ws_emit_op_error(i->op, "breaks the protocol rule 'balance': its condition "
                                    "depends on a value known only at run time (a "
                                    "kernel argument, a block index, a tile), so the "
                                    "protocol ops under it may run on some paths and "
                                    "not on others");
          P->failed = true;
          return false;
        }
        for (int k = 0; k < i->nargs; k++)
          P->known[P->args[i->args + k]] = 0;
        pc = i->target2;
      } else {
        pc = P->val[i->a] ? pc + 1 : i->target;
      }
      break;
    case C_JUMP:
      pc = i->target;
      break;
    case C_YIELD:
      copy_args(P, i->args, i->args + i->nargs, i->nargs);
      pc = i->target;
      break;
    case C_FOR: {
      /* i->sub: bounds of a level; in a stream-K kernel, a loop over a
       * unit's K steps (the ping-pong consumers' count of them) */
      bool counted = i->protocol || i->sub ||
                     (P->stream_k && P->known[i->a] && P->known[i->b] && P->known[i->c]);
      long long trips = counted ? trip_count(P, i) : 0;
      if (trips < 0 || trips > MAX_TRIPS || P->depth == 16) {
        program_fail(P, i->op, "its trip count is not a small positive step count");
        return false;
      }
      if (trips == 0) {
        /* results = inits; a loop without protocol ops is skipped */
        if (counted)
          copy_args(P, i->args + 1 + i->nargs, i->args + 1 + 2 * i->nargs, i->nargs);
        else
          for (int k = 0; k < i->nargs; k++)
            P->known[P->args[i->args + 1 + 2 * i->nargs + k]] = 0;
        pc = i->target;
        break;
      }
      copy_args(P, i->args + 1 + i->nargs, i->args + 1, i->nargs);
      set_iv(P, i, 0);
      P->stack[P->depth++] = (struct frame){pc, 0, trips};
      pc++;
      break;
    }
    case C_LOOP_END: {
      struct frame *f = &P->stack[P->depth - 1];
      const insn *loop = &P->code[f->pc];
      copy_args(P, i->args, i->args + i->nargs, i->nargs);
      if (++f->i < f->trips) {
        set_iv(P, loop, f->i);
        pc = f->pc + 1;
      } else {
        copy_args(P, loop->args + 1, loop->args + 1 + 2 * loop->nargs, loop->nargs);
        P->depth--;
        pc = loop->target;
      }
      break;
    }
    case C_EVENT:
      if (P->scratch_n >= MAX_EVENTS_PER_THREAD) {
        program_fail(P, i->op, "a thread runs more than a million protocol events");
        return false;
      }
      record(P, i);
      pc++;
      break;
    case C_STREAM_K: { /* tile iteration t runs the run's K steps for it */
      long long t = 0;
      for (int d = P->depth; d-- > 0;)
        if (P->code[P->stack[d].pc].imm == 0 && P->code[P->stack[d].pc].protocol) {
          t = P->stack[d].i;
          break;
        }
      set(P, i->dst, t);
      set(P, i->a, 0);
      set(P, i->b, P->seq ? (t < P->seq_len ? P->seq[t] : 0) : P->trips[1]);
      set(P, i->c, 0);
      pc++;
      break;
    }
    case C_MMA_ID: /* the ws.mma's event, just recorded */
      set(P, i->dst, P->scratch_n - 1);
      pc++;
      break;
    case C_RETURN:
      return true;
    }
  }
}

/* ---- agents -------------------------------------------------------------- */

static bool same_events(const ws_event *a, const ws_event *b, int n) {
  for (int k = 0; k < n; k++)
    if (!mlirOperationEqual(a[k].op, b[k].op) || a[k].iter != b[k].iter || a[k].slot != b[k].slot ||
        a[k].parity != b[k].parity || a[k].value != b[k].value || a[k].aux != b[k].aux ||
        a[k].cta != b[k].cta)
      return false;
  return true;
}

static int partition_of_warp(const ws_plan *plan, int warp) {
  for (int p = 0; p < plan->num_parts; p++)
    if (warp >= plan->parts[p].first_warp &&
        warp < plan->parts[p].first_warp + plan->parts[p].num_warps)
      return p;
  return -1;
}

/* Folds the prefix (events before the block-wide barrier, or the cluster's
 * arrive and wait) into the init tables and returns where the agent part
 * starts. */
static int take_prefix(ws_run *run, const ws_event *ev, int n, int tid) {
  int sync = 0;
  while (sync < n && ev[sync].kind != EV_CTA_SYNC && ev[sync].kind != EV_CLUSTER_WAIT)
    sync++;
  if (sync == n)
    return 0;           /* no barrier: everything is the agent's (the rules say why) */
  bool arrived = false; /* a cluster wait needs the thread's cluster arrive before it */
  for (int k = 0; k < sync; k++) {
    if (ev[k].kind != EV_INIT && ev[k].kind != EV_INIT_FENCE && ev[k].kind != EV_TMEM_ALLOC &&
        ev[k].kind != EV_TC_FENCE && ev[k].kind != EV_CLUSTER_ARRIVE)
      return 0; /* protocol before the barrier: likewise */
    arrived |= ev[k].kind == EV_CLUSTER_ARRIVE;
  }
  if (ev[sync].kind == EV_CLUSTER_WAIT && !arrived)
    return 0;
  bool unfenced = false; /* this thread's inits, no fence of its own after them yet */
  for (int k = 0; k < sync; k++) {
    if (ev[k].kind == EV_CLUSTER_ARRIVE) {
      if (ev[k].aux)
        run->publish_relaxed = ev[k].op;
      if (ev[k].aux && unfenced && mlirOperationIsNull(run->relaxed_unfenced))
        run->relaxed_unfenced = ev[k].op;
      continue;
    }
    if (ev[k].kind == EV_INIT_FENCE) {
      run->init_fenced = true;
      unfenced = false;
      continue;
    }
    if (ev[k].kind == EV_TMEM_ALLOC) {
      run->tmem_alloc = ev[k].op;
      run->alloc_threads++;
      run->alloc_warp = tid / 32;
      run->alloc_fenced = false;
      continue;
    }
    if (ev[k].kind == EV_TC_FENCE) {
      run->alloc_fenced |= ev[k].aux && !mlirOperationIsNull(run->tmem_alloc);
      continue;
    }
    int c = ev[k].channel, f = ev[k].full;
    unfenced = true;
    if (mlirOperationIsNull(run->init[c].op[f]))
      run->init[c].op[f] = ev[k].op;
    run->init[c].count[f] = ev[k].value;
    run->init[c].threads[ev[k].cta][f]++;
    run->init_fenced = false;
  }
  if (mlirOperationIsNull(run->cta_sync)) {
    run->cta_sync = ev[sync].op;
    run->cluster_published = ev[sync].kind == EV_CLUSTER_WAIT;
  }
  return sync + 1;
}

/* True when ev[from..n) are only tcgen05 fences and a dealloc: what a
 * tensor-memory kernel runs after its last barrier. */
static bool only_dealloc(const ws_event *ev, int from, int n) {
  for (int k = from; k < n; k++)
    if (ev[k].kind != EV_TC_FENCE && ev[k].kind != EV_TMEM_DEALLOC)
      return false;
  return true;
}

/* Folds the thread's last barrier, when it has one past the first and
 * only the tensor-memory dealloc and its fences follow it, into the run
 * and returns where it starts (n when there is none). A cluster kernel's
 * is its exit (exit_sync: the cluster arrive and wait); a tensor-memory
 * kernel's is the one its dealloc waits behind (final_sync: the
 * block-wide barrier, or a pair's exit), and a tcgen05.ld of the thread's
 * with no fence::before_thread_sync before it is noted. */
static int take_end(ws_run *run, const ws_event *ev, int start, int n, int tid) {
  int sync = n;
  while (sync > start && ev[sync - 1].kind != EV_CTA_SYNC && ev[sync - 1].kind != EV_CLUSTER_WAIT)
    sync--;
  if (sync == start || !only_dealloc(ev, sync, n))
    return n;           /* no second barrier: the rules judge whatever is there */
  int first = sync - 1; /* where the barrier starts */
  if (ev[first].kind == EV_CLUSTER_WAIT) {
    if (first == start || ev[first - 1].kind != EV_CLUSTER_ARRIVE)
      return n;
    first--;
    run->exit_sync = ev[sync - 1].op;
    if (ev[first].aux)
      run->exit_relaxed = ev[first].op;
    run->exit_threads++;
  }
  if (ev[sync - 1].kind == EV_CLUSTER_WAIT && !run->plan->tmem.tile.ptr)
    return first;
  run->final_sync = ev[sync - 1].op;
  run->final_threads++;
  bool fenced = false;
  for (int k = sync; k < n; k++) {
    if (ev[k].kind == EV_TC_FENCE) {
      fenced |= !ev[k].aux;
      continue;
    }
    run->tmem_dealloc = ev[k].op;
    run->dealloc_threads++;
    run->dealloc_warp = tid / 32;
    run->dealloc_fenced = fenced;
  }
  for (int k = first - 1; k >= start; k--) {
    if (ev[k].kind == EV_TC_FENCE && ev[k].aux)
      break;
    if (ev[k].kind == EV_TMEM_READ && mlirOperationIsNull(run->unfenced_read))
      run->unfenced_read = ev[k].op;
  }
  return first;
}

static bool add_to_agent(ws_run *run, const ws_event *ev, int n, int tid, int cta) {
  int wg = tid / 128, warp = tid / 32;
  for (int a = 0; a < run->num_agents; a++) {
    ws_agent *A = &run->agents[a];
    if (A->cta == cta && A->warpgroup == wg && A->n == n && same_events(A->ev, ev, n)) {
      A->mult++;
      A->last_warp = warp;
      return true;
    }
  }
  if (run->num_agents == WS_MAX_AGENTS)
    return false;
  ws_agent *A = &run->agents[run->num_agents++];
  memset(A, 0, sizeof *A);
  A->ev = malloc(((size_t)n + 1) * sizeof *A->ev);
  A->done_at = malloc(((size_t)n + 1) * sizeof *A->done_at);
  if (!A->ev || !A->done_at)
    abort();
  memcpy(A->ev, ev, (size_t)n * sizeof *ev);
  A->n = n;
  A->mult = 1;
  A->warpgroup = wg;
  A->first_warp = A->last_warp = warp;
  A->first_thread = tid;
  A->cta = cta;
  A->part = partition_of_warp(run->plan, warp);
  return true;
}

bool ws_protocol_is_stream_k(const ws_program *P) { return P->stream_k; }

bool ws_protocol_run_sequence(ws_program *P, const long long *seq, int tiles, ws_run *run) {
  long long most = 0;
  if (tiles > WS_MAX_SEQUENCE)
    tiles = WS_MAX_SEQUENCE;
  for (int i = 0; i < tiles; i++)
    most = seq[i] > most ? seq[i] : most;
  P->seq = seq;
  P->seq_len = tiles;
  bool ok = ws_protocol_run(P, most, tiles, run);
  P->seq = NULL;
  memcpy(run->seq, seq, (size_t)tiles * sizeof *seq);
  run->seq_len = tiles;
  return ok;
}

bool ws_protocol_run(ws_program *P, long long trips, long long tiles, ws_run *run) {
  memset(run, 0, sizeof *run);
  run->plan = P->plan;
  run->init = ws_zalloc((size_t)P->plan->num_channels, sizeof *run->init);
  run->trips = trips;
  run->tiles = P->levels == 2 ? tiles : -1;
  P->trips[0] = P->levels == 2 ? tiles : trips;
  P->trips[1] = trips;
  int threads = P->plan->block_threads;
  if (threads <= 0 || threads > WS_MAX_THREADS || threads % 32) {
    ws_emit_op_error(P->func,
                     "cannot be checked: its ws.block_threads (%d) is not a "
                     "multiple of 32 in [32, %d]",
                     threads, WS_MAX_THREADS);
    return false;
  }
  run->ctas = ws_plan_cluster_size(P->plan);
  if (run->ctas > WS_MAX_CLUSTER) {
    ws_emit_op_error(P->func,
                     "cannot be checked: its clusters have %d CTAs; the check "
                     "models up to %d",
                     run->ctas, WS_MAX_CLUSTER);
    return false;
  }
  run->cta_threads = threads;
  run->threads = threads * run->ctas;
  for (int cta = 0; cta < run->ctas; cta++)
    for (int t = 0; t < threads; t++) {
      P->cta = cta;
      if (!run_thread(P, t))
        return false;
      int start = take_prefix(run, P->scratch, P->scratch_n, t);
      int end = take_end(run, P->scratch, start, P->scratch_n, t);
      ws_thread_regs *r = &run->regs[cta * threads + t];
      for (int k = start; k < end; k++)
        if (P->scratch[k].kind == EV_SETMAXNREG) {
          if (!r->count++) {
            r->op = P->scratch[k].op;
            r->value = P->scratch[k].value;
            r->increase = P->scratch[k].aux;
          }
        }
      if (end > start && !add_to_agent(run, P->scratch + start, end - start, t, cta)) {
        ws_emit_op_error(P->func,
                         "cannot be checked: its threads run more than %d "
                         "different sequences of protocol events",
                         WS_MAX_AGENTS);
        return false;
      }
    }
  return true;
}

void ws_run_free(ws_run *run) {
  for (int a = 0; a < run->num_agents; a++) {
    free(run->agents[a].ev);
    free(run->agents[a].done_at);
  }
  run->num_agents = 0;
  free(run->init);
  run->init = NULL;
}
