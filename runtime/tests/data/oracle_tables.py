#!/usr/bin/env python3
"""Makes the runtime crate's oracle tables: the reference's answers for
conversion, unification, equality, the to* functions, typed parameters,
coalesce, jsonencode and the result encoding, as JSON Lines files next to
this script, read by runtime/tests/oracle_tables.rs and
runtime/tests/encoding.rs.

    python3 runtime/tests/data/oracle_tables.py [ORACLE]
        ORACLE: the hcl-oracle binary (default: ../shared/oracle/bin/hcl-oracle
        next to the repository root); it must say hcl v2.20.0 in --version.
    python3 runtime/tests/data/oracle_tables.py --case ROW_ID [ORACLE]
        prints the oracle case of one row (to reproduce a difference) and,
        with the oracle, its result line.
    python3 runtime/tests/data/oracle_tables.py --cases
        prints every row's oracle case (e.g. for `hclvm conformance`).

Python 3 standard library only. Everything below is the definition of the
tables; the oracle gives every answer.

Values. Each table row names its inputs and holds the oracle's answer to an
HCL expression (mode "expr", stdlib functions) built from them:

  values.jsonl       the named values: VALUES are host variables (a typed
                     value, or an unknown of a type); EXPR_VALUES are defined
                     by HCL source over those variables, and the oracle's
                     result is the value (a variable cannot be a partly
                     unknown value). Row: {"id": "value/NAME", "name",
                     "type", "value"} or {..., "type", "unknown": true} or
                     {..., "src"}, with "want", the oracle's answer for the
                     value itself (NAME, or SRC).
  cond.jsonl         `C ? A : B` for every ordered pair of named values and
                     C in true, false: UnifyUnsafe of the two types, then the
                     chosen side's conversion. {"id": "cond/A/B/C", "a", "b",
                     "cond", "want"}
  eq.jsonl           `A == B` for every ordered pair: cty Equals.
                     {"id": "eq/A/B", "a", "b", "want"}
  to.jsonl           `tostring(A)` ... `tomap(A)` for every value.
                     {"id": "to/FUNC/A", "func", "arg", "want"}
  param.jsonl        `F(A)` for functions whose first parameter has a fixed
                     type (PARAM_FUNCS), every value that is neither null nor
                     unknown as a whole: Convert of the argument.
                     {"id": "param/FUNC/A", "func", "param", "type", "arg",
                     "want"}

  A named variable appears in an expression as its name; an expression value
  as its source in parentheses. The case declares exactly the variables the
  expression reads.

Fuzz values: FUZZ_SOURCES are random nested expressions over the unknowns
FUZZ_UNKNOWNS; the oracle's result for each is the value (fuzz_values.jsonl,
{"id": "fuzz_value/I", "index", "src", "want"}). Rows refer to values by
index and use the source in parentheses; pairs and triples are drawn by a
fixed pseudo-random sequence (SplitMix64, seed FUZZ_SEED), distinct and
sorted. Rows are shaped as above, with indices for names:

  fuzz_cond.jsonl       `C ? A : B`, FUZZ_PAIRS pairs, C in true, false
  fuzz_eq.jsonl         `A == B`, the same pairs
  fuzz_to.jsonl         `tostring(A)` ... `tomap(A)` for every value
  fuzz_coalesce.jsonl   `coalesce(A, B, C)`, FUZZ_TRIPLES triples
                        ({"id": "fuzz_coalesce/A/B/C", "args": [A, B, C]})
  fuzz_jsonencode.jsonl `jsonencode(A)` for every value

Other tables:

  conformance_equality.jsonl  the cases `NAME == NAME` / `NAME != NAME` over
                     variables among sem/equality/* of the conformance corpus
                     copy (tests/data/conformance/cases/semantics.jsonl),
                     {"id", "vars", "unknowns", "a", "op", "b", "want"}.
  encoding.jsonl     ENCODING_SOURCES (unknown `u` of type string):
                     {"id": "encoding/I", "src", "want"}; the answer's
                     exact bytes are what runtime::json must write for the
                     decoded value.

"want" is "ok " followed by the oracle's result line from its "type" key to
the end (exact bytes: "type":T,"value":V[,"known":false]), or "err " followed
by "SUMMARY: DETAIL" of the error diagnostics (joined by " | " if several).
Where Go's map order picks which attribute or element a message names, a
new answer equal to the file's previous one but for that name keeps the
previous text. Row ids are unique; known_differences.txt (edited by hand,
not by this script) lists the ids the engine still answers differently.
"""

