/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_opt.c: ws-opt's main: set up a context with every upstream dialect and
 * pass plus the ws dialect, then parse, transform and print each input. */
#define _POSIX_C_SOURCE 200809L /* lstat */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"
#include "pipeline_text.h"
#include "source.h"
#include "ws-c/Compile.h"
#include "ws-c/Dialect.h"

typedef struct driver {
  cli_options opts;
  MlirContext ctx;
  FILE *out;
  diagnostic_printer printer;
  pipeline_sink sink; /* outlives every pass manager */
} driver;

/* The pipeline text to run: --pass-pipeline, or ws-pipeline for
 * --ws-pipeline, or nothing (parse, verify and print). With --emit, the
 * emit code supplies its own texts; this one only checks the options. */
static const char *pipeline_text(const driver *d, char *buf, size_t cap) {
  if (d->opts.ws_pipeline) {
    if (d->opts.ws_pipeline[0])
      snprintf(buf, cap, "builtin.module(ws-pipeline{%s})", d->opts.ws_pipeline);
    else
      snprintf(buf, cap, "builtin.module(ws-pipeline)");
    return buf;
  }
  return d->opts.pipeline ? d->opts.pipeline : "";
}

/* Builds the pass manager for one input; `instrument` adds the IR printing
 * and timing asked for (left off for the up-front pipeline check, which
 * never runs). */
static MlirPassManager make_pass_manager(driver *d, const char *text, bool instrument, char *error,
                                         size_t error_cap) {
  MlirPassManager pm =
      mlirPassManagerCreateOnOperation(d->ctx, mlirStringRefCreateFromCString("builtin.module"));
  if (!pipeline_text_add(pm, text, &d->sink, error, error_cap)) {
    mlirPassManagerDestroy(pm);
    return (MlirPassManager){NULL};
  }
  mlirPassManagerEnableVerifier(pm, true);
  if (!instrument)
    return pm;
  if (d->opts.print_before_all || d->opts.print_after_all) {
    MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
    mlirPassManagerEnableIRPrinting(pm, d->opts.print_before_all, d->opts.print_after_all, true,
                                    false, false, flags, mlirStringRefCreate(NULL, 0));
    mlirOpPrintingFlagsDestroy(flags);
  }
  if (d->opts.timing)
    mlirPassManagerEnableTiming(pm);
  return pm;
}

static void write_out(MlirStringRef s, void *file) { fwrite(s.data, 1, s.length, file); }

/* Runs one pipeline text over the module (the emit modes run two). */
static bool run_text(void *driver_ptr, MlirModule module, const char *text) {
  driver *d = driver_ptr;
  char error[1024];
  MlirPassManager pm = make_pass_manager(d, text, true, error, sizeof error);
  if (!pm.ptr) {
    fprintf(stderr, "ws-opt: error: invalid pass pipeline: %s\n", error);
    return false;
  }
  bool ok = mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module)));
  mlirPassManagerDestroy(pm);
  return ok;
}

/* After a failure, as compilers do: no partial output is left behind. Only
 * a regular file is removed, never what a symbolic link names: -o
 * /dev/null, /dev/stdout, a pipe or a terminal stays. */
static void remove_partial_output(const char *path) {
  struct stat st;
  if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
    remove(path);
}

/* Parses, transforms and prints one input (a whole file or one split
 * chunk). Returns true on success. Errors are printed by the handler. */
