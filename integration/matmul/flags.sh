# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# flags.sh: the compiler flags of a matmul variant's GPU harness, from its
# manifest line. Sourced by compile_matmul.sh and run_matmul.sh.
# Usage: harness_defines NAME BM BN DTYPE EPILOGUE LAYOUT SCHED
harness_defines() {
  local flags="-DMOD=$1 -DKERN=$1 -DBM=$2 -DBN=$3"
  [ "$4" = bf16 ] && flags="$flags -DBF16"
  [ "$5" = relu ] && flags="$flags -DRELU"
  [ "$5" = alpha ] && flags="$flags -DALPHA"
  [ "$5" = bias_relu ] && flags="$flags -DBIAS_ROW -DRELU"
  [ "$5" = bias_col ] && flags="$flags -DBIAS_COL"
  [ "$5" = residual ] && flags="$flags -DALPHA -DRESIDUAL"
  [ "$6" = kn ] && flags="$flags -DKN"
  case "$7" in tile*) ;; *) flags="$flags -DPERSISTENT" ;; esac
  case "$7" in *_sk|*_st) flags="$flags -DSPLIT_K" ;; esac
  echo "$flags"
}
