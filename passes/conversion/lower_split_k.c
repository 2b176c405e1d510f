/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* lower_split_k.c: split-K's exchange of partial sums between blocks
 * (ws_lower_split_k.h says what goes where). The exchange is plain global
 * memory, so its ordering is the PTX memory model's: a release store of
 * the flag after the warpgroup's barrier publishes every thread's values
 * (release is cumulative over what the barrier ordered before it), and an
 * acquire load that sees it, then the barrier, makes them visible to the
 * owner's threads. The slots are read with ld.global.cg, at L2, so that
 * no line an SM's L1 kept can stand in for them. */
#include "ws_lower_split_k.h"

#include <stdio.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "ws_lower_fragment.h"

static MlirType i64_of(ws_builder *b) { return mlirIntegerTypeGet(b->ctx, 64); }

static MlirValue to_i64(ws_builder *b, MlirValue v32) {
  return ws_build_value(b, "arith.extui", 1, &v32, i64_of(b), 0, NULL);
}

/* The address of slot `slot` (i32) of the workspace, an i64. */
static MlirValue slot_address(ws_builder *b, const ws_split_k_site *s, MlirValue slot) {
  MlirValue off =
      ws_arith(b, "arith.muli", to_i64(b, slot), ws_const_int(b, s->slot_bytes, i64_of(b)));
  return ws_arith(b, "arith.addi", s->workspace, off);
}

/* The address of this thread's 16 bytes of quad 0 in the slot at `base`. */
static MlirValue thread_address(ws_builder *b, const ws_split_k_site *s, MlirValue base) {
  MlirValue off = ws_arith(b, "arith.muli", to_i64(b, s->holder), ws_const_int(b, 16, i64_of(b)));
  return ws_arith(b, "arith.addi", base, off);
}

/* The address of this thread's warpgroup's flag in the slot at `base`. */
static MlirValue flag_address(ws_builder *b, const ws_split_k_site *s, MlirValue base) {
  MlirValue group = ws_arith(b, "arith.divui", s->holder, ws_const_i32(b, 128));
  long long tile_bytes = (long long)s->count * s->holders * 4;
  MlirValue off =
      ws_arith(b, "arith.addi", ws_const_int(b, tile_bytes, i64_of(b)),
               ws_arith(b, "arith.muli", to_i64(b, group), ws_const_int(b, 4, i64_of(b))));
  return ws_arith(b, "arith.addi", base, off);
}

static MlirValue quad_address(ws_builder *b, const ws_split_k_site *s, MlirValue at, int q) {
  return ws_arith(b, "arith.addi", at, ws_const_int(b, (long long)q * s->holders * 16, i64_of(b)));
}

/* The warpgroup meets at its named barrier. */
static void warpgroup_barrier(ws_builder *b, const ws_split_k_site *s) {
  MlirValue ops[2] = {s->barrier, ws_const_i32(b, 128)};
  MlirNamedAttribute seg = ws_named_text(b->ctx, "operandSegmentSizes", "array<i32: 1, 1, 0>");
  ws_build_void(b, "nvvm.barrier", 2, ops, 1, &seg);
}

/* A builder inside `scf.if cond` (no results). */
static ws_builder inside_if(ws_builder *b, MlirValue cond) {
  MlirBlock then_block;
  ws_build_if(b, cond, &then_block, NULL);
  return ws_builder_before(mlirBlockGetTerminator(then_block));
}

/* The first thread of the warpgroup. */
static MlirValue first_of_warpgroup(ws_builder *b, const ws_split_k_site *s) {
  MlirValue lane = ws_arith(b, "arith.remui", s->holder, ws_const_i32(b, 128));
  return ws_cmpi(b, "eq", lane, ws_const_i32(b, 0));
}

