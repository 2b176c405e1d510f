/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* external_pass.c: run a ws_pass_def as an MLIR external pass.
 *
 * Each pass instance owns a heap copy of its parsed options; MLIR clones
 * instances for parallel pass managers and destroys them with the manager. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ws_pass.h"
#include "../../dialect/ws_text.h"

typedef struct pass_instance {
  const ws_pass_def *def;
  ws_pass_options opts;
  ws_pass_env env;
} pass_instance;

static void instance_construct(void *user_data) { (void)user_data; }

static void instance_destruct(void *user_data) { free(user_data); }

static MlirLogicalResult instance_initialize(MlirContext ctx, void *user_data) {
  (void)ctx;
  (void)user_data;
  return mlirLogicalResultSuccess();
}

static void *instance_clone(void *user_data) {
  pass_instance *copy = malloc(sizeof *copy);
  if (copy)
    memcpy(copy, user_data, sizeof *copy);
  return copy;
}

static void instance_run(MlirOperation op, MlirExternalPass pass, void *user_data) {
  const pass_instance *inst = user_data;
  if (!inst->def->run(op, &inst->opts, &inst->env))
    mlirExternalPassSignalFailure(pass);
}

static void print_remark_to_stderr(MlirStringRef s, void *unused) {
  (void)unused;
  fwrite(s.data, 1, s.length, stderr);
}

void ws_remark(const ws_pass_env *env, MlirLocation loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = ws_vformat("", fmt, ap);
  va_end(ap);
  if (env && env->diag.on_remark) {
    env->diag.on_remark(loc, mlirStringRefCreate(msg, strlen(msg)), env->diag.user_data);
  } else {
    mlirLocationPrint(loc, print_remark_to_stderr, NULL);
    fprintf(stderr, ": remark: %s\n", msg);
  }
  free(msg);
}

MlirPass ws_make_external_pass(const ws_pass_def *def, const ws_pass_options *opts,
                               const WsDiagnostics *diag) {
  pass_instance *inst = malloc(sizeof *inst);
  if (!inst)
    return (MlirPass){NULL};
  inst->def = def;
  inst->opts = *opts;
  memset(&inst->env, 0, sizeof inst->env);
  if (diag)
    inst->env.diag = *diag;
  MlirExternalPassCallbacks callbacks = {
      instance_construct, instance_destruct, instance_initialize, instance_clone, instance_run,
  };
  MlirDialectHandle deps[8];
  int num_deps = def->num_dependent_dialects < 8 ? def->num_dependent_dialects : 8;
  for (int i = 0; i < num_deps; i++)
    deps[i] = def->dependent_dialects[i]();
  /* The definition is static and 8-byte aligned: its address is a unique,
   * stable TypeID for the pass. */
  MlirTypeID id = mlirTypeIDCreate(def);
  MlirStringRef arg = mlirStringRefCreateFromCString(def->argument);
  return mlirCreateExternalPass(id, arg, arg, mlirStringRefCreateFromCString(def->summary),
                                mlirStringRefCreate(NULL, 0), num_deps, deps, callbacks, inst);
}

bool ws_add_configured_pass(MlirOpPassManager pm, const ws_pass_def *def, MlirStringRef options,
                            const WsDiagnostics *diag, char error[WS_ERROR_MAX]) {
  ws_pass_options opts;
  if (!ws_parse_pass_options(def, options, &opts, error))
    return false;
  if (def->build)
    return def->build(pm, &opts, diag, error);
  MlirPass pass = ws_make_external_pass(def, &opts, diag);
  if (!pass.ptr) {
    snprintf(error, WS_ERROR_MAX, "%s: out of memory", def->argument);
    return false;
  }
  mlirOpPassManagerAddOwnedPass(pm, pass);
  return true;
}
