#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs ws's compiled attention kernels on the GPU, in one process with
torch: checks them against an f32 reference, and times them against torch
SDPA (FlashAttention-2 and cuDNN backends forced) and Triton.

Usage: attention_run.py DIR check|small|bench|profile [VARIANT...]
  check: sizes from one block to B x H x S = 2 x 8 x 2048 and 1 x 2 x 4096;
  small: the first three (for compute-sanitizer); profile: one launch at
  the first benchmark shape of its head dim (for ncu); bench: the benchmark
  (with --triton, also a Triton forward attention in the form of Triton's
  fused-attention tutorial, best of TRITON_CONFIGS, checked first).
DIR holds VARIANT.mlir (compile_attention.sh writes them; each runs from
VARIANT.wsmod where `python -m ws compile` wrote one, else compiled by the
ws package: suite_kernels.py) and the manifest:
one line per variant, "name head_dim block_m block_n dtype causal layout
features" (features: "-", or "gqa", "softcap" or both, comma-separated).

The kernels take Q, K, V and O, the sequence length S and the softmax
scale in the log2 domain (log2(e) / sqrt(D)). Layout "ragged": B x H x S x D
views, any S, one block per (query block, head, batch); "rows": (B*H*S) x D
row-major views, S a multiple of block_m, one block per (query block,
batch x head). When strided, Q, K and V are slices of one packed tensor
(B x S x 3 x H x D for ragged, (B*H*S) x 3D for rows). The check compares with the reference in f32
(softmax(Q K^T / sqrt(D)) V) using FlashAttention's own test tolerance: the
error of ws's output may be at most twice that of PyTorch's own attention
in the same precision (plus 1e-5), measured against the f32 reference.
Guard rows around O (and, for ragged kernels, padding rows after each
head's S rows) must keep their sentinel: nothing is written outside O.

Layout "varlen": a batch of sequences of any lengths packed token-major (T x
H x D), with the B + 1 cumulative offsets cu_seqlens (an int32 tensor the
kernel reads) and each tensor passed as SequenceWindows; one
block per (query block, head, sequence). check runs batches with empty
sequences, one-token ones and ragged tails, Q/K/V packed as one tensor or
apart, each sequence followed by a guard sequence of NaN tokens (a block
that read across its sequence's end would carry NaN into its output) and
the last guard's rows of O left out of the launch (they must keep the
sentinel); bench runs VARLEN_SEQUENCES sequences of lengths uniform in
VARLEN_LENGTHS against SDPA's backends on nested tensors and on the padded
batch.

A gqa kernel takes K and V with Hkv heads and the group Hq / Hkv (check
runs groups 1, 4 and 8, Hkv = 1 among them; bench compares with SDPA's
enable_gqa); a softcap kernel takes cap * log2(e) after the scale, which is
then 1 / (sqrt(D) cap): the reference caps the scaled scores with
cap * tanh(s / cap) (CHECK_CAP in check, BENCH_CAP in bench)."""
import math
import os
import random
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from suite_kernels import suite_kernel  # noqa: E402

LOG2E = 1.4426950408889634
CHECK_CAP = 0.5  # small enough that tanh bends the [-1, 1] inputs' scores
BENCH_CAP = 50.0  # Gemma 2's attention soft cap


class SequenceWindows:
    """Packed token-major t (T tokens x H x D, any strides) seen as
    (T + 1) x H x T x D windows: element (u, h, r, d) is token u + r of
    head h. A box at window u = the start of a sequence (cu[b]) and rows r
    from -(box - 1) reads and writes that sequence's tokens, and TMA clips
    it below the sequence's start (r < 0): zeros in, nothing written, so a
    box moved back to end at the sequence's end never reaches into the
    sequence before. Windows past T tokens lie beyond t; a kernel keeps its
    boxes at or below the sequence's end (the varlen kernels of
    variants.py). torch cannot make this view (it spans more than t's
    storage), so it is passed as what a ws launch reads of a tensor: an
    address, a shape, strides and a dtype."""

    def __init__(self, t):
        tokens = t.shape[0]
        self.t, self.dtype = t, t.dtype
        self.shape = (tokens + 1, t.shape[1], tokens, t.shape[2])
        self.strides = (t.stride(0), t.stride(1), t.stride(0), t.stride(2))

    def data_ptr(self):
        return self.t.data_ptr()

    def stride(self):
        return self.strides


class WsAttention:
    """One compiled variant (suite_kernels.py), launched on torch tensors."""

    def __init__(self, folder, name):
        self.name = name
        self.kernel = suite_kernel(folder, name, "attention")

    def launcher(self, q, k, v, o, b, h, s, d, cfg, group=1, cap=CHECK_CAP, cu=None,
                 descales=None):
        """q, k, v, o: B x H x S x D views (ragged; K and V with H / group
        heads), (B*H*S) x D (rows), or packed T x H x D tensors (varlen,
        with cu the B + 1 sequence offsets, an int32 CUDA tensor, and s the
        longest sequence). An FP8 kernel takes V transposed (B x H x D x
        S) and descales, the f32 per-head factors (dq, dk, dv)."""
        if cfg["layout"] == "varlen":
            args = tuple(SequenceWindows(x) for x in (q, k, v, o)) + (cu, q.shape[0])
        else:
            args = (q, k, v, o, s)
        blocks = (s + cfg["bm"] - 1) // cfg["bm"]
        grid = (blocks, b * h, 1) if cfg["layout"] == "rows" else (blocks, h, b)
        scale = LOG2E / math.sqrt(d)
        extra = ()
        if "gqa" in cfg["features"]:
            extra += (group,)
        if "softcap" in cfg["features"]:
            scale = 1.0 / (math.sqrt(d) * cap)
            extra += (cap * LOG2E,)
        if descales is not None:
            extra += tuple(descales)
        args += (scale,) + extra
        return lambda: self.kernel.launch(grid, *args)


def check_refused(kern, cfg):
    """A sequence length that is not a multiple of block_m is refused by the
    launcher (its ws.divisibility), and nothing runs."""
    d, dt = cfg["d"], cfg["dtype"]
    s = cfg["bm"] + 8
    q = torch.zeros(s, d, dtype=dt, device="cuda")
    o = torch.full((s, d), 7.0, dtype=dt, device="cuda")
    try:
        kern.launcher(q, q, q, o, 1, 1, s, d, cfg)()
        refused = False
    except ValueError:
        refused = True
    torch.cuda.synchronize()
    ok = refused and bool((o == 7.0).all())
    print(f"{'ok  ' if ok else 'FAIL'} {kern.name} S={s}: launch {'refused' if refused else 'accepted'}")
    return ok


def manifest(folder):
    rows = {}
    with open(os.path.join(folder, "manifest")) as f:
        for line in f:
            name, d, bm, bn, dtype, causal, layout, features = line.split()
            features = [] if features == "-" else features.split(",")
            rows[name] = dict(d=int(d), bm=int(bm), bn=int(bn), dtype=getattr(torch, dtype),
                              causal=causal == "causal", layout=layout, features=features)
    return rows


# Under compute-sanitizer (mode small) the references run on the CPU, so
# that what the sanitizer reports is ws's kernel's: racecheck also reports
# hazards inside cuBLAS's own matmuls (its nvjet kernels), and its kernel
# filter (--kernel-name) fails with an internal error on this process.
CPU_REFERENCE = False


def reference(q, k, v, causal, dtype, cap=None):
    """softmax(q k^T / sqrt(d)) v of B x H x S x D tensors in `dtype` (K
    and V with H / group heads), the scores capped at cap * tanh(s / cap)
    if cap is set; on q's device (or the CPU, CPU_REFERENCE), returned on
    q's device."""
    device = q.device
    if CPU_REFERENCE:
        q, k, v = (x.cpu() for x in (q, k, v))
    return reference_on(q, k, v, causal, dtype, cap).to(device)


