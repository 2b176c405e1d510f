/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_plan.c: reading and writing the plan attributes (see ws_plan.h). The
 * attributes are built as text and parsed, which keeps their printed form,
 * the thing tests check, in one place. */
#include "ws_plan.h"
#include "ws_row_kernel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "ws-c/Dialect.h"
#include "../support/ws_op_list.h"
#include "../support/ws_pass.h"
#include "../../dialect/ws_text.h"

const char *const ws_role_names[WS_NUM_ROLES] = {"load", "compute", "store", "mma"};
const char *const ws_split_names[3] = {"none", "multicast", "pair"};
const char *const ws_reach_names[3] = {"own", "every", "leader"};

static MlirStringRef ref(const char *s) { return mlirStringRefCreateFromCString(s); }

int ws_role_from_name(MlirStringRef name) {
  for (int r = 0; r < WS_NUM_ROLES; r++)
    if (ws_ref_eq(name, ws_role_names[r]))
      return r;
  return -1;
}

int ws_plan_find_role(const ws_plan *plan, ws_role role) {
  for (int i = 0; i < plan->num_parts; i++)
    if (plan->parts[i].role == role)
      return i;
  return -1;
}

int ws_plan_add_partition(ws_plan *plan, ws_role role, int num_warps) {
  if (plan->num_parts == WS_MAX_PARTS)
    return -1;
  ws_partition *p = &plan->parts[plan->num_parts];
  memset(p, 0, sizeof *p);
  snprintf(p->name, sizeof p->name, "%s", ws_role_names[role]);
  p->role = role;
  p->num_warps = num_warps;
  return plan->num_parts++;
}

/* A zeroed row appended to a growing table of `size`-byte rows (*items,
 * *num of them, room for *cap). */
static void *add_row(void **items, int *num, long *cap, size_t size) {
  *items = ws_grow(*items, cap, *num + 1, size);
  char *row = (char *)*items + (size_t)(*num)++ * size;
  memset(row, 0, size);
  return row;
}

ws_ring *ws_plan_add_ring(ws_plan *plan) {
  return add_row((void **)&plan->rings, &plan->num_rings, &plan->rings_cap, sizeof *plan->rings);
}

ws_channel *ws_plan_add_channel(ws_plan *plan) {
  return add_row((void **)&plan->channels, &plan->num_channels, &plan->channels_cap,
                 sizeof *plan->channels);
}

void ws_plan_release(ws_plan *plan) {
  free(plan->rings);
  free(plan->channels);
  plan->rings = NULL;
  plan->channels = NULL;
  plan->num_rings = plan->num_channels = 0;
  plan->rings_cap = plan->channels_cap = 0;
}

int ws_op_stage(MlirOperation op) { return ws_int_attr(op, "ws.stage", 0); }

void ws_set_op_stage(MlirOperation op, int stage) { ws_set_int_attr(op, "ws.stage", stage); }

int ws_loop_stages(MlirOperation loop) {
  int most = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(ws_loop_body(loop)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    int s = ws_op_stage(op);
    most = s > most ? s : most;
  }
  return most + 1;
}

/* The partition named `name`, or -1. */
static int part_by_name(const ws_plan *plan, MlirStringRef name) {
  for (int i = 0; i < plan->num_parts; i++)
    if (ws_ref_eq(name, plan->parts[i].name))
      return i;
  return -1;
}

bool ws_has_attr(MlirOperation op, const char *name) {
  return !mlirAttributeIsNull(mlirOperationGetAttributeByName(op, ref(name)));
}

void ws_dot_mnk(MlirOperation dot, int64_t *m, int64_t *n, int64_t *k) {
  MlirType a = mlirValueGetType(mlirOperationGetOperand(dot, 0));
  MlirType b = mlirValueGetType(mlirOperationGetOperand(dot, 1));
  bool ta = ws_has_attr(dot, "transpose_a"), tb = ws_has_attr(dot, "transpose_b");
  *m = mlirShapedTypeGetDimSize(a, ta ? 1 : 0);
  *k = mlirShapedTypeGetDimSize(a, ta ? 0 : 1);
  *n = mlirShapedTypeGetDimSize(b, tb ? 0 : 1);
}

bool ws_string_attr_is(MlirOperation op, const char *name, const char *value) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, ref(name));
  return !mlirAttributeIsNull(a) && mlirAttributeIsAString(a) &&
         ws_ref_eq(mlirStringAttrGetValue(a), value);
}

void ws_kernel_cluster(MlirOperation func, int cluster[2]) {
  MlirAttribute cl = mlirOperationGetAttributeByName(func, ref("ws.cluster"));
  bool shaped = !mlirAttributeIsNull(cl) && mlirAttributeIsADenseI32Array(cl) &&
                mlirDenseArrayGetNumElements(cl) == 2;
  for (int d = 0; d < 2; d++)
    cluster[d] = shaped ? mlirDenseI32ArrayGetElement(cl, d) : 1;
}

int ws_int_attr(MlirOperation op, const char *name, int fallback) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, ref(name));
  return !mlirAttributeIsNull(a) && mlirAttributeIsAInteger(a) ? (int)mlirIntegerAttrGetValueInt(a)
                                                               : fallback;
}

void ws_set_int_attr(MlirOperation op, const char *name, long long value) {
  MlirContext ctx = mlirOperationGetContext(op);
  mlirOperationSetAttributeByName(op, ref(name),
                                  mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 32), value));
}

static void set_attr_text(MlirOperation op, const char *name, const char *text) {
  MlirAttribute a = mlirAttributeParseGet(mlirOperationGetContext(op), ref(text));
  if (!mlirAttributeIsNull(a))
    mlirOperationSetAttributeByName(op, ref(name), a);
}

unsigned ws_op_partitions(const ws_plan *plan, MlirOperation op) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, ref("ws.partition"));
  unsigned mask = 0;
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAArray(a))
    return 0;
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(a); i++) {
    MlirAttribute e = mlirArrayAttrGetElement(a, i);
    int p = mlirAttributeIsAString(e) ? part_by_name(plan, mlirStringAttrGetValue(e)) : -1;
    if (p >= 0)
      mask |= 1u << p;
  }
  return mask;
}

void ws_set_op_partitions(const ws_plan *plan, MlirOperation op, unsigned mask) {
  char text[WS_MAX_PARTS * (WS_PART_NAME_MAX + 4) + 4];
  ws_text t;
  ws_text_init(&t, text, sizeof text); /* bounded by the table's size */
  ws_text_appendf(&t, "[");
  for (int p = 0; p < plan->num_parts; p++)
    if (mask & (1u << p))
      ws_text_appendf(&t, "%s\"%s\"", t.len > 1 ? ", " : "", plan->parts[p].name);
  ws_text_appendf(&t, "]");
  set_attr_text(op, "ws.partition", text);
}

