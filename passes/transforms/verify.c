/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* verify.c: ws-verify, the semantic checks IRDL cannot express.
 *
 * IRDL already guarantees operand and result kinds (a descriptor, i32
 * coordinates, tensors). This pass checks what relates them: coordinate
 * count against descriptor rank, tiles against boxes, dot shapes, the
 * boxes TMA can move, the ws attributes, and that ws code sits in a kernel
 * of a gpu.module targeting a supported NVVM chip. Every later ws pass runs
 * ws_verify_root first, so no pass sees input this pass would reject. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "ws-c/Dialect.h"
#include "ws_divisor.h"
#include "../plan/ws_plan.h"
#include "../plan/ws_row_kernel.h"
#include "../target/ws_target.h"
#include "../support/ws_l2_policy.h"
#include "../support/ws_pass.h"
#include "../../dialect/ws_text.h"

enum { TMA_MAX_RANK = 5, TMA_MAX_BOX_DIM = WS_TMA_MAX_BOX_DIM, TMA_INNER_ALIGN_BYTES = 16 };

static const char supported_elements[] = "f16, bf16, f32, f8E4M3FN, f8E5M2, i8, i32";

static bool get_i32(MlirAttribute attr, long long *value);

/* Ops and functions seen during the walk; the kernel context of each
 * function is checked once after the walk, so a kernel with twenty ws ops
 * and a bad target gets one error, not twenty. */
typedef struct op_list {
  MlirOperation *items;
  size_t len, cap;
} op_list;

typedef struct verify_state {
  const char *chip;
  bool ok;
  op_list functions;
  op_list modules;
} verify_state;

static void op_list_add_unique(op_list *list, MlirOperation op) {
  for (size_t i = 0; i < list->len; i++)
    if (mlirOperationEqual(list->items[i], op))
      return;
  if (list->len == list->cap) {
    size_t cap = list->cap ? list->cap * 2 : 8;
    MlirOperation *items = realloc(list->items, cap * sizeof *items);
    if (!items)
      return; /* a missed context check, never a crash */
    list->items = items;
    list->cap = cap;
  }
  list->items[list->len++] = op;
}

/* Remembers the function holding ws code; ws code outside any gpu.func is
 * an error right away. */
static void note_ws_user(verify_state *st, MlirOperation op) {
  MlirOperation func = ws_op_is(op, "gpu.func") ? op : ws_enclosing_op(op, "gpu.func");
  if (mlirOperationIsNull(func)) {
    ws_emit_op_error(op, "must be inside a gpu.func kernel of a gpu.module; "
                         "ws code only runs in GPU kernels");
    st->ok = false;
    return;
  }
  op_list_add_unique(&st->functions, func);
}

/* ---- descriptor boxes ---------------------------------------------------- */

/* The boxes a TMA copy can move: rank 1-5, static, each extent 1-256 (the
 * innermost may be wider when it splits into boxes side by side,
 * ws_row_box_cols), the innermost extent a multiple of 16 bytes, an
 * accepted element type. A descriptor only a row kernel's row vectors are
 * stored through (`direct`, ws_row_kernel.h) never meets TMA, so its
 * innermost extent may be any. */
static bool check_box(MlirLocation loc, MlirType desc, bool direct) {
  char dbuf[256], ebuf[64];
  MlirType box = wsTensorDescTypeGetBox(desc);
  ws_type_str(desc, dbuf, sizeof dbuf);
  if (mlirTypeIsNull(box)) {
    ws_emit_error_at(loc, "descriptor %s: the box must be a ranked tensor", dbuf);
    return false;
  }
  int64_t rank = mlirShapedTypeGetRank(box);
  if (rank < 1 || rank > TMA_MAX_RANK) {
    ws_emit_error_at(loc,
                     "descriptor %s: box rank %lld is not supported; "
                     "expected rank 1 to %d",
                     dbuf, (long long)rank, TMA_MAX_RANK);
    return false;
  }
  MlirType elem = mlirShapedTypeGetElementType(box);
  int bytes = wsElementTypeByteWidth(elem);
  if (bytes == 0) {
    ws_emit_error_at(loc,
                     "descriptor %s: element type %s is not supported; "
                     "expected one of %s",
                     dbuf, ws_type_str(elem, ebuf, sizeof ebuf), supported_elements);
    return false;
  }
  for (int64_t d = 0; d < rank; d++) {
    int64_t extent = mlirShapedTypeGetDimSize(box, d);
    if (mlirShapedTypeIsDynamicSize(extent)) {
      ws_emit_error_at(loc,
                       "descriptor %s: box dimension %lld is dynamic; "
                       "expected a static box shape",
                       dbuf, (long long)d);
      return false;
    }
    bool side_by_side =
        d == rank - 1 && extent > TMA_MAX_BOX_DIM && ws_row_box_cols(extent, bytes) > 0;
    if (extent < 1 || (extent > TMA_MAX_BOX_DIM && !side_by_side)) {
      ws_emit_error_at(loc,
                       "descriptor %s: box dimension %lld is %lld; TMA "
                       "boxes take 1 to %d elements per dimension%s",
                       dbuf, (long long)d, (long long)extent, TMA_MAX_BOX_DIM,
                       d == rank - 1 ? " (a wider innermost one is moved as several "
                                       "boxes side by side when a divisor of it of at "
                                       "most 256 spans a multiple of 16 bytes)"
                                     : "");
      return false;
    }
  }
  int64_t extent = mlirShapedTypeGetDimSize(box, rank - 1), inner = extent * bytes;
  if (inner % TMA_INNER_ALIGN_BYTES != 0 && !direct) {
    /* the fix, in the user's units: elements of the box's type */
    int64_t step = TMA_INNER_ALIGN_BYTES / bytes;
    ws_emit_error_at(loc,
                     "descriptor %s: the innermost box dimension spans "
                     "%lld bytes; TMA needs a multiple of %d bytes: make it a "
                     "multiple of %lld %s elements (%lld instead of %lld)",
                     dbuf, (long long)inner, TMA_INNER_ALIGN_BYTES, (long long)step,
                     ws_type_str(elem, ebuf, sizeof ebuf),
                     (long long)((extent + step - 1) / step * step), (long long)extent);
    return false;
  }
  return true;
}

/* `ws.divisibility = N : i32` (N >= 1) on an integer kernel argument
 * promises the host passes only multiples of N; the alignment proof of TMA
 * coordinates builds on it. Any other ws.* argument attribute is unknown. */