import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
DEFAULT_ORACLE = os.path.join(REPO, "..", "shared", "oracle", "bin", "hcl-oracle")
SEMANTICS = os.path.join(REPO, "tests", "data", "conformance", "cases", "semantics.jsonl")
REQUIRED_VERSION = "hcl v2.20.0"

UNKNOWN = object()

# (name, cty type JSON, value JSON text or UNKNOWN)
VALUES = [
    ("s", "string", '"a"'),
    ("s1", "string", '"1"'),
    ("s15", "string", '"1.50"'),
    ("strue", "string", '"true"'),
    ("sT", "string", '"True"'),
    ("szero", "string", '"0"'),
    ("n", "number", "1"),
    ("n15", "number", "1.5"),
    ("bt", "bool", "true"),
    ("ls", ["list", "string"], '["x","y"]'),
    ("ls1", ["list", "string"], '["1"]'),
    ("ln", ["list", "number"], "[2]"),
    ("lb", ["list", "bool"], "[true]"),
    ("l0n", ["list", "number"], "[]"),
    ("lls", ["list", ["list", "string"]], '[["a"],[]]'),
    ("ss", ["set", "string"], '["y","x"]'),
    ("sn", ["set", "number"], "[3,1]"),
    ("ms", ["map", "string"], '{"k":"v"}'),
    ("ms1", ["map", "string"], '{"a":"1"}'),
    ("mn", ["map", "number"], '{"a":1}'),
    ("mls", ["map", ["list", "string"]], '{"a":["x"]}'),
    ("t1", ["tuple", ["number"]], "[1]"),
    ("tsn", ["tuple", ["string", "number"]], '["a",1]'),
    ("tbs", ["tuple", ["bool", "string"]], '[true,"b"]'),
    ("t0", ["tuple", []], "[]"),
    ("tlt", ["tuple", [["list", "string"], ["tuple", ["string"]]]], '[["p"],["q"]]'),
    ("tob", ["tuple", [["object", {"a": "number"}], ["object", {"b": "number"}]]], '[{"a":1},{"b":2}]'),
    ("toa", ["tuple", [["object", {"a": "number"}], ["object", {"a": "string"}]]], '[{"a":1},{"a":"z"}]'),
    ("oa", ["object", {"a": "number"}], '{"a":1}'),
    ("oas", ["object", {"a": "string"}], '{"a":"s"}'),
    ("oab", ["object", {"a": "number", "b": "string"}], '{"a":1,"b":"x"}'),
    ("ob", ["object", {"b": "number"}], '{"b":2}'),
    ("o0", ["object", {}], "{}"),
    ("oms", ["object", {"a": ["map", "string"]}], '{"a":{"k":"v"}}'),
    ("ool", ["object", {"a": ["object", {"x": "number"}], "b": ["list", "string"]}], '{"a":{"x":1},"b":["y"]}'),
    ("lo", ["list", ["object", {"a": "number"}]], '[{"a":1},{"a":2}]'),
    ("mo", ["map", ["object", {"a": "string"}]], '{"m":{"a":"q"}}'),
    ("nls", ["list", "string"], "null"),
    ("nn", "number", "null"),
    ("us", "string", UNKNOWN),
    ("uln", ["list", "number"], UNKNOWN),
    ("uo", ["object", {"a": "number"}], UNKNOWN),
]

# (name, HCL source over VALUES)
EXPR_VALUES = [
    ("tu", '[us, "a"]'),
    ("tnull", "[null, 1]"),
    ("onull", "{a = null}"),
    ("lun", "tolist([1, uln[0]])"),
    # set element order (cty's hash buckets), null and unknown elements
    ("sobj", "toset([{a=1},{a=0},{a=1}])"),
    ("slist", "toset([[2],[1,2],[1],[2]])"),
    ("sstr", 'toset(["b","a","\u00e9","Z","\u00e1","","\u00c9"])'),
    ("snum", "toset([1e30, 3, -1, 0.5, 3.0, -0, 0, 1/3])"),
    ("sbool", "toset([true, false, true])"),
    ("sunk", 'toset([us, "a", us, "b"])'),
    ("smap", 'toset([{a="1"},{b="2"},{a="1"}, tomap({a="0"})])'),
    ("stup", 'toset([[1,"a"],[0,"b"],[1,"a"]])'),
    ("snumstr", 'toset([1, "1", "01", 10, "9"])'),
    ("snest", "toset([{x=[1,2]},{x=[1]},{x=[]}])"),
    ("mnull", 'tomap({a=null, b="x"})'),
    ("lnullobj", "tolist([{a=1}, (true ? null : {a=2})])"),
    ("ounk", "{a = us, b = 1}"),
]

