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
python3 "$here/variants.py" "$out"
fail=0
count=0
while read -r name bm bn bk warps dtype epilogue layout; do
  "$ws_opt" "$out/$name.mlir" --emit=ptx -o "$out/$name.ptx"
  "$ws_opt" "$out/$name.mlir" --emit=launcher -o "$out/$name"
  for pattern in 'wgmma.mma_async.sync.aligned.m64n' 'wgmma.fence.sync.aligned' \
                 'wgmma.commit_group.sync.aligned' 'wgmma.wait_group.sync.aligned 	1' \
                 'wgmma.wait_group.sync.aligned 	0' \
                 'setmaxnreg.inc.sync.aligned.u32' 'setmaxnreg.dec.sync.aligned.u32' \
                 'cp.async.bulk.tensor.2d.shared::cluster.global' \
                 'cp.async.bulk.tensor.2d.global.shared::cta' 'mbarrier.try_wait.parity'; do
    if ! grep -qF "$pattern" "$out/$name.ptx"; then
      echo "FAIL $name: PTX lacks $pattern"
      fail=1
    fi
  done
  count=$((count + 1))
done < "$out/manifest"
echo "compiled $count matmul variants to PTX and launchers; PTX checks $([ $fail = 0 ] && echo passed || echo FAILED)"
# The launchers and the GPU harness must compile (no GPU needed).
cuda="${WS_CUDA_ROOT:-/usr/local/cuda}"
built=0
while read -r name bm bn bk warps dtype epilogue layout; do
  flags="$(variant_flags "$dtype" "$epilogue" "$layout")"
  if gcc -std=c11 -O2 -Wall -Wextra -Werror -DMOD="$name" -DKERN="$name" -DBM="$bm" \
       -DBN="$bn" $flags -I"$out" -I"$cuda/include" -c "$here/matmul_test.c" \
       -o "$out/$name.test.o" &&
     gcc -std=c11 -O2 -Wall -Werror -I"$cuda/include" -c "$out/$name.c" -o "$out/$name.o"; then
    built=$((built + 1))
  else
    echo "FAIL $name: launcher or harness does not compile"
    fail=1
  fi
done < "$out/manifest"
echo "harness compiles for $built matmul variants"
exit $fail