static bool check_argument_attributes(MlirOperation func, intptr_t index, MlirValue arg) {
  MlirAttribute all =
      mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("arg_attrs"));
  if (mlirAttributeIsNull(all) || !mlirAttributeIsAArray(all) ||
      index >= mlirArrayAttrGetNumElements(all))
    return true;
  MlirAttribute dict = mlirArrayAttrGetElement(all, index);
  if (!mlirAttributeIsADictionary(dict))
    return true;
  MlirLocation loc = mlirValueGetLocation(arg);
  for (intptr_t i = 0; i < mlirDictionaryAttrGetNumElements(dict); i++) {
    MlirNamedAttribute na = mlirDictionaryAttrGetElement(dict, i);
    MlirStringRef name = mlirIdentifierStr(na.name);
    if (name.length < 3 || memcmp(name.data, "ws.", 3) != 0)
      continue;
    char buf[128];
    if (!ws_ref_eq(name, "ws.divisibility")) {
      ws_emit_error_at(loc,
                       "kernel argument %d has unknown attribute '%.*s'; "
                       "the ws argument attribute is ws.divisibility",
                       (int)index, (int)name.length, name.data);
      return false;
    }
    long long v;
    MlirType t = mlirValueGetType(arg);
    if (!(mlirTypeIsAInteger(t) || mlirTypeIsAIndex(t)) || !get_i32(na.attribute, &v) || v < 1) {
      ws_emit_error_at(loc,
                       "kernel argument %d: ws.divisibility = %s; expected "
                       "a positive i32 on an integer argument",
                       (int)index, ws_attr_str(na.attribute, buf, sizeof buf));
      return false;
    }
  }
  return true;
}

/* A memref argument of a kernel is an array it reads element by element
 * (wsTypeIsAKernelArray); the launcher and the lowering know no other. */
static bool check_array_argument(intptr_t index, MlirValue arg) {
  MlirType type = mlirValueGetType(arg);
  if (!mlirTypeIsAMemRef(type))
    return true;
  if (wsTypeIsAKernelArray(type)) { /* read only: memref.load, memref.dim */
    for (MlirOpOperand use = mlirValueGetFirstUse(arg); !mlirOpOperandIsNull(use);
         use = mlirOpOperandGetNextUse(use)) {
      MlirOperation user = mlirOpOperandGetOwner(use);
      if ((ws_op_is(user, "memref.load") || ws_op_is(user, "memref.dim")) &&
          mlirOpOperandGetOperandNumber(use) == 0)
        continue;
      ws_emit_op_error(user,
                       "uses kernel argument %d, an array: a kernel reads its "
                       "arrays with memref.load and memref.dim only; results "
                       "leave through ws.store to a !ws.tensor_desc",
                       (int)index);
      return false;
    }
    return true;
  }
  char buf[128];
  ws_emit_error_at(mlirValueGetLocation(arg),
                   "kernel argument %d of type %s: a kernel takes an array as a "
                   "rank-1 memref of i32 or f32 with the identity layout "
                   "(memref<?xi32>, memref<?xf32>) and reads it with memref.load; "
                   "tiles come through !ws.tensor_desc",
                   (int)index, ws_type_str(type, buf, sizeof buf));
  return false;
}

/* Checks the descriptor arguments of a function's entry block. */
static void check_function_arguments(verify_state *st, MlirOperation func) {
  if (mlirOperationGetNumRegions(func) < 1)
    return;
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  if (mlirBlockIsNull(entry))
    return;
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(entry); i++) {
    MlirValue arg = mlirBlockGetArgument(entry, i);
    MlirType type = mlirValueGetType(arg);
    if (!check_argument_attributes(func, i, arg) ||
        (ws_op_is(func, "gpu.func") && !check_array_argument(i, arg)))
      st->ok = false;
    if (!wsTypeIsATensorDesc(type))
      continue;
    if (!ws_op_is(func, "gpu.func")) {
      ws_emit_op_error(func, "takes a !ws.tensor_desc argument; descriptors "
                             "are only allowed on gpu.func kernels");
      st->ok = false;
      return;
    }
    op_list_add_unique(&st->functions, func);
    if (!check_box(mlirValueGetLocation(arg), type, ws_desc_is_accessed_directly(arg)))
      st->ok = false;
  }
}

/* ---- ws.load / ws.store -------------------------------------------------- */

/* Whether tile is the box, or the box with leading unit extents dropped (a
 * 1x1x128x64 box of a [B, H, S, D] tensor moves a 128x64 tile: one head's
 * rows, clipped at that head's end by TMA). */
static bool tile_fits_box(MlirType tile, MlirType box) {
  if (mlirTypeEqual(tile, box))
    return true;
  if (!mlirTypeIsARankedTensor(tile) ||
      !mlirTypeEqual(mlirShapedTypeGetElementType(tile), mlirShapedTypeGetElementType(box)))
    return false;
  intptr_t rank = mlirShapedTypeGetRank(tile), drop = mlirShapedTypeGetRank(box) - rank;
  if (rank < 1 || drop < 1)
    return false;
  for (intptr_t d = 0; d < drop; d++)
    if (mlirShapedTypeGetDimSize(box, d) != 1)
      return false;
  for (intptr_t d = 0; d < rank; d++)
    if (mlirShapedTypeGetDimSize(tile, d) != mlirShapedTypeGetDimSize(box, drop + d))
      return false;
  return true;
}

/* Shared by load and store: the coordinates must match the rank, and the
 * tile (result or stored value) must be the box (tile_fits_box). */
static bool check_access(MlirOperation op, intptr_t num_coords, MlirType tile,
                         const char *tile_role) {
  char dbuf[256], tbuf[256], bbuf[256];
  MlirType desc = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirType box = wsTensorDescTypeGetBox(desc);
  if (mlirTypeIsNull(box)) {
    ws_emit_op_error(op, "descriptor %s has no ranked tensor box",
                     ws_type_str(desc, dbuf, sizeof dbuf));
    return false;
  }
  int64_t rank = mlirShapedTypeGetRank(box);
  if (num_coords != rank) {
    ws_emit_op_error(op,
                     "has %lld coordinate%s but descriptor %s has rank "
                     "%lld; expected %lld coordinates",
                     (long long)num_coords, num_coords == 1 ? "" : "s",
                     ws_type_str(desc, dbuf, sizeof dbuf), (long long)rank, (long long)rank);
    return false;
  }
  if (!tile_fits_box(tile, box)) {
    ws_emit_op_error(op,
                     "%s type %s does not match the descriptor's box; "
                     "expected %s, or it with leading unit extents dropped",
                     tile_role, ws_type_str(tile, tbuf, sizeof tbuf),
                     ws_type_str(box, bbuf, sizeof bbuf));
    return false;
  }
  return true;
}

