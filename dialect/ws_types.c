/* ws_types.c: build and inspect !ws.tensor_desc types.
 *
 * IRDL types have no C accessors for their parameters, so the box is read
 * back from the printed form "!ws.tensor_desc<BOX>" and parsed again. Types
 * are uniqued in the context, so this round trip yields the very same box. */
#include "ws-c/Dialect.h"

#include <string.h>

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

int wsElementTypeByteWidth(MlirType t) {
  if (mlirTypeIsAFloat8E4M3FN(t) || mlirTypeIsAFloat8E5M2(t))
    return 1;
  if (mlirTypeIsAF16(t) || mlirTypeIsABF16(t))
    return 2;
  if (mlirTypeIsAF32(t))
    return 4;
  if (mlirTypeIsAInteger(t) && mlirIntegerTypeIsSignless(t)) {
    unsigned w = mlirIntegerTypeGetWidth(t);
    if (w == 8 || w == 32)
      return (int)(w / 8);
  }
  return 0;
}
