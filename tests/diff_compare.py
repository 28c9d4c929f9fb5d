#!/usr/bin/env python3
"""Compares hclvm's result lines with the reference's for a case file:

    python3 tests/diff_compare.py CASES.jsonl OURS.jsonl REF.jsonl [--show N] [--oracle PATH]

Prints the differing cases (source, both lines) and a count. The reference
is not deterministic everywhere (it ranges over Go maps), so:
- a "Did you mean" suggestion inside a try() failure message is masked (the
  oracle normalizes only top-level suggestions);
- with --oracle, each differing case is run through the oracle again, up to
  12 times; if some run gives hclvm's line, the case is counted as
  nondeterministic in the reference (object and map equality decided by
  whichever attribute Go visits first), not as a difference."""
import json
import re
import subprocess
import sys

NESTED_SUGGESTION = re.compile(r'(no expression succeeded:.*?)(Did you mean \\"[^"\\]*\\"\?)', re.S)


def normalize(line):
    prev = None
    while prev != line:
        prev = line
        line = re.sub(r'(no expression succeeded:(?:(?!\\n\\nAt least).)*?)Did you mean \\"[^"\\]*\\"\?', r'\1Did you mean ...?', line, flags=re.S)
    return line


def reference_can_give(oracle, case, line):
    for _ in range(12):
        out = subprocess.run([oracle, "--in-process", "-"], input=(case + "\n").encode(), capture_output=True).stdout
        if normalize(out.decode("utf-8").strip()) == normalize(line):
            return True
    return False


def main():
    opts = {}
    args = []
    it = iter(sys.argv[1:])
    for a in it:
        if a in ("--show", "--oracle"):
            opts[a] = next(it)
        else:
            args.append(a)
    show = int(opts.get("--show", 10))
    oracle = opts.get("--oracle")
    # Split at "\n" only: str.splitlines() would also split inside results
    # that carry a raw U+0085, U+2028 or U+2029 (YAML line breaks).
    cases, ours, ref = (open(p, encoding="utf-8").read().rstrip("\n").split("\n") for p in args[:3])
    if len(ours) != len(ref):
        print("line counts differ: ours %d, ref %d" % (len(ours), len(ref)))
    bad = 0
    nondeterministic = 0
    for c, a, b in zip(cases, ours, ref):
        if a == b or normalize(a) == normalize(b):
            continue
        if oracle and reference_can_give(oracle, c, a):
            nondeterministic += 1
            continue
        bad += 1
        if bad <= show:
            src = json.loads(c).get("src", "")
            print("SRC ", json.dumps(src, ensure_ascii=False)[:400])
            print(" ours", a[:700])
            print(" ref ", b[:700])
    extra = " (%d more where the reference is nondeterministic)" % nondeterministic if nondeterministic else ""
    print("%d of %d differ%s" % (bad, min(len(ours), len(ref)), extra))
    sys.exit(1 if bad else 0)


main()
