/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* verify.c: ws-verify, the semantic checks IRDL cannot express.
 *
 * IRDL already guarantees operand and result kinds (a descriptor, i32
 * coordinates, tensors). This pass checks what relates them: coordinate
 * count against descriptor rank, tiles against boxes, dot shapes, the
 * boxes TMA can move, the ws attributes, and that ws code sits in a kernel
 * of a gpu.module targeting a supported NVVM chip. Every later ws pass runs
 * ws_verify_root first, so no pass sees input this pass would reject. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify_internal.h"

const char verify_supported_elements[] = "f16, bf16, f32, f8E4M3FN, f8E5M2, i8, i32";

/* Adds op to the list once: each kernel and module is checked once. */
void verify_note_unique(op_list *list, MlirOperation op) {
  for (size_t i = 0; i < list->len; i++)
    if (mlirOperationEqual(list->items[i], op))
      return;
  if (list->len == list->cap) {
    size_t cap = list->cap ? list->cap * 2 : 8;
    MlirOperation *items = realloc(list->items, cap * sizeof *items);
    if (!items)
      return; /* a missed context check, never a crash */
    list->items = items;
    list->cap = cap;
  }
  list->items[list->len++] = op;
}

/* Remembers the function holding ws code; ws code outside any gpu.func is
 * an error right away. */
void verify_note_ws_user(verify_state *st, MlirOperation op) {
  MlirOperation func = ws_op_is(op, "gpu.func") ? op : ws_enclosing_op(op, "gpu.func");
  if (mlirOperationIsNull(func)) {
    ws_emit_op_error(op, "must be inside a gpu.func kernel of a gpu.module; "
                         "ws code only runs in GPU kernels");
    st->ok = false;
    return;
  }
  verify_note_unique(&st->functions, func);
}

/* ---- kernel context ------------------------------------------------------ */

static bool check_module_target(const verify_state *st, MlirOperation module) {
  char buf[512], chip[64];
  MlirAttribute targets =
      mlirOperationGetAttributeByName(module, mlirStringRefCreateFromCString("targets"));
  if (mlirAttributeIsNull(targets) || !mlirAttributeIsAArray(targets) ||
      mlirArrayAttrGetNumElements(targets) == 0) {
    ws_emit_op_error(module, "has no target; ws kernels need a gpu.module "
                             "with [#nvvm.target<chip = \"sm_90a\">] (or "
                             "\"sm_100a\")");
    return false;
  }
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(targets); i++) {
    ws_nvvm_chip(ws_attr_str(mlirArrayAttrGetElement(targets, i), buf, sizeof buf), chip,
                 sizeof chip);
    if (strncmp(buf, "#nvvm.target", strlen("#nvvm.target")) != 0) {
      ws_emit_op_error(module,
                       "has target %s; ws kernels need an NVVM target "
                       "(#nvvm.target<chip = \"sm_90a\">)",
                       buf);
      return false;
    }
    if (!ws_target_find(chip)) {
      char chips[128];
      ws_emit_op_error(module,
                       "targets chip \"%s\"; ws kernels need %s "
                       "(TMA, mbarrier and setmaxnreg)",
                       chip, ws_target_chips(chips, sizeof chips));
      return false;
    }
    if (st->chip[0] && strcmp(chip, st->chip) != 0) {
      ws_emit_op_error(module,
                       "targets chip \"%s\" but the pipeline was "
                       "asked for chip=%s",
                       chip, st->chip);
      return false;
    }
  }
  return true;
}

static void check_kernel_context(verify_state *st, MlirOperation func) {
  if (mlirAttributeIsNull(
          mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("gpu.kernel")))) {
    ws_emit_op_error(func, "uses ws ops or types but is not a kernel; "
                           "expected 'gpu.func @name(...) kernel'");
    st->ok = false;
  }
  MlirOperation module = mlirOperationGetParentOperation(func);
  if (mlirOperationIsNull(module) || !ws_op_is(module, "gpu.module")) {
    ws_emit_op_error(func, "must be inside a gpu.module");
    st->ok = false;
    return;
  }
  size_t before = st->modules.len;
  verify_note_unique(&st->modules, module);
  if (st->modules.len != before && !check_module_target(st, module))
    st->ok = false;
}

