# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Compile time from Python against ws-opt, on this machine (no GPU): a
cold ws.compile of the persistent matmul (in-process, to PTX) against
`ws-opt --emit=ptx` and `--emit=cubin` (a process each), and a warm
ws.compile (a disk-cache hit). Medians of 5.

    python3 integration/bench/python_compile.py [build/bin/ws-opt]
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
import ws  # noqa: E402

KERNEL = "integration/matmul_persistent.mlir"


def median_s(fn, n=5):
    times = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    os.chdir(ROOT)
    ws_opt = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "bin", "ws-opt")
    os.environ["WS_CACHE_DIR"] = tempfile.mkdtemp(prefix="ws-cache-")
    ws.compile("integration/add.mlir", use_cache=False)  # load the library once
    cold = median_s(lambda: ws.compile(KERNEL, use_cache=False))
    ptx = median_s(lambda: subprocess.run([ws_opt, KERNEL, "--emit=ptx", "-o", os.devnull],
                                          check=True))
    cubin = median_s(lambda: subprocess.run([ws_opt, KERNEL, "--emit=cubin", "-o", os.devnull],
                                            check=True))
    ws.compile(KERNEL)
    warm = median_s(lambda: ws.compile(KERNEL), n=21)
    print("%s: cold ws.compile %.0f ms; ws-opt --emit=ptx %.0f ms (%.2fx), --emit=cubin %.0f ms; "
          "warm ws.compile %.2f ms (goals: cold at most 1.1x ws-opt, warm at most 5 ms)"
          % (KERNEL, cold * 1e3, ptx * 1e3, cold / ptx, cubin * 1e3, warm * 1e3))


if __name__ == "__main__":
    main()
