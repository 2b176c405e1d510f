/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_ops.c: build and recognize ws operations through the generic
 * MlirOperationState, since IRDL ops have no generated builders. */
#include "ws-c/Dialect.h"

#include <stdio.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "ws_text.h"

bool wsOperationIsInDialect(MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  size_t n = sizeof WS_DIALECT_NAMESPACE; /* "ws" plus the dot */
  return name.length > n && memcmp(name.data, WS_DIALECT_NAMESPACE ".", n) == 0;
}

/* Compared in place, without formatting the full name: every pass asks
 * it of every op, often. */
bool wsOperationIsA(MlirOperation op, const char *name) {
  MlirStringRef full = mlirIdentifierStr(mlirOperationGetName(op));
  size_t prefix = sizeof WS_DIALECT_NAMESPACE; /* "ws" plus the dot */
  size_t len = strlen(name);
  return full.length == prefix + len && memcmp(full.data, WS_DIALECT_NAMESPACE ".", prefix) == 0 &&
         memcmp(full.data + prefix, name, len) == 0;
}

bool wsTensorDescIsStored(MlirValue desc) {
  for (MlirOpOperand u = mlirValueGetFirstUse(desc); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u))
    if ((wsOperationIsA(mlirOpOperandGetOwner(u), "store") ||
         wsOperationIsA(mlirOpOperandGetOwner(u), "tma_store")) &&
        mlirOpOperandGetOperandNumber(u) == 0)
      return true;
  return false;
}

/* Collects desc, coords and an optional trailing value into one operand
 * array; coordinates are at most rank 5, so a small array is enough. */
static MlirOperation create_access(const char *name, MlirLocation loc, MlirValue desc,
                                   intptr_t num_coords, const MlirValue *coords, MlirValue value,
                                   MlirType result) {
  enum { max_operands = 8 };
  if (num_coords < 0 || num_coords > max_operands - 2)
    return (MlirOperation){NULL};
  MlirValue operands[max_operands];
  intptr_t n = 0;
  operands[n++] = desc;
  for (intptr_t i = 0; i < num_coords; i++)
    operands[n++] = coords[i];
  if (!mlirValueIsNull(value))
    operands[n++] = value;
  MlirOperationState state = mlirOperationStateGet(mlirStringRefCreateFromCString(name), loc);
  mlirOperationStateAddOperands(&state, n, operands);
  if (!mlirTypeIsNull(result))
    mlirOperationStateAddResults(&state, 1, &result);
  return mlirOperationCreate(&state);
}

MlirOperation wsLoadOpCreate(MlirLocation loc, MlirValue desc, intptr_t num_coords,
                             const MlirValue *coords) {
  MlirType box = wsTensorDescTypeGetBox(mlirValueGetType(desc));
  if (mlirTypeIsNull(box))
    return (MlirOperation){NULL};
  return create_access("ws.load", loc, desc, num_coords, coords, (MlirValue){NULL}, box);
}

MlirOperation wsStoreOpCreate(MlirLocation loc, MlirValue desc, intptr_t num_coords,
                              const MlirValue *coords, MlirValue value) {
  if (!wsTypeIsATensorDesc(mlirValueGetType(desc)) || mlirValueIsNull(value))
    return (MlirOperation){NULL};
  return create_access("ws.store", loc, desc, num_coords, coords, value, (MlirType){NULL});
}

MlirOperation wsDotOpCreate(MlirLocation loc, MlirValue a, MlirValue b, MlirValue acc,
                            bool transpose_b) {
  MlirOperationState state = mlirOperationStateGet(mlirStringRefCreateFromCString("ws.dot"), loc);
  MlirValue operands[3] = {a, b, acc};
  MlirType result = mlirValueGetType(acc);
  mlirOperationStateAddOperands(&state, 3, operands);
  mlirOperationStateAddResults(&state, 1, &result);
  if (transpose_b) {
    MlirContext ctx = mlirLocationGetContext(loc);
    MlirNamedAttribute attr =
        mlirNamedAttributeGet(mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("transpose_b")),
                              mlirUnitAttrGet(ctx));
    mlirOperationStateAddAttributes(&state, 1, &attr);
  }
  return mlirOperationCreate(&state);
}
