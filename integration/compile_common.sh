# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# compile_common.sh: what the suites' compile scripts (compile_variants.sh,
# matmul/compile_matmul.sh, attention/compile_attention.sh,
# rows/compile_rows.sh) share. Sourced; suite_args sets what the others use.

# suite_args WS_OPT OUTDIR: the scripts' two arguments ($ws_opt, $out), the
# CUDA root ($cuda) and the counts (fail, count, built) at 0.
suite_args() {
  ws_opt="$1"
  out="$2"
  cuda="${WS_CUDA_ROOT:-/usr/local/cuda}"
  fail=0
  count=0
  built=0
}

# emit_kernel NAME: OUT/NAME.mlir to the launcher OUT/NAME.{h,c} and the
# PTX its cubin is made from, OUT/NAME.ptx, in one run of the flow.
emit_kernel() {
  "$ws_opt" "$out/$1.mlir" --emit=launcher --keep-ptx -o "$out/$1"
}

# ptx_lacks NAME PATTERN...: prints "FAIL NAME: PTX lacks P" for each
# fixed-string pattern OUT/NAME.ptx does not contain; returns 1 if any.
ptx_lacks() {
  local name="$1" missing=0
  shift
  for pattern in "$@"; do
    if ! grep -qF "$pattern" "$out/$name.ptx"; then
      echo "FAIL $name: PTX lacks $pattern"
      missing=1
    fi
  done
  return $missing
}

# launcher_compiles NAME: the generated launcher builds with -Wall -Werror.
launcher_compiles() {
  gcc -std=c11 -O2 -Wall -Werror -I"$cuda/include" -c "$out/$1.c" -o "$out/$1.o"
}

# count_launcher NAME: counts the kernel and builds its launcher: built
# counts it, or a FAIL line and fail=1.
count_launcher() {
  count=$((count + 1))
  if launcher_compiles "$1"; then
    built=$((built + 1))
  else
    echo "FAIL $1: launcher does not compile"
    fail=1
  fi
}
