# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Stores that add their tile into the tensor (ws.store with reduce = "add":
TMA's reduce-add, atomic adds on a ragged edge), checked on a GPU.

  reduce_run.py compile DIR     (a machine with MLIR) DIR/NAME.wsmod of each
  reduce_run.py run DIR [small] (a GPU) out += the sum of `splits` m x n
                                parts, every part's blocks adding into out
                                at once, at ragged and whole shapes, with
                                guard bytes around out

The parts and out hold small integers, so every order of the adds gives
the same sum, exactly (f32: 32 parts; bf16: 8, whose sums stay within the
integers bf16 holds)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from gpu_check import command_line, compile_kernels, guarded, intact, torch_and_ws  # noqa: E402

SHAPES = [(1000, 1001), (129, 259), (32, 64), (3, 5), (2048, 4096)]
KERNELS = [("reduce_add_f32", "float32", 32), ("reduce_add_bf16", "bfloat16", 8)]


def compile_all(out):
    compile_kernels(HERE, [k for k, _, _ in KERNELS], out)


def run_all(folder):
    torch, ws = torch_and_ws()
    if torch is None:
        return 0
    failed = 0
    for name, dtype_name, splits in KERNELS:
        dtype = getattr(torch, dtype_name)
        kernel = ws.load(os.path.join(folder, name + ".wsmod")).kernels[name]
        for m, n in SHAPES:
            torch.manual_seed(m * 11 + n)
            _, parts = guarded(torch, splits * m, n, dtype)  # rows on 16 bytes, as TMA steps them
            parts.copy_(torch.randint(-8, 9, (splits * m, n), device="cuda").to(dtype))
            start = torch.randint(-8, 9, (m, n), device="cuda").to(dtype)
            big, out = guarded(torch, m, n, dtype)
            out.copy_(start)
            kernel[(-(-m // 32), splits)](parts, out, m, n)
            torch.cuda.synchronize()
            want = start.float() + parts.float().reshape(splits, m, n).sum(0)
            exact = torch.equal(out.float(), want)
            guards = intact(torch, big, m, n)
            ok = exact and guards
            print("%s %5dx%5d  %s  guards %s  %s" % (name, m, n, "exact" if exact else "WRONG",
                                                   "intact" if guards else "BROKEN",
                                                   "ok" if ok else "FAILED"))
            failed += 0 if ok else 1
    total = len(KERNELS) * len(SHAPES)
    print("reduce-add stores: %d passed, %d failed" % (total - failed, failed))
    return 1 if failed else 0


def shrink():
    global SHAPES
    SHAPES = SHAPES[:2]


if __name__ == "__main__":
    sys.exit(command_line(__doc__, compile_all, run_all, shrink))
