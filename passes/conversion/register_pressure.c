/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* register_pressure.c: the live tiles' registers at their peak (see
 * ws_register_pressure.h). */
#include "ws_register_pressure.h"

#include <stdint.h>
#include <stdlib.h>

#include "mlir-c/BuiltinTypes.h"
#include "../plan/ws_plan.h"
#include "../support/ws_op_list.h"
#include "../../dialect/ws_text.h"

/* Registers a compute thread needs besides its tiles (slot addresses,
 * indices, loop state, phases), about what ptxas takes for them in the
 * suites' kernels: a count of tile registers closer to the budget than
 * this may spill. */
#define OTHER_REGISTERS 24
#define STR_(x) #x
#define STR(x) STR_(x)

/* Ops by pointer, to their position in the walk: an open-addressed table
 * of a power-of-two size. */
typedef struct op_index {
  uintptr_t *keys;
  long *vals;
  long cap;
} op_index;

static long slot_of(const op_index *x, uintptr_t k) {
  return (long)((k >> 4) * 0x9E3779B97F4A7C15ull) & (x->cap - 1);
}

static void index_ops(op_index *x, const MlirOperation *ops, size_t n) {
  x->cap = 64;
  while (x->cap < 2 * (long)n)
    x->cap *= 2;
  x->keys = calloc((size_t)x->cap, sizeof *x->keys);
  x->vals = calloc((size_t)x->cap, sizeof *x->vals);
  if (!x->keys || !x->vals)
    abort();
  for (size_t i = 0; i < n; i++) {
    uintptr_t k = (uintptr_t)ops[i].ptr;
    long h = slot_of(x, k);
    while (x->keys[h])
      h = (h + 1) & (x->cap - 1);
    x->keys[h] = k;
    x->vals[h] = (long)i;
  }
}

/* The op's position; -1 when it is not in the walk. */
static long position(const op_index *x, MlirOperation op) {
  uintptr_t k = (uintptr_t)op.ptr;
  for (long i = slot_of(x, k);; i = (i + 1) & (x->cap - 1)) {
    if (x->keys[i] == k)
      return x->vals[i];
    if (!x->keys[i])
      return -1;
  }
}

/* One tile's life: defined at `from`, last used at `to`. */
typedef struct tile_life {
  MlirValue value;
  MlirOperation def; /* for its location */
  long from, to;
  int registers;
} tile_life;

static bool is_tile(MlirValue v) { return mlirTypeIsARankedTensor(mlirValueGetType(v)); }

static long last_use(const op_index *x, MlirValue v, long from) {
  long last = from;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    long p = position(x, mlirOpOperandGetOwner(u));
    if (p > last)
      last = p;
  }
  return last;
}

/* Every tile the ops define: their results (not splats, which are rebuilt
 * at each use) and the carried block arguments of their loops. */
