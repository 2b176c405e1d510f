#!/usr/bin/env python3
"""Writes the row-kernel integration variants as .mlir files, plus a
manifest line per variant: name kind dtype rows_per_block row_length.

Each kernel loops over blocks of R rows of an M x N tensor, from its block
index in steps of the grid (so the load warp streams the next row blocks
while the compute warps reduce this one); a row block past M is clipped by
TMA (zeros in, nothing stored). A row wider than a TMA box (256 elements) is
moved as several boxes side by side. The math is f32 whatever the tensors'
type. The kinds (ARGS lists each one's arguments, in order):

softmax: y = softmax(x) along each row (the row's max subtracted before
  exp2 of the scaled difference, the sum's reciprocal applied once per row).
rmsnorm: y = x * rsqrt(mean(x^2) + eps) * w, w a 1 x N weight loaded once
  per block (before the loop) and spread over the rows.
layernorm: y = (x - mean) * rstd * w + b, rstd = rsqrt(var + eps), the
  variance the mean of (x - mean)^2 (two passes over the row in registers:
  stable); mean and rstd (f32, one per row) are stored too.
add_rmsnorm: h = x + r (rounded to the tensors' type, as torch's add), and
  y = rmsnorm(h) * w; both h and y are stored.
cross_entropy: a row of logits of any length N (a kernel argument, the
  vocabulary) read in R x C chunks by a loop that carries three row
  vectors: the running max m, the sum s of exp(x - m) (rescaled by
  exp(m_old - m) when the max grows: an online logsumexp) and the logit of
  the row's label (an i32 per row, read before the loop; the chunk's
  columns compared with it). Columns past N are masked to -inf. After the
  loop: lse = m + log(s) and loss = lse - x[label], 0 where the label is
  the ignore index (a kernel argument); both stored as f32 per row. One
  block per R rows (the grid is ceil(M / R)); the row stride must be a
  multiple of 16 bytes (TMA's rule: pad the logits' rows, see the docs).

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
    ("rmsnorm_f32_256", "rmsnorm", "f32", 8, 256, 4),
    ("rmsnorm_f16_2048", "rmsnorm", "f16", 2, 2048, 8),
    ("rmsnorm_bf16_1024", "rmsnorm", "bf16", 8, 1024, 8),
    ("rmsnorm_bf16_4096", "rmsnorm", "bf16", 2, 4096, 8),
    ("rmsnorm_bf16_8192", "rmsnorm", "bf16", 1, 8192, 8),
    ("layernorm_f32_128", "layernorm", "f32", 16, 128, 4),
    ("layernorm_f32_1024", "layernorm", "f32", 4, 1024, 8),
    ("layernorm_f16_2048", "layernorm", "f16", 2, 2048, 8),
    ("layernorm_bf16_1024", "layernorm", "bf16", 8, 1024, 8),
    ("layernorm_bf16_4096", "layernorm", "bf16", 2, 4096, 8),
    ("layernorm_bf16_8192", "layernorm", "bf16", 1, 8192, 8),
    ("add_rmsnorm_f32_512", "add_rmsnorm", "f32", 4, 512, 4),
    ("add_rmsnorm_f16_2048", "add_rmsnorm", "f16", 2, 2048, 8),
    ("add_rmsnorm_bf16_1024", "add_rmsnorm", "bf16", 8, 1024, 8),
    ("add_rmsnorm_bf16_4096", "add_rmsnorm", "bf16", 2, 4096, 8),
    ("add_rmsnorm_bf16_8192", "add_rmsnorm", "bf16", 1, 8192, 8),
    # cross-entropy: the row length is the chunk's width C (N is an argument)
    ("cross_entropy_f32_2048", "cross_entropy", "f32", 1, 2048, 4),
    ("cross_entropy_f16_1024", "cross_entropy", "f16", 4, 1024, 8),
    ("cross_entropy_bf16_4096", "cross_entropy", "bf16", 1, 4096, 4),
    ("cross_entropy_bf16_2048", "cross_entropy", "bf16", 2, 2048, 4),
]
TORCH = {"f32": "float32", "f16": "float16", "bf16": "bfloat16"}
LOG2E = "1.44269504"
# each kind's arguments: (name, what) with what "tile" (R x N of the
# tensors' type), "row" (a 1 x N weight or bias of that type), "stat" (an
# f32 value per row: a 1 x R box of the M values viewed as 1 x M), "m"
# (the row count, i32), "eps" (f32), "label" (an i32 per row: a 1 x R box of
# the M labels viewed as 1 x M), "n" (the row length, i32) or "ignore" (the
# ignore index, i32)
ARGS = {
    "softmax": [("x", "tile"), ("y", "tile"), ("m", "m")],
    "rmsnorm": [("x", "tile"), ("w", "row"), ("y", "tile"), ("m", "m"), ("eps", "eps")],
    "layernorm": [("x", "tile"), ("w", "row"), ("b", "row"), ("y", "tile"), ("mean", "stat"),
                  ("rstd", "stat"), ("m", "m"), ("eps", "eps")],
    "add_rmsnorm": [("x", "tile"), ("r", "tile"), ("w", "row"), ("h", "tile"), ("y", "tile"),
                    ("m", "m"), ("eps", "eps")],
    "cross_entropy": [("x", "tile"), ("labels", "label"), ("loss", "stat"), ("lse", "stat"),
                      ("n", "n"), ("ignore", "ignore")],
}
CHUNKED = ("cross_entropy",)  # kinds whose loop runs over a row's chunks


class Body:
    """The loop body of an R x N kernel over element type t, line by line."""

    def __init__(self, t, rows, n):
        self.t, self.rows, self.n = t, rows, n
        self.f = f"tensor<{rows}x{n}xf32>"
        self.row = f"tensor<1x{rows}xf32>"
        self.lines = []
        self.names = {}  # the f32 form of each weight or bias row

    def add(self, text):
        self.lines.append("        " + text)

    def widen(self, src, dst, shape=None):
        """dst = src as f32 (src itself for f32 tensors); returns dst's name."""
        shape = shape or (self.rows, self.n)
        if self.t == "f32":
            return src
        a, b = f"tensor<{shape[0]}x{shape[1]}x{self.t}>", f"tensor<{shape[0]}x{shape[1]}xf32>"
        self.add(f"{dst} = arith.extf {src} : {a} to {b}")
        return dst

    def narrow(self, src, dst):
        """dst = src in the tensors' type; returns the name holding it."""
        if self.t == "f32":
            return src
        self.add(f"{dst} = arith.truncf {src} : {self.f} to tensor<{self.rows}x{self.n}x{self.t}>")
        return dst

    def reduce(self, dst, src, kind):
        self.add(f'{dst} = "ws.reduce"({src}) {{kind = "{kind}", axis = 1 : i32}} : '
                 f"({self.f}) -> {self.row}")

    def spread_rows(self, dst, src):
        self.add(f'{dst} = "ws.broadcast"({src}) {{axis = 0 : i32}} : ({self.row}) -> {self.f}')

    def spread_cols(self, dst, src):
        self.add(f'{dst} = "ws.broadcast"({src}) {{axis = 1 : i32}} : '
                 f"(tensor<1x{self.n}xf32>) -> {self.f}")

    def exp_shifted(self, x, m):
        """%e = exp(x - m) of tile x and row vector m (exp2 of the scaled
        difference, the chip's ex2.approx.ftz); returns "%e"."""
        self.spread_rows("%mb", m)
        self.add(f"%d = arith.subf {x}, %mb : {self.f}")
        self.add(f"%l2e = arith.constant dense<{LOG2E}> : {self.f}")
        self.add(f"%dl = arith.mulf %d, %l2e : {self.f}")
        self.add(f"%e = math.exp2 %dl fastmath<afn> : {self.f}")
        return "%e"

    def mean(self, dst, src):
        """dst (a row vector) = the mean of each row of src."""
        self.reduce(dst + "s", src, "sum")
        self.add(f"{dst}n = arith.constant dense<{1.0 / self.n!r}> : {self.row}")
        self.add(f"{dst} = arith.mulf {dst}s, {dst}n : {self.row}")

    def rstd(self, dst, var):
        """dst = rsqrt(var + eps), eps the kernel's argument."""
        self.add(f"{dst}e = tensor.splat %eps : {self.row}")
        self.add(f"{dst}v = arith.addf {var}, {dst}e : {self.row}")
        self.add(f"{dst} = math.rsqrt {dst}v : {self.row}")


