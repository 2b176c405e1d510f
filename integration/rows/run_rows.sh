#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Checks every compiled row kernel in DIR (compile_rows.sh) on the GPU
# against an f64 reference (rows_run.py check: row counts from 1 to a few
# thousand, ragged last row blocks, -inf rows, guard rows around y and NaN
# rows around x), then runs compute-sanitizer (racecheck, synccheck,
# memcheck) on a kernel of each kind, rows that span warps and rows that
# do not among them.
# Usage: run_rows.sh DIR   (on the GPU machine)
set -uo pipefail
dir="$1"
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../gpu_common.sh"
require_gpu
check_and_sanitize "$here/rows_run.py" "$dir" softmax_f32_128 softmax_bf16_4096 softmax_bf16_8192 \
  rmsnorm_bf16_4096 layernorm_f32_128 layernorm_bf16_8192 add_rmsnorm_bf16_1024 \
  cross_entropy_f16_1024 cross_entropy_bf16_4096 softmax_chunks_bf16_4096 layernorm_chunks_f32_512