def reference_on(q, k, v, causal, dtype, cap):
    q, k, v = (x.to(dtype) for x in (q, k, v))
    group = q.shape[1] // k.shape[1]
    k, v = (x.repeat_interleave(group, dim=1) for x in (k, v))
    s = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
    if cap is not None:
        s = cap * torch.tanh(s / cap)
    if causal:
        n = q.shape[-2]
        s = s.masked_fill(torch.ones(n, n, dtype=torch.bool, device=q.device).triu(1),
                          float("-inf"))
    return torch.softmax(s.float(), dim=-1).to(dtype) @ v


def attention_inputs(cfg, b, h, s, strided, group=1):
    """Uniform [-1, 1] Q, K, V as B x H x S x D views (K and V with
    H / group heads), and the views the kernel takes (the same for ragged
    kernels, (B*H*S) x D for rows)."""
    d, dt = cfg["d"], cfg["dtype"]
    if cfg["layout"] == "ragged":
        hkv = h // group
        if strided:  # FlashAttention's packed layout: B x S x (H + 2 Hkv) x D
            qkv = torch.empty(b, s, h + 2 * hkv, d, dtype=dt, device="cuda").uniform_(-1, 1)
            q4, k4, v4 = (qkv[:, :, lo:hi].transpose(1, 2) for lo, hi in
                          ((0, h), (h, h + hkv), (h + hkv, h + 2 * hkv)))
        else:
            q4, k4, v4 = (torch.empty(b, n, s, d, dtype=dt, device="cuda").uniform_(-1, 1)
                          for n in (h, hkv, hkv))
        return (q4, k4, v4), (q4, k4, v4)
    if strided:  # column slices of one (B*H*S) x 3D tensor
        qkv = torch.empty(b * h * s, 3 * d, dtype=dt, device="cuda").uniform_(-1, 1)
        q2, k2, v2 = qkv[:, :d], qkv[:, d:2 * d], qkv[:, 2 * d:]
    else:
        q2, k2, v2 = (torch.empty(b * h * s, d, dtype=dt, device="cuda").uniform_(-1, 1)
                      for _ in range(3))
    return tuple(x.view(b, h, s, d) for x in (q2, k2, v2)), (q2, k2, v2)


GUARD = 3
SENTINEL = -12345.0


def output_buffer(cfg, b, h, s):
    """O inside a buffer of sentinels: GUARD rows before and after it, and
    for ragged kernels GUARD padding rows after each head's S rows. Returns
    (buffer, O as the kernel takes it, O as B x H x S x D, outside-O mask)."""
    d, dt = cfg["d"], cfg["dtype"]
    if cfg["layout"] == "ragged":
        flat = torch.full((b * h * (s + GUARD) * d + 2 * GUARD * d,), SENTINEL, dtype=dt,
                          device="cuda")
        padded = flat[GUARD * d:GUARD * d + b * h * (s + GUARD) * d].view(b, h, s + GUARD, d)
        o4 = padded[:, :, :s]
        outside = torch.ones_like(flat, dtype=torch.bool)
        outside[GUARD * d:GUARD * d + b * h * (s + GUARD) * d].view(
            b, h, s + GUARD, d)[:, :, :s] = False
        return flat, o4, o4, outside
    flat = torch.full((b * h * s + 2 * GUARD, d), SENTINEL, dtype=dt, device="cuda")
    o2 = flat[GUARD:GUARD + b * h * s]
    outside = torch.ones_like(flat, dtype=torch.bool)
    outside[GUARD:GUARD + b * h * s] = False
    return flat, o2, o2.view(b, h, s, d), outside


