# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Loops whose compute is split (ws.split_compute = true), checked on a GPU:
each part of a step's work that shares no tile with the rest runs in a
compute partition of its own.

  split_run.py compile DIR     (a machine with MLIR) DIR/NAME.wsmod of each
  split_run.py run DIR [small] (a GPU) every output against torch at ragged
                               and whole shapes, with guard bytes around
                               each output and input
  split_run.py bench DIR       (a GPU) each kernel against itself compiled
                               with one compute partition (the same source
                               without ws.split_compute), in one process,
                               do_bench (L2 flushed), uniform inputs

two_parts.mlir: c = a + b and e = exp(d) * 2 (f32, 32 x 64 tiles), two
compute partitions of 4 warps. three_parts.mlir: p = a * b, q = c - d and
r = max(f, 0) (f16, 64 x 64 tiles), three compute partitions of 8 warps
(896 threads a block). test/passes/Inputs/compute-chain.sched.mlir: a
schedule written by hand that cuts c = exp(a) * 2 between two compute
partitions, the tile crossing from one to the other."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from gpu_check import command_line, compile_kernels, guarded, intact, torch_and_ws  # noqa: E402

SHAPES = [(1000, 1001), (129, 259), (32, 64), (3, 5), (4096, 4096)]


KERNELS = ["two_parts", "three_parts"]


# A schedule written by hand that cuts c = exp(a) * 2 between two compute
# partitions (a tile crossing from one to the other).
CHAIN_DIR = os.path.join(HERE, "..", "..", "test", "passes", "Inputs")
CHAIN = "compute-chain.sched"


def compile_all(out):
    compile_kernels(HERE, KERNELS, out)
    compile_kernels(CHAIN_DIR, [CHAIN], out)
    # the same kernels with one compute partition, for bench
    for name in KERNELS:
        with open(os.path.join(HERE, name + ".mlir")) as f:
            text = f.read()
        text = text.replace(", ws.split_compute = true", "").replace("@" + name, "@" + name + "_one")
        with open(os.path.join(out, name + "_one.mlir"), "w") as f:
            f.write(text)
    compile_kernels(out, [n + "_one" for n in KERNELS], out)


def inputs(torch, count, m, n, dtype):
    """`count` uniform random m x n tensors in [-1, 1), each inside guards;
    returns (buffer, view) pairs."""
    pairs = [guarded(torch, m, n, dtype) for _ in range(count)]
    for _, view in pairs:
        view.copy_(torch.rand(m, n, device="cuda", dtype=torch.float32) * 2 - 1)
    return pairs


def check(torch, ws, folder, name, rows, dtype, ins, outs, want):
    """Runs kernel `name` (blocks of `rows` rows) at every shape on `ins`
    fresh inputs and `outs` guarded outputs; want(torch, inputs) gives the
    expected outputs and their tolerance. Returns the failures."""
    kernel = ws.load(os.path.join(folder, name + ".wsmod")).kernels[name]
    failed = 0
    for m, n in SHAPES:
        torch.manual_seed(m * 3 + n)
        given = inputs(torch, ins, m, n, dtype)
        results = [guarded(torch, m, n, dtype) for _ in range(outs)]
        views = [v for _, v in given]
        args = kernel_args(name, views, [v for _, v in results])
        kernel[(-(-m // rows),)](*args, n)
        torch.cuda.synchronize()
        expected, tol = want(torch, views)
        err = max((r[1].float() - e.float()).abs().max().item() for r, e in zip(results, expected))
        guards = all(intact(torch, big, m, n) for big, _ in results + given)
        ok = guards and err <= tol
        print("%s %5dx%5d  max err %.3g  guards %s  %s" % (
            name, m, n, err, "intact" if guards else "BROKEN", "ok" if ok else "FAILED"))
        failed += 0 if ok else 1
    return failed


def run_all(folder):
    torch, ws = torch_and_ws()
    if torch is None:
        return 0
    failed = check(torch, ws, folder, "two_parts", 32, torch.float32, 3, 2,
                   lambda t, v: ([v[0] + v[1], t.exp(v[2]) * 2], 1e-4))
    failed += check(torch, ws, folder, "three_parts", 64, torch.float16, 5, 3,
                    lambda t, v: ([v[0] * v[1], v[2] - v[3], t.clamp_min(v[4], 0)], 0.0))
    failed += check_chain(torch, ws, folder)
    total = 3 * len(SHAPES)
    print("split compute: %d passed, %d failed" % (total - failed, failed))
    return 1 if failed else 0


def check_chain(torch, ws, folder):
    """The hand-cut chain at each shape: c = exp(a) * 2, guards intact;
    returns the failures."""
    kernel = ws.load(os.path.join(folder, CHAIN + ".wsmod")).kernels["chain"]
    failed = 0
    for m, n in SHAPES:
        torch.manual_seed(m * 13 + n)
        (a_big, a), (c_big, c) = inputs(torch, 1, m, n, torch.float32)[0], guarded(torch, m, n, torch.float32)
        kernel[(-(-m // 32),)](a, c, n)
        torch.cuda.synchronize()
        err = (c - torch.exp(a) * 2).abs().max().item()
        guards = intact(torch, c_big, m, n) and intact(torch, a_big, m, n)
        ok = guards and err <= 1e-4
        print("chain (compute -> compute1) %5dx%5d  max err %.3g  guards %s  %s" % (
            m, n, err, "intact" if guards else "BROKEN", "ok" if ok else "FAILED"))
        failed += 0 if ok else 1
    return failed


def kernel_args(name, ins, outs):
    """The kernel's tensor arguments in its order: each part's inputs, then
    its output."""
    args, ins = [], list(ins)
    for o, count in zip(outs, [2, 1] if name == "two_parts" else [2, 2, 1]):
        args += ins[:count] + [o]
        del ins[:count]
    return args


def bench(folder):
    """Split against one partition at three shapes; prints each time, its
    bandwidth and the ratio (one / split: above 1, the split is faster)."""
    torch, ws = torch_and_ws()
    if torch is None:
        return 0
    from triton.testing import do_bench
    for name, rows, dtype, ins, outs in [("two_parts", 32, torch.float32, 3, 2),
                                         ("three_parts", 64, torch.float16, 5, 3)]:
        split = ws.load(os.path.join(folder, name + ".wsmod")).kernels[name]
        one = ws.load(os.path.join(folder, name + "_one.wsmod")).kernels[name + "_one"]
        for m, n in [(4096, 4096), (8192, 8192), (16384, 8192)]:
            x = [(torch.rand(m, n, device="cuda") * 2 - 1).to(dtype) for _ in range(ins)]
            y = [torch.empty(m, n, device="cuda", dtype=dtype) for _ in range(outs)]
            args = kernel_args(name, x, y)
            grid = (-(-m // rows),)
            t_split = do_bench(lambda: split[grid](*args, n))
            t_one = do_bench(lambda: one[grid](*args, n))
            moved = (ins + outs) * m * n * x[0].element_size()
            print("%-11s %5dx%5d  split %7.1f us %5.0f GB/s  one partition %7.1f us %5.0f GB/s"
                  "  one/split %.3f" % (name, m, n, t_split * 1e3, moved / t_split / 1e6,
                                        t_one * 1e3, moved / t_one / 1e6, t_one / t_split))
    return 0


def shrink():
    global SHAPES
    SHAPES = SHAPES[:2]


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "bench":
        sys.exit(bench(sys.argv[2]))
    sys.exit(command_line(__doc__, compile_all, run_all, shrink))
