/* lower_fast_math.c: math ops that fastmath<afn> lets ws lower to the
 * special-function unit's approximations (ws_lower_fast_math.h). */
#include "ws_lower_fast_math.h"

#include <string.h>

#include "mlir-c/BuiltinTypes.h"

#include "../support/ws_builder.h"
#include "../support/ws_op_list.h"
#include "../../dialect/ws_text.h"

/* True when the op's fastmath flags (#arith.fastmath<...>) allow
 * approximate functions: afn, or fast, which includes it. */
static bool allows_approximation(MlirOperation op) {
  MlirAttribute flags = mlirOperationGetInherentAttributeByName(
      op, mlirStringRefCreateFromCString("fastmath"));
  if (mlirAttributeIsNull(flags))
    return false;
  char text[128];
  ws_attr_str(flags, text, sizeof text);
  return strstr(text, "afn") || strstr(text, "fast>");
}

/* f32, or a vector of f32 (an elementwise kernel's chunk). */
static bool is_f32_value(MlirType t) {
  if (mlirTypeIsAVector(t))
    t = mlirShapedTypeGetElementType(t);
  return mlirTypeIsAF32(t);
}

static MlirWalkResult collect_fast_tanh(MlirOperation op, void *list) {
  if (ws_op_is(op, "math.tanh") && allows_approximation(op) &&
      is_f32_value(mlirValueGetType(mlirOperationGetResult(op, 0))))
    ws_op_list_push(list, op);
  return MlirWalkResultAdvance;
}

void ws_lower_fast_math(MlirOperation root) {
  ws_op_list found = {0};
  mlirOperationWalk(root, collect_fast_tanh, &found, MlirWalkPostOrder);
  for (long i = 0; i < found.len; i++) {
    MlirOperation op = found.items[i];
    ws_builder b = ws_builder_before(op);
    b.loc = mlirOperationGetLocation(op);
    MlirValue x = mlirOperationGetOperand(op, 0);
    MlirNamedAttribute afn = ws_named_text(b.ctx, "fastmathFlags", "#llvm.fastmath<afn>");
    MlirType type = mlirValueGetType(x);
    MlirOperation tanh = ws_build(&b, "llvm.intr.tanh", 1, &x, 1, &type, 1, &afn, 0);
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0),
                                  mlirOperationGetResult(tanh, 0));
    mlirOperationDestroy(op);
  }
  ws_op_list_free(&found);
}
