/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * ws-c/Compile.h: compile a ws kernel in-process, and what a host needs to
 * launch each kernel a module holds.
 *
 * wsCompile runs what `ws-opt --emit=ptx` runs (the ws pipeline to PTX) on
 * a context of its own, and keeps the PTX, every diagnostic with its
 * location split into file, line and column, and each kernel's launch
 * data: its threads, shared memory, persistence, cluster and arguments.
 * ws-opt's --emit=launcher reads the same launch data through
 * wsCollectKernelInfo, so a C launcher and a runtime built on this header
 * see one description of each kernel. Nothing here keeps global state
 * beyond MLIR's pass registry, which wsCompile fills once.
 */
#ifndef WS_C_COMPILE_H
#define WS_C_COMPILE_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Support.h"
#include "ws-c/Dialect.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A kernel's name is as long as it is. An argument's source name longer than
 * WS_MAX_ARG_NAME - 1 is not kept (the argument is named by its number
 * alone). A kernel may take any number of arguments whose parameters fit
 * the chip's parameter space (4096 bytes: a tensor map takes 128 of
 * them); ws-lower-to-nvvm refuses one past it, with the arithmetic. */
enum { WS_MAX_ARG_NAME = 64 };

/* How an argument reaches the kernel. */
typedef enum WsArgKind {
  WsArgScalar = 0,     /* a value: see WsScalarType */
  WsArgDescriptor = 1, /* a !ws.tensor_desc: a 128-byte CUtensorMap */
  WsArgArray = 2,      /* a memref<?xT>: its base address and element count */
} WsArgKind;

/* The type a scalar argument is passed as; `index` is passed as i64, as
 * upstream MLIR's GPU lowering passes it. */
typedef enum WsScalarType {
  WsScalarNone = 0,
  WsScalarI32 = 1,
  WsScalarI64 = 2,
  WsScalarF32 = 3,
  WsScalarF64 = 4,
} WsScalarType;

/* One kernel argument, in the kernel's order. */
typedef struct WsKernelArg {
  WsArgKind kind;
  WsScalarType scalar;        /* scalars */
  int64_t divisor;            /* integer scalars: their ws.divisibility; 1: none */
  WsDtype dtype;              /* descriptors and arrays: the element type */
  int rank;                   /* descriptors: the box's rank; arrays: 1 */
  int64_t box[5];             /* descriptors: the TMA box the plan chose, outermost
                                 first (a cluster's split tile: one CTA's part) */
  int swizzle;                /* descriptors: the swizzle in bytes: 0, 32, 64, 128 */
  bool view;                  /* descriptors: the kernel takes a store view, twelve
                                 int64 values, right after the tensor map */
  bool direct;                /* descriptors: no TMA copy goes through it (the
                                 kernel reads or writes it element by element), so
                                 it is checked but its map is never encoded */
  char name[WS_MAX_ARG_NAME]; /* its name in the source without the %
                          ("a" for %a; "workspace" for the split-K
                          workspace ws-split-k adds), or "" where not known;
                          launch refusals name the argument by it */
} WsKernelArg;

/* One planned kernel: the launch shape ws-insert-barriers fixed (see
 * WsPlanKernel in ws-c/Plan.h) and its arguments. `workspace_per_block`,
 * when not 0, is a split-K kernel's: its last argument is the address of a
 * workspace of grid x this many bytes. */
typedef struct WsKernelInfo {
  char *name;               /* the gpu.func's name, NUL-terminated, owned with
                               the table (wsCollectKernelInfo's: wsKernelInfoFree) */
  int block_threads;        /* threads per block */
  int shared_memory_bytes;  /* dynamic shared memory per block */
  int blocks_per_sm;        /* blocks the plan fits on one SM (at least 1) */
  bool persistent;          /* a tile loop: any grid is correct, the
                               resident one (SMs x blocks_per_sm) fastest */
  int cluster_x, cluster_y; /* 1 x 1: no cluster */
  bool pair;                /* a pair of CTAs issuing one MMA (sm_100a's
                               cta_group::2); else a cluster multicasts */
  int64_t workspace_per_block;
  int num_args;
  WsKernelArg *args; /* num_args of them, owned with the table by whoever made
                        it (wsCollectKernelInfo's: wsKernelInfoFree) */
} WsKernelInfo;

