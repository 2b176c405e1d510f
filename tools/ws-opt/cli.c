/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* cli.c: ws-opt's flags, --help and --version. */
#include "cli.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mlir-c/Support.h"
#include "ws-c/Passes.h"

#ifndef WS_MLIR_VERSION_MAJOR
#define WS_MLIR_VERSION_MAJOR 0
#endif
#ifndef WS_VERSION
#define WS_VERSION "0.0.0"
#endif

/* A launcher's -o is a prefix: "", "out/" or an existing folder would
 * give the hidden files .h and .c (out/.h, out/.c). */
static bool names_directory(const char *path) {
  size_t n = strlen(path);
  struct stat st;
  return n == 0 || path[n - 1] == '/' || (stat(path, &st) == 0 && S_ISDIR(st.st_mode));
}

/* The kinds that write code: stage=plan would leave them none to write. */
static bool emits_code(emit_kind kind) {
  return kind == EMIT_LLVM || kind == EMIT_PTX || kind == EMIT_CUBIN;
}

/* Matches "--name=value" or "--name value"; advances *i over the value. */
static bool take_value(int argc, char **argv, int *i, const char *name, const char **value,
                       bool *missing) {
  size_t n = strlen(name);
  const char *arg = argv[*i];
  if (strncmp(arg, name, n) != 0)
    return false;
  if (arg[n] == '=') {
    *value = arg + n + 1;
    return true;
  }
  if (arg[n] != '\0')
    return false;
  if (*i + 1 >= argc) {
    *missing = true;
    return true;
  }
  *value = argv[++*i];
  return true;
}

typedef struct flag {
  const char *name;
  size_t offset; /* of the bool in cli_options */
} flag;

static const flag bool_flags[] = {
    {"--split-input-file", offsetof(cli_options, split_input)},
    {"--mlir-print-ir-before-all", offsetof(cli_options, print_before_all)},
    {"--mlir-print-ir-after-all", offsetof(cli_options, print_after_all)},
    {"--mlir-timing", offsetof(cli_options, timing)},
    {"--mlir-print-op-generic", offsetof(cli_options, generic)},
    {"--keep-ptx", offsetof(cli_options, keep_ptx)},
    {"--help", offsetof(cli_options, help)},
    {"-h", offsetof(cli_options, help)},
    {"--version", offsetof(cli_options, version)},
    {"--ws-explain", offsetof(cli_options, explain)},
};

static int usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "ws-opt: error: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\nws-opt: see 'ws-opt --help'\n");
  return EXIT_USAGE;
}

/* Tries the flags that take a value; returns 1 taken, 0 not a value flag,
 * -1 when the value is missing. */
static int take_value_flag(int argc, char **argv, int *i, cli_options *out) {
  bool missing = false;
  const char *v = NULL;
  if (take_value(argc, argv, i, "-o", &v, &missing) ||
      take_value(argc, argv, i, "--o", &v, &missing))
    out->output = v;
  else if (take_value(argc, argv, i, "--pass-pipeline", &v, &missing))
    out->pipeline = v;
  else if (take_value(argc, argv, i, "--emit", &v, &missing)) {
    if (!missing && !emit_parse(v, &out->emit))
      return -2;
  } else if (strcmp(argv[*i], "--ws-pipeline") == 0)
    out->ws_pipeline = "";
  else if (strncmp(argv[*i], "--ws-pipeline=", 14) == 0)
    out->ws_pipeline = argv[*i] + 14;
  else
    return 0;
  return missing ? -1 : 1;
}

