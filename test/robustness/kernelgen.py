# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Random well-formed ws kernels, for the compile-only pipeline fuzz
(pipeline_fuzz.py) and the GPU differential fuzz (integration/fuzz/).

A kernel loads 1-3 tiles of one box shape (rank 1-5, any of the seven
element types, each innermost extent a whole number of 16-byte granules),
runs a chain of elementwise arith/math ops on them (binary ops, compare and
select, splat constants, extf/truncf, integer casts) and stores the last
value. Outer coordinates come from the block ids (x: the innermost outer
dimension, y: the next, z: the rest, split by kernel arguments); the loop
walks the innermost dimension from a start (a constant or a kernel argument
marked ws.divisibility) to %n by a step.

`make(rng, gpu=False)` returns a Kernel: its .mlir text and the program the
reference interpreter (`reference`, numpy) runs. With gpu=True only ops whose
result is defined on every input are drawn (no integer division, shifts or
float-to-int casts), transcendental math only as the last step, and
misaligned steps and budget overflows are not drawn: every kernel must
compile. Without it, some kernels are meant to be rejected (a step that is
not a whole granule, an oversize box set).
"""
import random
import re

FLOATS = ["f32", "f16", "bf16", "f8E4M3FN", "f8E5M2"]
INTS = ["i8", "i32"]
TYPES = FLOATS + INTS
BYTES = {"f32": 4, "i32": 4, "f16": 2, "bf16": 2, "f8E4M3FN": 1, "f8E5M2": 1, "i8": 1}
WIDTH = {"f8E4M3FN": 8, "f8E5M2": 8, "f16": 16, "bf16": 16, "f32": 32}

FLOAT_BINARY = ["addf", "subf", "mulf", "divf", "maximumf", "minimumf"]
INT_BINARY = ["addi", "subi", "muli", "maxsi", "minsi", "andi", "ori", "xori"]
INT_BINARY_CPU_ONLY = ["divsi", "remsi", "shli"]
FLOAT_UNARY = ["arith.negf", "math.absf"]
TRANSCENDENTAL = ["math.exp", "math.sqrt", "math.tanh"]
CMPF = ["olt", "ogt", "oeq", "une", "oge", "ord"]
CMPI = ["slt", "sgt", "eq", "ne", "ult"]


class Kernel:
    def __init__(self):
        self.name = "k"
        self.rank = 1
        self.box = []
        self.inputs = []      # element types of the loaded descriptors
        self.out_type = None
        self.steps = []       # (result, type, op, operands, attrs)
        self.result = None
        self.warps = 4
        self.stages = 0
        self.start = 0        # int, or ("arg", divisibility)
        self.step = 0         # elements
        self.transcendental = False
        self.split = False    # a second part of the same chain on inputs of its own
        self.text = ""


def tile(k, t):
    return "tensor<%sx%s>" % ("x".join(str(d) for d in k.box), t)


def desc(k, t):
    return "!ws.tensor_desc<%s>" % tile(k, t)


def splat_value(rng, t):
    if t in INTS:
        return str(rng.choice([0, 1, 3, -2, 7, 100]))
    v = rng.choice([0.0, 1.0, -1.5, 0.5, 2.0, 3.0, -0.25, 6.0])
    return "%.6e" % v


def draw_box(rng, gpu, min_inner_elems):
    rank = rng.randint(1, 5)
    granule = min_inner_elems
    inner = granule * rng.choice([1, 1, 2, 3, 4, 8, 16])
    while inner > 256:
        inner //= 2
    inner = max(granule, inner - inner % granule)
    outer = []
    budget = rng.choice([1, 2, 4, 16, 64, 256, 1024]) if rank > 1 else 1
    for _ in range(rank - 1):
        d = rng.choice([1, 1, 2, 3, 4, 5, 8, 16, 32, 64])
        while d > 1 and d * _prod(outer) > budget:
            d //= 2
        outer.append(max(1, d))
    if not gpu and rng.random() < 0.03:
        outer = [256] * (rank - 1)  # likely over the shared-memory budget
    return outer + [inner]


def _prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def make(rng, gpu=False, index=0):
    k = Kernel()
    k.name = "k%d" % index
    # The GPU fuzz keeps its draw (its seeds are on record); the pipeline
    # fuzz also takes the deep protocols: up to 8 inputs and 8 stages.
    nin = rng.randint(1, 3) if gpu else rng.choice([1, 1, 2, 2, 3, 3, 4, 5, 6, 7, 8])
    k.inputs = [rng.choice(TYPES) for _ in range(nin)]
    build_chain(rng, k, gpu)
    # A granule of the narrowest type in memory (16 bytes), in elements.
    granule = 16 // min(BYTES[t] for t in k.inputs + [k.out_type])
    k.box = draw_box(rng, gpu, granule)
    k.rank = len(k.box)
    k.warps = rng.choice([4, 8])
    k.stages = rng.choice([0, 0, 0, 1, 2, 3, 4] if gpu else [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8])
    if gpu:  # fit the budget and the compute partition's 64 chunks per thread
        ring_bytes = sum(BYTES[t] for t in k.inputs) + BYTES[k.out_type]
        while (_prod(k.box) * ring_bytes * max(k.stages, 1) > 150000 or _prod(k.box) > 16384):
            d = max(range(k.rank), key=lambda i: k.box[i] if i < k.rank - 1 else 0)
            if d < k.rank - 1 and k.box[d] > 1:
                k.box[d] //= 2
            else:
                k.box[-1] = max(granule, k.box[-1] // 2)
                if k.box[-1] == granule:
                    break
    inner = k.box[-1]
    k.step = inner * rng.choice([1, 1, 1, 2]) if rng.random() < 0.85 else granule * rng.randint(1, 4)
    k.start = rng.choice([0, 0, 16, 32, -16, ("arg", 16)])
    misaligned = not gpu and rng.random() < 0.05
    if misaligned:
        k.step = rng.choice([1, 2, 3, 6, 12])
    # drawn last, so the rest of a seed's kernel stays as it was
    k.split = not gpu and rng.random() < 0.2
    k.text = render(k)
    return k


def build_chain(rng, k, gpu):
    pool = [("%%t%d" % i, t) for i, t in enumerate(k.inputs)]
    steps = []
    count = [0]

    def fresh():
        count[0] += 1
        return "%%v%d" % count[0]

    def of_type(t):
        return [v for v in pool if v[1] == t]

    def add(t, op, operands, attrs=None):
        name = fresh()
        steps.append((name, t, op, operands, attrs or {}))
        pool.append((name, t))
        return name

    def operand(t):
        vals = of_type(t)
        if vals and rng.random() < 0.85:
            return rng.choice(vals)[0]
        return add(t, "arith.constant", [], {"value": splat_value(rng, t)})

    nsteps = rng.randint(1, 6)
    for _ in range(nsteps):
        name, t = rng.choice([v for v in pool if v[1] != "i1"])
        kind = rng.random()
        if t in FLOATS:
            if kind < 0.45:
                add(t, "arith." + rng.choice(FLOAT_BINARY), [name, operand(t)])
            elif kind < 0.55:
                add(t, rng.choice(FLOAT_UNARY), [name])
            elif kind < 0.7:
                m = add("i1", "arith.cmpf", [name, operand(t)], {"predicate": rng.choice(CMPF)})
                add(t, "arith.select", [m, name, operand(t)])
            elif kind < 0.9:
                wider = [u for u in FLOATS if WIDTH[u] > WIDTH[t]]
                narrower = [u for u in FLOATS if WIDTH[u] < WIDTH[t]]
                choices = [("arith.extf", u) for u in wider] + [("arith.truncf", u) for u in narrower]
                op, u = rng.choice(choices)
                add(u, op, [name])
            elif not gpu:
                add(t, rng.choice(TRANSCENDENTAL), [name])
            else:
                add(t, "arith.addf", [name, name])
        else:
            if kind < 0.5:
                ops = INT_BINARY + ([] if gpu else INT_BINARY_CPU_ONLY)
                add(t, "arith." + rng.choice(ops), [name, operand(t)])
            elif kind < 0.65:
                m = add("i1", "arith.cmpi", [name, operand(t)], {"predicate": rng.choice(CMPI)})
                add(t, "arith.select", [m, operand(t), name])
            elif kind < 0.85:
                add(rng.choice(["f32", "f16", "bf16", "f8E4M3FN", "f8E5M2"]), "arith.sitofp", [name])
            else:
                other = "i32" if t == "i8" else "i8"
                add(other, "arith.extsi" if t == "i8" else "arith.trunci", [name])
        if not gpu and rng.random() < 0.05:
            floats = [v for v in pool if v[1] in ("f32", "f16")]
            if floats:
                n2, t2 = rng.choice(floats)
                add("i32", "arith.fptosi", [n2])
    result, t = [v for v in pool if v[1] != "i1"][-1]
    if gpu and t in FLOATS and rng.random() < 0.15:
        result = add(t, rng.choice(TRANSCENDENTAL), [result if t != "f32" else add(t, "math.absf", [result])])
        k.transcendental = True
    k.steps = steps
    k.result = result
    k.out_type = t


def render(k):
    descs = ["%%in%d: %s" % (i, desc(k, t)) for i, t in enumerate(k.inputs)]
    descs.append("%%out: %s" % desc(k, k.out_type))
    if k.split:  # the second part's inputs and output
        descs += ["%%jn%d: %s" % (i, desc(k, t)) for i, t in enumerate(k.inputs)]
        descs.append("%%out2: %s" % desc(k, k.out_type))
    args = descs + ["%n: i32"]
    outer_args = []
    if isinstance(k.start, tuple):
        args.append("%%start: i32 {ws.divisibility = %d : i32}" % k.start[1])
    for d in range(k.rank - 3):  # dimensions folded into block_id z
        outer_args.append("%%g%d" % d)
        args.append("%%g%d: i32" % d)
    lines = []
    w = lines.append
    w("// Generated by test/robustness/kernelgen.py")
    w("module attributes {gpu.container_module} {")
    w('  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {')
    w("    gpu.func @%s(%s) kernel attributes {ws.num_warps = %d : i32} {" % (k.name, ", ".join(args), k.warps))
    w("      %c0 = arith.constant 0 : i32")
    w("      %%cstep = arith.constant %d : i32" % k.step)
    if isinstance(k.start, tuple):
        start = "%start"
    else:
        w("      %%cstart = arith.constant %d : i32" % k.start)
        start = "%cstart"
    coords = ["%c0"] * k.rank
    axes = ["x", "y", "z"]
    for j, d in enumerate(range(k.rank - 2, -1, -1)):
        if j < 2:
            w("      %%b%d = gpu.block_id %s" % (d, axes[j]))
            w("      %%bi%d = arith.index_cast %%b%d : index to i32" % (d, d))
            w("      %%box%d = arith.constant %d : i32" % (d, k.box[d]))
            w("      %%o%d = arith.muli %%bi%d, %%box%d : i32" % (d, d, d))
            coords[d] = "%%o%d" % d
    if k.rank >= 4:
        w("      %bz = gpu.block_id z")
        w("      %z0 = arith.index_cast %bz : index to i32")
        z = "%z0"
        for d in range(k.rank - 4, -1, -1):
            w("      %%q%d = arith.remui %s, %%g%d : i32" % (d, z, d))
            w("      %%zz%d = arith.divui %s, %%g%d : i32" % (d, z, d))
            w("      %%box%d = arith.constant %d : i32" % (d, k.box[d]))
            w("      %%o%d = arith.muli %%q%d, %%box%d : i32" % (d, d, d))
            coords[d] = "%%o%d" % d
            z = "%%zz%d" % d
    w("      scf.for %%y = %s to %%n step %%cstep : i32 {" % start)
    coords[-1] = "%y"
    cl = ", ".join(coords)
    ct = ", ".join(["i32"] * k.rank)
    body_start = len(lines)
    for i, t in enumerate(k.inputs):
        w('        %%t%d = "ws.load"(%%in%d, %s) : (%s, %s) -> %s' % (i, i, cl, desc(k, t), ct, tile(k, t)))
    types = dict(("%%t%d" % i, t) for i, t in enumerate(k.inputs))
    for name, t, op, operands, attrs in k.steps:
        types[name] = t
        rt = tile(k, t)
        if op == "arith.constant":
            w("        %s = arith.constant dense<%s> : %s" % (name, attrs["value"], rt))
        elif op in ("arith.cmpf", "arith.cmpi"):
            w("        %s = %s %s, %s : %s" % (name, op, attrs["predicate"], ", ".join(operands), tile(k, types[operands[0]])))
        elif op == "arith.select":
            w("        %s = arith.select %s : %s, %s" % (name, ", ".join(operands), tile(k, "i1"), rt))
        elif op in ("arith.extf", "arith.truncf", "arith.sitofp", "arith.extsi", "arith.trunci", "arith.fptosi"):
            w("        %s = %s %s : %s to %s" % (name, op, operands[0], tile(k, types[operands[0]]), rt))
        else:
            w("        %s = %s %s : %s" % (name, op, ", ".join(operands), rt))
    w('        "ws.store"(%%out, %s, %s) : (%s, %s, %s) -> ()' % (cl, k.result, desc(k, k.out_type), ct, tile(k, k.out_type)))
    if k.split:  # the same chain again, on %jn into %out2: a part that shares no tile
        for line in lines[body_start:]:
            line = re.sub(r"%t(\d+)", r"%u\1", re.sub(r"%v(\d+)", r"%w\1", line))
            w(line.replace("%in", "%jn").replace("%out,", "%out2,"))
    stages = ", ws.num_stages = %d : i32" % k.stages if k.stages else ""
    stages += ", ws.split_compute = true" if k.split else ""
    w("      } {ws.warp_specialize%s}" % stages)
    w("      gpu.return")
    w("    }")
    w("  }")
    w("}")
    return "\n".join(lines) + "\n"


def make_valid(rng, gpu, index):
    """Draws until the chain ends on a storable type (not a mask)."""
    while True:
        try:
            return make(rng, gpu, index)
        except AssertionError:
            continue