/* Describes every kernel of `module` that ws-insert-barriers planned (run
 * the pipeline with stage=plan first). `source` is the text the module was
 * parsed from, whose `%name` at each argument's location names it (MLIR
 * keeps no SSA names); an empty ref leaves the names "" but for arguments
 * a pass named (a NameLoc). Sets *kernels to an array the caller frees
 * with wsKernelInfoFree and returns its length (0: no planned kernel), or
 * returns -1 after emitting a located error on the kernel that cannot be
 * described. */
intptr_t wsCollectKernelInfo(MlirOperation module, MlirStringRef source, WsKernelInfo **kernels);

/* Frees what wsCollectKernelInfo returned, its `count` kernels' argument
 * tables with it (NULL is ignored). */
void wsKernelInfoFree(WsKernelInfo *kernels, intptr_t count);

/* Reduces a location to a file position: names and call sites to what they
 * wrap, a fused location to its first file position. Returns false when
 * there is none (an unknown location). MLIR names a buffer parsed from
 * memory "-". */
bool wsLocationGetFilePosition(MlirLocation loc, MlirStringRef *file, int *line, int *column);

/* The deepest nesting of brackets ({, [, (, and the < of a type or an
 * attribute; not "->" or ">=") in `text`, outside strings and comments,
 * against `limit`: MLIR's parser recurses once per level, so a
 * text nested deeper than a few hundred levels would overflow its stack.
 * Returns false, with the line and column (1-based) of the first bracket
 * past the limit, when the text goes deeper. wsCompile and ws-opt refuse
 * a text deeper than WS_MAX_SOURCE_NESTING: deeper than any kernel,
 * shallow enough for the parser's recursion on an 8 MB stack, under
 * AddressSanitizer too. */
enum { WS_MAX_SOURCE_NESTING = 512 };
bool wsSourceNestingWithin(MlirStringRef text, int limit, int *line, int *column);

/* ws-pipeline's options for lowering a module that stage=plan has just
 * planned and proved in the same process (wsCompile, ws-opt
 * --emit=launcher): the proof, which opens stage=lower for a plan fed back
 * from outside, is not run again. Followed by a format= option. */
#define WS_LOWER_PLANNED "stage=lower check-protocol=false"

/* Whether a whole input holds an operation: not only whitespace and
 * comments, which MLIR would parse as an empty module and ws would refuse
 * later without a location. Returns false after an error at 1:1 of the
 * buffer MLIR names "-". ws-opt asks it of the whole input (a chunk of
 * --split-input-file may hold only comments), wsCompile of its source. */
bool wsSourceCheckHoldsOperation(MlirContext ctx, MlirStringRef text);

/* What ws-opt and wsCompile check of a text before MLIR parses it: that
 * it nests no deeper than WS_MAX_SOURCE_NESTING, and that it holds no
 * template field ("${NAME}" outside strings and comments: a ws.Template's
 * source, which MLIR's parser would only call an "unexpected character").
 * Returns false after a located error in `ctx` at the place, in the
 * buffer MLIR names "-" (the text being parsed). */
bool wsSourceCheckBeforeParse(MlirContext ctx, MlirStringRef text);

/* How much of a diagnostic's `message` to show: the whole of it, less an
 * operation MLIR printed into it in the generic form ("block with no
 * terminator, has \"scf.for\"(...) ..." shows as "block with no
 * terminator"); 0 for the note "see current operation: ..." that only
 * repeats the operation. The error's location already says where. ws-opt
 * and wsCompile show this much. */
size_t wsDiagnosticShownLength(MlirStringRef message);

/* Whether ws-opt and wsCompile leave `diag` out: a note of which nothing
 * is shown (wsDiagnosticShownLength of its `message`, the text MLIR
 * prints for it, is 0) and that has no notes of its own. */
