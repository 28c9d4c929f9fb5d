#!/usr/bin/env python3
"""One-shot work on the real-world corpus: every file parsed, compiled,
evaluated once and its result written, by hclvm and by the reference.

Builds one case file with a case per corpus file, as the reference
evaluates a file once (config files in body mode, templates in template
mode, the standard library, no variables: `tests/data/corpus_eval.py`'s
cases, over the shared corpus), then runs `hclvm conformance` and
`hcl-oracle --in-process` on it, interleaved over several rounds, and
prints the wall time of each (median, best), the ratio, and whether the
outputs are identical (else how many result lines are compare.py-equal:
byte-identical is what the project promises).

    python3 benches/one_shot.py [ROUNDS] [HCLVM] [ORACLE]

Defaults: 5 rounds, target/release/hclvm, ../shared/oracle/bin/hcl-oracle,
the corpus of $HCLVM_SHARED or ../shared beside the repository (skipped
with a message when absent). Whole process runs are timed (start-up,
reading the cases, writing the results to a file). These machines are
shared and noisy: compare ratios from one run, and prefer instruction
counts for before/after comparisons (`--cases` writes the case file and
exits, to run hclvm under `valgrind --tool=cachegrind`).
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.environ.get("HCLVM_SHARED", os.path.join(os.path.dirname(ROOT), "shared"))


def corpus_cases(corpus):
    """One case line per file of the corpus's manifest, in manifest order."""
    with open(os.path.join(corpus, "MANIFEST.tsv"), encoding="utf-8") as f:
        rels = [line.split("\t", 1)[0] for line in f.read().splitlines()[1:] if line]
    lines = []
    for rel in sorted(rels):
        with open(os.path.join(corpus, rel), "rb") as f:
            src = f.read().decode("utf-8")
        mode = "template" if rel.startswith("templates/") else "body"
        lines.append(json.dumps({"id": rel, "mode": mode, "src": src, "funcs": "stdlib"}, ensure_ascii=False))
    return "".join(line + "\n" for line in lines), len(lines)


def timed(argv, out_path):
    with open(out_path, "wb") as out:
        t0 = time.perf_counter()
        subprocess.run(argv, stdout=out, check=True)
        return time.perf_counter() - t0


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    corpus = os.path.join(SHARED, "corpus")
    if not os.path.isfile(os.path.join(corpus, "MANIFEST.tsv")):
        print(f"skipped: no corpus at {corpus}")
        return 0
    text, count = corpus_cases(corpus)
    tmp = tempfile.mkdtemp(prefix="hclvm-one-shot-")
    cases = os.path.join(tmp, "corpus.jsonl")
    with open(cases, "w", encoding="utf-8") as f:
        f.write(text)
    if "--cases" in sys.argv:
        print(cases)
        return 0
    rounds = int(args[0]) if args else 5
    hclvm = args[1] if len(args) > 1 else os.path.join(ROOT, "target", "release", "hclvm")
    oracle = args[2] if len(args) > 2 else os.path.join(SHARED, "oracle", "bin", "hcl-oracle")
    for path, what in [(hclvm, "hclvm binary"), (oracle, "reference binary")]:
        if not os.path.exists(path):
            print(f"skipped: no {what} at {path}")
            return 0
    ours_out, ref_out = os.path.join(tmp, "hclvm.jsonl"), os.path.join(tmp, "reference.jsonl")
    ours, ref = [], []
    for _ in range(rounds):
        ours.append(timed([hclvm, "conformance", cases], ours_out))
        ref.append(timed([oracle, "--in-process", cases], ref_out))
    with open(ours_out, "rb") as f:
        ours_lines = f.read().splitlines()
    with open(ref_out, "rb") as f:
        ref_lines = f.read().splitlines()
    mb = len(text.encode()) / 1e6
    print(f"{count} corpus files, {mb:.2f} MB of case lines, {rounds} rounds (interleaved)")
    for name, times in (("hclvm conformance", ours), ("hcl-oracle --in-process", ref)):
        print(f"{name:<24} median {statistics.median(times):7.3f} s   best {min(times):7.3f} s")
    print(
        f"speed-up: {statistics.median(ref) / statistics.median(ours):.1f}x (medians), "
        f"{min(ref) / min(ours):.1f}x (best runs)"
    )
    if ours_lines == ref_lines:
        print(f"results: identical ({len(ours_lines)} lines)")
        return 0
    differ = sum(1 for a, b in zip(ours_lines, ref_lines) if a != b) + abs(len(ours_lines) - len(ref_lines))
    print(f"results: {differ} of {len(ref_lines)} lines differ ({ours_out}, {ref_out})")
    compare = os.path.join(SHARED, "conformance", "compare.py")
    if os.path.exists(compare):
        r = subprocess.run([sys.executable, compare, ref_out, ours_out, "--show", "3", "--cases", cases], capture_output=True, text=True)
        print("compare.py: " + (r.stdout.strip().splitlines() or ["(no output)"])[-1])
    return 1


if __name__ == "__main__":
    sys.exit(main())
