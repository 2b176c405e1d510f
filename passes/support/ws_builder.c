/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_builder.c: generic operation creation for the ws passes. */
#include "ws_builder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "ws_op_list.h"
#include "../../dialect/ws_text.h"

ws_builder ws_builder_at_end(MlirBlock block, MlirLocation loc) {
  ws_builder b = {mlirLocationGetContext(loc), loc, block, {NULL}};
  return b;
}

ws_builder ws_builder_before(MlirOperation op) {
  MlirLocation loc = mlirOperationGetLocation(op);
  ws_builder b = {mlirLocationGetContext(loc), loc, mlirOperationGetBlock(op), op};
  return b;
}

MlirType ws_type(MlirContext ctx, const char *text) {
  return mlirTypeParseGet(ctx, mlirStringRefCreateFromCString(text));
}

MlirAttribute ws_attr(MlirContext ctx, const char *text) {
  return mlirAttributeParseGet(ctx, mlirStringRefCreateFromCString(text));
}

MlirNamedAttribute ws_named(MlirContext ctx, const char *name, MlirAttribute attr) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)), attr);
}

MlirNamedAttribute ws_named_cta_group(MlirContext ctx, const char *name, int ctas) {
  return ws_named_text(ctx, name, ctas == 2 ? "#nvvm.cta_group<cta_2>" : "#nvvm.cta_group<cta_1>");
}

MlirNamedAttribute ws_named_text(MlirContext ctx, const char *name, const char *attr_text) {
  return ws_named(ctx, name, ws_attr(ctx, attr_text));
}

static void insert(ws_builder *b, MlirOperation op) {
  if (!mlirOperationIsNull(b->before))
    mlirBlockInsertOwnedOperationBefore(b->block, b->before, op);
  else
    mlirBlockAppendOwnedOperation(b->block, op);
}

MlirOperation ws_build(ws_builder *b, const char *name, intptr_t num_operands,
                       const MlirValue *operands, intptr_t num_results, const MlirType *results,
                       intptr_t num_attrs, const MlirNamedAttribute *attrs, intptr_t num_regions) {
  MlirOperationState state = mlirOperationStateGet(mlirStringRefCreateFromCString(name), b->loc);
  if (num_operands)
    mlirOperationStateAddOperands(&state, num_operands, operands);
  if (num_results)
    mlirOperationStateAddResults(&state, num_results, results);
  if (num_attrs)
    mlirOperationStateAddAttributes(&state, num_attrs, attrs);
  MlirRegion regions[2];
  if (num_regions > 2)
    num_regions = 2;
  for (intptr_t i = 0; i < num_regions; i++)
    regions[i] = mlirRegionCreate();
  if (num_regions)
    mlirOperationStateAddOwnedRegions(&state, num_regions, regions);
  MlirOperation op = mlirOperationCreate(&state);
  insert(b, op);
  return op;
}

MlirValue ws_build_value(ws_builder *b, const char *name, intptr_t num_operands,
                         const MlirValue *operands, MlirType result, intptr_t num_attrs,
                         const MlirNamedAttribute *attrs) {
  MlirOperation op = ws_build(b, name, num_operands, operands, 1, &result, num_attrs, attrs, 0);
  return mlirOperationGetResult(op, 0);
}

MlirOperation ws_build_void(ws_builder *b, const char *name, intptr_t num_operands,
                            const MlirValue *operands, intptr_t num_attrs,
                            const MlirNamedAttribute *attrs) {
  return ws_build(b, name, num_operands, operands, 0, NULL, num_attrs, attrs, 0);
}

MlirValue ws_const_int(ws_builder *b, int64_t value, MlirType type) {
  MlirNamedAttribute v = ws_named(b->ctx, "value", mlirIntegerAttrGet(type, value));
  return ws_build_value(b, "arith.constant", 0, NULL, type, 1, &v);
}

MlirValue ws_const_i32(ws_builder *b, int64_t value) {
  return ws_const_int(b, value, mlirIntegerTypeGet(b->ctx, 32));
}

MlirValue ws_arith(ws_builder *b, const char *name, MlirValue lhs, MlirValue rhs) {
  MlirValue ops[2] = {lhs, rhs};
  return ws_build_value(b, name, 2, ops, mlirValueGetType(lhs), 0, NULL);
}

MlirValue ws_ceil_div(ws_builder *b, MlirValue x, MlirValue d) {
  MlirValue up = ws_arith(b, "arith.addi", x, ws_arith(b, "arith.subi", d, ws_const_i32(b, 1)));
  return ws_arith(b, "arith.divui", up, d);
}

MlirValue ws_cmpi(ws_builder *b, const char *predicate, MlirValue lhs, MlirValue rhs) {
  static const char *const names[] = {"eq",  "ne",  "slt", "sle", "sgt",
                                      "sge", "ult", "ule", "ugt", "uge"};
  int64_t code = 0;
  for (int64_t i = 0; i < 10; i++)
    if (strcmp(names[i], predicate) == 0)
      code = i;
  MlirValue ops[2] = {lhs, rhs};
  MlirNamedAttribute pred =
      ws_named(b->ctx, "predicate", mlirIntegerAttrGet(mlirIntegerTypeGet(b->ctx, 64), code));
  return ws_build_value(b, "arith.cmpi", 2, ops, mlirIntegerTypeGet(b->ctx, 1), 1, &pred);
}

