# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""What the matmul sets written in Python (register_a.py, fp8.py,
weight_only.py) share: compiling a set of kernels to PTX and launchers with
its PTX checks (and, for a chip this machine has no GPU of, ptxas for it),
telling whether a GPU is there and which chip it is, and the command line."""
import os
import shutil
import subprocess


def compile_set(ws_opt, out, kernels, render, wants, what, sample=1):
    """Writes each kernel (a tuple whose first field is its name) as
    OUT/NAME.mlir, compiles it to OUT/NAME.ptx and the launcher OUT/NAME.{h,c},
    checks that the PTX holds every string wants(kernel) lists, and writes
    OUT/manifest (one kernel a line). With `sample` N > 1, every Nth kernel
    only (the test command's run under the sanitizers, where ws-opt is
    several times slower). Prints one summary line; True when every kernel
    compiled and passed its checks."""
    os.makedirs(out, exist_ok=True)
    failed = 0
    chosen = kernels[::sample]
    with open(os.path.join(out, "manifest"), "w") as manifest:
        for k in chosen:
            base = os.path.join(out, k[0])
            with open(base + ".mlir", "w") as f:
                f.write(render(*k))
            manifest.write(" ".join(str(x) for x in k) + "\n")
            # the launcher and the PTX its cubin is made from, in one run
            failed += subprocess.run([ws_opt, base + ".mlir", "--emit=launcher", "--keep-ptx",
                                      "-o", base]).returncode != 0
            ptx = open(base + ".ptx").read() if os.path.exists(base + ".ptx") else ""
            for w in wants(k):
                if w not in ptx:
                    print(f"FAIL {k[0]}: PTX lacks {w!r}")
                    failed += 1
            failed += not assembles(base, ptx)
    counted = f"{len(chosen)} of {len(kernels)}" if sample > 1 else f"{len(kernels)}"
    print(f"compiled {counted} {what}; PTX checks {'passed' if not failed else 'FAILED'}")
    return failed == 0


def ptx_chip(ptx):
    """The chip a PTX module targets ("sm_100a"), or ""."""
    for line in ptx.splitlines():
        if line.startswith(".target"):
            return line.split()[1].rstrip(",")
    return ""


def assembles(base, ptx):
    """A kernel for a chip this machine's GPU is not (sm_100a) goes through
    ptxas for that chip here, which must take it without spills: nothing
    else can check it before it runs on its own GPU."""
    chip = ptx_chip(ptx)
    if chip != "sm_100a":
        return True
    cuda = os.environ.get("WS_CUDA_ROOT", "/usr/local/cuda")
    r = subprocess.run([os.path.join(cuda, "bin", "ptxas"), f"-arch={chip}", "-v",
                        base + ".ptx", "-o", base + ".cubin"], capture_output=True, text=True)
    log = r.stdout + r.stderr
    if r.returncode != 0 or " 0 bytes spill stores, 0 bytes spill loads" not in log:
        print(f"FAIL {os.path.basename(base)}: ptxas -arch={chip}: {log.strip()[-300:]}")
        return False
    return True


def gpu_chip():
    """The chip of this machine's GPU as the kernels name it, from its
    compute capability (9.0: sm_90a, 10.0: sm_100a), or ""."""
    r = subprocess.run(["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"],
                       capture_output=True, text=True)
    cap = r.stdout.split("\n")[0].strip() if r.returncode == 0 else ""
    return {"9.0": "sm_90a", "10.0": "sm_100a"}.get(cap, "")


def have_gpu():
    return shutil.which("nvidia-smi") is not None and subprocess.run(
        ["nvidia-smi", "-L"], capture_output=True).returncode == 0


def main(doc, kernels, render, wants, what, gpu_commands):
    """The command line the sets share: `compile WS_OPT DIR [--sample N]`
    (compile_set, no GPU needed), and the commands of `gpu_commands` (name: function of
    the remaining arguments, returning True on success or None), each of
    which says "skipped: no GPU" where there is none. Exits."""
    import sys
    argv = sys.argv[1:]
    if len(argv) in (3, 5) and argv[0] == "compile" and (len(argv) == 3 or argv[3] == "--sample"):
        sample = int(argv[4]) if len(argv) == 5 else 1
        sys.exit(0 if compile_set(argv[1], argv[2], kernels, render, wants, what, sample) else 1)
    if len(argv) >= 2 and argv[0] in gpu_commands:
        if not have_gpu():
            print("skipped: no GPU")
            sys.exit(0)
        sys.exit(0 if gpu_commands[argv[0]](*argv[1:]) in (True, None) else 1)
    sys.exit(doc)
