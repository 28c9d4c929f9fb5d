#!/usr/bin/env python3
# Namespaced function calls (`provider::ns::f()`, hcl v2.18+) for
# differential testing against the reference:
#   python3 tests/diff_fuzz_namespaced.py SEED COUNT > cases.jsonl
#   hclvm conformance cases.jsonl > ours; hcl-oracle --in-process cases.jsonl > ref; diff ours ref
# Prints a fixed grid first (every selector below, well-formed or not, in
# every syntactic position, in expression, template and body mode, with the
# "stdlib" and "none" function tables), then COUNT random cases: selectors
# nested in random positions, and random soups of the tokens around `::`
# (identifiers, `::`, `:`, brackets, dots, newlines, comments) that exercise
# the parser's recovery. Standard library only.
import json
import random
import sys

R = random.Random(int(sys.argv[1]))
COUNT = int(sys.argv[2])

VARS = {"c": True, "l": [1, 2], "x": {"a": 1, "b": [3]}, "s": "str", "n": 2,
        "lo": [{"a": 1, "b": "p"}, {"a": 2, "b": "q"}]}
UNK = {"u": ["list", ["object", {"a": ["list", "number"]}]], "ud": "dynamic"}

# Selectors: `X` stands for the call in a position.
SELECTORS = [
    # well-formed
    "a::f()", "a::f(1)", "provider::ns::f(1)", "core::upper(\"a\")", "core::try(1)",
    "provider::terraform::encode_expr([1, 2])", "a::b::c::d(1, 2)", "a :: b()", "a ::b (1)",
    "a/* c */::/* d */b()", "a::b(l...)", "a::b(\n1,\n)", "a::upper(s)", "core::uper(1)",
    "a-b::c_d()", "\u00e9::\u00fc()", "a::b(1)(2)", "upper::upper(\"x\")", "for::if()", "a::null()",
    "true::false()", "a::b(a::c(1))", "a::b(x.a, [for v in l : v])",
    # malformed selectors
    "a::", "a::b", "a::1", "a::(", "a::)", "a::b::", "a:::b()", "a::b.c()", "a::\"s\"()",
    "a::b[0]", "a::1(x)", "a::1 (x)", "a::b::1()", "a::b c()", "a::b(", "a::b(1", "a::b(1,",
    "a ::", "a::b.c", "a::*", "a::b...", "a::b::c", "a::{}", "a::[1]", "a::b(1 2)", "a::b(...)",
    "::a()", "a:: ::b()", "a: :b()", "a::b ::", "a::b:c()", "a::f(1)::g()", "a::-1",
    "a::b (1) (2)", "a::\"${x}\"", "a::b(x::)", "a::1(x).y", "a::1(x)[0]", "a::b\n(1)",
]

# Positions: `X` is replaced by a selector. (mode, source)
POSITIONS = [
    ("expr", "X"), ("expr", "-X"), ("expr", "!X"), ("expr", "--X"), ("expr", "X.y"), ("expr", "X.0"),
    ("expr", "X.0.1"), ("expr", "X[0]"), ("expr", "X[\"k\"]"), ("expr", "X[n]"), ("expr", "X[*]"),
    ("expr", "X[*].a"), ("expr", "X.*"), ("expr", "X.*.a"), ("expr", "X.*.1"), ("expr", "X.*.*"),
    ("expr", "X.\"q\""), ("expr", "X.(y)"), ("expr", "(X)"), ("expr", "(X).y"), ("expr", "(X)[0]"),
    ("expr", "-(X)"), ("expr", "1 + X"), ("expr", "X + 1"), ("expr", "X * 2 + 1"), ("expr", "1 + X * 2"),
    ("expr", "X == X"), ("expr", "c && X"), ("expr", "X ? 1 : 2"), ("expr", "c ? X : 2"),
    ("expr", "c ? 1 : X"), ("expr", "c ? X : X"), ("expr", "[X]"), ("expr", "[1, X, 2]"),
    ("expr", "[X, X]"), ("expr", "{k = X}"), ("expr", "{k = X, j = 2}"), ("expr", "{X = 1}"),
    ("expr", "{(X) = 1}"), ("expr", "{X: 1}"), ("expr", "{\n k = X\n j = 1\n}"),
    ("expr", "[for k, v in X : v]"), ("expr", "[for v in l : X]"), ("expr", "{for k, v in l : X => v}"),
    ("expr", "{for k, v in l : k => X}"), ("expr", "{for k, v in l : k => X...}"),
    ("expr", "[for v in l : v if X]"), ("expr", "[for v in l : X if c]"), ("expr", "[for v in X : v]"),
    ("expr", "upper(X)"), ("expr", "max(1, X)"), ("expr", "concat(X...)"), ("expr", "try(X, 1)"),
    ("expr", "can(X)"), ("expr", "try(1, X)"), ("expr", "\"${X}\""), ("expr", "\"a${X}b\""),
    ("expr", "\"%{if X}a%{endif}\""), ("expr", "\"%{if c}${X}%{endif}\""),
    ("expr", "\"%{if c}a${X}%{else}${X}b%{endif}\""), ("expr", "\"%{for v in l}${X}%{endfor}\""),
    ("expr", "\"%{for v in X}a%{endfor}\""), ("expr", "<<EOT\n${X}\nEOT\n"), ("expr", "x[X]"),
    ("expr", "lo[*].a[X]"), ("expr", "u[*].a[X]"), ("expr", "lo.*.a"), ("expr", "ud[*][X]"),
    ("expr", "x.b[X]"), ("expr", "X\n"), ("expr", "\nX\n"), ("expr", "X X"),
    ("template", "X"), ("template", "${X}"), ("template", "a ${X} b"), ("template", "${X}${X}"),
    ("template", "%{if X}y%{endif}"), ("template", "%{if c}${X}%{endif}"),
    ("template", "%{if c}a%{else}${X}%{endif}"), ("template", "%{if c}${X}b${X}%{endif}"),
    ("template", "%{for v in l}${X}%{endfor}"), ("template", "%{for v in l}a${X}%{endfor}"),
    ("template", "%{for v in l}${X}a%{endfor}"), ("template", "%{for v in X}a%{endfor}"),
    ("template", "%{for v in l}${v}%{if c}${X}%{endif}%{endfor}"), ("template", "${~X~} x"),
    ("body", "a = X\n"), ("body", "a = X\nb = 2\n"), ("body", "a = X"), ("body", "b {\n  a = X\n}\n"),
    ("body", "b { a = X }\n"), ("body", "b \"l\" {\n  a = X\n  c = 1\n}\nd = 2\n"),
    ("body", "a = [\n  X,\n]\n"), ("body", "a = {\n  k = X\n}\n"), ("body", "a = (\n  X\n)\n"),
    ("body", "a = 1\nb = X\nc = f(1)\n"), ("body", "a = <<EOT\n${X}\nEOT\n"),
]

