/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_dialect.c: load the IRDL-defined ws dialect into a context. */
#include "ws-c/Dialect.h"

#include "mlir-c/Dialect/IRDL.h"

/* Generated at build time from dialect/ws.irdl.mlir (cmake/embed_text.cmake). */
extern const char ws_irdl_source[];
extern const size_t ws_irdl_source_len;

MlirStringRef wsDialectGetIRDLSource(void) {
  return mlirStringRefCreate(ws_irdl_source, ws_irdl_source_len);
}

bool wsContextIsDialectLoaded(MlirContext ctx) {
  MlirDialect d =
      mlirContextGetOrLoadDialect(ctx, mlirStringRefCreateFromCString(WS_DIALECT_NAMESPACE));
  return !mlirDialectIsNull(d);
}

/* IRDL turns the parsed definition into dynamic dialects; the definition
 * module is only needed while loading, so it is destroyed right after. */
MlirLogicalResult wsContextLoadDialect(MlirContext ctx) {
  if (wsContextIsDialectLoaded(ctx))
    return mlirLogicalResultSuccess();
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__irdl__(), ctx);
  MlirModule defs = mlirModuleCreateParse(ctx, wsDialectGetIRDLSource());
  if (mlirModuleIsNull(defs))
    return mlirLogicalResultFailure();
  MlirLogicalResult loaded = mlirLoadIRDLDialects(defs);
  mlirModuleDestroy(defs);
  return loaded;
}
