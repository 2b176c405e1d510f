#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Runs the broken-protocol demonstrations that make_demos.sh built in DIR on
# the GPU: what the hardware does with a protocol ws-check-protocol rejects.
# The deadlock runs under the harness watchdog (exit 3: a hang); the races
# run at several sizes against the CPU reference and under
# compute-sanitizer racecheck. Exit status 0 whatever the kernels do: this
# reports, it does not test.  Usage: run_demos.sh DIR
set -u
dir="$1"
here="$(cd "$(dirname "$0")" && pwd)"
cuda="${WS_CUDA_ROOT:-/usr/local/cuda}"
. "$here/../matmul/flags.sh"
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "skipped: no GPU"
  exit 0
fi
build_elementwise() { # DEMO
  read -r name op dtype rows cols stages warps inputs < "$dir/$1/manifest"
  gcc -std=c11 -O2 -ffp-contract=off -DMOD="$name" -DKERN="$name" -DNUM_IN="$inputs" \
    -DOP_"${op^^}" -DELEM_"${dtype^^}" -DROWS="$rows" -I"$dir/$1" -I"$cuda/include" \
    "$here/../elementwise_test.c" "$dir/$1/$name.c" -L"$cuda/lib64/stubs" -lcuda -lm \
    -o "$dir/$1/test" && echo "$name"
}
build_matmul() { # DEMO
  read -r name bm bn bk warps dtype epilogue layout < "$dir/$1/manifest"
  gcc -std=c11 -O2 $(harness_defines "$name" "$bm" "$bn" "$dtype" "$epilogue" "$layout") \
    -I"$dir/$1" -I"$cuda/include" "$here/../matmul/matmul_test.c" "$dir/$1/$name.c" \
    -L"$cuda/lib64/stubs" -lcuda -lm -o "$dir/$1/test" && echo "$name"
}
run() { # DEMO ARGS...: one run, with its exit status
  local demo="$1"; shift
  timeout 120 "$dir/$demo/test" "$@" 2>&1 | tail -2 | sed "s/^/  /"
  echo "  exit ${PIPESTATUS[0]}: $demo $*"
}
racecheck() { # DEMO ARGS...
  local demo="$1"; shift
  local log="$dir/$demo/racecheck.log"
  timeout 300 "$cuda/bin/compute-sanitizer" --tool racecheck --racecheck-report all \
    "$dir/$demo/test" "$@" > "$log" 2>&1
  echo "  racecheck exit $?: $demo $*: $(grep -cE 'Error: Race|Warning: Race|hazard' "$log") hazard lines"
  grep -E 'RACECHECK SUMMARY|Race reported|Error: Race|Warning: Race' "$log" | sort | uniq -c | head -8 | sed 's/^/    /'
}
echo "== deadlock"
build_elementwise deadlock >/dev/null && run deadlock 1000 2000
echo "== race_release"
build_elementwise race_release >/dev/null
for size in "1000 2000" "4096 4096" "8192 8192"; do run race_release $size; done
racecheck race_release 1000 2000
echo "== race_cbarrier"
build_matmul race_cbarrier >/dev/null
for shape in "256 512 256" "4096 4096 4096" "8192 8192 8192"; do run race_cbarrier $shape; done
racecheck race_cbarrier 256 512 256
echo "== race_store"
build_matmul race_store >/dev/null
for shape in "300 260 40" "208 416 304" "4096 4096 4096"; do run race_store $shape; done
racecheck race_store 300 260 40
