#!/usr/bin/env python3
"""Runs ws's compiled row kernels on the GPU, in one process with torch:
checks them against an f64 reference, and times them against torch's eager
kernels, torch.compile's and a device copy.

Usage: rows_run.py DIR check|small|bench [VARIANT...]
  check: row counts from 1 to a few thousand, ragged last row blocks among
  them; small: the first few (for compute-sanitizer); bench: the
  benchmark's tokens x hidden shapes whose hidden is the variant's row
  length, bf16 and f16 variants only.
DIR holds VARIANT.c/.h (compile_rows.sh writes them) and the manifest: one
line per variant, "name kind dtype rows_per_block row_length".

The kernels take x and y (M x N views) and M. Inputs are uniform in
[-4, 4]; some rows hold -inf (a masked score), one row only -inf (softmax
is then NaN, as torch's). The check compares with the f64 reference: ws's
error may be at most twice torch's own (the same function in the same
dtype, measured the same way) plus 1e-6, the NaN must fall where torch's
does, and guard rows around y (and NaN guard rows around x, outside the
view) must keep their sentinel: nothing is written outside y, and no read
reaches past x."""
import ctypes
import math
import os
import random
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ws_launch import WsModule, ws_tensor  # noqa: E402

GUARD = 3  # rows of sentinel around y and of NaN around x
SENTINEL = 7.0
SHAPES = [(32768, 4096), (16384, 8192), (65536, 1024), (4096, 32768)]
ROUNDS = 3
SMS = 132