static tile_life *collect_lives(const ws_register_pressure *p, const op_index *x,
                                const MlirOperation *ops, size_t n, long *count) {
  long len = 0, cap = 16;
  tile_life *lives = malloc((size_t)cap * sizeof *lives);
  if (!lives)
    abort();
  long defs_cap = 0, at_cap = 0;
  MlirValue *defs = NULL; /* an op's tiles: a loop's block arguments, its results */
  long *at = NULL;
  for (size_t i = 0; i < n; i++) {
    long most = (long)mlirOperationGetNumResults(ops[i]) +
                (ws_op_is(ops[i], "scf.for") ? mlirBlockGetNumArguments(ws_loop_body(ops[i])) : 0);
    defs = ws_grow(defs, &defs_cap, most, sizeof *defs);
    at = ws_grow(at, &at_cap, most, sizeof *at);
    int num = 0;
    /* the results of an op with regions (a loop, an scf.if) are defined
     * where its last region ends, at its last yield: what the regions read
     * may be dead by then, its registers the results' */
    long results_at = (long)i;
    for (intptr_t r = 0; r < mlirOperationGetNumRegions(ops[i]); r++) {
      MlirBlock last = mlirRegionGetFirstBlock(mlirOperationGetRegion(ops[i], r));
      long end = mlirBlockIsNull(last) ? -1 : position(x, mlirBlockGetTerminator(last));
      results_at = end > results_at ? end : results_at;
    }
    if (ws_op_is(ops[i], "scf.for")) {
      MlirBlock body = ws_loop_body(ops[i]);
      for (intptr_t a = 0; a < mlirBlockGetNumArguments(body); a++, num++) {
        defs[num] = mlirBlockGetArgument(body, a);
        at[num] = (long)i;
      }
    }
    if (!ws_is_splat_tile(ops[i]))
      for (intptr_t r = 0; r < mlirOperationGetNumResults(ops[i]); r++, num++) {
        defs[num] = mlirOperationGetResult(ops[i], r);
        at[num] = results_at;
      }
    for (int d = 0; d < num; d++) {
      if (!is_tile(defs[d]))
        continue;
      if (len == cap) {
        cap *= 2;
        lives = realloc(lives, (size_t)cap * sizeof *lives);
        if (!lives)
          abort();
      }
      lives[len++] = (tile_life){defs[d], ops[i], at[d], last_use(x, defs[d], at[d]),
                                 p->registers_of(defs[d], p->ctx)};
    }
  }
  free(defs);
  free(at);
  *count = len;
  return lives;
}

void ws_explain_register_pressure(const ws_register_pressure *p, const MlirOperation *ops, size_t n,
                                  const ws_pass_env *env) {
  if (n == 0)
    return;
  op_index x;
  index_ops(&x, ops, n);
  long count;
  tile_life *lives = collect_lives(p, &x, ops, n, &count);
  long *delta = calloc(n + 2, sizeof *delta);
  if (!delta)
    abort();
  /* a tile's registers are free at its last use: the op may write its
   * result over them (elementwise math does) */
  for (long t = 0; t < count; t++) {
    if (lives[t].to == lives[t].from + 1)
      lives[t].registers = 0; /* fused into the one op after it, value by value */
    delta[lives[t].from] += lives[t].registers;
    delta[lives[t].to > lives[t].from ? lives[t].to : lives[t].from + 1] -= lives[t].registers;
  }
  long live = 0, peak = 0;
  size_t at = 0;
  for (size_t i = 0; i < n; i++) {
    live += delta[i];
    if (live > peak) {
      peak = live;
      at = i;
    }
  }
  char text[1024], type[96], loc[64];
  ws_text t;
  ws_text_init(&t, text, sizeof text);
  int shown = 0;
  for (long k = 0; k < count && peak > 0; k++) {
    long to = lives[k].to > lives[k].from ? lives[k].to : lives[k].from + 1;
    if (lives[k].from > (long)at || to <= (long)at || !lives[k].registers)
      continue;
    if (shown++ < 12)
      ws_text_appendf(&t, "%s%s at %s (%d)", shown > 1 ? ", " : "",
                      ws_type_str(mlirValueGetType(lives[k].value), type, sizeof type),
                      ws_loc_str(mlirOperationGetLocation(lives[k].def), loc, sizeof loc),
                      lives[k].registers);
  }
  if (peak > 0)
    ws_remark(
        env, mlirOperationGetLocation(ops[at]),
        "registers: %s need %ld per thread where most are live, here: %d tile(s), %s%s; "
        "the compute warps have %d after setmaxnreg%s",
        p->who, peak, shown, text, shown > 12 ? ", ..." : "", p->budget,
        peak > p->budget - OTHER_REGISTERS
            ? ", which leaves fewer than the " STR(
                  OTHER_REGISTERS) " or so that "
                                   "addresses, indices and loop state take, so ptxas may spill to local "
                                   "memory (ptxas -v says): use more compute warps (ws.num_warps), smaller "
                                   "tiles, or fewer tiles live at once"
            : " (addresses, indices and loop state take some of the rest)");
  free(x.keys);
  free(x.vals);
  free(lives);
  free(delta);
}
