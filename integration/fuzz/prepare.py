#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Generates COUNT kernels for the GPU differential fuzz (kernelgen.py with
gpu=True), MATMULS matmul kernels, PERSISTENT persistent ones, TCGEN05
sm_100a ones, FP8 ones and CLUSTERS ones in clusters of two
(matmul_gen.py) and ATTENTION flash-attention kernels (head dim, type,
causal or not, ragged, varlen or row layout, and ws.pipeline unset, true or
false drawn, and grouped-query heads, the soft cap and e4m3 inputs;
attention/variants.py writes them) and ROWS row kernels (a row softmax,
RMSNorm, LayerNorm or residual-add + RMSNorm of a drawn type, row length,
rows per block and warps; rows/variants.py
writes them), compiles each to a launcher with ws-opt, compiles every launcher
with -Wall -Wextra -Werror, and writes DIR/manifest.json (one spec per
kernel, for run.py). Needs no GPU. A kernel ws-opt rejects is a failure
here: the generator only draws kernels that must compile."""
import argparse
import concurrent.futures
import importlib.util
import json
import os
import random
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "test", "robustness"))
import kernelgen  # noqa: E402
import matmul_gen  # noqa: E402
# attention/variants.py, under a name of its own (matmul_gen imports the
# matmul suite's variants.py)
_spec = importlib.util.spec_from_file_location(
    "attention_variants", os.path.join(here, "..", "attention", "variants.py"))
attention_variants = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(attention_variants)
_spec = importlib.util.spec_from_file_location(
    "rows_variants", os.path.join(here, "..", "rows", "variants.py"))
rows_variants = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rows_variants)


def row_kernel(rng, j):
    """A row kernel (rows/variants.py): a loop over blocks of rows held
    whole (a row softmax, RMSNorm, LayerNorm or residual-add + RMSNorm), or,
    one time in three, a loop over a row's chunks of any length (softmax,
    RMSNorm and LayerNorm with a second pass, cross-entropy): its spec and
    .mlir text. The row length (the chunk's, for the latter) and rows per
    block are powers of two (what the compute warps' chunks follow,
    docs/language.md's "Row kernels"), whole chunks of 4 f32 for every
    thread and at most 64 of them, a row at least 16 bytes, a block at most
    256 rows and 32 KB (16 KB for residual-add + RMSNorm, whose two tiles
    in and two out must fit twice over, and for a chunk, whose rings are
    two passes' and the stores'), and not square where a weight is spread
    over the rows or row vectors are carried."""
    chunked = rng.random() < 1 / 3
    ops = ["softmax", "rmsnorm", "layernorm"] + (["cross_entropy"] if chunked
                                                 else ["add_rmsnorm"])
    op = rng.choice(ops)
    t, warps = rng.choice(["f32", "f16", "bf16"]), rng.choice([4, 8])
    per_chunk = 4 * 32 * warps  # elements of one chunk on every thread
    eb = 4 if t == "f32" else 2
    most = 16384 if op == "add_rmsnorm" or chunked else 32768
    n = 2 ** rng.randint(4 if t == "f32" else 3, 13 if op != "add_rmsnorm" else 12)
    r = rng.choice([r for r in (2 ** k for k in range(9))
                    if r * n % per_chunk == 0 and r * n // per_chunk <= 64 and
                    r * n * eb <= most and ((op == "softmax" and not chunked) or r != n)]
                   or [0])
    if r == 0:  # no block shape fits this row: draw again
        return row_kernel(rng, j)
    spec = {"name": "row%d" % j, "kind": "rows", "op": op, "rank": 2, "out_type": t,
            "dtype": rows_variants.TORCH[t], "rows": r, "n": n, "warps": warps,
            "chunked": chunked}
    make = rows_variants.chunked_kernel if chunked else rows_variants.kernel
    return spec, make(spec["op"], t, r, n, warps)


def attention(rng, j):
    """An attention kernel: its spec and .mlir text."""
    d, t = rng.choice([64, 128]), rng.choice(["f16", "bf16"])
    causal, layout = rng.random() < 0.5, rng.choice(["ragged", "ragged", "rows"])
    # the step pipeline: the planner's choice, or forced either way (drawn
    # last, so a seed's other draws stay as they were)
    pipeline = rng.choice([None, True, False])
    # grouped-query heads (ragged kernels) and the logit soft cap, drawn
    # after the rest for the same reason
    features = [f for f, p in (("gqa", 0.4 if layout == "ragged" else 0), ("softcap", 0.3))
                if rng.random() < p]
    # a ragged kernel made a varlen one (packed sequences, window views),
    # drawn last
    if layout == "ragged" and rng.random() < 0.3:
        layout = "varlen"
    # a ragged kernel without the soft cap made an FP8 one (e4m3 Q, K and
    # V transposed, per-head descales, bf16 out), drawn last
    if layout == "ragged" and "softcap" not in features and rng.random() < 0.25:
        t = "e4m3"
    spec = {"name": "att%d" % j, "kind": "attention", "rank": 2 if layout == "rows" else 4,
            "out_type": t, "d": d, "bm": 128, "bn": 128, "dtype": attention_variants.TORCH[t],
            "causal": causal, "layout": layout, "pipeline": pipeline, "features": features}
    text = attention_variants.kernel(d, 128, 128, t, causal, layout, features)
    if pipeline is not None:
        text = text.replace("} {ws.warp_specialize}",
                            "} {ws.warp_specialize, ws.pipeline = %s}" % str(pipeline).lower())
    return spec, text


def elementwise(args, i):
    """An elementwise kernel: its spec and .mlir text."""
    rng = random.Random("gpu/%d/%d" % (args.seed, i))
    k = kernelgen.make_valid(rng, True, i)
    spec = {"name": k.name, "rank": k.rank, "box": k.box, "inputs": k.inputs,
            "out_type": k.out_type, "steps": k.steps, "result": k.result,
            "start": k.start, "step": k.step, "warps": k.warps,
            "transcendental": k.transcendental}
    return spec, k.text


def build(args, i):
    if i < args.count:
        spec, text = elementwise(args, i)
    elif i < args.count + args.matmuls:
        spec, text = matmul_gen.draw(random.Random("gpu-mm/%d/%d" % (args.seed, i)), i - args.count)
    elif i < args.count + args.matmuls + args.persistent:
        j = i - args.count - args.matmuls
        spec, text = matmul_gen.draw_persistent(random.Random("gpu-pmm/%d/%d" % (args.seed, j)), j)
    elif i < args.count + args.matmuls + args.persistent + args.attention:
        j = i - args.count - args.matmuls - args.persistent
        spec, text = attention(random.Random("gpu-att/%d/%d" % (args.seed, j)), j)
    else:
        j = i - args.count - args.matmuls - args.persistent - args.attention
        if j < args.tcgen05:
            spec, text = matmul_gen.draw_tcgen05(random.Random("gpu-tc/%d/%d" % (args.seed, j)), j)
        elif j < args.tcgen05 + args.fp8:
            j -= args.tcgen05
            spec, text = matmul_gen.draw_fp8(random.Random("gpu-f8/%d/%d" % (args.seed, j)), j)
        elif j < args.tcgen05 + args.fp8 + args.clusters:
            j -= args.tcgen05 + args.fp8
            spec, text = matmul_gen.draw_cluster(random.Random("gpu-cl/%d/%d" % (args.seed, j)), j)
        else:
            j -= args.tcgen05 + args.fp8 + args.clusters
            spec, text = row_kernel(random.Random("gpu-row/%d/%d" % (args.seed, j)), j)
    name = spec["name"]
    base = os.path.join(args.dir, name)
    with open(base + ".mlir", "w") as f:
        f.write(text)
    p = subprocess.run([args.ws_opt, base + ".mlir", "--emit=launcher", "-o", base],
                       capture_output=True, text=True)
    if p.returncode != 0:
        with open(base + ".err", "w") as f:
            f.write(p.stderr)
        return None, "%s: ws-opt failed (exit %d): %s" % (name, p.returncode, p.stderr.strip()[-3000:])
    cuda = os.environ.get("WS_CUDA_ROOT", "/usr/local/cuda")
    c = subprocess.run(["gcc", "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-fPIC",
                        "-I" + os.path.join(cuda, "include"), "-c", base + ".c", "-o", base + ".o"],
                       capture_output=True, text=True)
    if c.returncode != 0:
        return None, "%s: launcher does not compile: %s" % (name, c.stderr.strip()[:600])
    return spec, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ws_opt")
    ap.add_argument("dir")
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--matmuls", type=int, default=0, help="matmul kernels besides")
    ap.add_argument("--persistent", type=int, default=0,
                    help="persistent matmul kernels besides (with epilogue operands)")
    ap.add_argument("--attention", type=int, default=0, help="attention kernels besides")
    ap.add_argument("--fp8", type=int, default=0,
                    help="FP8 matmul kernels besides (e4m3/e5m2 on wgmma, scaled per tensor)")
    ap.add_argument("--tcgen05", type=int, default=0,
                    help="sm_100a matmul kernels besides (tcgen05; run only on a GPU of "
                         "compute capability 10.0)")
    ap.add_argument("--clusters", type=int, default=0,
                    help="matmul kernels in clusters of two besides (TMA multicast; tiled "
                         "and persistent)")
    ap.add_argument("--rows", type=int, default=0,
                    help="row kernels besides (a row softmax, RMSNorm, LayerNorm or "
                         "residual-add + RMSNorm: ws.reduce and ws.broadcast along the rows)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    specs, errors = [], []
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        total = (args.count + args.matmuls + args.persistent + args.attention + args.tcgen05 +
                 args.fp8 + args.clusters + args.rows)
        for spec, err in pool.map(lambda i: build(args, i), range(total)):
            if err:
                errors.append(err)
            else:
                specs.append(spec)
    with open(os.path.join(args.dir, "manifest.json"), "w") as f:
        json.dump({"seed": args.seed, "kernels": specs}, f)
    ranks = sorted(set(s["rank"] for s in specs))
    types = sorted(set(t for s in specs for t in s.get("inputs", []) + [s["out_type"]]))
    matmuls = sum(s.get("kind") == "matmul" for s in specs)
    attentions = sum(s.get("kind") == "attention" for s in specs)
    rows = sum(s.get("kind") == "rows" for s in specs)
    tcgen05 = sum(s.get("chip") == "sm_100a" for s in specs)
    for e in errors:
        print("FAIL " + e)
    print("gpu fuzz: seed %d: %d kernels (%d matmuls, %d of them sm_100a, %d attention, %d row) "
          "compiled to launchers (-Wall -Wextra -Werror), ranks %s, types %s; %d failed"
          % (args.seed, len(specs), matmuls, tcgen05, attentions, rows, ranks, " ".join(types),
             len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
