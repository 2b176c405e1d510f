#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Mutation campaign of ws-check-protocol against a long run: saved plans
(valid protocols) get one random edit of the kinds a sound proof must
judge (a guard of a protocol op on the iteration against a constant, a
remainder in a guard or a slot, a fence of another kind, two copies'
rings swapped, a named barrier's id, a ring's alignment, a barrier array
moved), and each mutant is judged twice: by the default proof, and by
the proof's own interpreter run for a long trip count (max-trips=150, 20
for a persistent plan, whose two loop levels multiply the runs). The long
run is the oracle for trip counts: an edit that breaks only after many
iterations is refused by it. The two verdicts must agree, accepted or
refused, on every mutant; a disagreement fails the run and is saved.
Thresholds and moduli are drawn within the long run's reach.

The seed changes per run (time-based) and is printed; replay with --seed S."""
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from proof_fuzz import campaign_parser, campaign_seed, run_mutants, verdict  # noqa: E402

LONG_TRIPS, NESTED_LONG_TRIPS = 150, 20
LOOP = re.compile(r"scf\.for (%[\w]+) = .* iter_args\((%[\w]+) = ")
PROTOCOL_LINE = re.compile(r'^\s*"ws\.(wait|arrive)"\(')
FENCE = "async.shared>, space = #nvvm.shared_space<cta>"
FENCE_KINDS = ["async.global>", "alias>", "async>", "async.shared>, space = #nvvm.shared_space<cluster>"]


def indent(line):
    return len(line) - len(line.lstrip())


def enclosing_loop(lines, i):
    """The induction variable and first carried count of the innermost
    scf.for around line i, or None."""
    level = indent(lines[i])
    for j in range(i - 1, -1, -1):
        if indent(lines[j]) < level:
            level = indent(lines[j])
            m = LOOP.search(lines[j])
            if m:
                return m.group(1), m.group(2)
    return None


def guard(lines, rng, nested):
    """A protocol op in a loop wrapped in `if (v < C)` or `if (v mod M != R)`."""
    sites = [i for i, l in enumerate(lines) if PROTOCOL_LINE.match(l) and enclosing_loop(lines, i)]
    if not sites:
        return None
    i = rng.choice(sites)
    iv, count = enclosing_loop(lines, i)
    v = count if rng.random() < 0.8 else iv
    pad = " " * indent(lines[i])
    if rng.random() < 0.5:
        c = rng.randint(1, 6 if nested else 40)
        pre = ["%%mg = arith.constant %d : i32" % c, "%%mc = arith.cmpi ult, %s, %%mg : i32" % v]
        what = "line %d under %s < %d" % (i + 1, v, c)
    else:
        m = rng.randint(2, 5 if nested else 24)
        r = rng.randrange(m)
        pre = ["%%mg = arith.constant %d : i32" % m, "%%mr = arith.constant %d : i32" % r,
               "%%mm = arith.remui %s, %%mg : i32" % v, "%mc = arith.cmpi ne, %mm, %mr : i32"]
        what = "line %d unless %s mod %d == %d" % (i + 1, v, m, r)
    body = [pad + p for p in pre] + [pad + "scf.if %mc {", "  " + lines[i], pad + "}"]
    return lines[:i] + body + lines[i + 1:], what


def slot_modulus(lines, rng, nested):
    """A ws.slot_phase of a carried count taken modulo M."""
    sites = [i for i, l in enumerate(lines) if '"ws.slot_phase"(%arg' in l]
    if not sites:
        return None
    i = rng.choice(sites)
    m = rng.randint(2, 5 if nested else 24)
    arg = re.search(r'"ws\.slot_phase"\((%[\w]+)\)', lines[i]).group(1)
    pad = " " * indent(lines[i])
    pre = [pad + "%%sg = arith.constant %d : i32" % m, pad + "%%sm = arith.remui %s, %%sg : i32" % arg]
    return lines[:i] + pre + [lines[i].replace('"ws.slot_phase"(%s)' % arg, '"ws.slot_phase"(%sm)')] + \
        lines[i + 1:], "line %d: slot of %s mod %d" % (i + 1, arg, m)


def fence_kind(lines, rng, nested):
    sites = [i for i, l in enumerate(lines) if FENCE in l]
    if not sites:
        return None
    i, k = rng.choice(sites), rng.choice(FENCE_KINDS)
    out = list(lines)
    out[i] = lines[i].replace(FENCE, k)
    return out, "line %d: fence %s" % (i + 1, k.rstrip(">"))


def swap_rings(lines, rng, nested):
    """Two TMA loads of one block trade their rings."""
    loads = [i for i, l in enumerate(lines) if '"ws.tma_load"' in l]
    pairs = [(a, b) for a in loads for b in loads if a < b and b - a <= 3 and indent(lines[a]) == indent(lines[b])]
    if not pairs:
        return None
    a, b = rng.choice(pairs)
    ra = re.search(r"ring = \d+ : i32", lines[a]).group(0)
    rb = re.search(r"ring = \d+ : i32", lines[b]).group(0)
    out = list(lines)
    out[a], out[b] = lines[a].replace(ra, rb), lines[b].replace(rb, ra)
    return out, "lines %d, %d: rings swapped" % (a + 1, b + 1)


def barrier_id(lines, rng, nested):
    sites = [i for i, l in enumerate(lines) if "nvvm.barrier id = " in l]
    if not sites:
        return None
    i, n = rng.choice(sites), rng.choice([0, 2, 7, 15, 16, 17])
    pad = " " * indent(lines[i])
    new = re.sub(r"id = %[\w]+", "id = %bid", lines[i])
    return lines[:i] + [pad + "%%bid = arith.constant %d : i32" % n, new] + lines[i + 1:], \
        "line %d: barrier id %d" % (i + 1, n)


def alignment(lines, rng, nested):
    """One ring's alignment, or one barrier array's offset, changed in the
    kernel's tables."""
    sites = [i for i, l in enumerate(lines) if "ws.rings = [" in l]
    if not sites:
        return None
    i = sites[0]
    out = list(lines)
    if rng.random() < 0.5:
        aligns = list(re.finditer(r"align = (\d+) : i32", lines[i]))
        m = rng.choice(aligns)
        a = rng.choice([16, 64, 256, 2048])
        out[i] = lines[i][:m.start()] + "align = %d : i32" % a + lines[i][m.end():]
        return out, "ring align %s -> %d" % (m.group(1), a)
    offsets = list(re.finditer(r"(empty|full) = (\d+) : i32", lines[i]))
    m = rng.choice(offsets)
    d = rng.choice([4, 8, -8])
    out[i] = lines[i][:m.start()] + "%s = %d : i32" % (m.group(1), int(m.group(2)) + d) + lines[i][m.end():]
    return out, "%s barriers moved by %d" % (m.group(1), d)


