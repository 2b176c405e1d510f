/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* plan_json.c: the plan as JSON (see plan_json.h). One object per kernel:
 * its launch figures, partitions with their warps and registers, rings,
 * channels with their barriers, registers per warpgroup, and the
 * shared-memory map in address order. Keys and order are fixed, so the
 * output is stable for tools and tests. */
#include "plan_json.h"

#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "ws-c/Plan.h"

/* Writes s as a JSON string body (escaping quotes, backslashes, controls). */
static void json_chars(FILE *out, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\')
      fprintf(out, "\\%c", c);
    else if (c < 0x20)
      fprintf(out, "\\u%04x", c);
    else
      fputc(c, out);
  }
}

static void json_ref(MlirStringRef s, void *out) { json_chars(out, s.data, s.length); }

static void json_string(FILE *out, const char *s) {
  fputc('"', out);
  json_chars(out, s, strlen(s));
  fputc('"', out);
}

typedef struct region {
  int offset, bytes;
  char what[64];
} region;

static int by_offset(const void *a, const void *b) {
  const region *x = a, *y = b;
  return x->offset != y->offset ? (x->offset > y->offset) - (x->offset < y->offset)
                                : (x->bytes < y->bytes) - (x->bytes > y->bytes);
}

static void write_partitions(FILE *out, WsPlan plan) {
  fputs("      \"partitions\": [\n", out);
  for (intptr_t i = 0, n = wsPlanGetNumPartitions(plan); i < n; i++) {
    WsPlanPartition p = wsPlanGetPartition(plan, i);
    fputs("        {\"name\": ", out);
    json_string(out, p.name);
    fputs(", \"role\": ", out);
    json_string(out, p.role);
    fprintf(out, ", \"warps\": [%d, %d], \"registers\": %d}%s\n", p.first_warp,
            p.first_warp + p.num_warps - 1, p.registers, i + 1 < n ? "," : "");
  }
  fputs("      ],\n", out);
}

static void write_rings(FILE *out, WsPlan plan) {
  fputs("      \"rings\": [\n", out);
  for (intptr_t i = 0, n = wsPlanGetNumRings(plan); i < n; i++) {
    WsPlanRing r = wsPlanGetRing(plan, i);
    int depth = wsPlanGetChannel(plan, r.channel).depth;
    fprintf(out, "        {\"index\": %d, \"tile\": \"", (int)i);
    mlirTypePrint(r.tile, json_ref, out);
    fprintf(out,
            "\", \"channel\": %d, \"depth\": %d, \"offset\": %d, \"slot_bytes\": %d, "
            "\"bytes\": %d, \"align\": %d, \"swizzle\": %d",
            r.channel, depth, r.offset, r.slot_bytes, depth * r.slot_bytes, r.align, r.swizzle);
    if (r.parts > 1)
      fprintf(out, ", \"parts\": %d", r.parts);
    fprintf(out, "}%s\n", i + 1 < n ? "," : "");
  }
  fputs("      ],\n", out);
}

static void write_channels(FILE *out, WsPlan plan) {
  fputs("      \"channels\": [\n", out);
  for (intptr_t i = 0, n = wsPlanGetNumChannels(plan); i < n; i++) {
    WsPlanChannel c = wsPlanGetChannel(plan, i);
    fprintf(out, "        {\"index\": %d, \"from\": ", (int)i);
    json_string(out, wsPlanGetPartition(plan, c.from).name);
    fputs(", \"to\": ", out);
    json_string(out, wsPlanGetPartition(plan, c.to).name);
    fprintf(out,
            ", \"depth\": %d,\n         \"barriers\": {\"full\": {\"offset\": %d, "
            "\"count\": %d, \"expect_tx\": %d, \"start_phase\": %d}, \"empty\": "
            "{\"offset\": %d, \"count\": %d, \"start_phase\": %d}},\n"
            "         \"release_fence\": %s, \"publish_fence\": %s, \"stores_in_flight\": "
            "%d}%s\n",
            c.depth, c.full, c.full_arrivals, c.expect_tx, c.consumer_phase, c.empty,
            c.empty_arrivals, c.producer_phase, c.release_fence ? "true" : "false",
            c.publish_fence ? "true" : "false", c.drain, i + 1 < n ? "," : "");
  }
  fputs("      ],\n", out);
}

/* Registers per warpgroup, from the partitions' warps. */
static void write_registers(FILE *out, WsPlan plan, WsPlanKernel k) {
  int groups = (k.block_threads + 127) / 128;
  fprintf(out, "      \"registers\": {\"entry_cap\": %d, \"pool\": %d, \"warpgroups\": [",
          k.max_registers, k.max_registers * k.block_threads);
  long total = 0;
  for (int g = 0; g < groups; g++) {
    int regs = k.max_registers;
    for (intptr_t i = 0; i < wsPlanGetNumPartitions(plan); i++) {
      WsPlanPartition p = wsPlanGetPartition(plan, i);
      if (p.first_warp / 4 <= g && g <= (p.first_warp + p.num_warps - 1) / 4 && p.registers)
        regs = p.registers;
    }
    total += regs * 128L;
    fprintf(out, "%s%d", g ? ", " : "", regs);
  }
  fprintf(out, "], \"total\": %ld},\n", total);
}

