#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Compiles every row-kernel variant (variants.py) to PTX and to a C
# launcher and checks that the PTX has what a row kernel needs: the TMA
# loads and mbarrier waits of the warp-specialized loop, the rows'
# butterfly shuffles and setmaxnreg, the TMA stores of its tiles (a
# cross-entropy stores row vectors with st.global instead), and its
# kind's math (softmax's and cross-entropy's ex2.approx.ftz, a norm's
# rsqrt.approx); and that each launcher compiles.
# Needs no GPU.
# Usage: compile_rows.sh WS_OPT OUTDIR
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../compile_common.sh"
suite_args "$@"
python3 "$here/variants.py" "$out"
while read -r name kind dtype rows n form; do
  emit_kernel "$name"
  ptx_lacks "$name" 'cp.async.bulk.tensor.2d.shared::cluster.global' \
    'mbarrier.try_wait.parity' 'shfl.sync.bfly.b32' 'setmaxnreg.inc.sync.aligned.u32' || fail=1
  case "$kind" in
    cross_entropy) ptx_lacks "$name" 'st.global.b32' 'ld.global.b32' \
      || fail=1 ;;
    *) ptx_lacks "$name" 'cp.async.bulk.tensor.2d.global.shared::cta' || fail=1 ;;
  esac
  case "$kind" in
    softmax | cross_entropy) ptx_lacks "$name" 'ex2.approx.ftz.f32' || fail=1 ;;
    *) ptx_lacks "$name" 'rsqrt.approx.f32' || fail=1 ;;
  esac
  count_launcher "$name"
done < "$out/manifest"
echo "compiled $count row kernels, $built launchers"
exit $fail