def softmax_body(b):
    x = b.widen("%t_x", "%x")
    b.reduce("%mx", x, "max")
    b.reduce("%s", b.exp_shifted(x, "%mx"), "sum")
    b.add(f"%one = arith.constant dense<1.0> : {b.row}")
    b.add(f"%inv = arith.divf %one, %s : {b.row}")
    b.spread_rows("%ib", "%inv")
    b.add(f"%yf = arith.mulf %e, %ib : {b.f}")
    return {"y": b.narrow("%yf", "%y")}


def rms_scale(b, x, w):
    """x * rsqrt(mean(x^2) + eps) * w (the weight spread over the rows)."""
    b.add(f"%sq = arith.mulf {x}, {x} : {b.f}")
    b.mean("%ms", "%sq")
    b.rstd("%rs", "%ms")
    b.spread_rows("%rb", "%rs")
    b.spread_cols("%wb", w)
    b.add(f"%xn = arith.mulf {x}, %rb : {b.f}")
    b.add(f"%yf = arith.mulf %xn, %wb : {b.f}")
    return b.narrow("%yf", "%y")


def rmsnorm_body(b):
    return {"y": rms_scale(b, b.widen("%t_x", "%x"), b.names["w"])}


def layernorm_body(b):
    x = b.widen("%t_x", "%x")
    b.mean("%mu", x)
    b.spread_rows("%mub", "%mu")
    b.add(f"%d = arith.subf {x}, %mub : {b.f}")
    b.add(f"%d2 = arith.mulf %d, %d : {b.f}")
    b.mean("%var", "%d2")
    b.rstd("%rs", "%var")
    b.spread_rows("%rb", "%rs")
    b.spread_cols("%wb", b.names["w"])
    b.spread_cols("%bb", b.names["b"])
    b.add(f"%xn = arith.mulf %d, %rb : {b.f}")
    b.add(f"%xw = arith.mulf %xn, %wb : {b.f}")
    b.add(f"%yf = arith.addf %xw, %bb : {b.f}")
    return {"y": b.narrow("%yf", "%y"), "mean": "%mu", "rstd": "%rs"}


