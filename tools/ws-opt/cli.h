/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* cli.h: ws-opt's command line. */
#ifndef WS_OPT_CLI_H
#define WS_OPT_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "emit.h"

enum { EXIT_OK = 0, EXIT_ERROR = 1, EXIT_USAGE = 2 };

typedef struct cli_options {
  const char *input;       /* "-" for stdin */
  const char *output;      /* "-" for stdout */
  const char *pipeline;    /* --pass-pipeline text, or NULL */
  const char *ws_pipeline; /* --ws-pipeline options, or NULL */
  emit_kind emit;          /* --emit */
  bool split_input;
  bool print_before_all, print_after_all;
  bool timing;
  bool generic;
  bool help, version;
  bool explain;          /* --ws-explain */
  bool keep_ptx;         /* --keep-ptx: --emit=launcher also writes NAME.ptx */
  char ws_options[1024]; /* --ws-pipeline options with explain=true added */
} cli_options;

/* Parses argv. Returns EXIT_OK, or EXIT_USAGE after printing why. */
int cli_parse(int argc, char **argv, cli_options *out);

void cli_print_help(FILE *f);
void cli_print_version(FILE *f);

#endif
