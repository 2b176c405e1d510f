# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""gen_long_body.py KIND N: the elementwise add of integration/add.mlir with
N more ops in its loop body, for the compile-time tests.

  unused  N adds of the loaded tiles that nothing reads
  chain   a chain of N adds, each of the one before (x = x + x)
  shared  a chain of N adds, each also reading the loaded B tile
  stores  N stores of the sum
  scalars N more i32 arguments (the kernel's parameters grow, its body not)
  descs   N more tensor descriptor arguments, each a 128-byte tensor map"""
import os
import sys

TILE = "tensor<32x64xf32>"
DESC = "!ws.tensor_desc<%s>" % TILE


def body(kind, n):
    lines, last = [], "%tc"
    for i in range(n):
        if kind == "unused":
            lines.append("%%u%d = arith.addf %%ta, %%tb : %s" % (i, TILE))
        elif kind in ("chain", "shared"):
            other = last if kind == "chain" else "%tb"
            lines.append("%%u%d = arith.addf %s, %s : %s" % (i, last, other, TILE))
            last = "%%u%d" % i
        elif kind == "stores":
            lines.append('"ws.store"(%%c, %%x, %%y, %%tc) : (%s, i32, i32, %s) -> ()' % (DESC, TILE))
    return lines, last


def main():
    kind, n = sys.argv[1], int(sys.argv[2])
    root = os.path.join(os.path.dirname(__file__), "..", "..")
    src = open(os.path.join(root, "integration", "add.mlir")).read()
    anchor = "        %%tc = arith.addf %%ta, %%tb : %s\n" % TILE
    if kind in ("scalars", "descs"):
        extra = "".join(", %%p%d: %s" % (i, "i32" if kind == "scalars" else DESC) for i in range(n))
        src = src.replace("%ynumel: i32)", "%ynumel: i32" + extra + ")", 1)
        sys.stdout.write(src)
        return
    lines, last = body(kind, n)
    src = src.replace(anchor, anchor + "".join("        %s\n" % l for l in lines))
    src = src.replace('"ws.store"(%c, %x, %y, %tc)', '"ws.store"(%%c, %%x, %%y, %s)' % last, 1)
    sys.stdout.write(src)


if __name__ == "__main__":
    main()
