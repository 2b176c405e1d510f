# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Kernels of many tiles, checked on a GPU: the combine of a 32-way split
(33 rings a step), a sum written to 12 outputs (12 stores a step) and the
combine of split-KV decode attention (row vectors without a ws.reduce).

  combine_run.py compile DIR   (a machine with MLIR) DIR/NAME.wsmod of each
  combine_run.py run DIR [small] (a GPU) out = the sum of the 32 m x n parts
                               stacked in one (32 m) x n tensor, at ragged
                               and whole shapes against torch, with guard
                               bytes around the output

combine_32.mlir loads the 32 parts' tiles of a step (32 rings from the load
warp to the compute warps), adds them and stores the sum (a 33rd ring).
fanout_12.mlir stores a + b into 12 outputs, whose stores share one
function for the ragged-edge element path (n not a multiple of 4 takes it:
a partial 16-byte granule at each row's end). splitkv_combine_4.mlir
weighs 4 partial attention outputs by the softmax of their log-sum-exps
over the splits, on a grid that strides over 16-row blocks."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from gpu_check import PACKAGE, command_line, compile_kernels, guarded, intact, torch_on_gpu  # noqa: E402

SPLITS, BLOCK_ROWS = 32, 8
SHAPES = [(1000, 1000), (129, 260), (8, 64), (2048, 4096), (3, 4)]
FANOUT, OUTPUTS = "fanout_12", 12
FANOUT_SHAPES = [(1000, 1001), (129, 259), (32, 64), (3, 3), (2048, 4096)]
SPLIT_KV, KV_SPLITS, HEAD_DIM = "splitkv_combine_4", 4, 64
SPLIT_KV_ROWS = [1000, 64, 4096, 128, 12]  # M: a multiple of 4 (lse's rows on 16 bytes)


def compile_all(out):
    compile_kernels(HERE, ["combine_32", FANOUT, SPLIT_KV], out)


def run_all(folder):
    torch = torch_on_gpu()
    if torch is None:
        return 0
    sys.path.insert(0, PACKAGE)
    import ws
    kernel = ws.load(os.path.join(folder, "combine_32.wsmod")).kernels["combine_32"]
    failed = 0
    for m, n in SHAPES:
        torch.manual_seed(m * 7 + n)
        parts = torch.rand(SPLITS * m, n, device="cuda", dtype=torch.float32) * 2 - 1
        big, out = guarded(torch, m, n, torch.float32)
        kernel[(-(-m // BLOCK_ROWS),)](parts, out, m, n)
        torch.cuda.synchronize()
        want = parts.view(SPLITS, m, n).sum(0)
        err = (out - want).abs().max().item()
        failed += verdict("combine_32 %5dx%5d  max err %.3g" % (m, n, err),
                          intact(torch, big, m, n), err <= 1e-4)
    failed += check_fanout(torch, ws, folder)
    failed += check_split_kv(torch, ws, folder)
    total = len(SHAPES) + len(FANOUT_SHAPES) + len(SPLIT_KV_ROWS)
    print("combine: %d passed, %d failed" % (total - failed, failed))
    return 1 if failed else 0


def verdict(what, guards, right):
    """Prints one check's line; 1 when it failed (wrong or a guard byte
    changed), else 0."""
    ok = guards and right
    print("%s  guards %s  %s" % (what, "intact" if guards else "BROKEN", "ok" if ok else "FAILED"))
    return 0 if ok else 1


def check_fanout(torch, ws, folder):
    """fanout_12 at each shape: every output a + b exactly, guards intact;
    returns the failures."""
    kernel = ws.load(os.path.join(folder, FANOUT + ".wsmod")).kernels[FANOUT]
    failed = 0
    for m, n in FANOUT_SHAPES:
        torch.manual_seed(m * 5 + n)
        a = torch.rand(m, n, device="cuda", dtype=torch.float32) * 2 - 1
        b = torch.rand(m, n, device="cuda", dtype=torch.float32) * 2 - 1
        outs = [guarded(torch, m, n, torch.float32) for _ in range(OUTPUTS)]
        ins = [guarded(torch, m, n, torch.float32) for _ in range(2)]
        ins[0][1].copy_(a)
        ins[1][1].copy_(b)
        kernel[(-(-m // 32),)](ins[0][1], ins[1][1], *[v for _, v in outs], n)
        torch.cuda.synchronize()
        exact = all(torch.equal(v, a + b) for _, v in outs)
        failed += verdict("fanout_12  %5dx%5d  %s" % (m, n, "exact" if exact else "WRONG"),
                          all(intact(torch, big, m, n) for big, _ in outs), exact)
    return failed


def check_split_kv(torch, ws, folder):
    """splitkv_combine_4 at each row count against torch in f32 (the
    softmax of lse over the splits weighing O_p), guards intact; returns
    the failures."""
    kernel = ws.load(os.path.join(folder, SPLIT_KV + ".wsmod")).kernels[SPLIT_KV]
    failed = 0
    for m in SPLIT_KV_ROWS:
        torch.manual_seed(m)
        opart = torch.rand(KV_SPLITS, m, HEAD_DIM, device="cuda", dtype=torch.float32) * 2 - 1
        lse = torch.rand(KV_SPLITS, m, device="cuda", dtype=torch.float32) * 20 - 10
        big, out = guarded(torch, m, HEAD_DIM, torch.float32)
        kernel[(min(-(-m // 16), 132),)](opart, lse, out, m)
        torch.cuda.synchronize()
        want = (torch.softmax(lse, 0)[:, :, None] * opart).sum(0)
        err = (out - want).abs().max().item()
        failed += verdict("%s %5d rows  max err %.3g" % (SPLIT_KV, m, err),
                          intact(torch, big, m, HEAD_DIM), err <= 1e-5)
    return failed


def shrink():
    global SHAPES, FANOUT_SHAPES, SPLIT_KV_ROWS
    SHAPES, FANOUT_SHAPES, SPLIT_KV_ROWS = SHAPES[:2], FANOUT_SHAPES[:2], SPLIT_KV_ROWS[:2]


if __name__ == "__main__":
    sys.exit(command_line(__doc__, compile_all, run_all, shrink))
