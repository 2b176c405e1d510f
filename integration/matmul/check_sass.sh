#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Checks the SASS of every sm_100a cubin in DIR (compile_matmul.sh ...
# --chip=sm_100a leaves NAME.cubin beside each launcher, and fp8.py compile
# beside each kernel of its manifest whose last field is sm_100a; a
# block-scaled kernel's also copies its scales, UTCCP): cuobjdump must
# take it as SM 100 code, and it must hold the tcgen05 MMA (UTC*MMA), its
# commit to an mbarrier (UTCBAR), tensor-memory loads (LDTM) and no Hopper
# wgmma (HGMMA); a pair's (a cluster of two, "_c2" in its name) the 2-CTA
# forms: the MMA (UTC*MMA.2CTA), its commit multicast to both CTAs
# (UTCBAR.2CTA.MULTICAST) and the copies that signal the leader's barrier
# (UTMALDG...2CTA). Prints each cubin's tcgen05 opcodes with their counts.
# Needs cuobjdump (CUDA 12.8 or later), not a GPU.
# Usage: check_sass.sh DIR
set -uo pipefail
dir="$1"
cuda="${CUDA_HOME:-/usr/local/cuda}"
objdump="$(command -v cuobjdump || echo "$cuda/bin/cuobjdump")"
if [ ! -x "$objdump" ]; then
  echo "skipped: no cuobjdump"
  exit 0
fi
fail=0
count=0
all="$([ "$(cat "$dir/chip" 2>/dev/null)" = sm_100a ] && echo 1 || echo 0)"
while read -r name rest; do
  [ "$all" = 1 ] || [ "${rest##* }" = sm_100a ] || continue
  sass="$("$objdump" -sass "$dir/$name.cubin" 2>&1)" || { echo "FAIL $name: cuobjdump: $sass"; fail=1; continue; }
  ops="$(grep -oE '\b(UTC[A-Z0-9]*|LDTM|STTM|HGMMA)\b' <<< "$sass" | sort | uniq -c | tr -s ' ' | tr '\n' ',')"
  grep -q "code for sm_100a" <<< "$sass" || { echo "FAIL $name: not SM 100 code"; fail=1; }
  for want in 'UTC[A-Z]*MMA' 'UTCBAR' 'LDTM'; do
    grep -qE "\b$want\b" <<< "$sass" || { echo "FAIL $name: SASS lacks $want"; fail=1; }
  done
  if [ "${name#*_c2}" != "$name" ]; then
    for want in 'UTC[A-Z]*MMA\.2CTA' 'UTCBAR\.2CTA\.MULTICAST' 'UTMALDG\.[0-9]D\.2CTA'; do
      grep -qE "\b$want" <<< "$sass" || { echo "FAIL $name: a pair's SASS lacks $want"; fail=1; }
    done
  fi
  if [ "${rest#* mx }" != "$rest" ] && ! grep -qE '\bUTCCP\b' <<< "$sass"; then
    echo "FAIL $name: block-scaled, but its SASS lacks UTCCP"; fail=1
  fi
  if grep -q HGMMA <<< "$sass"; then echo "FAIL $name: SASS has wgmma (HGMMA)"; fail=1; fi
  echo "$name:$ops"
  count=$((count + 1))
done < "$dir/manifest"
echo "SASS of $count sm_100a cubins checked: $([ $fail = 0 ] && echo passed || echo FAILED)"
exit $fail