typedef struct loop_collector {
  MlirOperation *loops;
  int n, max;
} loop_collector;

static MlirWalkResult collect_loop(MlirOperation op, void *user_data) {
  loop_collector *c = user_data;
  if (ws_op_is(op, "scf.for") && ws_has_attr(op, "ws.warp_specialize") && c->n < c->max)
    c->loops[c->n++] = op;
  return MlirWalkResultAdvance;
}

int ws_marked_loops(MlirOperation root, MlirOperation *loops, int max) {
  loop_collector c = {loops, 0, max};
  mlirOperationWalk(root, collect_loop, &c, MlirWalkPreOrder);
  return c.n;
}

MlirOperation ws_enclosing_kernel(MlirOperation op) { return ws_enclosing_op(op, "gpu.func"); }

MlirBlock ws_loop_body(MlirOperation loop) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(loop, 0));
}

int ws_tile_bytes(MlirType tile) {
  if (!mlirTypeIsARankedTensor(tile) || !mlirShapedTypeHasStaticShape(tile))
    return 0;
  long long n = wsElementTypeByteWidth(mlirShapedTypeGetElementType(tile));
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(tile) && n <= WS_MAX_TILE_BYTES; d++)
    n *= mlirShapedTypeGetDimSize(tile, d);
  return n > WS_MAX_TILE_BYTES ? WS_MAX_TILE_BYTES : (int)n;
}

bool ws_loop_has_dot(MlirOperation loop) {
  for (MlirOperation op = mlirBlockGetFirstOperation(ws_loop_body(loop)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (wsOperationIsA(op, "dot"))
      return true;
  return false;
}

bool ws_plan_carries_row_vectors(const ws_plan *plan) {
  return !mlirOperationIsNull(plan->loop) && !ws_loop_has_dot(plan->loop) &&
         mlirOperationGetNumResults(plan->loop) != 0;
}

bool ws_plan_is_row_block_loop(const ws_plan *plan) {
  if (mlirOperationIsNull(plan->loop) || ws_loop_has_dot(plan->loop) ||
      mlirOperationGetNumResults(plan->loop) != 0)
    return false;
  MlirOperation first = mlirBlockGetFirstOperation(ws_loop_body(plan->loop));
  for (MlirOperation op = first; !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (wsOperationIsA(op, "reduce"))
      return true;
  /* a loop that spreads row vectors over its rows without reducing any */
  return !mlirOperationIsNull(first) && ws_row_kernel_rows(first) > 0;
}

int ws_plan_tile_elements_per_thread(const ws_plan *plan) {
  int compute = ws_plan_find_role(plan, WS_ROLE_COMPUTE);
  if (compute < 0 || mlirOperationIsNull(plan->loop))
    return 0;
  int64_t most = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(ws_loop_body(plan->loop));
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++) {
      MlirType t = mlirValueGetType(mlirOperationGetResult(op, r));
      if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t))
        continue;
      int64_t n = 1;
      for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); d++)
        n *= mlirShapedTypeGetDimSize(t, d);
      most = n > most ? n : most;
    }
  int threads = plan->parts[compute].num_warps * 32;
  return (int)((most + threads - 1) / threads);
}

bool ws_plan_is_matmul(const ws_plan *plan) {
  return !mlirOperationIsNull(plan->loop) && ws_loop_has_dot(plan->loop);
}

MlirOperation ws_plan_tile_loop(const ws_plan *plan) {
  if (mlirOperationIsNull(plan->loop))
    return (MlirOperation){NULL};
  MlirOperation parent = mlirOperationGetParentOperation(plan->loop);
  return ws_op_is(parent, "scf.for") && ws_has_attr(parent, "ws.tile_loop") ? parent
                                                                            : (MlirOperation){NULL};
}

bool ws_plan_in_prologue(const ws_plan *plan, MlirOperation op) {
  if (mlirOperationIsNull(op) || mlirOperationIsNull(plan->loop) ||
      mlirOperationEqual(mlirOperationGetParentOperation(op), plan->loop))
    return false;
  for (MlirOperation next = mlirOperationGetNextInBlock(op); !mlirOperationIsNull(next);
       next = mlirOperationGetNextInBlock(next))
    if (mlirOperationEqual(next, plan->loop))
      return true;
  return false;
}

bool ws_plan_in_epilogue(const ws_plan *plan, MlirOperation op) {
  return !mlirOperationIsNull(op) &&
         !mlirOperationEqual(mlirOperationGetParentOperation(op), plan->loop) &&
         !ws_plan_in_prologue(plan, op) && !ws_plan_in_second_pass(plan, op);
}