def wait(watchdog_s):
    """Waits for the launches so far; one still running after watchdog_s
    seconds is a hang: the process ends with exit 3 (the GPU fuzz's code)."""
    done = torch.cuda.Event()
    done.record()
    start = time.time()
    while not done.query():
        if time.time() - start > watchdog_s:
            print(f"HANG: kernel still running after {watchdog_s:.0f} s", flush=True)
            os._exit(3)
        time.sleep(0.0005)


def check_one(kern, cfg, b, h, s, strided, watchdog_s=60.0, group=1):
    d, dt = cfg["d"], cfg["dtype"]
    torch.manual_seed(b * 1000 + h * 100 + s + group)
    (q4, k4, v4), views = attention_inputs(cfg, b, h, s, strided, group)
    flat, o_view, o4, outside = output_buffer(cfg, b, h, s)
    kern.launcher(*views, o_view, b, h, s, d, cfg, group)()
    wait(watchdog_s)
    cap = CHECK_CAP if "softcap" in cfg["features"] else None
    ref = reference(q4, k4, v4, cfg["causal"], torch.float32, cap)
    low = reference(q4, k4, v4, cfg["causal"], dt, cap).float()
    out = o4.float()
    err = (out - ref).abs().max().item()
    torch_err = (low - ref).abs().max().item()
    guards = bool((flat[outside] == SENTINEL).all())
    return verdict(kern.name, f"B={b} H={h} S={s} D={d}"
                   f"{f' Hkv={h // group}' if 'gqa' in cfg['features'] else ''}"
                   f"{' strided' if strided else ''}", err, torch_err, f"torch {dt}", guards,
                   1e-5, "O")


def verdict(name, case, err, ref_err, ref_name, guards, slack, kept):
    """A check's verdict, printed on one line: ws's error against the f32
    reference at most twice that of the reference computation `ref_name`
    (plus `slack`), no NaN, and every sentinel outside `kept` kept."""
    ok = err <= 2 * ref_err + slack and guards and not math.isnan(err)
    print(f"{'ok  ' if ok else 'FAIL'} {name} {case}: max error {err:.2e} "
          f"({ref_name}: {ref_err:.2e}){'' if guards else f', bytes outside {kept} changed'}")
    return ok


VARLEN_GUARD = 3  # tokens of NaN after each sequence of a varlen check


def varlen_batch(cfg, h, lengths, strided, group, guards=True):
    """Packed T x H x D Q, K, V (K and V with H / group heads; strided:
    slices of one T x (H + 2 Hkv) x D tensor, FlashAttention's packed QKV)
    holding sequences of `lengths`, uniform in [-1, 1]. With guards, each
    sequence is followed by a guard sequence of VARLEN_GUARD tokens of NaN:
    a block that read past its sequence's end would carry NaN into its
    output. Returns q, k, v, the offsets of every sequence (the last guard
    is left out of the launch, so its rows of O must keep their sentinel),
    and each real sequence's (begin, end)."""
    d, dt = cfg["d"], cfg["dtype"]
    hkv = h // group
    offsets, real = [0], []
    for n in lengths:
        real.append((offsets[-1], offsets[-1] + n))
        offsets.append(offsets[-1] + n)
        if guards:
            offsets.append(offsets[-1] + VARLEN_GUARD)
    tokens = offsets[-1]
    if strided:
        qkv = torch.empty(tokens, h + 2 * hkv, d, dtype=dt, device="cuda").uniform_(-1, 1)
        q, k, v = qkv[:, :h], qkv[:, h:h + hkv], qkv[:, h + hkv:]
    else:
        q, k, v = (torch.empty(tokens, n, d, dtype=dt, device="cuda").uniform_(-1, 1)
                   for n in (h, hkv, hkv))
    for _, end in real:
        if guards:
            for x in (q, k, v):
                x[end:end + VARLEN_GUARD] = float("nan")
    return q, k, v, offsets[:-1] if guards else offsets, real


def check_varlen(kern, cfg, h, lengths, strided, group=1, guards=True, watchdog_s=60.0):
    """One varlen batch (varlen_batch) against the f32 reference of each
    sequence, with FlashAttention's tolerance as check_one; O's guard rows,
    the last guard sequence's rows and nothing else outside the sequences
    may change."""
    d, dt = cfg["d"], cfg["dtype"]
    torch.manual_seed(sum(lengths) * 10 + h + group)
    q, k, v, offsets, real = varlen_batch(cfg, h, lengths, strided, group, guards)
    tokens = q.shape[0]
    flat = torch.full((tokens + 2 * GUARD, h, d), SENTINEL, dtype=dt, device="cuda")
    o = flat[GUARD:GUARD + tokens]
    cu = torch.tensor(offsets, dtype=torch.int32, device="cuda")
    longest = max([b - a for a, b in zip(offsets, offsets[1:])] + [1])
    kern.launcher(q, k, v, o, len(offsets) - 1, h, longest, d, cfg, group, cu=cu)()
    wait(watchdog_s)
    cap = CHECK_CAP if "softcap" in cfg["features"] else None
    err = torch_err = 0.0
    outside = torch.ones(flat.shape[0], dtype=torch.bool, device="cuda")
    outside[GUARD:GUARD + offsets[-1]] = False  # the launched sequences' rows
    for begin, end in real:
        if end == begin:
            continue
        q4, k4, v4 = (x[begin:end].transpose(0, 1).unsqueeze(0) for x in (q, k, v))
        ref = reference(q4, k4, v4, cfg["causal"], torch.float32, cap)
        low = reference(q4, k4, v4, cfg["causal"], dt, cap).float()
        out = o[begin:end].transpose(0, 1).unsqueeze(0).float()
        err = max(err, (out - ref).abs().max().item())
        torch_err = max(torch_err, (low - ref).abs().max().item())
    guards_kept = bool((flat[outside] == SENTINEL).all())
    shown = lengths if len(lengths) <= 6 else f"{len(lengths)} sequences of {min(lengths)}..{max(lengths)}"
    return verdict(kern.name, f"varlen H={h} lengths={shown} D={d}"
                   f"{f' Hkv={h // group}' if 'gqa' in cfg['features'] else ''}"
                   f"{' strided' if strided else ''}{'' if guards else ' (no guards)'}",
                   err, torch_err, f"torch {dt}", guards_kept, 1e-5, "the sequences")


