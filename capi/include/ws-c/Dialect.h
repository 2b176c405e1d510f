/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * ws-c/Dialect.h: load the ws dialect into an MLIR context and build or
 * inspect its types and operations.
 *
 * The dialect is defined in IRDL (dialect/ws.irdl.mlir); the library embeds
 * that text, so no file is needed at run time. All functions take and return
 * MLIR C API handles; none keeps state outside the context it is given.
 */
#ifndef WS_C_DIALECT_H
#define WS_C_DIALECT_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The namespace of the dialect ("ws"). */
#define WS_DIALECT_NAMESPACE "ws"

/* Loads the ws dialect into `ctx`. The context must have the IRDL dialect
 * available (mlirRegisterAllDialects does it; otherwise it is loaded here).
 * Loading twice is harmless: the second call finds the dialect and succeeds. */
MlirLogicalResult wsContextLoadDialect(MlirContext ctx);

/* Returns true when the ws dialect is loaded in `ctx`. */
bool wsContextIsDialectLoaded(MlirContext ctx);

/* The IRDL text of the dialect, as embedded in the library (NUL-terminated;
 * the length excludes the NUL). Tools that want to hand it to mlir-opt's
 * --irdl-file can write it out. */
MlirStringRef wsDialectGetIRDLSource(void);

/* Returns true when `type` is a !ws.tensor_desc<...>. */
bool wsTypeIsATensorDesc(MlirType type);

/* Returns true when `type` is a kernel array: a rank-1 memref of i32 or
 * f32 with the identity layout in the default memory space (memref<?xi32>,
 * memref<8xf32>). A kernel takes one as an argument and reads it element
 * by element with memref.load (cumulative sequence offsets, a scale per
 * head); the launcher passes a contiguous rank-1 ws_tensor for it. */
bool wsTypeIsAKernelArray(MlirType type);

/* Returns !ws.tensor_desc<box> for a ranked tensor type `box`, or a null type
 * when `box` is not a ranked tensor or the dialect is not loaded. */
MlirType wsTensorDescTypeGet(MlirType box);

/* Returns the box (a ranked tensor type) of a !ws.tensor_desc, or a null type
 * when `type` is not one. */
MlirType wsTensorDescTypeGetBox(MlirType type);

/* The size in bytes of one element of a tile or descriptor box: 1 for
 * f8E4M3FN, f8E5M2 and i8, 2 for f16 and bf16, 4 for f32 and i32; 0 for any
 * element type the dialect does not accept. */
int wsElementTypeByteWidth(MlirType element);

/* The element types a tile or descriptor may hold, numbered as the
 * generated launcher's `ws_dtype`, which a caller stores in `ws_tensor.dtype`
 * so that each launch can refuse a tensor of the wrong type. The numbers
 * are stable: a new type takes the next one, and 0 is "no type". */
typedef enum WsDtype {
  WsDtypeNone = 0,
  WsDtypeF32 = 1,
  WsDtypeF16 = 2,
  WsDtypeBF16 = 3,
  WsDtypeF8E4M3FN = 4,
  WsDtypeF8E5M2 = 5,
  WsDtypeI8 = 6,
  WsDtypeI32 = 7,
  WsDtypeCount /* one past the last number */
} WsDtype;

/* The number of `element`, or WsDtypeNone for a type the dialect does not
 * accept in a tile. */
WsDtype wsElementTypeGetDtype(MlirType element);

/* MLIR's spelling of `dtype` ("f16", "f8E4M3FN", "i32"); NULL for
 * WsDtypeNone and for numbers outside the enumeration. */
const char *wsDtypeGetName(WsDtype dtype);

/* Bytes per element of `dtype`; 0 for WsDtypeNone or an unknown number. */
int wsDtypeGetByteWidth(WsDtype dtype);

/* The CUtensorMapDataType TMA moves `dtype` as, by its enumerator's name
 * ("CU_TENSOR_MAP_DATA_TYPE_FLOAT16"; FP8 and i8 move as bytes); NULL for
 * WsDtypeNone or an unknown number. */
const char *wsDtypeGetTensorMapType(WsDtype dtype);

/* Returns true when `op` is the ws operation `name` ("load", "store", "dot"). */
bool wsOperationIsA(MlirOperation op, const char *name);

/* Returns true when `op` belongs to the ws dialect. */
bool wsOperationIsInDialect(MlirOperation op);

/* Returns true when a ws.store (or, once specialized, a ws.tma_store)
 * writes through descriptor value `desc`. Such a descriptor's kernel
 * parameter is followed, after lowering, by its store view (see the launcher and
 * passes/conversion/ws_lower_store.h). */
bool wsTensorDescIsStored(MlirValue desc);

/* Creates "ws.load"(desc, coords...) -> box type of desc. Returns a null
 * operation when `desc` is not a !ws.tensor_desc. The caller owns the result
 * and usually inserts it into a block. */
MlirOperation wsLoadOpCreate(MlirLocation loc, MlirValue desc, intptr_t num_coords,
                             const MlirValue *coords);

/* Creates "ws.store"(desc, coords..., value). */
MlirOperation wsStoreOpCreate(MlirLocation loc, MlirValue desc, intptr_t num_coords,
                              const MlirValue *coords, MlirValue value);

/* Creates "ws.dot"(a, b, acc) -> type of acc, with the unit attribute
 * transpose_b when `transpose_b` is true. */
MlirOperation wsDotOpCreate(MlirLocation loc, MlirValue a, MlirValue b, MlirValue acc,
                            bool transpose_b);

#ifdef __cplusplus
}
#endif

#endif /* WS_C_DIALECT_H */