MlirOperation ws_plan_second_pass(const ws_plan *plan) {
  if (!ws_plan_carries_row_vectors(plan))
    return (MlirOperation){NULL};
  for (MlirOperation op = mlirOperationGetNextInBlock(plan->loop); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (ws_op_is(op, "scf.for"))
      return op;
  return (MlirOperation){NULL};
}

bool ws_plan_in_second_pass(const ws_plan *plan, MlirOperation op) {
  MlirOperation second = ws_plan_second_pass(plan);
  return !mlirOperationIsNull(op) && !mlirOperationIsNull(second) &&
         mlirOperationEqual(mlirOperationGetParentOperation(op), second);
}

bool ws_ring_is_second_pass(const ws_plan *plan, const ws_ring *ring) {
  return ws_plan_in_second_pass(plan, ring->producer);
}

/* Whether op is a loop ws_plan_next_op walks into. Only an scf.for can
 * be: the second pass is looked for (a walk of the loop's body) only
 * then, not at every op of the walk. */
static bool walked_loop(const ws_plan *plan, MlirOperation op) {
  if (!ws_op_is(op, "scf.for"))
    return false;
  return mlirOperationEqual(op, plan->loop) || mlirOperationEqual(op, ws_plan_second_pass(plan));
}

MlirOperation ws_plan_next_op(const ws_plan *plan, MlirOperation op) {
  MlirOperation next = mlirOperationIsNull(op)
                           ? mlirBlockGetFirstOperation(mlirOperationGetBlock(plan->loop))
                           : mlirOperationGetNextInBlock(op);
  for (;;) {
    if (mlirOperationIsNull(next)) { /* a body's end: on after its loop */
      MlirOperation parent = mlirOperationIsNull(op) ? op : mlirOperationGetParentOperation(op);
      if (mlirOperationIsNull(parent) || !walked_loop(plan, parent))
        return (MlirOperation){NULL};
      op = parent;
      next = mlirOperationGetNextInBlock(parent);
    } else if (walked_loop(plan, next)) { /* into its body, not the loop itself */
      op = next;
      next = mlirBlockGetFirstOperation(ws_loop_body(next));
    } else {
      return next;
    }
  }
}

bool ws_ring_is_epilogue(const ws_plan *plan, const ws_ring *ring) {
  return ws_plan_in_epilogue(plan, ring->producer);
}

/* True when a ring of the channel satisfies `is`. */
static bool channel_has(const ws_plan *plan, int channel,
                        bool (*is)(const ws_plan *, const ws_ring *)) {
  for (int r = 0; r < plan->num_rings; r++)
    if (plan->rings[r].channel == channel && is(plan, &plan->rings[r]))
      return true;
  return false;
}

bool ws_channel_is_epilogue(const ws_plan *plan, int channel) {
  return channel_has(plan, channel, ws_ring_is_epilogue);
}

bool ws_channel_is_second_pass(const ws_plan *plan, int channel) {
  return channel_has(plan, channel, ws_ring_is_second_pass);
}

bool ws_ring_is_prologue(const ws_plan *plan, const ws_ring *ring) {
  return ws_plan_in_prologue(plan, ring->producer);
}

bool ws_channel_is_prologue(const ws_plan *plan, int channel) {
  return channel_has(plan, channel, ws_ring_is_prologue);
}

bool ws_ring_is_read_in_registers(const ws_plan *plan, const ws_ring *ring) {
  (void)plan;
  if (mlirOperationIsNull(ring->producer))
    return false;
  MlirValue tile = mlirOperationGetResult(ring->producer, 0);
  for (MlirOpOperand u = mlirValueGetFirstUse(tile); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u))
    if (!wsOperationIsA(mlirOpOperandGetOwner(u), "dot") || mlirOpOperandGetOperandNumber(u) > 1)
      return true;
  return false;
}

bool ws_channel_is_read_in_registers(const ws_plan *plan, int channel) {
  return channel_has(plan, channel, ws_ring_is_read_in_registers);
}

int ws_swizzle_span(long long row_bytes) {
  for (int span = 128; span >= 32; span /= 2)
    if (row_bytes > 0 && row_bytes % span == 0)
      return span;
  return 0;
}

static int row_elements(MlirType tile) {
  return (int)mlirShapedTypeGetDimSize(tile, mlirShapedTypeGetRank(tile) - 1);
}

static int element_bytes(MlirType tile) {
  return wsElementTypeByteWidth(mlirShapedTypeGetElementType(tile));
}

long long ws_tile_row_bytes(MlirType tile) {
  return (long long)row_elements(tile) * element_bytes(tile);
}

long long ws_row_scratch_need(long long rows, int warps) { return 2 * rows * warps * 4; }

int ws_row_box_cols(long long cols, int elem_bytes) {
  if (cols <= WS_TMA_MAX_BOX_DIM)
    return (int)cols;
  for (int w = WS_TMA_MAX_BOX_DIM; w > 0; w--)
    if (cols % w == 0 && (w * elem_bytes) % 16 == 0)
      return w;
  return 0;
}

int ws_ring_box_cols(const ws_ring *ring) {
  if (ring->swizzle && ws_tile_row_bytes(ring->tile) > ring->swizzle)
    return ring->swizzle / element_bytes(ring->tile);
  return ws_row_box_cols(row_elements(ring->tile), element_bytes(ring->tile));
}

MlirType ws_tile_column_part(MlirType tile, int parts) {
  intptr_t rank = mlirShapedTypeGetRank(tile);
  int64_t shape[8];
  for (intptr_t d = 0; d < rank && d < 8; d++)
    shape[d] = mlirShapedTypeGetDimSize(tile, d);
  shape[rank - 1] /= parts;
  return mlirRankedTensorTypeGet(rank, shape, mlirShapedTypeGetElementType(tile),
                                 mlirAttributeGetNull());
}

int ws_ring_boxes(const ws_ring *ring) { return row_elements(ring->tile) / ws_ring_box_cols(ring); }

int ws_ring_of_value(const ws_plan *plan, MlirValue value) {
  for (int r = 0; r < plan->num_rings; r++)
    if (!mlirOperationIsNull(plan->rings[r].producer) &&
        mlirValueEqual(mlirOperationGetResult(plan->rings[r].producer, 0), value))
      return r;
  return -1;
}

/* ---- reading ------------------------------------------------------------- */

static int dict_int(MlirAttribute dict, const char *key, int fallback) {
  MlirAttribute a = mlirDictionaryAttrGetElementByName(dict, ref(key));
  if (mlirAttributeIsNull(a))
    return fallback;
  if (mlirAttributeIsAInteger(a))
    return (int)mlirIntegerAttrGetValueInt(a);
  if (mlirAttributeIsABool(a))
    return mlirBoolAttrGetValue(a);
  return fallback;
}

/* Element i of a dense i32 array in the dictionary, or the fallback. */
static int dict_array_int(MlirAttribute dict, const char *key, int i, int fallback) {
  MlirAttribute a = mlirDictionaryAttrGetElementByName(dict, ref(key));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseI32Array(a) ||
      mlirDenseArrayGetNumElements(a) <= i)
    return fallback;
  return mlirDenseI32ArrayGetElement(a, i);
}

static MlirStringRef dict_string(MlirAttribute dict, const char *key) {
  MlirAttribute a = mlirDictionaryAttrGetElementByName(dict, ref(key));
  return !mlirAttributeIsNull(a) && mlirAttributeIsAString(a) ? mlirStringAttrGetValue(a) : ref("");
}

static int dict_part(const ws_plan *plan, MlirAttribute dict, const char *key) {
  return part_by_name(plan, dict_string(dict, key));
}

/* The index of the word the dictionary's string `key` holds in names[3],
 * 0 when it has none; -1 for a word not among them (the plan check says
 * so). */
static int dict_word(MlirAttribute dict, const char *key, const char *const names[3]) {
  MlirStringRef s = dict_string(dict, key);
  if (!s.data || s.length == 0)
    return 0;
  for (int i = 0; i < 3; i++)
    if (strlen(names[i]) == s.length && memcmp(names[i], s.data, s.length) == 0)
      return i;
  return -1;
}

/* Rows without a known role or a usable name are skipped; ws-verify
 * checks the attribute's kind, the passes what they need of its rows. */
