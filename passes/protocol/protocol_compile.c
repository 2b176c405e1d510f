/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* protocol_compile.c: the events each thread of a specialized kernel runs,
 * compiled (protocol_run.c runs them).
 *
 * The kernel is compiled once into a small program over integer registers
 * (arith on i1/i32/index, the thread index, elect.sync, ws.slot_phase,
 * scf.if, scf.for) with the protocol ops as events; everything else (tiles,
 * addresses, kernel arguments, block indices) is an unknown value. The
 * program then runs once per thread of the block for a trip count T: loops
 * whose bounds are constants run their own count, loops with runtime bounds
 * run T times (they must all share one lb/ub/step: they are the copies of
 * the one specialized loop). A branch on an unknown value is an error when
 * it holds protocol ops: the check cannot tell who runs them.
 *
 * elect.sync is taken to elect lane 0 (all lanes converged, as at every
 * place specialize.c uses it). Threads of one warpgroup whose events after
 * the block-wide barrier are equal become one agent.
 *
 * A cluster kernel runs every thread of every CTA of the cluster: the
 * CTA's rank (nvvm.read.ptx.sreg.cluster.ctarank, gpu.cluster_block_id
 * along the cluster) is known, each event names the CTA it touches, and
 * agents are per CTA. */
#include "protocol_program.h"

static const struct {
  const char *name;
  int bin;
} bin_ops[] = {
    {"arith.addi", B_ADD},   {"arith.subi", B_SUB},   {"arith.muli", B_MUL},
    {"arith.divui", B_DIVU}, {"arith.divsi", B_DIVS}, {"arith.remui", B_REMU},
    {"arith.remsi", B_REMS}, {"arith.andi", B_AND},   {"arith.ori", B_OR},
    {"arith.xori", B_XOR},   {"arith.shli", B_SHL},   {"arith.shrui", B_SHRU},
    {"arith.shrsi", B_SHRS}, {"arith.maxui", B_MAXU}, {"arith.minui", B_MINU},
    {"arith.maxsi", B_MAXS}, {"arith.minsi", B_MINS},
};

/* Casts: sign-extending or not. */
static const struct {
  const char *name;
  bool sign;
} cast_ops[] = {
    {"arith.index_cast", true}, {"arith.index_castui", false}, {"arith.extui", false},
    {"arith.extsi", true},      {"arith.trunci", false},
};

/* ---- compile ------------------------------------------------------------- */

/* Integers hold their values; a tile holds the index of the event of the
 * ws.mma that made it, where one did (C_MMA_ID), for ws.mma_done. */
static int type_width(MlirType t) {
  if (mlirTypeIsAIndex(t) || mlirTypeIsARankedTensor(t))
    return 64;
  if (mlirTypeIsAInteger(t))
    return (int)mlirIntegerTypeGetWidth(t) <= 64 ? (int)mlirIntegerTypeGetWidth(t) : 0;
  return 0;
}

static uintptr_t value_key(MlirValue v) { return (uintptr_t)v.ptr; }

static void rehash(ws_program *P);

/* The register of `v`, made on first use. */
int program_reg_of(ws_program *P, MlirValue v) {
  if (2 * (P->hused + 1) > P->hcap)
    rehash(P);
  uintptr_t k = value_key(v);
  size_t h = (k >> 4) * 0x9E3779B97F4A7C15ull;
  for (int i = (int)(h & (size_t)(P->hcap - 1));; i = (i + 1) & (P->hcap - 1)) {
    if (P->keys[i] == k)
      return P->vals[i];
    if (!P->keys[i]) {
      P->keys[i] = k;
      P->width = ws_grow(P->width, &P->regs_cap, P->nregs + 1, sizeof *P->width);
      P->width[P->nregs] = type_width(mlirValueGetType(v));
      P->hused++;
      return P->vals[i] = P->nregs++;
    }
  }
}

static void rehash(ws_program *P) {
  int old = P->hcap;
  uintptr_t *keys = P->keys;
  int *vals = P->vals;
  P->hcap = old ? old * 2 : 256;
  P->keys = calloc((size_t)P->hcap, sizeof *P->keys);
  P->vals = calloc((size_t)P->hcap, sizeof *P->vals);
  if (!P->keys || !P->vals)
    abort();
  for (int i = 0; i < old; i++)
    if (keys[i]) {
      size_t h = (keys[i] >> 4) * 0x9E3779B97F4A7C15ull;
      int j = (int)(h & (size_t)(P->hcap - 1));
      while (P->keys[j])
        j = (j + 1) & (P->hcap - 1);
      P->keys[j] = keys[i];
      P->vals[j] = vals[i];
    }
  free(keys);
  free(vals);
}

static insn *emit(ws_program *P, int code, MlirOperation op) {
  P->code = ws_grow(P->code, &P->cap, P->n + 1, sizeof *P->code);
  insn *i = &P->code[P->n++];
  memset(i, 0, sizeof *i);
  i->code = code;
  i->op = op;
  i->dst = i->a = i->b = i->c = i->cta = -1;
  return i;
}

static int push_arg(ws_program *P, int reg) {
  P->args = ws_grow(P->args, &P->args_cap, P->nargs + 1, sizeof *P->args);
  P->args[P->nargs] = reg;
  return P->nargs++;
}

static MlirValue operand(MlirOperation op, intptr_t i) { return mlirOperationGetOperand(op, i); }
static MlirValue result(MlirOperation op, intptr_t i) { return mlirOperationGetResult(op, i); }

bool program_fail(ws_program *P, MlirOperation op, const char *msg) {
  if (!P->failed)
    ws_emit_op_error(op, "cannot be checked: %s", msg);
  P->failed = true;
  return false;
}

/* The slot_phase op a slot (or phase, result 1) operand comes from. */
static MlirOperation slot_source(MlirValue v, int result_no) {
  if (!mlirValueIsAOpResult(v) || mlirOpResultGetResultNumber(v) != result_no)
    return (MlirOperation){NULL};
  MlirOperation def = mlirOpResultGetOwner(v);
  return wsOperationIsA(def, "slot_phase") ? def : (MlirOperation){NULL};
}

