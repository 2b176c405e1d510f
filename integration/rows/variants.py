#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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
    ("softmax_bf16_1024", "softmax", "bf16", 4, 1024, 4),
    ("softmax_bf16_4096", "softmax", "bf16", 1, 4096, 4),
    ("softmax_bf16_8192", "softmax", "bf16", 1, 8192, 8),
    ("rmsnorm_f32_256", "rmsnorm", "f32", 8, 256, 4),
    ("rmsnorm_f16_2048", "rmsnorm", "f16", 2, 2048, 8),
    ("rmsnorm_bf16_1024", "rmsnorm", "bf16", 4, 1024, 4),
    ("rmsnorm_bf16_4096", "rmsnorm", "bf16", 1, 4096, 4),
    ("rmsnorm_bf16_8192", "rmsnorm", "bf16", 1, 8192, 8),
    ("layernorm_f32_128", "layernorm", "f32", 16, 128, 4),
    ("layernorm_f32_1024", "layernorm", "f32", 4, 1024, 8),
    ("layernorm_f16_2048", "layernorm", "f16", 2, 2048, 8),
    ("layernorm_bf16_1024", "layernorm", "bf16", 4, 1024, 4),
    ("layernorm_bf16_4096", "layernorm", "bf16", 1, 4096, 4),
    ("layernorm_bf16_8192", "layernorm", "bf16", 1, 8192, 8),
    ("add_rmsnorm_f32_512", "add_rmsnorm", "f32", 4, 512, 4),
    ("add_rmsnorm_f16_2048", "add_rmsnorm", "f16", 2, 2048, 8),
    ("add_rmsnorm_bf16_1024", "add_rmsnorm", "bf16", 4, 1024, 4),
    ("add_rmsnorm_bf16_4096", "add_rmsnorm", "bf16", 1, 4096, 4),
    ("add_rmsnorm_bf16_8192", "add_rmsnorm", "bf16", 1, 8192, 8),
]
# over a row's chunks (CHUNKED): the last number but one is the chunk's
# width C; the row length N is an argument
CHUNK_VARIANTS = [
    ("cross_entropy_f32_2048", "cross_entropy", "f32", 1, 2048, 4),
    ("cross_entropy_f16_1024", "cross_entropy", "f16", 4, 1024, 8),
    ("cross_entropy_bf16_4096", "cross_entropy", "bf16", 1, 4096, 4),
    ("cross_entropy_bf16_2048", "cross_entropy", "bf16", 2, 2048, 4),
    ("softmax_chunks_f32_1024", "softmax", "f32", 2, 1024, 4),
    ("softmax_chunks_bf16_4096", "softmax", "bf16", 1, 4096, 4),
    ("rmsnorm_chunks_f16_2048", "rmsnorm", "f16", 2, 2048, 8),
    ("rmsnorm_chunks_bf16_2048", "rmsnorm", "bf16", 1, 2048, 4),
    ("layernorm_chunks_f32_512", "layernorm", "f32", 4, 512, 4),
    ("layernorm_chunks_bf16_2048", "layernorm", "bf16", 1, 2048, 4),
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
}
# the kinds over a row's chunks: N instead of M (a block per R rows)
CHUNK_ARGS = {
    "softmax": [("x", "tile"), ("y", "tile"), ("n", "n")],
    "rmsnorm": [("x", "tile"), ("w", "row"), ("y", "tile"), ("n", "n"), ("eps", "eps")],
    "layernorm": [("x", "tile"), ("w", "row"), ("b", "row"), ("y", "tile"), ("mean", "stat"),
                  ("rstd", "stat"), ("n", "n"), ("eps", "eps")],
    "cross_entropy": [("x", "tile"), ("labels", "label"), ("loss", "stat"), ("lse", "stat"),
                      ("n", "n"), ("ignore", "ignore")],
}
DESCS = ("tile", "row", "stat", "label")  # the arguments that are descriptors


def arg_types(t, rows, n):
    """Each argument kind's type for R x N tiles of element type t."""
    return {"tile": f"!ws.tensor_desc<tensor<{rows}x{n}x{t}>>",
            "row": f"!ws.tensor_desc<tensor<1x{n}x{t}>>",
            "stat": f"!ws.tensor_desc<tensor<1x{rows}xf32>>",
            "label": f"!ws.tensor_desc<tensor<1x{rows}xi32>>",
            "m": "i32", "n": "i32", "eps": "f32", "ignore": "i32"}


