/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* row_kernel.c: the row-vector loads and stores of ws_row_kernel.h. */
#include "ws_row_kernel.h"

#include "mlir-c/BuiltinTypes.h"
#include "ws-c/Dialect.h"
#include "../../dialect/ws_text.h"
#include "ws_plan.h"

static int64_t dim(MlirType t, int d) { return mlirShapedTypeGetDimSize(t, d); }

/* R of a row kernel's R x C tiles, from an op of its loop: the operand of
 * a ws.reduce along the rows, or the result of a ws.broadcast along them
 * (a 1 x R row vector spread over R x C: a loop that only reads row
 * vectors, such as a split-KV combine's log-sum-exps, is a row kernel
 * too); 0 for neither, or for a square tile, whose rows and columns a
 * 1 x R vector cannot tell apart. */
static int64_t rows_of(MlirOperation op) {
  MlirType t = {NULL};
  if (wsOperationIsA(op, "reduce") && ws_int_attr(op, "axis", -1) == 1)
    t = mlirValueGetType(mlirOperationGetOperand(op, 0));
  else if (wsOperationIsA(op, "broadcast") && ws_int_attr(op, "axis", -1) == 0 &&
           mlirOperationGetNumResults(op) == 1)
    t = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!t.ptr || !mlirTypeIsARankedTensor(t) || mlirShapedTypeGetRank(t) != 2 ||
      dim(t, 0) == dim(t, 1))
    return 0;
  return dim(t, 0);
}

/* A matmul's op: ws.dot, or what ws-specialize makes of it. */
static bool is_matmul_op(MlirOperation op) {
  return wsOperationIsA(op, "dot") || wsOperationIsA(op, "mma") || wsOperationIsA(op, "tc_mma");
}

/* True when `loop`'s body holds a matmul's op (a K loop). */
static bool holds_matmul_op(MlirOperation loop) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(loop, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (is_matmul_op(op))
      return true;
  return false;
}

/* R of the R x C tiles of the row kernel whose loop is `loop` (0 as
 * ws_row_kernel_rows says). */
static int64_t reduced_rows(MlirOperation loop) {
  if (mlirOperationIsNull(loop) || !ws_op_is(loop, "scf.for"))
    return 0;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(loop, 0));
  int64_t rows = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (is_matmul_op(op) || (ws_op_is(op, "scf.for") && holds_matmul_op(op)))
      return 0; /* a matmul, or a persistent one's tile loop around its K loop */
    if (!rows)
      rows = rows_of(op);
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
