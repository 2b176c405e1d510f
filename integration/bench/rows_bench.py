#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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
  DIR: what integration/rows/compile_rows.sh wrote (the variants and the
  manifest; each variant's NAME.wsmod when python -m ws compile wrote one); KIND: softmax, rmsnorm, layernorm, add_rmsnorm,
  cross_entropy (all unless given)."""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "rows"))
import rows_run  # noqa: E402

# the variant each kind runs at a row length (32768: over chunks)
ROWS_HELD = (1024, 4096, 8192)
CHUNKS = {"softmax": "softmax_chunks_bf16_4096", "rmsnorm": "rmsnorm_chunks_bf16_2048",
          "layernorm": "layernorm_chunks_bf16_2048", "add_rmsnorm": None}
CROSS_ENTROPY = "cross_entropy_bf16_2048"
KINDS = ["softmax", "rmsnorm", "layernorm", "add_rmsnorm", "cross_entropy"]


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
            kern = rows_run.RowKernel(folder, CROSS_ENTROPY, cfgs[CROSS_ENTROPY])
            for m, n in rows_run.CE_SHAPES:
                results.append((kind, (m, n), rows_run.bench_cross_entropy(kern, m, n)))
            continue
        for m, n in rows_run.SHAPES:
            name = f"{kind}_bf16_{n}" if n in ROWS_HELD else CHUNKS[kind]
            if name is None:
                continue
            kern = rows_run.RowKernel(folder, name, cfgs[name])
            results.append((kind, (m, n), rows_run.bench_one(kern, m, n)))
    # (kind, shape, gbs, ws / the better torch, ws / the copy)
    rows = [(kind, shape, g, g["ws"] / max(g["eager"], g["compile"]), g["ws"] / g["copy"])
            for kind, shape, g in results]
    print("\n| kernel | shape | ws GB/s | ws / best torch | ws / copy |\n|---|---|---|---|---|")
    for kind, (m, n), g, vs_torch, vs_copy in rows:
        print(f"| {kind} | {m}x{n} | {g['ws']:.0f} | {vs_torch:.2f} | {vs_copy:.2f} |")
    for what, at in (("best torch", 3), ("copy", 4)):
        kind, (m, n), *_ = weakest = min(rows, key=lambda r: r[at])
        print(f"weakest against {what}: {kind} at {m}x{n}, {weakest[at]:.2f}x")


if __name__ == "__main__":
    main()
