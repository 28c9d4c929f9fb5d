#!/usr/bin/env python3
"""Makes tests/data/corpus_eval.tsv: what the reference gives for each file
of tests/data/corpus evaluated without variables (config files in body
mode, templates in template mode, the standard library), as an FNV-1a
64-bit hash of its result line (`tests/corpus_eval.rs` compares hclvm's
lines' hashes with these).

    python3 tests/data/corpus_eval.py [ORACLE]
        (default ../shared/oracle/bin/hcl-oracle next to the repository)

With --cases, prints the case lines instead (to diff hclvm's and the
reference's full results: `hclvm conformance` reads the same lines).
"""
import json, os, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))


def cases():
    out = []
    for sub, mode in (("realworld", "body"), ("templates", "template")):
        base = os.path.join(here, "corpus", sub)
        for dirpath, _, files in os.walk(base):
            for f in files:
                path = os.path.join(dirpath, f)
                with open(path, "rb") as fh:
                    src = fh.read().decode("utf-8")
                rel = os.path.relpath(path, os.path.join(here, "corpus")).replace(os.sep, "/")
                out.append({"id": rel, "mode": mode, "src": src, "funcs": "stdlib"})
    out.sort(key=lambda c: c["id"])
    return out


def fnv1a(data):
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def main():
    args = [a for a in sys.argv[1:] if a != "--cases"]
    lines = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases())
    if "--cases" in sys.argv:
        sys.stdout.write(lines)
        return
    oracle = args[0] if args else os.path.join(os.path.dirname(root), "shared", "oracle", "bin", "hcl-oracle")
    results = subprocess.run([oracle, "--in-process", "-"], input=lines.encode(), capture_output=True, check=True).stdout
    with open(os.path.join(here, "corpus_eval.tsv"), "w") as out:
        out.write("# path\tFNV-1a 64 of the reference's result line (tests/data/corpus_eval.py)\n")
        for line in results.decode().splitlines():
            if line.strip():
                out.write("%s\t%016x\n" % (json.loads(line)["id"], fnv1a(line.encode())))


main()
