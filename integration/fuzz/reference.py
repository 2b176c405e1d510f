# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The CPU reference of a generated kernel's op chain (numpy), and the bit
encodings of the seven element types.

Semantics it models (the README's "Numbers" section states them):
  - every float op computes in f32 (IEEE, round to nearest even, subnormals
    kept) and its result is rounded to the op's type: f16 and bf16 round to
    nearest even (overflow to infinity); f8E4M3FN and f8E5M2 round to nearest
    even and saturate: anything beyond the largest finite value, infinity
    included, becomes that value with its sign; NaN stays NaN;
  - maximumf/minimumf propagate NaN and order -0 below +0;
  - integers wrap at their width; sitofp rounds to nearest even, once
    (an i32 past 2^24 goes to bf16 without a stop in f32).
Values travel as f32 arrays holding exactly representable values of their
type (ints as int64, masks as bool)."""
import numpy as np

BYTES = {"f32": 4, "i32": 4, "f16": 2, "bf16": 2, "f8E4M3FN": 1, "f8E5M2": 1, "i8": 1}
FLOATS = ("f32", "f16", "bf16", "f8E4M3FN", "f8E5M2")


def _f8_table(ebits, mbits, bias, fn):
    """Value of every code (NaN for the NaN codes)."""
    vals = np.zeros(256, dtype=np.float64)
    for code in range(256):
        s = -1.0 if code & 0x80 else 1.0
        e = (code >> mbits) & ((1 << ebits) - 1)
        m = code & ((1 << mbits) - 1)
        if fn and (code & 0x7F) == 0x7F:
            vals[code] = np.nan
        elif not fn and e == (1 << ebits) - 1:
            vals[code] = s * np.inf if m == 0 else np.nan
        elif e == 0:
            vals[code] = s * m * 2.0 ** (1 - bias - mbits)
        else:
            vals[code] = s * (1 + m / 2.0 ** mbits) * 2.0 ** (e - bias)
    return vals


F8 = {
    "f8E4M3FN": _f8_table(4, 3, 7, True),
    "f8E5M2": _f8_table(5, 2, 15, False),
}
# Non-negative finite codes in increasing value: 0..0x7E (e4m3), 0..0x7B (e5m2).
F8_POS = {t: np.array([v for v in tab[:128] if np.isfinite(v)]) for t, tab in F8.items()}


def f8_encode(x, t):
    x = np.asarray(x, dtype=np.float64)
    pos = F8_POS[t]
    a = np.minimum(np.abs(x), pos[-1])  # satfinite (infinity too)
    hi = np.clip(np.searchsorted(pos, a), 0, len(pos) - 1)
    lo = np.maximum(hi - 1, 0)
    dlo, dhi = a - pos[lo], pos[hi] - a
    pick_hi = (dhi < dlo) | ((dhi == dlo) & (hi % 2 == 0))
    code = np.where(pick_hi, hi, lo).astype(np.uint8)
    code = code | np.where(np.signbit(x), 0x80, 0).astype(np.uint8)
    return np.where(np.isnan(x), np.uint8(0x7F), code).astype(np.uint8)


def bf16_encode(x):
    b = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    r = ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(np.asarray(x, dtype=np.float32))
    return np.where(nan, (b >> 16).astype(np.uint16) | 0x40, r).astype(np.uint16)


def int_to_bf16(v):
    """Integers (up to 2^31 in magnitude) rounded once to bf16, as
    cvt.rn.bf16.s32 does: through f32 rounded to odd (f32 keeps 16 more
    bits than bf16, so the second rounding cannot go wrong), never through
    f32 rounded to nearest, which rounds twice near a bf16 midpoint."""
    x = np.asarray(v, dtype=np.float64)
    f = x.astype(np.float32)
    bits = f.view(np.uint32).copy()
    over = np.abs(f.astype(np.float64)) > np.abs(x)
    bits = np.where(over, bits - 1, bits)  # toward zero
    inexact = f.astype(np.float64) != x
    bits = np.where(inexact, bits | 1, bits).astype(np.uint32)
    return decode(bf16_encode(bits.view(np.float32)).view(np.uint8), "bf16")


def decode(raw, t):
    """Element bytes (numpy uint8 array) to the value form."""
    if t == "f32":
        return raw.view(np.float32).copy()
    if t == "f16":
        return raw.view(np.float16).astype(np.float32)
    if t == "bf16":
        return (raw.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
    if t in F8:
        return F8[t][raw].astype(np.float32)
    if t == "i8":
        return raw.view(np.int8).astype(np.int64)
    return raw.view(np.int32).astype(np.int64)


def encode(v, t):
    """Value form to element bytes."""
    if t == "f32":
        return np.asarray(v, dtype=np.float32).view(np.uint8)
    if t == "f16":
        return np.asarray(v, dtype=np.float32).astype(np.float16).view(np.uint8)
    if t == "bf16":
        return bf16_encode(v).view(np.uint8)
    if t in F8:
        return f8_encode(v, t)
    if t == "i8":
        return np.asarray(v).astype(np.int8).view(np.uint8)
    return np.asarray(v).astype(np.int32).view(np.uint8)


def round_to(v, t):
    """Rounds f32 values to type t, keeping the value form."""
    if t == "f32":
        return np.asarray(v, dtype=np.float32)
    return decode(encode(v, t).reshape(-1), t).reshape(np.shape(v))


def wrap(v, t):
    bits = 8 if t == "i8" else 32
    v = np.asarray(v, dtype=np.int64)
    return ((v + (1 << (bits - 1))) & ((1 << bits) - 1)) - (1 << (bits - 1))


def _max(a, b):
    m = np.maximum(a, b)
    zeros = (a == 0) & (b == 0)
    return np.where(zeros, np.where(np.signbit(a), b, a), m)


def _min(a, b):
    m = np.minimum(a, b)
    zeros = (a == 0) & (b == 0)
    return np.where(zeros, np.where(np.signbit(a), a, b), m)


CMPF = {
    "olt": lambda a, b: a < b, "ogt": lambda a, b: a > b, "oeq": lambda a, b: a == b,
    "oge": lambda a, b: a >= b, "une": lambda a, b: ~(a == b),
    "ord": lambda a, b: ~(np.isnan(a) | np.isnan(b)),
}


def _cmpi(pred, a, b, t):
    if pred == "ult":
        m = 1 << (8 if t == "i8" else 32)
        return (a % m) < (b % m)
    return {"slt": a < b, "sgt": a > b, "eq": a == b, "ne": a != b}[pred]


def run(spec, inputs):
    """Values of the stored tile for input value arrays (one per load)."""
    env = {"%%t%d" % i: v for i, v in enumerate(inputs)}
    types = {"%%t%d" % i: t for i, t in enumerate(spec["inputs"])}
    shape = np.shape(inputs[0])
    with np.errstate(all="ignore"):
        for name, t, op, operands, attrs in spec["steps"]:
            x = [env[o] for o in operands]
            if op == "arith.constant":
                r = np.full(shape, float(attrs["value"]) if t in FLOATS else int(attrs["value"]),
                            dtype=np.float32 if t in FLOATS else np.int64)
            elif op == "arith.cmpf":
                r = CMPF[attrs["predicate"]](x[0], x[1])
            elif op == "arith.cmpi":
                r = _cmpi(attrs["predicate"], x[0], x[1], types[operands[0]])
            elif op == "arith.select":
                r = np.where(x[0], x[1], x[2])
            elif op == "arith.sitofp" and t == "bf16":
                r = int_to_bf16(x[0])
            elif op in ("arith.extf", "arith.truncf", "arith.sitofp"):
                r = np.asarray(x[0]).astype(np.float32)
            elif op in ("arith.extsi", "arith.trunci"):
                r = x[0]
            else:
                r = _binary_or_unary(op, x)
            if t in FLOATS:
                r = round_to(np.asarray(r, dtype=np.float32), t)
            elif t in ("i8", "i32"):
                r = wrap(r, t)
            env[name] = r
            types[name] = t
    return env[spec["result"]]


def _binary_or_unary(op, x):
    f = {
        "arith.addf": lambda: x[0] + x[1], "arith.subf": lambda: x[0] - x[1],
        "arith.mulf": lambda: x[0] * x[1], "arith.divf": lambda: x[0] / x[1],
        "arith.maximumf": lambda: _max(x[0], x[1]), "arith.minimumf": lambda: _min(x[0], x[1]),
        "arith.negf": lambda: -x[0], "math.absf": lambda: np.abs(x[0]),
        "math.exp": lambda: np.exp(x[0]), "math.sqrt": lambda: np.sqrt(x[0]),
        "math.tanh": lambda: np.tanh(x[0]),
        "arith.addi": lambda: x[0] + x[1], "arith.subi": lambda: x[0] - x[1],
        "arith.muli": lambda: x[0] * x[1], "arith.maxsi": lambda: np.maximum(x[0], x[1]),
        "arith.minsi": lambda: np.minimum(x[0], x[1]), "arith.andi": lambda: x[0] & x[1],
        "arith.ori": lambda: x[0] | x[1], "arith.xori": lambda: x[0] ^ x[1],
    }[op]
    r = f()
    return r.astype(np.float32) if r.dtype.kind == "f" else r


def ordered(bits, t):
    """Maps element bits to integers ordered like their values (for ulps)."""
    w = BYTES[t] * 8
    u = bits.astype(np.int64)
    sign = u >> (w - 1)
    mag = u & ((1 << (w - 1)) - 1)
    return np.where(sign == 1, -mag, mag)
