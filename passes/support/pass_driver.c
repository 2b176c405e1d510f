/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* pass_driver.c: what every ws pass after ws-verify does first: verify the
 * whole root, then run its work on each loop marked ws.warp_specialize
 * (ws_pass.h). Kept apart from the plan model, which it does not need. */
#include "ws_op_list.h"
#include "ws_pass.h"
#include "../../dialect/ws_text.h"

#include "mlir-c/BuiltinAttributes.h"

/* True when op carries `name` as an attribute. */
static bool has_attr(MlirOperation op, const char *name) {
  return !mlirAttributeIsNull(
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name)));
}

static MlirWalkResult push_marked_loop(MlirOperation op, void *user_data) {
  if (ws_op_is(op, "scf.for") && has_attr(op, "ws.warp_specialize"))
    ws_op_list_push(user_data, op);
  return MlirWalkResultAdvance;
}

bool ws_run_on_marked_loops(MlirOperation root, ws_loop_fn fn, const ws_pass_options *opts,
                            const ws_pass_env *env) {
  if (!ws_verify_root(root, ""))
    return false;
  ws_op_list loops = {0}; /* every marked loop: a module may hold any number */
  mlirOperationWalk(root, push_marked_loop, &loops, MlirWalkPreOrder);
  bool ok = true;
  for (long i = 0; i < loops.len; i++)
    ok &= fn(loops.items[i], opts, env);
  ws_op_list_free(&loops);
  return ok;
}