class Body:
    """The loop body of an R x N kernel over element type t, line by line."""

    def __init__(self, t, rows, n, indent="        "):
        self.t, self.rows, self.n, self.indent = t, rows, n, indent
        self.f = f"tensor<{rows}x{n}xf32>"
        self.row = f"tensor<1x{rows}xf32>"
        self.lines = []
        self.names = {}  # the f32 form of each weight or bias row

    def add(self, text):
        self.lines.append(self.indent + text)

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


def valid_columns(b):
    """%valid: which columns of the chunk at %c lie inside the row (< %n)."""
    i = f"tensor<{b.rows}x{b.n}xi32>"
    b.add(f'%io = "ws.iota"() {{axis = 1 : i32}} : () -> {i}')
    b.add(f"%cs = tensor.splat %c : {i}")
    b.add(f"%col = arith.addi %io, %cs : {i}")
    b.add(f"%ns = tensor.splat %n : {i}")
    b.add(f"%valid = arith.cmpi slt, %col, %ns : {i}")
    return "%valid"


def online_logsumexp(b, x):
    """One chunk of an online logsumexp over the carried %m and %s: the
    chunk's max (columns past the row masked to -inf) raises the running
    max to %mn, and %sn = %s exp(%m - %mn) + the chunk's sum of
    exp(x - %mn). Returns the masked chunk's name."""
    valid = valid_columns(b)
    b.add(f"%ninft = arith.constant dense<0xFF800000> : {b.f}")
    b.add(f"%xm = arith.select {valid}, {x}, %ninft : tensor<{b.rows}x{b.n}xi1>, {b.f}")
    b.reduce("%cm", "%xm", "max")
    b.add(f"%mn = arith.maximumf %m, %cm : {b.row}")
    b.add(f"%l2er = arith.constant dense<{LOG2E}> : {b.row}")
    b.add(f"%dm = arith.subf %m, %mn : {b.row}")
    b.add(f"%dml = arith.mulf %dm, %l2er : {b.row}")
    b.add(f"%alpha = math.exp2 %dml fastmath<afn> : {b.row}")
    b.reduce("%es", b.exp_shifted("%xm", "%mn"), "sum")
    b.add(f"%sa = arith.mulf %s, %alpha : {b.row}")
    b.add(f"%sn = arith.addf %sa, %es : {b.row}")
    return "%xm"


def scalar_row(b, dst, value):
    """dst = a row vector of f32 scalar `value` (an SSA name)."""
    b.add(f"{dst} = tensor.splat {value} : {b.row}")
    return dst


def row_length(b):
    """%nv = N (an f32 row vector), N the row length argument %n."""
    b.add("%nf = arith.sitofp %n : i32 to f32")
    return scalar_row(b, "%nv", "%nf")


def chunk_rows(b, what):
    """The chunk at %c of each 1 x N row argument (a weight, a bias) in
    `what`, loaded in the second pass and widened; their f32 names."""
    rt = f"tensor<1x{b.n}x{b.t}>"
    names = []
    for a in what:
        b.add(f'%p_{a} = "ws.load"(%{a}_desc, %c0, %c) : (!ws.tensor_desc<{rt}>, i32, i32) -> {rt}')
        names.append(b.widen(f"%p_{a}", f"%{a}f", (1, b.n)))
    return names


# A kind over a row's chunks: the row vectors the first loop carries (with
# their initial value), its chunk's math (ending in the yield), the math
# after it (on %res#i), the second pass's chunk math (None: no second
# pass; it returns the tiles it stores by name) and the row vectors stored.
def softmax_first(b):
    online_logsumexp(b, b.widen("%t_x", "%x"))
    b.add(f"scf.yield %mn, %sn : {b.row}, {b.row}")


def softmax_after(b):
    b.add(f"%one = arith.constant dense<1.0> : {b.row}")
    b.add(f"%inv = arith.divf %one, %res#1 : {b.row}")
    return {}


def softmax_second(b):
    e = b.exp_shifted(b.widen("%t_x", "%x"), "%res#0")
    b.spread_rows("%ib", "%inv")
    b.add(f"%yf = arith.mulf {e}, %ib : {b.f}")
    return {"y": b.narrow("%yf", "%y")}


def rmsnorm_first(b):
    x = b.widen("%t_x", "%x")  # columns past the row read as zeros: no mask
    b.add(f"%sq = arith.mulf {x}, {x} : {b.f}")
    b.reduce("%q", "%sq", "sum")
    b.add(f"%ssn = arith.addf %ss, %q : {b.row}")
    b.add(f"scf.yield %ssn : {b.row}")


def rmsnorm_after(b):
    b.add(f"%ms = arith.divf %res#0, {row_length(b)} : {b.row}")
    b.rstd("%rs", "%ms")
    return {}


