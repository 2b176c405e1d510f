/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_types.c: build and inspect !ws.tensor_desc types, and recognize the
 * memrefs a kernel may take as arrays.
 *
 * IRDL types have no C accessors for their parameters, so the box is read
 * back from the printed form "!ws.tensor_desc<BOX>" and parsed again. Types
 * are uniqued in the context, so this round trip yields the very same box. */
#include "ws-c/Dialect.h"

#include <string.h>

#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinTypes.h"
#include "ws_text.h"

static const char desc_prefix[] = "!ws.tensor_desc<";

bool wsTypeIsATensorDesc(MlirType type) {
  if (mlirTypeIsNull(type))
    return false;
  char buf[64];
  ws_text t;
  ws_text_init(&t, buf, sizeof buf);
  mlirTypePrint(type, ws_text_append_ref, &t);
  return strncmp(buf, desc_prefix, sizeof desc_prefix - 1) == 0;
}

MlirType wsTensorDescTypeGet(MlirType box) {
  if (mlirTypeIsNull(box) || !mlirTypeIsARankedTensor(box))
    return (MlirType){NULL};
  MlirContext ctx = mlirTypeGetContext(box);
  if (!wsContextIsDialectLoaded(ctx))
    return (MlirType){NULL};
  char buf[512];
  ws_text t;
  ws_text_init(&t, buf, sizeof buf);
  ws_text_appendf(&t, "%s", desc_prefix);
  mlirTypePrint(box, ws_text_append_ref, &t);
  ws_text_appendf(&t, ">");
  if (t.truncated)
    return (MlirType){NULL};
  return mlirTypeParseGet(ctx, mlirStringRefCreate(buf, t.len));
}

MlirType wsTensorDescTypeGetBox(MlirType type) {
  if (!wsTypeIsATensorDesc(type))
    return (MlirType){NULL};
  char buf[512];
  ws_text t;
  ws_text_init(&t, buf, sizeof buf);
  mlirTypePrint(type, ws_text_append_ref, &t);
  size_t skip = sizeof desc_prefix - 1;
  if (t.truncated || t.len < skip + 1 || buf[t.len - 1] != '>')
    return (MlirType){NULL};
  MlirStringRef inner = mlirStringRefCreate(buf + skip, t.len - skip - 1);
  MlirType box = mlirTypeParseGet(mlirTypeGetContext(type), inner);
  if (mlirTypeIsNull(box) || !mlirTypeIsARankedTensor(box))
    return (MlirType){NULL};
  return box;
}

WsDtype wsElementTypeGetDtype(MlirType t) {
  if (mlirTypeIsNull(t))
    return WsDtypeNone;
  if (mlirTypeIsAF32(t))
    return WsDtypeF32;
  if (mlirTypeIsAF16(t))
    return WsDtypeF16;
  if (mlirTypeIsABF16(t))
    return WsDtypeBF16;
  if (mlirTypeIsAFloat8E4M3FN(t))
    return WsDtypeF8E4M3FN;
  if (mlirTypeIsAFloat8E5M2(t))
    return WsDtypeF8E5M2;
  if (mlirTypeIsAInteger(t) && mlirIntegerTypeIsSignless(t)) {
    unsigned w = mlirIntegerTypeGetWidth(t);
    if (w == 8)
      return WsDtypeI8;
    if (w == 32)
      return WsDtypeI32;
  }
  return WsDtypeNone;
}

int wsElementTypeByteWidth(MlirType t) { return wsDtypeGetByteWidth(wsElementTypeGetDtype(t)); }

bool wsTypeIsAKernelArray(MlirType type) {
  if (mlirTypeIsNull(type) || !mlirTypeIsAMemRef(type) || mlirShapedTypeGetRank(type) != 1 ||
      !mlirAttributeIsNull(mlirMemRefTypeGetMemorySpace(type)) ||
      !mlirAffineMapIsIdentity(mlirMemRefTypeGetAffineMap(type)))
    return false;
  MlirType e = mlirShapedTypeGetElementType(type);
  return mlirTypeIsAF32(e) || (mlirTypeIsAInteger(e) && mlirIntegerTypeGetWidth(e) == 32 &&
                               mlirIntegerTypeIsSignless(e));
}
