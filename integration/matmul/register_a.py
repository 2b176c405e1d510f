#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Matmuls whose A is a tile the K loop computes from its ws.load: negated,
scaled by a constant, or an FP8 tile (e4m3, e5m2) widened to f16/bf16: wgmma
takes A from registers. Two steps:

  register_a.py compile WS_OPT DIR
                            the kernels as DIR/NAME.mlir and DIR/manifest,
                            each compiled to PTX and a launcher; checks that
                            the PTX takes A from registers (wgmma's register
                            form), converts FP8 with cvt, and waits for the
                            previous step's wgmma before it rewrites A
  register_a.py run DIR     on the GPU: each kernel against torch at ragged
                            and large sizes, K = 0 (torch.empty(M, 0)), C
                            padded with guard rows and columns that must
                            stay untouched; prints PASS/FAIL per run and
                            "register A: N passed, N failed"

Inputs are multiples of 1/8 in [-1, 1], exact in every type used, so the
f32 sums are exact and C differs from the reference by its final rounding."""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, ".."))  # suite_kernels.py
sys.path.insert(0, here)  # the matmul suite's variants.py, before the elementwise one
import variants  # noqa: E402
from kernel_set import main as kernel_main  # noqa: E402

# name, BM, BN, BK, warps, A's loaded type, what the loop does to it, the
# dot's type, schedule
KERNELS = [
    ("ra_neg_128x256x64_w8", 128, 256, 64, 8, "f16", "neg", "f16", "tile"),
    ("ra_half_128x128x64_w8_bf16", 128, 128, 64, 8, "bf16", "half", "bf16", "tile"),
    ("ra_e4m3_128x256x64_w8", 128, 256, 64, 8, "f8E4M3FN", "ext", "f16", "tile"),
    ("ra_e5m2_128x128x64_w8_bf16", 128, 128, 64, 8, "f8E5M2", "ext", "bf16", "tile"),
    ("ra_e4m3_64x128x64_w4", 64, 128, 64, 4, "f8E4M3FN", "ext", "f16", "tile"),
    ("pra_e4m3_128x128x64_w8", 128, 128, 64, 8, "f8E4M3FN", "ext", "f16", "persistent"),
]


def render(name, bm, bn, bk, warps, a_type, op, t, sched):
    """The matmul suite's kernel (variants.render), A loaded as a_type and
    passed through `op` in the loop before the ws.dot."""
    text = variants.render(name, bm, bn, bk, warps, t, "none", "nk",
                           persistent=sched == "persistent")
    a_tile = f"tensor<{bm}x{bk}x{a_type}>"
    text = text.replace(f"%a: !ws.tensor_desc<tensor<{bm}x{bk}x{t}>>",
                        f"%a: !ws.tensor_desc<{a_tile}>")
    load = (f'        %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<{bm}x{bk}x{t}>>, '
            f'i32, i32) -> tensor<{bm}x{bk}x{t}>\n')
    assert load in text
    tile = f"tensor<{bm}x{bk}x{t}>"
    math = {
        "neg": f"        %ta = arith.negf %t0 : {tile}\n",
        "half": (f"        %h = arith.constant dense<0.5> : {tile}\n"
                 f"        %ta = arith.mulf %t0, %h : {tile}\n"),
        "ext": f"        %ta = arith.extf %t0 : {a_tile} to {tile}\n",
    }[op]
    text = text.replace(load, f'        %t0 = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<{a_tile}>, '
                              f'i32, i32) -> {a_tile}\n' + math)
    return text


def ptx_wants(k):
    """The register form lists A's registers as a second {...} group; the
    step waits for the previous wgmma before rewriting them; FP8 widens
    with cvt."""
    wants = ["}, {%r", "wgmma.wait_group.sync.aligned \t0"]
    if k[5].startswith("f8"):
        wants.append("cvt.rn.f16x2.%sx2" % ("e4m3" if k[5] == "f8E4M3FN" else "e5m2"))
    return wants


def run(folder):
    import torch
    from suite_kernels import matmul_launcher, suite_kernel

    torch.manual_seed(0)
    torch.zeros(1, device="cuda")  # torch's context current: the modules load into it
    dtypes = {"f16": torch.float16, "bf16": torch.bfloat16,
              "f8E4M3FN": torch.float8_e4m3fn, "f8E5M2": torch.float8_e5m2}
    shapes = [(128, 256, 64), (300, 500, 200), (1000, 700, 1000), (256, 512, 0),
              (2048, 2048, 2048), (64, 64, 16)]
    passed = failed = 0
    for name, bm, bn, bk, warps, a_type, op, t, _ in (
            line.split() for line in open(os.path.join(folder, "manifest"))):
        kernel = suite_kernel(folder, name)
        for m, n, k in shapes:
            def operand(rows, dtype, cols):
                # rows of a multiple of 16 bytes, uniform multiples of 1/8
                pitch = max(16, (cols + 15) // 16 * 16)
                full = (torch.randint(-8, 9, (rows, pitch), device="cuda") / 8).to(dtype)
                return full[:, :cols]
            a = operand(m, dtypes[a_type], k) if k else torch.empty(m, 0, device="cuda",
                                                                     dtype=dtypes[a_type])
            b = operand(n, dtypes[t], k) if k else torch.empty(n, 0, device="cuda",
                                                                dtype=dtypes[t])
            guard, ldc = 2, (n + 7) // 8 * 8 + 8
            sentinel = torch.tensor(-12345.0, dtype=dtypes[t]).item()
            cbuf = torch.full((m + 2 * guard, ldc), sentinel, device="cuda", dtype=dtypes[t])
            c = cbuf[guard:guard + m, :n]
            try:
                matmul_launcher(kernel, bm, bn, [a, b, c], m, n, k)()
            except ValueError as e:
                print(f"FAIL {name} {m}x{n}x{k}: {e}")
                failed += 1
                continue
            torch.cuda.synchronize()
            af = a.float()
            af = {"neg": -af, "half": af * 0.5, "ext": af}[op]
            ref = (af @ b.float().T).to(dtypes[t]).float()
            got = c.float()
            bad = int(((got - ref).abs() > 1e-2 + 1e-2 * ref.abs()).sum())
            mask = torch.ones_like(cbuf, dtype=torch.bool)
            mask[guard:guard + m, :n] = False
            outside = int((cbuf[mask].float() != sentinel).sum())
            ok = bad == 0 and outside == 0
            print(f"{'PASS' if ok else 'FAIL'} {name} {m}x{n}x{k}: {bad} of {m * n} elements "
                  f"wrong, {outside} elements outside C changed")
            passed += ok
            failed += not ok
    print(f"register A: {passed} passed, {failed} failed")
    return failed == 0


if __name__ == "__main__":
    kernel_main(__doc__, KERNELS, render, ptx_wants, "register-A matmuls", {"run": run})