/* The tensor-memory map (sm_100a): each accumulator buffer's columns. */
static void write_tmem(FILE *out, WsPlan plan) {
  WsPlanTmem t = wsPlanGetTmem(plan);
  if (mlirTypeIsNull(t.tile))
    return;
  WsPlanChannel c = wsPlanGetChannel(plan, t.channel);
  fprintf(out,
          "      \"tensor_memory\": {\"columns\": %d, \"allocated\": %d, "
          "\"lanes\": 128, \"address\": %d, \"buffers\": [\n",
          t.columns * c.depth, t.allocated, t.address);
  for (int b = 0; b < c.depth; b++) {
    fprintf(out, "        {\"column\": %d, \"columns\": %d, \"channel\": %d, \"tile\": \"",
            b * t.columns, t.columns, t.channel);
    mlirTypePrint(t.tile, json_ref, out);
    fprintf(out, "\"}%s\n", b + 1 < c.depth ? "," : "");
  }
  fputs("      ]},\n", out);
}

static void write_memory_map(FILE *out, WsPlan plan) {
  region map[64];
  int n = 0;
  for (intptr_t i = 0; i < wsPlanGetNumRings(plan) && n < 60; i++) {
    WsPlanRing r = wsPlanGetRing(plan, i);
    map[n] = (region){r.offset, wsPlanGetChannel(plan, r.channel).depth * r.slot_bytes, ""};
    snprintf(map[n++].what, sizeof map[0].what, "ring %d", (int)i);
  }
  for (intptr_t i = 0; i < wsPlanGetNumChannels(plan) && n < 62; i++) {
    WsPlanChannel c = wsPlanGetChannel(plan, i);
    map[n] = (region){c.full, 8 * c.depth, ""};
    snprintf(map[n++].what, sizeof map[0].what, "full barriers of channel %d", (int)i);
    map[n] = (region){c.empty, 8 * c.depth, ""};
    snprintf(map[n++].what, sizeof map[0].what, "empty barriers of channel %d", (int)i);
  }
  WsPlanTmem tmem = wsPlanGetTmem(plan);
  if (!mlirTypeIsNull(tmem.tile)) {
    map[n] = (region){tmem.address, 4, ""};
    snprintf(map[n++].what, sizeof map[0].what, "tensor-memory address");
  }
  WsPlanKernel k = wsPlanGetKernel(plan);
  if (k.row_scratch_bytes)
    map[n++] = (region){k.row_scratch_offset, k.row_scratch_bytes, "row scratch"};
  qsort(map, (size_t)n, sizeof map[0], by_offset);
  fputs("      \"shared_memory\": [\n", out);
  for (int i = 0; i < n; i++) {
    fprintf(out, "        {\"offset\": %d, \"bytes\": %d, \"what\": ", map[i].offset, map[i].bytes);
    json_string(out, map[i].what);
    fprintf(out, "}%s\n", i + 1 < n ? "," : "");
  }
  fputs("      ]\n", out);
}

typedef struct json_walk {
  FILE *out;
  int kernels;
} json_walk;

/* Writes the object of each specialized kernel as the walk finds it. */
static MlirWalkResult write_kernel(MlirOperation op, void *data) {
  json_walk *w = data;
  MlirStringRef op_name = mlirIdentifierStr(mlirOperationGetName(op));
  if (op_name.length != 8 || memcmp(op_name.data, "gpu.func", 8) != 0)
    return MlirWalkResultAdvance;
  WsPlan plan = wsPlanCreate(op);
  if (wsPlanIsNull(plan))
    return MlirWalkResultSkip;
  FILE *out = w->out;
  fputs(w->kernels++ ? ",\n" : "{\n  \"kernels\": [\n", out);
  WsPlanKernel kern = wsPlanGetKernel(plan);
  MlirAttribute name =
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("sym_name"));
  fputs("    {\n      \"name\": \"", out);
  if (mlirAttributeIsAString(name))
    json_ref(mlirStringAttrGetValue(name), out);
  fprintf(out,
          "\",\n      \"block_threads\": %d, \"shared_memory_bytes\": %d, "
          "\"blocks_per_sm\": %d,\n",
          kern.block_threads, kern.shared_memory_bytes, kern.blocks_per_sm);
  write_partitions(out, plan);
  write_rings(out, plan);
  write_channels(out, plan);
  write_registers(out, plan, kern);
  write_tmem(out, plan);
  write_memory_map(out, plan);
  fputs("    }", out);
  wsPlanDestroy(plan);
  return MlirWalkResultSkip;
}

bool plan_json_write(MlirModule module, FILE *out) {
  json_walk w = {out, 0};
  mlirOperationWalk(mlirModuleGetOperation(module), write_kernel, &w, MlirWalkPreOrder);
  if (w.kernels == 0)
    return false; /* the caller says why */
  fputs("\n  ]\n}\n", out);
  return true;
}