/* TMA faults unless a copy's innermost coordinate is a multiple of 16
 * bytes; the coordinate must be proven so (see ws_divisor.h). The operand
 * before the tile (a store) or the last one (a load) is the innermost. */
static bool check_inner_coordinate(MlirOperation op, intptr_t index) {
  MlirType desc = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirType elem = mlirShapedTypeGetElementType(wsTensorDescTypeGetBox(desc));
  int bytes = wsElementTypeByteWidth(elem);
  if (bytes == 0)
    return true; /* the descriptor check reports it */
  long long need = TMA_INNER_ALIGN_BYTES / bytes;
  MlirValue coord = mlirOperationGetOperand(op, index);
  long long have = ws_known_divisor(coord);
  if (have % need == 0)
    return true;
  char origin[320], ebuf[64], remedy[160];
  bool tiled =
      mlirValueIsAOpResult(coord) && ws_op_is(mlirOpResultGetOwner(coord), "ws.tile_coords");
  if (tiled) /* its columns step by the tile's width */
    snprintf(remedy, sizeof remedy,
             "make the tile's width (its tile attribute's last "
             "entry) a multiple of %lld",
             need);
  else
    snprintf(remedy, sizeof remedy,
             "offset and step it by multiples of %lld, or mark the "
             "kernel argument it comes from {ws.divisibility = %lld : "
             "i32}",
             need, need);
  ws_emit_op_error(op,
                   "innermost coordinate (operand %d) must be a multiple "
                   "of %lld elements (16 bytes of %s) for TMA, but it is "
                   "only proven a multiple of %lld; it is %s: %s",
                   (int)index, need, ws_type_str(elem, ebuf, sizeof ebuf), have,
                   ws_value_origin(coord, origin, sizeof origin), remedy);
  return false;
}

/* A load's L2 policy, l2 = "evict_normal" (the default), "evict_first" (a
 * last use: a matmul's streamed operand) or "evict_last" (read again by
 * other blocks soon: the operand every tile of a thin output shares). */
static bool check_l2_policy(MlirOperation op) {
  if (ws_l2_policy_of(op) != WS_L2_UNKNOWN)
    return true;
  char got[128];
  ws_attr_str(mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("l2")), got,
              sizeof got);
  ws_emit_op_error(op,
                   "needs l2 = \"%s\", \"%s\" or \"%s\" (the L2 policy of its copies), "
                   "got %s",
                   ws_l2_policy_names[WS_L2_NORMAL], ws_l2_policy_names[WS_L2_FIRST],
                   ws_l2_policy_names[WS_L2_LAST], got);
  return false;
}

static bool check_load(MlirOperation op) {
  intptr_t n = mlirOperationGetNumOperands(op);
  return check_access(op, n - 1, mlirValueGetType(mlirOperationGetResult(op, 0)), "result") &&
         (ws_load_is_row_vector(op) || check_inner_coordinate(op, n - 1)) && check_l2_policy(op);
}

static bool check_store(MlirOperation op) {
  intptr_t n = mlirOperationGetNumOperands(op);
  return check_access(op, n - 2, mlirValueGetType(mlirOperationGetOperand(op, n - 1)),
                      "stored value") &&
         (ws_store_is_row_vector(op) || check_inner_coordinate(op, n - 2));
}

/* ---- ws.dot -------------------------------------------------------------- */

static bool is_fp8(MlirType t) {
  WsDtype d = wsElementTypeGetDtype(t);
  return d == WsDtypeF8E4M3FN || d == WsDtypeF8E5M2;
}

static bool engine_has_fp8(const ws_mma_engine *engine) {
  for (int i = 0; i < engine->num_forms; i++)
    if (engine->forms[i].a == WsDtypeF8E4M3FN || engine->forms[i].a == WsDtypeF8E5M2)
      return true;
  return false;
}

/* Rank-2 static tensor check for one dot operand. */
static bool is_matrix(MlirOperation op, MlirType t, const char *role) {
  char buf[256];
  if (!mlirTypeIsARankedTensor(t) || mlirShapedTypeGetRank(t) != 2 ||
      !mlirShapedTypeHasStaticShape(t)) {
    ws_emit_op_error(op, "operand %s must be a static rank-2 tensor, got %s", role,
                     ws_type_str(t, buf, sizeof buf));
    return false;
  }
  return true;
}

/* The scale operands of a block-scaled ws.dot: the chip's engine must have
 * a block-scaled form for A and B, B given N x K, and the scales are the MX
 * atoms of A's rows then of B's, one per scale_atom_rows rows and
 * scale_atom_k of K, each a scale_atom_shape tile of i8 exponents. */
static bool check_dot_scales(MlirOperation op, MlirType a, MlirType b, bool transpose_b) {
  const ws_mma_engine *engine = ws_mma_engine_of(op);
  char abuf[64], bbuf[64], chip[64], forms[512];
  if (!engine)
    return true; /* no target: refused elsewhere */
  MlirType ea = mlirShapedTypeGetElementType(a), eb = mlirShapedTypeGetElementType(b);
  if (!engine->num_scaled_forms) {
    ws_emit_op_error(op,
                     "is block-scaled (scale operands), but on %s ws.dot runs on %s, "
                     "which has no block-scaled form; write the scaling in the loop: "
                     "each K block's product a ws.dot into a fresh accumulator, "
                     "scaled and added (docs/language.md, FP8 matmuls)",
                     ws_target_chip(op, chip, sizeof chip), engine->name);
    return false;
  }
  if (!ws_mma_find_scaled_form(engine, ea, eb)) {
    ws_emit_op_error(op,
                     "is block-scaled with a and b of element types %s and %s; %s "
                     "has block-scaled forms for a x b of %s only",
                     ws_type_str(ea, abuf, sizeof abuf), ws_type_str(eb, bbuf, sizeof bbuf),
                     engine->name, ws_mma_scaled_form_list(engine, forms, sizeof forms));
    return false;
  }
  if (!transpose_b) {
    ws_emit_op_error(op, "is block-scaled, which reads B as N x K (transpose_b): each "
                         "row of B has its scales");
    return false;
  }
  int64_t m = mlirShapedTypeGetDimSize(a, 0), k = mlirShapedTypeGetDimSize(a, 1);
  int64_t n = mlirShapedTypeGetDimSize(b, 0);
  int rows = engine->scale_atom_rows, deep = engine->scale_atom_k;
  if (m % rows || n % rows || k % deep) {
    ws_emit_op_error(op,
                     "is block-scaled with M = %lld, N = %lld and K = %lld; %s scales "
                     "come in MX atoms of %d rows and %d of K, so all three must be "
                     "multiples of them",
                     (long long)m, (long long)n, (long long)k, engine->name, rows, deep);
    return false;
  }
  int64_t atoms = (m / rows + n / rows) * (k / deep);
  intptr_t got = mlirOperationGetNumOperands(op) - 3;
  for (intptr_t i = 0; i < got; i++) {
    MlirType t = mlirValueGetType(mlirOperationGetOperand(op, 3 + i));
    if (!mlirTypeIsARankedTensor(t) || mlirShapedTypeGetRank(t) != 2 ||
        mlirShapedTypeGetDimSize(t, 0) != engine->scale_atom_shape[0] ||
        mlirShapedTypeGetDimSize(t, 1) != engine->scale_atom_shape[1] ||
        wsElementTypeGetDtype(mlirShapedTypeGetElementType(t)) != WsDtypeI8)
      got = -1;
  }
  if (got != atoms) {
    ws_emit_op_error(op,
                     "is block-scaled with M = %lld, N = %lld and K = %lld: expected %lld "
                     "scale operands, each tensor<%dx%dxi8>: the MX atoms of the ue8m0 "
                     "exponents (one per %d of K) of %d rows and %d of K, A's then B's",
                     (long long)m, (long long)n, (long long)k, (long long)atoms,
                     engine->scale_atom_shape[0], engine->scale_atom_shape[1], engine->scale_block,
                     rows, deep);
    return false;
  }
  return true;
}

