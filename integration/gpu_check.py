# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""What the small GPU checks of integration/ share (epilogue/epilogue_run.py,
combine/combine_run.py): compiling their kernels into modules, outputs
inside guard bytes, and the command line `compile DIR | run DIR [small]`."""
import os
import subprocess
import sys

PACKAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python")
GUARD = 8  # rows and columns of sentinel around each output (16 bytes of f16)


def compile_kernels(folder, names, out):
    """FOLDER/NAME.mlir of each name to OUT/NAME.wsmod, through the package."""
    os.makedirs(out, exist_ok=True)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([PACKAGE] + [p for p in [env.get("PYTHONPATH")] if p])
    for name in names:
        subprocess.check_call([sys.executable, "-m", "ws", "compile", "--chip", "sm_90a",
                               "--out-dir", out, os.path.join(folder, name + ".mlir")], env=env)


def guarded(torch, m, n, dtype):
    """An m x n view inside a buffer of sentinels (its rows 16-byte aligned)."""
    cols = -(-(n + 2 * GUARD) // 8) * 8  # rows and the view's start on 16 bytes
    big = torch.full((m + 2 * GUARD, cols), 1234.0, device="cuda", dtype=dtype)
    return big, big[GUARD:GUARD + m, GUARD:GUARD + n]


def intact(torch, big, m, n):
    """True when every sentinel around the m x n view of `big` is unchanged."""
    mask = torch.ones_like(big, dtype=torch.bool)
    mask[GUARD:GUARD + m, GUARD:GUARD + n] = False
    return bool((big[mask] == 1234.0).all())


def command_line(doc, compile_all, run_all, shrink):
    """`compile DIR` or `run DIR [small]` (small: shrink() first, to the
    shapes compute-sanitizer runs); the exit status."""
    args = sys.argv[1:]
    if len(args) not in (2, 3) or args[0] not in ("compile", "run") or \
            (len(args) == 3 and (args[0] != "run" or args[2] != "small")):
        sys.exit(doc)
    if len(args) == 3:
        shrink()
    if args[0] == "compile":
        compile_all(args[1])
        return 0
    return run_all(args[1])


def torch_on_gpu():
    """torch, or None (after printing "skipped: no GPU") without a GPU."""
    try:
        import torch
        if torch.cuda.is_available():
            return torch
    except ImportError:
        pass
    print("skipped: no GPU")
    return None


def torch_and_ws():
    """(torch, the ws package) on a GPU, or (None, None) after printing
    "skipped: no GPU" without one."""
    torch = torch_on_gpu()
    if torch is None:
        return None, None
    sys.path.insert(0, PACKAGE)
    import ws
    return torch, ws
