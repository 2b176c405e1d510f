/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
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
  MlirAttribute flags =
      mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("fastmath"));
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

static MlirWalkResult collect_fast_math(MlirOperation op, void *list) {
  if ((ws_op_is(op, "math.tanh") || ws_op_is(op, "math.exp2")) && allows_approximation(op) &&
      is_f32_value(mlirValueGetType(mlirOperationGetResult(op, 0))))
    ws_op_list_push(list, op);
  return MlirWalkResultAdvance;
}

/* One f32 ex2.approx.ftz: the intrinsic, pure, so LLVM schedules it as
 * any arithmetic. */
static MlirValue ex2_ftz(ws_builder *b, MlirValue x) {
  MlirNamedAttribute attrs[3] = {
      ws_named_text(b->ctx, "intrin", "\"llvm.nvvm.ex2.approx.ftz.f\""),
      ws_named_text(b->ctx, "op_bundle_sizes", "array<i32>"),
      ws_named_text(b->ctx, "operandSegmentSizes", "array<i32: 1, 0>"),
  };
  return ws_build_value(b, "llvm.call_intrinsic", 1, &x, mlirValueGetType(x), 3, attrs);
}

/* exp2 of a scalar or, element by element, of a vector chunk. */
static MlirValue exp2_ftz(ws_builder *b, MlirValue x) {
  MlirType type = mlirValueGetType(x);
  if (!mlirTypeIsAVector(type))
    return ex2_ftz(b, x);
  MlirType f32 = mlirShapedTypeGetElementType(type);
  MlirValue out = ws_build_value(b, "llvm.mlir.undef", 0, NULL, type, 0, NULL);
  for (int64_t i = 0; i < mlirShapedTypeGetDimSize(type, 0); i++) {
    MlirValue at = ws_const_i32(b, i);
    MlirValue get[2] = {x, at};
    MlirValue e = ex2_ftz(b, ws_build_value(b, "llvm.extractelement", 2, get, f32, 0, NULL));
    MlirValue put[3] = {out, e, at};
    out = ws_build_value(b, "llvm.insertelement", 3, put, type, 0, NULL);
  }
  return out;
}

void ws_lower_fast_math(MlirOperation root) {
  ws_op_list found = {0};
  mlirOperationWalk(root, collect_fast_math, &found, MlirWalkPostOrder);
  for (long i = 0; i < found.len; i++) {
    MlirOperation op = found.items[i];
    ws_builder b = ws_builder_before(op);
    b.loc = mlirOperationGetLocation(op);
    MlirValue x = mlirOperationGetOperand(op, 0), y;
    if (ws_op_is(op, "math.exp2")) {
      y = exp2_ftz(&b, x);
    } else {
      MlirNamedAttribute afn = ws_named_text(b.ctx, "fastmathFlags", "#llvm.fastmath<afn>");
      MlirType type = mlirValueGetType(x);
      y = mlirOperationGetResult(ws_build(&b, "llvm.intr.tanh", 1, &x, 1, &type, 1, &afn, 0), 0);
    }
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), y);
    mlirOperationDestroy(op);
  }
  ws_op_list_free(&found);
}