TO_FUNCS = ["tostring", "tonumber", "tobool", "tolist", "toset", "tomap"]

# (function, its first parameter, the parameter's type)
PARAM_FUNCS = [
    ("abs", "num", "number"),
    ("upper", "str", "string"),
    ("compact", "list", ["list", "string"]),
    ("distinct", "list", ["list", "dynamic"]),
    ("setunion", "first_set", ["set", "dynamic"]),
]

FUZZ_UNKNOWNS = {
    "us": "string",
    "un": "number",
    "ub": "bool",
    "ud": "dynamic",
    "uls": ["list", "string"],
    "uos": ["object", {"a": "string"}],
}
FUZZ_SEED = 0x6863_6C76_6D20_7462  # "hclvm tb"
FUZZ_PAIRS = 2500
FUZZ_TRIPLES = 1500

# Random nested expressions over FUZZ_UNKNOWNS (values of many shapes:
# nested unknowns, nulls, sets, conditionals that pick a side).
FUZZ_SOURCES = [
    '[1.5, uls]',
    '[]',
    '"1"',
    '"Z"',
    '{b = ud, a = tomap({b = uls})}',
    '(true ? "x\\u0301" : (true ? {a = ub, b = "\\u2028", c = 1/3} : toset(["b"])))',
    '{a = {c = tomap({a = -0, b = -0}), b = {c = 2, b = un}, a = []}, c = {a = toset([0, 0, 2, 2]), b = "1"}}',
    '"true"',
    '{b = un, c = 0, a = uls}',
    'tolist(["b"])',
    '{b = toset([(true ? "" : 0), (true ? "" : 0)])}',
    '(true ? {b = ud, a = "Z", c = tolist([0, null, 1/3])} : tolist([tolist([ub, -1.5e-3])]))',
    'us',
    '1/3',
    'uls',
    'toset([])',
    'tolist([])',
    '1.5',
    '{}',
    'tomap({a = [1.5]})',
    'uos',
    '"b"',
    '(true ? -0 : -1.5e-3)',
    '{c = -1.5e-3, a = 1, b = [tomap({b = un, a = "é", c = un}), [us]]}',
    'tomap({c = [tolist([])]})',
    '"x\\u0301"',
    '""',
    '(true ? tolist([ud]) : toset([tomap({b = "b", c = 2, a = null})]))',
    'toset([uls])',
    'tolist([[{a = 1/3, b = 0, c = us}]])',
    '(true ? [uos] : tomap({c = {c = true, a = false, b = "1"}, a = 1/3}))',
    'tomap({})',
    'tolist(["a"])',
    'toset([uos])',
    '[(true ? toset([-1.5e-3, -1.5e-3]) : []), toset([]), (true ? toset([us, us, 1/3]) : uls), tolist([tomap({a = "1", b = "", c = "1"}), tomap({a = "1", b = "", c = "1"}), {a = true, c = -1.5e-3, b = 0.1}])]',
    'tomap({c = toset([1/3, "1", us])})',
    '[{}, "", [], 0.1]',
    '"a"',
    '0',
    '(true ? toset([]) : [])',
    'tolist([(true ? -0 : -0)])',
    'true',
    '{b = toset([0]), c = 1.5, a = {b = ud, c = (true ? un : 0), a = 0.1}}',
    '[[1e3], toset([]), tolist([true]), null]',
    '[[]]',
    '"\\u2028"',
    '["a", us]',
    'tomap({a = ub, c = us, b = ud})',
    '{a = ub, c = 0.1, b = uos}',
    'tomap({a = {c = [], b = "1", a = "x\\u0301"}})',
    'tolist([uls])',
    '0.1',
    '1',
    '{a = un}',
    '"é"',
    '-1.5e-3',
    '{c = "true", a = "a"}',
    '["\\u2028", "\\u2028", [["é", un, -0, "é"], -0], toset([2])]',
    '[{}, [], uos, tolist([[true], [true]])]',
    'toset([-1.5e-3, us, us, -1.5e-3])',
    '[0.1]',
    'tomap({b = {b = uos}})',
    'tomap({c = "é"})',
    'tomap({c = ud, b = ud, a = ud})',
    'ub',
    'false',
    '(true ? toset([]) : ud)',
    '["\\u2028"]',
    'tomap({a = uls})',
    '(true ? "a" : "true")',
    'toset([ud, 1e3, ud, ud])',
    '-0',
    '[[], tolist([uos, tomap({})]), uls]',
    '1e3',
    '(true ? false : toset([ub, (true ? 2 : true), [false]]))',
    '{a = 1/3, c = toset([])}',
    'tomap({b = {a = {c = null, a = "true", b = -0}, b = ub, c = tolist(["", 1.5, ub])}})',
    '2',
    '{b = 1/3, a = {c = [], a = 0.1, b = (true ? "x\\u0301" : "Z")}, c = 2}',
    'un',
    'toset([["Z"]])',
    '[un, "é"]',
    '(true ? -1.5e-3 : 1/3)',
    'toset([tolist([[2, 1.5, "é"]])])',
    '{b = [1.5, ub, {a = "Z", b = "a"}, tomap({b = "b"})], a = tolist([])}',
    'tomap({c = tomap({b = [2, -1.5e-3, 2]})})',
    '[{a = [], b = ud, c = un}, ud, {}]',
    '[ud, "\\u2028"]',
    '{a = ud, c = -1.5e-3}',
    'tolist([tomap({a = (true ? us : "x\\u0301"), b = (true ? us : "x\\u0301"), c = (true ? us : "x\\u0301")})])',
    '[tomap({b = (true ? "x\\u0301" : -0), a = (true ? "x\\u0301" : -0), c = null}), tolist([]), ["Z", -0, {b = "\\u2028", c = -0, a = null}, [null]], toset([{}, {}])]',
    'tolist([null, 0.1])',
    'tolist([uls, uls, (true ? toset([false, "x\\u0301"]) : [1e3])])',
    'toset([ud])',
    'toset([[1.5], [1.5], [1.5]])',
    '(true ? uos : (true ? "" : tolist([us, un])))',
    '{c = "é", a = tolist([null])}',
    '[0]',
    'tolist([[], tolist([]), tolist([]), tolist([])])',
    '[uos]',
    '(true ? {c = 1, b = "\\u2028"} : toset(["Z", ["Z", "\\u2028", "a"], tomap({b = -1.5e-3, c = 2, a = 2})]))',
    'tolist([(true ? 1.5 : (true ? -0 : ub)), (true ? 1.5 : (true ? -0 : ub))])',
    'tomap({c = tolist([{b = un}])})',
    'toset([false])',
    '{a = ud, b = "Z", c = (true ? toset([true, 1, "\\u2028"]) : toset(["Z"]))}',
    '(true ? tolist([]) : ud)',
    'tolist([tolist([{c = -0, b = null}])])',
    'toset([-0, -0])',
    'toset([{c = 1/3, b = tolist([]), a = uos}, {c = 1/3, b = tolist([]), a = uos}])',
    'tomap({c = "é", a = "é", b = 0.1})',
    'tomap({c = true})',
    '[(true ? {b = null, a = 1e3} : tomap({a = "b", c = false, b = 0}))]',
    '{b = 2}',
    '{a = {a = "a"}, c = {b = tomap({}), c = 0}, b = tolist([])}',
    '(true ? 1e3 : toset([tolist(["", 2]), [us, 1.5, -0], (true ? "é" : "x\\u0301"), [null, -1.5e-3]]))',
    '{b = toset([]), c = tomap({c = "a"}), a = ud}',
    'toset([1.5, 1.5, 1e3])',
    '{a = "x\\u0301", c = tomap({b = "Z"}), b = []}',
    'tomap({c = 0.1})',
    '[1/3, "\\u2028"]',
    '(true ? tomap({a = (true ? "b" : -0), c = (true ? "b" : -0), b = -0}) : tomap({b = 1e3}))',
    '{b = ud, a = "Z", c = ud}',
    '{b = us}',
    'tolist([us])',
    '[toset([(true ? us : -1.5e-3), "x\\u0301"])]',
    '{a = tomap({c = 0.1, a = 0.1, b = 0.1}), b = toset([]), c = null}',
    '{a = 2, c = tolist(["true"])}',
    '[tomap({}), {a = ud, c = toset([1e3, us, 0, 0])}, [uos, {c = "a", b = 1/3}, 2, tolist([2])]]',
    '(true ? -1.5e-3 : ud)',
    'tomap({a = {c = ud}})',
    'tomap({b = uls})',
    '(true ? 1.5 : tomap({a = "1", c = "1", b = [0.1]}))',
    'tomap({a = false, b = us, c = false})',
    'toset(["true", "true", "true", "true"])',
    'tomap({c = {a = tomap({}), c = true}})',
    '(true ? toset([]) : tolist([false, {a = "Z", c = 2}, {a = "Z", c = 2}]))',
    'tomap({b = (true ? toset(["\\u2028"]) : [0.1, "b", "x\\u0301", ub]), c = (true ? toset(["\\u2028"]) : [0.1, "b", "x\\u0301", ub])})',
    '(true ? "a" : tomap({a = false, b = [1, ub, "b"], c = "b"}))',
    '[2]',
    'tolist([uos])',
    'tolist([tolist([tomap({a = ub, b = us})])])',
    'tomap({a = toset([""])})',
    '(true ? tomap({c = ud, a = ud}) : tolist(["Z", tomap({b = "true", c = "true", a = 1})]))',
    'tomap({c = tomap({b = "\\u2028", c = "\\u2028", a = "\\u2028"})})',
    '{b = uls}',
    'tomap({c = 1})',
    'toset([["é", tolist([un, un]), (true ? 1 : "1")], ["é", tolist([un, un]), (true ? 1 : "1")], ["é", tolist([un, un]), (true ? 1 : "1")]])',
    '[["a"], tomap({}), 1]',
    '(true ? toset([]) : tolist(["1", "1"]))',
    'toset([tolist([null, "b", (true ? "\\u2028" : "b"), null]), tolist([null, "b", (true ? "\\u2028" : "b"), null])])',
    '[{c = toset([true, true, null, "Z"]), b = toset(["\\u2028", 1]), a = toset([0.1, "a", "a"])}]',
    '{b = toset([0])}',
    '(true ? "é" : (true ? uos : "b"))',
    '{c = ub}',
    '[{b = {c = -1.5e-3, a = 2}, a = tolist([0.1])}]',
    'toset([toset([{b = "Z", a = -0, c = "Z"}]), toset([{b = "Z", a = -0, c = "Z"}])])',
    'toset([null])',
    '[un]',
    'tolist([(true ? ud : uls)])',
    '(true ? tomap({a = tolist(["", ""]), b = tolist(["", ""])}) : toset([{c = 1e3, a = -1.5e-3, b = "a"}, tolist([-0, un, -0]), {c = 1e3, a = -1.5e-3, b = "a"}]))',
]

