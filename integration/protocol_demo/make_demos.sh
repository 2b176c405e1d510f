#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Builds the GPU demonstrations of broken protocols: each is a planned
# kernel edited by hand, as the check-protocol-*.mlir tests edit them. The
# default pipeline must reject each (ws-check-protocol); then each is
# compiled with check-protocol=false into a launcher named like the variant
# it breaks, so the usual harness runs it (run_demos.sh, on the GPU).
#   deadlock         add_f32: the compute partition's release of the input
#                    slots deleted; the load partition waits for it forever
#   race_release     add_f32: the input slot released before it is read;
#                    TMA refills it while the compute partition reads it
#   race_cbarrier    mm_128x256x64_w8: the named barrier before the C tile
#                    deleted; one consumer warpgroup writes C over the A/B
#                    ring while the other's wgmma may still read it
#   race_store       mm_128x256x64_w8: the store partition waits on the C
#                    tile's full barrier from phase 1 instead of 0, so its
#                    first wait passes at once and it stores the tile while
#                    the consumers still write it
# Needs no GPU.  Usage: make_demos.sh WS_OPT OUTDIR
set -euo pipefail
ws_opt="$1"
out="$2"
here="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$out"
python3 "$here/../variants.py" "$out/src" >/dev/null
python3 "$here/../matmul/variants.py" "$out/src-mm" >/dev/null
cp "$out/src-mm/mm_128x256x64_w8.mlir" "$out/src/"

# The first compute-partition release of channel 0 (after the full wait).
release='"ws.arrive"(%[0-9]*#0) {barrier = "empty", channel = 0 : i32}'
edit() {
  case "$1" in
    deadlock) sed "0,/$release/{/$release/d}" ;;
    race_release) python3 -c '
import re, sys
src = sys.stdin.read().split("\n")
wait = next(i for i, l in enumerate(src) if "\"ws.wait\"" in l and "barrier = \"full\", channel = 0" in l)
rel = next(i for i, l in enumerate(src) if i > wait and re.search(r"\"ws.arrive\".*barrier = \"empty\", channel = 0", l))
line = src.pop(rel)
src.insert(wait + 1, line)
print("\n".join(src), end="")' ;;
    race_cbarrier) sed '/nvvm.barrier id/d' ;;
    race_store) sed 's/{depth = 1 : i32, start_phase = 0 : i32}/{depth = 1 : i32, start_phase = 1 : i32}/' ;;
  esac
}
for demo in deadlock:add_f32 race_release:add_f32 race_cbarrier:mm_128x256x64_w8 \
            race_store:mm_128x256x64_w8; do
  name="${demo%%:*}"; kernel="${demo#*:}"
  mkdir -p "$out/$name"
  "$ws_opt" --ws-pipeline="stage=plan check-protocol=false" "$out/src/$kernel.mlir" \
    | edit "$name" > "$out/$name/$kernel.plan.mlir"
  echo "== $name ($kernel): the default pipeline says"
  if "$ws_opt" "$out/$name/$kernel.plan.mlir" --emit=ptx -o /dev/null 2> "$out/$name/check.log"; then
    echo "   accepted: the check missed it"; exit 1
  fi
  grep -o "error: .*" "$out/$name/check.log" | head -1 | sed 's/^/   /'
  "$ws_opt" "$out/$name/$kernel.plan.mlir" --ws-pipeline=check-protocol=false \
    --emit=launcher -o "$out/$name/$kernel"
done
grep '^add_f32 ' "$out/src/manifest" > "$out/deadlock/manifest"
cp "$out/deadlock/manifest" "$out/race_release/manifest"
grep '^mm_128x256x64_w8 ' "$out/src-mm/manifest" > "$out/race_cbarrier/manifest"
cp "$out/race_cbarrier/manifest" "$out/race_store/manifest"
echo "demos built in $out"
