# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The kernel families the package ships (ws/kernels) as torch.ops.ws runs
them: the matmul family tuned over MATMUL_CONFIGS, and attention.mlir's
members: one per head dimension, element type, soft cap, causal mask and
key bounds (with or without each), and the packed-batch members (causal,
each token's sequence start). No torch needed to compile
them: ``python -m ws families`` compiles every member into the cache, for
a GPU machine without MLIR."""

import dataclasses
import functools
import itertools
import os
import sys

from .compiler import CompileError
from .template import Template, kernel_source
from .tune import autotune

# the matmul family's members torch.ops.ws.matmul tunes over: both kernels
# (persistent and tiled) at the tile shapes that won on the H100
# (integration/bench/matmul_autotune.py) with the planner's choices; the
# persistent 128x128 cooperative too (the planner's overlap there is
# ping-pong), and the tiled 128x128 with the deep cooperative ring M = 256
# wants (each other overlap and depth is the planner's own or over the
# budget); and the persistent 128x256 with stream-K (split_k="stream":
# a shape just past a whole wave shares its last tiles' K steps over
# every SM; 1.5-1.7x the plain persistent kernel at 2176x2048 on the
# H200, 3-6% slower at 3.9 waves, level at 15.5)
MATMUL_MEMBERS = [dict(kernel=kernel, BM=bm, BN=bn, BK=64)
                  for kernel in ("matmul", "matmul_tiled")
                  for bm, bn in ((128, 256), (128, 128), (256, 128))] + [
    dict(kernel="matmul", BM=128, BN=128, BK=64, overlap="cooperative"),
    dict(kernel="matmul_tiled", BM=128, BN=128, BK=64, overlap="cooperative", num_stages=6),
    dict(kernel="matmul", BM=128, BN=256, BK=64, split_k="stream")]
# each member with no L2 policy, A kept in L2 while B streams (a thin
# output, whose every block reads the same A), or the reverse
L2_POLICIES = ({}, {"l2_keep": "a"}, {"l2_keep": "b"})
# a tiled member's C tile handed to the store warp whole, or box by box
# (each TMA box stored while the compute warps write the next: a one-wave
# shape's epilogue is on its critical path; 1.2-1.8% on the H100 at 2048^3
# and 256x8192x8192, neutral to 1.6% slower for the persistent members,
# whose epilogue runs under the next tile's K loop)
STORE_BOXES = ({}, {"store_boxes": True})
MATMUL_CONFIGS = [dict(member, **l2, **boxes) for member in MATMUL_MEMBERS
                  for l2 in L2_POLICIES
                  for boxes in (STORE_BOXES if member["kernel"] == "matmul_tiled" else ({},))]
ATTENTION_HEAD_DIMS = (64, 128, 256)
ATTENTION_BLOCK = 128  # query rows per block


def tile_grid(config, a, b, c, m, n, k):
    """The grid of matmul.mlir's @matmul_tiled: a block per C tile."""
    return (-(-m // config["BM"]), -(-n // config["BN"]), 1)


def tile_count(config, a, b, c, m, n, k):
    """The C tiles matmul.mlir's persistent @matmul runs: its tile loop's
    bound, for ws.autotune's tiles= (the balanced grid)."""
    x, y, _ = tile_grid(config, a, b, c, m, n, k)
    return x * y


def m_bucket(m: int) -> int:
    """The M a tuned matmul choice is kept under: M's 128-row tiles rounded
    up to a power of two (1-128 is 128, 129-256 256, 257-512 512...), so
    that a model's new batch size or sequence length reuses the winner of
    its bucket, whose tile count, and so wave count, is alike."""
    tiles = max(1, -(-m // 128))
    return 128 * (1 << (tiles - 1).bit_length())


def matmul_key(a, b, c, m, n, k) -> tuple:
    """What torch.ops.ws.matmul's choice depends on: M's bucket, N, K and
    the element type (N and K are a model's weights: fixed)."""
    return (m_bucket(m), n, k, str(a.dtype))


def tuning_budget(environ=os.environ):
    """(seconds, configs) per key from WS_TUNE_BUDGET (seconds of timing)
    and WS_TUNE_CONFIGS (members timed), each None when unset; a value
    that is not a positive number is refused with its name."""
    budget = []
    for name, kind in (("WS_TUNE_BUDGET", float), ("WS_TUNE_CONFIGS", int)):
        text = environ.get(name, "").strip()
        try:
            value = kind(text) if text else None
        except ValueError:
            value = 0
        if value is not None and not value > 0:
            raise ValueError("ws: %s must be a positive %s (got %r)"
                             % (name, "number of seconds" if kind is float else "integer", text))
        budget.append(value)
    return tuple(budget)


@functools.lru_cache(maxsize=None)
def matmul_family(dtype: str):
    """The tuned matmul family of one element type ("f16" or "bf16"), keyed
    by matmul_key, its tuning bounded by tuning_budget(), warm-started from
    the shipped table of winners (ws.tuning_table)."""
    from .tuning_table import load
    seconds, configs = tuning_budget()
    return autotune(Template(kernel_source("matmul.mlir"), defaults={"DTYPE": dtype}),
                    MATMUL_CONFIGS, grid=tile_grid, tiles=tile_count, key=matmul_key,
                    budget_s=seconds, budget_configs=configs, warm_start=load(),
                    chip="sm_90a")


def attention_block_keys(head_dim: int) -> int:
    """The keys of one K/V block of attention.mlir: 128, or 64 at D = 256,
    where a 128 x 128 score tile beside the 128 x 256 accumulator does not
    fit the registers."""
    return 64 if head_dim > 128 else 128


@functools.lru_cache(maxsize=None)
def attention_config(head_dim: int, *, softcap: bool = False, causal: bool = False,
                     bounded: bool = False, lse: bool = False, packed: bool = False) -> dict:
    """attention.mlir's fields for one member, but its element type; a
    packed member is causal and has no per-batch bounds."""
    if packed and (bounded or not causal):
        raise ValueError("ws: a packed batch's attention member is causal, without per-batch "
                         "key bounds")
    return {"D": head_dim, "BN": attention_block_keys(head_dim), "SOFTCAP": int(softcap),
            "CAUSAL": int(causal), "BOUNDED": int(bounded), "LSE": int(lse),
            "PACKED": int(packed)}


@functools.lru_cache(maxsize=None)
def attention_kernel(head_dim: int, dtype: str, *, softcap: bool = False,
                     causal: bool = False, bounded: bool = False, lse: bool = False,
                     packed: bool = False):
    """The member of attention.mlir for one head dimension and element type,
    with or without the soft cap, the causal mask, per-batch key bounds,
    the log-sum-exp output and packed sequences (the alignment, the
    bounds' values and grouped heads are runtime arguments)."""
    family = Template(kernel_source("attention.mlir"))
    config = attention_config(head_dim, softcap=softcap, causal=causal, bounded=bounded,
                              lse=lse, packed=packed)
    return family.compile(dict(config, DTYPE=dtype), chip="sm_90a").attention


# attention_bwd.mlir's shapes: its head dimensions (D = 256's dK and dV do
# not fit the registers), the dQ kernel's query rows a block (its BMQ),
# the dK/dV kernel's keys a block and the Delta kernel's rows a step
ATTENTION_BWD_HEAD_DIMS = (64, 128)
ATTENTION_BWD_QUERY_ROWS = 128
ATTENTION_BWD_KEYS = 128
ATTENTION_DELTA_ROWS = 32


def backward_head_dim_error(head_dim: int) -> str:
    """Why the attention backward refuses a head dimension."""
    return ("ws: the attention backward takes the head dimensions %s (got %d): at D = 256 a "
            "block's dK and dV (128 keys x 256 in f32, twice) need twice the registers a "
            "warpgroup has" % (", ".join(map(str, ATTENTION_BWD_HEAD_DIMS)), head_dim))


def attention_bwd_config(head_dim: int, *, softcap: bool = False, causal: bool = False,
                         bounded: bool = False, packed: bool = False) -> dict:
    """attention_bwd.mlir's fields for one member, but its element type."""
    fields = attention_config(head_dim, softcap=softcap, causal=causal, bounded=bounded,
                              packed=packed)
    return {"D": head_dim, "BMQ": ATTENTION_BWD_QUERY_ROWS, "SOFTCAP": fields["SOFTCAP"],
            "CAUSAL": fields["CAUSAL"], "BOUNDED": fields["BOUNDED"], "PACKED": fields["PACKED"]}


@functools.lru_cache(maxsize=None)
def attention_bwd_kernels(head_dim: int, dtype: str, *, softcap: bool = False,
                          causal: bool = False, bounded: bool = False, packed: bool = False):
    """The member of attention_bwd.mlir (a module of three kernels:
    attention_delta, attention_dkdv, attention_dq) for one head dimension
    and element type, with or without the soft cap, the causal mask and
    key bounds: the forward member's masks, so that the backward sees the
    keys the forward saw."""
    if head_dim not in ATTENTION_BWD_HEAD_DIMS:
        raise ValueError(backward_head_dim_error(head_dim))
    family = Template(kernel_source("attention_bwd.mlir"))
    config = attention_bwd_config(head_dim, softcap=softcap, causal=causal, bounded=bounded,
                                  packed=packed)
    return family.compile(dict(config, DTYPE=dtype), chip="sm_90a")


@dataclasses.dataclass(frozen=True)
class Need:
    """One kernel torch.ops.ws can launch: a shipped family (its file and
    element type), a member's config (fields and pipeline options) and the
    kernel it runs."""
    family: str
    dtype: str
    config: tuple  # the config's items, sorted
    kernel: str

    def template(self) -> Template:
        return Template(kernel_source(self.family), defaults={"DTYPE": self.dtype})

    def _compile_args(self):
        """(the config, the compile's options), as the op compiles it: a
        matmul member alone, as ws.autotune compiles it."""
        options = {"chip": "sm_90a"}
        if self.family == "matmul.mlir":
            options["kernel"] = self.kernel
        return dict(self.config), options

    def cached(self) -> bool:
        config, options = self._compile_args()
        return self.template().cached(config, **options)

    def compile(self):
        config, options = self._compile_args()
        try:
            return self.template().compile(config, **options)
        except CompileError:
            return None  # a member ws refuses: its refusal is cached as well

    def __str__(self):
        fields = " ".join("%s=%s" % kv for kv in self.config)
        return "%s %s @%s %s" % (self.family, self.dtype, self.kernel, fields)


def mask_forms(causal=(False, True), padded: bool = False, packed: bool = False):
    """The (causal, bounded, packed) members a model of these masks runs:
    each mask in `causal`, with key bounds as well when `padded`, and the
    packed-batch member (causal) as well when `packed`."""
    forms = [(c, bounded, False) for c in causal for bounded in
             ((False, True) if padded else (False,))]
    return forms + ([(True, False, True)] if packed and True in causal else [])


def needed_kernels(dtypes=("f16", "bf16"), head_dims=(), causal=(False, True),
                   softcap: bool = False, padded: bool = False,
                   matmul: bool = True, lse: bool = False, backward: bool = False,
                   packed: bool = False) -> list:
    """The kernels torch.ops.ws needs for a model of these element types:
    every member of the matmul family (the autotuner times them all
    unless WS_TUNE_CONFIGS bounds it) when `matmul`, and the attention
    members of each head dimension, mask in `causal`, with the soft cap
    when `softcap`, with key bounds as well when `padded`, packed batches
    (seq_start) as well when `packed`, and with the log-sum-exp output as
    well (torch.ops.ws.attention_lse) when `lse`; `backward` (training)
    adds the log-sum-exp members and the backward's (attention_bwd.mlir's
    three kernels a member)."""
    lse = lse or backward
    needs = []
    for dtype in dtypes:
        if dtype not in ("f16", "bf16"):
            raise ValueError("ws: the element type is f16 or bf16 (got %r)" % (dtype,))
        if matmul:
            for config in MATMUL_CONFIGS:
                fields = tuple(sorted((k, v) for k, v in config.items() if k != "kernel"))
                needs.append(Need("matmul.mlir", dtype, fields, config["kernel"]))
        for dim in head_dims:
            if dim not in ATTENTION_HEAD_DIMS:
                raise ValueError("ws: the attention head dimension is one of %s (got %r)"
                                 % (", ".join(map(str, ATTENTION_HEAD_DIMS)), dim))
            forms = mask_forms(causal, padded, packed)
            for (c, bounded, pk), with_lse in itertools.product(
                    forms, (False, True) if lse else (False,)):
                config = attention_config(dim, softcap=softcap, causal=c, bounded=bounded,
                                          lse=with_lse, packed=pk)
                needs.append(Need("attention.mlir", dtype, tuple(sorted(config.items())),
                                  "attention"))
            if backward:
                if dim not in ATTENTION_BWD_HEAD_DIMS:
                    raise ValueError(backward_head_dim_error(dim))
                for c, bounded, pk in forms:
                    config = attention_bwd_config(dim, softcap=softcap, causal=c,
                                                  bounded=bounded, packed=pk)
                    needs.append(Need("attention_bwd.mlir", dtype, tuple(sorted(config.items())),
                                      "attention_{delta,dkdv,dq}"))
    return needs


def compile_all() -> int:
    """Compiles every member torch.ops.ws can run into the cache; returns
    how many kernels there are."""
    count = 0
    for dtype in ("f16", "bf16"):
        count += sum(1 for c in matmul_family(dtype).candidates() if c.kernel)
        for dim in ATTENTION_HEAD_DIMS:
            forms = mask_forms(padded=True, packed=True)
            for softcap, lse, (causal, bounded, packed) in itertools.product(
                    (False, True), (False, True), forms):
                attention_kernel(dim, dtype, softcap=softcap, causal=causal, bounded=bounded,
                                 lse=lse, packed=packed)
                count += 1
            if dim not in ATTENTION_BWD_HEAD_DIMS:
                continue
            for softcap, (causal, bounded, packed) in itertools.product((False, True), forms):
                attention_bwd_kernels(dim, dtype, softcap=softcap, causal=causal, bounded=bounded,
                                      packed=packed)
                count += 3
    return count


def main() -> int:
    """python -m ws families (or python -m ws.families)."""
    print("ws: %d kernels of the shipped families compiled (or cached)" % compile_all())
    return 0


if __name__ == "__main__":
    sys.exit(main())