MlirValue ws_select(ws_builder *b, MlirValue cond, MlirValue yes, MlirValue no) {
  MlirValue ops[3] = {cond, yes, no};
  return ws_build_value(b, "arith.select", 3, ops, mlirValueGetType(yes), 0, NULL);
}

/* GEP with one index: constant (folded into rawConstantIndices) or dynamic
 * (marked there by INT32_MIN, the LLVM dialect's convention). */
static MlirValue byte_gep(ws_builder *b, MlirValue base, MlirValue dynamic, int32_t constant) {
  char raw[48];
  snprintf(raw, sizeof raw, "array<i32: %d>", mlirValueIsNull(dynamic) ? constant : INT32_MIN);
  MlirNamedAttribute attrs[2] = {
      ws_named_text(b->ctx, "elem_type", "i8"),
      ws_named_text(b->ctx, "rawConstantIndices", raw),
  };
  MlirValue ops[2] = {base, dynamic};
  return ws_build_value(b, "llvm.getelementptr", mlirValueIsNull(dynamic) ? 1 : 2, ops,
                        mlirValueGetType(base), 2, attrs);
}

MlirValue ws_byte_ptr(ws_builder *b, MlirValue base, MlirValue offset) {
  return byte_gep(b, base, offset, 0);
}

MlirValue ws_byte_ptr_const(ws_builder *b, MlirValue base, int32_t offset) {
  if (offset == 0)
    return base;
  return byte_gep(b, base, (MlirValue){NULL}, offset);
}

MlirValue ws_load_at(ws_builder *b, MlirValue base, MlirValue offset, MlirType type, int bytes) {
  char align[32];
  snprintf(align, sizeof align, "%d : i64", bytes);
  MlirNamedAttribute attr = ws_named_text(b->ctx, "alignment", align);
  MlirValue at = ws_byte_ptr(b, base, offset);
  return ws_build_value(b, "llvm.load", 1, &at, type, 1, &attr);
}

void ws_build_terminator(MlirBlock block, MlirLocation loc, const char *name, intptr_t n,
                         const MlirValue *operands) {
  ws_builder end = ws_builder_at_end(block, loc);
  ws_build(&end, name, n, operands, 0, NULL, 0, NULL, 0);
}

/* A region holding one new block, the block terminated by scf.yield. */
static MlirBlock add_yield_block(MlirOperation op, intptr_t region, MlirLocation loc) {
  MlirBlock block = mlirBlockCreate(0, NULL, NULL);
  mlirRegionAppendOwnedBlock(mlirOperationGetRegion(op, region), block);
  ws_build_terminator(block, loc, "scf.yield", 0, NULL);
  return block;
}

MlirOperation ws_build_if(ws_builder *b, MlirValue cond, MlirBlock *then_block,
                          MlirBlock *else_block) {
  MlirOperation op = ws_build(b, "scf.if", 1, &cond, 0, NULL, 0, NULL, 2);
  *then_block = add_yield_block(op, 0, b->loc);
  if (else_block)
    *else_block = add_yield_block(op, 1, b->loc);
  return op;
}

MlirOperation ws_build_if_values(ws_builder *b, MlirValue cond, intptr_t num, const MlirType *types,
                                 MlirBlock *then_block, MlirBlock *else_block) {
  MlirOperation op = ws_build(b, "scf.if", 1, &cond, num, types, 0, NULL, 2);
  for (intptr_t r = 0; r < 2; r++) {
    MlirBlock block = mlirBlockCreate(0, NULL, NULL);
    mlirRegionAppendOwnedBlock(mlirOperationGetRegion(op, r), block);
    *(r ? else_block : then_block) = block;
  }
  return op;
}

MlirOperation ws_build_for(ws_builder *b, MlirValue lb, MlirValue ub, MlirValue step,
                           intptr_t num_iter, const MlirValue *inits, MlirBlock *body) {
  /* as many iter args as the loop carries (a row kernel's row vectors) */
  MlirValue *operands = ws_zalloc((size_t)(3 + num_iter), sizeof *operands);
  MlirType *types = ws_zalloc((size_t)(1 + num_iter), sizeof *types);
  MlirLocation *locs = ws_zalloc((size_t)(1 + num_iter), sizeof *locs);
  operands[0] = lb;
  operands[1] = ub;
  operands[2] = step;
  types[0] = mlirValueGetType(lb);
  locs[0] = b->loc;
  for (intptr_t i = 0; i < num_iter; i++) {
    operands[3 + i] = inits[i];
    types[1 + i] = mlirValueGetType(inits[i]);
    locs[1 + i] = b->loc;
  }
  MlirOperation op =
      ws_build(b, "scf.for", 3 + num_iter, operands, num_iter, types + 1, 0, NULL, 1);
  *body = mlirBlockCreate(1 + num_iter, types, locs);
  mlirRegionAppendOwnedBlock(mlirOperationGetRegion(op, 0), *body);
  free(operands);
  free(types);
  free(locs);
  return op;
}

