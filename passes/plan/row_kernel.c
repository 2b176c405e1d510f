/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* row_kernel.c: the row-vector loads and stores of ws_row_kernel.h. */
#include "ws_row_kernel.h"

#include "mlir-c/BuiltinTypes.h"
#include "ws-c/Dialect.h"
#include "../../dialect/ws_text.h"
#include "ws_plan.h"

static int64_t dim(MlirType t, int d) { return mlirShapedTypeGetDimSize(t, d); }

/* R of the R x C operand of a ws.reduce along the rows in `loop`'s body
 * (0 as ws_row_kernel_rows says). */
static int64_t reduced_rows(MlirOperation loop) {
  if (mlirOperationIsNull(loop) || !ws_op_is(loop, "scf.for"))
    return 0;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(loop, 0));
  int64_t rows = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (wsOperationIsA(op, "dot") || wsOperationIsA(op, "mma") || wsOperationIsA(op, "tc_mma"))
      return 0;
    if (rows || !wsOperationIsA(op, "reduce") || ws_int_attr(op, "axis", -1) != 1)
      continue;
    MlirType t = mlirValueGetType(mlirOperationGetOperand(op, 0));
    if (mlirTypeIsARankedTensor(t) && mlirShapedTypeGetRank(t) == 2 && dim(t, 0) != dim(t, 1))
      rows = dim(t, 0);
  }
  return rows;
}

int64_t ws_row_kernel_rows(MlirOperation op) {
  int64_t rows = reduced_rows(mlirOperationGetParentOperation(op));
  for (MlirOperation o = mlirBlockGetFirstOperation(mlirOperationGetBlock(op));
       !rows && !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o))
    if (!mlirOperationEqual(o, op))
      rows = reduced_rows(o);
  return rows;
}

bool ws_is_row_vector_type(MlirType t, int64_t rows) {
  return rows > 0 && mlirTypeIsARankedTensor(t) && mlirShapedTypeGetRank(t) == 2 &&
         dim(t, 0) == 1 && dim(t, 1) == rows;
}

/* Whether `t` is 1 x R, R the rows of op's row kernel. */
static bool is_row_vector_of(MlirOperation op, MlirType t) {
  return ws_is_row_vector_type(t, ws_row_kernel_rows(op));
}

bool ws_store_is_row_vector(MlirOperation store) {
  return wsOperationIsA(store, "store") &&
         is_row_vector_of(store, mlirValueGetType(mlirOperationGetOperand(
                                     store, mlirOperationGetNumOperands(store) - 1)));
}

bool ws_load_is_row_vector(MlirOperation load) {
  return wsOperationIsA(load, "load") &&
         is_row_vector_of(load, mlirValueGetType(mlirOperationGetResult(load, 0)));
}

bool ws_desc_is_accessed_directly(MlirValue desc) {
  bool any = false;
  for (MlirOpOperand u = mlirValueGetFirstUse(desc); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    if (!(ws_store_is_row_vector(user) || ws_load_is_row_vector(user)) ||
        mlirOpOperandGetOperandNumber(u) != 0)
      return false;
    any = true;
  }
  return any;
}

bool ws_desc_has_view(MlirValue desc) {
  return wsTensorDescIsStored(desc) || ws_desc_is_accessed_directly(desc);
}
