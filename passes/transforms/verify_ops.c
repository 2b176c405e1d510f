/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* verify_ops.c: ws-verify's checks of the ws ops: the boxes TMA can move,
 * loads and stores against their descriptors, ws.dot's shapes and scales,
 * and the tile ops (ws.broadcast, ws.reduce, ws.iota). Part of ws-verify
 * (verify.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify_internal.h"

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
                     dbuf, ws_type_str(elem, ebuf, sizeof ebuf), verify_supported_elements);
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
    if (!(mlirTypeIsAInteger(t) || mlirTypeIsAIndex(t)) || !verify_get_i32(na.attribute, &v) ||
        v < 1) {
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
void verify_function_arguments(verify_state *st, MlirOperation func) {
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
    verify_note_unique(&st->functions, func);
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

bool verify_load(MlirOperation op) {
  intptr_t n = mlirOperationGetNumOperands(op);
  return check_access(op, n - 1, mlirValueGetType(mlirOperationGetResult(op, 0)), "result") &&
         (ws_load_is_row_vector(op) || check_inner_coordinate(op, n - 1)) && check_l2_policy(op);
}

/* reduce = "add" on a ws.store: the tile is added to the tensor (TMA's
 * reduce-add, atomic per element) instead of written over it; TMA adds
 * f32, f16 and bf16, and a row vector the compute warps store themselves
 * takes no reduction. */
static bool check_reduce(MlirOperation op) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("reduce"));
  if (mlirAttributeIsNull(a))
    return true;
  MlirType t = mlirShapedTypeGetElementType(
      mlirValueGetType(mlirOperationGetOperand(op, mlirOperationGetNumOperands(op) - 1)));
  bool add = mlirAttributeIsAString(a) && ws_ref_eq(mlirStringAttrGetValue(a), "add");
  char buf[96], type[64];
  if (!add || !(mlirTypeIsAF32(t) || mlirTypeIsAF16(t) || mlirTypeIsABF16(t))) {
    ws_emit_op_error(op,
                     "carries reduce = %s on a store of %s; the one reduction is reduce = "
                     "\"add\", which adds an f32, f16 or bf16 tile into the tensor (TMA's "
                     "reduce-add)",
                     ws_attr_str(a, buf, sizeof buf), ws_type_str(t, type, sizeof type));
    return false;
  }
  if (ws_store_is_row_vector(op)) {
    ws_emit_op_error(op, "carries reduce = \"add\" on a row vector, which the compute warps "
                         "store themselves, element by element; reduce-add takes a tile of a "
                         "TMA box");
    return false;
  }
  return true;
}

bool verify_store(MlirOperation op) {
  intptr_t n = mlirOperationGetNumOperands(op);
  return check_access(op, n - 2, mlirValueGetType(mlirOperationGetOperand(op, n - 1)),
                      "stored value") &&
         (ws_store_is_row_vector(op) || check_inner_coordinate(op, n - 2)) && check_reduce(op);
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

/* transpose_a: A given K x M, which the engine reads M-major from shared
 * memory, where its row (the engine's a_m_major) and the form (16-bit:
 * FP8 forms read both operands K-major) allow it; a block-scaled dot
 * reads A K-major. */
static bool check_dot_transpose_a(MlirOperation op, const ws_mma_engine *engine, MlirType ea,
                                  MlirType eb, intptr_t operands) {
  const ws_mma_form *form = engine ? ws_mma_find_form(engine, ea, eb) : NULL;
  if (operands > 3 || (form && form->k_major_only)) {
    ws_emit_op_error(op,
                     "has transpose_a, but %s reads A K-major only: give A as M x K "
                     "(a ws.load of the transposed tensor)",
                     operands > 3 ? "a block-scaled dot" : "an FP8 dot");
    return false;
  }
  if (engine && !engine->a_m_major) {
    char chip[64];
    ws_emit_op_error(op,
                     "has transpose_a, but on %s ws.dot runs on %s, which ws lowers for A "
                     "M x K only: give A as M x K",
                     ws_target_chip(op, chip, sizeof chip), engine->name);
    return false;
  }
  return true;
}

bool verify_dot(MlirOperation op) {
  char abuf[256], bbuf[256], cbuf[256];
  intptr_t operands = mlirOperationGetNumOperands(op);
  MlirType a = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirType b = mlirValueGetType(mlirOperationGetOperand(op, 1));
  MlirType acc = mlirValueGetType(mlirOperationGetOperand(op, 2));
  if (!is_matrix(op, a, "a") || !is_matrix(op, b, "b") || !is_matrix(op, acc, "acc"))
    return false;
  static const char *const transposes[2] = {"transpose_a", "transpose_b"};
  for (int i = 0; i < 2; i++) {
    MlirAttribute t =
        mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(transposes[i]));
    if (!mlirAttributeIsNull(t) && !mlirAttributeIsAUnit(t)) {
      ws_emit_op_error(op, "attribute %s must be a unit attribute, got %s", transposes[i],
                       ws_attr_str(t, abuf, sizeof abuf));
      return false;
    }
  }
  bool transpose_a = ws_has_attr(op, "transpose_a");
  bool transpose_b = ws_has_attr(op, "transpose_b");
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
  if (transpose_a && !check_dot_transpose_a(op, engine, ea, eb, operands))
    return false;
  int64_t m, n, k;
  ws_dot_mnk(op, &m, &n, &k);
  int64_t kb = mlirShapedTypeGetDimSize(b, transpose_b ? 1 : 0);
  if (k != kb) {
    ws_emit_op_error(op,
                     "a is %s%s (K = %lld) but b is %s%s (K = %lld); "
                     "expected the same K",
                     ws_type_str(a, abuf, sizeof abuf), transpose_a ? " with transpose_a" : "",
                     (long long)k, ws_type_str(b, bbuf, sizeof bbuf),
                     transpose_b ? " with transpose_b" : "", (long long)kb);
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
  if (mlirAttributeIsNull(a) || !verify_get_i32(a, &axis) || (axis != 0 && axis != 1)) {
    ws_emit_op_error(op, "needs axis = 0 or 1 (an i32): the dimension it works along");
    return -1;
  }
  return axis;
}

/* ws.broadcast: a 1 x K tile into M x N along `axis`, K that dimension's
 * extent, one element type. */
bool verify_broadcast(MlirOperation op) {
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
bool verify_reduce(MlirOperation op) {
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
                     "its element type%s",
                     ws_type_str(v, vbuf, sizeof vbuf), axis, ws_type_str(r, rbuf, sizeof rbuf),
                     (long long)other,
                     axis == 0 ? " (axis = 0 reduces each column; a row's values reduce "
                                 "along axis = 1)"
                               : "");
    return false;
  }
  return true;
}

/* ws.iota: a static rank-2 i32 tile along `axis`. */
bool verify_iota(MlirOperation op) {
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
bool verify_tile_coords(MlirOperation op) {
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
  if (!mlirAttributeIsNull(group) && (!verify_get_i32(group, &g) || g <= 0 || row)) {
    char text[64];
    ws_emit_op_error(op,
                     "has group = %s%s; group takes a positive i32 (the rows of tiles of "
                     "a group), and only in the grouped order",
                     ws_attr_str(group, text, sizeof text), row ? " with order = \"row\"" : "");
    return false;
  }
  return true;
}