def varlen_checks(mode, gqa):
    """(H, lengths, strided, group, guards) of a varlen check: one token,
    empty sequences, below one block, ragged tails, an all-empty batch of
    no tokens, and (check) long and random ones."""
    sizes = [(2, [1], False, 1, True), (3, [77, 0, 128, 1], True, 1, True),
             (2, [200, 0, 300, 5], False, 1, True)]
    if mode == "check":
        rng = random.Random(7)
        sizes += [(4, [1000, 2085, 0, 640], False, 1, True),
                  (8, [rng.randint(0, 2048) for _ in range(8)] + [0], True, 1, True),
                  (2, [4096, 17], False, 1, True), (2, [0, 0], False, 1, False)]
    if gqa:  # groups 4 and 8, Hkv = 1 among them
        sizes += [(8, [77, 0, 300], False, 8, True), (8, [1000, 1, 513], True, 4, True)]
        if mode == "check":
            sizes += [(16, [2048, 1500, 0], False, 4, True), (8, [4096], True, 8, True)]
    return sizes


FP8 = "float8_e4m3fn"


def is_fp8(cfg):
    return str(cfg["dtype"]).endswith(FP8)


def fp8_inputs(b, h, s, d, group=1):
    """Uniform [-1, 1] Q, K, V quantized to e4m3 per head (each head's
    absolute max to 448), as an FP8 attention takes them: q8, k8 (B x H x
    S x D), V transposed (B x H x D x S, its rows padded to 16 bytes) and
    the f32 descales dq (H), dk and dv (H / group); and the values they
    stand for (q8 dq, ..., f32), which the reference takes."""
    hkv = h // group
    raw = [torch.empty(b, n, s, d, device="cuda").uniform_(-1, 1) for n in (h, hkv, hkv)]
    quantized, descales, values = [], [], []
    for x in raw:
        scale = x.abs().amax(dim=(0, 2, 3)).clamp(min=1e-12) / 448.0
        x8 = (x / scale.view(1, -1, 1, 1)).to(torch.float8_e4m3fn)
        quantized.append(x8)
        descales.append(scale.float().contiguous())
        values.append(x8.float() * scale.view(1, -1, 1, 1))
    padded = (s + 15) // 16 * 16
    vt8 = torch.zeros(b, hkv, d, padded, dtype=torch.float8_e4m3fn, device="cuda")[..., :s]
    vt8.copy_(quantized[2].transpose(-1, -2))
    return quantized, vt8, descales, values


def fp8_emulation(q8, k8, vt8, descales, causal):
    """The same FP8 computation in torch: per head, S = q8 k8^T through
    torch._scaled_mm (descales dq, dk; f32), the probabilities exp2 of the
    scaled scores less the row max, quantized to e4m3 for P V through
    torch._scaled_mm (descale dv), over the f32 row sums; bf16 out. Sizes
    padded to a multiple of 128 (cuBLASLt refuses some smaller FP8 ones), the
    padded keys masked."""
    if CPU_REFERENCE:
        return fp8_emulation_cpu(q8, k8, vt8, descales, causal).to(q8.device)
    b, h, s, d = q8.shape
    group = h // k8.shape[1]
    dq, dk, dv = descales
    padded = (s + 127) // 128 * 128  # cuBLASLt refuses some smaller FP8 shapes
    out = torch.empty(b, h, s, d, dtype=torch.bfloat16, device="cuda")
    one = torch.ones((), device="cuda")
    for i in range(b):
        for j in range(h):
            kv = j // group
            qp = torch.zeros(padded, d, dtype=q8.dtype, device="cuda")
            kp = torch.zeros(padded, d, dtype=q8.dtype, device="cuda")
            vtp = torch.zeros(d, padded, dtype=q8.dtype, device="cuda")
            qp[:s], kp[:s], vtp[:, :s] = q8[i, j], k8[i, kv], vt8[i, kv]
            # the scales apart: a view into dq is not aligned as cuBLASLt wants
            sc = torch._scaled_mm(qp, kp.t(), scale_a=dq[j].reshape(()).clone(),
                                  scale_b=dk[kv].reshape(()).clone(), out_dtype=torch.float32)
            sc = sc * (LOG2E / math.sqrt(d))
            cols = torch.arange(padded, device="cuda")
            masked = cols[None, :] >= s
            if causal:
                masked = masked | (cols[None, :] > cols[:, None])
            sc = sc.masked_fill(masked, float("-inf"))
            p = torch.exp2(sc - sc.amax(dim=1, keepdim=True))
            o = torch._scaled_mm(p.to(torch.float8_e4m3fn), vtp.t(), scale_a=one,
                                 scale_b=dv[kv].reshape(()).clone(), out_dtype=torch.float32)
            out[i, j] = (o / p.sum(dim=1, keepdim=True))[:s].to(torch.bfloat16)
    return out


