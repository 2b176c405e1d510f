#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Compiles every attention variant (variants.py) to PTX and to a C launcher
# and checks that the PTX has what the warp-specialized flash attention
# needs: both wgmma forms (A from shared memory for S = Q K^T, A from
# registers for P V), their fence/commit/wait, the quad shuffles of the row
# reductions, setmaxnreg both ways, the TMA loads and store (rank 4 for the
# ragged B x H x S x D and varlen window layouts) and mbarrier waits, a
# varlen kernel's ld.global of its sequence offsets; exp2's argument as one
# fma (the scale folded in), or for a soft-capped variant tanh.approx; exp2
# as ex2.approx.ftz (fastmath<afn>); and
# that each launcher compiles. Needs no GPU.
# Usage: compile_attention.sh WS_OPT OUTDIR
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../compile_common.sh"
suite_args "$@"
python3 "$here/variants.py" "$out"
while read -r name d bm bn dtype causal layout features; do
  rank=$([ "$layout" = rows ] && echo 2 || echo 4)
  math='fma.rn.f32'
  ex2='ex2.approx.ftz.f32'
  case "$features" in *softcap*) math='tanh.approx.f32' ;; esac
  emit_kernel "$name"
  if [ "$layout" = varlen ]; then
    ptx_lacks "$name" 'ld.global.b32' || fail=1
  fi
  ptx_lacks "$name" 'wgmma.mma_async.sync.aligned.m64n' '}, {%r' \
    'wgmma.fence.sync.aligned' 'wgmma.commit_group.sync.aligned' \
    'wgmma.wait_group.sync.aligned 	0' 'shfl.sync.bfly.b32' \
    'setmaxnreg.inc.sync.aligned.u32' 'setmaxnreg.dec.sync.aligned.u32' \
    "cp.async.bulk.tensor.${rank}d.shared::cluster.global" \
    "cp.async.bulk.tensor.${rank}d.global.shared::cta" 'mbarrier.try_wait.parity' \
    "$math" "$ex2" || fail=1
  count_launcher "$name"
done < "$out/manifest"
echo "compiled $count attention variants to PTX and launchers; PTX checks $([ $fail = 0 ] && echo passed || echo FAILED)"
echo "launchers compile for $built attention variants"
exit $fail