static int ring_attr(ws_program *P, MlirOperation op, const char *name) {
  int r = ws_int_attr(op, name, -1);
  if (r < 0 || r >= P->plan->num_rings) {
    char msg[96];
    snprintf(msg, sizeof msg, "its %s is not a ring of the kernel's ws.rings", name);
    program_fail(P, op, msg);
    return -1;
  }
  return r;
}

/* The rules of slot and phase that the op structure decides: the slot comes
 * from ws.slot_phase with the channel's depth, and a wait's phase from the
 * same slot_phase with the start phase of its side (producers wait on empty
 * from phase 1, consumers on full from phase 0). */
static bool check_slot_source(ws_program *P, MlirOperation op, MlirValue slot, int channel,
                              int kind, int full) {
  MlirOperation sp = slot_source(slot, 0);
  if (mlirOperationIsNull(sp))
    return program_fail(P, op,
                        "its slot does not come from ws.slot_phase, so the check "
                        "cannot tell which iteration it belongs to");
  const ws_channel *c = &P->plan->channels[channel];
  int depth = ws_int_attr(sp, "depth", 0);
  if (depth != c->depth) {
    char loc[64];
    ws_emit_op_error(op,
                     "breaks the protocol rule 'phases': its slot comes from a "
                     "ws.slot_phase of depth %d (at %s), but channel %d has %d "
                     "slots, so slot = i mod depth differs between its sides",
                     depth, ws_op_where(sp, loc, sizeof loc), channel, c->depth);
    P->failed = true;
    return false;
  }
  if (kind != EV_WAIT)
    return true;
  MlirOperation pp = slot_source(operand(op, 1), 1);
  if (mlirOperationIsNull(pp) || !mlirOperationEqual(pp, sp))
    return program_fail(P, op,
                        "its phase is not the phase of the ws.slot_phase that "
                        "gives its slot");
  int want = full ? c->consumer_phase : c->producer_phase;
  int want_rule = full ? 0 : 1;
  int start = ws_int_attr(sp, "start_phase", -1);
  if (start != want || want != want_rule) {
    char loc[64];
    ws_emit_op_error(op,
                     "breaks the protocol rule 'phases': a %s waits on the %s "
                     "barrier from phase %d, but this wait's ws.slot_phase (at %s) "
                     "starts at phase %d",
                     full ? "consumer" : "producer", ws_barrier_name(full), want_rule,
                     ws_op_where(sp, loc, sizeof loc), start);
    P->failed = true;
    return false;
  }
  return true;
}

/* The tile a TMA copy's descriptor moves into or out of one slot of
 * `ring`: the descriptor's box, with its leading unit dimensions dropped
 * (attention's 1 x 1 x S x D box of a B x H x S x D tensor fills an S x D
 * slot), whose columns a ring held in parts divides (store-boxes: one
 * part a slot). A split ring's row names the whole tile. */
static bool box_fits_slot(MlirType box, const ws_ring *ring) {
  MlirType tile = ring->tile;
  intptr_t rank = mlirShapedTypeGetRank(box), tile_rank = mlirShapedTypeGetRank(tile);
  intptr_t skip = rank - tile_rank;
  if (skip < 0 ||
      !mlirTypeEqual(mlirShapedTypeGetElementType(box), mlirShapedTypeGetElementType(tile)))
    return false;
  for (intptr_t d = 0; d < skip; d++)
    if (mlirShapedTypeGetDimSize(box, d) != 1)
      return false;
  for (intptr_t d = 0; d < tile_rank; d++) {
    long long want = mlirShapedTypeGetDimSize(box, skip + d);
    if (d == tile_rank - 1 && ring->parts > 1)
      want /= ring->parts;
    if (want != mlirShapedTypeGetDimSize(tile, d))
      return false;
  }
  return true;
}

/* The boxes rule: a TMA copy moves the tile of the ring slot it fills or
 * reads, in shape and element type. A descriptor of another box (A's and
 * B's swapped) would write past its slot or leave the barrier's bytes
 * short, whatever the expected total says. */
static bool check_box(ws_program *P, MlirOperation op, int ring) {
  MlirType t = mlirValueGetType(operand(op, 0));
  if (!wsTypeIsATensorDesc(t))
    return program_fail(P, op, "its first operand is not a !ws.tensor_desc");
  MlirType box = wsTensorDescTypeGetBox(t);
  const ws_ring *r = &P->plan->rings[ring];
  if (box_fits_slot(box, r))
    return true;
  char have[96], want[96];
  char parts[64] = "";
  if (r->parts > 1)
    snprintf(parts, sizeof parts, " (a slot takes one of its %d column parts)", r->parts);
  ws_emit_op_error(op,
                   "breaks the protocol rule 'boxes': its descriptor moves %s boxes%s, but "
                   "ring %d's slots hold %s",
                   ws_type_str(box, have, sizeof have), parts, ring,
                   ws_type_str(r->tile, want, sizeof want));
  P->failed = true;
  return false;
}

/* True when v is an arith.constant integer; its value in *out. */
static bool constant_int(MlirValue v, long long *out) {
  if (!mlirValueIsAOpResult(v) || !ws_op_is(mlirOpResultGetOwner(v), "arith.constant"))
    return false;
  MlirAttribute a = mlirOperationGetAttributeByName(mlirOpResultGetOwner(v),
                                                    mlirStringRefCreateFromCString("value"));
  if (!mlirAttributeIsAInteger(a))
    return false;
  *out = mlirIntegerAttrGetValueInt(a);
  return true;
}

/* The barrier rule on a named barrier (bar.sync id, count): the id a
 * constant from 1 to 15 (id 0 is the block-wide barrier that
 * nvvm.barrier0 and gpu.barrier use, and a block has 16), the count a
 * constant multiple of a warp's 32 threads. Anything else would make two
 * barriers one, or one barrier wait for threads the check cannot count. */
