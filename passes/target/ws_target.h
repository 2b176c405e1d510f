/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_target.h: what ws knows of each chip and of each MMA engine, in two
 * tables that every pass asks, as LLVM's target descriptions are asked: a
 * new chip or a new engine is a new row, never a test of a chip's name.
 * Internal.
 *
 * A chip (ws_target) has its budgets (shared memory, tensor memory,
 * registers), the PTX features its lowering needs, and the engine its
 * ws.dot runs on. An engine (ws_mma_engine) has the operand types it takes
 * (its forms, each with the K of one instruction), where its accumulator
 * lives, whether it needs a partition of its own, and the operand layouts
 * and shapes it accepts. */
#ifndef WS_TARGET_H
#define WS_TARGET_H

#include <stdbool.h>
#include <stddef.h>

#include "mlir-c/IR.h"
#include "ws-c/Dialect.h"

/* Where an engine's accumulator lives while the K loop runs. */
typedef enum ws_accumulator_home {
  WS_ACC_REGISTERS,     /* the consumer warpgroups' registers (wgmma) */
  WS_ACC_TENSOR_MEMORY, /* tensor memory, read out by the epilogue (tcgen05) */
} ws_accumulator_home;

/* One operand form of an engine: A and B's element types, the K of one
 * instruction, their names in the NVVM op, their codes in an instruction
 * descriptor (tcgen05's A and B format bits), whether A may come from
 * registers, whether both operands must be K-major (FP8), and the kind of
 * instruction (tcgen05.mma's kind::f16 or kind::f8f6f4; "" for wgmma). */
typedef struct ws_mma_form {
  WsDtype a, b;
  int k;
  const char *nvvm_a, *nvvm_b; /* wgmma: #nvvm.wgmma_type<...>; tcgen05: the type */
  unsigned code_a, code_b;
  bool register_a;
  bool k_major_only;
  const char *kind;
} ws_mma_form;

typedef struct ws_mma_engine {
  const char *name; /* as messages name it: "wgmma", "tcgen05.mma" */
  const ws_mma_form *forms;
  int num_forms;
  ws_accumulator_home accumulator;
  bool mma_partition;    /* issued by a warp of its own, not by the consumers */
  bool a_from_registers; /* A may be a tile the loop computes (register form) */
  bool a_m_major;        /* A may be given K x M (transpose_a), read M-major from
                            shared memory (its 16-bit forms) */
  bool loop_math;        /* tile math may run in the K loop (attention) */
  int n_multiple, n_max; /* N: a multiple of n_multiple up to n_max */
  /* A pair of CTAs (a cluster of 2 along M) may issue one MMA of 2 x M
   * rows from the leader's thread (tcgen05's cta_group::2): each CTA
   * brings its own rows of A and half of B's N rows, and the accumulator
   * rows land in each one's tensor memory. Without it a cluster shares
   * its operand by TMA multicast. */
  bool pair_mma;
  /* Block-scaled (MX) forms (ws.dot with scale operands; none: 0): the
   * scale of each `scale_block` values of K, an 8-bit exponent, comes in
   * atoms, each for `scale_atom_rows` rows and `scale_atom_k` of K, a tile
   * of scale_atom_shape[0] x scale_atom_shape[1] bytes, and
   * `scale_atom_columns` 32-bit columns of tensor memory once copied
   * there. */
  const ws_mma_form *scaled_forms;
  int num_scaled_forms;
  int scale_block, scale_atom_rows, scale_atom_k, scale_atom_shape[2], scale_atom_columns;
  /* The engine's shape rules for a ws.dot of `loop` (engine_checks.c):
   * false after a located error naming the rule. */
  bool (*check_dot)(MlirOperation dot, MlirOperation loop);
  /* Where the engine reads its operands from the consumers' own rings or
   * registers: that check alone, asked of every ws.dot before the loop's
   * other ops, since an operand it cannot read explains the errors its
   * math would give (null: none). */
  bool (*check_operands)(MlirOperation dot, MlirOperation loop);
} ws_mma_engine;

/* wgmma's operands: B from a ring of the loop, A from one, from a load
 * before the loop, or from registers. */
bool ws_check_wgmma_operands(MlirOperation dot, MlirOperation loop);

/* wgmma's rules: A from a ring, a load before the loop or registers
 * (register forms); B N x K with transpose_b, or K x N on a whole swizzle
 * span; M a multiple of 64 per warpgroup; N and K of the engine's forms. */
bool ws_check_dot_for_wgmma(MlirOperation dot, MlirOperation loop);

/* tcgen05's rules: A and B from the K loop's rings, M = 128, N a multiple
 * of 16 up to 256, K of the form, a zero accumulator; block scales ride
 * the K ring. */
bool ws_check_dot_for_tcgen05(MlirOperation dot, MlirOperation loop);

typedef struct ws_target {
  const char *chip;         /* as #nvvm.target names it: "sm_90a" */
  const char *ptx_features; /* the PTX version its lowering needs: "+ptx80" */
  int smem_per_block;       /* the most dynamic shared memory a block may take */
  int smem_per_sm;          /* of which each block leaves smem_reserved_per_block */
  int tmem_columns;         /* 32-bit tensor-memory columns per SM; 0: none */
  int registers_per_sm;
  int max_registers;           /* per thread (setmaxnreg's ceiling) */
  const ws_mma_engine *mma;    /* the engine a ws.dot runs on */
  int max_cluster;             /* the most CTAs of a thread-block cluster ws
                                  builds for (ws.cluster; TMA multicast and
                                  remote mbarrier arrivals); 1: none */
  int sms;                     /* SMs of the chip's largest part (H100 SXM,
                                  B200): a persistent wave's tiles, which the
                                  tile order plans for */
  int smem_reserved_per_block; /* of smem_per_sm, that the system keeps for
                                  each resident block */
  int param_bytes;             /* the most bytes a kernel's parameters may take
                                  (its tensor maps among them) */
  int max_block_threads;       /* the most threads a block runs (every
                                  partition's warps) */
} ws_target;

/* The row of `chip` ("sm_90a"), or NULL when ws does not target it. */
const ws_target *ws_target_find(const char *chip);

/* The chips ws targets, for messages ("sm_90a or sm_100a"), into buf. */
const char *ws_target_chips(char *buf, size_t cap);

/* The chip the gpu.module around op targets ("sm_90a"), into buf; "" when
 * none names one. */
const char *ws_target_chip(MlirOperation op, char *buf, size_t cap);

/* The row of the chip the gpu.module around op targets, or NULL. */
const ws_target *ws_target_of(MlirOperation op);

/* The engine a ws.dot around op runs on, or NULL. */
const ws_mma_engine *ws_mma_engine_of(MlirOperation op);

/* The form of `engine` for A and B of these element types, or NULL. */
const ws_mma_form *ws_mma_find_form(const ws_mma_engine *engine, MlirType a, MlirType b);

/* The engine's forms for messages ("f16 x f16 or bf16 x bf16"), into buf. */
const char *ws_mma_form_list(const ws_mma_engine *engine, char *buf, size_t cap);

/* The engine's block-scaled form for A and B of these types, or NULL. */
const ws_mma_form *ws_mma_find_scaled_form(const ws_mma_engine *engine, MlirType a, MlirType b);

/* The engine's block-scaled forms for messages, into buf ("" when none). */
const char *ws_mma_scaled_form_list(const ws_mma_engine *engine, char *buf, size_t cap);

#endif
