# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The suites' compiled variants in a runner written in Python, through the
ws package (python/ws): DIR/NAME.wsmod where `python -m ws compile` wrote
one (what a GPU machine without MLIR runs), else DIR/NAME.mlir compiled now
(ws.compile, not cached: as ws-opt, always this build's code). Kernels launch on torch tensors on torch's current
stream, with the generated launchers' rules; a refusal is a ValueError
naming the argument and the rule."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import ws  # noqa: E402


def suite_kernel(folder, name, kernel=None):
    """Kernel `kernel` (default: the variant's own name) of variant NAME."""
    base = os.path.join(folder, name)
    module = ws.load(base + ".wsmod") if os.path.exists(base + ".wsmod") else \
        ws.compile(base + ".mlir", use_cache=False)
    return module.kernels[kernel or name]


def matmul_launcher(kernel, bm, bn, tensors, m, n, k, scalars=()):
    """A callable that launches a suite matmul over an m x n C: a persistent
    kernel on its resident grid with (m, n, k), a tiled one with a block per
    bm x bn tile of C and k; then the scalars. A split-K kernel gets the
    package's workspace."""
    if kernel.signature.persistent:
        grid, sizes = None, (m, n, k)
    else:
        grid, sizes = (-(-m // int(bm)), -(-n // int(bn))), (k,)
    args = tuple(tensors) + sizes + tuple(scalars)
    return lambda: kernel.launch(grid, *args)
