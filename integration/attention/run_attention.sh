#!/usr/bin/env bash
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
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "skipped: no GPU"
  exit 0
fi
fail=0
timeout 600 python3 "$here/attention_run.py" "$dir" check || fail=1
if command -v compute-sanitizer >/dev/null; then
  for tool in racecheck synccheck memcheck; do
    for name in att_f16_d128 att_bf16_d128_causal att_f16_d64 att_f16_d256_causal_gqa_softcap \
                att_bf16_d128_causal_varlen_gqa_softcap att_e4m3_d64; do
      log="$(timeout 600 compute-sanitizer --tool $tool \
               python3 "$here/attention_run.py" "$dir" small "$name" 2>&1)"
      echo "compute-sanitizer --tool $tool $name: $(echo "$log" | grep -E "SUMMARY" | tr -s ' ')"
      echo "$log" | grep -qE "(0 hazards displayed \(0 errors, 0 warnings\)|ERROR SUMMARY: 0 errors)" || fail=1
    done
  done
fi
[ $fail = 0 ] && echo PASS || echo FAIL
exit $fail