static bool check_named_barrier(ws_program *P, MlirOperation op) {
  long long id = -1, count = -1;
  bool ok = mlirOperationGetNumOperands(op) == 2 && constant_int(operand(op, 0), &id) &&
            constant_int(operand(op, 1), &count) && id >= 1 && id <= 15 && count > 0 &&
            count % 32 == 0;
  if (ok)
    return true;
  char what[96];
  if (mlirOperationGetNumOperands(op) != 2)
    snprintf(what, sizeof what, "it names no thread count");
  else if (id < 0 || count < 0)
    snprintf(what, sizeof what, "its id or thread count is not a constant");
  else
    snprintf(what, sizeof what, "it is barrier %lld for %lld threads", id, count);
  ws_emit_op_error(op,
                   "breaks the protocol rule 'barrier': %s; a partition's named barrier is a "
                   "constant id from 1 to 15 (id 0 is the block-wide barrier of "
                   "nvvm.barrier0 and gpu.barrier) for a constant multiple of 32 threads",
                   what);
  P->failed = true;
  return false;
}

/* True for an op that synchronizes threads or moves data past the
 * protocol's barriers but is none of the ops the check models: an
 * mbarrier, bar.arrive, a raw TMA copy, wgmma or tcgen05 op, a cp.async
 * group or a cluster barrier written by hand. A specialized kernel holds
 * the ws protocol ops instead; one of these would go unchecked. */
static bool synchronizes_unmodelled(const char *name) {
  static const char *const refused[] = {"nvvm.mbarrier.", "nvvm.barrier.arrive",  "nvvm.cp.async.",
                                        "nvvm.tcgen05.",  "nvvm.wgmma.mma_async", "nvvm.cluster.",
                                        "nvvm.fence.",    "nvvm.stmatrix",        "nvvm.ldmatrix"};
  static const char *const modelled[] = {"nvvm.cp.async.bulk.commit.group",
                                         "nvvm.cp.async.bulk.wait_group",
                                         "nvvm.tcgen05.fence",
                                         "nvvm.cluster.arrive",
                                         "nvvm.cluster.arrive.relaxed",
                                         "nvvm.cluster.wait",
                                         "nvvm.fence.proxy",
                                         "nvvm.fence.mbarrier.init",
                                         "nvvm.tcgen05.relinquish_alloc_permit"};
  for (size_t i = 0; i < sizeof modelled / sizeof modelled[0]; i++)
    if (strcmp(name, modelled[i]) == 0)
      return false;
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
    if (strncmp(name, refused[i], strlen(refused[i])) == 0)
      return true;
  return false;
}

static bool compile_event(ws_program *P, MlirOperation op, int kind) {
  insn *i = emit(P, C_EVENT, op);
  ws_event *e = &i->ev;
  e->op = op;
  e->kind = kind;
  e->ring = e->ring_b = e->channel = -1;
  intptr_t slot_at = -1;
  switch (kind) {
  case EV_INIT:
  case EV_WAIT:
  case EV_ARRIVE:
  case EV_EXPECT_TX:
    e->channel = ws_int_attr(op, "channel", -1);
    if (e->channel < 0 || e->channel >= P->plan->num_channels)
      return program_fail(P, op, "its channel is not one of the kernel's ws.channels");
    e->full = kind == EV_EXPECT_TX || ws_string_attr_is(op, "barrier", "full");
    if (kind != EV_EXPECT_TX && !e->full && !ws_string_attr_is(op, "barrier", "empty"))
      return program_fail(P, op, "its barrier is neither \"full\" nor \"empty\"");
    e->value = ws_int_attr(op, kind == EV_INIT ? "count" : "bytes", 0);
    slot_at = kind == EV_INIT ? -1 : 0;
    break;
  case EV_MMA:
  case EV_TC_MMA: {
    /* B's slot (A's too when A shares it, as a tcgen05.mma's always does);
     * A in a ring of another channel is a second event (compile_mma_a), A
     * in registers none */
    bool shared = kind == EV_TC_MMA || mlirOperationGetNumOperands(op) == 2;
    e->ring = ring_attr(P, op, shared ? "ring_a" : "ring_b");
    if (e->ring < 0)
      return false;
    if (shared) {
      if ((e->ring_b = ring_attr(P, op, "ring_b")) < 0)
        return false;
      if (P->plan->rings[e->ring_b].channel != P->plan->rings[e->ring].channel)
        return program_fail(P, op, "its two rings are in different channels but it has one slot");
    }
    e->channel = P->plan->rings[e->ring].channel;
    e->full = true;
    e->value = ws_tile_bytes(P->plan->rings[e->ring].tile);
    slot_at = 0;
    break;
  }
  case EV_TMEM_READ:
  case EV_TMEM_WRITE:
    if (!P->plan->tmem.tile.ptr)
      return program_fail(P, op, "it uses tensor memory, but the kernel has no ws.tmem");
    e->channel = P->plan->tmem.channel;
    e->full = kind == EV_TMEM_READ;
    slot_at = kind == EV_TMEM_READ ? 0 : 1;
    break;
  case EV_TC_FENCE: {
    char text[96];
    MlirAttribute a = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("kind"));
    e->aux = !mlirAttributeIsNull(a) && strstr(ws_attr_str(a, text, sizeof text), "before");
    break;
  }
  case EV_TMA_LOAD:
  case EV_TMA_STORE:
  case EV_READ:
  case EV_WRITE:
  case EV_TMEM_COPY:
    e->ring = ring_attr(P, op, "ring");
    if (e->ring < 0)
      return false;
    e->channel = P->plan->rings[e->ring].channel;
    e->full = kind == EV_READ || kind == EV_TMA_STORE || kind == EV_TMEM_COPY;
    e->value = ws_tile_bytes(P->plan->rings[e->ring].tile);
    if (kind == EV_WRITE) /* the part of a ring held in parts, else -1 */
      e->aux = P->plan->rings[e->ring].parts > 1 ? ws_int_attr(op, "part", -1) : -1;
    slot_at = kind == EV_TMA_LOAD || kind == EV_TMA_STORE ? mlirOperationGetNumOperands(op) - 1
                                                          : kind == EV_WRITE;
    if ((kind == EV_TMA_LOAD || kind == EV_TMA_STORE) && !check_box(P, op, e->ring))
      return false;
    break;
  case EV_SETMAXNREG: {
    e->value = ws_int_attr(op, "regCount", -1);
    char text[96];
    MlirAttribute a = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("action"));
    e->aux = !mlirAttributeIsNull(a) && strstr(ws_attr_str(a, text, sizeof text), "increase");
    break;
  }
  case EV_BAR_SYNC:
    if (mlirOperationGetNumOperands(op) == 0) { /* bar.sync 0 for every thread */
      e->kind = EV_CTA_SYNC;
      break;
    }
    if (!check_named_barrier(P, op))
      return false;
    i->a = program_reg_of(P, operand(op, 0));
    i->b = program_reg_of(P, operand(op, 1));
    break;
  case EV_MMA_DONE:
    i->dst = program_reg_of(P, operand(op, 0)); /* read by record(), not a slot */
    break;
  case EV_CLUSTER_ARRIVE: /* aux: relaxed (orders none of the thread's accesses) */
    e->aux = ws_op_is(op, "nvvm.cluster.arrive.relaxed");
    break;
  case EV_WGMMA_WAIT:
  case EV_BULK_WAIT:
    e->value = ws_int_attr(op, "group", 0);
    e->aux = ws_has_attr(op, "read");
    break;
  default:
    break;
  }
  /* the accumulator buffer a K step's tcgen05.mma writes is the tile's */
  if (e->channel >= 0 && P->open_level == 1 && kind != EV_TMEM_WRITE)
    P->stepped_per_k |= 1u << e->channel;
  if (slot_at >= 0) {
    MlirValue slot = operand(op, slot_at);
    if (!check_slot_source(P, op, slot, e->channel, kind, e->full))
      return false;
    i->a = program_reg_of(P, slot);
    if (kind == EV_WAIT)
      i->b = program_reg_of(P, operand(op, 1));
  }
  return true;
}

