/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_pass.h: how a ws pass is described, configured and run. Internal.
 *
 * Every pass file defines one `ws_pass_def` (its argument, summary, options
 * and run function); pass_registry.c lists them all. A pipeline is a def
 * with a `build` function instead of `run`. */
#ifndef WS_PASS_H
#define WS_PASS_H

#include <stdbool.h>
#include <stddef.h>

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "ws-c/Passes.h"

enum { WS_MAX_OPTIONS = 16, WS_OPTION_TEXT_MAX = 128, WS_ERROR_MAX = 512 };

typedef enum ws_option_kind {
  WS_OPTION_INT,
  WS_OPTION_BOOL,
  WS_OPTION_STRING,
} ws_option_kind;

typedef struct ws_option_spec {
  const char *name;
  ws_option_kind kind;
  const char *default_value;
  const char *help;
  /* For strings: the allowed values separated by '|', or NULL for any. For
   * integers: the smallest and largest accepted values. */
  const char *choices;
  long long min, max;
} ws_option_spec;

typedef struct ws_option_value {
  long long i;
  bool b;
  char s[WS_OPTION_TEXT_MAX];
} ws_option_value;

typedef struct ws_pass_def ws_pass_def;

/* A ws_pass_def's options and their count, taken from the spec array
 * itself: `WS_PASS_OPTIONS(my_options),` in the def (a count written by
 * hand goes stale when an option is added). */
#define WS_PASS_OPTIONS(specs)                                                                     \
  .options = (specs), .num_options = (int)(sizeof(specs) / sizeof((specs)[0]))

/* A pass's option values, in the order of its def's specs; read them by
 * name (ws_option_int and the others), not by position. */
typedef struct ws_pass_options {
  const ws_pass_def *def;
  ws_option_value v[WS_MAX_OPTIONS];
} ws_pass_options;

/* The value of option `name` of opts's pass. A name the pass does not
 * have is a mistake in ws itself: it aborts. */
long long ws_option_int(const ws_pass_options *opts, const char *name);
bool ws_option_bool(const ws_pass_options *opts, const char *name);
const char *ws_option_string(const ws_pass_options *opts, const char *name);

/* Option `name`'s value as text ("4", "true", "sm_90a") into buf (cap
 * bytes); false when opts's pass has no such option or it does not fit. */
bool ws_option_text(const ws_pass_options *opts, const char *name, char *buf, size_t cap);

/* "k=v k=v": every option of `to` that `from`'s pass also has, with
 * from's value, into buf; how a pipeline configures its passes. */
const char *ws_forward_options(const ws_pass_options *from, const ws_pass_def *to, char *buf,
                               size_t cap);

/* What a running pass may report to: a copy of the creator's diagnostics. */
typedef struct ws_pass_env {
  WsDiagnostics diag;
} ws_pass_env;

/* Reports a remark at `loc` through env's callback (stderr without one). */
void ws_remark(const ws_pass_env *env, MlirLocation loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

struct ws_pass_def {
  const char *argument;
  const char *summary;
  const ws_option_spec *options;
  int num_options;
  /* A pass: runs on the op it is scheduled on; returns false on failure
   * (after emitting located errors). */
  bool (*run)(MlirOperation root, const ws_pass_options *opts, const ws_pass_env *env);
  /* A pipeline: adds its passes to pm; on failure writes `error`. */
  bool (*build)(MlirOpPassManager pm, const ws_pass_options *opts, const WsDiagnostics *diag,
                char error[WS_ERROR_MAX]);
  /* Dialects the pass creates ops of (loaded before it runs). */
  MlirDialectHandle (*const *dependent_dialects)(void);
  int num_dependent_dialects;
};

/* Parses "key=value key=value" into `out`, starting from the defaults.
 * On failure writes a message to `error` and returns false. */
bool ws_parse_pass_options(const ws_pass_def *def, MlirStringRef text, ws_pass_options *out,
                           char error[WS_ERROR_MAX]);

/* All passes and pipelines, in the order --help lists them. */
const ws_pass_def *ws_pass_def_at(int index);
int ws_pass_def_count(void);
const ws_pass_def *ws_find_pass_def(MlirStringRef argument);

/* Wraps `def` configured with `opts` as an MLIR external pass. */
MlirPass ws_make_external_pass(const ws_pass_def *def, const ws_pass_options *opts,
                               const WsDiagnostics *diag);

/* Parses `options` (MLIR's "k=v k=v" text) for `def` and adds the pass to
 * pm; pipelines use it to add their stages. */
bool ws_add_configured_pass(MlirOpPassManager pm, const ws_pass_def *def, MlirStringRef options,
                            const WsDiagnostics *diag, char error[WS_ERROR_MAX]);

/* The pass definitions (one per file in passes/). */
extern const ws_pass_def ws_select_kernel_pass_def;
extern const ws_pass_def ws_verify_pass_def;
extern const ws_pass_def ws_tile_order_pass_def;
extern const ws_pass_def ws_split_k_pass_def;
extern const ws_pass_def ws_partition_schedule_pass_def;
extern const ws_pass_def ws_plan_memory_pass_def;
extern const ws_pass_def ws_insert_barriers_pass_def;
extern const ws_pass_def ws_specialize_pass_def;
extern const ws_pass_def ws_check_protocol_pass_def;
extern const ws_pass_def ws_lower_to_nvvm_pass_def;
extern const ws_pass_def ws_pipeline_def;

/* The checks of ws-verify, which every later ws pass runs first. `chip` is
 * the required target chip, or "" for any supported one. */
bool ws_verify_root(MlirOperation root, const char *chip);

/* What the passes after ws-verify share: verify the whole root, then run
 * `fn` on every ws.warp_specialize loop (all of them, even after a failure,
 * so that one run reports every bad loop). */
typedef bool (*ws_loop_fn)(MlirOperation loop, const ws_pass_options *opts, const ws_pass_env *env);
bool ws_run_on_marked_loops(MlirOperation root, ws_loop_fn fn, const ws_pass_options *opts,
                            const ws_pass_env *env);

#endif /* WS_PASS_H */
