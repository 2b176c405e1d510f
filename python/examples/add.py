# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The elementwise add from Python: compile integration/add.mlir in-process,
launch it on torch tensors, check it exactly (and that no byte around c
changed), and time it against torch.add (triton.testing.do_bench, L2
flushed). Run from anywhere: python3 python/examples/add.py"""

import os

import torch
import ws

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def main():
    os.chdir(ROOT)  # the kernel by its repository path: one cache entry everywhere
    mod = ws.compile("integration/add.mlir", chip="sm_90a")
    add = mod.add
    rows, cols = 8192, 8192
    a = torch.rand(rows, cols, device="cuda")
    b = torch.rand(rows, cols, device="cuda")
    guarded = torch.full((rows + 2, cols), -7.0, device="cuda")
    c = guarded[1:-1]
    grid = (rows + 31) // 32  # one block per 32 rows (add.mlir)
    add[grid](a, b, c, cols)
    torch.cuda.synchronize()
    exact = torch.equal(c, a + b)
    guards = bool((guarded[0] == -7).all() and (guarded[-1] == -7).all())
    print("add %dx%d f32: %s, guard rows %s" % (rows, cols, "exact" if exact else "WRONG",
                                                  "intact" if guards else "CHANGED"))
    from triton.testing import do_bench
    out = torch.empty_like(a)
    t_ws = do_bench(lambda: add[grid](a, b, c, cols))
    t_torch = do_bench(lambda: torch.add(a, b, out=out))
    gbs = lambda ms: 3 * a.numel() * 4 / ms / 1e6
    print("ws %.0f GB/s, torch %.0f GB/s: %.2fx" % (gbs(t_ws), gbs(t_torch), t_torch / t_ws))
    return 0 if exact and guards else 1


if __name__ == "__main__":
    raise SystemExit(main())