def fp8_emulation_cpu(q8, k8, vt8, descales, causal):
    """fp8_emulation on the CPU (CPU_REFERENCE): the same rounding, with the
    FP8 products as f32 matmuls of the e4m3 values (exact products, f32
    sums), as _scaled_mm forms them."""
    q8, k8, vt8 = (x.cpu().float() for x in (q8, k8, vt8))
    dq, dk, dv = (x.cpu() for x in descales)
    group = q8.shape[1] // k8.shape[1]
    k8, vt8 = (x.repeat_interleave(group, dim=1) for x in (k8, vt8))
    dk, dv = (x.repeat_interleave(group) for x in (dk, dv))
    d, s = q8.shape[-1], q8.shape[-2]
    sc = (q8 @ k8.transpose(-1, -2)) * (dq * dk).view(1, -1, 1, 1) * (LOG2E / math.sqrt(d))
    if causal:
        sc = sc.masked_fill(torch.ones(s, s, dtype=torch.bool).triu(1), float("-inf"))
    p = torch.exp2(sc - sc.amax(dim=-1, keepdim=True))
    o = (p.to(torch.float8_e4m3fn).float() @ vt8.transpose(-1, -2)) * dv.view(1, -1, 1, 1)
    return (o / p.sum(dim=-1, keepdim=True)).to(torch.bfloat16)


def check_fp8(kern, cfg, b, h, s, group=1, watchdog_s=60.0):
    """An FP8 kernel against the f32 reference of the values its inputs
    stand for: its error may be at most twice that of the same FP8
    computation in torch (fp8_emulation), plus 1e-4; O's guard rows as
    check_one."""
    d = cfg["d"]
    torch.manual_seed(b * 1000 + h * 100 + s + group)
    (q8, k8, _), vt8, descales, values = fp8_inputs(b, h, s, d, group)
    flat, o_view, o4, outside = output_buffer(dict(cfg, dtype=torch.bfloat16), b, h, s)
    kern.launcher(q8, k8, vt8, o_view, b, h, s, d, cfg, group, descales=descales)()
    wait(watchdog_s)
    ref = reference(*values, cfg["causal"], torch.float32)
    emu = fp8_emulation(q8, k8, vt8, descales, cfg["causal"]).float()
    err = (o4.float() - ref).abs().max().item()
    emu_err = (emu - ref).abs().max().item()
    guards = bool((flat[outside] == SENTINEL).all())
    return verdict(kern.name, f"B={b} H={h} S={s} D={d}{f' Hkv={h // group}' if group > 1 else ''}",
                   err, emu_err, "torch FP8, on the CPU" if CPU_REFERENCE else
                   "torch FP8 through _scaled_mm", guards, 1e-4, "O")


def bench_fp8(kern, cfg, folder):
    """TFLOP/s of the FP8 kernel against ws's own 16-bit kernel of the same
    head dim and mask (the first ragged one of the folder's manifest with
    neither GQA nor the soft cap: att_f16_d128_ragged,
    att_bf16_d128_causal_ragged...) and SDPA's cuDNN backend in that type,
    on the same values, timed as bench_one times."""
    from torch.nn.attention import SDPBackend
    d, causal = cfg["d"], cfg["causal"]
    rows = manifest(folder)
    f16_name = next(n for n, c in sorted(rows.items()) if c["layout"] == "ragged" and
                    c["d"] == d and c["causal"] == causal and not c["features"] and
                    not is_fp8(c))
    f16 = WsAttention(folder, f16_name)
    f16_cfg = rows[f16_name]
    for b, h, s, dd in SHAPES:
        if dd != d:
            continue
        (q8, k8, _), vt8, descales, values = fp8_inputs(b, h, s, d)
        o = torch.empty(b, h, s, d, dtype=torch.bfloat16, device="cuda")
        qh, kh, vh = (x.to(f16_cfg["dtype"]) for x in values)
        oh = torch.empty_like(qh)
        flops = 4 * b * h * s * s * d / (2 if causal else 1)
        runs = [("ws fp8", kern.launcher(q8, k8, vt8, o, b, h, s, d, cfg, descales=descales)),
                ("ws f16", f16.launcher(qh, kh, vh, oh, b, h, s, d, f16_cfg)),
                ("cudnn f16", sdpa(SDPBackend.CUDNN_ATTENTION, qh, kh, vh, causal))]
        row = time_runs(runs, flops)
        print(f"{kern.name} B={b} H={h} S={s} D={d} {'causal' if causal else 'full'} "
              f"(16-bit: {f16_name}): "
              + ", ".join(f"{k2} {v:.0f}" for k2, v in row.items()) + " TFLOP/s"
              + f"; fp8/ws 16-bit {row['ws fp8'] / row['ws f16']:.3f}x"
              + f", fp8/cudnn 16-bit {row['ws fp8'] / row['cudnn f16']:.3f}x")


