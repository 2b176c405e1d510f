/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* protocol_program.h: the program a specialized kernel compiles into for
 * the proof (protocol_compile.c writes it, protocol_run.c runs it once per
 * thread). Internal to passes/protocol/. */
#ifndef WS_PROTOCOL_PROGRAM_H
#define WS_PROTOCOL_PROGRAM_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "ws-c/Dialect.h"
#include "ws_protocol.h"
#include "../plan/ws_row_kernel.h"
#include "../../dialect/ws_text.h"

enum code {
  C_CONST,
  C_BIN,
  C_CMP,
  C_SELECT,
  C_CAST,
  C_TID,
  C_ELECT,
  C_RANK,
  C_UNKNOWN,
  C_SLOT_PHASE,
  C_IF,
  C_JUMP,
  C_FOR,
  C_LOOP_END,
  C_YIELD,
  C_EVENT,
  C_MMA_ID,
  C_RETURN,
  C_STREAM_K
};

enum bin {
  B_ADD,
  B_SUB,
  B_MUL,
  B_DIVU,
  B_DIVS,
  B_REMU,
  B_REMS,
  B_AND,
  B_OR,
  B_XOR,
  B_SHL,
  B_SHRU,
  B_SHRS,
  B_MAXU,
  B_MINU,
  B_MAXS,
  B_MINS
};

typedef struct insn {
  int code, sub;
  int dst, a, b, c;
  int target, target2; /* IF: else, end; FOR: end; JUMP/YIELD: where to */
  int args, nargs;     /* operand lists in prog->args */
  long long imm;
  bool protocol; /* IF/FOR: the region holds protocol events */
  int cta;       /* EVENT: the CTA it touches (-1: the thread's own) */
  MlirOperation op;
  ws_event ev;
} insn;

struct ws_program {
  const ws_plan *plan;
  MlirOperation func;
  insn *code;
  int n;
  long cap;
  int *args;
  int nargs;
  long args_cap;
  int nregs;
  long regs_cap;
  /* room for the most values an scf.if or scf.for of the kernel yields
   * (most_carried), which a copy of them goes through */
  int most_carried;
  long long *carry_val;
  unsigned char *carry_known;
  int *width; /* bits; 0: not an integer (always unknown) */
  uintptr_t *keys;
  int *vals;
  int hcap, hused;
  /* Runtime-bounded loops by nesting level: level 0 (the partition loops,
   * or a persistent kernel's tile loops) and level 1 (the K loops inside
   * them); every loop of a level shares one lb/ub/step and so one trip
   * count. A run pins the bounds that are not constants to values that
   * give its trip count (lb 0 and step 1 where free), so a loop whose
   * bounds are computed from them (a pipelined loop from lb + step: one
   * step fewer) and a condition on them (lb < ub) are known too. */
  struct loop_level {
    MlirValue lb, ub, step;
    bool have_bounds;
  } level[2];
  unsigned char *pinned; /* registers a run pinned: no op overwrites them */
  int levels, open_level;
  /* A stream-K kernel (ws.stream_k_unit): each tile iteration runs the K
   * steps the run gives it, seq[i] (a sequence run) or trips[1]; the K
   * loops' bounds are computed from them, not pinned. */
  bool stream_k;
  const long long *seq;
  long long seq_len;
  unsigned stepped_per_k; /* channels with events inside a level-1 loop */
  bool failed;
  /* tiles whose reads are checked already (check_product_read): those of
   * the blocks compiling, outermost first */
  MlirValue *checked;
  int num_checked;
  long checked_cap;
  int period;
  /* run state */
  long long *val, *iterv, *roundv;
  unsigned char *known;
  ws_event *scratch;
  int scratch_n;
  long scratch_cap;
  long long trips[2];
  int tid, cta; /* the thread running, and its CTA */
  struct frame {
    int pc;
    long long i, trips;
  } stack[16];
  int depth;
};

/* The register of value v, made on first sight (protocol_compile.c). */
int program_reg_of(ws_program *P, MlirValue v);

/* Reports at op, once, that the kernel cannot be checked and why; false. */
bool program_fail(ws_program *P, MlirOperation op, const char *msg);

#endif
