/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_builder.h: create operations through the MLIR C API's generic
 * OperationState, with the few helpers the lowering needs. Internal. */
#ifndef WS_BUILDER_H
#define WS_BUILDER_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/IR.h"

/* Where new operations go: at the end of `block`, or before `before`. */
typedef struct ws_builder {
  MlirContext ctx;
  MlirLocation loc;
  MlirBlock block;
  MlirOperation before; /* null: append */
} ws_builder;

ws_builder ws_builder_at_end(MlirBlock block, MlirLocation loc);
ws_builder ws_builder_before(MlirOperation op);

MlirType ws_type(MlirContext ctx, const char *text);
MlirAttribute ws_attr(MlirContext ctx, const char *text);
MlirNamedAttribute ws_named(MlirContext ctx, const char *name, MlirAttribute attr);
/* `name` = #nvvm.cta_group<cta_N>: the CTAs (1, or 2 for a pair) a
 * tcgen05 op or a TMA copy acts for. */
MlirNamedAttribute ws_named_cta_group(MlirContext ctx, const char *name, int ctas);

/* A named attribute parsed from text: ws_named_text(ctx, "group", "1 : i32"). */
MlirNamedAttribute ws_named_text(MlirContext ctx, const char *name, const char *attr_text);

/* Creates op `name` and inserts it at the builder's point. Regions are
 * added empty (num_regions of them). */
MlirOperation ws_build(ws_builder *b, const char *name, intptr_t num_operands,
                       const MlirValue *operands, intptr_t num_results, const MlirType *results,
                       intptr_t num_attrs, const MlirNamedAttribute *attrs, intptr_t num_regions);

/* The first result of a new op with one result. */
MlirValue ws_build_value(ws_builder *b, const char *name, intptr_t num_operands,
                         const MlirValue *operands, MlirType result, intptr_t num_attrs,
                         const MlirNamedAttribute *attrs);

/* An op with operands and attributes but no results or regions. */
MlirOperation ws_build_void(ws_builder *b, const char *name, intptr_t num_operands,
                            const MlirValue *operands, intptr_t num_attrs,
                            const MlirNamedAttribute *attrs);

MlirValue ws_const_int(ws_builder *b, int64_t value, MlirType type);
MlirValue ws_const_i32(ws_builder *b, int64_t value);
/* arith binary op on same-typed operands: "arith.addi", "arith.muli"... */
MlirValue ws_arith(ws_builder *b, const char *name, MlirValue lhs, MlirValue rhs);
/* ceil(x / d) for i32 x >= 0 and d > 0 (a count of tiles or steps). */
MlirValue ws_ceil_div(ws_builder *b, MlirValue x, MlirValue d);
/* arith.cmpi with a predicate name: eq ne slt sle sgt sge ult ule ugt uge. */
MlirValue ws_cmpi(ws_builder *b, const char *predicate, MlirValue lhs, MlirValue rhs);
/* arith.select cond, yes, no (of yes's type). */
MlirValue ws_select(ws_builder *b, MlirValue cond, MlirValue yes, MlirValue no);
/* llvm.getelementptr base[offset] with an i8 element (a byte offset). */
MlirValue ws_byte_ptr(ws_builder *b, MlirValue base, MlirValue offset);
MlirValue ws_byte_ptr_const(ws_builder *b, MlirValue base, int32_t offset);
/* llvm.load of `type` at byte `offset` of `base`, `bytes`-aligned. */
MlirValue ws_load_at(ws_builder *b, MlirValue base, MlirValue offset, MlirType type, int bytes);
/* Address of smem[base + slot * stride] (slot an i32). */
MlirValue ws_smem_slot_ptr(ws_builder *b, MlirValue smem, int base, MlirValue slot, int stride);
/* llvm.inline_asm with side effects: PTX `text` over `operands` under
 * `constraints` (LLVM's), with one result of `result`, or none when it is
 * null. Returns the op. */
MlirOperation ws_build_inline_asm(ws_builder *b, const char *text, const char *constraints,
                                  intptr_t n, const MlirValue *operands, MlirType result);

/* A vector<n x T> of `values` (n of them, T their type) in order, built
 * from undef with llvm.insertelement. */
MlirValue ws_build_vector(ws_builder *b, intptr_t n, const MlirValue *values);

/* !llvm.struct of `count` values of `element`: how a lowered loop carries
 * a thread's registers of one tile. */
MlirType ws_struct_type(MlirContext ctx, int count, MlirType element);

/* llvm.extractvalue of field `index` (of `type`) of `agg`, and
 * llvm.insertvalue of `v` there, returning the new aggregate. */
MlirValue ws_extract_value(ws_builder *b, MlirValue agg, int index, MlirType type);
MlirValue ws_insert_value(ws_builder *b, MlirValue agg, MlirValue v, int index);

/* nvvm.shfl.sync over the whole warp: `kind` "bfly" (the value of lane
 * l ^ lane) or "idx" (of lane `lane`), clamped at 31. */
MlirValue ws_shuffle(ws_builder *b, const char *kind, MlirValue v, MlirValue lane);

/* The arith op that combines two values of ws.reduce `op` (its kind: max,
 * min or sum) of `element`s; NULL for another kind. */
const char *ws_reduce_combiner(MlirOperation op, MlirType element);

/* Clones a leaf op before the builder's point (the caller sets operands). */
MlirOperation ws_clone_before(ws_builder *b, MlirOperation op);

/* scf.if with no results; *then_block (and *else_block when asked) are
 * created, each already terminated by scf.yield; build before it. */
MlirOperation ws_build_if(ws_builder *b, MlirValue cond, MlirBlock *then_block,
                          MlirBlock *else_block);

/* scf.if with results of `types`; *then_block and *else_block are created
 * empty: the caller builds in them and ends each with scf.yield. */
MlirOperation ws_build_if_values(ws_builder *b, MlirValue cond, intptr_t num, const MlirType *types,
                                 MlirBlock *then_block, MlirBlock *else_block);

/* scf.for over i32 bounds with iter args; *body gets the induction variable
 * and the iter args as arguments and no terminator: the caller appends
 * scf.yield. */
MlirOperation ws_build_for(ws_builder *b, MlirValue lb, MlirValue ub, MlirValue step,
                           intptr_t num_iter, const MlirValue *inits, MlirBlock *body);

/* Appends a terminator `name` (scf.yield, llvm.return) with operands. */
void ws_build_terminator(MlirBlock block, MlirLocation loc, const char *name, intptr_t n,
                         const MlirValue *operands);

#endif
