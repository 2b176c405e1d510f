#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The benchmark on a GPU machine: the example add (32x64 tiles), the seed's
# benchmark tiles (64x128), and 8x256 tiles both over the 32768-wide rows and
# over a contiguous 1048576x1024 view of the same buffers, with torch.add and
# a device copy in the same run.   Usage: bench/run.sh DIR (from run_gpu.sh)
set -euo pipefail
dir="$1"
here="$(cd "$(dirname "$0")" && pwd)"
PYTHONUNBUFFERED=1 python3 "$here/bench.py" "$dir/bin/add_f32" "$dir/bin/add_f32_64x128" \
  "$dir/bin/add_f32_8x256" "$dir/bin/add_f32_8x256@1048576x1024" "$dir/bin/add_f32@1048576x1024"
