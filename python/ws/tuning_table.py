# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The shipped table of torch.ops.ws.matmul's winners (ws/tuned/matmul.json):
for each GPU (ws.tune.gpu_name()), the winning config of each key
(ws.families.matmul_key: M's bucket, N, K, the dtype) that was tuned on
it, which the matmul family takes as its warm start: a key this machine
has not tuned itself starts from the table's winner, without timing.

python -m ws tune-table [--dtype T] [--hidden H] [-o FILE] tunes the
common shapes of Llama-style models (each linear layer of hidden sizes H
at the M buckets of COMMON_M) on this GPU, as torch.ops.ws.matmul would,
and writes their winners into the table under this GPU's name, keeping
the other GPUs' entries.
"""

import argparse
import json
import os
import sys

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tuned", "matmul.json")
# M buckets (ws.families.m_bucket) a model's batch x sequence falls in
COMMON_M = (1024, 2048, 4096, 8192)
# hidden size -> (intermediate size, K/V width, vocabulary): a Llama-style
# model's linear layers, each an N x K weight
MODELS = {2048: (8192, 512, 32000), 4096: (14336, 1024, 32000)}


def linear_shapes(hidden: int):
    """(N, K) of each linear layer of a model of this hidden size: q and o,
    k and v, gate and up, down, the head."""
    inter, kv, vocab = MODELS[hidden]
    return sorted({(hidden, hidden), (kv, hidden), (inter, hidden), (hidden, inter),
                   (vocab, hidden)})


def load(path: str = TABLE) -> dict:
    """The table's winners: {GPU name: {repr(key): config}} ({} when the
    file is missing)."""
    try:
        with open(path) as f:
            return json.load(f).get("gpus", {})
    except FileNotFoundError:
        return {}


def merge(path: str, gpu: str, winners: dict) -> dict:
    """Writes `winners` (repr(key) -> config) under `gpu` into the table at
    `path`, over that GPU's entries of the same keys; returns the table."""
    try:
        with open(path) as f:
            table = json.load(f)
    except FileNotFoundError:
        table = {}
    table.setdefault("about", "torch.ops.ws.matmul's winners per GPU; regenerate with "
                              "python -m ws tune-table")
    gpus = table.setdefault("gpus", {})
    gpus[gpu] = dict(sorted(dict(gpus.get(gpu, {}), **winners).items()))
    with open(path + ".tmp", "w") as f:
        json.dump(table, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(path + ".tmp", path)
    return table


def tune_common(dtypes, hiddens, out: str) -> int:
    """Tunes the common shapes on this GPU and writes their winners."""
    import torch
    from .families import matmul_family, matmul_key
    from .tune import gpu_name
    if not torch.cuda.is_available():
        print("ws tune-table: no GPU: the table holds winners timed on one",
              file=sys.stderr)
        return 1
    torch_dtype = {"f16": torch.float16, "bf16": torch.bfloat16}
    winners = {}
    for dtype in dtypes:
        family = matmul_family(dtype)
        for hidden in hiddens:
            for n, k in linear_shapes(hidden):
                for m in COMMON_M:
                    a = torch.empty(m, k, device="cuda", dtype=torch_dtype[dtype]).uniform_(-1, 1)
                    b = torch.empty(n, k, device="cuda", dtype=torch_dtype[dtype]).uniform_(-1, 1)
                    c = torch.empty(m, n, device="cuda", dtype=torch_dtype[dtype])
                    best = family.choose(a, b, c, m, n, k)
                    winners[repr(matmul_key(a, b, c, m, n, k))] = best.config
                    print("%s %5d x %5d x %5d: %s" % (dtype, m, n, k, best.config), flush=True)
    merge(out, gpu_name(), winners)
    print("ws tune-table: %d winners for %s written to %s" % (len(winners), gpu_name(), out))
    return 0


def main(argv) -> int:
    """python -m ws tune-table."""
    parser = argparse.ArgumentParser(prog="python -m ws tune-table",
                                     description="Tune torch.ops.ws.matmul over the common "
                                                 "shapes on this GPU and write the winners "
                                                 "into the shipped table.")
    parser.add_argument("--dtype", action="append", choices=("f16", "bf16"),
                        help="element type (repeatable; default bf16)")
    parser.add_argument("--hidden", action="append", type=int, choices=sorted(MODELS),
                        help="a model's hidden size (repeatable; default all)")
    parser.add_argument("-o", dest="out", default=TABLE, help="the table (default: the "
                        "package's ws/tuned/matmul.json)")
    args = parser.parse_args(argv)
    return tune_common(args.dtype or ["bf16"], args.hidden or sorted(MODELS), args.out)