def rmsnorm_second(b):
    x = b.widen("%t_x", "%x")
    (w,) = chunk_rows(b, ["w"])
    b.spread_rows("%rb", "%rs")
    b.spread_cols("%wb", w)
    b.add(f"%xn = arith.mulf {x}, %rb : {b.f}")
    b.add(f"%yf = arith.mulf %xn, %wb : {b.f}")
    return {"y": b.narrow("%yf", "%y")}


def layernorm_first(b):
    """Chan's merge of the chunk's mean and M2 (its own two passes over the
    chunk in registers) into the running %mu and %m2: stable, and exact in
    the count, which is the chunk's start %c for every row."""
    x = b.widen("%t_x", "%x")
    b.add("%rest = arith.subi %n, %c : i32")
    b.add("%nbi = arith.minsi %cc, %rest : i32")
    b.add("%nb = arith.sitofp %nbi : i32 to f32")
    b.add("%na = arith.sitofp %c : i32 to f32")
    b.add("%nn = arith.addf %na, %nb : f32")
    b.add("%fb = arith.divf %nb, %nn : f32")
    b.reduce("%sx", x, "sum")  # columns past the row read as zeros
    b.add(f"%mb = arith.divf %sx, {scalar_row(b, '%nbv', '%nb')} : {b.row}")
    b.spread_rows("%mbb", "%mb")
    b.add(f"%d = arith.subf {x}, %mbb : {b.f}")
    b.add(f"%zt = arith.constant dense<0.0> : {b.f}")
    b.add(f"%dv = arith.select {valid_columns(b)}, %d, %zt : tensor<{b.rows}x{b.n}xi1>, {b.f}")
    b.add(f"%d2 = arith.mulf %dv, %dv : {b.f}")
    b.reduce("%m2b", "%d2", "sum")
    b.add(f"%delta = arith.subf %mb, %mu : {b.row}")
    b.add(f"%dfb = arith.mulf %delta, {scalar_row(b, '%fbv', '%fb')} : {b.row}")
    b.add(f"%mun = arith.addf %mu, %dfb : {b.row}")
    b.add(f"%dd = arith.mulf %delta, %dfb : {b.row}")
    b.add(f"%ddn = arith.mulf %dd, {scalar_row(b, '%nav', '%na')} : {b.row}")
    b.add(f"%m2s = arith.addf %m2, %m2b : {b.row}")
    b.add(f"%m2n = arith.addf %m2s, %ddn : {b.row}")
    b.add(f"scf.yield %mun, %m2n : {b.row}, {b.row}")


def layernorm_after(b):
    b.add(f"%var = arith.divf %res#1, {row_length(b)} : {b.row}")
    b.rstd("%rs", "%var")
    return {"mean": "%res#0", "rstd": "%rs"}


def layernorm_second(b):
    x = b.widen("%t_x", "%x")
    w, bias = chunk_rows(b, ["w", "b"])
    b.spread_rows("%mub", "%res#0")
    b.add(f"%d = arith.subf {x}, %mub : {b.f}")
    b.spread_rows("%rb", "%rs")
    b.spread_cols("%wb", w)
    b.spread_cols("%bb", bias)
    b.add(f"%xn = arith.mulf %d, %rb : {b.f}")
    b.add(f"%xw = arith.mulf %xn, %wb : {b.f}")
    b.add(f"%yf = arith.addf %xw, %bb : {b.f}")
    return {"y": b.narrow("%yf", "%y")}


def cross_entropy_first(b):
    """The online logsumexp and the label's logit (%xl, the sum over the
    chunk of the logit where the column is the row's label)."""
    x = b.widen("%t_x", "%x")
    online_logsumexp(b, x)
    i = f"tensor<{b.rows}x{b.n}xi32>"
    b.add(f'%lb = "ws.broadcast"(%lab) {{axis = 0 : i32}} : (tensor<1x{b.rows}xi32>) -> {i}')
    b.add(f"%hit = arith.cmpi eq, %col, %lb : {i}")
    b.add(f"%zt = arith.constant dense<0.0> : {b.f}")
    b.add(f"%pick = arith.select %hit, {x}, %zt : tensor<{b.rows}x{b.n}xi1>, {b.f}")
    b.reduce("%ps", "%pick", "sum")
    b.add(f"%xln = arith.addf %xl, %ps : {b.row}")
    b.add(f"scf.yield %mn, %sn, %xln : {b.row}, {b.row}, {b.row}")


