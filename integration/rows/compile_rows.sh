#!/usr/bin/env bash
# Compiles every row-kernel variant (variants.py) to PTX and to a C
# launcher and checks that the PTX has what a row kernel needs: the TMA
# loads and stores and mbarrier waits of the warp-specialized loop, the
# rows' butterfly shuffles and setmaxnreg, and its kind's math (softmax's
# ex2.approx.ftz, a norm's rsqrt.approx); and that each launcher compiles.
# Needs no GPU.
# Usage: compile_rows.sh WS_OPT OUTDIR
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../compile_common.sh"
suite_args "$@"
python3 "$here/variants.py" "$out"
while read -r name kind dtype rows n; do
  emit_kernel "$name"
  ptx_lacks "$name" 'cp.async.bulk.tensor.2d.shared::cluster.global' \
    'cp.async.bulk.tensor.2d.global.shared::cta' 'mbarrier.try_wait.parity' \
    'shfl.sync.bfly.b32' 'setmaxnreg.inc.sync.aligned.u32' || fail=1
  case "$kind" in
    softmax) ptx_lacks "$name" 'ex2.approx.ftz.f32' || fail=1 ;;
    *) ptx_lacks "$name" 'rsqrt.approx.f32' || fail=1 ;;
  esac
  count_launcher "$name"
done < "$out/manifest"
echo "compiled $count row kernels, $built launchers"
exit $fail
