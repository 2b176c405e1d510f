/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* target.c: the chip and MMA-engine tables of ws_target.h, and the
 * look-ups every pass makes through them. */
#include "ws_target.h"

#include <stdio.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "../../dialect/ws_text.h"

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* wgmma (sm_90a): f16 and bf16 at K = 16 per instruction, A from shared
 * memory or registers, B N x K or K x N; the FP8 pairs (e4m3 and e5m2, any
 * mix) at K = 32, B K-major from shared memory, A K-major from shared
 * memory or from registers (four bytes of a row per register, the quad's
 * layout of mma's k32 fragments); accumulating in
 * f32 registers of the consumer warpgroups; N a multiple of 8 up to 256. */
static const ws_mma_form wgmma_forms[] = {
    {WsDtypeF16, WsDtypeF16, 16, "f16", "f16", 0, 0, true, false, ""},
    {WsDtypeBF16, WsDtypeBF16, 16, "bf16", "bf16", 0, 0, true, false, ""},
    {WsDtypeF8E4M3FN, WsDtypeF8E4M3FN, 32, "e4m3", "e4m3", 0, 0, true, true, ""},
    {WsDtypeF8E4M3FN, WsDtypeF8E5M2, 32, "e4m3", "e5m2", 0, 0, true, true, ""},
    {WsDtypeF8E5M2, WsDtypeF8E4M3FN, 32, "e5m2", "e4m3", 0, 0, true, true, ""},
    {WsDtypeF8E5M2, WsDtypeF8E5M2, 32, "e5m2", "e5m2", 0, 0, true, true, ""},
};
static const ws_mma_engine wgmma = {
    .name = "wgmma",
    .forms = wgmma_forms,
    .num_forms = COUNT(wgmma_forms),
    .accumulator = WS_ACC_REGISTERS,
    .mma_partition = false,
    .check_dot = ws_check_dot_for_wgmma,
    .check_operands = ws_check_wgmma_operands,
    .a_from_registers = true,
    .a_m_major = true,
    .loop_math = true,
    .n_multiple = 8,
    .n_max = 256,
};

/* tcgen05.mma (sm_100a), into an f32 accumulator in tensor memory, issued
 * by one thread of an MMA warp, A and B from shared memory, N a multiple
 * of 16 up to 256 at M = 128: kind::f16 on f16 and bf16 (instruction-
 * descriptor formats 0 and 1) at K = 16, B N x K or K x N; kind::f8f6f4
 * on e4m3 and e5m2 (formats 0 and 1, any mix) at K = 32, both K-major. */
static const ws_mma_form tcgen05_forms[] = {
    {WsDtypeF16, WsDtypeF16, 16, "f16", "f16", 0, 0, false, false, "f16"},
    {WsDtypeBF16, WsDtypeBF16, 16, "bf16", "bf16", 1, 1, false, false, "f16"},
    {WsDtypeF8E4M3FN, WsDtypeF8E4M3FN, 32, "e4m3", "e4m3", 0, 0, false, true, "f8f6f4"},
    {WsDtypeF8E4M3FN, WsDtypeF8E5M2, 32, "e4m3", "e5m2", 0, 1, false, true, "f8f6f4"},
    {WsDtypeF8E5M2, WsDtypeF8E4M3FN, 32, "e5m2", "e4m3", 1, 0, false, true, "f8f6f4"},
    {WsDtypeF8E5M2, WsDtypeF8E5M2, 32, "e5m2", "e5m2", 1, 1, false, true, "f8f6f4"},
};
/* tcgen05.mma kind::mxf8f6f4 with block scaling (scale_vec::1X): e4m3 and
 * e5m2 at K = 32, one ue8m0 exponent per row and 32 of K, copied into
 * tensor memory with tcgen05.cp 32x128b.warpx4 from atoms of 32 rows of
 * 16 bytes (for 128 rows and 128 of K: byte 4 q + j of row r is row
 * 32 q + r's exponent of K block j), each 4 columns of all 128 lanes
 * there. */
static const ws_mma_form tcgen05_scaled_forms[] = {
    {WsDtypeF8E4M3FN, WsDtypeF8E4M3FN, 32, "e4m3", "e4m3", 0, 0, false, true, "mxf8f6f4"},
    {WsDtypeF8E4M3FN, WsDtypeF8E5M2, 32, "e4m3", "e5m2", 0, 1, false, true, "mxf8f6f4"},
    {WsDtypeF8E5M2, WsDtypeF8E4M3FN, 32, "e5m2", "e4m3", 1, 0, false, true, "mxf8f6f4"},
    {WsDtypeF8E5M2, WsDtypeF8E5M2, 32, "e5m2", "e5m2", 1, 1, false, true, "mxf8f6f4"},
};
static const ws_mma_engine tcgen05 = {
    .name = "tcgen05.mma",
    .forms = tcgen05_forms,
    .num_forms = COUNT(tcgen05_forms),
    .accumulator = WS_ACC_TENSOR_MEMORY,
    .mma_partition = true,
    .check_dot = ws_check_dot_for_tcgen05,
    .a_from_registers = false,
    .a_m_major = false,
    .loop_math = false,
    .n_multiple = 16,
    .n_max = 256,
    .pair_mma = true,
    .scaled_forms = tcgen05_scaled_forms,
    .num_scaled_forms = COUNT(tcgen05_scaled_forms),
    .scale_block = 32,
    .scale_atom_rows = 128,
    .scale_atom_k = 128,
    .scale_atom_shape = {32, 16},
    .scale_atom_columns = 4,
};

/* Both chips: 227 KiB of shared memory per block out of 228 KiB per SM,
 * 64 K registers per SM, at most 256 per thread. sm_100a adds 512 columns
 * of tensor memory and needs PTX 8.8 for tcgen05 (block_scale). Clusters:
 * both chips run up to 8 CTAs a cluster; ws builds pairs on both (sm_90a
 * multicasts the shared operand across them; sm_100a's pair issues one
 * MMA: its engine's pair_mma). SMs: 132 on the H100 SXM, 148 on the
 * B200. Parameters: 4096 bytes a kernel, as PTX ISA 8.0 allows (8.1
 * raised it to 32764 where the driver takes it; ws keeps to the bound
 * every driver of both chips takes). A block runs at most 1024 threads. */
static const ws_target targets[] = {
    {"sm_90a", "+ptx80", 232448, 233472, 0, 65536, 256, &wgmma, 2, 132, 1024, 4096, 1024},
    {"sm_100a", "+ptx88", 232448, 233472, 512, 65536, 256, &tcgen05, 2, 148, 1024, 4096, 1024},
};

const ws_target *ws_target_find(const char *chip) {
  for (int i = 0; i < COUNT(targets); i++)
    if (strcmp(targets[i].chip, chip) == 0)
      return &targets[i];
  return NULL;
}

const char *ws_target_chips(char *buf, size_t cap) {
  size_t len = 0;
  buf[0] = 0;
  for (int i = 0; i < COUNT(targets) && len < cap; i++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%s",
                            i == 0                    ? ""
                            : i + 1 == COUNT(targets) ? " or "
                                                      : ", ",
                            targets[i].chip);
  return buf;
}

const char *ws_target_chip(MlirOperation op, char *buf, size_t cap) {
  buf[0] = 0;
  MlirOperation module = ws_op_is(op, "gpu.module") ? op : ws_enclosing_op(op, "gpu.module");
  MlirAttribute targets_attr =
      mlirOperationIsNull(module)
          ? (MlirAttribute){NULL}
          : mlirOperationGetAttributeByName(module, mlirStringRefCreateFromCString("targets"));
  if (mlirAttributeIsNull(targets_attr) || !mlirAttributeIsAArray(targets_attr) ||
      mlirArrayAttrGetNumElements(targets_attr) == 0)
    return buf;
  char printed[512];
  return ws_nvvm_chip(
      ws_attr_str(mlirArrayAttrGetElement(targets_attr, 0), printed, sizeof printed), buf, cap);
}

const ws_target *ws_target_of(MlirOperation op) {
  char chip[64];
  return ws_target_find(ws_target_chip(op, chip, sizeof chip));
}

const ws_mma_engine *ws_mma_engine_of(MlirOperation op) {
  const ws_target *t = ws_target_of(op);
  return t ? t->mma : NULL;
}

static const ws_mma_form *find_form(const ws_mma_form *forms, int num, MlirType a, MlirType b) {
  WsDtype da = wsElementTypeGetDtype(a), db = wsElementTypeGetDtype(b);
  for (int i = 0; i < num; i++)
    if (forms[i].a == da && forms[i].b == db)
      return &forms[i];
  return NULL;
}

static const char *form_list(const ws_mma_form *forms, int num, char *buf, size_t cap) {
  size_t len = 0;
  buf[0] = 0;
  for (int i = 0; i < num && len < cap; i++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%s x %s",
                            i == 0         ? ""
                            : i + 1 == num ? " or "
                                           : ", ",
                            wsDtypeGetName(forms[i].a), wsDtypeGetName(forms[i].b));
  return buf;
}

const ws_mma_form *ws_mma_find_form(const ws_mma_engine *engine, MlirType a, MlirType b) {
  return engine ? find_form(engine->forms, engine->num_forms, a, b) : NULL;
}

const char *ws_mma_form_list(const ws_mma_engine *engine, char *buf, size_t cap) {
  return form_list(engine->forms, engine->num_forms, buf, cap);
}

const ws_mma_form *ws_mma_find_scaled_form(const ws_mma_engine *engine, MlirType a, MlirType b) {
  return engine ? find_form(engine->scaled_forms, engine->num_scaled_forms, a, b) : NULL;
}

const char *ws_mma_scaled_form_list(const ws_mma_engine *engine, char *buf, size_t cap) {
  return form_list(engine->scaled_forms, engine->num_scaled_forms, buf, cap);
}
