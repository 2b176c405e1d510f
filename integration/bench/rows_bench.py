#!/usr/bin/env python3
"""Row-kernel benchmark on the GPU, in one process, bf16: softmax, RMSNorm,
LayerNorm and residual-add + RMSNorm at tokens x hidden of 65536x1024,
32768x4096, 16384x8192 and 4096x32768, and cross-entropy at vocabularies
of 50257 and 128256 (8192 and 4096 rows). Each shape runs the variant of
integration/rows/variants.py made for it: rows held whole at hidden 1024,
4096 and 8192, the loop over a row's chunks at 32768 and for
cross-entropy. ws, torch's eager kernel, a fresh static torch.compile of it
and a device copy run on the same uniform inputs under the same timer
(triton.testing.do_bench, L2 flushed; the median of 3 interleaved rounds;
rows_run.py's bench_one). GB/s count one read and one write of each
M x N tensor (cross-entropy: one read of the logits). Prints each shape,
then a table of ws's ratio to the better torch and to the copy, and the
weakest shape of each.

Usage: rows_bench.py DIR [KIND...]
  DIR: what integration/rows/compile_rows.sh wrote (the variants' launchers
  and the manifest); KIND: softmax, rmsnorm, layernorm, add_rmsnorm,
  cross_entropy (all unless given)."""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "rows"))
import rows_run  # noqa: E402

# the variant each kind runs at a row length (32768: over chunks)
VARIANT = {n: "{kind}_bf16_%d" % n for n in (1024, 4096, 8192)}
CHUNKS = {"softmax": "softmax_chunks_bf16_4096", "rmsnorm": "rmsnorm_chunks_bf16_2048",
          "layernorm": "layernorm_chunks_bf16_2048", "add_rmsnorm": None}
CROSS_ENTROPY = "cross_entropy_bf16_2048"
KINDS = ["softmax", "rmsnorm", "layernorm", "add_rmsnorm", "cross_entropy"]


def load(folder, cfgs, name):
    return rows_run.RowKernel(folder, name, cfgs[name], os.environ.get("CUDA_HOME", "/usr/local/cuda"))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    folder, kinds = sys.argv[1], sys.argv[2:] or KINDS
    cfgs = rows_run.read_manifest(folder)
    torch.manual_seed(0)
    torch.empty(1, device="cuda")
    results = []  # (kind, shape, gbs)
    for kind in kinds:
        if kind == "cross_entropy":
            kern = load(folder, cfgs, CROSS_ENTROPY)
            for m, n in rows_run.CE_SHAPES:
                results.append((kind, (m, n), rows_run.bench_cross_entropy(kern, m, n)))
            continue
        for m, n in rows_run.SHAPES:
            name = CHUNKS[kind] if n == 32768 else VARIANT[n].format(kind=kind)
            if name is None:
                continue
            results.append((kind, (m, n), rows_run.bench_one(load(folder, cfgs, name), m, n)))
    print("\n| kernel | shape | ws GB/s | ws / best torch | ws / copy |\n|---|---|---|---|---|")
    for kind, (m, n), g in results:
        best = max(g["eager"], g["compile"])
        print(f"| {kind} | {m}x{n} | {g['ws']:.0f} | {g['ws'] / best:.2f} | {g['ws'] / g['copy']:.2f} |")
    torch_weak = min(results, key=lambda r: r[2]["ws"] / max(r[2]["eager"], r[2]["compile"]))
    copy_weak = min(results, key=lambda r: r[2]["ws"] / r[2]["copy"])
    for what, (kind, (m, n), g), ratio in (
            ("best torch", torch_weak, torch_weak[2]["ws"] / max(torch_weak[2]["eager"],
                                                                 torch_weak[2]["compile"])),
            ("copy", copy_weak, copy_weak[2]["ws"] / copy_weak[2]["copy"])):
        print(f"weakest against {what}: {kind} at {m}x{n}, {ratio:.2f}x")


if __name__ == "__main__":
    main()
