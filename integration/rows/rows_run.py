#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs ws's compiled row kernels on the GPU, in one process with torch:
checks them against an f64 reference, and times them against torch's eager
kernels, torch.compile's and a device copy.

Usage: rows_run.py DIR check|small|bench [VARIANT...]
  check: row counts from 1 to a few thousand, ragged last row blocks among
  them; small: the first few (for compute-sanitizer); bench: the
  benchmark's tokens x hidden shapes whose hidden is the variant's row
  length, bf16 and f16 variants only.
DIR holds VARIANT.mlir (compile_rows.sh writes them; each runs from
VARIANT.wsmod where `python -m ws compile` wrote one, else compiled by the
ws package: suite_kernels.py) and the manifest: one line per variant,
"name kind dtype rows_per_block row_length".

The kernels take their arguments in the order variants.py's ARGS gives:
M x N views, 1 x N weights, per-row f32 statistics (an M-vector viewed as
1 x M), M and eps. Inputs are uniform in [-4, 4] (weights in [0.5, 1.5],
biases in [-1, 1]); for softmax some rows hold -inf (a masked score) and
one only -inf (softmax is then NaN, as torch's); for the norms one row is
constant (a zero variance). Cross-entropy's row length N is drawn apart
from its chunk (1, C - 1, C + 1, 3 C + 5, ...), its logits' rows padded
to a multiple of 16 bytes (TMA's stride rule; torch gets them
contiguous at the bench), its labels uniform in [0, N) with every fifth
the ignore index, its outputs (loss and lse, f32) checked like the
norms' statistics. The check compares each output with the f64
reference: ws's error may be at most twice torch's own (the same function
in the same dtype, measured the same way) plus 1e-6, the NaN must fall
where torch's does, and guard rows around every output (and NaN guard rows
around the inputs, outside the views) must keep their sentinel: nothing is
written outside the outputs, and no read reaches past the inputs."""
import math
import os
import random
import sys

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
from suite_kernels import suite_kernel  # noqa: E402
from variants import ARGS, CHUNK_ARGS  # noqa: E402

GUARD = 3  # rows of sentinel around outputs and of NaN around inputs
SENTINEL = 7.0
SHAPES = [(32768, 4096), (16384, 8192), (65536, 1024), (4096, 32768)]
CE_SHAPES = [(8192, 50257), (4096, 128256)]
LONG_ROWS = 8192  # the bench's rows a kind over a row's chunks runs at
IGNORE = -100
ROUNDS = 3
SMS = 132
EPS = {"rmsnorm": 1e-6, "add_rmsnorm": 1e-6, "layernorm": 1e-5}
INPUTS = ("x", "r")  # the M x N tensors a kernel reads; the others it writes


class RowKernel:
    """One compiled variant (suite_kernels.py), launched on torch tensors."""

    def __init__(self, folder, name, cfg):
        self.name, self.cfg = name, cfg
        self.kernel = suite_kernel(folder, name, cfg["kind"])

    def launcher(self, t):
        """A callable launching the kernel on the tensors of dict t (by
        ARGS name: M x N views, 1 x N rows, M-vectors of statistics) on
        torch's current stream: as many blocks as row blocks, at most those
        the device holds at once (each loops over row blocks in steps of the
        grid)."""
        m, n = t["x"].shape
        blocks = (m + self.cfg["rows"] - 1) // self.cfg["rows"]
        if not self.cfg["chunked"]:  # a loop over row blocks
            blocks = max(1, min(blocks, self.kernel.resident_grid()))
        values = {"m": m, "n": n, "ignore": IGNORE, "eps": EPS.get(self.cfg["kind"])}
        args = tuple(values[what] if what in values else
                     t[a].view(1, -1) if what in ("stat", "label") else t[a]
                     for a, what in args_of(self.cfg))
        return lambda: self.kernel.launch(blocks, *args)


def rms(x, w, eps):
    return x * torch.rsqrt(x.pow(2).mean(dim=1, keepdim=True) + eps) * w


def reference(kind, t):
    """Each output's f64 reference and torch's own result (the inputs' dtype;
    statistics in f32), by ARGS name."""
    eps = EPS.get(kind, 0.0)
    x = t["x"]
    n = x.shape[1]
    if kind == "cross_entropy":
        labels = t["labels"].long()
        lse = torch.logsumexp(x.double(), dim=1)
        picked = x.double().gather(1, labels.clamp(min=0).view(-1, 1)).view(-1)
        loss = (lse - picked).masked_fill(labels == IGNORE, 0)
        own = F.cross_entropy(x, labels, reduction="none", ignore_index=IGNORE).float()
        return {"loss": (loss, own), "lse": (lse, torch.logsumexp(x, dim=1).float())}
    if kind == "softmax":
        return {"y": (torch.softmax(x.double(), dim=1), torch.softmax(x, dim=1))}
    w = t["w"].view(-1)
    if kind == "rmsnorm":
        return {"y": (rms(x.double(), w.double(), eps), F.rms_norm(x, (n,), w, eps))}
    if kind == "add_rmsnorm":
        h = x + t["r"]
        hd = x.double() + t["r"].double()
        return {"h": (hd, h), "y": (rms(hd, w.double(), eps), F.rms_norm(h, (n,), w, eps))}
    if kind == "layernorm":
        b = t["b"].view(-1)
        xd = x.double()
        mu = xd.mean(dim=1, keepdim=True)
        rstd = torch.rsqrt((xd - mu).pow(2).mean(dim=1, keepdim=True) + eps)
        y, own_mu, own_rstd = torch.native_layer_norm(x, (n,), w, b, eps)
        return {"y": ((xd - mu) * rstd * w.double() + b.double(), y),
                "mean": (mu.view(-1), own_mu.view(-1)), "rstd": (rstd.view(-1), own_rstd.view(-1))}
    raise ValueError(kind)


def guarded(rows, cols, fill, dt, guard):
    """A (rows + 2 guard) x cols buffer of `fill` (an M-vector when cols is
    0) and its middle rows."""
    shape = (rows + 2 * guard, cols) if cols else (rows + 2 * guard,)
    buf = torch.full(shape, fill, dtype=dt, device="cuda")
    return buf, buf[guard:guard + rows]


def args_of(cfg):
    """A variant's arguments, in order (variants.py's ARGS or CHUNK_ARGS)."""
    return (CHUNK_ARGS if cfg["chunked"] else ARGS)[cfg["kind"]]


def make_tensors(cfg, m, n, checked=True):
    """The kernel's tensors at M rows, uniform inputs; returns (tensors by
    name, output buffers by name). Checked: inputs in NaN guard rows,
    outputs in sentinel ones, and the edge rows of the module comment. A
    kind over a row's chunks, whose N is any, gets its M x N tensors in
    rows padded to 16 bytes (NaN or sentinel in the padding)."""
    kind, dt = cfg["kind"], cfg["dtype"]
    guard = GUARD if checked else 0
    per = 16 // torch.tensor([], dtype=dt).element_size()
    width = (n + per - 1) // per * per if cfg["chunked"] else n
    t, bufs = {}, {}
    for a, what in args_of(cfg):
        if what == "label":
            bufs[a], t[a] = guarded(m, 0, 0, torch.int32, guard)
            t[a].random_(0, n)
            t[a][::5] = IGNORE
        elif what == "row":
            t[a] = torch.empty(1, n, dtype=dt, device="cuda")
            t[a].uniform_(0.5, 1.5) if a == "w" else t[a].uniform_(-1, 1)
        elif what == "tile" and a in INPUTS:
            _, t[a] = guarded(m, width, float("nan"), dt, guard)
            t[a] = t[a][:, :n]
            t[a].uniform_(-4, 4)
        elif what in ("tile", "stat"):
            bufs[a], t[a] = guarded(m, width if what == "tile" else 0, SENTINEL,
                                    dt if what == "tile" else torch.float32, guard)
            t[a] = t[a][:, :n] if what == "tile" else t[a]
    x = t["x"]
    if not checked or m <= 2:
        return t, bufs
    if kind == "softmax":
        x[1, ::3] = float("-inf")  # masked scores
        x[m - 1] = float("-inf")   # a row of -inf: NaN, as torch's
    else:
        x[m - 1] = 1.5  # a constant row: zero variance
    return t, bufs


def max_error(out, ref):
    """The largest absolute difference where the reference is a number, and
    whether out is NaN exactly where the reference is."""
    nan = torch.isnan(ref)
    same = bool((torch.isnan(out) == nan).all())
    diff = (out.double() - ref).abs().masked_fill(nan, 0)
    return float(diff.max()) if diff.numel() else 0.0, same


def check_one(kern, m, n=None):
    """One run at M rows (of N elements: the variant's, unless a chunked
    kind's N is given), every output checked with its guards."""
    cfg = kern.cfg
    n = n or cfg["n"]
    t, bufs = make_tensors(cfg, m, n)
    kern.launcher(t)()
    torch.cuda.synchronize()
    ok, notes = True, []
    for a, (ref, own) in reference(cfg["kind"], t).items():
        err, nan_ok = max_error(t[a], ref)
        own_err, _ = max_error(own, ref)
        buf = bufs[a]
        guards = bool((buf[:GUARD] == SENTINEL).all() and (buf[GUARD + m:] == SENTINEL).all()
                      and (buf.dim() == 1 or (buf[:, n:] == SENTINEL).all()))
        good = err <= 2 * own_err + 1e-6 and nan_ok and guards and not math.isnan(err)
        ok &= good
        notes.append(f"{a} {err:.2e} (torch {own_err:.2e})"
                     f"{'' if nan_ok else ' NaN where torch has none'}"
                     f"{'' if guards else ' bytes outside it changed'}")
    print(f"{'ok  ' if ok else 'FAIL'} {kern.name} M={m} N={n}: max error " + ", ".join(notes))
    return ok


def fuzz(folder, name, cfg, shapes, seed, max_elements):
    """The GPU fuzz's run of one row kernel (integration/fuzz/run.py):
    `shapes` draws of M (1 to what max_elements allows), each checked as
    in check mode."""
    rng = random.Random(seed)
    kern = RowKernel(folder, name, cfg)
    if cfg["chunked"]:  # N drawn too, up to a few chunks
        draws = [(rng.randint(1, 4 * cfg["n"] + 7),) for _ in range(shapes)]
        return all([check_one(kern, rng.randint(1, max(1, max_elements // n)), n)
                    for (n,) in draws])
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


def torch_fn(kind, t):
    """torch's eager form of the kernel, on the tensors of dict t."""
    n = t["x"].shape[1]
    eps = EPS.get(kind, 0.0)
    if kind == "softmax":
        return lambda x: torch.softmax(x, dim=1)
    w = t["w"].view(-1)
    if kind == "rmsnorm":
        return lambda x: F.rms_norm(x, (n,), w, eps)
    if kind == "layernorm":
        b = t["b"].view(-1)
        return lambda x: torch.native_layer_norm(x, (n,), w, b, eps)
    if kind == "add_rmsnorm":
        def add_rms(x, r):
            h = x + r
            return h, F.rms_norm(h, (n,), w, eps)
        return add_rms
    raise ValueError(kind)


def bench_cross_entropy(kern, m, n):
    """ws against torch's F.cross_entropy (reduction "none": a loss per
    row, as ws's), eager and compiled, and a device copy, at M x N (returns
    each one's GB/s by name: ws, eager, compile, copy); GB/s
    count one read of the logits (the copy one read and one write of
    them). torch reads contiguous logits, ws the same values in rows
    padded to 16 bytes when N x the element size is not a multiple of 16."""
    t, _ = make_tensors(kern.cfg, m, n, checked=False)
    x, labels = t["x"].contiguous(), t["labels"].long()
    eager = lambda x: F.cross_entropy(x, labels, reduction="none", ignore_index=IGNORE)
    ref = eager(x).float()
    kern.launcher(t)()
    torch.cuda.synchronize()
    assert ((t["loss"] - ref).abs() <= 2e-2 * ref.abs() + 1e-2).all(), "ws differs from torch"
    torch._dynamo.reset()
    compiled = torch.compile(eager, dynamic=False)
    compiled(x)
    y = torch.empty_like(x)
    runs = [("ws", kern.launcher(t)), ("eager", lambda: eager(x)),
            ("compile", lambda: compiled(x)), ("copy", lambda: y.copy_(x))]
    gbs = time_runs(runs, x.numel() * x.element_size())
    gbs["copy"] *= 2  # a read and a write
    best = max(gbs["eager"], gbs["compile"])
    print(f"{kern.name} {m}x{n}: ws {gbs['ws']:.0f}, eager {gbs['eager']:.0f}, compile "
          f"{gbs['compile']:.0f}, copy {gbs['copy']:.0f} GB/s; ws/best torch "
          f"{gbs['ws'] / best:.2f}x, ws/copy {gbs['ws'] / gbs['copy']:.2f}")
    return gbs


def check_shapes(cfg, full):
    """The (M, N) a check runs: row counts from 1 up, ragged last row blocks
    among them; a chunked kind's N from 1 to a few chunks, around C."""
    r, c = cfg["rows"], cfg["n"]
    ms = [1, r + 1, 3 * r - 1] + ([r, 4 * r, 1000, 4099, 4 * SMS * r * 3 + 5] if full else [])
    if not cfg["chunked"]:
        return [(m, c) for m in ms]
    ns = [c, 1, c + 1, 3 * c + 5] + ([c - 1, 7, 50257] if full else [])
    return [(m, n) for n in ns for m in ms[:3]] + ([(4099, c + 1), (1000, 3 * c + 5)]
                                                    if full else [])


def bench_one(kern, m, n):
    """ws against torch eager, torch.compile and a device copy, at M x N
    (returns each one's GB/s by name: ws, eager, compile, copy); GB/s
    count one read and one write of each M x N tensor (add_rmsnorm: two of
    each)."""
    cfg = kern.cfg
    kind = cfg["kind"]
    t, _ = make_tensors(cfg, m, n, checked=False)
    ins = [t[a] for a, what in args_of(cfg) if what == "tile" and a in INPUTS]
    eager = torch_fn(kind, t)
    out = eager(*ins)
    ref_y = out[{"layernorm": 0, "add_rmsnorm": 1}[kind]] if isinstance(out, tuple) else out
    kern.launcher(t)()
    torch.cuda.synchronize()
    assert (t["y"].float() - ref_y.float()).abs().max() < 5e-2, "ws differs from torch at the bench"
    # a fresh, static-shape compile for each shape: dynamo would otherwise
    # turn the second shape it sees into a dynamic-shape kernel (slower:
    # 1085 against 2586 GB/s for LayerNorm at 32768x4096)
    torch._dynamo.reset()
    compiled = torch.compile(eager, dynamic=False)
    compiled(*ins)
    y = t["y"]
    runs = [("ws", kern.launcher(t)), ("eager", lambda: eager(*ins)),
            ("compile", lambda: compiled(*ins)), ("copy", lambda: y.copy_(t["x"]))]
    tensors = 2 if kind == "add_rmsnorm" else 1
    gbs = time_runs(runs, 2 * tensors * y.numel() * y.element_size())
    gbs["copy"] /= tensors  # the copy moves one read and one write
    best = max(gbs["eager"], gbs["compile"])
    print(f"{kern.name} {m}x{n}: ws {gbs['ws']:.0f}, eager {gbs['eager']:.0f}, compile "
          f"{gbs['compile']:.0f}, copy {gbs['copy']:.0f} GB/s; ws/best torch "
          f"{gbs['ws'] / best:.2f}x, ws/copy {gbs['ws'] / gbs['copy']:.2f}")
    return gbs


def read_manifest(folder):
    """Each variant's configuration by name, from FOLDER/manifest."""
    cfgs = {}
    with open(os.path.join(folder, "manifest")) as f:
        for line in f:
            name, kind, dtype, rows, n, form = line.split()
            cfgs[name] = {"kind": kind, "dtype": getattr(torch, dtype), "rows": int(rows),
                          "n": int(n), "chunked": form == "chunks"}
    return cfgs


def main():
    if len(sys.argv) < 3 or sys.argv[2] not in ("check", "small", "bench"):
        sys.exit(__doc__)
    folder, mode = sys.argv[1], sys.argv[2]
    cfgs = read_manifest(folder)
    names = sys.argv[3:] or list(cfgs)
    ok = True
    torch.manual_seed(0)
    torch.empty(1, device="cuda")  # the context the modules load into
    for name in names:
        kern = RowKernel(folder, name, cfgs[name])
        cfg = cfgs[name]
        if mode == "bench" and cfg["kind"] == "cross_entropy":
            for m, n in CE_SHAPES:
                if cfg["dtype"] == torch.bfloat16:
                    bench_cross_entropy(kern, m, n)
            continue
        if mode == "bench":  # a kind over a row's chunks takes the longer rows
            for m, n in SHAPES:
                fits = n >= LONG_ROWS if cfg["chunked"] else n == cfg["n"]
                if fits and cfg["dtype"] != torch.float32:
                    bench_one(kern, m, n)
            continue
        for m, n in check_shapes(cfg, mode == "check"):
            ok &= check_one(kern, m, n)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