# Result encoding: escapes, number text, key and set order, unknowns.
ENCODING_SOURCES = [
    '"plain"',
    '"a\\"b\\\\c"',
    '"line\\nret\\rtab\\t"',
    '"\\u0001\\u001f\\u007f"',
    '"<a href=\\"x\\">&amp;</a>"',
    '"x\\u2028y\\u2029z"',
    '"\xe9\\u0065\\u0301\u6f22\u5b57\U0001f600"',
    '"\\u00a0\\ufeff"',
    '"\\u0008\\u000c"',
    '1/3',
    '-0 * 1',
    '1/0',
    '-1/0',
    '1e400',
    '0.1 + 0.2',
    '123456789012345678901234567890',
    '-2.5e-10',
    '[1, "a", true, null]',
    '{b = 1, a = "x", "c d" = [2]}',
    '{"<k>" = "v&"}',
    'toset(["b", "a", "\u2028"])',
    'tomap({z = 1, a = 2})',
    '[u, [u], {x = u}]',
    'tolist([])',
    'tomap({})',
    '{}',
    '[]',
    'null',
    '[for x in [1,2]: {v = x}]',
    'toset([{a = [1]}, {a = []}])',
    'toset([["\\u0001"], ["\\u007f"], ["\\u0080"], ["\\u009f"], ["\\u00a0"], ["\\u00a1"], ["\\u00ad"], ["\\u0300"], ["\\u0378"], ["\\u037f"], ["\\u0600"], ["\\u061c"], ["\\u06dd"], ["\\u070f"], ["\\u180e"], ["\\u2000"], ["\\u200a"], ["\\u200b"], ["\\u200e"], ["\\u2028"], ["\\u202f"], ["\\u205f"], ["\\u2060"], ["\\u2064"], ["\\u2065"], ["\\u206a"], ["\\u3000"], ["\\ud7ff"], ["\\ue000"], ["\\uf8ff"], ["\\ufdd0"], ["\\ufeff"], ["\\ufff9"], ["\\ufffc"], ["\\ufffd"], ["\\ufffe"], ["\\U0001f600"], ["\\U0001d173"], ["\\U000e0001"], ["\\U000e0100"], ["\\U000f0000"], ["\\U0010ffff"], ["\\U0001bca0"], ["\\U00013430"], ["\\U000110bd"], ["\\u08e2"], ["\\u0890"], ["\\u31ef"], ["\\U0002fffe"], ["\\U00030000"]])',
]