static void read_partitions(ws_plan *plan, MlirAttribute table) {
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(table); i++) {
    MlirAttribute e = mlirArrayAttrGetElement(table, i);
    if (!mlirAttributeIsADictionary(e) || plan->num_parts == WS_MAX_PARTS)
      continue;
    MlirStringRef name = dict_string(e, "name");
    MlirStringRef role_name = dict_string(e, "role");
    /* Plans saved before partitions had roles name them by role. */
    int role = ws_role_from_name(role_name.length ? role_name : name);
    if (role < 0 || name.length == 0 || name.length >= WS_PART_NAME_MAX)
      continue;
    ws_partition *p = &plan->parts[plan->num_parts++];
    snprintf(p->name, sizeof p->name, "%.*s", (int)name.length, name.data);
    p->role = (ws_role)role;
    p->num_warps = dict_int(e, "num_warps", 1);
    p->registers = dict_int(e, "registers", 0);
    p->first_warp = dict_int(e, "first_warp", 0);
    p->pingpong = dict_int(e, "pingpong", 0) != 0;
    p->turns = dict_int(e, "turns", 0) != 0;
  }
}

static void read_channels(ws_plan *plan, MlirAttribute list) {
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(list); i++) {
    MlirAttribute e = mlirArrayAttrGetElement(list, i);
    ws_channel *c = ws_plan_add_channel(plan);
    c->from = dict_part(plan, e, "from");
    c->to = dict_part(plan, e, "to");
    c->depth = dict_int(e, "depth", 1);
    c->full = dict_int(e, "full", 0);
    c->empty = dict_int(e, "empty", 0);
    c->full_arrivals = dict_int(e, "full_arrivals", 0);
    c->empty_arrivals = dict_int(e, "empty_arrivals", 0);
    c->expect_tx = dict_int(e, "expect_tx", 0);
    c->producer_phase = dict_int(e, "producer_phase", 1);
    c->consumer_phase = dict_int(e, "consumer_phase", 0);
    c->release_fence = dict_int(e, "release_fence", 0);
    c->publish_fence = dict_int(e, "publish_fence", 0);
    c->drain = dict_int(e, "drain", 0);
    c->full_to = (ws_reach)dict_word(e, "full_to", ws_reach_names);
    c->empty_to = (ws_reach)dict_word(e, "empty_to", ws_reach_names);
  }
}

static void read_ring_dict(ws_ring *r, MlirAttribute d) {
  r->channel = dict_int(d, "channel", 0);
  r->offset = dict_int(d, "offset", 0);
  r->slot_bytes = dict_int(d, "slot_bytes", 0);
  r->align = dict_int(d, "align", 128);
  r->swizzle = dict_int(d, "swizzle", 0);
  r->split = (ws_split)dict_word(d, "split", ws_split_names);
  r->parts = dict_int(d, "parts", 1);
}

static void read_ring(ws_plan *plan, MlirOperation op) {
  MlirAttribute d = mlirOperationGetAttributeByName(op, ref("ws.ring"));
  if (mlirAttributeIsNull(d) || !mlirAttributeIsADictionary(d))
    return;
  ws_ring *r = ws_plan_add_ring(plan);
  r->producer = op;
  read_ring_dict(r, d);
  r->tile = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (r->parts > 1 && ws_tile_row_bytes(r->tile) > 0)
    r->tile = ws_tile_column_part(r->tile, r->parts);
}

/* Rows of a specialized kernel's ws.rings: the tile type is in the row. */
static void read_ring_table(ws_plan *plan, MlirAttribute list) {
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(list); i++) {
    MlirAttribute e = mlirArrayAttrGetElement(list, i);
    if (!mlirAttributeIsADictionary(e))
      continue;
    MlirAttribute tile = mlirDictionaryAttrGetElementByName(e, ref("tile"));
    ws_ring *r = ws_plan_add_ring(plan);
    r->tile = !mlirAttributeIsNull(tile) && mlirAttributeIsAType(tile) ? mlirTypeAttrGetValue(tile)
                                                                       : (MlirType){NULL};
    read_ring_dict(r, e);
  }
}

/* A saved plan may have been edited by hand: every name it uses must be in
 * its partition table and every index in range, or the lowering would drop
 * ops or read past its tables. Writes why (and where) into `why`/`where`. */
