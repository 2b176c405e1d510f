# flags.sh: the harness flags of a matmul variant, from its manifest line.
# Sourced by compile_matmul.sh and run_matmul.sh.
# Usage: variant_flags DTYPE EPILOGUE LAYOUT
variant_flags() {
  local flags=""
  [ "$1" = bf16 ] && flags="$flags -DBF16"
  [ "$2" = relu ] && flags="$flags -DRELU"
  [ "$3" = kn ] && flags="$flags -DKN"
  echo "$flags"
}
