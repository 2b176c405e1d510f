#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Derive malformed kernels from valid ones and check that ws-opt rejects each
with exit status 1 and a located error, never a crash, hang or sanitizer report.

Every mutation family is built so that its output is invalid by construction:
  truncate  cut the text before its last '}' (an unclosed region);
  delete    drop one token (never an attribute name whose removal leaves a
            valid attribute dictionary);
  swap      exchange two adjacent tokens of different kinds;
  retype    change one type occurrence (every type in the kernels is tied to
            another one: a use, an operand list, a descriptor box);
  unknown   rename a ws op or insert one the dialect does not define;
  garbage   insert bytes no MLIR token may contain.
The unmodified kernels must pass first, so a broken harness cannot look green.
"""
import argparse
import concurrent.futures
import os
import random
import re
import subprocess
import sys

TOKEN = re.compile(r"""
    (?P<string>"[^"\n]*")
  | (?P<ssa>%[A-Za-z0-9_$.]+)
  | (?P<symbol>@[A-Za-z0-9_$.]+)
  | (?P<type>!ws\.tensor_desc|tensor|\b(?:i32|i64|index|f16|bf16|f32)\b)
  | (?P<attr>\#[A-Za-z_][A-Za-z0-9_.]*)
  | (?P<number>\d+x[0-9x]*[a-z0-9]+|\d+\.\d+|\d+)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_.$]*)
  | (?P<punct>->|[(){}\[\]<>,:=])
""", re.VERBOSE)

# Removing one of these leaves a valid (smaller) attribute dictionary.
KEEP = {"ws.warp_specialize", "gpu.container_module", "transpose_b"}
LOCATED_ERROR = re.compile(r"^\S+:\d+:\d+: error: ", re.M)
SANITIZER = re.compile(r"AddressSanitizer|LeakSanitizer|runtime error:|UndefinedBehaviorSanitizer")
GARBAGE = [b for b in range(1, 32) if b not in (9, 10, 13)] + [0x7F] + list(range(0x80, 0x100))


def strip_comments(text):
    return "\n".join(line.split("//")[0].rstrip() for line in text.splitlines()) + "\n"


def tokens(text):
    return [(m.lastgroup, m.start(), m.end()) for m in TOKEN.finditer(text)]


def truncate(text, toks, rng):
    first = text.index("{") + 1
    last = text.rindex("}")
    cut = rng.randrange(first, last)
    return text[:cut]


def delete(text, toks, rng):
    candidates = [t for t in toks if text[t[1]:t[2]] not in KEEP]
    kind, s, e = rng.choice(candidates)
    return text[:s] + " " + text[e:]


def swap(text, toks, rng):
    pairs = [(a, b) for a, b in zip(toks, toks[1:]) if a[0] != b[0]]
    (ka, sa, ea), (kb, sb, eb) = rng.choice(pairs)
    return text[:sa] + text[sb:eb] + text[ea:sb] + text[sa:ea] + text[eb:]


def retype(text, toks, rng):
    sites = [m for m in re.finditer(r"tensor<([0-9x]+)x(f16|bf16|f32)>|\b(i32|index)\b", text)]
    m = rng.choice(sites)
    if m.group(1):
        dims, elem = m.group(1), m.group(2)
        if rng.random() < 0.5:
            elem = rng.choice([t for t in ("f16", "bf16", "f32", "f64", "i32") if t != elem])
        else:
            parts = dims.split("x")
            i = rng.randrange(len(parts))
            parts[i] = str(int(parts[i]) * 2)
            dims = "x".join(parts)
        new = "tensor<%sx%s>" % (dims, elem)
    else:
        new = "i64" if m.group(3) == "i32" else "i32"
    return text[:m.start()] + new + text[m.end():]


def unknown(text, toks, rng):
    ops = [m for m in re.finditer(r'"ws\.(load|store|dot)"', text)]
    if rng.random() < 0.5:
        m = rng.choice(ops)
        name = rng.choice(["ws.lod", "ws.frobnicate", "ws.Load", "ws.store2", "ws.mma"])
        return text[:m.start()] + '"%s"' % name + text[m.end():]
    lines = text.splitlines(keepends=True)
    body = [i for i, line in enumerate(lines) if '"ws.' in line]
    at = rng.choice(body)
    lines.insert(at, '        "ws.barrier"() : () -> ()\n')
    return "".join(lines)


def garbage(text, toks, rng):
    data = text.encode()
    at = rng.randrange(0, len(data))
    junk = bytes(rng.choice(GARBAGE) for _ in range(rng.randint(1, 4)))
    return data[:at] + junk + data[at:]


FAMILIES = [truncate, delete, swap, retype, unknown, garbage]


def run(ws_opt, data, timeout):
    if isinstance(data, str):
        data = data.encode()
    try:
        p = subprocess.run([ws_opt, "--pass-pipeline=builtin.module(ws-verify)", "-"],
                           input=data, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timed out after %ss" % timeout
    err = p.stderr.decode(errors="replace")
    if p.returncode < 0:
        return "killed by signal %d" % -p.returncode
    if SANITIZER.search(err):
        return "sanitizer report:\n" + err[-2000:]
    if p.returncode != 1:
        return "exit status %d (expected 1)" % p.returncode
    if not LOCATED_ERROR.search(err):
        return "no located error in:\n" + err[-2000:]
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ws-opt", default="ws-opt")
    ap.add_argument("--count", type=int, default=300, help="malformed inputs in all")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--failures-dir", default=None, help="where failing inputs are saved")
    ap.add_argument("kernels", nargs="+")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    bases = []
    for path in args.kernels:
        text = strip_comments(open(path).read())
        p = subprocess.run([args.ws_opt, "--pass-pipeline=builtin.module(ws-verify)", "-"],
                           input=text.encode(), capture_output=True)
        if p.returncode != 0:
            print("control failed: %s is rejected:\n%s" % (path, p.stderr.decode()))
            return 1
        bases.append((os.path.basename(path), text, tokens(text)))

    cases = []
    for i in range(args.count):
        family = FAMILIES[i % len(FAMILIES)]
        name, text, toks = bases[(i // len(FAMILIES)) % len(bases)]
        cases.append(("%s-%s-%d" % (name, family.__name__, i), family.__name__, family(text, toks, rng)))

    failures = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = pool.map(lambda c: run(args.ws_opt, c[2], args.timeout), cases)
        for (label, family, data), problem in zip(cases, results):
            if problem:
                failures.append((label, problem, data))

    counts = {}
    for _, family, _ in cases:
        counts[family] = counts.get(family, 0) + 1
    print("families: " + ", ".join("%s %d" % (f.__name__, counts.get(f.__name__, 0)) for f in FAMILIES))
    for label, problem, data in failures[:20]:
        print("FAIL %s: %s" % (label, problem))
        if args.failures_dir:
            os.makedirs(args.failures_dir, exist_ok=True)
            path = os.path.join(args.failures_dir, label + ".mlir")
            open(path, "wb").write(data if isinstance(data, bytes) else data.encode())
            print("  input saved as " + path)
    print("%d passed, %d failed" % (len(cases) - len(failures), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
