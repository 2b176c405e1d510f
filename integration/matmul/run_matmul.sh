#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Builds the matmul harness for every compiled variant in DIR (launchers
# from compile_matmul.sh) and checks each on the GPU at small, ragged and
# large sizes, K = 0, below, at and past one K tile, a grid with blocks
# past the last tile, each under the harness watchdog.
# The set is sm_90a's (an H100) or, compiled with --chip=sm_100a, the
# tcgen05 set (a B200 or another GPU of compute capability 10.0); DIR/chip
# says which, and a GPU of another kind is skipped with the reason.
# Usage: run_matmul.sh DIR   (on the GPU machine)
set -uo pipefail
dir="$1"
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/flags.sh"
cuda="${CUDA_HOME:-/usr/local/cuda}"
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "skipped: no GPU"
  exit 0
fi
chip="$(cat "$dir/chip" 2>/dev/null || echo sm_90a)"
want="$([ "$chip" = sm_100a ] && echo 10.0 || echo 9.0)"
have="$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' ')"
if [ "$have" != "$want" ]; then
  echo "skipped: $chip cubins need a GPU of compute capability $want; this one is $have"
  exit 0
fi
fail=0
while read -r name bm bn bk warps dtype epilogue layout sched; do
  if ! gcc -std=c11 -O2 $(harness_defines "$name" "$bm" "$bn" "$dtype" "$epilogue" "$layout" "$sched") \
       -I"$dir" -I"$cuda/include" "$here/matmul_test.c" "$dir/$name.c" \
       -L"$cuda/lib64/stubs" -lcuda -lm -o "$dir/$name.test"; then
    echo "FAIL $name: harness does not build"; fail=1; continue
  fi
  for shape in "208 416 304" "2000 1000 2000" "256 512 16" "256 512 $bk" "300 260 40" \
               "64 64 8" "256 512 0" "300 260 0" "208 416 304 --extra-blocks" \
               "4096 4096 4096" "8192 8192 8192"; do
    "$dir/$name.test" $shape || fail=1
  done
  if [ "${sched#tile}" = "$sched" ]; then
    # grids smaller than the tile count (each block takes several tiles,
    # some more than others), one tile per block, and one tile in all
    for shape in "2000 1000 2000 --grid 1" "2000 1000 2000 --grid 5" "1100 900 300 --grid 7" \
                 "128 128 64 --grid 3" "300 260 0 --grid 2" "4096 4096 64 --grid 132"; do
      "$dir/$name.test" $shape || fail=1
    done
  fi
  if [ "${sched%_sk}" != "$sched" ]; then
    # split-K: fewer tiles than blocks (4 splits of a ragged K, 2 splits on
    # a grid of 7, the benchmark's thin shape), a K too short to split
    for shape in "256 512 8192" "300 260 2000" "128 128 1100 --grid 7" "256 8192 8192" \
                 "200 300 100" "640 768 4096 --grid 9"; do
      "$dir/$name.test" $shape || fail=1
    done
  fi
  if [ "${sched%_st}" != "$sched" ]; then
    # stream-K: at least as many tiles as blocks, so the last two waves'
    # K steps are shared out (ragged M, N and K; 1, 2 and 16 K steps a
    # tile; as many tiles as blocks and twice as many; one tile for a
    # block's whole run), checked in full; then the benchmark's long shape
    for shape in "1000 1024 1000 --grid 20" "1100 900 300 --grid 7" "640 768 4096 --grid 9" \
                 "256 512 8192 --grid 2" "300 260 100 --grid 3" "300 260 64 --grid 5" \
                 "1000 520 64 --grid 13" "1024 1024 128 --grid 8" "512 512 200 --grid 16" \
                 "4096 4096 16384"; do
      "$dir/$name.test" $shape || fail=1
    done
  fi
done < "$dir/manifest"
# compute-sanitizer on one 8-warp configuration (two consumer warpgroups),
# tiled and persistent (a grid of 3 blocks over 15 or 30 tiles): cooperative
# (128x256), and ping-pong with and without a residual loaded in the
# epilogue (128x128); split-K (ping-pong, 2 splits over a grid of 12, the
# owners adding the others' sums); stream-K (ping-pong, 30 tiles of 8 K
# steps on 4 blocks: 24 whole, the last 6 tiles' steps shared); the C
# tile stored box by box (store boxes), tiled and persistent. A kernel DIR does not hold is skipped
# (a DIR with part of the set).
if command -v compute-sanitizer >/dev/null; then
  runs=("mm_128x256x64_w8 256 512 256" "pmm_128x256x64_w8 640 768 256 --grid 3"
        "pmm_128x128x64_w8_residual 640 768 256 --grid 3" "pmm_128x128x64_w8 640 768 256 --grid 3"
        "pmm_128x128x64_w8_sk_bias_relu 300 260 2000 --grid 12"
        "pmm_128x128x64_w8_st_bias_relu 640 768 512 --grid 4"
        "mm_128x256x64_w8_sb 256 512 256" "pmm_128x256x64_w8_sb 640 768 256 --grid 3")
  [ "$chip" = sm_100a ] &&
    runs=("bw_128x256x64_w8 256 512 256" "pbw_128x256x64_w8 640 768 256 --grid 3"
          "pbw_128x128x64_w8_bf16_residual 640 768 256 --grid 3")
  for tool in racecheck synccheck memcheck; do
    for run in "${runs[@]}"; do
      set -- $run
      [ -x "$dir/$1.test" ] || continue
      log="$(compute-sanitizer --tool $tool "$dir/$1.test" "${@:2}" 2>&1)"
      echo "compute-sanitizer --tool $tool $run: $(echo "$log" | grep -E "SUMMARY" | tr -s ' ')"
      echo "$log" | grep -qE "(0 hazards displayed \(0 errors, 0 warnings\)|ERROR SUMMARY: 0 errors)" || fail=1
    done
  done
fi
echo "matmul suite: $(wc -l < "$dir/manifest") variants: $([ $fail = 0 ] && echo passed || echo FAILED)"
exit $fail