MUTATIONS = [guard, guard, guard, slot_modulus, fence_kind, swap_rings, barrier_id, alignment]


def run_case(args, plans, seed, index):
    rng = random.Random("%d/%d" % (seed, index))
    name, lines, nested = plans[index % len(plans)]
    for _ in range(50):
        r = rng.choice(MUTATIONS)(lines, rng, nested)
        if r:
            break
    if not r:
        return index, "skip", "", ""
    text = "\n".join(r[0])
    where = "%s, %s" % (name, r[1])
    proof = verdict(args.ws_opt, text, "")
    long_run = verdict(args.ws_opt, text, "max-trips=%d" % (NESTED_LONG_TRIPS if nested else LONG_TRIPS))
    for v in (proof, long_run):
        if v[0] in ("crash", "hang", "bound"):
            return index, "fail", "%s: %s" % (where, v[1]), text
    if (proof[0] == "ok") != (long_run[0] == "ok"):
        return index, "fail", "%s: the proof says %s, the long run %s\n    %s\n    %s" % (
            where, proof[0], long_run[0], proof[1][:300], long_run[1][:300]), text
    return index, "accepted" if proof[0] == "ok" else "rejected", proof[0], ""


def main():
    ap = campaign_parser(__doc__, 200)
    ap.add_argument("plans", nargs="+", help="saved plans (ws-pipeline{stage=plan}) to mutate")
    args = ap.parse_args()
    seed = campaign_seed(args)
    plans = []
    for p in args.plans:
        text = open(p).read()
        plans.append((os.path.basename(p), text.split("\n"), "ws.persistent" in text))
    print("proof mutation: seed %d, %d mutants of %d plans (replay: --seed %d)" % (
        seed, args.count, len(plans), seed))
    counts, rules = run_mutants(args, lambda i: run_case(args, plans, seed, i))
    print("  " + ", ".join("%s %d" % kv for kv in sorted(rules.items())))
    print("proof mutation: %d accepted by both, %d refused by both, %d skipped" % (
        counts["accepted"], counts["rejected"], counts["skip"]))
    print("%d passed, %d failed" % (args.count - counts["fail"], counts["fail"]))
    return 1 if counts["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