static bool consistent(const ws_plan *plan, char *why, size_t cap, MlirOperation *where) {
  *where = plan->tables;
  for (int p = 0; p < plan->num_parts; p++) {
    const ws_partition *part = &plan->parts[p];
    bool warpgroups = part->role == WS_ROLE_COMPUTE;
    if (part->num_warps < 1 || part->num_warps > 16 || (warpgroups && part->num_warps % 4)) {
      snprintf(why, cap, "ws.partitions: partition \"%s\" has %d warps; expected 1 to 16%s",
               part->name, part->num_warps, warpgroups ? ", a multiple of 4" : "");
      return false;
    }
  }
  /* once the warps are laid out (ws.block_threads): each partition's inside
   * the block and apart from every other's */
  for (int p = 0; p < plan->num_parts && plan->block_threads > 0; p++) {
    const ws_partition *a = &plan->parts[p];
    if (a->first_warp < 0 || (a->first_warp + a->num_warps) * 32 > plan->block_threads) {
      snprintf(why, cap,
               "ws.partitions: partition \"%s\" takes warps %d-%d of a block of %d threads",
               a->name, a->first_warp, a->first_warp + a->num_warps - 1, plan->block_threads);
      return false;
    }
    for (int q = 0; q < p; q++) {
      const ws_partition *b = &plan->parts[q];
      if (a->first_warp < b->first_warp + b->num_warps &&
          b->first_warp < a->first_warp + a->num_warps) {
        snprintf(why, cap, "ws.partitions: partition \"%s\" (warps %d-%d) overlaps \"%s\" (%d-%d)",
                 a->name, a->first_warp, a->first_warp + a->num_warps - 1, b->name, b->first_warp,
                 b->first_warp + b->num_warps - 1);
        return false;
      }
    }
  }
  for (int c = 0; c < plan->num_channels; c++) {
    const ws_channel *ch = &plan->channels[c];
    bool turns = ch->from == ch->to && ch->from >= 0 &&
                 (plan->parts[ch->from].pingpong || plan->parts[ch->from].turns);
    if (ch->from < 0 || ch->to < 0 || (ch->from == ch->to && !turns)) {
      snprintf(why, cap,
               "ws.channels[%d]: its ends must be two different partitions of "
               "ws.partitions (or one compute partition whose warpgroups take turns: "
               "ping-pong or turns)",
               c);
      return false;
    }
    if (ch->depth < 1 || ch->depth > 8) {
      snprintf(why, cap, "ws.channels[%d]: depth %d; expected 1 to 8", c, ch->depth);
      return false;
    }
    if (ch->full_to < 0 || ch->empty_to < 0 ||
        ((ch->full_to || ch->empty_to) && ws_plan_cluster_size(plan) < 2)) {
      snprintf(why, cap,
               "ws.channels[%d]: full_to and empty_to take \"own\", \"every\" "
               "or \"leader\", and other than own only in a cluster kernel "
               "(ws.cluster)",
               c);
      return false;
    }
  }
  for (int r = 0; r < plan->num_rings; r++) {
    const ws_ring *ring = &plan->rings[r];
    if (ring->channel < 0 || ring->channel >= plan->num_channels) {
      if (!mlirOperationIsNull(ring->producer))
        *where = ring->producer;
      snprintf(why, cap, "ws.ring%s names channel %d; the %s has %d", plan->loop.ptr ? "" : "s row",
               ring->channel, plan->loop.ptr ? "loop" : "kernel", plan->num_channels);
      return false;
    }
    if (!ring->tile.ptr || ws_tile_bytes(ring->tile) == 0) {
      snprintf(why, cap, "ws.rings[%d] has no static tile type", r);
      return false;
    }
    long long row = ws_tile_row_bytes(ring->tile);
    if (ring->swizzle && (ws_swizzle_span(ring->swizzle) != ring->swizzle || row % ring->swizzle)) {
      snprintf(why, cap,
               "ws.rings[%d]: swizzle %d for rows of %lld bytes; expected 0, or "
               "32, 64 or 128 dividing the row",
               r, ring->swizzle, row);
      return false;
    }
    int cl = ws_plan_cluster_size(plan);
    const ws_channel *ch = &plan->channels[ring->channel];
    if (ring->split < 0) {
      snprintf(why, cap, "ws.rings[%d]: an unknown split; expected \"multicast\" or \"pair\"", r);
      return false;
    }
    if (ring->split && (cl < 2 || mlirShapedTypeGetDimSize(ring->tile, 0) % (8 * cl) ||
                        (ring->split == WS_SPLIT_MULTICAST && ch->empty_to != WS_REACH_EVERY) ||
                        (ring->split == WS_SPLIT_PAIR && ch->full_to != WS_REACH_LEADER))) {
      snprintf(why, cap,
               "ws.rings[%d] is split (%s) across a cluster, which needs the "
               "kernel's ws.cluster of 2 or more CTAs, a channel whose %s, and "
               "rows in parts of a multiple of 8 per CTA",
               r, ws_split_names[ring->split],
               ring->split == WS_SPLIT_MULTICAST
                   ? "releases reach every CTA (empty_to = every)"
                   : "copies complete at the leader (full_to = leader)");
      return false;
    }
  }
  for (int r = 0; r < plan->num_rings; r++) {
    const ws_ring *ring = &plan->rings[r];
    if (ring->parts < 0 || ring->parts > WS_MAX_RING_PARTS ||
        (ring->parts > 1 && (plan->channels[ring->channel].depth % ring->parts || !ring->swizzle ||
                             ws_ring_boxes(ring) != 1))) {
      snprintf(why, cap,
               "ws.rings[%d]: %d parts; expected 1 to %d, dividing its channel's "
               "depth (a slot per part), each part one swizzled TMA box",
               r, ring->parts, WS_MAX_RING_PARTS);
      return false;
    }
  }
  const ws_tmem *tm = &plan->tmem;
  if (tm->tile.ptr && (tm->channel < 0 || tm->channel >= plan->num_channels || tm->columns < 1 ||
                       tm->allocated < 32 || (tm->allocated & (tm->allocated - 1)) ||
                       tm->columns * plan->channels[tm->channel].depth > tm->allocated)) {
    snprintf(why, cap,
             "ws.tmem: %d buffer(s) of %d columns in an allocation of %d "
             "(a power of two, at least 32) for channel %d",
             tm->channel >= 0 && tm->channel < plan->num_channels
                 ? plan->channels[tm->channel].depth
                 : 0,
             tm->columns, tm->allocated, tm->channel);
    return false;
  }
  for (int i = 0; tm->tile.ptr && i < tm->num_scales; i++)
    if (tm->scale_ring[i] < 0 || tm->scale_ring[i] >= plan->num_rings ||
        tm->scale_column[i] < tm->columns * plan->channels[tm->channel].depth ||
        tm->scale_column[i] >= tm->allocated || tm->scale_a_atoms < 1 ||
        tm->scale_a_atoms >= tm->num_scales) {
      snprintf(why, cap,
               "ws.tmem: scale atom %d from ring %d at column %d, outside the rings "
               "or not after the accumulator buffers in the allocation of %d (%d "
               "of A's)",
               i, tm->scale_ring[i], tm->scale_column[i], tm->allocated, tm->scale_a_atoms);
      return false;
    }
  if (mlirOperationIsNull(plan->loop))
    return true;
  /* The terminator is left out: an empty scf.yield is not printed, so its
   * attributes do not survive a saved plan. */
  MlirBlock body = ws_loop_body(plan->loop);
  MlirOperation term = mlirBlockGetTerminator(body);
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op) && !mlirOperationEqual(op, term);
       op = mlirOperationGetNextInBlock(op))
    if (ws_op_partitions(plan, op) == 0) {
      *where = op;
      snprintf(why, cap,
               "is in no partition of the loop's ws.partitions (its ws.partition "
               "is missing or names none of them)");
      return false;
    }
  return true;
}

bool ws_plan_check(const ws_plan *plan) {
  char why[256];
  MlirOperation where;
  if (consistent(plan, why, sizeof why, &where))
    return true;
  ws_emit_op_error(where, "%s; the plan is inconsistent (edited by hand?)", why);
  return false;
}

bool ws_plan_is_consistent(const ws_plan *plan) {
  char why[256];
  MlirOperation where;
  return consistent(plan, why, sizeof why, &where);
}

static MlirAttribute array_attr(MlirOperation op, const char *name) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, ref(name));
  return !mlirAttributeIsNull(a) && mlirAttributeIsAArray(a) ? a : (MlirAttribute){NULL};
}

