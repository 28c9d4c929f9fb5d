#!/usr/bin/env python3
"""hclvm against the reference on the shared bench workloads, in one run.

Runs `hclvm bench` and the reference's bench mode (`hcl-oracle bench`, the
same interface) on each workload, interleaved over several rounds, and
prints the median ns per evaluation of each (hclvm runs three times per
round, see OURS_RUNS), the speed-up, and whether the
result checksums agree (equal checksums: identical results).

    python3 benches/vs_reference.py [ROUNDS] [HCLVM] [ORACLE]

Defaults: 3 rounds, target/release/hclvm, ../shared/oracle/bin/hcl-oracle;
the workloads are read from $HCLVM_BENCH_DIR or ../shared/bench. With
$NATIVE_ANCHOR set to the hand-written Rust anchor's binary (built from
../shared/bench/native, see its README), policy and render also run it in
each round, and the table shows hclvm's time as a multiple of it. The
anchor times three runs of one pass each over the variables and reports
the median run (its first run is the cold one); hclvm is run the same way
for that column (`hclvm bench --runs 3`, its `median_ns_per_eval`), not
with the reference's protocol, whose figure includes the cold first pass
and keeps that pass's results for the checksum. With $EXPR_ANCHOR set to
expr-lang/expr's anchor (built by ../shared/bench/micro/expr-lang/build.sh),
micro also runs it in each round, with as many evaluations as hclvm's, and
a last line gives hclvm's time as a multiple of it (with both engines'
counts of true results, which must agree). These machines are noisy:
compare ratios from one run, not absolute times from different runs.
"""

import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.path.join(os.path.dirname(ROOT), "shared")

# name, mode, source, variables, (hclvm iterations, reference iterations).
# Both sides run the same number of evaluations, whole passes over the
# variables: the first pass (cold caches, results kept for the checksum) is
# slower than the next ones for both, so equal counts weigh it equally.
WORKLOADS = [
    ("policy", "body", "policy/policy.hcl", "policy/requests.jsonl", (20000, 20000)),
    ("render", "template", "render/site.tmpl", "render/sites.jsonl", (20000, 20000)),
    ("collections", "body", "collections/collections.hcl", "collections/vars.jsonl", (12, 12)),
    ("micro", "expr", "micro/expr.hcl", "micro/vars.jsonl", (200000, 200000)),
]


# hclvm runs per round (see main).
OURS_RUNS = 3


def last_json(argv):
    """Runs a bench command; the JSON object of its last line of output."""
    out = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def bench(binary, mode, src, variables, iters):
    result = last_json([binary, "bench", "--mode", mode, "--src", src, "--vars-jsonl", variables, "--iters", str(iters)])
    return float(result["ns_per_eval"]), result["result_checksum"]


def warm_bench(binary, mode, src, variables):
    """The anchor's protocol: three runs of one pass, the median run."""
    result = last_json([binary, "bench", "--mode", mode, "--src", src, "--vars-jsonl", variables, "--runs", "3"])
    return float(result["median_ns_per_eval"])


def native_bench(binary, workload, variables):
    return float(last_json([binary, "bench", "--workload", workload, "--vars-jsonl", variables])["ns_per_eval"])


def expr_bench(binary, src, variables, iters):
    """expr-lang/expr's anchor: ns per evaluation, and how many results of
    its first pass are true."""
    result = last_json([binary, "--src", src, "--vars-jsonl", variables, "--iters", str(iters)])
    return float(result["ns_per_eval"]), result["first_pass_true"]


def first_pass_trues(binary, src, variables):
    """How many of the variable sets make hclvm's result true (the
    expr-lang anchor's check figure)."""
    out = subprocess.run(
        [binary, "batch", "--mode", "expr", "--vars-jsonl", variables, src],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return sum(1 for line in out.splitlines() if json.loads(line).get("value") is True)


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    hclvm = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "target", "release", "hclvm")
    oracle = sys.argv[3] if len(sys.argv) > 3 else os.path.join(SHARED, "oracle", "bin", "hcl-oracle")
    bench_dir = os.environ.get("HCLVM_BENCH_DIR", os.path.join(SHARED, "bench"))
    for path, what in [(hclvm, "hclvm binary"), (oracle, "reference binary"), (bench_dir, "bench workloads")]:
        if not os.path.exists(path):
            print(f"skipped: no {what} at {path}")
            return 0
    native = os.environ.get("NATIVE_ANCHOR")
    if native and not os.access(native, os.X_OK):
        print(f"skipped: NATIVE_ANCHOR={native} is not an executable")
        return 0
    expr_anchor = os.environ.get("EXPR_ANCHOR")
    if expr_anchor and not os.access(expr_anchor, os.X_OK):
        print(f"skipped: EXPR_ANCHOR={expr_anchor} is not an executable")
        return 0
    expr_lines = []
    native_col = f" {'hclvm warm':>11} {'native ns/eval':>15} {'vs native':>10}" if native else ""
    print(f"{'workload':<12} {'hclvm ns/eval':>14} {'reference ns/eval':>18} {'speed-up':>9}{native_col}  checksums")
    for name, mode, src, variables, (ours_iters, ref_iters) in WORKLOADS:
        src = os.path.join(bench_dir, src)
        variables = os.path.join(bench_dir, variables)
        ours, ref, nat, warm, expr_ns = [], [], [], [], []
        sums, anchor_trues = set(), set()
        with_native = native and name in ("policy", "render")
        with_expr = expr_anchor and name == "micro"
        for _ in range(rounds):
            if with_native:
                nat.append(native_bench(native, name, variables))
                warm.append(warm_bench(hclvm, mode, src, variables))
            if with_expr:
                ns, trues = expr_bench(expr_anchor, src, variables, ours_iters)
                expr_ns.append(ns)
                anchor_trues.add(trues)
            # The same work per run; hclvm's runs are about 50 times
            # shorter, so a burst of load from elsewhere can spoil a whole
            # one: it runs OURS_RUNS times per round (its median is over
            # all of them).
            for _ in range(OURS_RUNS):
                ns, s1 = bench(hclvm, mode, src, variables, ours_iters)
                ours.append(ns)
                sums.add((s1, None))
            ns, s2 = bench(oracle, mode, src, variables, ref_iters)
            ref.append(ns)
            sums.add((s1, s2))
        o, r = statistics.median(ours), statistics.median(ref)
        ours_sums = {a for a, _ in sums}
        ref_sums = {b for _, b in sums if b is not None}
        agree = len(ours_sums) == 1 and ours_sums == ref_sums
        verdict = "equal" if agree else f"DIFFER hclvm {sorted(ours_sums)} reference {sorted(ref_sums)}"
        cols = ""
        if native:
            n = statistics.median(nat) if nat else None
            w = statistics.median(warm) if warm else None
            cols = f" {w:>11.0f} {n:>15.0f} {w / n:>9.2f}x" if n and w else f" {'-':>11} {'-':>15} {'-':>10}"
        print(f"{name:<12} {o:>14.0f} {r:>18.0f} {r / o:>8.1f}x{cols}  {verdict}")
        if with_expr:
            e = statistics.median(expr_ns)
            ours_trues = first_pass_trues(hclvm, src, variables)
            agree = "equal" if anchor_trues == {ours_trues} else "DIFFER"
            trues = f"true results: expr-lang {sorted(anchor_trues)}, hclvm {ours_trues}, {agree}"
            expr_lines.append(f"micro: expr-lang/expr {e:.0f} ns/eval, hclvm {o:.0f} ns/eval: {o / e:.2f}x expr-lang's time ({trues})")
    for line in expr_lines:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
