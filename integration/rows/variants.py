#!/usr/bin/env python3
"""Writes the row-kernel integration variants as .mlir files, plus a
manifest line per variant: name kind dtype rows_per_block row_length.

softmax: y = softmax(x) along each row of an M x N tensor, in f32 (the row's
  max subtracted before exp2 of the scaled difference, the sum's reciprocal
  applied once per row). Each block loops over row blocks of R rows, from
  its block index in steps of the grid (so the load warp streams the next
  row blocks while the compute warps reduce this one); a row block past
  M is clipped by TMA (zeros in, nothing stored). A row wider than a TMA
  box (256 elements) is moved as several boxes side by side.

Usage: variants.py OUTDIR"""
import os
import sys

# name, kind, element type, rows per block (R), row length (N), compute warps
VARIANTS = [
    ("softmax_f32_128", "softmax", "f32", 16, 128, 4),
    ("softmax_f32_256", "softmax", "f32", 8, 256, 4),
    ("softmax_f32_1024", "softmax", "f32", 4, 1024, 8),
    ("softmax_f16_2048", "softmax", "f16", 2, 2048, 8),
    ("softmax_bf16_1024", "softmax", "bf16", 8, 1024, 8),
    ("softmax_bf16_4096", "softmax", "bf16", 2, 4096, 8),
    ("softmax_bf16_8192", "softmax", "bf16", 1, 8192, 8),
]
TORCH = {"f32": "float32", "f16": "float16", "bf16": "bfloat16"}
LOG2E = "1.44269504"


def softmax_body(t, rows, n):
    """The loop body: %t (the loaded R x N tile) to %out (its softmax, of the
    input's type)."""
    f = f"tensor<{rows}x{n}xf32>"
    row = f"tensor<1x{rows}xf32>"
    widen = f"        %x = arith.extf %t : tensor<{rows}x{n}x{t}> to {f}\n" if t != "f32" else ""
    x = "%x" if t != "f32" else "%t"
    narrow = f"        %out = arith.truncf %y : {f} to tensor<{rows}x{n}x{t}>\n" if t != "f32" else ""
    y = "%y" if t != "f32" else "%out"
    return f"""{widen}        %mx = "ws.reduce"({x}) {{kind = "max", axis = 1 : i32}} : ({f}) -> {row}
        %mb = "ws.broadcast"(%mx) {{axis = 0 : i32}} : ({row}) -> {f}
        %d = arith.subf {x}, %mb : {f}
        %l2e = arith.constant dense<{LOG2E}> : {f}
        %dl = arith.mulf %d, %l2e : {f}
        %e = math.exp2 %dl fastmath<afn> : {f}
        %s = "ws.reduce"(%e) {{kind = "sum", axis = 1 : i32}} : ({f}) -> {row}
        %one = arith.constant dense<1.0> : {row}
        %inv = arith.divf %one, %s : {row}
        %ib = "ws.broadcast"(%inv) {{axis = 0 : i32}} : ({row}) -> {f}
        {y} = arith.mulf %e, %ib : {f}
{narrow}"""


def kernel(kind, t, rows, n, warps):
    """The kernel text (see the module comment)."""
    desc = f"!ws.tensor_desc<tensor<{rows}x{n}x{t}>>"
    tile = f"tensor<{rows}x{n}x{t}>"
    body = softmax_body(t, rows, n)
    return f"""module attributes {{gpu.container_module}} {{
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {{
    gpu.func @{kind}(%x_desc: {desc}, %y_desc: {desc}, %m: i32) kernel
        attributes {{ws.num_warps = {warps} : i32}} {{
      %bid = gpu.block_id x
      %grid = gpu.grid_dim x
      %b = arith.index_cast %bid : index to i32
      %g = arith.index_cast %grid : index to i32
      %c0 = arith.constant 0 : i32
      %cr = arith.constant {rows} : i32
      %first = arith.muli %b, %cr : i32
      %step = arith.muli %g, %cr : i32
      scf.for %r = %first to %m step %step : i32 {{
        %t = "ws.load"(%x_desc, %r, %c0) : ({desc}, i32, i32) -> {tile}
{body}        "ws.store"(%y_desc, %r, %c0, %out) : ({desc}, i32, i32, {tile}) -> ()
      }} {{ws.warp_specialize}}
      gpu.return
    }}
  }}
}}
"""


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "manifest"), "w") as manifest:
        for name, kind, t, rows, n, warps in VARIANTS:
            with open(os.path.join(out, name + ".mlir"), "w") as f:
                f.write(kernel(kind, t, rows, n, warps))
            manifest.write(f"{name} {kind} {TORCH[t]} {rows} {n}\n")


if __name__ == "__main__":
    main()
