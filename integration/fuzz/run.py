#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""GPU differential fuzz: runs every kernel prepare.py compiled into DIR on
the GPU over random shapes (ragged in every dimension, 1-D tails, padded
strides, column slices of a wider tensor, inputs smaller than the output so
that loads zero-fill, grids larger than the work, negative loop starts) and
compares each with the CPU reference (reference.py): bit-exact, NaN equal to
any NaN, transcendental math within 4 ulps (f32) or 1 ulp (narrower types)
of the output type. Matmul kernels (prepare.py --matmuls, --persistent)
run over ragged M, N and K (K = 0 and K below one tile too, N rows ending
inside a granule, extra grid blocks; persistent ones on grids of 1 block to
2 more than the tiles, with their bias, residual, alpha and beta) on inputs whose sums are exact in f32, so C must match
numpy bit for bit; FP8 ones (prepare.py --fp8) within one unit in the
last place of C, since FP8 wgmma adds with reduced precision. Attention kernels (prepare.py --attention) run over
random B, H and S (any S when ragged), packed or separate Q/K/V, against
an f32 reference within FlashAttention's tolerance (attention_run.py,
with torch). Every tensor lies between sentinel guard bytes and has
sentinels in its padding; all of them, every input byte and every output
element the kernel does not cover must come back unchanged. Each kernel
runs in its own process under a 10 s watchdog per launch, so a hang or a
fault is one outcome, not the end of the run.

  run.py DIR [--jobs N] [--shapes N]        the whole suite, a table at the end
  run.py DIR --one NAME [--shapes N]        one kernel (what the suite spawns)