/* A contributor: its values into its slot, then its flag. */
static void publish(ws_builder *b, const ws_split_k_site *s, MlirValue slot, const MlirValue *acc) {
  MlirValue base = slot_address(b, s, slot), at = thread_address(b, s, base);
  for (int q = 0; q < s->count / 4; q++) {
    MlirValue ops[5] = {quad_address(b, s, at, q), acc[4 * q], acc[4 * q + 1], acc[4 * q + 2],
                        acc[4 * q + 3]};
    ws_build_inline_asm(b, "st.global.v4.f32 [$0], {$1, $2, $3, $4};", "l,f,f,f,f", 5, ops,
                        (MlirType){NULL});
  }
  warpgroup_barrier(b, s);
  ws_builder first = inside_if(b, first_of_warpgroup(b, s));
  MlirValue flag = flag_address(&first, s, base);
  ws_build_inline_asm(&first, "st.release.gpu.global.u32 [$0], 1;", "l", 1, &flag,
                      (MlirType){NULL});
}

/* One thread of the owner's warpgroup waits for each contributor's flag
 * (slots first .. first + n - 1) and clears it. */
static void wait_for_contributors(ws_builder *b, const ws_split_k_site *s, MlirValue first,
                                  MlirValue n) {
  ws_builder one = inside_if(b, first_of_warpgroup(b, s));
  MlirBlock body;
  ws_build_for(&one, ws_const_i32(&one, 0), n, ws_const_i32(&one, 1), 0, NULL, &body);
  ws_build_terminator(body, b->loc, "scf.yield", 0, NULL);
  ws_builder in = ws_builder_before(mlirBlockGetTerminator(body));
  MlirValue slot = ws_arith(&in, "arith.addi", first, mlirBlockGetArgument(body, 0));
  MlirValue flag = flag_address(&in, s, slot_address(&in, s, slot));
  ws_build_inline_asm(
      &in,
      "{\n\t.reg .pred ready;\n\t.reg .b32 v;\n"
      "SPLIT_K_WAIT:\n\tld.acquire.gpu.global.u32 v, [$0];\n\tsetp.ne.u32 ready, v, 0;\n"
      "\t@!ready nanosleep.u32 64;\n\t@!ready bra SPLIT_K_WAIT;\n"
      "\tst.relaxed.gpu.global.u32 [$0], 0;\n}",
      "l", 1, &flag, (MlirType){NULL});
}

/* The owner's sum: its values (`mine`, one struct) plus slots first ..
 * first + n - 1, in that order, carried through the loop as that struct. */
static MlirValue add_contributions(ws_builder *b, const ws_split_k_site *s, MlirValue first,
                                   MlirValue n, MlirValue init) {
  ws_fragment f = {.count = s->count};
  MlirBlock body;
  MlirOperation loop = ws_build_for(b, ws_const_i32(b, 0), n, ws_const_i32(b, 1), 1, &init, &body);
  ws_builder in = ws_builder_at_end(body, b->loc);
  ws_fragment_unpack(&in, mlirBlockGetArgument(body, 1), &f);
  MlirValue slot = ws_arith(&in, "arith.addi", first, mlirBlockGetArgument(body, 0));
  MlirValue at = thread_address(&in, s, slot_address(&in, s, slot));
  MlirType f32 = mlirF32TypeGet(b->ctx);
  MlirType quad = ws_type(b->ctx, "!llvm.struct<(f32, f32, f32, f32)>");
  for (int q = 0; q < s->count / 4; q++) {
    MlirValue addr = quad_address(&in, s, at, q);
    MlirValue v = mlirOperationGetResult(
        ws_build_inline_asm(&in, "ld.global.cg.v4.f32 {$0, $1, $2, $3}, [$4];", "=f,=f,=f,=f,l", 1,
                            &addr, quad),
        0);
    for (int e = 0; e < 4; e++) {
      char pos[32];
      snprintf(pos, sizeof pos, "array<i64: %d>", e);
      MlirNamedAttribute attr = ws_named_text(b->ctx, "position", pos);
      MlirValue x = ws_build_value(&in, "llvm.extractvalue", 1, &v, f32, 1, &attr);
      f.values[4 * q + e] = ws_arith(&in, "arith.addf", f.values[4 * q + e], x);
    }
  }
  MlirValue next = ws_fragment_pack(&in, &f);
  ws_build_terminator(body, b->loc, "scf.yield", 1, &next);
  return mlirOperationGetResult(loop, 0);
}

