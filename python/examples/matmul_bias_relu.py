"""The persistent matmul with a bias and ReLU from Python:
C = relu(A @ B^T + bias), compiled from integration/matmul_persistent.mlir,
launched on its resident grid (the default for a persistent kernel),
checked against torch in fp32 and timed against cuBLAS (torch.matmul) and
torch's fused epilogue, one process, triton.testing.do_bench."""

import os

import torch
import ws

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (256, 8192, 8192)]


def main():
    os.chdir(ROOT)
    kernel = ws.compile("integration/matmul_persistent.mlir", chip="sm_90a").matmul_persistent
    from triton.testing import do_bench
    ok = True
    for m, n, k in SHAPES:
        a = torch.rand(m, k, device="cuda", dtype=torch.float16) - 0.5
        b = torch.rand(n, k, device="cuda", dtype=torch.float16) - 0.5
        bias = torch.rand(1, n, device="cuda", dtype=torch.float16) - 0.5
        c = torch.empty(m, n, device="cuda", dtype=torch.float16)
        kernel(a, b, c, bias, m, n, k)  # the resident grid
        torch.cuda.synchronize()
        want = torch.relu(a.float() @ b.float().t() + bias.float())
        err = (c.float() - want).abs().max().item()
        good = err <= 2e-2 * max(1.0, want.abs().max().item())
        ok &= good
        t_ws = do_bench(lambda: kernel(a, b, c, bias, m, n, k))
        t_blas = do_bench(lambda: torch.matmul(a, b.t()))
        t_fused = do_bench(lambda: torch.relu(torch.addmm(bias, a, b.t())))
        tflops = lambda ms: 2 * m * n * k / ms / 1e9
        print("%dx%dx%d: max error %.3g (%s); ws %.0f TFLOP/s, cuBLAS matmul %.0f (%.2fx), "
              "torch addmm+relu %.0f (%.2fx)" % (m, n, k, err, "ok" if good else "WRONG",
                                                 tflops(t_ws), tflops(t_blas), t_blas / t_ws,
                                                 tflops(t_fused), t_fused / t_ws))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
