# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""python -m ws compile: kernels to module files, for a machine that runs
them without MLIR (ws.load reads them back; it needs libws-launch.so only).
python -m ws families: every member of the shipped families the PyTorch
ops run, compiled into the cache (ws.families.compile_all).
python -m ws cache clear|dir: empties the module cache (and the
autotuner's winners), or prints where it is.
python -m ws cache check|fill [--dtype T] [--head-dim D] [--mask M]
[--softcap] [--padded] [--lse] [--backward] [--no-matmul]: lists the kernels torch.ops.ws needs
for a model of those element types, head dimensions and masks, and which
are missing from the cache, compiling none (exit status 1 when some are);
fill compiles the missing ones (on a machine with MLIR).
python -m ws tune-table [--dtype T] [--hidden H] [-o FILE]: tunes
torch.ops.ws.matmul over the common shapes of Llama-style models on this
GPU and writes the winners into the shipped table (ws/tuned/matmul.json),
the warm start of a machine that has not tuned a shape itself.

    python -m ws compile [--chip C] [--linker L] [-o OUT | --out-dir DIR]
                         [OPTION=VALUE...] FILE.mlir...

Each FILE.mlir becomes FILE.wsmod beside it (or in DIR; OUT names the
output of a single FILE), and a line names each file written and its
kernels. OPTION=VALUE pairs are ws-pipeline options, as ws.compile's
keyword arguments (num_stages=4, smem_budget=...). A refused kernel prints
ws's located errors, as ws-opt does, and so does a ws.Template's source
(its ${...} fields need values: compile its members from Python); the
status is 1 when any file was refused, 2 for a usage error.
"""

import argparse
import os
import sys

from .compiler import COMPILE_KEYWORDS, LINKERS, CompileError, compile


def _parser():
    c = argparse.ArgumentParser(prog="python -m ws compile",
                                description="Compiles kernels to .wsmod module files, "
                                "which ws.load runs on a machine without MLIR.")
    c.add_argument("files", nargs="+", metavar="FILE.mlir | OPTION=VALUE")
    c.add_argument("--chip", help="the target chip (sm_90a, sm_100a); default: each "
                   "gpu.module's own")
    c.add_argument("--linker", choices=LINKERS, default="driver",
                   help="who makes the machine code (default: the driver, at load)")
    where = c.add_mutually_exclusive_group()
    where.add_argument("-o", dest="output", help="the module file of a single input")
    where.add_argument("--out-dir", help="where the module files go (default: beside "
                       "each input)")
    return c


def _output(path, args):
    if args.output:
        return args.output
    base = os.path.splitext(os.path.basename(path))[0] + ".wsmod"
    return os.path.join(args.out_dir or os.path.dirname(path), base)


def compile_files(args) -> int:
    # as text: ws.compile passes each value on as written
    options = dict(f.split("=", 1) for f in args.files if "=" in f)
    files = [f for f in args.files if "=" not in f]
    own = sorted(set(options) & set(COMPILE_KEYWORDS))
    if own:
        print("python -m ws compile: %s=... is not a pipeline option (give --chip or --linker; "
              "the others have no use here)" % own[0], file=sys.stderr)
        return 2
    if args.output and len(files) != 1:
        print("python -m ws compile: -o takes a single input (got %d)" % len(files),
              file=sys.stderr)
        return 2
    if args.out_dir:
        os.makedirs(args.out_dir, exist_ok=True)
    refused = 0
    for path in files:
        if _is_template(path):
            print("%s: a ws.Template (it has ${...} fields), not a kernel: compile a member "
                  "with ws.Template(path).compile(config), whose .save(path) writes its "
                  ".wsmod" % path, file=sys.stderr)
            refused += 1
            continue
        try:
            module = compile(path, chip=args.chip, linker=args.linker, **options)
        except CompileError as e:
            print(e, file=sys.stderr)
            refused += 1
            continue
        except (OSError, ValueError, TypeError) as e:  # a path, an option or its value
            print("python -m ws compile: %s" % e, file=sys.stderr)
            return 2
        out = _output(path, args)
        module.save(out)
        print("%s: %s" % (out, ", ".join(module.kernels) or "no kernel"))
    return 1 if refused else 0


def _is_template(path) -> bool:
    """Whether the file holds ${...} fields (MLIR has no "${")."""
    try:
        with open(path) as f:
            return "${" in f.read()
    except OSError:
        return False  # compile() says why


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["families"]:
        from .families import main as families_main
        return families_main()
    if argv[:1] == ["cache"]:
        from .cache import _main as cache_main
        return cache_main(argv[1:])
    if argv[:1] == ["tune-table"]:
        from .tuning_table import main as table_main
        return table_main(argv[1:])
    if argv[:1] != ["compile"]:
        asked = argv[:1] in (["-h"], ["--help"])
        print(__doc__ if asked else
              "usage: python -m ws compile [-h] [--chip C] [--linker L] [-o OUT | --out-dir DIR] "
              "[OPTION=VALUE...] FILE.mlir...\n       python -m ws families\n"
              "       python -m ws cache clear|dir|check|fill [options]\n"
              "       python -m ws tune-table [--dtype T] [--hidden H] [-o FILE]\n"
              "       python -m ws --help",
              file=sys.stdout if asked else sys.stderr)
        return 0 if asked else 2
    return compile_files(_parser().parse_intermixed_args(argv[1:]))


if __name__ == "__main__":
    sys.exit(main())