/* True when a fence.proxy orders the generic proxy's accesses of shared
 * memory against the async proxy's (TMA, wgmma, bulk stores): the kind
 * `async` (every state space) or `async.shared` (with space cta or
 * cluster, both of which hold the CTA's slots). `async.global` orders
 * global memory alone, and the other kinds (alias, tensormap) no async
 * access at all: such a fence is no event, so a slot that needed one is
 * refused by 'proxy-fence' at the op that hands it on. */
static bool orders_shared_for_async(MlirOperation op) {
  char kind[96], space[96];
  MlirAttribute k = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("kind"));
  MlirAttribute s = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("space"));
  if (mlirAttributeIsNull(k))
    return false;
  ws_attr_str(k, kind, sizeof kind);
  if (strcmp(kind, "#nvvm.proxy_kind<async>") == 0)
    return true;
  if (strcmp(kind, "#nvvm.proxy_kind<async.shared>") != 0 || mlirAttributeIsNull(s))
    return false;
  ws_attr_str(s, space, sizeof space);
  return strcmp(space, "#nvvm.shared_space<cta>") == 0 ||
         strcmp(space, "#nvvm.shared_space<cluster>") == 0;
}

/* Which event an op is, or -1 for an op that is not part of the protocol. */
static int event_kind(MlirOperation op, char *name) {
  static const struct {
    const char *name;
    int kind;
  } events[] = {
      {"ws.init_barrier", EV_INIT},
      {"nvvm.fence.mbarrier.init", EV_INIT_FENCE},
      {"nvvm.barrier0", EV_CTA_SYNC},
      {"gpu.barrier", EV_CTA_SYNC}, /* bar.sync 0 for every thread, as barrier0 */
      {"nvvm.barrier", EV_BAR_SYNC},
      {"nvvm.setmaxregister", EV_SETMAXNREG},
      {"ws.wait", EV_WAIT},
      {"ws.arrive", EV_ARRIVE},
      {"ws.arrive_expect_tx", EV_EXPECT_TX},
      {"ws.tma_load", EV_TMA_LOAD},
      {"ws.write_slot", EV_WRITE},
      {"ws.read_slot", EV_READ},
      {"ws.mma", EV_MMA},
      {"ws.tma_store", EV_TMA_STORE},
      {"nvvm.wgmma.commit.group.sync.aligned", EV_WGMMA_COMMIT},
      {"nvvm.wgmma.wait.group.sync.aligned", EV_WGMMA_WAIT},
      {"ws.mma_done", EV_MMA_DONE},
      {"nvvm.cp.async.bulk.commit.group", EV_BULK_COMMIT},
      {"nvvm.cp.async.bulk.wait_group", EV_BULK_WAIT},
      {"ws.tc_mma", EV_TC_MMA},
      {"ws.tmem_copy", EV_TMEM_COPY},
      {"ws.tmem_load", EV_TMEM_READ},
      {"ws.commit", EV_TC_COMMIT},
      {"nvvm.tcgen05.fence", EV_TC_FENCE},
      {"ws.tmem_alloc", EV_TMEM_ALLOC},
      {"ws.tmem_dealloc", EV_TMEM_DEALLOC},
      {"nvvm.cluster.arrive", EV_CLUSTER_ARRIVE},
      {"nvvm.cluster.arrive.relaxed", EV_CLUSTER_ARRIVE},
      {"nvvm.cluster.wait", EV_CLUSTER_WAIT},
  };
  for (size_t i = 0; i < sizeof events / sizeof events[0]; i++)
    if (strcmp(name, events[i].name) == 0)
      return events[i].kind;
  if (strcmp(name, "nvvm.fence.proxy") == 0)
    return orders_shared_for_async(op) ? EV_PROXY_FENCE : -1;
  return -1;
}

static bool compile_block(ws_program *P, MlirBlock block);

