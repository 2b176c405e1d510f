# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The persistent matmul with a bias and ReLU from Python, autotuned:
C = relu(A @ B^T + bias) from the family matmul_bias_relu.mlir (tile shape
fields), tuned with ws.autotune over three tile shapes and the planner's
own choices of ring depth and overlap for each; every config is compiled
and proved on its own, and the ones ws refuses are listed with the reason.
Each shape's winner is checked against torch in fp32 and timed against
cuBLAS (torch.matmul) and torch's fused epilogue (addmm + relu): one
process, the same uniform inputs, triton.testing.do_bench (L2 flushed).

    python3 python/examples/matmul_bias_relu.py            # tune, check, time
    python3 python/examples/matmul_bias_relu.py --compile  # only compile (no GPU)
"""

import os
import sys

import ws

HERE = os.path.dirname(os.path.abspath(__file__))
SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (256, 8192, 8192)]
TILES = [(128, 256, 64), (128, 128, 64), (256, 128, 64)]


def tiles(config, a, b, c, bias, m, n, k):
    """The C tiles the kernel's tile loop runs: the autotuner then launches
    it on the fewest blocks that run them in as many rounds (its balanced
    grid) rather than one block per SM."""
    return -(-m // config["BM"]) * -(-n // config["BN"])


def family():
    configs = [dict(BM=bm, BN=bn, BK=bk, **knobs) for bm, bn, bk in TILES
               for knobs in ws.planner_configs()]
    return ws.autotune(ws.Template(os.path.join(HERE, "matmul_bias_relu.mlir"),
                                   defaults={"DTYPE": "f16"}), configs, tiles=tiles,
                       chip="sm_90a")


def main(argv):
    tuned = family()
    candidates = tuned.candidates()
    print("%d configs: %d kernels, %d refused, %d the same code as another" % (
        len(candidates), sum(1 for c in candidates if c.kernel),
        sum(1 for c in candidates if c.skipped and "error:" in c.skipped),
        sum(1 for c in candidates if c.skipped and c.skipped.startswith("the same code"))))
    refused = [c for c in candidates if c.skipped and "error:" in c.skipped]
    if refused:
        print("for instance %s: %s" % (refused[0].name, refused[0].skipped[:200]))
    if argv == ["--compile"]:
        return 0
    import torch
    from triton.testing import do_bench
    ok = True
    for m, n, k in SHAPES:
        a = torch.empty(m, k, device="cuda", dtype=torch.float16).uniform_(-1, 1)
        b = torch.empty(n, k, device="cuda", dtype=torch.float16).uniform_(-1, 1)
        bias = torch.empty(1, n, device="cuda", dtype=torch.float16).uniform_(-1, 1)
        c = torch.empty(m, n, device="cuda", dtype=torch.float16)
        best = tuned.choose(a, b, c, bias, m, n, k)
        tuned(a, b, c, bias, m, n, k)
        torch.cuda.synchronize()
        want = torch.relu(a.float() @ b.float().t() + bias.float())
        err = (c.float() - want).abs().max().item()
        good = err <= 2e-2 * max(1.0, want.abs().max().item())
        ok &= good
        t_ws = do_bench(lambda: tuned(a, b, c, bias, m, n, k))
        t_blas = do_bench(lambda: torch.matmul(a, b.t()))
        t_fused = do_bench(lambda: torch.relu(torch.addmm(bias, a, b.t())))
        tflops = lambda ms: 2 * m * n * k / ms / 1e9
        print("%dx%dx%d: winner %s; max error %.3g (%s); ws %.0f TFLOP/s, cuBLAS matmul %.0f "
              "(%.2fx), torch addmm+relu %.0f (%.2fx)" % (
                  m, n, k, best.name, err, "ok" if good else "WRONG", tflops(t_ws),
                  tflops(t_blas), t_blas / t_ws, tflops(t_fused), t_fused / t_ws))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