static bool check_dot(MlirOperation op) {
  char abuf[256], bbuf[256], cbuf[256];
  intptr_t operands = mlirOperationGetNumOperands(op);
  MlirType a = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirType b = mlirValueGetType(mlirOperationGetOperand(op, 1));
  MlirType acc = mlirValueGetType(mlirOperationGetOperand(op, 2));
  if (!is_matrix(op, a, "a") || !is_matrix(op, b, "b") || !is_matrix(op, acc, "acc"))
    return false;
  MlirAttribute tb =
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("transpose_b"));
  if (!mlirAttributeIsNull(tb) && !mlirAttributeIsAUnit(tb)) {
    ws_emit_op_error(op, "attribute transpose_b must be a unit attribute, got %s",
                     ws_attr_str(tb, abuf, sizeof abuf));
    return false;
  }
  bool transpose_b = !mlirAttributeIsNull(tb);
  MlirType ea = mlirShapedTypeGetElementType(a);
  MlirType eb = mlirShapedTypeGetElementType(b);
  const ws_mma_engine *engine = ws_mma_engine_of(op); /* NULL: no target, refused below */
  if (operands > 3) {
    if (!check_dot_scales(op, a, b, transpose_b))
      return false;
  } else if (engine && !ws_mma_find_form(engine, ea, eb)) {
    char chip[64], forms[512];
    bool fp8_a = is_fp8(ea), fp8_b = is_fp8(eb);
    const char *hint = "";
    if ((fp8_a || fp8_b) && !engine_has_fp8(engine))
      hint = " (FP8 operands are not lowered on this chip yet)";
    else if (fp8_a && !fp8_b && engine->a_from_registers)
      hint = " (an FP8 A may be widened with arith.extf to B's type in the loop, which "
             "the engine then reads from registers)";
    ws_emit_op_error(op,
                     "a and b of element types %s and %s: on %s ws.dot runs on %s, "
                     "which ws lowers for a x b of %s%s",
                     ws_type_str(ea, abuf, sizeof abuf), ws_type_str(eb, bbuf, sizeof bbuf),
                     ws_target_chip(op, chip, sizeof chip), engine->name,
                     ws_mma_form_list(engine, forms, sizeof forms), hint);
    return false;
  }
  if (!mlirTypeIsAF32(mlirShapedTypeGetElementType(acc))) {
    ws_emit_op_error(op, "accumulator %s must have element type f32",
                     ws_type_str(acc, cbuf, sizeof cbuf));
    return false;
  }
  int64_t m = mlirShapedTypeGetDimSize(a, 0), k = mlirShapedTypeGetDimSize(a, 1);
  int64_t kb = mlirShapedTypeGetDimSize(b, transpose_b ? 1 : 0);
  int64_t n = mlirShapedTypeGetDimSize(b, transpose_b ? 0 : 1);
  if (k != kb) {
    ws_emit_op_error(op,
                     "a is %s (K = %lld) but b is %s%s (K = %lld); "
                     "expected the same K",
                     ws_type_str(a, abuf, sizeof abuf), (long long)k,
                     ws_type_str(b, bbuf, sizeof bbuf), transpose_b ? " with transpose_b" : "",
                     (long long)kb);
    return false;
  }
  if (mlirShapedTypeGetDimSize(acc, 0) != m || mlirShapedTypeGetDimSize(acc, 1) != n) {
    ws_emit_op_error(op,
                     "accumulator %s does not match the product of a "
                     "and b; expected tensor<%lldx%lldxf32>",
                     ws_type_str(acc, cbuf, sizeof cbuf), (long long)m, (long long)n);
    return false;
  }
  return true;
}

/* The i32 `axis` attribute of op, 0 or 1, or -1 after a located error. */
static long long axis_of(MlirOperation op) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("axis"));
  long long axis = -1;
  if (mlirAttributeIsNull(a) || !get_i32(a, &axis) || (axis != 0 && axis != 1)) {
    ws_emit_op_error(op, "needs axis = 0 or 1 (an i32): the dimension it works along");
    return -1;
  }
  return axis;
}

/* ws.broadcast: a 1 x K tile into M x N along `axis`, K that dimension's
 * extent, one element type. */
static bool check_broadcast(MlirOperation op) {
  char vbuf[256], tbuf[256];
  MlirType v = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!is_matrix(op, v, "value") || !is_matrix(op, t, "result"))
    return false;
  long long axis = axis_of(op);
  if (axis < 0)
    return false;
  int64_t k = mlirShapedTypeGetDimSize(v, 1);
  if (mlirShapedTypeGetDimSize(v, 0) != 1 || mlirShapedTypeGetDimSize(t, (intptr_t)axis) != k ||
      !mlirTypeEqual(mlirShapedTypeGetElementType(v), mlirShapedTypeGetElementType(t))) {
    ws_emit_op_error(op,
                     "broadcasts %s to %s along axis %lld; expected a 1 x K value, "
                     "K the result's extent along the axis, and one element type",
                     ws_type_str(v, vbuf, sizeof vbuf), ws_type_str(t, tbuf, sizeof tbuf), axis);
    return false;
  }
  return true;
}