/* ws.tmem on the tables' op (see ws_tmem); absent: no tensor memory. */
static void read_tmem(ws_plan *plan) {
  MlirAttribute d = mlirOperationGetAttributeByName(plan->tables, ref("ws.tmem"));
  if (mlirAttributeIsNull(d) || !mlirAttributeIsADictionary(d))
    return;
  MlirAttribute tile = mlirDictionaryAttrGetElementByName(d, ref("tile"));
  if (mlirAttributeIsNull(tile) || !mlirAttributeIsAType(tile))
    return;
  plan->tmem.tile = mlirTypeAttrGetValue(tile);
  plan->tmem.channel = dict_int(d, "channel", -1);
  plan->tmem.columns = dict_int(d, "columns", 0);
  plan->tmem.allocated = dict_int(d, "allocated", 0);
  plan->tmem.address = dict_int(d, "address", 0);
  plan->tmem.num_scales = 0;
  plan->tmem.scale_a_atoms = dict_int(d, "scale_a_atoms", 0);
  for (int i = 0; i < WS_MAX_SCALE_ATOMS && dict_array_int(d, "scale_rings", i, -1) >= 0; i++) {
    plan->tmem.scale_ring[i] = dict_array_int(d, "scale_rings", i, -1);
    plan->tmem.scale_column[i] = dict_array_int(d, "scale_columns", i, -1);
    plan->tmem.num_scales++;
  }
}

/* The partition and channel tables of plan->tables. */
static bool read_tables(ws_plan *plan) {
  MlirAttribute table = array_attr(plan->tables, "ws.partitions");
  if (mlirAttributeIsNull(table))
    return false;
  read_partitions(plan, table);
  MlirAttribute channels = array_attr(plan->tables, "ws.channels");
  if (!mlirAttributeIsNull(channels))
    read_channels(plan, channels);
  read_tmem(plan);
  return true;
}