static bool compile_region_block(ws_program *P, MlirOperation op, int region) {
  MlirRegion r = mlirOperationGetRegion(op, region);
  MlirBlock b = mlirRegionGetFirstBlock(r);
  return mlirBlockIsNull(b) || compile_block(P, b);
}

static bool computes_tiles(MlirOperation op);

static MlirWalkResult find_protocol(MlirOperation op, void *found) {
  char name[64];
  ws_op_name(op, name, sizeof name);
  if (event_kind(op, name) >= 0 || (wsOperationIsInDialect(op) && !computes_tiles(op))) {
    *(bool *)found = true;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

/* True when any op under `op` is a protocol event. */
static bool holds_protocol(MlirOperation op) {
  bool found = false;
  mlirOperationWalk(op, find_protocol, &found, MlirWalkPreOrder);
  return found;
}

/* The yield that ends region `region` of op, or a null op. */
static MlirOperation region_yield(MlirOperation op, int region) {
  MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, region));
  return mlirBlockIsNull(b) ? (MlirOperation){NULL} : mlirBlockGetTerminator(b);
}

/* A YIELD copying the yield's operands into `dsts` (prog->args). */
static void emit_yield(ws_program *P, int code, MlirOperation yield, int dsts, int n,
                       MlirOperation at) {
  insn *y = emit(P, code, at);
  y->args = P->nargs;
  y->nargs = n;
  for (int k = 0; k < n; k++)
    push_arg(P, program_reg_of(P, operand(yield, k)));
  for (int k = 0; k < n; k++)
    push_arg(P, P->args[dsts + k]);
}

static bool compile_if(ws_program *P, MlirOperation op) {
  int n = (int)mlirOperationGetNumResults(op);
  P->most_carried = n > P->most_carried ? n : P->most_carried;
  int results = P->nargs;
  for (int k = 0; k < n; k++)
    push_arg(P, program_reg_of(P, result(op, k)));
  int at = P->n;
  insn *i = emit(P, C_IF, op);
  i->a = program_reg_of(P, operand(op, 0));
  i->protocol = holds_protocol(op);
  i->args = results;
  i->nargs = n;
  if (!compile_region_block(P, op, 0))
    return false;
  MlirOperation ty = region_yield(op, 0);
  if (n)
    emit_yield(P, C_YIELD, ty, results, n, op);
  else
    emit(P, C_JUMP, op);
  int then_end = P->n - 1;
  P->code[at].target = P->n;
  if (!compile_region_block(P, op, 1))
    return false;
  if (n)
    emit_yield(P, C_YIELD, region_yield(op, 1), results, n, op);
  P->code[at].target2 = P->n;
  P->code[then_end].target = P->n;
  if (n) /* the else yield falls through to the end */
    P->code[P->n - 1].target = P->n;
  return true;
}

/* True when late = arith.addi lb, step (a pipelined loop's lower bound). */
static bool starts_a_step_late(MlirValue late, MlirValue lb, MlirValue step) {
  if (!mlirValueIsAOpResult(late) || !ws_op_is(mlirOpResultGetOwner(late), "arith.addi"))
    return false;
  MlirOperation add = mlirOpResultGetOwner(late);
  return mlirValueEqual(mlirOperationGetOperand(add, 0), lb) &&
         mlirValueEqual(mlirOperationGetOperand(add, 1), step);
}

/* The level a loop with protocol ops runs at. Its bounds are the level's
 * (the first loop's), or known when it runs: constants (a count of its
 * own), or computed from the level's bounds, which each run pins
 * (trip_count says otherwise). -1 after an error. */
static int loop_level(ws_program *P, MlirOperation op) {
  MlirValue lb = operand(op, 0), ub = operand(op, 1), step = operand(op, 2);
  int at = P->open_level + 1;
  if (at > 1)
    return program_fail(P, op,
                        "it nests loops with protocol ops three deep; the check pairs "
                        "the partitions' tile loops and the K loops inside them"),
           -1;
  struct loop_level *L = &P->level[at];
  if (!L->have_bounds) {
    L->lb = lb, L->ub = ub, L->step = step;
    L->have_bounds = true;
    if (at + 1 > P->levels)
      P->levels = at + 1;
    return at;
  }
  /* a pipelined loop runs from lb + step: the level's bounds are the
   * whole loop's, whichever partition comes first */
  if (mlirValueEqual(ub, L->ub) && mlirValueEqual(step, L->step) &&
      starts_a_step_late(L->lb, lb, step))
    L->lb = lb;
  return at;
}

static bool compile_for(ws_program *P, MlirOperation op) {
  int iters = (int)mlirOperationGetNumResults(op);
  P->most_carried = iters > P->most_carried ? iters : P->most_carried;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  bool protocol = holds_protocol(op);
  MlirValue lb = operand(op, 0), ub = operand(op, 1), step = operand(op, 2);
  int level = P->open_level;
  if (protocol && (level = loop_level(P, op)) < 0)
    return false;
  /* args: [iv, iter args..., inits..., results...] */
  int args = P->nargs;
  push_arg(P, program_reg_of(P, mlirBlockGetArgument(body, 0)));
  for (int k = 0; k < iters; k++)
    push_arg(P, program_reg_of(P, mlirBlockGetArgument(body, k + 1)));
  for (int k = 0; k < iters; k++)
    push_arg(P, program_reg_of(P, operand(op, 3 + k)));
  for (int k = 0; k < iters; k++)
    push_arg(P, program_reg_of(P, result(op, k)));
  int at = P->n;
  insn *f = emit(P, C_FOR, op);
  f->a = program_reg_of(P, lb);
  f->b = program_reg_of(P, ub);
  f->c = program_reg_of(P, step);
  f->args = args;
  f->nargs = iters;
  f->protocol = protocol;
  f->imm = level;
  int outer = P->open_level;
  P->open_level = level;
  if (!compile_block(P, body))
    return false;
  P->open_level = outer;
  emit_yield(P, C_LOOP_END, mlirBlockGetTerminator(body), args + 1, iters, op);
  P->code[P->n - 1].sub = at;
  P->code[at].target = P->n;
  return true;
}