# Around colons: `::` next to conditionals, object keys and `for`.
COLON_CASES = [
    "{a::b = 1}", "{a::b() = 1}", "{(a::b()) = 1}", "{a :: 1}", "{a: :b}", "{\"a\" :: 1}", "{a:::b}",
    "c ? a::b() : 1", "c ? a::b : 1", "c ? a :: b : 1", "c ?a: :b", "c ? 1 :: 2", "c ? 1 ::: 2",
    "c ? a::b(): 1", "c ?a::b():a::c()", "[for v in l :: v]", "[for v in l ::: v]", "[for v in l : : v]",
    "[for v in l : v::f()]", "[for k, v in l : k::f()]", "[for v in a::b() : v]", "[for v in a::b : v]",
    "{for k, v in l : k::f() => v}", "{for k, v in l : k => v::f()}", "{for k, v in l : k => v ::}",
    "\"${a::b}\"", "\"${a::}\"", "\"${a:b}\"", "\"${a :: b}\"", "\"${1::}\"", "\"${x ::}\"",
    "\"%{for v in l :: }x%{endfor}\"", "\"%{if a::b}x%{endif}\"", "\"%{if a::b()}x%{endif}\"",
    "l[*]::f()", "l.*::f()", "x.a::f()", "x::f().a", "x::f()[0]", "x::f()[*].a", "x::f().*.a",
    "a::b(1)...", "[a::b(l)...]", "f(a::b(l)...)", "a::b(\n  1\n)", "(a\n::b())", "(a::\nb())",
    "a::b::c::d::e::f::g::h()", "a::b(1, 2, 3)", "a::b()::c",
]

FUNCS = ["stdlib", "none", "nil"]

ATOMS = ["a", "b", "f", "upper", "provider", "core", "::", "::", ":", "(", ")", "(", ")", ".", "[", "]",
         "1", "x", "\n", " ", "/* c */", "# c\n", "?", ",", "=", "{", "}", "\"s\"", "-", "!", "*", "..."]


def soup():
    n = R.randint(1, 10)
    out = []
    for _ in range(n):
        t = R.choice(ATOMS)
        if out and R.random() < 0.4 and t not in ("\n", " "):
            out.append(" ")
        out.append(t)
    return "".join(out)


def nested(depth):
    """A selector in a position, possibly within another."""
    sel = R.choice(SELECTORS) if R.random() < 0.7 or depth > 2 else nested(depth + 1)
    mode, pos = R.choice([p for p in POSITIONS if p[0] == "expr"])
    return pos.replace("X", sel)


def case(cid, mode, src, funcs):
    return json.dumps({"id": cid, "mode": mode, "src": src, "vars": VARS, "unknowns": UNK, "funcs": funcs})


n = 0
for funcs in FUNCS:
    for si, sel in enumerate(SELECTORS):
        for pi, (mode, pos) in enumerate(POSITIONS):
            print(case("grid-%s-%d-%d" % (funcs, si, pi), mode, pos.replace("X", sel), funcs))
    for ci, src in enumerate(COLON_CASES):
        for mode in ("expr", "template", "body"):
            s = src if mode != "body" else "a = " + src + "\n"
            if mode == "template":
                s = "${" + src + "}"
            print(case("colon-%s-%d-%s" % (funcs, ci, mode), mode, s, funcs))

for i in range(COUNT):
    r = R.random()
    funcs = R.choice(FUNCS)
    if r < 0.4:
        print(case("soup-expr-%d" % i, "expr", soup(), funcs))
    elif r < 0.55:
        print(case("soup-body-%d" % i, "body", "a = " + soup() + "\n" + R.choice(["", "b = 1\n", "c { d = f(1) }\n"]), funcs))
    elif r < 0.65:
        print(case("soup-tmpl-%d" % i, "template", R.choice(["${", "%{if ", "%{for v in ", "a ${"]) + soup() + R.choice(["}", "}x%{endif}", "}x%{endfor}", ""]), funcs))
    elif r < 0.9:
        print(case("nest-expr-%d" % i, "expr", nested(0), funcs))
    else:
        print(case("nest-body-%d" % i, "body", "a = " + nested(0) + "\n", funcs))
