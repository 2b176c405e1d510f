#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""FP8 matmul benchmark on the GPU, in one process, at the FP8 issue's
eight shapes (square, then DeepSeek-V3's GEMMs as DeepGEMM benchmarks
them): every scaling of ws's FP8 set against cuBLAS (torch._scaled_mm with
the same scales and the same accumulation) and Triton's warp-specialized
FP8 matmul, uniform [-1, 1] inputs cast to e4m3, L2 flushed before every
run (triton.testing.do_bench). The work is fp8.py's bench; this names the
kernels the results quote, so that one command reproduces them.

Usage: fp8_bench.py DIR [NAME...]
  DIR from `python3 integration/matmul/fp8.py compile WS_OPT DIR`; without
  names, the persistent kernels of each scaling."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "matmul"))
import fp8  # noqa: E402

DEFAULT = ["pfp8_pt_128x256x128_w8", "pfp8_pt_128x128x128_w8", "pfp8_pt_128x192x128_w8",
           "pfp8_ptp_128x128x128_w8", "pfp8_ptp_128x192x128_w8", "pfp8_rw_128x256x128_w8",
           "pfp8_rw_128x192x128_w8", "pfp8_rwp_128x192x128_w8", "pfp8_bs_128x128x128_w8"]

if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    fp8.bench(sys.argv[1], sys.argv[2:] or DEFAULT)
