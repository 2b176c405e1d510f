#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Runs the integration suite on a GPU: builds the harness for every variant
# compiled by compile_variants.sh into DIR, runs each at ragged and large
# sizes against the CPU reference (bit-exact), the launcher's refusal of
# host memory, then racecheck and synccheck on the add kernel. Without a
# GPU it says "skipped: no GPU".
#   Usage: run_gpu.sh DIR [NAME-REGEX]   (the regex picks variants)
set -u
dir="$1"
only="${2:-.}"
here="$(cd "$(dirname "$0")" && pwd)"
cuda="${WS_CUDA_ROOT:-/usr/local/cuda}"
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "skipped: no GPU"
  exit 0
fi
mkdir -p "$dir/bin"
pass=0
fail=0
sizes=("1000 2000" "4000 120" "33 64" "4096 4096" "8192 8192")
while read -r name op dtype rows cols stages warps inputs; do
  [[ "$name" =~ $only ]] || continue
  flags="-DMOD=$name -DKERN=$name -DNUM_IN=$inputs -DOP_${op^^} -DELEM_${dtype^^} -DROWS=$rows -DCOLS=$cols"
  if ! gcc -std=c11 -O2 -ffp-contract=off $flags -I"$dir" -I"$cuda/include" \
       "$here/elementwise_test.c" "$dir/$name.c" -L"$cuda/lib64/stubs" -lcuda -lm \
       -o "$dir/bin/$name"; then
    echo "FAIL $name: harness does not build"
    fail=$((fail + 1))
    continue
  fi
  for size in "${sizes[@]}"; do
    if timeout 60 "$dir/bin/$name" $size; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
  done
done < "$dir/manifest"
# the launcher's residency rule against the real driver: host memory
# refused by name, managed memory taken
if [ -x "$dir/bin/add_f32" ]; then
  if timeout 60 "$dir/bin/add_f32" 1000 2000 --where; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
fi
for tool in racecheck synccheck; do
  log="$dir/sanitizer-$tool.log"
  "$cuda/bin/compute-sanitizer" --tool "$tool" --error-exitcode 9 "$dir/bin/add_f32" 1000 2000 >"$log" 2>&1
  status=$?
  echo "compute-sanitizer --tool $tool add_f32 1000x2000: exit $status; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tr '\n' ' ')"
  if [ $status -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); tail -20 "$log"; fi
done
echo "integration: $pass passed, $fail failed"
[ $fail -eq 0 ]
