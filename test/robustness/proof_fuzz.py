#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Differential fuzz of ws-check-protocol's two methods: saved plans (valid
protocols) are mutated at random (a protocol op deleted or moved, a
constant, a barrier, a channel or a start phase changed) and each mutant is
checked by method=states (every reachable state, the reference), by
method=order with the interleaving it runs by default, and by method=order
with a random one (seed=). All three must agree: a mutant one method
accepts and another rejects fails the run and is saved. Rejections with
different rules are counted (each method reports the first violation it
meets) but do not fail.

The seed changes per run (time-based) and is printed; replay with --seed S."""
import argparse
import concurrent.futures
import os
import random
import re
import subprocess
import sys
import time

PROTOCOL_OP = re.compile(r'"ws\.(wait|arrive|arrive_expect_tx|tma_load|tma_store|read_slot|'
                         r'write_slot|mma|slot_phase|tc_mma|commit|tmem_load|tmem_alloc|'
                         r'tmem_dealloc)"|nvvm\.(fence\.proxy|barrier id|'
                         r'cp\.async\.bulk|wgmma\.(commit|wait)|tcgen05\.fence)')
ATTRIBUTE_EDITS = [('barrier = "full"', 'barrier = "empty"'), ('barrier = "empty"', 'barrier = "full"'),
                   ("start_phase = 0", "start_phase = 1"), ("start_phase = 1", "start_phase = 0"),
                   ("channel = 0 : i32", "channel = 1 : i32"), ("channel = 1 : i32", "channel = 0 : i32")]
TIMEOUT_S = 300


def indent(line):
    return len(line) - len(line.lstrip())


def mutate(lines, rng):
    """One random edit of a plan's lines: (new lines, description) or None."""
    ops = [i for i, l in enumerate(lines) if PROTOCOL_OP.search(l)]
    i = rng.choice(ops)
    kind = rng.choice(["delete", "move", "move", "const", "attribute"])
    out = list(lines)
    if kind == "delete":
        if re.match(r"\s*%", lines[i]):  # it defines a value others use
            return None
        del out[i]
        return out, "line %d deleted" % (i + 1)
    if kind == "move":
        j = i + rng.randint(-6, 6)
        if j < 0 or j >= len(lines) or j == i or indent(lines[j]) != indent(lines[i]):
            return None
        if lines[j].strip().startswith(("}", "scf.", "%c1_i32 = arith.constant 1")):
            return None
        line = out.pop(i)
        out.insert(j, line)
        return out, "line %d moved to %d" % (i + 1, j + 1)
    if kind == "const":
        consts = [k for k, l in enumerate(lines) if re.search(r"arith.constant \d+ : i32", l)]
        k = rng.choice(consts)
        n = int(re.search(r"arith.constant (\d+) : i32", lines[k]).group(1))
        m = max(0, n + rng.choice([-1, 1, 2]))
        out[k] = re.sub(r"arith.constant \d+ : i32", "arith.constant %d : i32" % m, lines[k])
        return out, "line %d: constant %d -> %d" % (k + 1, n, m)
    edits = [e for e in ATTRIBUTE_EDITS if e[0] in lines[i]]
    if not edits:
        return None
    a, b = rng.choice(edits)
    out[i] = lines[i].replace(a, b, 1)
    return out, "line %d: %s -> %s" % (i + 1, a, b)


