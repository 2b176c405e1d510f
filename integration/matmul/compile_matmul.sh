#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Compiles every matmul variant to PTX and to a C launcher and checks that
# the PTX has what the warp-specialized matmul needs: wgmma with its fence,
# commit and wait, setmaxnreg both ways, TMA loads and the TMA store,
# mbarrier waits. With --chip=sm_100a, the Blackwell set instead: tcgen05.mma
# issued into tensor memory and committed to mbarriers, tcgen05.ld, the
# allocation and its fences, and no wgmma; each PTX also goes through
# ptxas -arch=sm_100a (no spills), and each launcher's cubin must be built
# for SM 100. Needs no GPU.
# Usage: compile_matmul.sh WS_OPT OUTDIR [--chip=sm_100a]
set -euo pipefail
chip="${3:---chip=sm_90a}"
chip="${chip#--chip=}"
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/flags.sh"
. "$here/../compile_common.sh"
suite_args "$1" "$2"
python3 "$here/variants.py" "$out" "--chip=$chip"
while read -r name bm bn bk warps dtype epilogue layout sched; do
  emit_kernel "$name"
  ptx_lacks "$name" 'setmaxnreg.inc.sync.aligned.u32' 'setmaxnreg.dec.sync.aligned.u32' \
    'cp.async.bulk.tensor.2d.shared::cluster.global' \
    'cp.async.bulk.tensor.2d.global.shared::cta' 'mbarrier.try_wait.parity' || fail=1
  if [ "$chip" = sm_100a ]; then
    # a pair (a cluster) issues every tcgen05 op for both CTAs: cta_group::2,
    # its copies completing on the leader's barrier, its commits multicast
    group=1
    [ "${sched#*_c}" != "$sched" ] && group=2
    ptx_lacks "$name" '.target sm_100a' "tcgen05.mma.cta_group::$group.kind::f16" \
      "tcgen05.commit.cta_group::$group.mbarrier::arrive::one" 'tcgen05.ld.sync.aligned.16x256b' \
      'tcgen05.wait::ld.sync.aligned' "tcgen05.alloc.cta_group::$group.sync.aligned" \
      'tcgen05.relinquish_alloc_permit' "tcgen05.dealloc.cta_group::$group.sync.aligned" \
      'tcgen05.fence::before_thread_sync' 'tcgen05.fence::after_thread_sync' || fail=1
    if [ $group = 2 ]; then
      ptx_lacks "$name" 'mbarrier::complete_tx::bytes.cta_group::2' \
        'tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster' || fail=1
      if grep -q 'cta_group::1' "$out/$name.ptx"; then
        echo "FAIL $name: a pair's PTX mixes cta_group::1 into its tcgen05 ops"; fail=1
      fi
    fi
    if grep -q wgmma "$out/$name.ptx"; then echo "FAIL $name: sm_100a PTX has wgmma"; fail=1; fi
    log="$("$cuda/bin/ptxas" -arch=sm_100a -v "$out/$name.ptx" -o "$out/$name.cubin" 2>&1)" ||
      { echo "FAIL $name: ptxas -arch=sm_100a: $log"; fail=1; }
    echo "$log" | grep -q " 0 bytes spill stores, 0 bytes spill loads" ||
      { echo "FAIL $name: ptxas spills: $log"; fail=1; }
    sm="$(python3 "$here/../cubin_arch.py" "$out/$name.c")"
    [ "$sm" = 100 ] || { echo "FAIL $name: the launcher's cubin is for SM $sm, not 100"; fail=1; }
  else
    ptx_lacks "$name" 'wgmma.mma_async.sync.aligned.m64n' \
      'wgmma.fence.sync.aligned' 'wgmma.commit_group.sync.aligned' \
      'wgmma.wait_group.sync.aligned 	1' 'wgmma.wait_group.sync.aligned 	0' || fail=1
  fi
  if [ "${sched#*_c}" != "$sched" ]; then # a cluster: multicast, remote arrivals, its barriers
    ptx_lacks "$name" '.reqnctapercluster' '.multicast::cluster' 'mapa.shared::cluster' \
      'mbarrier.arrive.shared::cluster.b64' 'barrier.cluster.arrive.aligned' \
      'barrier.cluster.wait.aligned' || fail=1
  fi
  count=$((count + 1))
done < "$out/manifest"
echo "compiled $count $chip matmul variants to PTX and launchers; PTX checks $([ $fail = 0 ] && echo passed || echo FAILED)"
# The launchers must compile, and the GPU harness must check against each
# launcher's header (-fsyntax-only: run_matmul.sh builds it on the GPU
# machine; no GPU needed here).
while read -r name bm bn bk warps dtype epilogue layout sched; do
  if gcc -std=c11 -O2 -Wall -Wextra -Werror -fsyntax-only \
       $(harness_defines "$name" "$bm" "$bn" "$dtype" "$epilogue" "$layout" "$sched") \
       -I"$out" -I"$cuda/include" "$here/matmul_test.c" &&
     launcher_compiles "$name"; then
    built=$((built + 1))
  else
    echo "FAIL $name: launcher or harness does not compile"
    fail=1
  fi
done < "$out/manifest"
echo "harness compiles for $built matmul variants"
exit $fail
