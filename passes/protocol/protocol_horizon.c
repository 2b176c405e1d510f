/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* protocol_horizon.c: how many trips the proof must run to cover every
 * trip count (ws_protocol_horizon), read from the compiled program.
 *
 * The argument. The proof runs each loop level for trip counts 0 to N and
 * concludes for all. That holds when every decision the protocol takes in
 * iteration n (a guard around protocol ops, a slot and its phase, a loop's
 * trip count) is a function of n that repeats with a period Q once n >= S
 * and n < T - E, where T is the trip count (E: how far from the end a
 * comparison with T reaches). The rules do not depend on a slot's name or
 * a phase's parity, only on which slots are full and whose turn each phase
 * is (check_protocol.c), so the channels' state repeats every P
 * iterations (P: the lcm of the level's ring depths) and Q is a multiple
 * of P. Then the state at iterations S and S + Q is the same, and a run of
 * T trips that fails at iteration f >= S + Q (or at its end, with
 * T >= S + Q + E) fails the same way with the window [S, S + Q) removed:
 * at f - Q, in a run of T - Q trips. So some run of at most S + Q + E + 1
 * trips fails whenever any does. The proof runs max(2P + 2, S + E + Q + 2).
 *
 * This file checks that form rather than assuming it. It follows only the
 * registers that reach a decision (the relevant ones: conditions of
 * branches that hold protocol ops, ws.slot_phase inputs, the bounds of
 * loops that run protocol ops), back through the arithmetic and the
 * values loops and branches carry. A register depends on a level when it
 * is computed from that level's induction variable, carried values or
 * results; it is tracked as (n x u) / k + c: u value units per iteration
 * (a constant step), k iterations per unit (after a division), c the
 * constants added in (their magnitudes), or as periodic (after a
 * remainder or a mask). Then:
 *  - a comparison of such a value with constants asks S >= (c + C) x k / u
 *    (n < 20: 20; k_coord < 1280 with a step of 64: 20; n / 4 < 5: 20), or
 *    E, where the comparison is with the trip count (the loop's upper
 *    bound or a count it carries out: n + 2 < T asks E >= 2);
 *  - a remainder or mask by m asks Q to be a multiple of m x k, and a
 *    ws.slot_phase of depth d of a value divided by k a multiple of d k
 *    (of a count shifted by a constant, n - 1, it only renames slots);
 *  - a product of two dependent values, a division or remainder by one, a
 *    shift left or a bitwise or of integers has no such form: refused at
 *    the op (rule 'trips').
 * check_protocol.c runs each level that many trips. Past WS_HORIZON_MAX + 2P + 2 trips
 * the cost is no longer the proof's to pay: refused too, at the op that
 * asked for it. The coordinates of a TMA copy depend on the iteration
 * freely: they pick bytes, not barriers, and are no decision. */
#include "protocol_program.h"

/* What a relevant register's value owes to the iteration. */
typedef struct reg_dep {
  unsigned levels;   /* bit l: depends on level l's iteration */
  bool periodic;     /* a remainder or a mask of it: bounded and periodic */
  bool trip;         /* computed from the trip count: the loop's upper bound,
                        or a count the loop carries out */
  long long u, k, c; /* (n x u) / k + c, see above */
} reg_dep;

static long long magnitude(long long v) { return v < 0 ? -v : v; }

static long long gcd_ll(long long a, long long b) { return b ? gcd_ll(b, a % b) : a; }

typedef struct horizon_state {
  const ws_program *P;
  reg_dep *dep;
  bool *is_const, *relevant;
  long long *const_val;
  ws_horizon *out;
  long long limit;
} horizon_state;

static long long cap(const horizon_state *S, long long v) {
  return v > S->limit || v < 0 ? S->limit + 1 : v;
}

/* S (or E, from the end) of every level in `levels` grows to h; `op` is
 * where. */
static void raise_horizon(horizon_state *S, unsigned levels, bool end, long long h,
                          MlirOperation op) {
  for (int l = 0; l < 2; l++) {
    long long *at = end ? &S->out->end[l] : &S->out->start[l];
    if ((levels >> l) & 1 && cap(S, h) > *at) {
      *at = cap(S, h);
      (end ? S->out->end_op : S->out->start_op)[l] = op;
    }
  }
}

/* Q of every level in `levels` becomes a multiple of q. */
static void raise_period(horizon_state *S, unsigned levels, long long q, MlirOperation op) {
  for (int l = 0; l < 2; l++)
    if ((levels >> l) & 1 && q > 0) {
      long long p = S->out->period[l];
      long long next = cap(S, p / gcd_ll(p, q) * q);
      if (next != p)
        S->out->period_op[l] = op;
      S->out->period[l] = next;
    }
}

/* The least power of two above mask (the period of n & mask). */
static long long mask_period(long long mask) {
  long long p = 1;
  while (p <= mask && p > 0)
    p <<= 1;
  return p;
}

static bool refuse(horizon_state *S, MlirOperation op, const char *what) {
  ws_emit_op_error(op,
                   "breaks the protocol rule 'trips': %s of the loop's iteration, so the "
                   "protocol's decisions need not repeat as the trip count grows and no "
                   "bounded run proves it for every trip count",
                   what);
  S->out->failed = true;
  return false;
}

/* ---- relevance ------------------------------------------------------------ */

static bool mark(horizon_state *S, int reg) {
  if (reg < 0 || S->relevant[reg])
    return false;
  S->relevant[reg] = true;
  return true;
}

/* One backward step over instruction i: the operands of what defines a
 * relevant register become relevant; true when any did. */
static bool mark_operands(horizon_state *S, const insn *i) {
  const ws_program *P = S->P;
  bool grew = false;
  switch (i->code) {
  case C_IF:
    if (i->protocol)
      grew |= mark(S, i->a);
    break;
  case C_SLOT_PHASE:
    grew |= mark(S, i->a);
    break;
  case C_FOR:
    if (i->protocol || i->sub)
      grew |= mark(S, i->a) | mark(S, i->b) | mark(S, i->c);
    for (int k = 0; k < i->nargs; k++) /* a relevant carried value: its init */
      if (S->relevant[P->args[i->args + 1 + k]] ||
          S->relevant[P->args[i->args + 1 + 2 * i->nargs + k]])
        grew |= mark(S, P->args[i->args + 1 + i->nargs + k]) | mark(S, P->args[i->args + 1 + k]);
    break;
  case C_YIELD:
  case C_LOOP_END:
    for (int k = 0; k < i->nargs; k++)
      if (S->relevant[P->args[i->args + i->nargs + k]])
        grew |= mark(S, P->args[i->args + k]);
    break;
  case C_BIN:
  case C_CMP:
    if (S->relevant[i->dst])
      grew |= mark(S, i->a) | mark(S, i->b);
    break;
  case C_CAST:
    if (S->relevant[i->dst])
      grew |= mark(S, i->a);
    break;
  case C_SELECT:
    if (S->relevant[i->dst])
      grew |= mark(S, i->a) | mark(S, i->b) | mark(S, i->c);
    break;
  default:
    break;
  }
  return grew;
}

/* ---- dependence ----------------------------------------------------------- */

/* Marks a loop's induction variable, carried values and results as
 * depending on its level: the variable by its constant step and start
 * (free bounds are pinned to 0 and 1), the carried values as counts. */
static void mark_loop(horizon_state *S, const insn *f) {
  int level = (int)f->imm;
  if (level < 0 || level > 1 || !(f->protocol || f->sub))
    return;
  const ws_program *P = S->P;
  reg_dep *iv = &S->dep[P->args[f->args]];
  *iv = (reg_dep){.levels = 1u << level, .u = 1, .k = 1};
  if (S->is_const[f->c] && S->const_val[f->c])
    iv->u = magnitude(S->const_val[f->c]);
  if (S->is_const[f->a])
    iv->c = magnitude(S->const_val[f->a]);
  if (!S->is_const[f->b]) /* the upper bound: the trip count, in the variable's units */
    S->dep[f->b] = (reg_dep){.levels = 1u << level, .trip = true, .u = iv->u, .k = 1};
  for (int k = 0; k < f->nargs; k++) {
    int carried = P->args[f->args + 1 + k], result = P->args[f->args + 1 + 2 * f->nargs + k];
    unsigned before = S->dep[P->args[f->args + 1 + f->nargs + k]].levels;
    S->dep[carried] = (reg_dep){.levels = before | 1u << level, .u = 1, .k = 1};
    S->dep[result] = S->dep[carried];
    S->dep[result].trip = true; /* a count carried out: the trip count */
  }
}

/* A value that depends on `levels` but repeats with the iteration (a
 * remainder, a mask, a comparison's outcome, a slot and phase): bounded,
 * so no comparison with it moves S or E. */
static reg_dep periodic_of(unsigned levels) {
  return (reg_dep){.levels = levels, .periodic = true, .u = 1, .k = 1};
}

/* Two dependent values into one (a sum, a min, a select): the slower
 * growth, the coarser step and both constants, which only ever overstate
 * a comparison's threshold. */
static reg_dep merge(reg_dep a, reg_dep b) {
  if (!a.levels)
    return b.levels ? (reg_dep){b.levels, b.periodic, b.trip, b.u, b.k, b.c + a.c} : a;
  if (!b.levels)
    return (reg_dep){a.levels, a.periodic, a.trip, a.u, a.k, a.c + b.c};
  return (reg_dep){a.levels | b.levels,   a.periodic && b.periodic, a.trip || b.trip,
                   a.u < b.u ? a.u : b.u, a.k > b.k ? a.k : b.k,    a.c + b.c};
}

/* The register's dependence, with a constant's magnitude as its c. */
static reg_dep dep_of(const horizon_state *S, int reg) {
  reg_dep d = S->dep[reg];
  if (!d.levels && S->is_const[reg])
    d.c = magnitude(S->const_val[reg]);
  return d;
}

/* One binary op on relevant registers: its dependence, what it asks of H
 * and Q, or its refusal. */
static bool visit_bin(horizon_state *S, const insn *i) {
  reg_dep a = dep_of(S, i->a), b = dep_of(S, i->b), *d = &S->dep[i->dst];
  bool cb = S->is_const[i->b];
  long long vb = magnitude(S->const_val[i->b]);
  *d = merge(a, b);
  if (!d->levels || !S->relevant[i->dst])
    return true;
  bool both = a.levels && b.levels;
  bool wide = S->P->width[i->dst] > 1;
  switch (i->sub) {
  case B_MUL:
    if (both)
      return refuse(S, i->op, "it multiplies two values");
    if (S->is_const[a.levels ? i->b : i->a]) {
      long long m = magnitude(S->const_val[a.levels ? i->b : i->a]);
      reg_dep x = a.levels ? a : b;
      *d = (reg_dep){x.levels, x.periodic, x.trip, x.u * (m ? m : 1), x.k, x.c * (m ? m : 1)};
    }
    return true;
  case B_DIVU:
  case B_DIVS:
  case B_SHRU:
  case B_SHRS: {
    if (b.levels || !cb)
      return b.levels ? refuse(S, i->op, "it divides by a value") : true;
    long long by = i->sub == B_DIVU || i->sub == B_DIVS ? vb : 1LL << (vb & 62);
    if (by < 1)
      by = 1;
    long long g = gcd_ll(a.u, by);
    *d = (reg_dep){a.levels, a.periodic, a.trip, a.u / g, cap(S, a.k * (by / g)), a.c / by + 1};
    return true;
  }
  case B_REMU:
  case B_REMS:
    if (b.levels || !cb)
      return refuse(S, i->op,
                    b.levels ? "it takes a remainder by a value"
                             : "it takes a remainder by a value not known");
    raise_period(S, a.levels, cap(S, vb * a.k), i->op);
    *d = periodic_of(a.levels);
    return true;
  case B_AND:
    if (!wide)
      return true; /* conditions */
    if (both)
      return refuse(S, i->op, "it masks one value with another");
    raise_period(S, d->levels,
                 cap(S, mask_period(S->is_const[i->a] ? magnitude(S->const_val[i->a]) : vb) * d->k),
                 i->op);
    *d = periodic_of(d->levels);
    return true;
  case B_OR:
  case B_XOR:
    return wide ? refuse(S, i->op, "it takes a bitwise or of an integer") : true;
  case B_SHL:
    return refuse(S, i->op, "it shifts left a value");
  default: /* add, sub, min, max */
    return true;
  }
}

/* A comparison of relevant values: past its threshold it no longer
 * changes (a periodic value's comparison is periodic itself). */
static void visit_cmp(horizon_state *S, const insn *i) {
  reg_dep a = dep_of(S, i->a), b = dep_of(S, i->b), m = merge(a, b);
  S->dep[i->dst] = periodic_of(m.levels);
  if (!m.levels || !S->relevant[i->dst] || m.periodic)
    return;
  /* a level both sides grow with alike cancels: the K count against the
   * count a tile's K steps started from compares K steps within the tile */
  unsigned levels = m.levels;
  if (a.u == b.u && a.k == b.k && !a.periodic && !b.periodic)
    levels &= ~(a.levels & b.levels & 1u); /* the outer level, carried into the inner */
  if (!levels)
    return;
  raise_horizon(S, levels, m.trip, (m.c * m.k + m.u - 1) / m.u, i->op);
}

static bool visit(horizon_state *S, const insn *i) {
  switch (i->code) {
  case C_FOR:
    mark_loop(S, i);
    return true;
  case C_BIN:
    return visit_bin(S, i);
  case C_CMP:
    visit_cmp(S, i);
    return true;
  case C_CAST:
    S->dep[i->dst] = S->dep[i->a];
    return true;
  case C_SELECT:
    S->dep[i->dst] = merge(S->dep[i->b], S->dep[i->c]);
    S->dep[i->dst].levels |= S->dep[i->a].levels;
    return true;
  case C_YIELD:
    for (int k = 0; k < i->nargs; k++) { /* a branch's results: either side's */
      int src = S->P->args[i->args + k], dst = S->P->args[i->args + i->nargs + k];
      S->dep[dst] = S->dep[dst].levels ? merge(S->dep[dst], S->dep[src]) : S->dep[src];
    }
    return true;
  case C_SLOT_PHASE: {
    reg_dep a = S->dep[i->a];
    if (a.levels && a.k > 1) /* its slots turn every k iterations: at the deepest level */
      raise_period(S, a.levels & 2u ? 2u : a.levels, cap(S, i->imm * a.k), i->op);
    S->dep[i->dst] = S->dep[i->b] = periodic_of(a.levels);
    return true;
  }
  default:
    return true;
  }
}

bool ws_protocol_horizon(const ws_program *P, long long limit, ws_horizon *out) {
  memset(out, 0, sizeof *out);
  out->period[0] = out->period[1] = 1;
  size_t n = (size_t)P->nregs + 1;
  horizon_state S = {P,
                     ws_zalloc(n, sizeof(reg_dep)),
                     ws_zalloc(n, sizeof(bool)),
                     ws_zalloc(n, sizeof(bool)),
                     ws_zalloc(n, sizeof(long long)),
                     out,
                     limit};
  for (int k = 0; k < P->n; k++)
    if (P->code[k].code == C_CONST) {
      S.is_const[P->code[k].dst] = true;
      S.const_val[P->code[k].dst] = P->code[k].imm;
    }
  /* relevance to a fixpoint: loops carry it back to their inits */
  for (bool grew = true; grew;) {
    grew = false;
    for (int k = P->n; k-- > 0;)
      grew |= mark_operands(&S, &P->code[k]);
  }
  bool ok = true;
  for (int k = 0; k < P->n && ok; k++)
    ok = visit(&S, &P->code[k]);
  free(S.dep);
  free(S.is_const);
  free(S.relevant);
  free(S.const_val);
  return ok;
}