def cross_entropy_after(b):
    b.add(f"%ls = math.log %res#1 : {b.row}")
    b.add(f"%lse = arith.addf %res#0, %ls : {b.row}")
    b.add(f"%loss0 = arith.subf %lse, %res#2 : {b.row}")
    b.add(f"%is = tensor.splat %ignore : tensor<1x{b.rows}xi32>")
    b.add(f"%ign = arith.cmpi eq, %lab, %is : tensor<1x{b.rows}xi32>")
    b.add(f"%zero = arith.constant dense<0.0> : {b.row}")
    b.add(f"%loss = arith.select %ign, %zero, %loss0 : tensor<1x{b.rows}xi1>, {b.row}")
    return {"loss": "%loss", "lse": "%lse"}


CHUNKED = {
    "softmax": ([("%m", "0xFF800000"), ("%s", "0.0")], softmax_first, softmax_after,
                softmax_second),
    "rmsnorm": ([("%ss", "0.0")], rmsnorm_first, rmsnorm_after, rmsnorm_second),
    "layernorm": ([("%mu", "0.0"), ("%m2", "0.0")], layernorm_first, layernorm_after,
                  layernorm_second),
    "cross_entropy": ([("%m", "0xFF800000"), ("%s", "0.0"), ("%xl", "0.0")],
                      cross_entropy_first, cross_entropy_after, None),
}


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


def chunked_kernel(kind, t, rows, c, warps):
    """The kernel text of a kind over a row's chunks (see the module
    comment): one block per R rows, a loop over the row's R x C chunks
    carrying row vectors, math on them, a second pass over the chunks
    where the kind needs one, the row vectors stored."""
    carried, first, after, second = CHUNKED[kind]
    tile, types = f"tensor<{rows}x{c}x{t}>", arg_types(t, rows, c)
    params = ",\n        ".join(f"%{a}{'_desc' if w in DESCS else ''}: {types[w]}"
                                for a, w in CHUNK_ARGS[kind])
    load = f'%t_x = "ws.load"(%x_desc, %r0, %c) : ({types["tile"]}, i32, i32) -> {tile}'
    b1, b2, e = Body(t, rows, c), Body(t, rows, c), Body(t, rows, c, "      ")
    b1.add(load)
    first(b1)
    stats = after(e)
    row = b1.row
    inits = ", ".join(f"{name} = %i{k}" for k, (name, _) in enumerate(carried))
    text = [f"      %b = arith.index_cast %bid : index to i32",
            "      %c0 = arith.constant 0 : i32",
            f"      %cr = arith.constant {rows} : i32",
            f"      %cc = arith.constant {c} : i32",
            "      %r0 = arith.muli %b, %cr : i32"]
    if any(w == "label" for _, w in CHUNK_ARGS[kind]):
        text.append(f'      %lab = "ws.load"(%labels_desc, %c0, %r0) : ({types["label"]}, i32, i32) '
                    f"-> tensor<1x{rows}xi32>")
    text += [f"      %i{k} = arith.constant dense<{v}> : {row}" for k, (_, v) in enumerate(carried)]
    text += [f"      %res:{len(carried)} = scf.for %c = %c0 to %n step %cc iter_args({inits})",
             f"          -> ({', '.join([row] * len(carried))}) : i32 {{"]
    text += b1.lines + ["      } {ws.warp_specialize}"] + e.lines
    if second:
        b2.add(load)
        out = second(b2)
        b2.add(f'"ws.store"(%y_desc, %r0, %c, {out["y"]}) : ({types["tile"]}, i32, i32, {tile}) -> ()')
        text += ["      scf.for %c = %c0 to %n step %cc : i32 {"] + b2.lines + ["      }"]
    for a, w in CHUNK_ARGS[kind]:
        if w == "stat":
            text.append(f'      "ws.store"(%{a}_desc, %c0, %r0, {stats[a]}) : ({types[w]}, i32, i32, '
                        f"{row}) -> ()")
    return module(kind, params, warps, "\n".join(text) + "\n")


BODIES = {"softmax": softmax_body, "rmsnorm": rmsnorm_body, "layernorm": layernorm_body,
          "add_rmsnorm": add_rmsnorm_body}


def kernel(kind, t, rows, n, warps):
    """The kernel text (see the module comment)."""
    types = arg_types(t, rows, n)
    params = ", ".join(f"%{a}{'_desc' if w in DESCS else ''}: {types[w]}"
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
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        sys.exit("usage: variants.py OUTDIR (writes every row-kernel variant and a manifest there)")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "manifest"), "w") as manifest:
        for form, variants, make in (("blocks", VARIANTS, kernel),
                                     ("chunks", CHUNK_VARIANTS, chunked_kernel)):
            for name, kind, t, rows, n, warps in variants:
                with open(os.path.join(out, name + ".mlir"), "w") as f:
                    f.write(make(kind, t, rows, n, warps))
                manifest.write(f"{name} {kind} {TORCH[t]} {rows} {n} {form}\n")


if __name__ == "__main__":
    main()
