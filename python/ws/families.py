# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The kernel families the package ships (ws/kernels) as torch.ops.ws runs
them: the matmul family tuned over MATMUL_CONFIGS, and one attention kernel
per head dimension, element type and mask. No torch needed to compile
them: ``python -m ws families`` compiles every member into the cache, for
a GPU machine without MLIR."""

import functools
import sys

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
ATTENTION_HEAD_DIMS = (64, 128)
ATTENTION_BLOCK = 128  # query rows per block


def tile_grid(config, a, b, c, m, n, k):
    """The grid of matmul.mlir's @matmul_tiled: a block per C tile."""
    return (-(-m // config["BM"]), -(-n // config["BN"]), 1)


def tile_count(config, a, b, c, m, n, k):
    """The C tiles matmul.mlir's persistent @matmul runs: its tile loop's
    bound, for ws.autotune's tiles= (the balanced grid)."""
    x, y, _ = tile_grid(config, a, b, c, m, n, k)
    return x * y


@functools.lru_cache(maxsize=None)
def matmul_family(dtype: str):
    """The tuned matmul family of one element type ("f16" or "bf16")."""
    return autotune(Template(kernel_source("matmul.mlir"), defaults={"DTYPE": dtype}),
                    MATMUL_CONFIGS, grid=tile_grid, tiles=tile_count, chip="sm_90a")


@functools.lru_cache(maxsize=None)
def attention_kernel(head_dim: int, dtype: str, causal: bool):
    """The attention kernel for one head dimension, element type and mask."""
    family = Template(kernel_source("attention_causal.mlir" if causal else "attention.mlir"))
    return family.compile({"D": head_dim, "DTYPE": dtype}, chip="sm_90a").attention


def compile_all() -> int:
    """Compiles every member torch.ops.ws can run into the cache; returns
    how many kernels there are."""
    count = 0
    for dtype in ("f16", "bf16"):
        count += sum(1 for c in matmul_family(dtype).candidates() if c.kernel)
        for dim in ATTENTION_HEAD_DIMS:
            for causal in (False, True):
                attention_kernel(dim, dtype, causal)
                count += 1
    return count


def main() -> int:
    """python -m ws families (or python -m ws.families)."""
    print("ws: %d kernels of the shipped families compiled (or cached)" % compile_all())
    return 0


if __name__ == "__main__":
    sys.exit(main())