def add_rmsnorm_body(b):
    x, r = b.widen("%t_x", "%x"), b.widen("%t_r", "%r")
    b.add(f"%hf = arith.addf {x}, {r} : {b.f}")
    h = b.narrow("%hf", "%h")
    return {"h": h, "y": rms_scale(b, b.widen(h, "%hw"), b.names["w"])}


def cross_entropy_body(b):
    """One chunk of the online logsumexp and the label's logit (see the
    module comment); the loop carries %m, %s, %xl."""
    x = b.widen("%t_x", "%x")
    i = f"tensor<{b.rows}x{b.n}xi32>"
    b.add(f'%io = "ws.iota"() {{axis = 1 : i32}} : () -> {i}')
    b.add(f"%cs = tensor.splat %c : {i}")
    b.add(f"%col = arith.addi %io, %cs : {i}")
    b.add(f"%ns = tensor.splat %n : {i}")
    b.add(f"%valid = arith.cmpi slt, %col, %ns : {i}")
    b.add(f"%ninft = arith.constant dense<0xFF800000> : {b.f}")
    b.add(f"%xm = arith.select %valid, {x}, %ninft : tensor<{b.rows}x{b.n}xi1>, {b.f}")
    b.reduce("%cm", "%xm", "max")
    b.add(f"%mn = arith.maximumf %m, %cm : {b.row}")
    b.add(f"%l2er = arith.constant dense<{LOG2E}> : {b.row}")
    b.add(f"%dm = arith.subf %m, %mn : {b.row}")
    b.add(f"%dml = arith.mulf %dm, %l2er : {b.row}")
    b.add(f"%alpha = math.exp2 %dml fastmath<afn> : {b.row}")
    b.reduce("%es", b.exp_shifted("%xm", "%mn"), "sum")
    b.add(f"%sa = arith.mulf %s, %alpha : {b.row}")
    b.add(f"%sn = arith.addf %sa, %es : {b.row}")
    b.add(f'%lb = "ws.broadcast"(%lab) {{axis = 0 : i32}} : (tensor<1x{b.rows}xi32>) -> {i}')
    b.add(f"%hit = arith.cmpi eq, %col, %lb : {i}")
    b.add(f"%zt = arith.constant dense<0.0> : {b.f}")
    b.add(f"%pick = arith.select %hit, {x}, %zt : tensor<{b.rows}x{b.n}xi1>, {b.f}")
    b.reduce("%ps", "%pick", "sum")
    b.add(f"%xln = arith.addf %xl, %ps : {b.row}")
    b.add(f"scf.yield %mn, %sn, %xln : {b.row}, {b.row}, {b.row}")


def module(name, params, warps, body):
    """A module of one kernel @name(params) on sm_90a with `warps` compute
    warps: %bid (its block index), then `body` (lines ending in newlines)."""
    return f"""module attributes {{gpu.container_module}} {{
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {{
    gpu.func @{name}({params}) kernel
        attributes {{ws.num_warps = {warps} : i32}} {{
      %bid = gpu.block_id x
{body}      gpu.return
    }}
  }}
}}
"""


