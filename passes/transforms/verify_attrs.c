/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* verify_attrs.c: ws-verify's checks of the ws attributes: those a kernel
 * author writes (ws.warp_specialize, ws.num_stages, ...) and the plan the
 * later passes write, each by its rule in attr_rules. Part of ws-verify
 * (verify.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify_internal.h"

/* ---- ws attributes ------------------------------------------------------- */

/* Reads an i32 IntegerAttr; false when the attribute is anything else. */
bool verify_get_i32(MlirAttribute attr, long long *value) {
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
  verify_note_ws_user(st, op);
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
      mlirOperationWalk(op, verify_find_marked_loop, &inner, MlirWalkPreOrder);
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

/* ws.split_compute = true | false on the loop marked ws.warp_specialize
 * (an elementwise loop): whether each part of its math that shares no tile
 * with the rest runs in a compute partition of its own. */
static bool check_split_compute(verify_state *st, MlirOperation op, MlirAttribute attr) {
  (void)st;
  return check_marked_loop_bool(op, attr, "ws.split_compute",
                                "the scf.for marked ws.warp_specialize", "");
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
  if (!verify_get_i32(attr, &v) || v < 1 || v > 8) {
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
  if (!verify_get_i32(attr, &v) || (v != 4 && v != 8 && v != 12)) {
    char buf[128];
    ws_emit_op_error(op, "ws.num_warps = %s; expected 4, 8 or 12 (: i32)",
                     ws_attr_str(attr, buf, sizeof buf));
    return false;
  }
  verify_note_ws_user(st, op);
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
  verify_note_ws_user(st, op);
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
                         ws_op_is(op, "gpu.func") && verify_get_i32(a, &v) && v >= 0);
}

/* ws.stage on an op of a marked loop: 0, or 1 for an op that runs a step
 * behind (the two stages ws-specialize builds loops of). */
static bool check_stage(verify_state *st, MlirOperation op, MlirAttribute a) {
  (void)st;
  long long v;
  if (!verify_get_i32(a, &v))
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
    {"ws.split_compute", check_split_compute, true},
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

void verify_ws_attributes(verify_state *st, MlirOperation op) {
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