static bool process(driver *d, const char *text, size_t len, bool separator) {
  if (!wsSourceCheckBeforeParse(d->ctx, mlirStringRefCreate(text, len)))
    return false;
  MlirModule module = mlirModuleCreateParse(d->ctx, mlirStringRefCreate(text, len));
  if (mlirModuleIsNull(module))
    return false;
  char pipeline[8192];
  bool ok =
      d->opts.emit == EMIT_NONE
          ? run_text(d, module, pipeline_text(d, pipeline, sizeof pipeline))
          : emit_run(d->opts.emit, module, mlirStringRefCreate(text, len), d->opts.ws_pipeline,
                     run_text, d, d->out, d->opts.output, d->opts.keep_ptx);
  bool print = d->opts.emit == EMIT_NONE || d->opts.emit == EMIT_MLIR;
  if (ok && print) {
    if (separator)
      fputs("// -----\n", d->out);
    MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
    if (d->opts.generic)
      mlirOpPrintingFlagsPrintGenericOpForm(flags);
    mlirOperationPrintWithFlags(mlirModuleGetOperation(module), flags, write_out, d->out);
    mlirOpPrintingFlagsDestroy(flags);
    fputc('\n', d->out);
    fflush(d->out); /* keep output and diagnostics of split parts in order */
  }
  mlirModuleDestroy(module);
  return ok;
}

/* Runs every chunk; the result is the worst exit status. */
static int run_inputs(driver *d, const source_buffer *src) {
  if (!wsSourceCheckHoldsOperation(d->ctx, mlirStringRefCreate(src->text, src->len)))
    return EXIT_ERROR;
  if (!d->opts.split_input)
    return process(d, src->text, src->len, false) ? EXIT_OK : EXIT_ERROR;
  source_chunk *chunks = NULL;
  size_t n = source_split(src, &chunks);
  int status = EXIT_OK;
  bool printed = false;
  for (size_t i = 0; i < n; i++) {
    if (process(d, chunks[i].text, chunks[i].len, printed))
      printed = true;
    else
      status = EXIT_ERROR;
    free(chunks[i].text);
  }
  free(chunks);
  return status;
}

int main(int argc, char **argv) {
  driver d = {0};
  int status = cli_parse(argc, argv, &d.opts);
  if (status != EXIT_OK)
    return status;
  if (d.opts.help) {
    cli_print_help(stdout);
    return EXIT_OK;
  }
  if (d.opts.version) {
    cli_print_version(stdout);
    return EXIT_OK;
  }
  mlirRegisterAllPasses();
  d.ctx = wsCreateContext();
  d.sink.on_remark = diagnostics_print_remark;
  d.sink.remark_data = &d.printer;
  if (mlirLogicalResultIsFailure(wsContextLoadDialect(d.ctx))) {
    fprintf(stderr, "ws-opt: error: cannot load the ws dialect\n");
    mlirContextDestroy(d.ctx);
    return EXIT_ERROR;
  }
  /* Check the pipeline once up front: a bad one is a usage error. */
  char error[1024];
  char text[8192];
  MlirPassManager probe =
      make_pass_manager(&d, pipeline_text(&d, text, sizeof text), false, error, sizeof error);
  if (!probe.ptr) {
    fprintf(stderr, "ws-opt: error: invalid pass pipeline: %s\n", error);
    mlirContextDestroy(d.ctx);
    return EXIT_USAGE;
  }
  mlirPassManagerDestroy(probe);

  source_buffer src = {0};
  status = EXIT_ERROR;
  if (source_read(d.opts.input, &src)) {
    bool to_stdout = strcmp(d.opts.output, "-") == 0;
    if (d.opts.emit == EMIT_LAUNCHER)
      to_stdout = true; /* the launcher writes its own two files */
    d.out = to_stdout ? stdout : fopen(d.opts.output, "w");
    if (!d.out) {
      fprintf(stderr, "ws-opt: error: cannot open output file '%s': %s\n", d.opts.output,
              strerror(errno));
    } else {
      d.printer = (diagnostic_printer){&src, 0};
      MlirDiagnosticHandlerID h = diagnostics_attach(d.ctx, &d.printer);
      status = run_inputs(&d, &src);
      mlirContextDetachDiagnosticHandler(d.ctx, h);
      if (!to_stdout && fclose(d.out) != 0)
        status = EXIT_ERROR;
      if (!to_stdout && status != 0)
        remove_partial_output(d.opts.output);
    }
    source_free(&src);
  }
  mlirContextDestroy(d.ctx);
  return status;
}