/* ws.row_scratch = [offset, bytes] on the kernel. */
static void read_row_scratch(ws_plan *plan) {
  MlirAttribute a =
      mlirOperationGetAttributeByName(plan->func, mlirStringRefCreateFromCString("ws.row_scratch"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseI32Array(a) ||
      mlirDenseArrayGetNumElements(a) != 2)
    return;
  plan->row_scratch = mlirDenseI32ArrayGetElement(a, 0);
  plan->row_scratch_bytes = mlirDenseI32ArrayGetElement(a, 1);
}

static void read_kernel_ints(ws_plan *plan) {
  if (!mlirOperationIsNull(plan->func)) {
    plan->smem_bytes = ws_int_attr(plan->func, "ws.smem_bytes", 0);
    plan->maxnreg = ws_int_attr(plan->func, "ws.maxnreg", 0);
    plan->block_threads = ws_int_attr(plan->func, "ws.block_threads", 0);
    plan->blocks_per_sm = ws_int_attr(plan->func, "ws.blocks_per_sm", 0);
    read_row_scratch(plan);
    plan->persistent = ws_has_attr(plan->func, "ws.persistent");
    ws_kernel_cluster(plan->func, plan->cluster);
  }
}

bool ws_plan_is_pair(const ws_plan *plan) {
  for (int r = 0; r < plan->num_rings; r++)
    if (plan->rings[r].split == WS_SPLIT_PAIR)
      return true;
  return false;
}

int ws_plan_mma_ctas(const ws_plan *plan) { return ws_plan_is_pair(plan) ? 2 : 1; }

int ws_plan_scale_atom(const ws_plan *plan, int ring) {
  for (int i = 0; i < plan->tmem.num_scales; i++)
    if (plan->tmem.scale_ring[i] == ring)
      return i;
  return -1;
}

int ws_plan_cluster_size(const ws_plan *plan) {
  int size = plan->cluster[0] * plan->cluster[1];
  return size > 1 ? size : 1;
}

bool ws_plan_read(MlirOperation loop, ws_plan *plan) {
  memset(plan, 0, sizeof *plan);
  plan->loop = plan->tables = loop;
  plan->func = ws_enclosing_kernel(loop);
  if (!read_tables(plan)) {
    ws_plan_release(plan);
    return false;
  }
  /* a prologue's loads (an attention kernel's Q), the loop's, an
   * epilogue's (a matmul's operands, its C tile), a second pass's */
  for (MlirOperation op = ws_plan_next_op(plan, (MlirOperation){NULL}); !mlirOperationIsNull(op);
       op = ws_plan_next_op(plan, op))
    read_ring(plan, op);
  read_kernel_ints(plan);
  return true;
}

bool ws_plan_read_planned(MlirOperation loop, ws_plan *plan) {
  if (!ws_plan_read(loop, plan))
    return false;
  if (plan->num_channels > 0)
    return true;
  ws_plan_release(plan);
  return false;
}

bool ws_is_specialized_kernel(MlirOperation func) {
  return !mlirAttributeIsNull(array_attr(func, "ws.rings"));
}

bool ws_plan_read_kernel(MlirOperation func, ws_plan *plan) {
  memset(plan, 0, sizeof *plan);
  plan->func = plan->tables = func;
  if (!ws_is_specialized_kernel(func) || !read_tables(plan)) {
    ws_plan_release(plan);
    return false;
  }
  read_ring_table(plan, array_attr(func, "ws.rings"));
  read_kernel_ints(plan);
  return true;
}

/* ---- writing ------------------------------------------------------------- */

void ws_plan_write_partitions(const ws_plan *plan) {
  ws_text t;
  ws_text_grown(&t);
  ws_text_appendf(&t, "[");
  for (int p = 0; p < plan->num_parts; p++) {
    const ws_partition *part = &plan->parts[p];
    ws_text_appendf(&t, "%s{name = \"%s\", role = \"%s\", num_warps = %d : i32",
                    t.len > 1 ? ", " : "", part->name, ws_role_names[part->role], part->num_warps);
    if (part->registers)
      ws_text_appendf(&t, ", registers = %d : i32, first_warp = %d : i32", part->registers,
                      part->first_warp);
    if (part->pingpong)
      ws_text_appendf(&t, ", pingpong = true");
    if (part->turns)
      ws_text_appendf(&t, ", turns = true");
    ws_text_appendf(&t, "}");
  }
  ws_text_appendf(&t, "]");
  set_attr_text(plan->tables, "ws.partitions", t.buf);
  ws_text_release(&t);
}

/* The ring row's optional clauses (`, split = "multicast"`, `, parts =
 * 4 : i32`), or "". */
static const char *ring_row_extras(const ws_ring *r, char buf[64]) {
  int n = 0;
  buf[0] = 0;
  if (r->split > 0)
    n = snprintf(buf, 64, ", split = \"%s\"", ws_split_names[r->split]);
  if (r->parts > 1)
    snprintf(buf + n, 64 - (size_t)n, ", parts = %d : i32", r->parts);
  return buf;
}

void ws_plan_write_rings(const ws_plan *plan) {
  for (int i = 0; i < plan->num_rings; i++) {
    const ws_ring *r = &plan->rings[i];
    char text[256], buf[64];
    snprintf(text, sizeof text,
             "{channel = %d : i32, offset = %d : i32, slot_bytes = %d : i32, "
             "align = %d : i32, swizzle = %d : i32%s}",
             r->channel, r->offset, r->slot_bytes, r->align, r->swizzle, ring_row_extras(r, buf));
    set_attr_text(r->producer, "ws.ring", text);
  }
}

void ws_plan_write_channels(const ws_plan *plan) {
  ws_text t;
  ws_text_grown(&t);
  ws_text_appendf(&t, "[");
  for (int i = 0; i < plan->num_channels; i++) {
    const ws_channel *c = &plan->channels[i];
    ws_text_appendf(&t,
                    "%s{from = \"%s\", to = \"%s\", depth = %d : i32, "
                    "full = %d : i32, empty = %d : i32",
                    i ? ", " : "", plan->parts[c->from].name, plan->parts[c->to].name, c->depth,
                    c->full, c->empty);
    if (c->full_arrivals)
      ws_text_appendf(&t,
                      ", full_arrivals = %d : i32, empty_arrivals = %d : i32, "
                      "expect_tx = %d : i32, producer_phase = %d : i32, "
                      "consumer_phase = %d : i32, release_fence = %s, "
                      "publish_fence = %s, drain = %d : i32",
                      c->full_arrivals, c->empty_arrivals, c->expect_tx, c->producer_phase,
                      c->consumer_phase, c->release_fence ? "true" : "false",
                      c->publish_fence ? "true" : "false", c->drain);
    if (c->full_to)
      ws_text_appendf(&t, ", full_to = \"%s\"", ws_reach_names[c->full_to]);
    if (c->empty_to)
      ws_text_appendf(&t, ", empty_to = \"%s\"", ws_reach_names[c->empty_to]);
    ws_text_appendf(&t, "}");
  }
  ws_text_appendf(&t, "]");
  set_attr_text(plan->tables, "ws.channels", t.buf);
  ws_text_release(&t);
}

void ws_plan_write_kernel(const ws_plan *plan) {
  if (plan->smem_bytes)
    ws_set_int_attr(plan->func, "ws.smem_bytes", plan->smem_bytes);
  if (plan->maxnreg) {
    ws_set_int_attr(plan->func, "ws.maxnreg", plan->maxnreg);
    ws_set_int_attr(plan->func, "ws.block_threads", plan->block_threads);
    ws_set_int_attr(plan->func, "ws.blocks_per_sm", plan->blocks_per_sm);
  }
  if (plan->row_scratch_bytes) {
    int32_t at[2] = {plan->row_scratch, plan->row_scratch_bytes};
    mlirOperationSetDiscardableAttributeByName(
        plan->func, mlirStringRefCreateFromCString("ws.row_scratch"),
        mlirDenseI32ArrayGet(mlirOperationGetContext(plan->func), 2, at));
  }
  if (plan->persistent)
    mlirOperationSetDiscardableAttributeByName(
        plan->func, mlirStringRefCreateFromCString("ws.persistent"),
        mlirUnitAttrGet(mlirOperationGetContext(plan->func)));
}

void ws_plan_write_ring_table(const ws_plan *plan) {
  char type[96], buf[64];
  ws_text t;
  ws_text_grown(&t);
  ws_text_appendf(&t, "[");
  for (int i = 0; i < plan->num_rings; i++) {
    const ws_ring *r = &plan->rings[i];
    ws_text_appendf(&t,
                    "%s{tile = %s, channel = %d : i32, offset = %d : i32, "
                    "slot_bytes = %d : i32, align = %d : i32, swizzle = %d : i32%s}",
                    i ? ", " : "", ws_type_str(r->tile, type, sizeof type), r->channel, r->offset,
                    r->slot_bytes, r->align, r->swizzle, ring_row_extras(r, buf));
  }
  ws_text_appendf(&t, "]");
  set_attr_text(plan->func, "ws.rings", t.buf);
  ws_text_release(&t);
}

void ws_plan_write_tmem(const ws_plan *plan) {
  if (!plan->tmem.tile.ptr)
    return;
  char text[384], type[96];
  ws_text t;
  ws_text_init(&t, text, sizeof text);
  const ws_tmem *tm = &plan->tmem;
  ws_text_appendf(&t,
                  "{tile = %s, channel = %d : i32, columns = %d : i32, "
                  "allocated = %d : i32, address = %d : i32",
                  ws_type_str(tm->tile, type, sizeof type), tm->channel, tm->columns, tm->allocated,
                  tm->address);
  if (tm->num_scales) {
    ws_text_appendf(&t, ", scale_rings = array<i32");
    for (int i = 0; i < tm->num_scales; i++)
      ws_text_appendf(&t, "%s %d", i ? "," : ":", tm->scale_ring[i]);
    ws_text_appendf(&t, ">, scale_columns = array<i32");
    for (int i = 0; i < tm->num_scales; i++)
      ws_text_appendf(&t, "%s %d", i ? "," : ":", tm->scale_column[i]);
    ws_text_appendf(&t, ">, scale_a_atoms = %d : i32", tm->scale_a_atoms);
  }
  ws_text_appendf(&t, "}");
  set_attr_text(plan->tables, "ws.tmem", text);
}

long long ws_ring_bytes(const ws_plan *plan, const ws_ring *ring) {
  return (long long)ring->slot_bytes * plan->channels[ring->channel].depth;
}

bool ws_op_name_starts(MlirOperation op, const char *prefix) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  size_t k = strlen(prefix);
  return n.length >= k && memcmp(n.data, prefix, k) == 0;
}

bool ws_touches_tiles(MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
    if (mlirTypeIsARankedTensor(mlirValueGetType(mlirOperationGetOperand(op, i))))
      return true;
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++)
    if (mlirTypeIsARankedTensor(mlirValueGetType(mlirOperationGetResult(op, i))))
      return true;
  return false;
}

bool ws_is_scalar_math(MlirOperation op) {
  if ((ws_op_is(op, "memref.load") || ws_op_is(op, "memref.dim")) &&
      wsTypeIsAKernelArray(mlirValueGetType(mlirOperationGetOperand(op, 0))))
    return true; /* a read of a kernel array: any partition may repeat it */
  if (wsOperationIsA(op, "stream_k_unit"))
    return true; /* stream-K's unit: scalars every partition computes alike */
  return ws_op_name_starts(op, "arith.") && mlirOperationGetNumRegions(op) == 0 &&
         !ws_touches_tiles(op);
}

