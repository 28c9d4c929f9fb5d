#!/usr/bin/env python3
"""Makes tests/data/corpus_eval.tsv: what the reference gives for each file
of tests/data/corpus evaluated without variables (config files in body
mode, templates in template mode, the standard library), as an FNV-1a
64-bit hash of its result line (`tests/corpus_eval.rs` compares hclvm's
lines' hashes with these).

Also tests/data/corpus_eval_unknown.tsv: each file that reads variables
evaluated again with every root it reads unknown, as a validator or planner
evaluates a configuration: a root is an object of the attributes its
traversals step through (`var.region` makes `var` an object with a
`region` attribute), leaves of a type drawn per file from a seeded
generator (string, number, bool, dynamic, list, map). These exercise
refinements of unknowns on real configurations. The unknowns are kept in
the file, so the test rebuilds the same cases.

    python3 tests/data/corpus_eval.py [ORACLE]
        (default ../shared/oracle/bin/hcl-oracle next to the repository)

With --cases, prints the case lines instead (to diff hclvm's and the
reference's full results: `hclvm conformance` reads the same lines).
"""
import json, os, random, re, subprocess, sys

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


STEP = re.compile(r'\.([A-Za-z_][A-Za-z0-9_-]*)|\[("(?:[^"\\]|\\.)*"|[0-9.e+-]+)\]')
ROOT = re.compile(r'[A-Za-z_][A-Za-z0-9_-]*')
NO_VAR = re.compile(r'There is no variable named \\"([^"\\]+)\\"')


def traversals(node, acc):
    if isinstance(node, dict):
        if isinstance(node.get("vars"), list):
            acc.extend(node["vars"])
        for v in node.values():
            traversals(v, acc)
    elif isinstance(node, list):
        for v in node:
            traversals(v, acc)


def root_types(case_id, result_line):
    """The unknown type of each root a file reads, from its traversals."""
    roots = set(NO_VAR.findall(result_line))
    if not roots:
        return None
    rng = random.Random(case_id)
    leaf = lambda: rng.choice(["string", "string", "number", "bool", "dynamic", ["list", "string"], ["map", "string"]])
    paths = {r: [] for r in roots}
    found = []
    traversals(json.loads(result_line), found)
    for t in found:
        m = ROOT.match(t)
        if m and m.group(0) in paths:
            paths[m.group(0)].append([("a", a) if a else ("i", i) for a, i in STEP.findall(t[m.end():])])

    def build(steps_list):
        tree = {}
        for steps in steps_list:
            node = tree
            for s in steps:
                node = node.setdefault(s, {})

        def ty(node):
            if not node:
                return leaf()
            attrs = {k[1]: ty(v) for k, v in sorted(node.items()) if k[0] == "a"}
            if attrs and not any(k[0] == "i" for k in node):
                return ["object", attrs]
            if not attrs:
                return ["list", "dynamic"] if all(k[1].replace(".", "", 1).isdigit() for k in node) else ["map", "dynamic"]
            return "dynamic"
        return ty(tree)

    return {r: build(p) for r, p in sorted(paths.items())}


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
    results = [l for l in results.decode().splitlines() if l.strip()]
    with open(os.path.join(here, "corpus_eval.tsv"), "w") as out:
        out.write("# path\tFNV-1a 64 of the reference's result line (tests/data/corpus_eval.py)\n")
        for line in results:
            out.write("%s\t%016x\n" % (json.loads(line)["id"], fnv1a(line.encode())))
    # Second pass: the roots each file reads, unknown.
    unknown_cases = []
    for case, line in zip(cases(), results):
        types = root_types(case["id"], line)
        if types:
            case["unknowns"] = types
            unknown_cases.append(case)
    text = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in unknown_cases)
    results = subprocess.run([oracle, "--in-process", "-"], input=text.encode(), capture_output=True, check=True).stdout
    results = [l for l in results.decode().splitlines() if l.strip()]
    with open(os.path.join(here, "corpus_eval_unknown.tsv"), "w") as out:
        out.write("# path\tunknowns (go-cty type JSON)\tFNV-1a 64 of the reference's result line (tests/data/corpus_eval.py)\n")
        for case, line in zip(unknown_cases, results):
            out.write("%s\t%s\t%016x\n" % (case["id"], json.dumps(case["unknowns"], separators=(",", ":")), fnv1a(line.encode())))


main()
