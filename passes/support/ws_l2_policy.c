/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_l2_policy.c: the names of the L2 policies (ws_l2_policy.h). */
#include "ws_l2_policy.h"

#include "mlir-c/BuiltinAttributes.h"
#include "../../dialect/ws_text.h"

const char *const ws_l2_policy_names[WS_L2_POLICIES] = {"evict_normal", "evict_first",
                                                        "evict_last"};

static MlirStringRef l2_name(void) { return mlirStringRefCreateFromCString("l2"); }

ws_l2_policy ws_l2_policy_of(MlirOperation op) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, l2_name());
  if (mlirAttributeIsNull(a))
    return WS_L2_NORMAL;
  if (!mlirAttributeIsAString(a))
    return WS_L2_UNKNOWN;
  for (int p = 0; p < WS_L2_POLICIES; p++)
    if (ws_ref_eq(mlirStringAttrGetValue(a), ws_l2_policy_names[p]))
      return (ws_l2_policy)p;
  return WS_L2_UNKNOWN;
}

void ws_l2_policy_set(MlirOperation op, ws_l2_policy policy) {
  MlirContext ctx = mlirOperationGetContext(op);
  mlirOperationSetDiscardableAttributeByName(
      op, l2_name(),
      mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(ws_l2_policy_names[policy])));
}
