#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Bandwidth of the ws elementwise add against torch.add and a device copy,
measured in one run on the same GPU: a 32768x32768 f32 add (the seed's
benchmark). Prints TB/s (bytes read + written over the median time) and the
ratios.

Usage: bench.py HARNESS[@ROWSxCOLS] ...  (harnesses built by run_gpu.sh)

Every run adds the same 32768*32768 contiguous floats; @ROWSxCOLS views
those buffers with other rows (ROWS*COLS must be 32768*32768). The seed's
kernel walks each block along one 32768-wide row band; a shorter-row view
makes each block's region contiguous in memory, the way torch.add streams."""
import re
import subprocess
import sys

import torch

N = 32768


def median_ms(fn, iters=30):
    start = [torch.cuda.Event(enable_timing=True) for _ in range(iters)]
    end = [torch.cuda.Event(enable_timing=True) for _ in range(iters)]
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    for i in range(iters):
        start[i].record()
        fn()
        end[i].record()
    torch.cuda.synchronize()
    times = sorted(s.elapsed_time(e) for s, e in zip(start, end))
    return times[len(times) // 2]


def main():
    rows = []
    for spec in sys.argv[1:]:
        harness, _, view = spec.partition("@")
        r, c = (int(x) for x in view.split("x")) if view else (N, N)
        if r * c != N * N:
            print("bad view %s: rows*cols must be %d" % (view, N * N))
            return 1
        out = subprocess.run([harness, str(r), str(c), "--bench", "30"],
                             capture_output=True, text=True, timeout=600)
        m = re.search(r"BENCH (\S+) (\S+) median ([\d.]+) ms ([\d.]+) TB/s", out.stdout)
        if not m or "PASS" not in out.stdout:
            print("FAIL %s:\n%s%s" % (spec, out.stdout, out.stderr))
            continue
        rows.append(("ws %s @%s" % (m.group(1), m.group(2)), float(m.group(3)), float(m.group(4))))
    a = torch.randn(N, N, device="cuda")
    b = torch.randn(N, N, device="cuda")
    c = torch.empty_like(a)
    nbytes = a.numel() * a.element_size()
    ms = median_ms(lambda: torch.add(a, b, out=c))
    torch_tbs = 3 * nbytes / (ms * 1e-3) / 1e12
    copy_ms = median_ms(lambda: c.copy_(a))
    copy_tbs = 2 * nbytes / (copy_ms * 1e-3) / 1e12
    print("%s, %dx%d f32" % (torch.cuda.get_device_name(), N, N))
    print("%-36s %9s %8s %13s %9s" % ("kernel", "ms", "TB/s", "vs torch.add", "vs copy"))
    for name, t, tbs in rows + [("torch.add", ms, torch_tbs), ("copy (Tensor.copy_)", copy_ms, copy_tbs)]:
        print("%-36s %9.3f %8.3f %12.3fx %8.3fx" % (name, t, tbs, tbs / torch_tbs, tbs / copy_tbs))
    return 0 if len(rows) == len(sys.argv) - 1 else 1


if __name__ == "__main__":
    sys.exit(main())
