#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Checks every compiled attention variant in DIR (compile_attention.sh) on
# the GPU against an f32 reference (attention_run.py check: small and large
# B x H x S, Q/K/V as strided views, guard rows around O), then runs
# compute-sanitizer (racecheck, synccheck, memcheck) on one causal, one
# full, one pipelined variant (att_f16_d64) and one with grouped-query
# heads and the soft cap (at D = 256), a varlen one with both, and an FP8
# one (D = 64: pipelined, its e4m3 P carried to the next step); the
# sanitizer checks ws's kernel (attention) only: the torch reference's
# cuBLAS kernels are not ours (racecheck reports hazards inside cuBLAS's
# nvjet matmuls at the larger sizes). Usage: run_attention.sh DIR   (on the GPU machine)
set -uo pipefail
dir="$1"
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../gpu_common.sh"
require_gpu
check_and_sanitize "$here/attention_run.py" "$dir" att_f16_d128 att_bf16_d128_causal att_f16_d64 \
  att_f16_d256_causal_gqa_softcap att_bf16_d128_causal_varlen_gqa_softcap att_e4m3_d64
