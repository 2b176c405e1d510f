/* select_kernel.c: ws-select-kernel{kernel=NAME}, which keeps one kernel
 * of the module and erases the others before anything plans them.
 *
 * A kernel family's source often holds several kernels (the persistent
 * matmul and the tiled one) that an autotuner runs one at a time. Compiled
 * whole, a config that one kernel cannot take (a tile over its budget)
 * refuses the module, and with it the member of the other kernel, which
 * could take it; and every member pays for planning, proving and lowering
 * kernels it never runs. With kernel=NAME only @NAME (in every gpu.module
 * that has one) goes on: the other `gpu.func ... kernel`s are erased, and
 * functions that are not kernels stay. A NAME the module lacks, or a host
 * gpu.launch_func of a kernel it would erase, is a located error. An empty
 * NAME (the default) keeps every kernel. */
#include <stdio.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "../../dialect/ws_text.h"
#include "../plan/ws_plan.h"
#include "../support/ws_op_list.h"
#include "../support/ws_pass.h"

typedef struct found_ops {
  ws_op_list kernels;  /* every gpu.func marked kernel */
  ws_op_list launches; /* every gpu.launch_func */
} found_ops;

static MlirWalkResult collect(MlirOperation op, void *user_data) {
  found_ops *found = user_data;
  if (ws_op_is(op, "gpu.func") && ws_has_attr(op, "gpu.kernel"))
    ws_op_list_push(&found->kernels, op);
  else if (ws_op_is(op, "gpu.launch_func"))
    ws_op_list_push(&found->launches, op);
  return MlirWalkResultAdvance;
}

/* The symbol name of a kernel, as a string ref into the context. */
static MlirStringRef kernel_name(MlirOperation func) {
  return mlirStringAttrGetValue(
      mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("sym_name")));
}

/* The kernels' names, ", @a, @b", for the error that lists them. */
static void list_kernels(const ws_op_list *kernels, char *buf, size_t cap) {
  ws_text t;
  ws_text_init(&t, buf, cap);
  for (long i = 0; i < kernels->len; i++) {
    MlirStringRef name = kernel_name(kernels->items[i]);
    ws_text_appendf(&t, "%s@%.*s", i ? ", " : "", (int)name.length, name.data);
  }
  if (!kernels->len)
    ws_text_appendf(&t, "none");
}

/* False (after an error at the launch) when a host launch names a kernel
 * that is not `keep`: erasing it would leave the launch dangling. */
static bool check_launches(const ws_op_list *launches, const char *keep) {
  bool ok = true;
  for (long i = 0; i < launches->len; i++) {
    MlirAttribute ref = mlirOperationGetAttributeByName(
        launches->items[i], mlirStringRefCreateFromCString("kernel"));
    if (mlirAttributeIsNull(ref) || !mlirAttributeIsASymbolRef(ref))
      continue;
    MlirStringRef leaf = mlirSymbolRefAttrGetLeafReference(ref);
    if (ws_ref_eq(leaf, keep))
      continue;
    ws_emit_op_error(launches->items[i], "launches @%.*s, which kernel=%s would erase; "
                     "launch only @%s, or compile without kernel=",
                     (int)leaf.length, leaf.data, keep, keep);
    ok = false;
  }
  return ok;
}

static bool run_select_kernel(MlirOperation root, const ws_pass_options *opts,
                              const ws_pass_env *env) {
  const char *keep = ws_option_string(opts, "kernel");
  if (!keep[0])
    return true;
  found_ops found = {{0}, {0}};
  mlirOperationWalk(root, collect, &found, MlirWalkPreOrder);
  long kept = 0;
  for (long i = 0; i < found.kernels.len; i++)
    kept += ws_ref_eq(kernel_name(found.kernels.items[i]), keep);
  bool ok = kept > 0 && check_launches(&found.launches, keep);
  if (!kept) {
    char names[512];
    list_kernels(&found.kernels, names, sizeof names);
    ws_emit_op_error(root, "has no kernel @%s to select with kernel=%s (its kernels: %s)",
                     keep, keep, names);
  }
  for (long i = 0; ok && i < found.kernels.len; i++) {
    MlirOperation func = found.kernels.items[i];
    MlirStringRef name = kernel_name(func);
    if (ws_ref_eq(name, keep))
      continue;
    if (ws_option_bool(opts, "explain"))
      ws_remark(env, mlirOperationGetLocation(func),
                "kernel @%.*s erased: kernel=%s compiles @%s alone", (int)name.length,
                name.data, keep, keep);
    mlirOperationDestroy(func);
  }
  ws_op_list_free(&found.kernels);
  ws_op_list_free(&found.launches);
  return ok;
}

static const ws_option_spec select_kernel_options[] = {
    {"kernel", WS_OPTION_STRING, "",
     "the one kernel (gpu.func ... kernel) to keep; the module's others are erased "
     "(empty: keep every kernel)", NULL, 0, 0},
    {"explain", WS_OPTION_BOOL, "false", "remark on each kernel erased", NULL, 0, 0},
};

const ws_pass_def ws_select_kernel_pass_def = {
    .argument = "ws-select-kernel",
    .summary = "Keep one kernel of the module (an autotuner's member) and erase the others",
    .options = select_kernel_options,
    .num_options = 2,
    .run = run_select_kernel,
};