ENCODING_UNKNOWNS = {"u": "string"}


class SplitMix64:
    """A fixed pseudo-random sequence (the same on every Python version)."""

    def __init__(self, seed):
        self.state = seed & 0xFFFF_FFFF_FFFF_FFFF

    def next(self):
        self.state = (self.state + 0x9E37_79B9_7F4A_7C15) & 0xFFFF_FFFF_FFFF_FFFF
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58_476D_1CE4_E5B9) & 0xFFFF_FFFF_FFFF_FFFF
        z = ((z ^ (z >> 27)) * 0x94D0_49BB_1331_11EB) & 0xFFFF_FFFF_FFFF_FFFF
        return z ^ (z >> 31)

    def below(self, n):
        return self.next() % n

    def distinct(self, count, width, n):
        """`count` distinct sorted tuples of `width` indices below `n`."""
        seen = set()
        while len(seen) < count:
            seen.add(tuple(self.below(n) for _ in range(width)))
        return sorted(seen)


# ---------------------------------------------------------------------------
# Cases

STRING_LITERAL = re.compile(r'"(?:\\.|[^"\\])*"')
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def names_read(src, candidates):
    """The candidate variable names an expression source reads, sorted."""
    bare = STRING_LITERAL.sub('""', src)
    return sorted(set(IDENTIFIER.findall(bare)) & set(candidates))


