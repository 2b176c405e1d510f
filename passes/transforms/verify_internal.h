/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* verify_internal.h: what the files of ws-verify share: the walk's state
 * and the checks one file calls in another (verify.c: the walk and the
 * kernel context; verify_ops.c: descriptor boxes, loads, stores, ws.dot
 * and the tile ops; verify_attrs.c: the ws attributes). Each check's
 * comment is at its definition. Internal to passes/transforms/. */
#ifndef WS_VERIFY_INTERNAL_H
#define WS_VERIFY_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "ws-c/Dialect.h"
#include "ws_divisor.h"
#include "../plan/ws_plan.h"
#include "../plan/ws_row_kernel.h"
#include "../target/ws_target.h"
#include "../support/ws_l2_policy.h"
#include "../support/ws_pass.h"
#include "../../dialect/ws_text.h"

enum { TMA_MAX_RANK = 5, TMA_MAX_BOX_DIM = WS_TMA_MAX_BOX_DIM, TMA_INNER_ALIGN_BYTES = 16 };

/* Ops and functions seen during the walk; the kernel context of each
 * function is checked once after the walk, so a kernel with twenty ws ops
 * and a bad target gets one error, not twenty. */
typedef struct op_list {
  MlirOperation *items;
  size_t len, cap;
} op_list;

typedef struct verify_state {
  const char *chip;
  bool ok;
  op_list functions;
  op_list modules;
} verify_state;

/* verify.c */
extern const char verify_supported_elements[];
void verify_note_unique(op_list *list, MlirOperation op);
void verify_note_ws_user(verify_state *st, MlirOperation op);
MlirWalkResult verify_find_marked_loop(MlirOperation op, void *found);

/* verify_ops.c */
void verify_function_arguments(verify_state *st, MlirOperation func);
bool verify_load(MlirOperation op);
bool verify_store(MlirOperation op);
bool verify_dot(MlirOperation op);
bool verify_broadcast(MlirOperation op);
bool verify_reduce(MlirOperation op);
bool verify_iota(MlirOperation op);
bool verify_tile_coords(MlirOperation op);

/* verify_attrs.c */
bool verify_get_i32(MlirAttribute attr, long long *value);
void verify_ws_attributes(verify_state *st, MlirOperation op);

#endif
