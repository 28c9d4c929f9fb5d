#!/usr/bin/env python3
"""Writes the cases of cases/operands.jsonl: conformance cases (the
oracle's case format) for the opt-in short-circuit `&&` and `||` (hclvm
`conformance --short-circuit`, `Options::short_circuit`): every pair of
operand kinds on both operators, chains, and the operators inside `for`,
templates, conditionals and bodies. Their expected results come from an
oracle built with hcl v2.24.0's hclsyntax/expression_ops.go (regen.sh).
cases/nested.jsonl is `tests/diff_fuzz_short_circuit.py 1 1500` (ids
renamed `nested-N`).

    python3 tests/data/short_circuit/gen_cases.py > tests/data/short_circuit/cases/operands.jsonl
"""
import itertools
import json
import re

# Variables every case gets: typed nulls, values of several types, and
# unknowns (plain and refined).
VARS = {
    "t": True,
    "f": False,
    "n": None,
    "nb": {"type": "bool", "value": None},
    "nl": {"type": ["list", "string"], "value": None},
    "s": "abc",
    "st": "true",
    "num": 5,
    "o": {"x": 1, "ok": True},
    "l": ["a"],
    "empty": [],
}
UNKNOWNS = {"ub": "bool", "ud": "dynamic", "us": "string", "un": "number"}

# Operands: what each kind of value and failure does on either side.
OPERANDS = [
    "true",
    "false",
    "null",
    "t",
    "f",
    "n",
    "nb",
    "nl",
    "ub",
    "ud",
    "us",
    "(us != null)",
    "(ub == true)",
    "nope",
    "n.x",
    "o.missing",
    '"${n}true"',
    '"${n}false"',
    '"true"',
    "st",
    "s",
    "num",
    "l",
    "(num > un)",
    "(!ub)",
    "can(n.x)",
    "(t ? ub : false)",
    "(n.x == 1)",
    "(nope > 1)",
]


def referenced(names, src):
    """The entries of `names` whose name occurs in `src` as a word."""
    return {k: v for k, v in names.items() if re.search(r"(?<![\w.])" + k + r"\b", src)}


def case(i, src, mode="expr", note=None):
    c = {"id": i, "mode": mode, "src": src, "vars": referenced(VARS, src), "unknowns": referenced(UNKNOWNS, src)}
    if note:
        c["_note"] = note
    return json.dumps(c, ensure_ascii=False)