class Named:
    """The named values and how an expression refers to them."""

    def __init__(self):
        self.base = {name: (ty, value) for name, ty, value in VALUES}
        self.expr = dict(EXPR_VALUES)
        self.order = [v[0] for v in VALUES] + [v[0] for v in EXPR_VALUES]

    def operand(self, name):
        return name if name in self.base else "(" + self.expr[name] + ")"

    def case(self, case_id, src, names):
        deps = set()
        for name in names:
            if name in self.base:
                deps.add(name)
            else:
                deps.update(names_read(self.expr[name], self.base))
        vars_, unknowns = {}, {}
        for name in sorted(deps):
            ty, value = self.base[name]
            if value is UNKNOWN:
                unknowns[name] = ty
            else:
                vars_[name] = {"type": ty, "value": json.loads(value)}
        return expr_case(case_id, src, vars_, unknowns)


def expr_case(case_id, src, vars_=None, unknowns=None):
    return {"id": case_id, "mode": "expr", "src": src, "vars": vars_ or {},
            "unknowns": unknowns or {}, "funcs": "stdlib"}


def fuzz_case(case_id, src):
    unknowns = {n: FUZZ_UNKNOWNS[n] for n in names_read(src, FUZZ_UNKNOWNS)}
    return expr_case(case_id, src, {}, unknowns)


def fuzz_operand(i):
    return "(" + FUZZ_SOURCES[i] + ")"


