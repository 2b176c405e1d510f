/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* passes_capi.c: the public pass API (ws-c/Passes.h) over the pass table. */
#include "ws-c/Passes.h"

#include <stdio.h>
#include <string.h>

#include "../../passes/support/ws_pass.h"

static MlirStringRef ref(const char *s) { return mlirStringRefCreateFromCString(s ? s : ""); }

intptr_t wsGetNumPasses(void) { return ws_pass_def_count(); }

MlirStringRef wsPassGetArgument(intptr_t index) {
  const ws_pass_def *def = ws_pass_def_at((int)index);
  return ref(def ? def->argument : NULL);
}

MlirStringRef wsPassGetSummary(intptr_t index) {
  const ws_pass_def *def = ws_pass_def_at((int)index);
  return ref(def ? def->summary : NULL);
}

intptr_t wsPassGetNumOptions(intptr_t index) {
  const ws_pass_def *def = ws_pass_def_at((int)index);
  return def ? def->num_options : 0;
}

void wsPassGetOption(intptr_t index, intptr_t option, MlirStringRef *name,
                     MlirStringRef *default_value, MlirStringRef *help) {
  const ws_pass_def *def = ws_pass_def_at((int)index);
  const ws_option_spec *spec =
      def && option >= 0 && option < def->num_options ? &def->options[option] : NULL;
  if (name)
    *name = ref(spec ? spec->name : NULL);
  if (default_value)
    *default_value = ref(spec ? spec->default_value : NULL);
  if (help)
    *help = ref(spec ? spec->help : NULL);
}

bool wsPassIsPipeline(intptr_t index) {
  const ws_pass_def *def = ws_pass_def_at((int)index);
  return def && def->build;
}

intptr_t wsLookupPass(MlirStringRef argument) {
  const ws_pass_def *def = ws_find_pass_def(argument);
  for (int i = 0; def && i < ws_pass_def_count(); i++)
    if (ws_pass_def_at(i) == def)
      return i;
  return -1;
}

static void report(const WsDiagnostics *diag, const char *message) {
  if (diag && diag->on_error)
    diag->on_error(mlirStringRefCreateFromCString(message), diag->user_data);
}

static const ws_pass_def *find_or_report(MlirStringRef argument, const WsDiagnostics *diag) {
  const ws_pass_def *def = ws_find_pass_def(argument);
  if (!def) {
    char error[WS_ERROR_MAX];
    snprintf(error, sizeof error, "'%.*s' is not a ws pass", (int)argument.length, argument.data);
    report(diag, error);
  }
  return def;
}

/* Finds and configures a definition; the shared first step of every entry
 * point that takes a name and an option string. */
static const ws_pass_def *configure(MlirStringRef argument, MlirStringRef options,
                                    ws_pass_options *opts, const WsDiagnostics *diag) {
  char error[WS_ERROR_MAX];
  const ws_pass_def *def = find_or_report(argument, diag);
  if (!def)
    return NULL;
  if (!ws_parse_pass_options(def, options, opts, error)) {
    report(diag, error);
    return NULL;
  }
  return def;
}

bool wsPassGetOptionValue(MlirStringRef argument, MlirStringRef options, MlirStringRef name,
                          char *buf, size_t cap, const WsDiagnostics *diag) {
  ws_pass_options opts;
  const ws_pass_def *def = configure(argument, options, &opts, diag);
  char key[WS_OPTION_TEXT_MAX];
  snprintf(key, sizeof key, "%.*s", (int)name.length, name.data);
  if (def && ws_option_text(&opts, key, buf, cap))
    return true;
  if (def) {
    char error[WS_ERROR_MAX];
    snprintf(error, sizeof error,
             "%s has no option '%s' (or its value is longer than %zu "
             "bytes)",
             def->argument, key, cap ? cap - 1 : 0);
    report(diag, error);
  }
  return false;
}

MlirPass wsCreatePass(MlirStringRef argument, MlirStringRef options, const WsDiagnostics *diag) {
  ws_pass_options opts;
  const ws_pass_def *def = configure(argument, options, &opts, diag);
  if (!def)
    return (MlirPass){NULL};
  if (!def->run) {
    char error[WS_ERROR_MAX];
    snprintf(error, sizeof error, "'%s' is a pipeline; add it with wsAddPassByName", def->argument);
    report(diag, error);
    return (MlirPass){NULL};
  }
  return ws_make_external_pass(def, &opts, diag);
}

MlirLogicalResult wsAddPassByName(MlirOpPassManager pm, MlirStringRef argument,
                                  MlirStringRef options, const WsDiagnostics *diag) {
  char error[WS_ERROR_MAX];
  const ws_pass_def *def = find_or_report(argument, diag);
  if (!def)
    return mlirLogicalResultFailure();
  if (!ws_add_configured_pass(pm, def, options, diag, error)) {
    report(diag, error);
    return mlirLogicalResultFailure();
  }
  return mlirLogicalResultSuccess();
}

MlirPass wsCreateVerifyPass(MlirStringRef options, const WsDiagnostics *diag) {
  return wsCreatePass(ref(ws_verify_pass_def.argument), options, diag);
}

MlirLogicalResult wsAddPipeline(MlirOpPassManager pm, MlirStringRef options,
                                const WsDiagnostics *diag) {
  return wsAddPassByName(pm, ref(ws_pipeline_def.argument), options, diag);
}