/* A contributor's half of the exchange at b: when `contributes`, its
 * values go to slot `slot`. */
static void publish_if(ws_builder *b, const ws_split_k_site *s, MlirValue contributes,
                       MlirValue slot, const MlirValue *acc) {
  ws_builder c = inside_if(b, contributes);
  publish(&c, s, slot, acc);
}

/* An owner's half: when `owns`, it waits for slots first .. first + n - 1
 * and sum is acc plus them, in slot order; else sum is acc. */
static void sum_if_owner(ws_builder *b, const ws_split_k_site *s, MlirValue owns, MlirValue first,
                         MlirValue n, const MlirValue *acc, MlirValue *sum) {
  ws_fragment f = {.count = s->count};
  for (int i = 0; i < s->count; i++)
    f.values[i] = acc[i];
  MlirValue mine = ws_fragment_pack(b, &f);
  MlirType type = mlirValueGetType(mine);
  MlirBlock then_block, else_block;
  MlirOperation pick = ws_build_if_values(b, owns, 1, &type, &then_block, &else_block);
  ws_builder t = ws_builder_at_end(then_block, b->loc);
  wait_for_contributors(&t, s, first, n);
  warpgroup_barrier(&t, s);
  MlirValue total = add_contributions(&t, s, first, n, mine);
  ws_build_terminator(then_block, b->loc, "scf.yield", 1, &total);
  ws_build_terminator(else_block, b->loc, "scf.yield", 1, &mine);
  ws_fragment_unpack(b, mlirOperationGetResult(pick, 0), &f);
  for (int i = 0; i < s->count; i++)
    sum[i] = f.values[i];
}

void ws_emit_split_k_sum(ws_builder *b, const ws_split_k_site *s, MlirValue unit, MlirValue splits,
                         const MlirValue *acc, MlirValue *sum) {
  MlirValue one = ws_const_i32(b, 1);
  MlirValue last = ws_arith(b, "arith.subi", splits, one);
  MlirValue split = ws_arith(b, "arith.remui", unit, splits);
  MlirValue tile = ws_arith(b, "arith.divui", unit, splits);
  MlirValue first = ws_arith(b, "arith.muli", tile, last); /* the tile's first slot */
  /* a contributor: splits before the last */
  publish_if(b, s, ws_cmpi(b, "ult", split, last), ws_arith(b, "arith.addi", first, split), acc);
  /* the owner of a split tile: the last split, when there are others */
  MlirValue owner = ws_arith(b, "arith.andi", ws_cmpi(b, "eq", split, last),
                             ws_cmpi(b, "ugt", last, ws_const_i32(b, 0)));
  sum_if_owner(b, s, owner, first, last, acc, sum);
}

void ws_emit_stream_k_sum(ws_builder *b, const ws_split_k_site *s, MlirValue k_begin,
                          MlirValue k_end, MlirValue k_steps, const MlirValue *acc,
                          MlirValue *sum) {
  MlirValue zero = ws_const_i32(b, 0), one = ws_const_i32(b, 1);
  MlirValue block = ws_build_value(b, "nvvm.read.ptx.sreg.ctaid.x", 0, NULL,
                                   mlirIntegerTypeGet(b->ctx, 32), 0, NULL);
  /* a unit that starts its tile and stops inside it publishes in its
   * block's slot */
  publish_if(b, s,
             ws_arith(b, "arith.andi", ws_cmpi(b, "eq", k_begin, zero),
                      ws_arith(b, "arith.andi", ws_cmpi(b, "ugt", k_end, zero),
                               ws_cmpi(b, "ult", k_end, k_steps))),
             block, acc);
  /* one that starts inside its tile and ends it adds the previous block's */
  MlirValue owns = ws_arith(b, "arith.andi", ws_cmpi(b, "ugt", k_begin, zero),
                            ws_cmpi(b, "ult", k_begin, k_end));
  sum_if_owner(b, s, owns, ws_arith(b, "arith.subi", block, one), one, acc, sum);
}