/* ws.reduce: M x N to 1 x K along `axis` (K the other extent), one element
 * type, kind max, min or sum. */
static bool check_reduce(MlirOperation op) {
  char vbuf[256], rbuf[256];
  MlirType v = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirType r = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!is_matrix(op, v, "value") || !is_matrix(op, r, "result"))
    return false;
  MlirAttribute kind = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("kind"));
  MlirStringRef k = !mlirAttributeIsNull(kind) && mlirAttributeIsAString(kind)
                        ? mlirStringAttrGetValue(kind)
                        : mlirStringRefCreateFromCString("");
  if (!ws_ref_eq(k, "max") && !ws_ref_eq(k, "min") && !ws_ref_eq(k, "sum")) {
    ws_emit_op_error(op, "needs kind = \"max\", \"min\" or \"sum\"");
    return false;
  }
  long long axis = axis_of(op);
  if (axis < 0)
    return false;
  int64_t other = mlirShapedTypeGetDimSize(v, axis ? 0 : 1);
  if (mlirShapedTypeGetDimSize(r, 0) != 1 || mlirShapedTypeGetDimSize(r, 1) != other ||
      !mlirTypeEqual(mlirShapedTypeGetElementType(v), mlirShapedTypeGetElementType(r))) {
    ws_emit_op_error(op,
                     "reduces %s along axis %lld to %s; expected a 1 x %lld tile of "
                     "its element type",
                     ws_type_str(v, vbuf, sizeof vbuf), axis, ws_type_str(r, rbuf, sizeof rbuf),
                     (long long)other);
    return false;
  }
  return true;
}

/* ws.iota: a static rank-2 i32 tile along `axis`. */
static bool check_iota(MlirOperation op) {
  char buf[256];
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!is_matrix(op, t, "result"))
    return false;
  MlirType e = mlirShapedTypeGetElementType(t);
  if (!mlirTypeIsAInteger(e) || mlirIntegerTypeGetWidth(e) != 32) {
    ws_emit_op_error(op, "makes %s; an index tile is i32", ws_type_str(t, buf, sizeof buf));
    return false;
  }
  return axis_of(op) >= 0;
}

/* ws.tile_coords: `tile` two positive i32 (BM, BN); `order` "grouped" or
 * "row"; `group` a positive i32, and not with order = "row". */
static bool check_tile_coords(MlirOperation op) {
  MlirAttribute tile = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("tile"));
  if (mlirAttributeIsNull(tile) || !mlirAttributeIsADenseI32Array(tile) ||
      mlirDenseArrayGetNumElements(tile) != 2 || mlirDenseI32ArrayGetElement(tile, 0) <= 0 ||
      mlirDenseI32ArrayGetElement(tile, 1) <= 0) {
    ws_emit_op_error(op, "needs tile = array<i32: BM, BN>, the tile's rows and columns "
                         "(positive)");
    return false;
  }
  bool row = ws_string_attr_is(op, "order", "row");
  if (ws_has_attr(op, "order") && !row && !ws_string_attr_is(op, "order", "grouped")) {
    ws_emit_op_error(op, "has an order that is not \"grouped\" or \"row\"");
    return false;
  }
  MlirAttribute group =
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("group"));
  long long g;
  if (!mlirAttributeIsNull(group) && (!get_i32(group, &g) || g <= 0 || row)) {
    char text[64];
    ws_emit_op_error(op,
                     "has group = %s%s; group takes a positive i32 (the rows of tiles of "
                     "a group), and only in the grouped order",
                     ws_attr_str(group, text, sizeof text), row ? " with order = \"row\"" : "");
    return false;
  }
  return true;
}

/* ---- ws attributes ------------------------------------------------------- */

/* Reads an i32 IntegerAttr; false when the attribute is anything else. */
static bool get_i32(MlirAttribute attr, long long *value) {
  if (!mlirAttributeIsAInteger(attr))
    return false;
  MlirType t = mlirAttributeGetType(attr);
  if (!mlirTypeIsAInteger(t) || mlirIntegerTypeGetWidth(t) != 32)
    return false;
  *value = (long long)mlirIntegerAttrGetValueInt(attr);
  return true;
}

/* A warp-specialized loop, or a loop inside one, with a constant step of
 * 0 or below would never end: every partition would wait forever. (A step
 * known only at run time is guarded by ws-partition-schedule.) */
static MlirWalkResult check_constant_step(MlirOperation op, void *user_data) {
  long long step;
  if (!ws_op_is(op, "scf.for") || !ws_constant_int(mlirOperationGetOperand(op, 2), &step) ||
      step > 0)
    return MlirWalkResultAdvance;
  ws_emit_op_error(op,
                   "has a step of %lld; a loop that is, or is inside, a "
                   "warp-specialized loop needs a positive step (this one would never end)",
                   step);
  *(bool *)user_data = false;
  return MlirWalkResultInterrupt;
}

static bool check_warp_specialize(verify_state *st, MlirOperation op, MlirAttribute attr) {
  if (!ws_op_is(op, "scf.for")) {
    ws_emit_op_error(op, "carries ws.warp_specialize; only an scf.for loop "
                         "can be warp-specialized");
    return false;
  }
  if (!mlirAttributeIsAUnit(attr)) {
    ws_emit_op_error(op, "ws.warp_specialize must be a unit attribute");
    return false;
  }
  note_ws_user(st, op);
  bool ok = true;
  mlirOperationWalk(op, check_constant_step, &ok, MlirWalkPreOrder);
  return ok;
}

/* Set by ws-partition-schedule on a persistent kernel's tile loop, whose
 * K loop it marks ws.warp_specialize instead. */
static bool check_tile_loop(verify_state *st, MlirOperation op, MlirAttribute attr) {
  (void)st;
  if (!ws_op_is(op, "scf.for") || !mlirAttributeIsAUnit(attr)) {
    ws_emit_op_error(op, "carries ws.tile_loop; ws-partition-schedule sets it, as a "
                         "unit attribute, on the scf.for over tile ids around a "
                         "warp-specialized K loop (in the input, mark the tile loop "
                         "ws.warp_specialize)");
    return false;
  }
  return true;
}

