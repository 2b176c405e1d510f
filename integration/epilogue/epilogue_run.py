# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Matmuls whose epilogue stores several tiles, checked on a GPU.

  epilogue_run.py compile DIR   (a machine with MLIR) DIR/NAME.wsmod of each kernel
  epilogue_run.py run DIR [small] (a GPU) each kernel at ragged and whole shapes
                                against torch in f32, with guard bytes around
                                every output

two_stores.mlir stores C = A B^T and -C (two 128x256 tiles over the K
loop's rings); three_stores.mlir carries two accumulators, A B^T and A E^T,
and stores both and the second's negation (three 128x128 tiles);
f32_store.mlir stores its f32 accumulator as it is; swiglu_persistent.mlir
is a persistent kernel whose K loop carries two accumulators sharing A:
relu(A B^T + bias) * (A U^T), on the resident grid. attention_lse.mlir is
flash attention storing O and each query row's log-sum-exp (a row vector
from the epilogue), checked against torch at ragged sequence lengths."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from gpu_check import PACKAGE, command_line, compile_kernels, guarded, intact, torch_on_gpu  # noqa: E402

KERNELS = {"two_stores": (128, 256), "three_stores": (128, 128), "f32_store": (128, 128),
           "swiglu_persistent": (128, 128)}
SHAPES = [(1000, 1000, 512), (256, 512, 64), (129, 257, 1000), (2048, 2048, 2048), (64, 64, 0)]
ATTENTION = "attention_lse"
SEQUENCES = [128, 1000, 2048, 64, 4092]  # S: a multiple of 4 (lse's rows on 16 bytes)
HEAD_DIM = 128


def compile_all(out):
    compile_kernels(HERE, list(KERNELS) + [ATTENTION], out)


def run_all(folder):
    torch = torch_on_gpu()
    if torch is None:
        return 0
    sys.path.insert(0, PACKAGE)
    import ws
    failed = 0
    for name, (bm, bn) in KERNELS.items():
        kernel = ws.load(os.path.join(folder, name + ".wsmod")).kernels[name]
        for m, n, k in SHAPES:
            torch.manual_seed(m * 7 + n * 3 + k)
            a = torch.rand(m, k, device="cuda", dtype=torch.float16) * 2 - 1
            b = torch.rand(n, k, device="cuda", dtype=torch.float16) * 2 - 1
            e = torch.rand(n, k, device="cuda", dtype=torch.float16) * 2 - 1
            count = {"two_stores": 2, "three_stores": 3}.get(name, 1)
            dtype = torch.float32 if name == "f32_store" else torch.float16
            outs = [guarded(torch, m, n, dtype) for _ in range(count)]
            views = [v for _, v in outs]
            grid = (-(-m // bm), -(-n // bn))
            ab32 = a.float() @ b.float().T
            ab = ab32.half()
            if name == "swiglu_persistent":
                bias = torch.rand(1, n, device="cuda", dtype=torch.float16) * 2 - 1
                kernel(a, b, *views, bias, e, m, n, k)  # persistent: its resident grid
                gate = torch.relu(ab32 + bias.float())
                want = [(gate * (a.float() @ e.float().T)).half()]
            elif name == "f32_store":
                kernel[grid](a, b, *views, k)
                want = [ab32]
            elif name == "two_stores":
                kernel[grid](a, b, *views, k)
                want = [ab, -ab]
            else:
                kernel[grid](a, b, e, *views, k)
                ae = (a.float() @ e.float().T).half()
                want = [ab, ae, -ae]
            torch.cuda.synchronize()
            errs = [(v.float() - w.float()).abs().max().item() if v.numel() else 0.0
                    for v, w in zip(views, want)]
            guards = all(intact(torch, big, m, n) for big, _ in outs)
            tol = (2e-2 if dtype == torch.float16 else 1e-3) * max(1.0, k ** 0.5 / 8)
            scale = [w.float().abs().max().item() if w.numel() else 0.0 for w in want]
            ok = guards and all(x <= tol + 1e-3 * top for x, top in zip(errs, scale))
            failed += not ok
            print("%-13s %5dx%5dx%5d  max err %s  guards %s  %s" % (
                name, m, n, k, " ".join("%.3g" % x for x in errs),
                "intact" if guards else "BROKEN", "ok" if ok else "FAILED"))
    failed += check_attention_lse(torch, ws, folder)
    total = len(KERNELS) * len(SHAPES) + len(SEQUENCES)
    print("epilogue: %d passed, %d failed" % (total - failed, failed))
    return 1 if failed else 0


def check_attention_lse(torch, ws, folder):
    """O and lse of attention_lse at each sequence length, against torch in
    f32 (lse in the log2 domain of the scaled scores); returns the failures."""
    kernel = ws.load(os.path.join(folder, ATTENTION + ".wsmod")).kernels[ATTENTION]
    failed = 0
    for s in SEQUENCES:
        torch.manual_seed(s)
        q, k, v = (torch.rand(1, 1, s, HEAD_DIM, device="cuda", dtype=torch.float16) * 2 - 1
                   for _ in range(3))
        big_o, o = guarded(torch, s, HEAD_DIM, torch.float16)
        big_l, lse = guarded(torch, 1, s, torch.float32)
        scale = 1.4426950408889634 / HEAD_DIM ** 0.5
        kernel[(-(-s // 128), 1, 1)](q, k, v, o[None, None], lse[None, None], s, scale)
        torch.cuda.synchronize()
        scores = (q.float() @ k.float().transpose(-1, -2))[0, 0] / HEAD_DIM ** 0.5
        want_o = torch.softmax(scores, -1) @ v.float()[0, 0]
        want_lse = torch.logsumexp(scores, -1) * 1.4426950408889634
        err_o = (o.float() - want_o).abs().max().item()
        err_l = (lse[0].float() - want_lse).abs().max().item()
        guards = intact(torch, big_o, s, HEAD_DIM) and intact(torch, big_l, 1, s)
        ok = guards and err_o <= 2e-2 and err_l <= 1e-3 * max(1.0, want_lse.abs().max().item())
        failed += not ok
        print("%-13s S = %5d        max err O %.3g lse %.3g  guards %s  %s" % (
            ATTENTION, s, err_o, err_l, "intact" if guards else "BROKEN",
            "ok" if ok else "FAILED"))
    return failed


def shrink():
    global SHAPES, SEQUENCES
    SHAPES, SEQUENCES = SHAPES[:2], SEQUENCES[:2]


if __name__ == "__main__":
    sys.exit(command_line(__doc__, compile_all, run_all, shrink))