/* A ws op on tiles alone (ws.broadcast, ws.iota, ws.reduce): no slot, no
 * barrier, so no protocol; its results are unknown values. So is
 * ws.split_k_sum (and ws.stream_k_sum): its exchange with other blocks goes through global
 * memory, not the kernel's barriers (split_k.c says why it cannot wait in
 * a cycle); and a row kernel's ws.load and ws.store of a row vector, which
 * the compute warps move to and from global memory themselves
 * (ws_row_kernel.h). */
static bool computes_tiles(MlirOperation op) {
  if (wsOperationIsA(op, "split_k_sum") || wsOperationIsA(op, "stream_k_sum") ||
      ws_store_is_row_vector(op) || ws_load_is_row_vector(op))
    return true;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
    if (!mlirTypeIsARankedTensor(mlirValueGetType(operand(op, i))))
      return false;
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++)
    if (!mlirTypeIsARankedTensor(mlirValueGetType(result(op, i))))
      return false;
  return mlirOperationGetNumResults(op) > 0;
}

/* A ws.mma whose A lies in a ring of another channel (its third operand is
 * that ring's slot, taken once before the loop: attention's Q): a second
 * wgmma read, of ring_a at that slot, retired by the same waits. */
static bool compile_mma_a(ws_program *P, MlirOperation op) {
  if (mlirOperationGetNumOperands(op) < 3 || !mlirTypeIsAInteger(mlirValueGetType(operand(op, 2))))
    return true; /* A shares B's slot, or is in registers */
  int ra = ring_attr(P, op, "ring_a");
  if (ra < 0)
    return false;
  insn *i = emit(P, C_EVENT, op);
  ws_event *e = &i->ev;
  *e = (ws_event){.op = op,
                  .kind = EV_MMA,
                  .ring = ra,
                  .ring_b = -1,
                  .full = true,
                  .channel = P->plan->rings[ra].channel,
                  .value = ws_tile_bytes(P->plan->rings[ra].tile)};
  if (!check_slot_source(P, op, operand(op, 2), e->channel, EV_MMA, true))
    return false;
  i->a = program_reg_of(P, operand(op, 2));
  return true;
}

/* An op that touches every CTA of the cluster, compiled as one event per
 * CTA, the one for CTA r touching r's barrier or slot: a multicast copy
 * moves 1 / size of the tile into each, an arrival with `cluster` is one a
 * warp on each (a commit's: one, aux = 1, landing once the MMAs it tracks
 * are done), a pair's MMA writes the accumulator rows of each. */
static bool spread_over_cluster(ws_program *P, MlirOperation op, int kind, bool commit) {
  int size = ws_plan_cluster_size(P->plan);
  for (int r = 0; r < size; r++) {
    if (!compile_event(P, op, kind))
      return false;
    insn *i = &P->code[P->n - 1];
    i->cta = r;
    if (kind == EV_TMA_LOAD)
      i->ev.value /= size;
    else if (commit)
      i->ev.aux = 1;
    else if (kind == EV_ARRIVE)
      i->ev.per_warp = true;
  }
  return true;
}

/* ws.commit: the commit (which retires this thread's tcgen05 ops), then
 * its arrival on the barrier (aux = 1: by tcgen05.commit), on every CTA's
 * with `cluster` (multicast). */
static bool compile_commit(ws_program *P, MlirOperation op) {
  emit(P, C_EVENT, op)->ev =
      (ws_event){.op = op, .kind = EV_TC_COMMIT, .ring = -1, .ring_b = -1, .channel = -1};
  if (ws_has_attr(op, "cluster"))
    return spread_over_cluster(P, op, EV_ARRIVE, true);
  if (!compile_event(P, op, EV_ARRIVE))
    return false;
  P->code[P->n - 1].ev.aux = 1;
  return true;
}

/* An op that touches the pair's leader (rank 0) whatever CTA runs it: an
 * arrival with `leader` (one a warp), or a copy into a channel whose full
 * barrier is the leader's (its own slot, whose data the model keys to the
 * leader's barrier: the pair's MMA reads every CTA's slot once that one
 * completes; a split ring's copy is 1 / size of the tile). */
static bool at_leader(ws_program *P, MlirOperation op, int kind) {
  if (!compile_event(P, op, kind))
    return false;
  insn *i = &P->code[P->n - 1];
  i->cta = 0;
  if (kind == EV_ARRIVE)
    i->ev.per_warp = true;
  else if (P->plan->rings[i->ev.ring].split)
    i->ev.value /= ws_plan_cluster_size(P->plan);
  return true;
}

/* Whether v may hold a product a ws.mma writes asynchronously: its
 * result, or a value a loop or an scf.if carries (a loop's accumulator) or
 * a select picks, which the run's registers follow to the ws.mma that made
 * it. Splats, slots and the results of math are never one. */
static bool may_hold_product(MlirValue v) {
  if (!mlirTypeIsARankedTensor(mlirValueGetType(v)))
    return false;
  if (mlirValueIsABlockArgument(v))
    return true;
  MlirOperation def = mlirOpResultGetOwner(v);
  return wsOperationIsA(def, "mma") || ws_op_is(def, "scf.for") || ws_op_is(def, "scf.if") ||
         ws_op_is(def, "arith.select");
}

/* A read of tile v in registers by op (math, a register A, a slot write):
 * a check that the wgmma of the ws.mma that made v, if one did, is retired
 * first (EV_MMA_DONE, aux 1), once per value and block. A ws.mma's own
 * accumulator chains onto the wgmma before it and is no such read. */
static void check_product_read(ws_program *P, MlirOperation op, MlirValue v) {
  if (!may_hold_product(v))
    return;
  for (int k = 0; k < P->num_checked; k++)
    if (mlirValueEqual(P->checked[k], v))
      return;
  P->checked = ws_grow(P->checked, &P->checked_cap, P->num_checked + 1, sizeof *P->checked);
  P->checked[P->num_checked++] = v;
  insn *i = emit(P, C_EVENT, op);
  i->ev =
      (ws_event){.op = op, .kind = EV_MMA_DONE, .ring = -1, .ring_b = -1, .channel = -1, .aux = 1};
  i->dst = program_reg_of(P, v);
}