/* How a persistent matmul overlaps its epilogues (partition_schedule.c). */
static bool check_overlap(verify_state *st, MlirOperation op, MlirAttribute attr) {
  (void)st;
  MlirStringRef v = mlirAttributeIsAString(attr) ? mlirStringAttrGetValue(attr)
                                                 : mlirStringRefCreateFromCString("");
  if (!ws_op_is(op, "scf.for") ||
      (!ws_ref_eq(v, "pingpong") && !ws_ref_eq(v, "cooperative") && !ws_ref_eq(v, "tmem"))) {
    ws_emit_op_error(op, "carries ws.overlap; it is \"pingpong\" or \"cooperative\" (sm_90a), "
                         "or \"tmem\" (sm_100a), on the scf.for over tile ids of a "
                         "persistent matmul");
    return false;
  }
  return true;
}

/* ws.pipeline = true | false on the loop marked ws.warp_specialize: the
 * consumers' step pipeline forced on or off (step_pipeline.c). */
static bool check_pipeline(verify_state *st, MlirOperation op, MlirAttribute attr) {
  (void)st;
  if (!ws_op_is(op, "scf.for") || !mlirAttributeIsABool(attr) ||
      mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(
          op, mlirStringRefCreateFromCString("ws.warp_specialize")))) {
    char buf[96];
    ws_emit_op_error(op,
                     "carries ws.pipeline = %s; it is true or false, on the scf.for "
                     "marked ws.warp_specialize (whether its consumers issue the next "
                     "step's first ws.dot before this step's math)",
                     ws_attr_str(attr, buf, sizeof buf));
    return false;
  }
  return true;
}

static MlirWalkResult find_marked_loop(MlirOperation op, void *found);

/* A bool knob `name` on the loop marked ws.warp_specialize (`belongs`
 * says which loop that is for the knob); `values` ends the message of a
 * value that is not a bool. */
static bool check_marked_loop_bool(MlirOperation op, MlirAttribute attr, const char *name,
                                   const char *belongs, const char *values) {
  bool marked = !mlirAttributeIsNull(
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("ws.warp_specialize")));
  if (!ws_op_is(op, "scf.for") || !marked) {
    bool inner = false; /* a loop inside this one is marked */
    if (ws_op_is(op, "scf.for"))
      mlirOperationWalk(op, find_marked_loop, &inner, MlirWalkPreOrder);
    ws_emit_op_error(op, "carries %s; it belongs on %s%s", name, belongs,
                     !inner ? ""
                            : " (ws.warp_specialize is on the loop inside this one: a persistent "
                              "matmul marks its tile loop, this one, and not its K loop)");
    return false;
  }
  if (!mlirAttributeIsABool(attr)) {
    char buf[128];
    ws_emit_op_error(op, "%s = %s; expected true or false%s", name,
                     ws_attr_str(attr, buf, sizeof buf), values);
    return false;
  }
  return true;
}

/* ws.split_k = true | "stream" | false on a persistent matmul's tile
 * loop: split each tile's K range over blocks, share the last tiles' K
 * steps out stream-K's way (split_k.c), or neither. */
static bool check_split_k(verify_state *st, MlirOperation op, MlirAttribute attr) {
  (void)st;
  if (mlirAttributeIsAString(attr)) {
    MlirStringRef v = mlirStringAttrGetValue(attr);
    if (v.length == 6 && memcmp(v.data, "stream", 6) == 0)
      return check_marked_loop_bool(op, mlirBoolAttrGet(mlirAttributeGetContext(attr), 1),
                                    "ws.split_k",
                                    "the scf.for over tile ids of a persistent "
                                    "matmul, the loop marked ws.warp_specialize",
                                    "");
    ws_emit_op_error(op,
                     "ws.split_k = \"%.*s\"; the one string it takes is \"stream\" "
                     "(stream-K), else true or false",
                     (int)v.length, v.data);
    return false;
  }
  return check_marked_loop_bool(op, attr, "ws.split_k",
                                "the scf.for over tile ids of a persistent matmul, the loop "
                                "marked ws.warp_specialize",
                                ", or \"stream\" (how many blocks share a tile is chosen "
                                "at run time: clamp(grid / tiles, 1, min(4, K steps / 8)); "
                                "\"stream\" shares the last two waves' K steps out evenly)");
}

/* ws.store_boxes = true | false on the loop marked ws.warp_specialize (a
 * matmul's K loop, or its persistent tile loop): whether its C tile goes
 * to the store warp one TMA box at a time. */
static bool check_store_boxes(verify_state *st, MlirOperation op, MlirAttribute attr) {
  (void)st;
  return check_marked_loop_bool(op, attr, "ws.store_boxes", "the scf.for marked ws.warp_specialize",
                                "");
}

static bool check_num_stages(verify_state *st, MlirOperation op, MlirAttribute attr) {
  (void)st;
  long long v;
  bool marked = !mlirAttributeIsNull(
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("ws.warp_specialize")));
  if (!ws_op_is(op, "scf.for") || !marked) {
    ws_emit_op_error(op, "carries ws.num_stages; it belongs on the scf.for "
                         "marked ws.warp_specialize");
    return false;
  }
  if (!get_i32(attr, &v) || v < 1 || v > 8) {
    char buf[128];
    ws_emit_op_error(op, "ws.num_stages = %s; expected an i32 from 1 to 8",
                     ws_attr_str(attr, buf, sizeof buf));
    return false;
  }
  return true;
}

static bool check_num_warps(verify_state *st, MlirOperation op, MlirAttribute attr) {
  long long v;
  if (!ws_op_is(op, "gpu.func")) {
    ws_emit_op_error(op, "carries ws.num_warps; it belongs on a gpu.func kernel");
    return false;
  }
  if (!get_i32(attr, &v) || (v != 4 && v != 8 && v != 12)) {
    char buf[128];
    ws_emit_op_error(op, "ws.num_warps = %s; expected 4, 8 or 12 (: i32)",
                     ws_attr_str(attr, buf, sizeof buf));
    return false;
  }
  note_ws_user(st, op);
  return true;
}

/* ws.cluster = array<i32: X, Y> on a kernel: its blocks run in clusters of
 * X x Y (consecutive block ids), at most the chip's max_cluster CTAs. */