/* ---- the walk ------------------------------------------------------------ */

/* Walk callback: *(bool *)found once an op marked ws.warp_specialize is
 * met. */
MlirWalkResult verify_find_marked_loop(MlirOperation op, void *found) {
  if (ws_has_attr(op, "ws.warp_specialize")) {
    *(bool *)found = true;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

/* Whether gpu.func `func` is a ws kernel: one that takes a descriptor or
 * marks a loop ws.warp_specialize. */
static bool is_ws_kernel(MlirOperation func) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  for (intptr_t i = 0; !mlirBlockIsNull(entry) && i < mlirBlockGetNumArguments(entry); i++)
    if (wsTypeIsATensorDesc(mlirValueGetType(mlirBlockGetArgument(entry, i))))
      return true;
  bool found = false;
  mlirOperationWalk(func, verify_find_marked_loop, &found, MlirWalkPreOrder);
  return found;
}

/* A memref op in a ws kernel reads a kernel array (check_array_argument
 * checks its other uses): ws lowers no other memref, so any other is
 * refused here rather than miscompiled later. */
static bool check_memref_op(MlirOperation op) {
  char name[64];
  if (strncmp(ws_op_name(op, name, sizeof name), "memref.", 7) != 0)
    return true;
  MlirOperation func = ws_enclosing_op(op, "gpu.func");
  if (mlirOperationIsNull(func) || !is_ws_kernel(func))
    return true;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (mlirValueIsABlockArgument(v) && wsTypeIsAKernelArray(mlirValueGetType(v)))
      return true; /* a use of a kernel array: check_array_argument's */
  }
  ws_emit_op_error(op, "in a ws kernel: memory is read through !ws.tensor_desc tiles and "
                       "kernel arrays (memref<?xi32> or memref<?xf32> arguments, read with "
                       "memref.load and memref.dim); ws lowers no other memref");
  return false;
}

static MlirWalkResult verify_op(MlirOperation op, void *user_data) {
  verify_state *st = user_data;
  verify_ws_attributes(st, op);
  if (ws_op_is(op, "gpu.func") || ws_op_is(op, "func.func"))
    verify_function_arguments(st, op);
  if (!check_memref_op(op))
    st->ok = false;
  if (!wsOperationIsInDialect(op))
    return MlirWalkResultAdvance;
  verify_note_ws_user(st, op);
  bool ok = true;
  if (wsOperationIsA(op, "load"))
    ok = verify_load(op);
  else if (wsOperationIsA(op, "store"))
    ok = verify_store(op);
  else if (wsOperationIsA(op, "dot"))
    ok = verify_dot(op);
  else if (wsOperationIsA(op, "broadcast"))
    ok = verify_broadcast(op);
  else if (wsOperationIsA(op, "reduce"))
    ok = verify_reduce(op);
  else if (wsOperationIsA(op, "iota"))
    ok = verify_iota(op);
  else if (wsOperationIsA(op, "tile_coords"))
    ok = verify_tile_coords(op);
  if (!ok)
    st->ok = false;
  return MlirWalkResultAdvance;
}

bool ws_verify_root(MlirOperation root, const char *chip) {
  verify_state st = {.chip = chip ? chip : "", .ok = true};
  mlirOperationWalk(root, verify_op, &st, MlirWalkPreOrder);
  for (size_t i = 0; i < st.functions.len; i++)
    check_kernel_context(&st, st.functions.items[i]);
  free(st.functions.items);
  free(st.modules.items);
  return st.ok;
}

static const ws_option_spec verify_options[] = {
    {"chip", WS_OPTION_STRING, "", "required target chip (empty: any of sm_90a, sm_100a)",
     "|sm_90a|sm_100a", 0, 0},
};

static bool run_verify(MlirOperation root, const ws_pass_options *opts, const ws_pass_env *env) {
  (void)env;
  return ws_verify_root(root, ws_option_string(opts, "chip"));
}

const ws_pass_def ws_verify_pass_def = {
    .argument = "ws-verify",
    .summary = "Check ws ops, types and attributes against the rules IRDL "
               "cannot express",
    WS_PASS_OPTIONS(verify_options),
    .run = run_verify,
};