/* The reads of op that check_product_read covers: every tile operand of
 * math, a ws.mma's A in registers, a slot write's tile. */
static void check_product_reads(ws_program *P, MlirOperation op, const char *name, int kind) {
  if (kind == EV_MMA) {
    if (mlirOperationGetNumOperands(op) > 2)
      check_product_read(P, op, operand(op, 2));
    return;
  }
  if (kind == EV_WRITE) {
    check_product_read(P, op, operand(op, 0));
    return;
  }
  if (kind >= 0 || strncmp(name, "scf.", 4) == 0 || wsOperationIsA(op, "mma_done"))
    return;
  for (intptr_t k = 0; k < mlirOperationGetNumOperands(op); k++)
    check_product_read(P, op, operand(op, k));
}

static bool compile_op(ws_program *P, MlirOperation op) {
  char name[64];
  ws_op_name(op, name, sizeof name);
  int kind = event_kind(op, name);
  check_product_reads(P, op, name, kind);
  if (kind == EV_ARRIVE && ws_has_attr(op, "cluster"))
    return spread_over_cluster(P, op, kind, false);
  if (kind == EV_ARRIVE && ws_has_attr(op, "leader"))
    return at_leader(P, op, kind);
  if (kind == EV_TMA_LOAD) {
    int r = ws_int_attr(op, "ring", -1);
    const ws_ring *ring = r >= 0 && r < P->plan->num_rings ? &P->plan->rings[r] : NULL;
    if (ring && ring->split == WS_SPLIT_MULTICAST)
      return spread_over_cluster(P, op, kind, false);
    if (ring && P->plan->channels[ring->channel].full_to == WS_REACH_LEADER)
      return at_leader(P, op, kind);
  }
  if (kind == EV_MMA) { /* its reads, its tile's maker (C_MMA_ID), A's reads */
    if (!compile_event(P, op, kind))
      return false;
    emit(P, C_MMA_ID, op)->dst = program_reg_of(P, result(op, 0));
    return compile_mma_a(P, op);
  }
  if (kind == EV_TC_MMA) /* its ring reads, then its accumulator write (a pair's: in each CTA) */
    return compile_event(P, op, kind) &&
           (ws_plan_is_pair(P->plan) ? spread_over_cluster(P, op, EV_TMEM_WRITE, false)
                                     : compile_event(P, op, EV_TMEM_WRITE));
  if (kind == EV_TC_COMMIT)
    return compile_commit(P, op);
  if (kind >= 0)
    return compile_event(P, op, kind);
  if (strcmp(name, "scf.if") == 0)
    return compile_if(P, op);
  if (strcmp(name, "scf.for") == 0)
    return compile_for(P, op);
  if (strcmp(name, "scf.yield") == 0)
    return true; /* compiled with its parent */
  if (strcmp(name, "gpu.return") == 0) {
    emit(P, C_RETURN, op);
    return true;
  }
  if (strcmp(name, "ws.slot_phase") == 0) {
    insn *i = emit(P, C_SLOT_PHASE, op);
    i->a = program_reg_of(P, operand(op, 0));
    i->dst = program_reg_of(P, result(op, 0));
    i->b = program_reg_of(P, result(op, 1));
    i->imm = ws_int_attr(op, "depth", 0);
    i->sub = ws_int_attr(op, "start_phase", 0);
    if (i->imm < 1)
      return program_fail(P, op, "its depth is not positive");
    return true;
  }
  if (wsOperationIsA(op, "stream_k_unit")) { /* its K steps: the run's, per tile */
    insn *i = emit(P, C_STREAM_K, op);
    i->dst = program_reg_of(P, result(op, 0));
    i->a = program_reg_of(P, result(op, 1));
    i->b = program_reg_of(P, result(op, 2));
    i->c = program_reg_of(P, result(op, 3));
    P->stream_k = true;
    return true;
  }
  if (wsOperationIsInDialect(op) && !computes_tiles(op))
    return program_fail(P, op, "it is not one of the protocol ops of a specialized kernel");
  if (synchronizes_unmodelled(name)) {
    ws_emit_op_error(op, "breaks the protocol rule 'barrier': it synchronizes threads or moves "
                         "shared memory outside the ws protocol ops the check follows (ws.wait, "
                         "ws.arrive, ws.tma_load and the others ws-specialize writes, "
                         "nvvm.barrier0, named barriers); a specialized kernel takes none");
    P->failed = true;
    return false;
  }
  if (mlirOperationGetNumRegions(op) > 0 && holds_protocol(op))
    return program_fail(P, op,
                        "protocol ops inside it are outside scf.if and scf.for, "
                        "which is all the check follows");
  intptr_t nres = mlirOperationGetNumResults(op);
  int dst = nres == 1 ? program_reg_of(P, result(op, 0)) : -1;
  if (strcmp(name, "arith.constant") == 0 && dst >= 0 && P->width[dst]) {
    MlirAttribute v = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("value"));
    if (mlirAttributeIsAInteger(v)) {
      insn *i = emit(P, C_CONST, op);
      i->dst = dst;
      i->imm = P->width[dst] == 1 ? (long long)mlirIntegerAttrGetValueUInt(v) & 1
                                  : mlirIntegerAttrGetValueInt(v);
      return true;
    }
  }
  if (dst >= 0 && P->width[dst]) {
    for (size_t k = 0; k < sizeof bin_ops / sizeof bin_ops[0]; k++)
      if (strcmp(name, bin_ops[k].name) == 0) {
        insn *i = emit(P, C_BIN, op);
        i->sub = bin_ops[k].bin;
        i->dst = dst;
        i->a = program_reg_of(P, operand(op, 0));
        i->b = program_reg_of(P, operand(op, 1));
        return true;
      }
    for (size_t k = 0; k < sizeof cast_ops / sizeof cast_ops[0]; k++)
      if (strcmp(name, cast_ops[k].name) == 0) {
        insn *i = emit(P, C_CAST, op);
        i->sub = cast_ops[k].sign;
        i->dst = dst;
        i->a = program_reg_of(P, operand(op, 0));
        return true;
      }
    if (strcmp(name, "arith.cmpi") == 0) {
      insn *i = emit(P, C_CMP, op);
      i->sub = ws_int_attr(op, "predicate", -1);
      i->dst = dst;
      i->a = program_reg_of(P, operand(op, 0));
      i->b = program_reg_of(P, operand(op, 1));
      return true;
    }
    if (strcmp(name, "arith.select") == 0) {
      insn *i = emit(P, C_SELECT, op);
      i->dst = dst;
      i->a = program_reg_of(P, operand(op, 0));
      i->b = program_reg_of(P, operand(op, 1));
      i->c = program_reg_of(P, operand(op, 2));
      return true;
    }
    if (strcmp(name, "nvvm.read.ptx.sreg.tid.x") == 0 ||
        (strcmp(name, "gpu.thread_id") == 0 && ws_string_attr_is(op, "dimension", "x")) ||
        strcmp(name, "nvvm.read.ptx.sreg.laneid") == 0) {
      insn *i = emit(P, C_TID, op);
      i->dst = dst;
      i->sub = strcmp(name, "nvvm.read.ptx.sreg.laneid") == 0;
      return true;
    }
    if (strcmp(name, "nvvm.elect.sync") == 0) {
      emit(P, C_ELECT, op)->dst = dst;
      return true;
    }
    if (strcmp(name, "nvvm.read.ptx.sreg.cluster.ctarank") == 0 ||
        strcmp(name, "gpu.cluster_block_id") == 0) { /* a cluster spans one dimension */
      insn *i = emit(P, C_RANK, op);
      i->dst = dst;
      int d = ws_gpu_dimension(op) > 0 ? ws_gpu_dimension(op) : 0; /* unknown: x */
      i->sub = strcmp(name, "gpu.cluster_block_id") == 0 &&
               (d > 1 || P->plan->cluster[d] < 2); /* not along it: 0 */
      return true;
    }
  }
  for (intptr_t k = 0; k < nres; k++)
    emit(P, C_UNKNOWN, op)->dst = program_reg_of(P, result(op, k));
  return true;
}