static bool check_cluster(verify_state *st, MlirOperation op, MlirAttribute attr) {
  char buf[128], chip[64];
  if (!ws_op_is(op, "gpu.func")) {
    ws_emit_op_error(op, "carries ws.cluster; it belongs on a gpu.func kernel");
    return false;
  }
  bool shaped = mlirAttributeIsADenseI32Array(attr) && mlirDenseArrayGetNumElements(attr) == 2;
  int x = shaped ? mlirDenseI32ArrayGetElement(attr, 0) : 0;
  int y = shaped ? mlirDenseI32ArrayGetElement(attr, 1) : 0;
  const ws_target *target = ws_target_of(op);
  int most = target ? target->max_cluster : 1;
  if (!shaped || x < 1 || y < 1 || (long long)x * y > most || (x > 1 && y > 1)) {
    ws_emit_op_error(op,
                     "ws.cluster = %s; expected array<i32: X, Y>, the blocks of one "
                     "cluster along x and y, with X x Y at most %d on %s%s",
                     ws_attr_str(attr, buf, sizeof buf), most,
                     ws_target_chip(op, chip, sizeof chip),
                     most > 1 ? " (2 x 1 or 1 x 2)" : " (ws builds no clusters there yet)");
    return false;
  }
  note_ws_user(st, op);
  return true;
}

/* The plan attributes the ws passes add: each must have its kind (they are
 * read back by later passes, so a hand-edited one must still parse). */
static bool check_plan_attr(MlirOperation op, const char *name, bool ok) {
  if (!ok)
    ws_emit_op_error(op,
                     "attribute %s has the wrong kind (it is written by "
                     "the ws passes; see passes/plan/ws_plan.h)",
                     name);
  return ok;
}

static bool check_array_attr(verify_state *st, MlirOperation op, MlirAttribute a) {
  (void)st;
  return check_plan_attr(op, "ws.partition(s)/ws.channels", mlirAttributeIsAArray(a));
}

static bool check_dict_attr(verify_state *st, MlirOperation op, MlirAttribute a) {
  (void)st;
  return check_plan_attr(op, "ws.ring/ws.tmem", mlirAttributeIsADictionary(a));
}

static bool check_kernel_int_attr(verify_state *st, MlirOperation op, MlirAttribute a) {
  (void)st;
  long long v;
  return check_plan_attr(op,
                         "ws.smem_bytes/maxnreg/block_threads/blocks_per_sm/workspace_per_block",
                         ws_op_is(op, "gpu.func") && get_i32(a, &v) && v >= 0);
}

/* ws.stage on an op of a marked loop: 0, or 1 for an op that runs a step
 * behind (the two stages ws-specialize builds loops of). */
static bool check_stage(verify_state *st, MlirOperation op, MlirAttribute a) {
  (void)st;
  long long v;
  if (!get_i32(a, &v))
    return check_plan_attr(op, "ws.stage", false);
  if (v < 0 || v > 1) {
    ws_emit_op_error(op,
                     "has ws.stage = %lld; ws-specialize builds loops of stages 0 and 1 "
                     "(an op that runs in its own step, or one step behind)",
                     v);
    return false;
  }
  return true;
}

static bool check_row_scratch(verify_state *st, MlirOperation op, MlirAttribute a) {
  (void)st;
  return check_plan_attr(op, "ws.row_scratch",
                         ws_op_is(op, "gpu.func") && mlirAttributeIsADenseI32Array(a) &&
                             mlirDenseArrayGetNumElements(a) == 2);
}

static bool check_cluster_shared(verify_state *st, MlirOperation op, MlirAttribute a) {
  (void)st;
  return check_plan_attr(op, "ws.cluster_shared",
                         wsOperationIsA(op, "load") && mlirAttributeIsAUnit(a));
}

static bool check_persistent(verify_state *st, MlirOperation op, MlirAttribute a) {
  (void)st;
  return check_plan_attr(op, "ws.persistent", ws_op_is(op, "gpu.func") && mlirAttributeIsAUnit(a));
}

/* A ws attribute an op may carry; `input`: one a kernel author writes (the
 * rest are the plan the later passes write). */
typedef struct attr_rule {
  const char *name;
  bool (*check)(verify_state *, MlirOperation, MlirAttribute);
  bool input;
} attr_rule;

static const attr_rule attr_rules[] = {
    {"ws.warp_specialize", check_warp_specialize, true},
    {"ws.num_stages", check_num_stages, true},
    {"ws.split_k", check_split_k, true},
    {"ws.store_boxes", check_store_boxes, true},
    {"ws.tile_loop", check_tile_loop, false},
    {"ws.overlap", check_overlap, true},
    {"ws.pipeline", check_pipeline, true},
    {"ws.num_warps", check_num_warps, true},
    {"ws.cluster", check_cluster, true},
    {"ws.partition", check_array_attr, false},
    {"ws.stage", check_stage, false},
    {"ws.partitions", check_array_attr, false},
    {"ws.channels", check_array_attr, false},
    {"ws.ring", check_dict_attr, false},
    {"ws.rings", check_array_attr, false},
    {"ws.tmem", check_dict_attr, false},
    {"ws.smem_bytes", check_kernel_int_attr, false},
    {"ws.maxnreg", check_kernel_int_attr, false},
    {"ws.block_threads", check_kernel_int_attr, false},
    {"ws.blocks_per_sm", check_kernel_int_attr, false},
    {"ws.workspace_per_block", check_kernel_int_attr, false},
    {"ws.persistent", check_persistent, false},
    {"ws.row_scratch", check_row_scratch, false},
    {"ws.cluster_shared", check_cluster_shared, false},
};
enum { NUM_ATTR_RULES = sizeof attr_rules / sizeof attr_rules[0] };

static void check_ws_attributes(verify_state *st, MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumAttributes(op); i++) {
    MlirNamedAttribute na = mlirOperationGetAttribute(op, i);
    MlirStringRef name = mlirIdentifierStr(na.name);
    if (name.length < 3 || memcmp(name.data, "ws.", 3) != 0)
      continue;
    const attr_rule *rule = NULL;
    for (size_t r = 0; r < NUM_ATTR_RULES; r++)
      if (ws_ref_eq(name, attr_rules[r].name))
        rule = &attr_rules[r];
    if (!rule) {
      char known[256];
      ws_text t;
      ws_text_init(&t, known, sizeof known);
      for (size_t r = 0; r < NUM_ATTR_RULES; r++)
        if (attr_rules[r].input)
          ws_text_appendf(&t, "%s%s", t.len ? ", " : "", attr_rules[r].name);
      ws_emit_op_error(op,
                       "has unknown attribute '%.*s'; ws attributes in the input are "
                       "%s (and ws.divisibility on a kernel argument)",
                       (int)name.length, name.data, known);
      st->ok = false;
    } else if (!rule->check(st, op, na.attribute)) {
      st->ok = false;
    }
  }
}

