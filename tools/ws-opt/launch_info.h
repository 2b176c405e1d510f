/* launch_info.h: what a host needs to launch each planned kernel, read from
 * the plan attributes (after ws-insert-barriers, before lowering). */
#ifndef WS_OPT_LAUNCH_INFO_H
#define WS_OPT_LAUNCH_INFO_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/IR.h"
#include "ws-c/Dialect.h"

enum { LAUNCH_MAX_ARGS = 32 };

typedef struct launch_arg {
  bool is_desc;
  bool is_array;     /* a memref<?xT>: read element by element (dtype) */
  char c_type[16];   /* scalars: int32_t, int64_t, float, double */
  int64_t divisor;   /* integer scalars: ws.divisibility (1: none) */
  int rank;          /* descriptors: */
  int64_t box[5];    /* outermost first */
  WsDtype dtype;      /* the element type (ws-c/Dialect.h's table) */
  int swizzle;       /* bytes: 0, 32, 64, 128 */
  bool view;         /* the kernel takes a store view after it (stored, or direct) */
  bool direct;       /* no TMA copy goes through it: no CUtensorMap to encode */
} launch_arg;

typedef struct launch_info {
  char name[128];
  int block_threads, smem_bytes, blocks_per_sm;
  bool persistent;
  int cluster_x, cluster_y; /* blocks per cluster; 1, 1: none */
  bool pair;                /* a pair issuing one MMA (else multicast) */
  /* split-K (ws.workspace_per_block): the last argument is the address of
   * a workspace of grid x this many bytes; 0: none */
  int64_t workspace_per_block;
  int num_args;
  launch_arg args[LAUNCH_MAX_ARGS];
} launch_info;

/* The planned kernels of `module`, in *out (malloc'ed, the caller frees
 * it); returns their count, or -1 after printing why a kernel cannot be
 * described. */
int launch_info_collect(MlirOperation module, launch_info **out);

#endif
