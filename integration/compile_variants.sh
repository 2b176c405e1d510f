#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Compiles every integration variant to PTX and to a C launcher, and checks
# that the PTX has what warp specialization needs: setmaxnreg (inc and dec),
# TMA loads and stores (cp.async.bulk.tensor), mbarrier waits and the async
# proxy fence. Needs no GPU.  Usage: compile_variants.sh WS_OPT OUTDIR
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/compile_common.sh"
suite_args "$@"
python3 "$here/variants.py" "$out" >/dev/null
while read -r name op dtype rows cols stages warps inputs; do
  emit_kernel "$name"
  ptx_lacks "$name" 'setmaxnreg.inc.sync.aligned.u32' \
    'setmaxnreg.dec.sync.aligned.u32' 'cp.async.bulk.tensor.2d.shared::cluster.global' \
    'cp.async.bulk.tensor.2d.global.shared::cta' 'mbarrier.try_wait.parity' \
    'fence.proxy.async.shared::cta' '.maxnreg' || fail=1
  if grep -q 'fma.rn' "$out/$name.ptx"; then echo 1; else echo 0; fi > "$out/$name.fused"
  count=$((count + 1))
done < "$out/manifest"
echo "compiled $count variants to PTX and launchers; PTX checks $([ $fail = 0 ] && echo passed || echo FAILED)"
# The generated launchers must compile, and the GPU harness must check
# against each launcher's header (-fsyntax-only: run_gpu.sh builds it on the
# GPU machine; no GPU needed here).
while read -r name op dtype rows cols stages warps inputs; do
  if gcc -std=c11 -O2 -Wall -Werror -ffp-contract=off -fsyntax-only -DMOD="$name" -DKERN="$name" \
       -DNUM_IN="$inputs" -DOP_"${op^^}" -DELEM_"${dtype^^}" -DROWS="$rows" -DCOLS="$cols" \
       -I"$out" -I"$cuda/include" "$here/elementwise_test.c" &&
     launcher_compiles "$name"; then
    built=$((built + 1))
  else
    echo "FAIL $name: launcher or harness does not compile"
    fail=1
  fi
done < "$out/manifest"
echo "harness compiles for $built variants"
exit $fail