/* ---- kernel context ------------------------------------------------------ */

static bool check_module_target(const verify_state *st, MlirOperation module) {
  char buf[512], chip[64];
  MlirAttribute targets =
      mlirOperationGetAttributeByName(module, mlirStringRefCreateFromCString("targets"));
  if (mlirAttributeIsNull(targets) || !mlirAttributeIsAArray(targets) ||
      mlirArrayAttrGetNumElements(targets) == 0) {
    ws_emit_op_error(module, "has no target; ws kernels need a gpu.module "
                             "with [#nvvm.target<chip = \"sm_90a\">] (or "
                             "\"sm_100a\")");
    return false;
  }
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(targets); i++) {
    ws_nvvm_chip(ws_attr_str(mlirArrayAttrGetElement(targets, i), buf, sizeof buf), chip,
                 sizeof chip);
    if (strncmp(buf, "#nvvm.target", strlen("#nvvm.target")) != 0) {
      ws_emit_op_error(module,
                       "has target %s; ws kernels need an NVVM target "
                       "(#nvvm.target<chip = \"sm_90a\">)",
                       buf);
      return false;
    }
    if (!ws_target_find(chip)) {
      char chips[128];
      ws_emit_op_error(module,
                       "targets chip \"%s\"; ws kernels need %s "
                       "(TMA, mbarrier and setmaxnreg)",
                       chip, ws_target_chips(chips, sizeof chips));
      return false;
    }
    if (st->chip[0] && strcmp(chip, st->chip) != 0) {
      ws_emit_op_error(module,
                       "targets chip \"%s\" but the pipeline was "
                       "asked for chip=%s",
                       chip, st->chip);
      return false;
    }
  }
  return true;
}

static void check_kernel_context(verify_state *st, MlirOperation func) {
  if (mlirAttributeIsNull(
          mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("gpu.kernel")))) {
    ws_emit_op_error(func, "uses ws ops or types but is not a kernel; "
                           "expected 'gpu.func @name(...) kernel'");
    st->ok = false;
  }
  MlirOperation module = mlirOperationGetParentOperation(func);
  if (mlirOperationIsNull(module) || !ws_op_is(module, "gpu.module")) {
    ws_emit_op_error(func, "must be inside a gpu.module");
    st->ok = false;
    return;
  }
  size_t before = st->modules.len;
  op_list_add_unique(&st->modules, module);
  if (st->modules.len != before && !check_module_target(st, module))
    st->ok = false;
}

/* ---- the walk ------------------------------------------------------------ */

/* Walk callback: *(bool *)found once an op marked ws.warp_specialize is
 * met. */
static MlirWalkResult find_marked_loop(MlirOperation op, void *found) {
  if (ws_has_attr(op, "ws.warp_specialize")) {
    *(bool *)found = true;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

/* Whether gpu.func `func` is a ws kernel: one that takes a descriptor or
 * marks a loop ws.warp_specialize. */
static bool is_ws_kernel(MlirOperation func) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  for (intptr_t i = 0; !mlirBlockIsNull(entry) && i < mlirBlockGetNumArguments(entry); i++)
    if (wsTypeIsATensorDesc(mlirValueGetType(mlirBlockGetArgument(entry, i))))
      return true;
  bool found = false;
  mlirOperationWalk(func, find_marked_loop, &found, MlirWalkPreOrder);
  return found;
}

/* A memref op in a ws kernel reads a kernel array (check_array_argument
 * checks its other uses): ws lowers no other memref, so any other is
 * refused here rather than miscompiled later. */
static bool check_memref_op(MlirOperation op) {
  char name[64];
  if (strncmp(ws_op_name(op, name, sizeof name), "memref.", 7) != 0)
    return true;
  MlirOperation func = ws_enclosing_op(op, "gpu.func");
  if (mlirOperationIsNull(func) || !is_ws_kernel(func))
    return true;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (mlirValueIsABlockArgument(v) && wsTypeIsAKernelArray(mlirValueGetType(v)))
      return true; /* a use of a kernel array: check_array_argument's */
  }
  ws_emit_op_error(op, "in a ws kernel: memory is read through !ws.tensor_desc tiles and "
                       "kernel arrays (memref<?xi32> or memref<?xf32> arguments, read with "
                       "memref.load and memref.dim); ws lowers no other memref");
  return false;
}

static MlirWalkResult verify_op(MlirOperation op, void *user_data) {
  verify_state *st = user_data;
  check_ws_attributes(st, op);
  if (ws_op_is(op, "gpu.func") || ws_op_is(op, "func.func"))
    check_function_arguments(st, op);
  if (!check_memref_op(op))
    st->ok = false;
  if (!wsOperationIsInDialect(op))
    return MlirWalkResultAdvance;
  note_ws_user(st, op);
  bool ok = true;
  if (wsOperationIsA(op, "load"))
    ok = check_load(op);
  else if (wsOperationIsA(op, "store"))
    ok = check_store(op);
  else if (wsOperationIsA(op, "dot"))
    ok = check_dot(op);
  else if (wsOperationIsA(op, "broadcast"))
    ok = check_broadcast(op);
  else if (wsOperationIsA(op, "reduce"))
    ok = check_reduce(op);
  else if (wsOperationIsA(op, "iota"))
    ok = check_iota(op);
  else if (wsOperationIsA(op, "tile_coords"))
    ok = check_tile_coords(op);
  if (!ok)
    st->ok = false;
  return MlirWalkResultAdvance;
}

bool ws_verify_root(MlirOperation root, const char *chip) {
  verify_state st = {.chip = chip ? chip : "", .ok = true};
  mlirOperationWalk(root, verify_op, &st, MlirWalkPreOrder);
  for (size_t i = 0; i < st.functions.len; i++)
    check_kernel_context(&st, st.functions.items[i]);
  free(st.functions.items);
  free(st.modules.items);
  return st.ok;
}

static const ws_option_spec verify_options[] = {
    {"chip", WS_OPTION_STRING, "", "required target chip (empty: any of sm_90a, sm_100a)",
     "|sm_90a|sm_100a", 0, 0},
};

static bool run_verify(MlirOperation root, const ws_pass_options *opts, const ws_pass_env *env) {
  (void)env;
  return ws_verify_root(root, ws_option_string(opts, "chip"));
}

const ws_pass_def ws_verify_pass_def = {
    .argument = "ws-verify",
    .summary = "Check ws ops, types and attributes against the rules IRDL "
               "cannot express",
    WS_PASS_OPTIONS(verify_options),
    .run = run_verify,
};