class RowKernel(WsModule):
    """One compiled variant, loaded (ws_launch.py)."""

    def __init__(self, folder, name, cfg, cuda_home):
        super().__init__(folder, name, cuda_home)
        self.fn = self.function(cfg["kind"])
        self.cfg = cfg

    def launcher(self, x, y):
        """A callable launching the kernel over M x N views x and y on
        torch's current stream: as many blocks as row blocks, at most two
        per SM (each loops over row blocks in steps of the grid)."""
        m = x.shape[0]
        blocks = max(1, min((m + self.cfg["rows"] - 1) // self.cfg["rows"], 2 * SMS))
        keep = [ws_tensor(x), ws_tensor(y)]
        stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
        args = (self.module, stream, ctypes.c_uint(blocks), ctypes.c_uint(1), ctypes.c_uint(1),
                ctypes.byref(keep[0]), ctypes.byref(keep[1]), ctypes.c_int32(m))

        def run():
            r = self.fn(*args)
            if r != 0:
                raise RuntimeError(f"{self.name} launch: CUresult {r}")
        run.keep = keep
        return run


def reference(kind, x):
    """The f64 reference and torch's own result in x's dtype."""
    if kind == "softmax":
        return torch.softmax(x.double(), dim=1), torch.softmax(x, dim=1)
    raise ValueError(kind)


def max_error(out, ref):
    """The largest absolute difference where the reference is a number, and
    whether out is NaN exactly where the reference is."""
    nan = torch.isnan(ref)
    same = bool((torch.isnan(out) == nan).all())
    diff = (out.double() - ref).abs().masked_fill(nan, 0)
    return float(diff.max()) if diff.numel() else 0.0, same


def check_one(kern, m):
    """One run at M rows: guards around x (NaN) and y (sentinel)."""
    cfg = kern.cfg
    n, dt = cfg["n"], cfg["dtype"]
    xbuf = torch.full((m + 2 * GUARD, n), float("nan"), dtype=dt, device="cuda")
    x = xbuf[GUARD:GUARD + m]
    x.uniform_(-4, 4)
    if m > 2:
        x[1, ::3] = float("-inf")  # masked scores
        x[m - 1] = float("-inf")   # a row of -inf: NaN, as torch's
    ybuf = torch.full((m + 2 * GUARD, n), SENTINEL, dtype=dt, device="cuda")
    y = ybuf[GUARD:GUARD + m]
    kern.launcher(x, y)()
    torch.cuda.synchronize()
    ref, own = reference(cfg["kind"], x)
    err, nan_ok = max_error(y, ref)
    own_err, _ = max_error(own, ref)
    guards = bool((ybuf[:GUARD] == SENTINEL).all() and (ybuf[GUARD + m:] == SENTINEL).all())
    ok = err <= 2 * own_err + 1e-6 and nan_ok and guards and not math.isnan(err)
    print(f"{'ok  ' if ok else 'FAIL'} {kern.name} M={m} N={n}: max error {err:.2e} "
          f"(torch {own_err:.2e}){'' if nan_ok else ', NaN where torch has none'}"
          f"{'' if guards else ', bytes outside y changed'}")
    return ok


def fuzz(folder, name, cfg, shapes, seed, max_elements):
    """The GPU fuzz's run of one row kernel (integration/fuzz/run.py):
    `shapes` draws of M (1 to what max_elements allows), each checked as
    in check mode."""
    rng = random.Random(seed)
    kern = RowKernel(folder, name, cfg, os.environ.get("CUDA_HOME", "/usr/local/cuda"))
    most = max(1, max_elements // cfg["n"])
    return all([check_one(kern, rng.randint(1, most)) for _ in range(shapes)])


def time_runs(runs, nbytes):
    """GB/s of each (label, run) moving `nbytes`, with do_bench (L2
    flushed): ROUNDS interleaved rounds, the median of each."""
    import triton
    samples = {label: [] for label, _ in runs}
    for _ in range(ROUNDS):
        for label, fn in runs:
            ms = triton.testing.do_bench(fn, warmup=25, rep=150)
            samples[label].append(nbytes / ms / 1e6)
    return {label: sorted(v)[len(v) // 2] for label, v in samples.items()}


def bench_one(kern, m):
    """ws against torch eager, torch.compile and a device copy, at M x N."""
    cfg = kern.cfg
    n, dt = cfg["n"], cfg["dtype"]
    x = torch.empty(m, n, dtype=dt, device="cuda").uniform_(-4, 4)
    y = torch.empty_like(x)
    ref = torch.softmax(x, dim=1)
    kern.launcher(x, y)()
    torch.cuda.synchronize()
    assert (y.float() - ref.float()).abs().max() < 2e-2, "ws differs from torch at the bench"
    compiled = torch.compile(lambda t: torch.softmax(t, dim=1))
    compiled(x)
    runs = [("ws", kern.launcher(x, y)), ("eager", lambda: torch.softmax(x, dim=1)),
            ("compile", lambda: compiled(x)), ("copy", lambda: y.copy_(x))]
    gbs = time_runs(runs, 2 * x.numel() * x.element_size())
    best = max(gbs["eager"], gbs["compile"])
    print(f"{kern.name} {m}x{n}: ws {gbs['ws']:.0f}, eager {gbs['eager']:.0f}, compile "
          f"{gbs['compile']:.0f}, copy {gbs['copy']:.0f} GB/s; ws/best torch "
          f"{gbs['ws'] / best:.2f}x, ws/copy {gbs['ws'] / gbs['copy']:.2f}")


def main():
    if len(sys.argv) < 3 or sys.argv[2] not in ("check", "small", "bench"):
        sys.exit(__doc__)
    folder, mode = sys.argv[1], sys.argv[2]
    cuda_home = os.environ.get("CUDA_HOME", "/usr/local/cuda")
    cfgs = {}
    with open(os.path.join(folder, "manifest")) as f:
        for line in f:
            name, kind, dtype, rows, n = line.split()
            cfgs[name] = {"kind": kind, "dtype": getattr(torch, dtype), "rows": int(rows),
                          "n": int(n)}
    names = sys.argv[3:] or list(cfgs)
    ok = True
    torch.manual_seed(0)
    torch.empty(1, device="cuda")  # the context the modules load into
    for name in names:
        kern = RowKernel(folder, name, cfgs[name], cuda_home)
        r = cfgs[name]["rows"]
        if mode == "bench":
            for m, n in SHAPES:
                if n == cfgs[name]["n"] and cfgs[name]["dtype"] != torch.float32:
                    bench_one(kern, m)
            continue
        sizes = [1, r + 1, 3 * r - 1]
        if mode == "check":
            sizes += [r, 4 * r, 1000, 4099, 2 * SMS * r * 3 + 5]
        for m in sizes:
            ok &= check_one(kern, m)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