MlirValue ws_smem_slot_ptr(ws_builder *b, MlirValue smem, int base, MlirValue slot, int stride) {
  MlirValue off =
      ws_arith(b, "arith.addi", ws_arith(b, "arith.muli", slot, ws_const_i32(b, stride)),
               ws_const_i32(b, base));
  return ws_byte_ptr(b, smem, off);
}

MlirValue ws_build_vector(ws_builder *b, intptr_t n, const MlirValue *values) {
  int64_t shape = n;
  MlirType type = mlirVectorTypeGet(1, &shape, mlirValueGetType(values[0]));
  MlirValue v = ws_build_value(b, "llvm.mlir.undef", 0, NULL, type, 0, NULL);
  for (intptr_t i = 0; i < n; i++) {
    MlirValue ops[3] = {v, values[i], ws_const_i32(b, i)};
    v = ws_build_value(b, "llvm.insertelement", 3, ops, type, 0, NULL);
  }
  return v;
}

MlirValue ws_shuffle(ws_builder *b, const char *kind, MlirValue v, MlirValue lane) {
  char text[48];
  snprintf(text, sizeof text, "#nvvm<shfl_kind %s>", kind);
  MlirNamedAttribute attr = ws_named_text(b->ctx, "kind", text);
  MlirValue ops[4] = {ws_const_i32(b, -1), v, lane, ws_const_i32(b, 31)};
  return ws_build_value(b, "nvvm.shfl.sync", 4, ops, mlirValueGetType(v), 1, &attr);
}

const char *ws_reduce_combiner(MlirOperation op, MlirType element) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("kind"));
  MlirStringRef kind = mlirAttributeIsNull(a) || !mlirAttributeIsAString(a)
                           ? mlirStringRefCreateFromCString("")
                           : mlirStringAttrGetValue(a);
  bool fp = mlirTypeIsAFloat(element);
  if (ws_ref_eq(kind, "max"))
    return fp ? "arith.maximumf" : "arith.maxsi";
  if (ws_ref_eq(kind, "min"))
    return fp ? "arith.minimumf" : "arith.minsi";
  if (ws_ref_eq(kind, "sum"))
    return fp ? "arith.addf" : "arith.addi";
  return NULL;
}

MlirOperation ws_clone_before(ws_builder *b, MlirOperation op) {
  MlirOperation copy = mlirOperationClone(op);
  if (!mlirOperationIsNull(b->before))
    mlirBlockInsertOwnedOperationBefore(b->block, b->before, copy);
  else
    mlirBlockAppendOwnedOperation(b->block, copy);
  return copy;
}

MlirOperation ws_build_inline_asm(ws_builder *b, const char *text, const char *constraints,
                                  intptr_t n, const MlirValue *operands, MlirType result) {
  MlirNamedAttribute attrs[3] = {
      ws_named(b->ctx, "asm_string",
               mlirStringAttrGet(b->ctx, mlirStringRefCreateFromCString(text))),
      ws_named(b->ctx, "constraints",
               mlirStringAttrGet(b->ctx, mlirStringRefCreateFromCString(constraints))),
      ws_named(b->ctx, "has_side_effects", mlirUnitAttrGet(b->ctx)),
  };
  return ws_build(b, "llvm.inline_asm", n, operands, mlirTypeIsNull(result) ? 0 : 1, &result, 3,
                  attrs, 0);
}

MlirType ws_struct_type(MlirContext ctx, int count, MlirType element) {
  char e[32];
  ws_type_str(element, e, sizeof e);
  size_t cap = (size_t)count * (strlen(e) + 2) + 32;
  char *text = malloc(cap);
  if (!text)
    abort();
  ws_text t;
  ws_text_init(&t, text, cap);
  ws_text_appendf(&t, "!llvm.struct<(");
  for (int i = 0; i < count; i++)
    ws_text_appendf(&t, "%s%s", i ? ", " : "", e);
  ws_text_appendf(&t, ")>");
  MlirType type = ws_type(ctx, text);
  free(text);
  return type;
}

static MlirNamedAttribute position(MlirContext ctx, int i) {
  char pos[48];
  snprintf(pos, sizeof pos, "array<i64: %d>", i);
  return ws_named_text(ctx, "position", pos);
}

MlirValue ws_extract_value(ws_builder *b, MlirValue agg, int index, MlirType type) {
  MlirNamedAttribute attr = position(b->ctx, index);
  return ws_build_value(b, "llvm.extractvalue", 1, &agg, type, 1, &attr);
}

MlirValue ws_insert_value(ws_builder *b, MlirValue agg, MlirValue v, int index) {
  MlirNamedAttribute attr = position(b->ctx, index);
  MlirValue ops[2] = {agg, v};
  return ws_build_value(b, "llvm.insertvalue", 2, ops, mlirValueGetType(agg), 1, &attr);
}
