/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* divisor.c: the divisibility proof of ws_divisor.h. A small recursive
 * evaluation over the def-use chain, bounded in depth so that a long chain
 * costs nothing and proves less rather than recursing without end. */
#include "ws_divisor.h"

#include <stdio.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "../../dialect/ws_text.h"

enum { MAX_DEPTH = 24 };

static long long gcd(long long a, long long b) {
  while (b) {
    long long t = a % b;
    a = b;
    b = t;
  }
  return a;
}

static long long capped_product(long long a, long long b) {
  if (a >= WS_DIVISOR_ANY / b)
    return WS_DIVISOR_ANY;
  return a * b;
}

static long long divisor_at(MlirValue v, int depth);

static long long operand_divisor(MlirOperation op, intptr_t i, int depth) {
  return divisor_at(mlirOperationGetOperand(op, i), depth + 1);
}

/* An integer constant's divisor is its magnitude; zero divides by all. */
static long long constant_divisor(MlirOperation op) {
  MlirAttribute value =
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("value"));
  if (mlirAttributeIsNull(value) || !mlirAttributeIsAInteger(value))
    return 1;
  long long c = (long long)mlirIntegerAttrGetValueInt(value);
  if (c == 0)
    return WS_DIVISOR_ANY;
  if (c < 0)
    c = -c;
  return c > WS_DIVISOR_ANY || c < 0 ? WS_DIVISOR_ANY : c;
}

/* Kernel arguments: the `ws.divisibility` argument attribute, else 1. */
long long ws_argument_divisor(MlirOperation func, intptr_t index) {
  MlirAttribute all =
      mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("arg_attrs"));
  if (mlirAttributeIsNull(all) || !mlirAttributeIsAArray(all) ||
      index >= mlirArrayAttrGetNumElements(all))
    return 1;
  MlirAttribute dict = mlirArrayAttrGetElement(all, index);
  if (!mlirAttributeIsADictionary(dict))
    return 1;
  MlirAttribute d =
      mlirDictionaryAttrGetElementByName(dict, mlirStringRefCreateFromCString("ws.divisibility"));
  if (mlirAttributeIsNull(d) || !mlirAttributeIsAInteger(d))
    return 1;
  long long n = (long long)mlirIntegerAttrGetValueInt(d);
  return n >= 1 && n <= WS_DIVISOR_ANY ? n : 1;
}

static long long block_argument_divisor(MlirValue v, int depth) {
  MlirBlock block = mlirBlockArgumentGetOwner(v);
  MlirOperation parent = mlirBlockGetParentOperation(block);
  intptr_t index = mlirBlockArgumentGetArgNumber(v);
  if (ws_op_is(parent, "scf.for") && index == 0) /* lb + k * step */
    return gcd(operand_divisor(parent, 0, depth), operand_divisor(parent, 2, depth));
  if ((ws_op_is(parent, "gpu.func") || ws_op_is(parent, "func.func")) &&
      mlirBlockEqual(block, mlirRegionGetFirstBlock(mlirOperationGetRegion(parent, 0))))
    return ws_argument_divisor(parent, index);
  return 1;
}

static long long divisor_at(MlirValue v, int depth) {
  if (depth > MAX_DEPTH)
    return 1;
  if (mlirValueIsABlockArgument(v))
    return block_argument_divisor(v, depth);
  MlirOperation op = mlirOpResultGetOwner(v);
  if (ws_op_is(op, "arith.constant"))
    return constant_divisor(op);
  if (ws_op_is(op, "arith.muli"))
    return capped_product(operand_divisor(op, 0, depth), operand_divisor(op, 1, depth));
  if (ws_op_is(op, "arith.addi") || ws_op_is(op, "arith.subi") || ws_op_is(op, "arith.maxsi") ||
      ws_op_is(op, "arith.minsi") || ws_op_is(op, "arith.maxui") || ws_op_is(op, "arith.minui") ||
      ws_op_is(op, "arith.remui") || ws_op_is(op, "arith.remsi"))
    /* x - c * floor(x / c) for the remainders */
    return gcd(operand_divisor(op, 0, depth), operand_divisor(op, 1, depth));
  if (ws_op_is(op, "arith.select"))
    return gcd(operand_divisor(op, 1, depth), operand_divisor(op, 2, depth));
  if (ws_op_is(op, "arith.index_cast") || ws_op_is(op, "arith.index_castui") ||
      ws_op_is(op, "arith.extsi") || ws_op_is(op, "arith.extui"))
    return operand_divisor(op, 0, depth);
  if (ws_op_is(op, "arith.shli")) {
    MlirValue amount = mlirOperationGetOperand(op, 1);
    long long d = operand_divisor(op, 0, depth);
    if (mlirValueIsAOpResult(amount) && ws_op_is(mlirOpResultGetOwner(amount), "arith.constant")) {
      long long s = constant_divisor(mlirOpResultGetOwner(amount));
      for (long long k = 0; k < s && k < 31 && s != WS_DIVISOR_ANY; k++)
        d = capped_product(d, 2);
    }
    return d;
  }
  if (ws_op_is(op, "ws.tile_coords")) { /* a tile's first row or column: BM x or BN x */
    MlirAttribute tile =
        mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("tile"));
    int i = (int)mlirOpResultGetResultNumber(v);
    if (!mlirAttributeIsNull(tile) && mlirAttributeIsADenseI32Array(tile) &&
        mlirDenseArrayGetNumElements(tile) == 2 && mlirDenseI32ArrayGetElement(tile, i) > 0)
      return mlirDenseI32ArrayGetElement(tile, i);
  }
  return 1;
}

long long ws_known_divisor(MlirValue v) { return divisor_at(v, 0); }

const char *ws_value_origin(MlirValue v, char *buf, size_t cap) {
  char loc[256], name[64];
  if (mlirValueIsABlockArgument(v)) {
    MlirOperation parent = mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v));
    intptr_t index = mlirBlockArgumentGetArgNumber(v);
    ws_loc_str(mlirOperationGetLocation(parent), loc, sizeof loc);
    if (ws_op_is(parent, "scf.for") && index == 0)
      snprintf(buf, cap, "the induction variable of the scf.for at %s", loc);
    else if (ws_op_is(parent, "gpu.func"))
      snprintf(buf, cap, "kernel argument %d", (int)index);
    else
      snprintf(buf, cap, "block argument %d of the %s at %s", (int)index,
               ws_op_name(parent, name, sizeof name), loc);
    return buf;
  }
  MlirOperation def = mlirOpResultGetOwner(v);
  ws_loc_str(mlirOperationGetLocation(def), loc, sizeof loc);
  snprintf(buf, cap, "the %s at %s", ws_op_name(def, name, sizeof name), loc);
  return buf;
}