def verdict(ws_opt, text, options):
    """'ok', the rule named, 'other' (a located error naming no rule) or 'bound'."""
    try:
        p = subprocess.run([ws_opt, "--pass-pipeline=builtin.module(ws-check-protocol{%s})" % options,
                            "-o", os.devnull], input=text, capture_output=True, text=True,
                           timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return "hang", "no answer in %d s" % TIMEOUT_S
    errors = [l for l in p.stderr.splitlines() if "error:" in l]
    if p.returncode == 0 and not errors:
        return "ok", ""
    if not errors or p.returncode != 1:
        return "crash", "exit %d: %s" % (p.returncode, p.stderr.strip()[-300:])
    if "has more than" in errors[0] and "states" in errors[0]:
        return "bound", errors[0]
    rule = re.search(r"rule '([a-z-]+)'", errors[0])
    return (rule.group(1) if rule else "other"), errors[0]


def run_case(args, plans, seed, index):
    rng = random.Random("%d/%d" % (seed, index))
    name, lines = plans[index % len(plans)]
    desc = []
    for _ in range(1 if rng.random() < 0.7 else 2):
        for _ in range(50):
            r = mutate(lines, rng)
            if r:
                break
        if not r:
            return index, "skip", "", ""
        lines, what = r
        desc.append(what)
    text = "\n".join(lines)
    where = "%s, %s" % (name, "; ".join(desc))
    trips = " max-trips=%d" % args.max_trips if args.max_trips else ""
    states = verdict(args.ws_opt, text, "method=states max-states=400000" + trips)
    if states[0] == "bound":
        return index, "skip", where, ""
    seeds = (0, rng.randint(1, 2 ** 31))
    for s in seeds:
        order = verdict(args.ws_opt, text, "seed=%d" % s + trips)
        for v in (states, order):
            if v[0] in ("crash", "hang"):
                return index, "fail", "%s: %s" % (where, v[1]), text
        if (order[0] == "ok") != (states[0] == "ok"):
            return index, "fail", "%s: method=order seed=%d says %s, method=states says %s\n    %s\n    %s" % (
                where, s, order[0], states[0], order[1][:300], states[1][:300]), text
        if order[0] != states[0]:
            return index, "other rule", "%s: %s vs %s" % (where, order[0], states[0]), ""
    return index, "accepted" if states[0] == "ok" else "rejected", states[0], ""


def campaign_parser(doc, count):
    """The arguments every mutation campaign of the proof takes (this one's
    and proof_mutation.py's): ws-opt, how many mutants, the seed, where
    failures are saved, the jobs; the plans come last."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--ws-opt", required=True)
    ap.add_argument("--count", type=int, default=count)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    return ap


def campaign_seed(args):
    """The run's seed (given, WS_FUZZ_SEED, or time-based), with the workdir made."""
    os.makedirs(args.workdir, exist_ok=True)
    if args.seed is not None:
        return args.seed
    return int(os.environ.get("WS_FUZZ_SEED", time.time_ns() % 1000000007))


def run_mutants(args, case):
    """case(i) for each mutant i over a pool of args.jobs: counts its
    outcomes (and the rules of the rejected), prints and saves each failure
    (workdir/mutantI.mlir) and each case of other rules; returns (counts,
    rules)."""
    counts = {"accepted": 0, "rejected": 0, "other rule": 0, "skip": 0, "fail": 0}
    rules = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for index, outcome, why, text in pool.map(case, range(args.count)):
            counts[outcome] += 1
            if outcome == "rejected":
                rules[why] = rules.get(why, 0) + 1
            elif outcome == "other rule":
                print("  other rule, case %d: %s" % (index, why))
            elif outcome == "fail":
                path = os.path.join(args.workdir, "mutant%d.mlir" % index)
                with open(path, "w") as f:
                    f.write(text)
                print("FAIL case %d: %s; saved %s" % (index, why, path))
    return counts, rules


def main():
    ap = campaign_parser(__doc__, 150)
    ap.add_argument("--max-trips", type=int, default=0,
                    help="bound the trip counts of both methods (a cluster's plans: the "
                         "state-by-state search grows with the CTAs)")
    ap.add_argument("plans", nargs="+", help="saved plans (ws-pipeline{stage=plan}) to mutate")
    args = ap.parse_args()
    seed = campaign_seed(args)
    plans = [(os.path.basename(p), open(p).read().split("\n")) for p in args.plans]
    print("proof fuzz: seed %d, %d mutants of %d plans (replay: --seed %d)" % (
        seed, args.count, len(plans), seed))
    counts, rules = run_mutants(args, lambda i: run_case(args, plans, seed, i))
    print("proof fuzz: %d accepted by both methods, %d rejected by both (%s), %d with other "
          "rules, %d skipped (no edit or past the state bound)" % (
              counts["accepted"], counts["rejected"],
              ", ".join("%s %d" % kv for kv in sorted(rules.items())), counts["other rule"],
              counts["skip"]))
    agree = counts["accepted"] + counts["rejected"] + counts["other rule"]
    print("%d passed, %d failed" % (agree, counts["fail"]))
    return 1 if counts["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