Without a GPU it prints "skipped: no GPU"."""
import argparse
import concurrent.futures
import ctypes
import json
import os
import random
import shutil
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(0, os.path.join(here, ".."))
# the generated launchers' ws_tensor is the C API's WsTensor, field for
# field, and their element type numbers are WsDtype's (the ws package)
from suite_kernels import ws  # noqa: E402
from ws._capi import Tensor as WsTensor  # noqa: E402
try:  # numpy is needed on the GPU machine only
    import numpy as np
    import reference as ref
except ImportError:
    np = ref = None

GUARD = 256
# A launch still running after this is a hang; under compute-sanitizer,
# which runs kernels tens of times slower, the suite sets a longer one.
WATCHDOG_S = float(os.environ.get("WS_FUZZ_WATCHDOG_S", "10"))
SANITIZER_WATCHDOG_S = 300
# The largest tensor a shape draws (elements). Under compute-sanitizer the
# suite asks for small ones: racecheck tracks every shared-memory access,
# and a 1-D kernel over a million elements ran for minutes there.
MAX_ELEMENTS = int(os.environ.get("WS_FUZZ_MAX_ELEMENTS", str(1 << 21)))
SANITIZER_MAX_ELEMENTS = 1 << 15


class Cuda:
    def __init__(self):
        self.lib = ctypes.CDLL("libcuda.so.1")
        self.check(self.lib.cuInit(0), "cuInit")
        dev = ctypes.c_int()
        self.check(self.lib.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
        self.ctx = ctypes.c_void_p()
        self.check(self.lib.cuDevicePrimaryCtxRetain(ctypes.byref(self.ctx), dev), "ctx")
        self.check(self.lib.cuCtxSetCurrent(self.ctx), "ctx")

    def check(self, r, what):
        if r != 0:
            raise RuntimeError("%s: CUresult %d" % (what, r))

    def alloc(self, nbytes):
        p = ctypes.c_uint64()
        self.check(self.lib.cuMemAlloc_v2(ctypes.byref(p), ctypes.c_size_t(nbytes)), "alloc")
        return p.value

    def put(self, dev, host):
        self.check(self.lib.cuMemcpyHtoD_v2(ctypes.c_uint64(dev), host.ctypes.data_as(ctypes.c_void_p),
                                            ctypes.c_size_t(host.nbytes)), "copy in")

    def get(self, dev, nbytes):
        host = np.empty(nbytes, dtype=np.uint8)
        self.check(self.lib.cuMemcpyDtoH_v2(host.ctypes.data_as(ctypes.c_void_p), ctypes.c_uint64(dev),
                                            ctypes.c_size_t(nbytes)), "copy out")
        return host

    def wait(self):
        """Polls an event; a kernel still running after the watchdog is a hang."""
        ev = ctypes.c_void_p()
        self.check(self.lib.cuEventCreate(ctypes.byref(ev), 0), "event")
        self.check(self.lib.cuEventRecord(ev, None), "event")
        start = time.time()
        while True:
            r = self.lib.cuEventQuery(ev)
            if r == 0:
                return
            if r != 600:  # CUDA_ERROR_NOT_READY
                raise RuntimeError("kernel execution: CUresult %d" % r)
            if time.time() - start > WATCHDOG_S:
                print("HANG: kernel still running after %d s" % WATCHDOG_S, flush=True)
                os._exit(3)
            time.sleep(0.0005)


def draw_shape(rng, spec):
    """Output sizes, per-input sizes, launch counts per outer dimension, n."""
    box, rank = spec["box"], spec["rank"]
    sizes = []
    for d in range(rank):
        if d == rank - 1:
            s = rng.choice([1, 3, box[d] - 1, box[d] + 5, 2 * box[d] + 7, 3 * box[d],
                            rng.randint(1, 5 * box[d] + 40)])
            if rank == 1 and rng.random() < 0.3:
                s = rng.choice([1000003, 100003, 65537, 4099])
        else:
            s = rng.choice([1, box[d], box[d] + 1, 2 * box[d] - 1, rng.randint(1, 3 * box[d] + 3)])
        sizes.append(max(1, s))
    while np.prod(sizes) > MAX_ELEMENTS:
        d = int(np.argmax(sizes))
        sizes[d] = max(1, sizes[d] // 2)
    in_sizes = []
    for _ in spec["inputs"]:
        if rng.random() < 0.2:
            in_sizes.append([max(1, s - rng.randint(0, s)) for s in sizes])
        else:
            in_sizes.append(list(sizes))
    counts = [-(-sizes[d] // box[d]) + rng.choice([0, 0, 1, 2]) for d in range(rank - 1)]
    n = sizes[-1] + rng.choice([0, 0, 0, box[-1], -min(sizes[-1] - 1, rng.randint(0, box[-1]))])
    return sizes, in_sizes, counts, n


def layout(rng, sizes, eb):
    """Element strides (outermost first) with padding, the offset of the view
    in its rows (a column slice), and the allocation's element span."""
    granule = 16 // eb
    offset = granule * rng.choice([0, 0, 1, 3])
    pitch = sizes[-1] + offset + granule * rng.choice([0, 0, 1, 2])
    pitch = -(-pitch // granule) * granule
    strides = [1] * len(sizes)
    if len(sizes) > 1:
        strides[-2] = pitch
    for d in range(len(sizes) - 3, -1, -1):
        strides[d] = strides[d + 1] * (sizes[d + 1] + rng.choice([0, 0, 1]))
    span = offset + sum((sizes[d] - 1) * strides[d] for d in range(len(sizes))) + 1
    span += granule  # bytes after the last element, still inside the allocation
    return strides, offset, span


class Tensor:
    def __init__(self, cuda, rng, sizes, t):
        self.t, self.sizes, self.eb = t, sizes, ref.BYTES[t]
        self.strides, self.offset, span = layout(rng, sizes, self.eb)
        self.nbytes = GUARD + span * self.eb + GUARD
        self.host = np.frombuffer(rng.randbytes(self.nbytes), dtype=np.uint8).copy()
        self.dev = cuda.alloc(self.nbytes)
        self.base = self.dev + GUARD + self.offset * self.eb

    def element_index(self):
        """Byte offset (in host) of every element of the view, by coordinate."""
        idx = np.zeros(self.sizes, dtype=np.int64)
        for d, s in enumerate(self.sizes):
            shape = [1] * len(self.sizes)
            shape[d] = s
            idx = idx + (np.arange(s, dtype=np.int64) * self.strides[d]).reshape(shape)
        return GUARD + (self.offset + idx) * self.eb

    def gather(self, data):
        idx = self.element_index()[..., None] + np.arange(self.eb)
        return data[idx].reshape(-1)

    def scatter(self, raw):
        idx = self.element_index()[..., None] + np.arange(self.eb)
        self.host[idx.reshape(-1)] = raw

    def arg(self):
        w = WsTensor()
        w.base, w.rank, w.dtype = self.base, len(self.sizes), dtype_number(self.t)
        for d in range(len(self.sizes)):
            w.sizes[d], w.strides[d] = self.sizes[d], self.strides[d]
        return w


def dtype_number(name):
    """WsDtype's number of an element type named as MLIR does ("bf16")."""
    return next(n for n, t in ws.compiler.dtype_names().items() if t == name)


def random_values(rng, t, count):
    """Element bytes: half random bit patterns (every encoding: NaN,
    infinities, subnormals), half small values with few significant bits."""
    raw = np.frombuffer(rng.randbytes(count * ref.BYTES[t]), dtype=np.uint8).copy()
    nice = np.array([rng.choice([0, 1, -1, 2, 0.5, -3, 1.25, 6, -0.375, 100, -448, 1000])
                     for _ in range(min(count, 4096))], dtype=np.float64)
    nice = np.resize(nice, count)
    if t in ref.FLOATS:
        nice_raw = ref.encode(nice.astype(np.float32), t).reshape(-1)
    else:
        nice_raw = ref.encode(nice.astype(np.int64), t).reshape(-1)
    mask = np.resize(np.frombuffer(rng.randbytes(count), dtype=np.uint8) & 1, count).astype(bool)
    eb = ref.BYTES[t]
    raw = raw.reshape(count, eb)
    raw[mask] = nice_raw.reshape(count, eb)[mask]
    return raw.reshape(-1)


def covered(spec, sizes, counts, n, start):
    """Elements the grid and the loop write."""
    box, rank = spec["box"], spec["rank"]
    mask = np.ones(sizes, dtype=bool)
    for d in range(rank - 1):
        shape = [1] * rank
        shape[d] = sizes[d]
        mask &= (np.arange(sizes[d]) < counts[d] * box[d]).reshape(shape)
    inner = np.zeros(sizes[-1], dtype=bool)
    for y in range(start, n, spec["step"]):
        inner[max(y, 0):max(min(y + box[-1], sizes[-1]), 0)] = True
    return mask & inner.reshape([1] * (rank - 1) + [sizes[-1]])


def compare(spec, want, got_raw, t):
    """Mismatching elements: bits, NaN == NaN, or ulps for transcendentals."""
    eb = ref.BYTES[t]
    want_raw = ref.encode(want, t).reshape(-1, eb)
    got_raw = got_raw.reshape(-1, eb)
    same = (want_raw == got_raw).all(axis=1)
    if t in ref.FLOATS:
        got = ref.decode(got_raw.reshape(-1), t)
        w = ref.decode(want_raw.reshape(-1), t)
        same |= np.isnan(got) & np.isnan(w)
        if spec["transcendental"]:
            bits = lambda raw: raw.reshape(-1, eb).astype(np.uint64) @ (256 ** np.arange(eb, dtype=np.uint64))  # noqa: E731
            ulps = np.abs(ref.ordered(bits(want_raw), t) - ref.ordered(bits(got_raw), t))
            same |= ulps <= (4 if t == "f32" else 1)
    return np.flatnonzero(~same)


def run_attention(directory, spec, shapes):
    """An attention kernel's shapes, checked with torch (attention_run.py)."""
    import torch
    sys.path.insert(0, os.path.join(here, "..", "attention"))
    import attention_run
    cfg = dict(spec, dtype=getattr(torch, spec["dtype"]), features=spec.get("features", []))
    # under compute-sanitizer the references run on the CPU (see there)
    attention_run.CPU_REFERENCE = os.environ.get("WS_FUZZ_SANITIZED") == "1"
    torch.zeros(1, device="cuda")  # torch's context current before the module loads
    ok = attention_run.fuzz(directory, spec["name"], cfg, shapes, "shape/" + spec["name"],
                            MAX_ELEMENTS, WATCHDOG_S)
    print("%s %s: %d shapes" % ("PASS" if ok else "MISMATCH", spec["name"], shapes))
    return 0 if ok else 6


def run_rows(directory, spec, shapes):
    """A row kernel's shapes, checked with torch (rows_run.py)."""
    import torch
    sys.path.insert(0, os.path.join(here, "..", "rows"))
    import rows_run
    # rows_run's kind is the kernel's function (the fuzz's is "rows")
    cfg = dict(spec, dtype=getattr(torch, spec["dtype"]), kind=spec["op"])
    torch.zeros(1, device="cuda")  # torch's context current before the module loads
    ok = rows_run.fuzz(directory, spec["name"], cfg, shapes, "shape/" + spec["name"],
                       MAX_ELEMENTS)
    print("%s %s: %d shapes" % ("PASS" if ok else "MISMATCH", spec["name"], shapes))
    return 0 if ok else 6


def run_one(directory, name, shapes):
    spec = next(s for s in json.load(open(os.path.join(directory, "manifest.json")))["kernels"]
                if s["name"] == name)
    if spec.get("kind") == "attention":
        return run_attention(directory, spec, shapes)
    if spec.get("kind") == "rows":
        return run_rows(directory, spec, shapes)
    cuda = Cuda()
    lib = ctypes.CDLL(os.path.join(directory, name + ".so"))
    module = ctypes.create_string_buffer(4096)
    cuda.check(lib["%s_load" % name](module), "load")
    rng = random.Random("shape/%s" % name)
    if spec.get("kind") == "matmul":
        return run_matmul(cuda, lib, module, spec, rng, shapes)
    launch = lib["%s_%s_launch" % (name, name)]
    for shape_index in range(shapes):
        sizes, in_sizes, counts, n = draw_shape(rng, spec)
        ins = [Tensor(cuda, rng, s, t) for s, t in zip(in_sizes, spec["inputs"])]
        out = Tensor(cuda, rng, sizes, spec["out_type"])
        values = []
        for x in ins:
            raw = random_values(rng, x.t, int(np.prod(x.sizes)))
            x.scatter(raw)
            v = ref.decode(raw, x.t).reshape(x.sizes)
            full = np.zeros(sizes, dtype=v.dtype)  # out-of-bounds loads read zero
            full[tuple(slice(0, min(a, b)) for a, b in zip(x.sizes, sizes))] = \
                v[tuple(slice(0, min(a, b)) for a, b in zip(x.sizes, sizes))]
            values.append(full)
        for x in ins + [out]:
            cuda.put(x.dev, x.host)
        args = [x.arg() for x in ins + [out]]
        scalars = [n]
        start = 16 * rng.randint(-1, 2)  # a kernel argument with ws.divisibility 16
        if isinstance(spec["start"], int):
            start = spec["start"]
        else:
            scalars.append(start)
        rank = spec["rank"]
        scalars += [counts[d] for d in range(rank - 3)]
        grid = [1, 1, 1]
        if rank >= 2:
            grid[0] = counts[rank - 2]
        if rank >= 3:
            grid[1] = counts[rank - 3]
        if rank >= 4:
            grid[2] = int(np.prod(counts[:rank - 3]))
        if rank == 1:
            grid[0] = rng.choice([1, 1, 3])
        launch.argtypes = ([ctypes.c_void_p, ctypes.c_void_p] + [ctypes.c_uint] * 3 +
                           [ctypes.POINTER(WsTensor)] * len(args) + [ctypes.c_int32] * len(scalars))
        if shape_index == 0 and out.eb < 16:
            # The launcher refuses a base TMA cannot take, naming the argument.
            args[-1].base += out.eb
            r = launch(module, None, *grid, *[ctypes.byref(a) for a in args], *scalars)
            message = module_error(module)
            args[-1].base -= out.eb
            if r != 1 or "16-byte aligned" not in message:
                print("LAUNCH-ERROR %s: a misaligned base gave CUresult %d, message %r" % (name, r, message))
                return 4
        r = launch(module, None, *grid, *[ctypes.byref(a) for a in args], *scalars)
        what = "%s shape %d sizes %s grid %s n %d" % (name, shape_index, sizes, grid, n)
        if r != 0:
            print("LAUNCH-ERROR %s: CUresult %d: %s" % (what, r, module_error(module)))
            return 4
        cuda.wait()
        bad_guard = 0
        for x in ins:
            bad_guard += int((cuda.get(x.dev, x.nbytes) != x.host).sum())
        got = cuda.get(out.dev, out.nbytes)
        view = np.zeros(out.nbytes, dtype=bool)
        view[(out.element_index()[..., None] + np.arange(out.eb)).reshape(-1)] = True
        bad_guard += int(((got != out.host) & ~view).sum())
        mask = covered(spec, sizes, counts, n, start)
        got_el = out.gather(got).reshape(-1, out.eb)
        old_el = out.gather(out.host).reshape(-1, out.eb)
        untouched = ~mask.reshape(-1)
        bad_untouched = int((got_el[untouched] != old_el[untouched]).any(axis=1).sum())
        want = ref.run(spec, values).reshape(-1)[mask.reshape(-1)]
        bad = compare(spec, want, got_el[mask.reshape(-1)].reshape(-1), spec["out_type"])
        if bad_guard or bad_untouched:
            print("GUARD %s: %d bytes outside the view and %d uncovered elements changed"
                  % (what, bad_guard, bad_untouched))
            return 5
        if len(bad):
            i = bad[0]
            print("MISMATCH %s: %d of %d elements; first: want %r got %r" % (
                what, len(bad), int(mask.sum()), ref.encode(want[i:i + 1], spec["out_type"]).tolist(),
                got_el[mask.reshape(-1)][i].tolist()))
            return 6
    print("PASS %s: %d shapes" % (name, shapes))
    return 0


def exact_values(rng, t, count):
    """Multiples of 1/8 in [-1, 1]: every product and every sum of up to
    thousands of them is exact in f32, so C rounds to the reference bit for
    bit whatever order wgmma adds in."""
    q = np.array([rng.randint(-8, 8) for _ in range(min(count, 4096))], dtype=np.float32) / 8
    return ref.encode(np.resize(q, count), t).reshape(-1)


def draw_matmul_shape(rng, spec):
    """M, N, K: ragged against the tiles, K = 0 or below one K tile now and
    then, N rows that end inside a 16-byte granule; extra grid blocks."""
    bm, bn, bk = spec["bm"], spec["bn"], spec["bk"]
    m = rng.choice([1, bm - 1, bm, bm + 3, 2 * bm + 17, rng.randint(1, 4 * bm)])
    n = rng.choice([1, 3, bn - 1, bn, bn + 5, 2 * bn + 9, rng.randint(1, 4 * bn)])
    k = rng.choice([0, 8, bk - 8, bk, bk + 8, 3 * bk + 24, rng.randint(1, 600)] +
                   ([16 * bk + 8, rng.randint(16 * bk, 40 * bk)] * 2 if spec.get("split_k") else []))
    extra = rng.choice([0, 0, 1])
    return m, n, max(k, 0), extra


ALPHA, BETA = -0.5, 0.25  # powers of two: alpha * C and beta * R are exact
SA, SB = 0.5, -2.0  # an FP8 kernel's per-tensor scales, powers of two too


def epilogue_operands(cuda, rng, spec, m, n):
    """The epilogue's tensors (a bias row of C's type, an f32 bias per row, a
    residual of C's type) with their values, and the function that applies
    the epilogue to the f64 product, rounding where the kernel does (f32)."""
    t, epi = spec["dtype"], spec["epilogue"]
    if epi == "bias_relu":
        x = Tensor(cuda, rng, [1, n], t)
        v = ref.decode(exact_values(rng, t, n), t).astype(np.float32).reshape(1, n)
        x.scatter(ref.encode(v, t).reshape(-1))
        return [x], lambda p: np.maximum(p.astype(np.float32) + v, 0)
    if epi == "bias_col":
        x = Tensor(cuda, rng, [1, m], "f32")
        v = ref.decode(exact_values(rng, "f32", m), "f32").astype(np.float32).reshape(m, 1)
        x.scatter(ref.encode(v.reshape(1, m), "f32").reshape(-1))
        return [x], lambda p: p.astype(np.float32) + v
    if epi == "residual":
        x = Tensor(cuda, rng, [m, n], t)
        v = ref.decode(exact_values(rng, t, m * n), t).astype(np.float32).reshape(m, n)
        x.scatter(ref.encode(v, t).reshape(-1))
        return [x], lambda p: (p.astype(np.float32) * np.float32(ALPHA) +
                               v * np.float32(BETA)).astype(np.float32)
    if epi == "alpha":
        return [], lambda p: p.astype(np.float32) * np.float32(ALPHA)
    if epi == "scales":
        return [], lambda p: p.astype(np.float32) * np.float32(SA) * np.float32(SB)
    if epi == "relu":
        return [], lambda p: np.maximum(p, 0)
    return [], lambda p: p


def module_error(module):
    """The message a generated launcher left in its module struct."""
    return module.raw[16:16 + 256].split(b"\0")[0].decode()


def balanced_grid(lib, spec, module, tiles):
    """NAME_KERNEL_balanced_grid(&module, iterations) of a persistent
    launcher (not split-K): the fewest blocks, at most the resident grid,
    that run its tile loop in as many rounds; 0 when the launcher fails.
    A cluster kernel's loop steps over clusters, each taking a cluster's
    worth of tiles (a pair of M tiles in 2 x 1), so it counts those."""
    name = spec["name"]
    cx, cy = spec.get("cluster") or (1, 1)
    fn = lib["%s_%s_balanced_grid" % (name, name)]
    fn.restype, fn.argtypes = ctypes.c_uint, [ctypes.c_void_p, ctypes.c_uint64]
    return fn(module, -(-tiles[0] // cx) * -(-tiles[1] // cy))


def run_matmul(cuda, lib, module, spec, rng, shapes):
    """C = A @ B (B given N x K or K x N) through the epilogue (ReLU, alpha,
    a bias row or column, a residual with alpha and beta), rounded to the
    output type: bit-exact against numpy; guards, padding and every input
    byte unchanged. A persistent kernel runs on a grid from 1 block to 2
    more than its tiles, its first shape on its launcher's balanced grid
    (not split-K)."""
    name, t = spec["name"], spec["dtype"]
    ta, tb = spec.get("a_type", t), spec.get("b_type", t)  # FP8 operands, C of type t
    persistent, epi = spec.get("persistent", False), spec["epilogue"]
    launch = lib["%s_%s_launch" % (name, name)]
    operands = {"bias_relu": 1, "bias_col": 1, "residual": 1}.get(epi, 0)
    scalars = {"alpha": [ctypes.c_float], "residual": [ctypes.c_float] * 2,
               "scales": [ctypes.c_float] * 2}.get(epi, [])
    split_k = spec.get("split_k", False)
    launch.argtypes = ([ctypes.c_void_p, ctypes.c_void_p] + [ctypes.c_uint] * 3 +
                       [ctypes.POINTER(WsTensor)] * (3 + operands) +
                       [ctypes.c_int32] * (3 if persistent else 1) + scalars +
                       [ctypes.c_int64] * split_k)
    for shape_index in range(shapes):
        m, n, k, extra = draw_matmul_shape(rng, spec)
        kn = spec["layout"] == "kn"
        a = Tensor(cuda, rng, [m, k] if k else [m, 1], ta)
        b = Tensor(cuda, rng, ([k, n] if kn else [n, k]) if k else ([1, n] if kn else [n, 1]), tb)
        c = Tensor(cuda, rng, [m, n], t)
        va = ref.decode(exact_values(rng, ta, m * k), ta).reshape(m, k).astype(np.float64)
        vb = ref.decode(exact_values(rng, tb, n * k), tb).reshape((k, n) if kn else (n, k))
        if k:
            a.scatter(ref.encode(va, ta).reshape(-1))
            b.scatter(ref.encode(vb, tb).reshape(-1))
        extras, apply = epilogue_operands(cuda, rng, spec, m, n)
        # + 0.0: the accumulator starts at +0, so a sum of -0 products is +0
        want = apply(va @ (vb.astype(np.float64) if kn else vb.astype(np.float64).T) + 0.0)
        for x in [a, b, c] + extras:
            cuda.put(x.dev, x.host)
        args = [x.arg() for x in [a, b, c] + extras]
        if not k:  # K = 0: A and B have no element
            args[0].sizes[1] = 0
            args[1].sizes[0 if kn else 1] = 0
        tiles = [-(-m // spec["bm"]), -(-n // spec["bn"])]
        if persistent:
            grid = [rng.choice([1, 2, 3, tiles[0] * tiles[1], tiles[0] * tiles[1] + 2,
                                rng.randint(1, tiles[0] * tiles[1] + 2)] +
                               [min(132, tiles[0] * tiles[1] * rng.randint(2, 5))] * 2 * split_k),
                    1, 1]
            if not split_k and shape_index == 0:  # the launcher's own balanced grid
                grid[0] = balanced_grid(lib, spec, module, tiles)
                if not grid[0]:
                    print("LAUNCH-ERROR %s: no balanced grid: %s" % (name, module_error(module)))
                    return 4
            sizes = [m, n, k]
        else:
            grid = [tiles[0] + extra, tiles[1] + extra, 1]
            sizes = [k]
        values = {"alpha": [ALPHA], "residual": [ALPHA, BETA], "scales": [SA, SB]}.get(epi, [])
        what = "%s shape %d M %d N %d K %d grid %s" % (name, shape_index, m, n, k, grid)
        workspace = []
        if split_k:  # zeroed; the kernel leaves it zeroed
            nbytes = lib["%s_%s_workspace_bytes" % (name, name)]
            nbytes.restype, nbytes.argtypes = ctypes.c_size_t, [ctypes.c_uint]
            size = nbytes(grid[0])
            workspace = [cuda.alloc(size)]
            cuda.put(workspace[0], np.zeros(size, dtype=np.uint8))
        r = launch(module, None, *grid, *[ctypes.byref(x) for x in args], *sizes, *values,
                   *workspace)
        if r != 0:
            print("LAUNCH-ERROR %s: CUresult %d: %s" % (what, r, module_error(module)))
            return 4
        cuda.wait()
        bad_guard = sum(int((cuda.get(x.dev, x.nbytes) != x.host).sum()) for x in [a, b] + extras)
        got = cuda.get(c.dev, c.nbytes)
        view = np.zeros(c.nbytes, dtype=bool)
        view[(c.element_index()[..., None] + np.arange(c.eb)).reshape(-1)] = True
        bad_guard += int(((got != c.host) & ~view).sum())
        if bad_guard:
            print("GUARD %s: %d bytes outside C changed" % (what, bad_guard))
            return 5
        got_el = c.gather(got).reshape(-1, c.eb)
        want_el = ref.encode(want.astype(np.float32).reshape(-1), t).reshape(-1, c.eb)
        bad = np.flatnonzero(~(got_el == want_el).all(axis=1))
        if len(bad) and ta != t:
            # FP8 wgmma adds with reduced precision: a sum may round across a
            # boundary of C's type, so C may be one unit in its last place off
            got_v = ref.decode(got_el.reshape(-1), t).astype(np.float64)
            want_v = ref.decode(want_el.reshape(-1), t).astype(np.float64)
            ulp = np.abs(want_v) * (2.0 ** -7 if t == "bf16" else 2.0 ** -10) + 2.0 ** -24
            bad = np.flatnonzero(~(np.abs(got_v - want_v) <= ulp))
        if len(bad):
            i = bad[0]
            print("MISMATCH %s: %d of %d elements; first C[%d][%d]: want %r got %r" % (
                what, len(bad), m * n, i // n, i % n, want_el[i].tolist(), got_el[i].tolist()))
            return 6
    print("PASS %s: %d shapes" % (name, shapes))
    return 0


OUTCOMES = {0: "pass", 3: "hang", 4: "launch refused", 5: "wrote outside", 6: "wrong values"}


def build_so(directory, name):
    cuda = os.environ.get("WS_CUDA_ROOT", "/usr/local/cuda")
    out = os.path.join(directory, name + ".so")
    subprocess.run(["gcc", "-shared", "-O2", "-fPIC", "-I" + os.path.join(cuda, "include"),
                    os.path.join(directory, name + ".c"), "-o", out,
                    "-L" + os.path.join(cuda, "lib64", "stubs"), "-lcuda"], check=True)


def compute_capability():
    """The first GPU's compute capability, "9.0" for an H100."""
    p = subprocess.run(["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"],
                       capture_output=True, text=True)
    return p.stdout.split()[0] if p.returncode == 0 and p.stdout.split() else "?"


def run_suite(args):
    kernels = json.load(open(os.path.join(args.dir, "manifest.json")))["kernels"]
    cc = compute_capability()
    foreign = [s for s in kernels if (s.get("chip") == "sm_100a") != (cc == "10.0")]
    if foreign:
        print("skipped: %d kernels built for %s; this GPU has compute capability %s"
              % (len(foreign), "sm_100a" if cc != "10.0" else "sm_90a", cc))
        kernels = [s for s in kernels if s not in foreign]
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 4) as pool:
        list(pool.map(lambda s: build_so(args.dir, s["name"]), kernels))

    def one(spec):
        try:
            p = subprocess.run([sys.executable, __file__, args.dir, "--one", spec["name"],
                                "--shapes", str(args.shapes)], capture_output=True, text=True,
                               timeout=120)
            code, text = p.returncode, (p.stdout + p.stderr).strip()
        except subprocess.TimeoutExpired:
            code, text = 3, "HANG: no answer in 120 s"
        return spec, OUTCOMES.get(code, "fault (exit %d)" % code), text

    table = {}
    failures = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for spec, outcome, text in pool.map(one, kernels):
            key = (spec.get("kind", "eltwise"), spec["rank"], spec["out_type"])
            row = table.setdefault(key, {})
            row[outcome] = row.get(outcome, 0) + 1
            if outcome != "pass":
                failures.append("%s (%s): %s" % (spec["name"], outcome, text.splitlines()[-1] if text else ""))
                print("FAIL " + failures[-1], flush=True)
    print("%-8s %-6s %-10s %s" % ("kind", "rank", "out type", "outcomes"))
    for (kind, rank, t), row in sorted(table.items()):
        print("%-8s %-6d %-10s %s" % (kind, rank, t,
                                      ", ".join("%s %d" % kv for kv in sorted(row.items()))))
    total = sum(sum(r.values()) for r in table.values())
    passed = sum(r.get("pass", 0) for r in table.values())
    sample = [s["name"] for s in kernels if s.get("kind") != "matmul"][:args.sanitize]
    sample += [s["name"] for s in kernels if s.get("kind") == "matmul" and
               not s.get("persistent")][:1]
    sample += [s["name"] for s in kernels if s.get("persistent")][:1]
    sample += [s["name"] for s in kernels if s.get("kind") == "attention"][:1]
    sample += [s["name"] for s in kernels if s.get("kind") == "rows"][:1]
    san_pass, san_fail = 0, 0
    sanitizer = os.path.join(os.environ.get("WS_CUDA_ROOT", "/usr/local/cuda"), "bin", "compute-sanitizer")
    for tool in ("memcheck", "racecheck"):
        for name in sample:
            # API errors are not reported: the CUDA Python bindings probe the
            # driver for entry points newer than it (cuGetProcAddress fails),
            # and every call of ours checks its own CUresult
            p = subprocess.run([sanitizer, "--tool", tool, "--report-api-errors", "no",
                                "--error-exitcode", "9", sys.executable,
                                __file__, args.dir, "--one", name, "--shapes", "1"],
                               capture_output=True, text=True,
                               env=dict(os.environ, WS_FUZZ_WATCHDOG_S=str(SANITIZER_WATCHDOG_S),
                                        WS_FUZZ_MAX_ELEMENTS=str(SANITIZER_MAX_ELEMENTS),
                                        WS_FUZZ_SANITIZED="1"))
            summary = [l for l in p.stdout.splitlines() if "SUMMARY" in l]
            ok = p.returncode == 0
            san_pass += ok
            san_fail += not ok
            print("compute-sanitizer --tool %s %s: exit %d %s" % (tool, name, p.returncode,
                                                                  summary[-1] if summary else ""))
    print("gpu fuzz: %d kernels x %d shapes: %d passed, %d failed; sanitizer %d passed, %d failed"
          % (total, args.shapes, passed, total - passed, san_pass, san_fail))
    print("%d passed, %d failed" % (passed + san_pass, total - passed + san_fail))
    return 0 if passed == total and san_fail == 0 else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--one")
    ap.add_argument("--shapes", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=6)
    ap.add_argument("--sanitize", type=int, default=4, help="kernels run under compute-sanitizer")
    args = ap.parse_args()
    if args.one:
        return run_one(args.dir, args.one, args.shapes)
    if not shutil.which("nvidia-smi") or subprocess.run(["nvidia-smi", "-L"], capture_output=True).returncode:
        print("skipped: no GPU")
        return 0
    if np is None:
        print("error: the GPU fuzz needs numpy")
        return 1
    return run_suite(args)


if __name__ == "__main__":
    sys.exit(main())