static MlirValue clamp64(ws_builder *b, MlirValue v, MlirValue lo, MlirValue hi) {
  return ws_arith(b, "arith.minsi", ws_arith(b, "arith.maxsi", v, lo), hi);
}

static MlirValue trunc32(ws_builder *b, MlirValue v) {
  return ws_build_value(b, "arith.trunci", 1, &v, mlirIntegerTypeGet(b->ctx, 32), 0, NULL);
}

void ws_emit_stream_k_unit(ws_builder *b, const MlirValue in[5], MlirValue out[4]) {
  MlirType i64 = i64_of(b);
  MlirValue unit = in[0], whole = in[1], tiles = in[2], k_steps = in[3], grid = in[4];
  /* past the whole tiles: unit j (0, 1, 2) of block `block`'s run */
  MlirValue v = ws_arith(b, "arith.subi", unit, whole);
  MlirValue j = to_i64(b, ws_arith(b, "arith.divui", v, grid));
  MlirValue block = to_i64(b, ws_arith(b, "arith.remui", v, grid));
  MlirValue g = to_i64(b, grid), S = to_i64(b, k_steps), one = ws_const_int(b, 1, i64);
  MlirValue left = to_i64(b, ws_arith(b, "arith.subi", tiles, whole));
  MlirValue shared = ws_arith(b, "arith.muli", left, S);
  /* the block's K steps among the shared ones: [g0, g1) */
  MlirValue g0 = ws_arith(b, "arith.divui", ws_arith(b, "arith.muli", block, shared), g);
  MlirValue g1 =
      ws_arith(b, "arith.divui",
               ws_arith(b, "arith.muli", ws_arith(b, "arith.addi", block, one), shared), g);
  /* its tiles last first: unit j is tile (g1 - 1) / S - j */
  MlirValue s1 = ws_arith(b, "arith.maxui", S, one), zero = ws_const_int(b, 0, i64);
  MlirValue t = ws_arith(b, "arith.subi",
                         ws_arith(b, "arith.divui", ws_arith(b, "arith.subi", g1, one), s1), j);
  MlirValue start = ws_arith(b, "arith.muli", t, s1);
  MlirValue kb = clamp64(b, ws_arith(b, "arith.subi", g0, start), zero, S);
  MlirValue ke = clamp64(b, ws_arith(b, "arith.subi", g1, start), zero, S);
  MlirValue empty = ws_arith(b, "arith.ori", ws_cmpi(b, "sge", kb, ke), ws_cmpi(b, "ule", g1, g0));
  /* a whole tile starts where the run's first unit (the head of its last
   * tile, g1 % S steps) left off; a part runs in order */
  MlirValue head = ws_arith(b, "arith.remui", g1, s1);
  MlirValue is_tile =
      ws_arith(b, "arith.andi", ws_cmpi(b, "eq", kb, zero), ws_cmpi(b, "eq", ke, S));
  MlirValue ks = ws_arith(b, "arith.addi", kb, ws_select(b, is_tile, head, zero));
  MlirValue z32 = ws_const_i32(b, 0);
  MlirValue last = ws_arith(b, "arith.subi", tiles, ws_const_i32(b, 1));
  MlirValue tile =
      ws_arith(b, "arith.minui", ws_arith(b, "arith.addi", whole, trunc32(b, t)), last);
  MlirValue part[3] = {trunc32(b, kb), trunc32(b, ke), trunc32(b, ks)};
  /* a whole tile of the first ones: itself, all its K steps */
  MlirValue is_whole = ws_cmpi(b, "ult", unit, whole);
  out[0] = ws_select(b, is_whole, unit, tile);
  out[1] = ws_select(b, is_whole, z32, ws_select(b, empty, z32, part[0]));
  out[2] = ws_select(b, is_whole, k_steps, ws_select(b, empty, z32, part[1]));
  out[3] = ws_select(b, is_whole, z32, ws_select(b, empty, z32, part[2]));
}
