#!/usr/bin/env bash
# Compiles every matmul variant to PTX and to a C launcher and checks that
# the PTX has what the warp-specialized matmul needs: wgmma with its fence,
# commit and wait, setmaxnreg both ways, TMA loads and the TMA store,
# mbarrier waits. Needs no GPU. Usage: compile_matmul.sh WS_OPT OUTDIR
set -euo pipefail
ws_opt="$1"
out="$2"
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/flags.sh"
cuda="${WS_CUDA_ROOT:-/usr/local/cuda}"
. "$here/../compile_common.sh"
python3 "$here/variants.py" "$out"
fail=0
count=0
while read -r name bm bn bk warps dtype epilogue layout sched; do
  emit_kernel "$name"
  ptx_lacks "$name" 'wgmma.mma_async.sync.aligned.m64n' \
    'wgmma.fence.sync.aligned' 'wgmma.commit_group.sync.aligned' \
    'wgmma.wait_group.sync.aligned 	1' 'wgmma.wait_group.sync.aligned 	0' \
    'setmaxnreg.inc.sync.aligned.u32' 'setmaxnreg.dec.sync.aligned.u32' \
    'cp.async.bulk.tensor.2d.shared::cluster.global' \
    'cp.async.bulk.tensor.2d.global.shared::cta' 'mbarrier.try_wait.parity' || fail=1
  count=$((count + 1))
done < "$out/manifest"
echo "compiled $count matmul variants to PTX and launchers; PTX checks $([ $fail = 0 ] && echo passed || echo FAILED)"
# The launchers and the GPU harness must compile (no GPU needed).
built=0
while read -r name bm bn bk warps dtype epilogue layout sched; do
  if gcc -std=c11 -O2 -Wall -Wextra -Werror \
       $(harness_defines "$name" "$bm" "$bn" "$dtype" "$epilogue" "$layout" "$sched") \
       -I"$out" -I"$cuda/include" -c "$here/matmul_test.c" -o "$out/$name.test.o" &&
     launcher_compiles "$name"; then
    built=$((built + 1))
  else
    echo "FAIL $name: launcher or harness does not compile"
    fail=1
  fi
done < "$out/manifest"
echo "harness compiles for $built matmul variants"
exit $fail