bool wsDiagnosticHidden(MlirDiagnostic diag, MlirStringRef message);

/* A context as ws-opt and wsCompile make one: every upstream dialect, the
 * LLVM translations gpu-module-to-binary needs, and one thread (so that
 * diagnostics come in a stable order). The ws dialect is loaded with
 * wsContextLoadDialect. The caller destroys it. */
MlirContext wsCreateContext(void);

/* The first operation under `root` marked ws.warp_specialize, or a null
 * operation. After ws-pipeline{stage=plan}, a marked loop left is one the
 * scheduler did not take (its remark says why). */
MlirOperation wsFindMarkedLoop(MlirOperation root);

/* A "did you mean": when `message` is MLIR's error for an unknown
 * operation ("unregistered operation 'ws.laod' ...", "custom op
 * 'arith.mulff' is unknown"), writes into out[cap] the operation
 * registered in `ctx` one edit from it (a letter dropped, two swapped, one
 * changed or one added after the dialect's dot) and returns true; false
 * when the message is another or no name is that close. ws-opt and
 * wsCompile add it to the error. */
bool wsSuggestOperation(MlirContext ctx, MlirStringRef message, char *out, size_t cap);

/* Emits located errors saying why ws-pipeline{stage=plan} left no kernel
 * of `root` planned, each ending with `consequence` ("there is nothing to
 * launch"): at every gpu.func kernel when no loop is marked (mark the loop
 * that loads and stores its tiles), else at the first marked loop, which
 * the scheduler left (its remark says why). A root with no kernel gets one
 * error at its own location. */
void wsExplainNothingPlanned(MlirOperation root, const char *consequence);

/* The result of wsCompile: an opaque handle the caller frees with
 * wsCompiledDestroy. Every string it gives lives as long as the handle. */
typedef struct WsCompiled {
  void *ptr;
} WsCompiled;

/* Compiles the ws kernel source `source` (MLIR text) to PTX, in-process.
 * `filename` names the source in diagnostics (locations in the text are
 * reported under it). `options` are ws-pipeline's, in MLIR's "key=value"
 * form ("chip=sm_90a explain=true"; see ws-opt --help); wsCompile sets
 * `stage` and `format` itself and refuses them there. The result holds the
 * diagnostics whether or not it succeeded; it is null only when memory ran
 * out. */
WsCompiled wsCompile(MlirStringRef source, MlirStringRef filename, MlirStringRef options);

/* Frees a compile result (a null one is ignored). */
void wsCompiledDestroy(WsCompiled compiled);

/* True for the null result. */
static inline bool wsCompiledIsNull(WsCompiled compiled) { return compiled.ptr == NULL; }

/* True when the source compiled: the PTX and the kernels are there. */
bool wsCompiledSucceeded(WsCompiled compiled);

/* The PTX of the module's kernels (empty after a failure). */
MlirStringRef wsCompiledGetPTX(WsCompiled compiled);

/* The planned kernels, in the module's order, and kernel `index`'s launch
 * data (NULL when out of range). */
intptr_t wsCompiledGetNumKernels(WsCompiled compiled);
const WsKernelInfo *wsCompiledGetKernel(WsCompiled compiled, intptr_t index);

/* One diagnostic of a compile, in the order it was reported: errors,
 * warnings, the notes attached to them, and the remarks of ws passes (with
 * explain=true, one on each decision). `file` is empty and `line` and
 * `column` are 0 when the diagnostic has no file position. */
typedef struct WsCompileDiagnostic {
  MlirDiagnosticSeverity severity;
  MlirStringRef file;
  int line, column;
  MlirStringRef message;
} WsCompileDiagnostic;

/* How many diagnostics the compile reported (0 for a null compile). */
intptr_t wsCompiledGetNumDiagnostics(WsCompiled compiled);

/* Diagnostic `index` (0 <= index < wsCompiledGetNumDiagnostics). */
WsCompileDiagnostic wsCompiledGetDiagnostic(WsCompiled compiled, intptr_t index);

#ifdef __cplusplus
}
#endif

#endif /* WS_C_COMPILE_H */
