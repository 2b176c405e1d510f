"""What the matmul sets written in Python (register_a.py, fp8.py) share:
compiling a set of kernels to PTX and launchers with its PTX checks, and
telling whether a GPU is there."""
import os
import shutil
import subprocess


def compile_set(ws_opt, out, kernels, render, wants, what):
    """Writes each kernel (a tuple whose first field is its name) as
    OUT/NAME.mlir, compiles it to OUT/NAME.ptx and the launcher OUT/NAME.{h,c},
    checks that the PTX holds every string wants(kernel) lists, and writes
    OUT/manifest (one kernel a line). Prints one summary line; True when
    every kernel compiled and passed its checks."""
    os.makedirs(out, exist_ok=True)
    failed = 0
    with open(os.path.join(out, "manifest"), "w") as manifest:
        for k in kernels:
            base = os.path.join(out, k[0])
            with open(base + ".mlir", "w") as f:
                f.write(render(*k))
            manifest.write(" ".join(str(x) for x in k) + "\n")
            for emit, dest in (("ptx", base + ".ptx"), ("launcher", base)):
                failed += subprocess.run([ws_opt, base + ".mlir", "--emit=" + emit, "-o",
                                          dest]).returncode != 0
            ptx = open(base + ".ptx").read() if os.path.exists(base + ".ptx") else ""
            for w in wants(k):
                if w not in ptx:
                    print(f"FAIL {k[0]}: PTX lacks {w!r}")
                    failed += 1
    print(f"compiled {len(kernels)} {what}; PTX checks {'passed' if not failed else 'FAILED'}")
    return failed == 0


def have_gpu():
    return shutil.which("nvidia-smi") is not None and subprocess.run(
        ["nvidia-smi", "-L"], capture_output=True).returncode == 0