bool ws_is_splat_tile(MlirOperation def) {
  if (ws_op_is(def, "tensor.splat"))
    return mlirOperationGetNumOperands(def) == 1 && mlirOperationGetNumResults(def) == 1;
  if (!ws_op_is(def, "arith.constant"))
    return false;
  MlirAttribute value =
      mlirOperationGetAttributeByName(def, mlirStringRefCreateFromCString("value"));
  return !mlirAttributeIsNull(value) && mlirAttributeIsADenseElements(value) &&
         mlirDenseElementsAttrIsSplat(value);
}

/* An i32 tile of ws.iota, splats, and arith.addi/subi of them, at most
 * `depth` ops deep. */
static bool is_index_tile(MlirValue tile, int depth) {
  if (!mlirValueIsAOpResult(tile) || depth < 0)
    return false;
  MlirType t = mlirValueGetType(tile);
  if (!mlirTypeIsARankedTensor(t) || !mlirTypeIsAInteger(mlirShapedTypeGetElementType(t)) ||
      mlirIntegerTypeGetWidth(mlirShapedTypeGetElementType(t)) != 32)
    return false;
  MlirOperation def = mlirOpResultGetOwner(tile);
  if (ws_op_is(def, "ws.iota") || ws_is_splat_tile(def))
    return true;
  return (ws_op_is(def, "arith.addi") || ws_op_is(def, "arith.subi")) &&
         is_index_tile(mlirOperationGetOperand(def, 0), depth - 1) &&
         is_index_tile(mlirOperationGetOperand(def, 1), depth - 1);
}

bool ws_is_index_tile(MlirValue tile) {
  enum { INDEX_DEPTH = 8 };
  return is_index_tile(tile, INDEX_DEPTH);
}

bool ws_is_index_mask(MlirValue mask) {
  if (!mlirValueIsAOpResult(mask) || !ws_op_is(mlirOpResultGetOwner(mask), "arith.cmpi"))
    return false;
  MlirOperation cmp = mlirOpResultGetOwner(mask);
  MlirAttribute p = mlirOperationGetAttributeByName(cmp, ref("predicate"));
  int64_t pred = mlirAttributeIsNull(p) ? -1 : mlirIntegerAttrGetValueInt(p);
  bool ordered = pred >= 2 && pred <= 5; /* slt, sle, sgt, sge (arith::CmpIPredicate) */
  return ordered && ws_is_index_tile(mlirOperationGetOperand(cmp, 0)) &&
         ws_is_index_tile(mlirOperationGetOperand(cmp, 1));
}

bool ws_step_is_positive(MlirValue step) {
  long long c;
  if (ws_constant_int(step, &c))
    return c > 0;
  if (!mlirValueIsAOpResult(step))
    return false;
  MlirOperation def = mlirOpResultGetOwner(step);
  if (ws_op_is(def, "arith.index_cast") || ws_op_is(def, "arith.index_castui"))
    return ws_step_is_positive(mlirOperationGetOperand(def, 0));
  return ws_op_is(def, "gpu.grid_dim") || ws_op_is(def, "gpu.block_dim");
}

bool ws_feeds_dot(MlirOperation op) {
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
    for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, r));
         !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
      if (wsOperationIsA(mlirOpOperandGetOwner(u), "dot"))
        return true;
  return false;
}

bool ws_is_zero_splat(MlirValue v) {
  if (!mlirValueIsAOpResult(v) || !ws_op_is(mlirOpResultGetOwner(v), "arith.constant"))
    return false;
  MlirAttribute a = mlirOperationGetAttributeByName(mlirOpResultGetOwner(v),
                                                    mlirStringRefCreateFromCString("value"));
  return mlirAttributeIsADenseElements(a) && mlirDenseElementsAttrIsSplat(a) &&
         mlirAttributeIsAFloat(mlirDenseElementsAttrGetSplatValue(a)) &&
         mlirFloatAttrGetValueDouble(mlirDenseElementsAttrGetSplatValue(a)) == 0.0;
}

bool ws_is_step_tile_op(MlirOperation op) {
  if (wsOperationIsA(op, "load"))
    return false;
  bool tile = wsOperationIsInDialect(op);
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
    tile |= mlirTypeIsARankedTensor(mlirValueGetType(mlirOperationGetResult(op, r)));
  return tile;
}

ws_step_walk ws_step_walk_begin(MlirOperation loop) {
  MlirBlock body = ws_loop_body(loop);
  return (ws_step_walk){
      .op = {NULL}, .yield = mlirBlockGetTerminator(body), .dot = false, .run = 0};
}

bool ws_step_next(ws_step_walk *w) {
  MlirOperation op = mlirOperationIsNull(w->op)
                         ? mlirBlockGetFirstOperation(mlirOperationGetBlock(w->yield))
                         : mlirOperationGetNextInBlock(w->op);
  while (!mlirOperationIsNull(op) && !mlirOperationEqual(op, w->yield) && !ws_is_step_tile_op(op))
    op = mlirOperationGetNextInBlock(op);
  if (mlirOperationIsNull(op) || mlirOperationEqual(op, w->yield))
    return false;
  bool dot = wsOperationIsA(op, "dot");
  w->run += dot && !w->dot; /* a dot first or after math starts a run */
  w->dot = dot;
  w->op = op;
  return true;
}

int ws_loop_dot_runs(MlirOperation loop) {
  ws_step_walk w = ws_step_walk_begin(loop);
  while (ws_step_next(&w))
    ;
  return w.run;
}

/* A ws.load before `loop` in its block: a tile every iteration reads
 * (an attention kernel's Q), loaded once per block. */
bool ws_is_prologue_load(MlirValue v, MlirOperation loop) {
  if (!mlirValueIsAOpResult(v) || !wsOperationIsA(mlirOpResultGetOwner(v), "load"))
    return false;
  MlirOperation def = mlirOpResultGetOwner(v);
  for (MlirOperation op = mlirOperationGetNextInBlock(def); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (mlirOperationEqual(op, loop))
      return true;
  return false;
}

/* True when v is defined by an op directly in loop's body. */
bool ws_value_in_loop(MlirValue v, MlirOperation loop) {
  return mlirValueIsAOpResult(v) &&
         mlirOperationEqual(mlirOperationGetParentOperation(mlirOpResultGetOwner(v)), loop);
}

/* How many ops of `block` are named `name` ("ws.dot"); *first gets the
 * first of them (a null op when none). */
int ws_count_ops(MlirBlock block, const char *name, MlirOperation *first) {
  int n = 0;
  *first = (MlirOperation){NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (ws_op_is(op, name) && n++ == 0)
      *first = op;
  return n;
}
bool ws_tile_loop_is_pingpong(MlirOperation tile) {
  return ws_string_attr_is(tile, "ws.overlap", "pingpong");
}