def tables():
    """Every table as (file name, [(row without "want", oracle case)])."""
    out = []
    named = Named()
    order = named.order

    rows = []
    for name, ty, value in VALUES:
        row = {"id": "value/" + name, "name": name, "type": ty}
        if value is UNKNOWN:
            row["unknown"] = True
        else:
            row["value"] = json.loads(value)
        rows.append((row, named.case("value/" + name, name, [name])))
    for name, src in EXPR_VALUES:
        rows.append(({"id": "value/" + name, "name": name, "src": src},
                     named.case("value/" + name, src, [name])))
    out.append(("values.jsonl", rows))

    rows = []
    for a in order:
        for b in order:
            for cond in (True, False):
                c = "true" if cond else "false"
                row_id = "cond/%s/%s/%s" % (a, b, c)
                src = "%s ? %s : %s" % (c, named.operand(a), named.operand(b))
                rows.append(({"id": row_id, "a": a, "b": b, "cond": cond},
                             named.case(row_id, src, [a, b])))
    out.append(("cond.jsonl", rows))

    rows = []
    for a in order:
        for b in order:
            row_id = "eq/%s/%s" % (a, b)
            src = "%s == %s" % (named.operand(a), named.operand(b))
            rows.append(({"id": row_id, "a": a, "b": b}, named.case(row_id, src, [a, b])))
    out.append(("eq.jsonl", rows))

    rows = []
    for a in order:
        for func in TO_FUNCS:
            row_id = "to/%s/%s" % (func, a)
            src = "%s(%s)" % (func, named.operand(a))
            rows.append(({"id": row_id, "func": func, "arg": a}, named.case(row_id, src, [a])))
    out.append(("to.jsonl", rows))

    whole = {name for name, _, value in VALUES if value is UNKNOWN or value == "null"}
    rows = []
    for a in order:
        if a in whole:
            continue
        for func, param, ty in PARAM_FUNCS:
            row_id = "param/%s/%s" % (func, a)
            src = "%s(%s)" % (func, named.operand(a))
            rows.append(({"id": row_id, "func": func, "param": param, "type": ty, "arg": a},
                         named.case(row_id, src, [a])))
    out.append(("param.jsonl", rows))

    n = len(FUZZ_SOURCES)
    rows = [({"id": "fuzz_value/%d" % i, "index": i, "src": src}, fuzz_case("fuzz_value/%d" % i, src))
            for i, src in enumerate(FUZZ_SOURCES)]
    out.append(("fuzz_values.jsonl", rows))

    rng = SplitMix64(FUZZ_SEED)
    pairs = rng.distinct(FUZZ_PAIRS, 2, n)
    triples = rng.distinct(FUZZ_TRIPLES, 3, n)

    rows = []
    for a, b in pairs:
        for cond in (True, False):
            c = "true" if cond else "false"
            row_id = "fuzz_cond/%d/%d/%s" % (a, b, c)
            src = "%s ? %s : %s" % (c, fuzz_operand(a), fuzz_operand(b))
            rows.append(({"id": row_id, "a": a, "b": b, "cond": cond}, fuzz_case(row_id, src)))
    out.append(("fuzz_cond.jsonl", rows))

    rows = []
    for a, b in pairs:
        row_id = "fuzz_eq/%d/%d" % (a, b)
        src = "%s == %s" % (fuzz_operand(a), fuzz_operand(b))
        rows.append(({"id": row_id, "a": a, "b": b}, fuzz_case(row_id, src)))
    out.append(("fuzz_eq.jsonl", rows))

    rows = []
    for a in range(n):
        for func in TO_FUNCS:
            row_id = "fuzz_to/%s/%d" % (func, a)
            src = "%s(%s)" % (func, fuzz_operand(a))
            rows.append(({"id": row_id, "func": func, "arg": a}, fuzz_case(row_id, src)))
    out.append(("fuzz_to.jsonl", rows))

    rows = []
    for args in triples:
        row_id = "fuzz_coalesce/" + "/".join(map(str, args))
        src = "coalesce(%s)" % ", ".join(fuzz_operand(a) for a in args)
        rows.append(({"id": row_id, "args": list(args)}, fuzz_case(row_id, src)))
    out.append(("fuzz_coalesce.jsonl", rows))

    rows = []
    for a in range(n):
        row_id = "fuzz_jsonencode/%d" % a
        src = "jsonencode(%s)" % fuzz_operand(a)
        rows.append(({"id": row_id, "arg": a}, fuzz_case(row_id, src)))
    out.append(("fuzz_jsonencode.jsonl", rows))

    rows = []
    with open(SEMANTICS, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            case = json.loads(line)
            if not case["id"].startswith("sem/equality/"):
                continue
            m = re.fullmatch(r"([A-Za-z_]\w*) (==|!=) ([A-Za-z_]\w*)", case["src"])
            if not m or "null" in (m.group(1), m.group(3)):
                continue
            case = dict(case)
            row = {"id": case["id"], "vars": case.get("vars", {}), "unknowns": case.get("unknowns", {}),
                   "a": m.group(1), "op": m.group(2), "b": m.group(3)}
            rows.append((row, case))
    out.append(("conformance_equality.jsonl", rows))

    rows = []
    for i, src in enumerate(ENCODING_SOURCES):
        row_id = "encoding/%d" % i
        unknowns = {n: ENCODING_UNKNOWNS[n] for n in names_read(src, ENCODING_UNKNOWNS)}
        rows.append(({"id": row_id, "src": src}, expr_case(row_id, src, {}, unknowns)))
    out.append(("encoding.jsonl", rows))
    return out


# ---------------------------------------------------------------------------
# The oracle

def check_oracle(oracle):
    if not (os.path.isfile(oracle) and os.access(oracle, os.X_OK)):
        sys.exit("oracle_tables.py: no oracle at %s (build it with its build.sh)" % oracle)
    version = subprocess.run([oracle, "--version"], capture_output=True, text=True).stdout
    if REQUIRED_VERSION not in version:
        sys.exit("oracle_tables.py: %s is not %s: %s" % (oracle, REQUIRED_VERSION, version.strip()))


def run_oracle(oracle, cases):
    """The oracle's result lines (exact text) for the cases, in order."""
    text = "".join(dump(c) + "\n" for c in cases).encode("utf-8")
    proc = subprocess.run([oracle, "--in-process", "-"], input=text, capture_output=True)
    if proc.returncode != 0:
        sys.exit("oracle_tables.py: the oracle failed (%d): %s" % (proc.returncode, proc.stderr.decode()[-2000:]))
    # Only "\n" ends a line (str.splitlines would also split at U+2028).
    lines = [l for l in proc.stdout.decode("utf-8").split("\n") if l]
    if len(lines) != len(cases):
        sys.exit("oracle_tables.py: %d cases, %d results" % (len(cases), len(lines)))
    for case, line in zip(cases, lines):
        if json.loads(line).get("id") != case["id"]:
            sys.exit("oracle_tables.py: result for %r is not in order: %s" % (case["id"], line[:200]))
    return lines


def answer(line):
    """A result line as a table's "want": "ok ..." or "err ..."."""
    result = json.loads(line)
    if result["ok"]:
        if "diags" in result or "type" not in result:
            sys.exit("oracle_tables.py: unexpected result shape: " + line)
        marker = ',"ok":true,'
        start = line.index(marker) + len(marker)
        if not line.endswith("}"):
            sys.exit("oracle_tables.py: unexpected result line: " + line)
        return "ok " + line[start:-1]
    if result.get("phase") != "eval":
        sys.exit("oracle_tables.py: case failed outside evaluation: " + line)
    errors = [d for d in result["diags"] if d["severity"] == "error"]
    return "err " + " | ".join("%s: %s" % (d["summary"], d["detail"]) for d in errors)


# Messages that name one of several attributes or elements as Go's random
# map order picks it; the tests compare them through the same rewriting.
MAP_ORDER_MARKERS = ['map has no element for required attribute "', 'element "', 'attribute "']


def normalize(want):
    """`normalize` of runtime/tests/oracle_tables.rs."""
    for marker in MAP_ORDER_MARKERS:
        want = re.sub(re.escape(marker) + r'[^"]*(?=")', lambda m: marker + "*", want)
    return want


def previous_answers(path):
    """The answers of a table file as it is, by row id (none if missing).
    A new answer that differs from the previous one only where Go's map
    order chose differently keeps the previous text, so that remaking the
    tables changes no line without a reason."""
    if not os.path.exists(path):
        return {}
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f.read().split("\n"):
            if line.strip():
                row = json.loads(line)
                if "id" in row and "want" in row:
                    out[row["id"]] = row["want"]
    return out


def dump(obj):
    """One JSON line: UTF-8 text, U+2028/U+2029 escaped for line-based tools."""
    s = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    return s.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("oracle", nargs="?", default=DEFAULT_ORACLE, help="hcl-oracle binary")
    ap.add_argument("--case", metavar="ROW_ID", help="print one row's oracle case and result")
    ap.add_argument("--cases", action="store_true",
                    help="print every row's oracle case (for hclvm conformance), run nothing")
    args = ap.parse_args()
    oracle = os.path.normpath(args.oracle)
    all_tables = tables()

    if args.cases:
        for _, rows in all_tables:
            for _, case in rows:
                print(dump(case))
        return

    if args.case:
        for _, rows in all_tables:
            for row, case in rows:
                if case["id"] == args.case:
                    print(dump(case))
                    if os.path.isfile(oracle):
                        check_oracle(oracle)
                        print(run_oracle(oracle, [case])[0])
                    return
        sys.exit("oracle_tables.py: no row %r" % args.case)

    check_oracle(oracle)
    ids = set()
    for name, rows in all_tables:
        for _, case in rows:
            if case["id"] in ids:
                sys.exit("oracle_tables.py: duplicate row id %r" % case["id"])
            ids.add(case["id"])
    # Every answer first, so that a failure leaves the files as they were.
    outputs = []
    for name, rows in all_tables:
        lines = run_oracle(oracle, [case for _, case in rows])
        before = previous_answers(os.path.join(HERE, name))
        text = ""
        for (row, case), line in zip(rows, lines):
            want = answer(line)
            old = before.get(case["id"])
            if old is not None and old != want and normalize(old) == normalize(want):
                want = old
            text += dump(dict(row, want=want)) + "\n"
        outputs.append((name, text, len(rows)))
    for name, text, count in outputs:
        with open(os.path.join(HERE, name), "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        print("oracle_tables.py: %-28s %6d rows" % (name, count))


if __name__ == "__main__":
    main()
