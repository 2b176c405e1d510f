/* row_kernel.c: the row-vector stores of ws_row_kernel.h. */
#include "ws_row_kernel.h"

#include "mlir-c/BuiltinTypes.h"
#include "ws-c/Dialect.h"
#include "../../dialect/ws_text.h"

/* The 1 x R result of one of the loop's ws.reduce ops over R x C tiles
 * equals `t`, and the loop has no matmul (the source loop, or the compute
 * partition's copy of it, which counts its iterations). */
static bool is_reduction_type(MlirOperation loop, MlirType t) {
  if (mlirOperationIsNull(loop) || !ws_op_is(loop, "scf.for"))
    return false;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(loop, 0));
  bool found = false;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (wsOperationIsA(op, "dot") || wsOperationIsA(op, "mma") || wsOperationIsA(op, "tc_mma"))
      return false;
    found |= wsOperationIsA(op, "reduce") &&
             mlirTypeEqual(t, mlirValueGetType(mlirOperationGetResult(op, 0))) &&
             !mlirTypeEqual(t, mlirValueGetType(mlirOperationGetOperand(op, 0)));
  }
  return found;
}

bool ws_store_is_row_vector(MlirOperation store) {
  if (!wsOperationIsA(store, "store"))
    return false;
  MlirValue v = mlirOperationGetOperand(store, mlirOperationGetNumOperands(store) - 1);
  MlirType t = mlirValueGetType(v);
  if (!mlirTypeIsARankedTensor(t) || mlirShapedTypeGetRank(t) != 2 ||
      mlirShapedTypeGetDimSize(t, 0) != 1)
    return false;
  /* a row vector converted to the stored type keeps its shape */
  MlirType f32 = mlirRankedTensorTypeGet(2, (int64_t[]){1, mlirShapedTypeGetDimSize(t, 1)},
                                         mlirF32TypeGet(mlirTypeGetContext(t)),
                                         (MlirAttribute){NULL});
  return is_reduction_type(mlirOperationGetParentOperation(store), f32);
}

bool ws_desc_is_stored_directly(MlirValue desc) {
  bool any = false;
  for (MlirOpOperand u = mlirValueGetFirstUse(desc); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    if (!ws_store_is_row_vector(user) || mlirOpOperandGetOperandNumber(u) != 0)
      return false;
    any = true;
  }
  return any;
}
