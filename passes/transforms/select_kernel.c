/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* select_kernel.c: ws-select-kernel{kernel=NAME}, which keeps one kernel
 * of the module and erases the others before anything plans them.
 *
 * A kernel family's source often holds several kernels (the persistent
 * matmul and the tiled one) that an autotuner runs one at a time. Compiled
 * whole, a config that one kernel cannot take (a tile over its budget)
 * refuses the module, and with it the member of the other kernel, which
 * could take it; and every member pays for planning, proving and lowering
 * kernels it never runs. With kernel=NAME only @NAME goes on (in each
 * gpu.module that has one): the other `gpu.func ... kernel`s are erased,
 * functions that are not kernels stay, and a gpu.module left with no
 * kernel goes too (it would be lowered for nothing). A NAME the module
 * lacks, or a host gpu.launch_func of a kernel it would erase, is a
 * located error. An empty NAME (the default) keeps every kernel. */
#include "mlir-c/BuiltinAttributes.h"
#include "../../dialect/ws_text.h"
#include "../plan/ws_plan.h"
#include "../support/ws_op_list.h"
#include "../support/ws_pass.h"

typedef struct found_ops {
  ws_op_list kernels;   /* every gpu.func marked kernel */
  ws_op_list functions; /* the gpu.funcs that are not */
  ws_op_list launches;  /* every gpu.launch_func */
} found_ops;

/* Walk callback: sorts the ops the pass looks at. A kernel's body is not
 * entered, so that a module nested in a kernel (which the verifier takes)
 * cannot put a kernel on the list inside another that is erased first. */
static MlirWalkResult collect(MlirOperation op, void *user_data) {
  found_ops *found = user_data;
  if (ws_op_is(op, "gpu.func")) {
    ws_op_list_push(ws_has_attr(op, "gpu.kernel") ? &found->kernels : &found->functions, op);
    return MlirWalkResultSkip;
  }
  if (ws_op_is(op, "gpu.launch_func"))
    ws_op_list_push(&found->launches, op);
  return MlirWalkResultAdvance;
}

/* The symbol name of a function, as a string ref into the context. */
static MlirStringRef symbol_name(MlirOperation func) {
  return mlirStringAttrGetValue(
      mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("sym_name")));
}

/* True when one of `ops` is named `name`. */
static bool has_named(const ws_op_list *ops, const char *name) {
  for (long i = 0; i < ops->len; i++)
    if (ws_ref_eq(symbol_name(ops->items[i]), name))
      return true;
  return false;
}

/* The kernels' names, "@a, @b" (each once, though two gpu.modules may
 * both have one), for the error that lists them. */
static void list_kernels(const ws_op_list *kernels, char *buf, size_t cap) {
  ws_text t;
  ws_text_init(&t, buf, cap);
  for (long i = 0; i < kernels->len; i++) {
    MlirStringRef name = symbol_name(kernels->items[i]);
    bool seen = false;
    for (long j = 0; j < i && !seen; j++)
      seen = mlirStringRefEqual(symbol_name(kernels->items[j]), name);
    if (!seen)
      ws_text_appendf(&t, "%s@%.*s", t.len ? ", " : "", (int)name.length, name.data);
  }
  if (!t.len)
    ws_text_appendf(&t, "none");
}

/* False (after an error at the launch) when a host launch names a kernel
 * that is not `keep`: erasing it would leave the launch dangling. */
static bool check_launches(const ws_op_list *launches, const char *keep) {
  bool ok = true;
  for (long i = 0; i < launches->len; i++) {
    MlirAttribute ref = mlirOperationGetAttributeByName(launches->items[i],
                                                        mlirStringRefCreateFromCString("kernel"));
    if (mlirAttributeIsNull(ref) || !mlirAttributeIsASymbolRef(ref))
      continue;
    MlirStringRef leaf = mlirSymbolRefAttrGetLeafReference(ref);
    if (ws_ref_eq(leaf, keep))
      continue;
    ws_emit_op_error(launches->items[i],
                     "launches @%.*s, which kernel=%s would erase; "
                     "launch only @%s, or compile without kernel=",
                     (int)leaf.length, leaf.data, keep, keep);
    ok = false;
  }
  return ok;
}

/* Erases each kernel but `keep` (with a remark under explain), then each
 * gpu.module that had a kernel and has none left. */
static void erase_others(const found_ops *found, const char *keep, bool explain,
                         const ws_pass_env *env) {
  ws_op_list emptied = {0};
  for (long i = 0; i < found->kernels.len; i++) {
    MlirOperation func = found->kernels.items[i];
    MlirStringRef name = symbol_name(func);
    if (ws_ref_eq(name, keep))
      continue;
    if (explain)
      ws_remark(env, mlirOperationGetLocation(func),
                "kernel @%.*s erased: kernel=%s compiles @%s alone", (int)name.length, name.data,
                keep, keep);
    MlirOperation module = mlirOperationGetParentOperation(func);
    mlirOperationDestroy(func);
    bool listed = false;
    for (long j = 0; j < emptied.len && !listed; j++)
      listed = mlirOperationEqual(emptied.items[j], module);
    if (!listed)
      ws_op_list_push(&emptied, module);
  }
  for (long i = 0; i < emptied.len; i++) {
    bool kernel_left = false;
    MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(emptied.items[i], 0));
    for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op))
      kernel_left |= ws_has_attr(op, "gpu.kernel");
    if (!kernel_left)
      mlirOperationDestroy(emptied.items[i]);
  }
  ws_op_list_free(&emptied);
}

/* The pass: finds @keep (an error naming the kernels there are when it is
 * missing, or names a function that is not a kernel), refuses launches of
 * the others, then erases them. */
static bool run_select_kernel(MlirOperation root, const ws_pass_options *opts,
                              const ws_pass_env *env) {
  const char *keep = ws_option_string(opts, "kernel");
  keep += keep[0] == '@'; /* kernel=@add names @add too */
  if (!keep[0])
    return true;
  found_ops found = {{0}, {0}, {0}};
  mlirOperationWalk(root, collect, &found, MlirWalkPreOrder);
  bool kept = has_named(&found.kernels, keep);
  if (!kept) {
    char names[512];
    list_kernels(&found.kernels, names, sizeof names);
    ws_emit_op_error(
        root, "has no kernel @%s%s (its kernels: %s)", keep,
        has_named(&found.functions, keep) ? ", only a function that is not a kernel" : "", names);
  }
  bool ok = kept && check_launches(&found.launches, keep);
  if (ok)
    erase_others(&found, keep, ws_option_bool(opts, "explain"), env);
  ws_op_list_free(&found.kernels);
  ws_op_list_free(&found.functions);
  ws_op_list_free(&found.launches);
  return ok;
}

static const ws_option_spec select_kernel_options[] = {
    {"kernel", WS_OPTION_STRING, "",
     "the one kernel (gpu.func ... kernel) to keep; the module's others are erased "
     "(empty: keep every kernel)",
     NULL, 0, 0},
    {"explain", WS_OPTION_BOOL, "false", "remark on each kernel erased", NULL, 0, 0},
};

const ws_pass_def ws_select_kernel_pass_def = {
    .argument = "ws-select-kernel",
    .summary = "Keep one kernel of the module (an autotuner's member) and erase the others",
    WS_PASS_OPTIONS(select_kernel_options),
    .run = run_select_kernel,
};