int cli_parse(int argc, char **argv, cli_options *out) {
  memset(out, 0, sizeof *out);
  out->output = "-";
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    int taken = take_value_flag(argc, argv, &i, out);
    if (taken == -2)
      return usage_error("unknown --emit kind in '%s'; expected mlir, llvm, "
                         "ptx, cubin, launcher or plan",
                         arg);
    if (taken < 0)
      return usage_error("option '%s' needs a value", arg);
    if (taken > 0)
      continue;
    bool matched = false;
    for (size_t f = 0; f < sizeof bool_flags / sizeof bool_flags[0]; f++) {
      if (strcmp(arg, bool_flags[f].name) == 0) {
        *(bool *)((char *)out + bool_flags[f].offset) = true;
        matched = true;
      }
    }
    if (matched)
      continue;
    if (arg[0] == '-' && arg[1] != '\0')
      return usage_error("unknown option '%s'", arg);
    if (out->input)
      return usage_error("more than one input file ('%s')", arg);
    out->input = arg;
  }
  if (!out->input)
    out->input = "-";
  if (out->emit != EMIT_NONE && out->pipeline)
    return usage_error("%s", "--emit runs the ws pipeline; combine it with "
                             "--ws-pipeline=<options>, not --pass-pipeline");
  if (out->keep_ptx && out->emit != EMIT_LAUNCHER)
    return usage_error("%s", "--keep-ptx keeps the PTX of --emit=launcher; with another "
                             "kind, use --emit=ptx");
  if (out->emit == EMIT_LAUNCHER && strcmp(out->output, "-") == 0)
    return usage_error("%s", "--emit=launcher writes NAME.h and NAME.c: give "
                             "-o <dir>/NAME");
  if (out->emit == EMIT_LAUNCHER && names_directory(out->output))
    return usage_error("-o '%s' gives no NAME (it is empty or a folder): --emit=launcher "
                       "writes NAME.h and NAME.c: give -o <dir>/NAME",
                       out->output);
  if (out->emit == EMIT_CUBIN && strcmp(out->output, "-") == 0 && isatty(STDOUT_FILENO))
    return usage_error("--emit=%s writes binary, not text: give -o FILE or redirect the "
                       "output",
                       emit_name(out->emit));
  if (emits_code(out->emit) && out->ws_pipeline) {
    char stage[16];
    if (wsPassGetOptionValue(mlirStringRefCreateFromCString("ws-pipeline"),
                             mlirStringRefCreateFromCString(out->ws_pipeline),
                             mlirStringRefCreateFromCString("stage"), stage, sizeof stage, NULL) &&
        strcmp(stage, "plan") == 0) {
      char why[192];
      snprintf(why, sizeof why,
               "--emit=%s needs code, and stage=plan stops before any: "
               "leave it out of --ws-pipeline (--emit=mlir or --emit=plan shows the plan)",
               emit_name(out->emit));
      return usage_error("%s", why);
    }
  }
  if (out->pipeline && out->ws_pipeline)
    return usage_error("%s", "--pass-pipeline and --ws-pipeline cannot be "
                             "combined; put ws-pipeline into the pipeline");
  if (out->explain && out->pipeline)
    return usage_error("%s", "--ws-explain explains the ws pipeline; with "
                             "--pass-pipeline, give the ws passes explain=true");
  if (out->explain) {
    const char *given = out->ws_pipeline ? out->ws_pipeline : "";
    snprintf(out->ws_options, sizeof out->ws_options, "%s%sexplain=true", given,
             given[0] ? " " : "");
    out->ws_pipeline = out->ws_options;
  }
  return EXIT_OK;
}

void cli_print_version(FILE *f) {
  fprintf(f, "ws-opt %s (MLIR %d)\n", WS_VERSION, WS_MLIR_VERSION_MAJOR);
}

static void print_passes(FILE *f) {
  for (intptr_t i = 0; i < wsGetNumPasses(); i++) {
    MlirStringRef arg = wsPassGetArgument(i), sum = wsPassGetSummary(i);
    fprintf(f, "  %-26.*s %.*s%s\n", (int)arg.length, arg.data, (int)sum.length, sum.data,
            wsPassIsPipeline(i) ? " (pipeline)" : "");
    for (intptr_t o = 0; o < wsPassGetNumOptions(i); o++) {
      MlirStringRef name, def, help;
      wsPassGetOption(i, o, &name, &def, &help);
      fprintf(f, "      %.*s=<value>  %.*s (default: \"%.*s\")\n", (int)name.length, name.data,
              (int)help.length, help.data, (int)def.length, def.data);
    }
  }
}

void cli_print_help(FILE *f) {
  fputs("OVERVIEW: ws-opt: the ws warp-specialization compiler driver\n\n"
        "USAGE: ws-opt [options] [input.mlir | -]\n\n"
        "Reads MLIR (a file, or stdin when none or '-' is given), runs a pass\n"
        "pipeline over it and prints the result.\n\n"
        "OPTIONS:\n"
        "  -o <file>                   write the output to <file> (default: stdout)\n"
        "  --pass-pipeline=<pipeline>  run a textual pipeline, e.g.\n"
        "                              'builtin.module(ws-verify, canonicalize)';\n"
        "                              ws passes and every upstream MLIR pass\n"
        "                              may be mixed and nested under op anchors\n"
        "                              such as gpu.module(...)\n"
        "  --ws-pipeline[=<options>]   run the whole ws flow, e.g. --ws-pipeline=chip=sm_90a\n"
        "  --emit=<kind>               run the ws flow and write: mlir (the lowered\n"
        "                              module), llvm (LLVM IR), ptx, cubin, or\n"
        "                              launcher (-o DIR/NAME writes NAME.h, NAME.c:\n"
        "                              embedded cubin and typed launch functions),\n"
        "                              or plan (JSON: partitions, rings, channels,\n"
        "                              barriers, registers, shared-memory map)\n"
        "  --keep-ptx                  with --emit=launcher, also write NAME.ptx:\n"
        "                              the PTX its cubin is assembled from, in the\n"
        "                              same run (ptxas from the toolkit, as the\n"
        "                              cubin of --emit=cubin)\n"
        "  --ws-explain                every ws pass remarks on each decision it\n"
        "                              makes (ws-pipeline{explain=true})\n"
        "  --split-input-file          split the input at '// -----' lines and\n"
        "                              process each part on its own\n"
        "  --mlir-print-ir-before-all  print the IR before every pass (stderr)\n"
        "  --mlir-print-ir-after-all   print the IR after every pass (stderr)\n"
        "  --mlir-timing               print how long each pass took (stderr)\n"
        "  --mlir-print-op-generic     print operations in generic form\n"
        "  --version                   print the version and exit\n"
        "  -h, --help                  print this help and exit\n\n"
        "WS PASSES (options go in braces: ws-verify{chip=sm_90a}):\n",
        f);
  print_passes(f);
  fputs("\nEXIT STATUS: 0 success, 1 an error in the input or a pass, "
        "2 bad usage\n(unknown option, malformed pipeline).\n",
        f);
}