def fuzz(folder, name, cfg, shapes, seed, max_elements, watchdog_s):
    """The GPU fuzz's run of one attention kernel (integration/fuzz/run.py):
    `shapes` draws of B, H, S (any S for ragged kernels, a multiple of
    block_m for rows) and packed or separate Q/K/V, each checked as in
    check mode; at most max_elements per tensor."""
    rng = random.Random(seed)
    kern = WsAttention(folder, name)
    ok = True
    for _ in range(shapes):
        if cfg["layout"] == "varlen":  # up to 6 sequences, empty ones among them
            h = rng.randint(1, 4)
            group = rng.choice([g for g in range(1, h + 1) if h % g == 0]) \
                if "gqa" in cfg["features"] else 1
            cap = max(1, max_elements // (cfg["d"] * h * 6))
            lengths = [rng.choice([0, rng.randint(1, min(cap, 10 * cfg["bm"]))])
                       for _ in range(rng.randint(1, 6))]
            ok &= check_varlen(kern, cfg, h, lengths, rng.random() < 0.5, group,
                               watchdog_s=watchdog_s)
            continue
        if is_fp8(cfg):  # the torch emulation runs head by head: fewer, smaller
            h = rng.randint(1, 4)
            group = rng.choice([g for g in range(1, h + 1) if h % g == 0]) \
                if "gqa" in cfg["features"] else 1
            s = rng.randint(1, min(8 * cfg["bm"], max(1, max_elements // (cfg["d"] * h))))
            ok &= check_fp8(kern, cfg, rng.randint(1, 2), h, s, group, watchdog_s)
            continue
        b, h = rng.randint(1, 3), rng.randint(1, 4)
        blocks = rng.randint(1, 10)
        s = blocks * cfg["bm"] if cfg["layout"] == "rows" else rng.randint(1, blocks * cfg["bm"])
        while b * h * s * cfg["d"] > max_elements and b * h > 1:
            b, h = max(1, b // 2), max(1, h // 2)
        s = max(1, min(s, max_elements // cfg["d"]))
        if cfg["layout"] == "rows":
            s = max(cfg["bm"], s - s % cfg["bm"])
        group = 1
        if "gqa" in cfg["features"]:  # Hkv = h / group: 1 to h
            group = rng.choice([g for g in range(1, h + 1) if h % g == 0])
        ok &= check_one(kern, cfg, b, h, s, rng.random() < 0.5, watchdog_s, group)
    return ok


# the varlen benchmark: 16 sequences of lengths uniform in [512, 8192]
VARLEN_SEQUENCES, VARLEN_LENGTHS = 16, (512, 8192)
VARLEN_HEADS = {64: 32, 128: 32, 256: 16}
SHAPES = [(4, 32, 4096, 128), (2, 32, 8192, 128), (1, 32, 16384, 128), (8, 16, 2048, 64),
          (2, 16, 8192, 256)]
# grouped-query heads: B, Hq, S, D, Hq / Hkv (Llama 3 8B's 32 query heads
# on 8 K/V heads)
GQA_SHAPES = [(8, 32, 4096, 128, 4)]
# Triton's forward attention (the form of Triton's fused-attention
# tutorial: TMA descriptors, online softmax, exp2), tried with and
# without its automatic warp specialization: BLOCK_N, stages, WS
TRITON_CONFIGS = [(128, 2, True), (128, 3, True), (64, 3, True), (128, 2, False),
                  (128, 3, False), (64, 3, False)]


def triton_attention_kernel():
    """The Triton kernel, defined on first use (Triton only on the GPU)."""
    import triton
    import triton.language as tl

    @triton.jit
    def attention(q_desc, k_desc, v_desc, o_desc, S, scale, BM: tl.constexpr,
                  BN: tl.constexpr, D: tl.constexpr, CAUSAL: tl.constexpr,
                  STAGES: tl.constexpr, WS: tl.constexpr):
        block = tl.program_id(0)
        base = tl.program_id(1) * S
        q = q_desc.load([base + block * BM, 0])
        m = tl.full([BM], float("-inf"), tl.float32)
        l = tl.zeros([BM], tl.float32)
        acc = tl.zeros([BM, D], tl.float32)
        if CAUSAL:
            end = tl.minimum((block + 1) * BM, S)
        else:
            end = S
        rows = block * BM + tl.arange(0, BM)
        for kv in tl.range(0, end, BN, num_stages=STAGES, warp_specialize=WS):
            k = k_desc.load([base + kv, 0])
            s = tl.dot(q, k.T) * scale
            if CAUSAL:
                s = tl.where((kv + tl.arange(0, BN))[None, :] > rows[:, None], float("-inf"), s)
            mn = tl.maximum(m, tl.max(s, 1))
            p = tl.math.exp2(s - mn[:, None])
            alpha = tl.math.exp2(m - mn)
            l = l * alpha + tl.sum(p, 1)
            v = v_desc.load([base + kv, 0])
            acc = tl.dot(p.to(v.dtype), v, acc * alpha[:, None])
            m = mn
        o_desc.store([base + block * BM, 0], (acc / l[:, None]).to(o_desc.dtype))

    return attention


def triton_runs(q2, k2, v2, o2, b, h, s, d, causal, ref):
    """(label, run) for each Triton configuration that compiles and computes
    `ref` (B*H*S x D) within 2e-2."""
    from triton.tools.tensor_descriptor import TensorDescriptor
    kernel = triton_attention_kernel()
    bm = 128
    runs = []
    for bn, stages, ws in TRITON_CONFIGS:
        qd, od = (TensorDescriptor.from_tensor(x, [bm, d]) for x in (q2, o2))
        kd, vd = (TensorDescriptor.from_tensor(x, [bn, d]) for x in (k2, v2))

        def run(qd=qd, kd=kd, vd=vd, od=od, bn=bn, stages=stages, ws=ws):
            kernel[(s // bm, b * h)](qd, kd, vd, od, s, LOG2E / math.sqrt(d), bm, bn, d,
                                     causal, stages, ws, num_warps=8)
        label = f"triton BN={bn} s{stages}{' ws' if ws else ''}"
        try:
            o2.zero_()
            run()
            torch.cuda.synchronize()
        except Exception as e:  # a configuration Triton cannot compile
            print(f"  {label}: {type(e).__name__}: {str(e).splitlines()[0][:80] if str(e) else ''}")
            continue
        if not torch.allclose(o2.float(), ref, atol=2e-2):
            print(f"  {label}: wrong result, skipped")
            continue
        runs.append((label, run))
    return runs


def sdpa(backend, q, k, v, causal):
    """SDPA with one backend forced; K and V with fewer heads than Q take
    enable_gqa."""
    from torch.nn.attention import sdpa_kernel
    gqa = k.shape[1] != q.shape[1]

    def run():
        with sdpa_kernel(backend):
            return torch.nn.functional.scaled_dot_product_attention(
                q, k, v, is_causal=causal, **({"enable_gqa": True} if gqa else {}))
    return run


ROUNDS = 3


def time_runs(runs, flops):
    """TFLOP/s of each (label, run) doing `flops`, with
    triton.testing.do_bench (L2 flushed): ROUNDS rounds, each timing every
    run once, and the median of each, since the GPU's clock drifts over a
    bench and this way it drifts for all. A run that raises (a backend that
    does not take the shape) gets NaN."""
    import triton
    samples = {label: [] for label, _ in runs}
    for _ in range(ROUNDS):
        for label, fn in runs:
            try:
                ms = triton.testing.do_bench(fn, warmup=25, rep=150)
                samples[label].append(flops / ms / 1e9)
            except Exception as e:  # a backend that does not take the shape
                samples[label].append(float("nan"))
                print(f"  {label}: {type(e).__name__}: {str(e)[:80]}")
    return {label: sorted(x)[len(x) // 2] for label, x in samples.items()}


def bench_one(kern, cfg, b, h, s, triton_too, group=1):
    """TFLOP/s of ws, SDPA's FlashAttention-2 and cuDNN backends (and Triton)
    on the same uniform [-1, 1] inputs, with triton.testing.do_bench (L2
    flushed): the median of ROUNDS interleaved rounds. A softcap kernel
    caps at BENCH_CAP; SDPA's backends have no cap and do the rest of the
    same work."""
    from torch.nn.attention import SDPBackend
    d, causal = cfg["d"], cfg["causal"]
    (q4, k4, v4), views = attention_inputs(cfg, b, h, s, False, group)
    q2 = q4.reshape(b * h * s, d)
    o2 = torch.empty_like(q2)
    o_view = o2.view(b, h, s, d) if cfg["layout"] == "ragged" else o2
    flops = 4 * b * h * s * s * d / (2 if causal else 1)
    runs = [("ws", kern.launcher(*views, o_view, b, h, s, d, cfg, group, BENCH_CAP)),
            ("fa2", sdpa(SDPBackend.FLASH_ATTENTION, q4, k4, v4, causal)),
            ("cudnn", sdpa(SDPBackend.CUDNN_ATTENTION, q4, k4, v4, causal))]
    if triton_too and group == 1 and not cfg["features"]:
        k2, v2 = (x.reshape(b * h * s, d) for x in (k4, v4))
        ref = sdpa(SDPBackend.CUDNN_ATTENTION, q4, k4, v4, causal)().reshape(-1, d).float()
        runs += triton_runs(q2, k2, v2, torch.empty_like(o2), b, h, s, d, causal, ref)
    row = time_runs(runs, flops)
    best_triton = max((v, k) for k, v in row.items() if k.startswith("triton")) if triton_too \
        and any(k.startswith("triton") for k in row) else (float("nan"), "none")
    print(f"{kern.name} B={b} H={h}{f' Hkv={h // group}' if group > 1 else ''} S={s} D={d} "
          f"{'causal' if causal else 'full'}"
          f"{f' softcap {BENCH_CAP:g}' if 'softcap' in cfg['features'] else ''}: "
          + ", ".join(f"{k} {v:.0f}" for k, v in row.items() if not k.startswith("triton"))
          + (f", {best_triton[1]} {best_triton[0]:.0f}" if triton_too else "")
          + f" TFLOP/s; ws/cudnn {row['ws'] / row['cudnn']:.3f}x, ws/fa2 {row['ws'] / row['fa2']:.3f}x"
          + (f", ws/triton {row['ws'] / best_triton[0]:.3f}x" if triton_too else ""))
    return row


def varlen_bench_batch(cfg, rng_seed=0):
    """VARLEN_SEQUENCES sequences of lengths uniform in VARLEN_LENGTHS (the
    same draw for every kernel), VARLEN_HEADS[d] query heads, packed."""
    rng = random.Random(rng_seed)
    lengths = [rng.randint(*VARLEN_LENGTHS) for _ in range(VARLEN_SEQUENCES)]
    group = 4 if "gqa" in cfg["features"] else 1
    q, k, v, offsets, _ = varlen_batch(cfg, VARLEN_HEADS[cfg["d"]], lengths, False, group,
                                       guards=False)
    return q, k, v, offsets, lengths, group


def sdpa_varlen(backend, q, k, v, offsets, causal):
    """SDPA with one backend forced on the same packed batch, both ways a
    user has: as nested (jagged) tensors, where the backend takes them, and
    on the batch padded to its longest sequence. K and V with fewer heads
    are repeated to the query heads (nested tensors take no enable_gqa).
    Returns [(how, run)]."""
    from torch.nn.attention import sdpa_kernel
    group = q.shape[1] // k.shape[1]
    k, v = (x.repeat_interleave(group, dim=1) for x in (k, v))
    cu = torch.tensor(offsets, dtype=torch.int64, device="cuda")
    nested = [torch.nested.nested_tensor_from_jagged(x, offsets=cu).transpose(1, 2)
              for x in (q, k, v)]
    longest = max(b - a for a, b in zip(offsets, offsets[1:]))
    padded = []
    for x in (q, k, v):
        p = torch.zeros(len(offsets) - 1, longest, x.shape[1], x.shape[2], dtype=x.dtype,
                        device="cuda")
        for i, (a, b) in enumerate(zip(offsets, offsets[1:])):
            p[i, :b - a] = x[a:b]
        padded.append(p.transpose(1, 2))

    def runner(inputs):
        def run():
            with sdpa_kernel(backend):
                return torch.nn.functional.scaled_dot_product_attention(*inputs, is_causal=causal)
        return run
    runs = []
    for how, inputs in (("nested", nested), ("padded", padded)):
        try:
            runner(inputs)()
            torch.cuda.synchronize()
            runs.append((how, runner(inputs)))
        except Exception as e:  # the backend does not take this form
            print(f"  {backend.name} {how}: {type(e).__name__}: {str(e).splitlines()[0][:80]}")
    return runs


def bench_varlen(kern, cfg, profile=False):
    """TFLOP/s of ws and SDPA's FlashAttention-2 and cuDNN backends on the
    varlen batch (varlen_bench_batch), nested and padded (sdpa_varlen),
    counting each sequence's own work (4 H L^2 D, half of it causal), timed
    as bench_one times; the ratios take each backend's faster form."""
    from torch.nn.attention import SDPBackend
    d, causal = cfg["d"], cfg["causal"]
    q, k, v, offsets, lengths, group = varlen_bench_batch(cfg)
    h = q.shape[1]
    o = torch.empty_like(q)
    cu = torch.tensor(offsets, dtype=torch.int32, device="cuda")
    ws_run = kern.launcher(q, k, v, o, len(lengths), h, max(lengths), d, cfg, group, BENCH_CAP,
                           cu=cu)
    if profile:
        ws_run()
        wait(60.0)
        return None
    flops = sum(4 * h * n * n * d for n in lengths) / (2 if causal else 1)
    runs = [("ws", ws_run)]
    for label, backend in (("fa2", SDPBackend.FLASH_ATTENTION),
                           ("cudnn", SDPBackend.CUDNN_ATTENTION)):
        runs += [(f"{label} {how}", run) for how, run in
                 sdpa_varlen(backend, q, k, v, offsets, causal)]
    row = time_runs(runs, flops)
    # each backend's faster form is the one a user would take
    fa2, cudnn = (max(v for k2, v in row.items() if k2.startswith(p)) for p in ("fa2", "cudnn"))
    print(f"{kern.name} varlen {len(lengths)} sequences of {min(lengths)}..{max(lengths)} "
          f"H={h}{f' Hkv={h // group}' if group > 1 else ''} D={d} "
          f"{'causal' if causal else 'full'}"
          f"{f' softcap {BENCH_CAP:g}' if 'softcap' in cfg['features'] else ''}: "
          + ", ".join(f"{k2} {v:.0f}" for k2, v in row.items())
          + f" TFLOP/s; ws/cudnn {row['ws'] / cudnn:.3f}x, ws/fa2 {row['ws'] / fa2:.3f}x")
    return row


def main():
    global CPU_REFERENCE
    folder, mode = sys.argv[1], sys.argv[2]
    CPU_REFERENCE = mode == "small"
    cfgs = manifest(folder)
    names = [a for a in sys.argv[3:] if not a.startswith("--")] or list(cfgs)
    torch.zeros(1, device="cuda")  # torch's context current before the modules load
    ok = True
    for name in names:
        kern = WsAttention(folder, name)
        cfg = cfgs[name]
        if mode in ("check", "small") and is_fp8(cfg):
            sizes = [(1, 1, 128, 1), (1, 2, 1, 1), (2, 3, 77, 1), (1, 2, 256, 1)]
            if mode == "check":
                sizes += [(2, 4, 1000, 1), (1, 8, 2048, 1), (1, 2, 4096, 1)]
            if "gqa" in cfg["features"]:
                sizes += [(1, 8, 200, 8), (2, 8, 1000, 4)]
            for b, h, s, group in sizes:
                ok &= check_fp8(kern, cfg, b, h, s, group)
        elif is_fp8(cfg) and mode == "bench":
            bench_fp8(kern, cfg, folder)
        elif is_fp8(cfg) and mode == "profile":
            b, h, s, d = next(x for x in SHAPES if x[3] == cfg["d"])
            (q8, k8, _), vt8, descales, _ = fp8_inputs(b, h, s, d)
            o = torch.empty(b, h, s, d, dtype=torch.bfloat16, device="cuda")
            kern.launcher(q8, k8, vt8, o, b, h, s, d, cfg, descales=descales)()
            wait(60.0)
        elif mode in ("check", "small") and cfg["layout"] == "varlen":
            for h, lengths, strided, group, guards in varlen_checks(mode, "gqa" in cfg["features"]):
                ok &= check_varlen(kern, cfg, h, lengths, strided, group, guards)
        elif mode in ("check", "small"):
            ragged = cfg["layout"] == "ragged"
            sizes = [(1, 1, 128, False), (1, 2, 256, False), (2, 3, 384, True)]
            if ragged:
                sizes += [(1, 1, 1, False), (2, 3, 77, True), (1, 2, 200, False)]
            if mode == "check":
                sizes += [(1, 4, 1024, False), (2, 8, 2048, True), (1, 2, 4096, False)]
                if ragged:
                    sizes += [(3, 5, 1000, True), (1, 3, 2085, False)]
            sizes = [size + (1,) for size in sizes]
            if "gqa" in cfg["features"]:  # groups 4 and 8, Hkv = 1 among them
                sizes += [(1, 8, 1, False, 8), (2, 8, 77, True, 4), (1, 8, 256, True, 8)]
                if mode == "check":
                    sizes += [(2, 8, 1000, False, 4), (1, 8, 2048, True, 8),
                              (2, 16, 1500, True, 4), (1, 4, 4096, False, 4)]
            for b, h, s, strided, group in sizes:
                ok &= check_one(kern, cfg, b, h, s, strided, group=group)
            if not ragged:
                ok &= check_refused(kern, cfg)
        elif cfg["layout"] == "varlen":
            bench_varlen(kern, cfg, profile=mode == "profile")
        elif mode == "profile":
            b, h, s, d = next(x for x in SHAPES if x[3] == cfg["d"])
            _, views = attention_inputs(cfg, b, h, s, False)
            o_view = output_buffer(cfg, b, h, s)[1]
            kern.launcher(*views, o_view, b, h, s, d, cfg)()
            wait(60.0)
        elif "gqa" in cfg["features"]:
            for b, h, s, d, group in GQA_SHAPES:
                if d == cfg["d"]:
                    bench_one(kern, cfg, b, h, s, False, group)
        else:
            for b, h, s, d in SHAPES:
                if d == cfg["d"]:
                    bench_one(kern, cfg, b, h, s, "--triton" in sys.argv)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