def main():
    out = []
    for op, opname in (("&&", "and"), ("||", "or")):
        for a, (l, r) in enumerate(itertools.product(OPERANDS, OPERANDS)):
            out.append(case(f"{opname}-{a:03d}", f"{l} {op} {r}"))
    # Chains, precedence, nesting.
    chains = [
        "v != null && v.x > 0",
        "n != null && n.x > 0",
        "n == null || n.x > 0",
        "o != null && o.x > 0",
        "n != null && n.x",
        "length(empty) > 0 && empty[0] == \"a\"",
        "length(l) > 0 && l[0] == \"a\"",
        "false && n.x || true",
        "true || n.x && false",
        "(true || n.x) && n.y",
        "false && n.x && n.y",
        "n.x && false && n.y",
        "n.x || true || n.y",
        "ub || n.x || true",
        "ub && n.x && false",
        "ub && ud && n.x",
        "n.x && ub && ud",
        "!(false && n.x)",
        "!false && n.x",
        "false && n.x == 1 || t",
        "t || f && n.x",
        "(t || f) && n.x",
        "1 + 1 == 2 && n.x > 0",
        "false && !n.x",
        "false && (n.x ? true : false)",
        "false && (t ? n.x : false)",
        "false && try(n.x, true)",
        "false && try(n.x, 5)",
        "false && [for x in l : x]",
        "false && \"${n.x}\"",
        "false && \"x${n}\"",
        "(ub && n.x) || true",
        "(true && n.x) || true",
        "(\"${n}false\" && ub) || true",
        "(\"${n}false\" && ub) || false",
        "ub && (true || n.x)",
        "nb && n.x",
        "nb || n.x",
        "nb || true",
        "nb || false",
        "nb || ub",
        "false || nb",
        "true && nb",
        "ub && nb",
        "ub || nb",
        "(ub && true) == true",
        "(ub && false) ? 1 : 2",
        "(ub || t) ? 1 : 2",
        "(ub && t) ? 1 : 2",
        # Conversion errors before operand diagnostics (hcl >= 2.21).
        "\"${n}a\" + 1",
        "1 + \"${n}a\"",
        "\"${n}a\" < 1",
        "\"${n}a\" * \"${n}b\"",
        "\"${n}a\" == 1",
        "\"${n}a\" && true",
        "\"${n}a\" || \"${n}b\"",
        "-\"${n}a\"",
        "!\"${n}a\"",
        "[n.x] + 1",
        "[n.x] && false",
        "false && [n.x]",
        "nope + 1",
        "nope && \"s\"",
    ]
    for i, src in enumerate(chains):
        out.append(case(f"chain-{i:02d}", src))
    # In for expressions, templates, conditionals, bodies.
    contexts = [
        ("expr", "[for x in [null, {a = 1}, {a = 0}] : x != null && x.a > 0]"),
        ("expr", "[for x in [null, {a = 1}, {a = 0}] : x == null || x.a > 0]"),
        ("expr", "[for x in [null, {a = 1}, {a = 0}] : x if x != null && x.a > 0]"),
        ("expr", "{for k, x in {p = null, q = {a = 1}} : k => x != null && x.a}"),
        ("expr", "[for x in [null, {a = 1}] : x.a if x != null && x.a > 0]"),
        ("expr", "[for x in [1, 2] : x if ub && x > 1]"),
        ("expr", "[for x in [1, 2] : x if false && nope]"),
        ("expr", "[for x in [1, 2] : x if x > 1 || nope]"),
        ("expr", "[for x in us : x if false && n.x]"),
        ("expr", "n != null && n.x ? \"yes\" : \"no\""),
        ("expr", "(n != null && n.x) ? \"yes\" : \"no\""),
        ("expr", "t ? (false && n.x) : (true || n.y)"),
        ("expr", "t ? false && n.x : n.y"),
        ("template", "%{ if n != null && n.x }yes%{ else }no%{ endif }"),
        ("template", "%{ if n == null || n.x }yes%{ else }no%{ endif }"),
        ("template", "${n != null && n.x > 0}"),
        ("template", "v=${false && n.x}, w=${true || n.x}"),
        ("template", "%{ for x in [null, {a = 1}] }${x != null && x.a == 1}-%{ endfor }"),
        ("template", "%{ for x in [null, {a = 1}] }%{ if x != null && x.a == 1 }one%{ endif }%{ endfor }"),
        ("template", "${ub && n.x}"),
        ("template", "pre-${ub || false}"),
        ("body", "a = n != null && n.x\nb = n == null || n.x\nc = ub && n.x\nd = n.x && false\n"),
        ("body", "a = [for x in [null, {a = 1}] : x != null && x.a == 1]\nb = [for x in [null, {a = 1}] : x != null && x.a == 1]\n"),
        ("body", "r \"x\" {\n  ok = o != null && o.ok\n  no = n != null && n.ok\n}\n"),
        ("expr", "[n != null && n.x, false && nope, true || nope, false || nope]"),
        ("expr", "{a = n != null && n.x, b = ub || n.x}"),
        ("expr", "[for x in [true, false] : x || n.x]"),
        ("expr", "[for x in [true, false, null] : x && n.x]"),
        ("expr", "[for x in [\"true\", \"false\", \"maybe\"] : x && true]"),
        ("expr", "[for x in [\"true\", \"false\", \"maybe\"] : false && x]"),
        ("expr", "[for x in [1, 2] : x > 1 && x < 3 || x == 1]"),
        ("expr", "contains(l, \"a\") && length(l) == 1"),
        ("expr", "startswith(s, \"a\") || n.x"),
        ("expr", "false && startswith(n.x, \"a\")"),
        ("expr", "false && upper(n.x)"),
        ("expr", "false && upper(\"x\")"),
        ("expr", "false && tobool(\"true\")"),
    ]
    for i, (mode, src) in enumerate(contexts):
        out.append(case(f"ctx-{i:02d}", src, mode))
    print("\n".join(out))


main()