def cross_entropy_kernel(t, rows, c, warps):
    """The cross-entropy kernel text (see the module comment)."""
    b = Body(t, rows, c)
    tile, row = f"tensor<{rows}x{c}x{t}>", b.row
    b.add(f'%t_x = "ws.load"(%x_desc, %r0, %c) : (!ws.tensor_desc<{tile}>, i32, i32) -> {tile}')
    cross_entropy_body(b)
    body = "\n".join(b.lines)
    lab = f"!ws.tensor_desc<tensor<1x{rows}xi32>>"
    stat = f"!ws.tensor_desc<{row}>"
    params = (f"%x_desc: !ws.tensor_desc<{tile}>, %labels_desc: {lab},\n        "
              f"%loss_desc: {stat}, %lse_desc: {stat}, %n: i32, %ignore: i32")
    return module("cross_entropy", params, warps, f"""      %b = arith.index_cast %bid : index to i32
      %c0 = arith.constant 0 : i32
      %cr = arith.constant {rows} : i32
      %cc = arith.constant {c} : i32
      %r0 = arith.muli %b, %cr : i32
      %lab = "ws.load"(%labels_desc, %c0, %r0) : ({lab}, i32, i32) -> tensor<1x{rows}xi32>
      %ninf = arith.constant dense<0xFF800000> : {row}
      %zero = arith.constant dense<0.0> : {row}
      %res:3 = scf.for %c = %c0 to %n step %cc iter_args(%m = %ninf, %s = %zero, %xl = %zero)
          -> ({row}, {row}, {row}) : i32 {{
{body}
      }} {{ws.warp_specialize}}
      %ls = math.log %res#1 : {row}
      %lse = arith.addf %res#0, %ls : {row}
      %loss0 = arith.subf %lse, %res#2 : {row}
      %is = tensor.splat %ignore : tensor<1x{rows}xi32>
      %ign = arith.cmpi eq, %lab, %is : tensor<1x{rows}xi32>
      %loss = arith.select %ign, %zero, %loss0 : tensor<1x{rows}xi1>, {row}
      "ws.store"(%loss_desc, %c0, %r0, %loss) : ({stat}, i32, i32, {row}) -> ()
      "ws.store"(%lse_desc, %c0, %r0, %lse) : ({stat}, i32, i32, {row}) -> ()
""")


BODIES = {"softmax": softmax_body, "rmsnorm": rmsnorm_body, "layernorm": layernorm_body,
          "add_rmsnorm": add_rmsnorm_body}


def kernel(kind, t, rows, n, warps):
    """The kernel text (see the module comment)."""
    if kind == "cross_entropy":
        return cross_entropy_kernel(t, rows, n, warps)
    types = {"tile": f"!ws.tensor_desc<tensor<{rows}x{n}x{t}>>",
             "row": f"!ws.tensor_desc<tensor<1x{n}x{t}>>",
             "stat": f"!ws.tensor_desc<tensor<1x{rows}xf32>>", "m": "i32", "eps": "f32"}
    params = ", ".join(f"%{a}{'_desc' if w in ('tile', 'row', 'stat') else ''}: {types[w]}"
                       for a, w in ARGS[kind])
    b = Body(t, rows, n)
    tile = f"tensor<{rows}x{n}x{t}>"
    prologue = []
    for a, w in ARGS[kind]:
        if w == "tile" and a in ("x", "r"):
            b.add(f'%t_{a} = "ws.load"(%{a}_desc, %r0, %c0) : ({types[w]}, i32, i32) -> {tile}')
        if w == "row":  # once per block, before the loop; widened in it
            prologue.append(f'      %p_{a} = "ws.load"(%{a}_desc, %c0, %c0) : ({types[w]}, i32, i32) '
                            f"-> tensor<1x{n}x{t}>")
    for a, w in ARGS[kind]:
        if w == "row":
            b.names[a] = b.widen(f"%p_{a}", f"%{a}f", (1, n))
    out = BODIES[kind](b)
    for a, w in ARGS[kind]:
        if w == "tile" and a not in ("x", "r"):
            b.add(f'"ws.store"(%{a}_desc, %r0, %c0, {out[a]}) : ({types[w]}, i32, i32, {tile}) -> ()')
        if w == "stat":
            b.add(f'"ws.store"(%{a}_desc, %c0, %r0, {out[a]}) : ({types[w]}, i32, i32, {b.row}) -> ()')
    body = "\n".join(b.lines)
    pro = "\n".join(prologue) + ("\n" if prologue else "")
    return module(kind, params, warps, f"""      %grid = gpu.grid_dim x
      %b = arith.index_cast %bid : index to i32
      %g = arith.index_cast %grid : index to i32
      %c0 = arith.constant 0 : i32
      %cr = arith.constant {rows} : i32
      %first = arith.muli %b, %cr : i32
      %step = arith.muli %g, %cr : i32
{pro}      scf.for %r0 = %first to %m step %step : i32 {{
{body}
      }} {{ws.warp_specialize}}
""")


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
