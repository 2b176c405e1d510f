/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* lower_f8.c: the FP8 conversions of ws_lower_f8.h, built from upstream
 * nvvm convert ops on element pairs and llvm.shufflevector to split and
 * join the vectors the compute partition works on. */
#include "ws_lower_f8.h"

#include <stdio.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

enum { MAX_PAIRS = 8 }; /* 16 one-byte elements: one 16-byte chunk */

bool ws_is_f8(MlirType element) {
  return mlirTypeIsAFloat8E4M3FN(element) || mlirTypeIsAFloat8E5M2(element);
}

MlirType ws_register_element(MlirType element) {
  return ws_is_f8(element) ? mlirF32TypeGet(mlirTypeGetContext(element)) : element;
}

static MlirType vector_of(int n, MlirType element) {
  int64_t shape[1] = {n};
  return mlirVectorTypeGet(1, shape, element);
}

static int lanes(MlirValue v) { return (int)mlirShapedTypeGetDimSize(mlirValueGetType(v), 0); }

static MlirValue shuffle(ws_builder *b, MlirValue x, MlirValue y, int first, int count) {
  char mask[128];
  int len = snprintf(mask, sizeof mask, "array<i32: ");
  for (int i = 0; i < count; i++)
    len += snprintf(mask + len, sizeof mask - (size_t)len, "%s%d", i ? ", " : "", first + i);
  snprintf(mask + len, sizeof mask - (size_t)len, ">");
  MlirNamedAttribute attr = ws_named_text(b->ctx, "mask", mask);
  MlirValue ops[2] = {x, y};
  MlirType element = mlirShapedTypeGetElementType(mlirValueGetType(x));
  return ws_build_value(b, "llvm.shufflevector", 2, ops, vector_of(count, element), 1, &attr);
}

/* Joins equal-length pieces, in order, into one vector. */
static MlirValue join(ws_builder *b, MlirValue *pieces, int n) {
  while (n > 1) {
    for (int i = 0; i < n / 2; i++)
      pieces[i] = shuffle(b, pieces[2 * i], pieces[2 * i + 1], 0, 2 * lanes(pieces[2 * i]));
    n /= 2;
  }
  return pieces[0];
}

static MlirValue element_at(ws_builder *b, MlirValue v, int index) {
  MlirValue ops[2] = {v, ws_const_i32(b, index)};
  return ws_build_value(b, "llvm.extractelement", 2, ops,
                        mlirShapedTypeGetElementType(mlirValueGetType(v)), 0, NULL);
}

static MlirNamedAttribute format_attr(ws_builder *b, const char *name, MlirType f8) {
  return ws_named(b->ctx, name, mlirTypeAttrGet(f8));
}

/* Two f8 bytes (vector<2xi8>) to vector<2xf32>. */
static MlirValue widen_pair(ws_builder *b, MlirValue pair, MlirType f8) {
  MlirNamedAttribute attrs[2] = {format_attr(b, "srcType", f8),
                                 ws_named_text(b->ctx, "relu", "false")};
  MlirValue half = ws_build_value(b, "nvvm.convert.f8x2.to.f16x2", 1, &pair,
                                  vector_of(2, mlirF16TypeGet(b->ctx)), 2, attrs);
  return ws_build_value(b, "arith.extf", 1, &half, vector_of(2, mlirF32TypeGet(b->ctx)), 0, NULL);
}

/* Elements 2k and 2k+1 of a vector<V x f32> to two f8 bytes, in order: the
 * cvt packs its first operand into the high byte, so they go in swapped. */
static MlirValue narrow_pair(ws_builder *b, MlirValue wide, int k, MlirType f8) {
  MlirValue ops[2] = {element_at(b, wide, 2 * k + 1), element_at(b, wide, 2 * k)};
  MlirNamedAttribute attrs[4] = {
      format_attr(b, "dstTy", f8),
      ws_named_text(b->ctx, "relu", "false"),
      ws_named_text(b->ctx, "rnd", "#nvvm.fp_rnd_mode<rn>"),
      ws_named_text(b->ctx, "sat", "#nvvm.sat_mode<satfinite>"),
  };
  return ws_build_value(b, "nvvm.convert.f32x2.to.f8x2", 2, ops,
                        vector_of(2, mlirIntegerTypeGet(b->ctx, 8)), 4, attrs);
}

MlirValue ws_f8_widen(ws_builder *b, MlirValue bytes, MlirType f8) {
  MlirValue pieces[MAX_PAIRS];
  int pairs = lanes(bytes) / 2;
  for (int k = 0; k < pairs && k < MAX_PAIRS; k++)
    pieces[k] = widen_pair(b, shuffle(b, bytes, bytes, 2 * k, 2), f8);
  return join(b, pieces, pairs);
}

MlirValue ws_f8_narrow(ws_builder *b, MlirValue wide, MlirType f8) {
  MlirValue pieces[MAX_PAIRS];
  int pairs = lanes(wide) / 2;
  for (int k = 0; k < pairs && k < MAX_PAIRS; k++)
    pieces[k] = narrow_pair(b, wide, k, f8);
  return join(b, pieces, pairs);
}

MlirValue ws_f8_extend(ws_builder *b, MlirValue wide, MlirType to) {
  if (mlirTypeIsAF32(to))
    return wide;
  MlirType type = mlirValueGetType(wide);
  if (mlirTypeIsAVector(type)) {
    int64_t n = mlirShapedTypeGetDimSize(type, 0);
    type = mlirVectorTypeGet(1, &n, to);
  } else {
    type = to;
  }
  return ws_build_value(b, "arith.truncf", 1, &wide, type, 0, NULL);
}

MlirValue ws_f8_round(ws_builder *b, MlirValue wide, MlirType f8) {
  MlirValue pieces[MAX_PAIRS];
  int pairs = lanes(wide) / 2;
  for (int k = 0; k < pairs && k < MAX_PAIRS; k++)
    pieces[k] = widen_pair(b, narrow_pair(b, wide, k, f8), f8);
  return join(b, pieces, pairs);
}
