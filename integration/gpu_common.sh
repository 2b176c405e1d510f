# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Shared by the GPU suites' run scripts (sourced, not run).

# require_gpu: prints "skipped: no GPU" and exits 0 where there is none.
require_gpu() {
  if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "skipped: no GPU"
    exit 0
  fi
}

# sanitize HARNESS DIR NAME...: runs compute-sanitizer's racecheck,
# synccheck and memcheck on `python3 HARNESS DIR small NAME` for each
# NAME, prints each summary, and returns 1 unless all are clean (0 when
# compute-sanitizer is missing). API errors are not reported: the CUDA
# Python bindings the ws package launches through probe the driver for entry
# points newer than it (cuGetProcAddress fails), and every call of ours
# checks its own CUresult.
sanitize() {
  local harness="$1" dir="$2" bad=0 tool name log
  shift 2
  command -v compute-sanitizer >/dev/null || return 0
  for tool in racecheck synccheck memcheck; do
    for name in "$@"; do
      log="$(timeout 600 compute-sanitizer --tool $tool --report-api-errors no python3 "$harness" "$dir" small "$name" 2>&1)"
      echo "compute-sanitizer --tool $tool $name: $(echo "$log" | grep -E "SUMMARY" | tr -s ' ')"
      echo "$log" | grep -qE "(0 hazards displayed \(0 errors, 0 warnings\)|ERROR SUMMARY: 0 errors)" || bad=1
    done
  done
  return $bad
}

# check_and_sanitize HARNESS DIR NAME...: `python3 HARNESS DIR check` (10
# minutes at most), then sanitize on the NAMEs; prints PASS or FAIL and
# returns 1 on FAIL. What a suite's run script does once require_gpu passed.
check_and_sanitize() {
  local harness="$1" dir="$2" fail=0
  shift 2
  timeout 600 python3 "$harness" "$dir" check || fail=1
  sanitize "$harness" "$dir" "$@" || fail=1
  [ $fail = 0 ] && echo PASS || echo FAIL
  return $fail
}