/* A block's reads are checked once each (check_product_read): the checks
 * of the blocks around it, made before it, cover it; its own end with it. */
static bool compile_block(ws_program *P, MlirBlock block) {
  int outer = P->num_checked;
  bool ok = true;
  for (MlirOperation op = mlirBlockGetFirstOperation(block); ok && !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    ok = compile_op(P, op);
  P->num_checked = outer;
  return ok;
}

static int gcd(int a, int b) { return b ? gcd(b, a % b) : a; }

/* A loop without protocol ops over the bounds of a level (the ping-pong
 * consumers' count of a tile's K steps) runs that level's trip count, so
 * that what it computes is known; other such loops are skipped. */
static void mark_counted_loops(ws_program *P) {
  for (int k = 0; k < P->n; k++) {
    insn *f = &P->code[k];
    if (f->code != C_FOR || f->protocol)
      continue;
    for (int l = 0; l < P->levels; l++)
      if (f->a == program_reg_of(P, P->level[l].lb) && f->b == program_reg_of(P, P->level[l].ub) &&
          f->c == program_reg_of(P, P->level[l].step)) {
        f->imm = l;
        f->sub = 1;
      }
  }
}

static int lcm(int a, int b) { return a / gcd(a, b) * b; }

ws_program *ws_protocol_compile(MlirOperation func, const ws_plan *plan) {
  ws_program *P = calloc(1, sizeof *P);
  if (!P)
    abort();
  P->plan = plan;
  P->func = func;
  P->period = 1;
  P->open_level = -1;
  for (int c = 0; c < plan->num_channels; c++)
    if (plan->channels[c].depth > 0)
      P->period = lcm(P->period, plan->channels[c].depth);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  if (!compile_block(P, body)) {
    ws_protocol_free(P);
    return NULL;
  }
  emit(P, C_RETURN, func);
  mark_counted_loops(P);
  P->val = calloc((size_t)P->nregs + 1, sizeof *P->val);
  P->iterv = calloc((size_t)P->nregs + 1, sizeof *P->iterv);
  P->roundv = calloc((size_t)P->nregs + 1, sizeof *P->roundv);
  P->known = calloc((size_t)P->nregs + 1, 1);
  P->pinned = calloc((size_t)P->nregs + 1, 1);
  P->carry_val = ws_zalloc((size_t)P->most_carried, sizeof *P->carry_val);
  P->carry_known = ws_zalloc((size_t)P->most_carried, 1);
  if (!P->val || !P->iterv || !P->roundv || !P->known || !P->pinned)
    abort();
  return P;
}

void ws_protocol_free(ws_program *P) {
  if (!P)
    return;
  free(P->code);
  free(P->args);
  free(P->checked);
  free(P->width);
  free(P->keys);
  free(P->vals);
  free(P->val);
  free(P->iterv);
  free(P->roundv);
  free(P->known);
  free(P->pinned);
  free(P->scratch);
  free(P->carry_val);
  free(P->carry_known);
  free(P);
}

int ws_protocol_period(const ws_program *P) { return P->period; }

bool ws_protocol_is_nested(const ws_program *P) { return P->levels == 2; }

/* The channels stepped inside the K loops, and those stepped once per
 * tile (the rest). */
static int period_of(const ws_program *P, bool per_k) {
  int period = 1;
  for (int c = 0; c < P->plan->num_channels; c++)
    if (((P->stepped_per_k >> c) & 1) == per_k && P->plan->channels[c].depth > 0)
      period = lcm(period, P->plan->channels[c].depth);
  return period;
}

int ws_protocol_tile_period(const ws_program *P) { return period_of(P, false); }

int ws_protocol_k_period(const ws_program *P) { return period_of(P, true); }
