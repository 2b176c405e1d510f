# compile_common.sh: what compile_variants.sh and matmul/compile_matmul.sh
# share. Sourced; needs $ws_opt, $out and $cuda set.

# emit_kernel NAME: OUT/NAME.mlir to OUT/NAME.ptx and the launcher OUT/NAME.{h,c}.
emit_kernel() {
  "$ws_opt" "$out/$1.mlir" --emit=ptx -o "$out/$1.ptx"
  "$ws_opt" "$out/$1.mlir" --emit=launcher -o "$out/$1"
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
