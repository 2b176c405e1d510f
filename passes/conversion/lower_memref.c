/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* lower_memref.c: kernel arrays, memref<?xT> arguments read element by
 * element (ws_lower_memref.h). */
#include "ws_lower_memref.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "ws-c/Dialect.h"

#include "../../dialect/ws_text.h"

void ws_pass_kernel_array(MlirBlock entry, MlirValue arg) {
  MlirContext ctx = mlirTypeGetContext(mlirValueGetType(arg));
  intptr_t at = mlirBlockArgumentGetArgNumber(arg);
  mlirValueSetType(arg, ws_type(ctx, "!llvm.ptr<1>"));
  mlirBlockInsertArgument(entry, at + 1, mlirIntegerTypeGet(ctx, 64), mlirValueGetLocation(arg));
}

/* The element count that ws_pass_kernel_array put after the array. */
static MlirValue array_size(MlirValue array) {
  MlirBlock entry = mlirBlockArgumentGetOwner(array);
  return mlirBlockGetArgument(entry, mlirBlockArgumentGetArgNumber(array) + 1);
}

/* size > index ? array[index] : 0, the load inside the branch so that an
 * index past the end is never dereferenced (an empty array's pointer may
 * be anything). */
static MlirValue guarded_load(ws_builder *b, MlirValue array, MlirValue index, MlirType type) {
  MlirType i64 = mlirIntegerTypeGet(b->ctx, 64);
  int bytes = wsElementTypeByteWidth(type);
  MlirValue at = ws_build_value(b, "arith.index_cast", 1, &index, i64, 0, NULL);
  MlirValue inside = ws_cmpi(b, "ult", at, array_size(array));
  MlirBlock yes, no;
  MlirOperation branch = ws_build_if_values(b, inside, 1, &type, &yes, &no);
  ws_builder in = ws_builder_at_end(yes, b->loc);
  MlirValue offset = ws_arith(&in, "arith.muli", at, ws_const_int(&in, bytes, i64));
  MlirValue value = ws_load_at(&in, array, offset, type, bytes);
  ws_build_terminator(yes, b->loc, "scf.yield", 1, &value);
  ws_builder out = ws_builder_at_end(no, b->loc);
  MlirNamedAttribute zero_attr =
      ws_named(b->ctx, "value",
               mlirTypeIsAF32(type) ? mlirFloatAttrDoubleGet(b->ctx, type, 0.0)
                                    : mlirIntegerAttrGet(type, 0));
  MlirValue zero = ws_build_value(&out, "arith.constant", 0, NULL, type, 1, &zero_attr);
  ws_build_terminator(no, b->loc, "scf.yield", 1, &zero);
  return mlirOperationGetResult(branch, 0);
}

bool ws_lower_kernel_array_op(ws_builder *b, MlirOperation op) {
  MlirValue array = mlirOperationGetOperand(op, 0);
  MlirValue result = mlirOperationGetResult(op, 0);
  MlirValue value;
  if (ws_op_is(op, "memref.dim")) {
    MlirValue size = array_size(array);
    value = ws_build_value(b, "arith.index_cast", 1, &size, mlirIndexTypeGet(b->ctx), 0, NULL);
  } else {
    value = guarded_load(b, array, mlirOperationGetOperand(op, 1), mlirValueGetType(result));
  }
  mlirValueReplaceAllUsesOfWith(result, value);
  return true;
}
