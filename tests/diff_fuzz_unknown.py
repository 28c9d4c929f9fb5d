#!/usr/bin/env python3
"""Random cases with unknown variables of every type, for differential testing
against the reference with refinements printed:

    python3 tests/diff_fuzz_unknown.py SEED COUNT > cases.jsonl
    hclvm conformance cases.jsonl > ours
    hcl-oracle --in-process cases.jsonl > ref
    python3 tests/diff_compare.py cases.jsonl ours ref

Expressions nest operations that create refinements (templates with known
prefixes, arithmetic, comparisons, conditionals on unknown conditions,
length, conversions, splats, `for`, function calls) under operations that
consume them (== null, comparisons with constants, length checks, further
arithmetic), so refined unknowns flow through everything.
"""
import json
import random
import sys

R = random.Random(int(sys.argv[1]))
COUNT = int(sys.argv[2])

UNKNOWNS = {
    "un": "number", "us": "string", "ub": "bool", "ud": "dynamic",
    "uls": ["list", "string"], "uln": ["list", "number"], "uss": ["set", "string"],
    "usn": ["set", "number"], "ums": ["map", "string"], "umn": ["map", "number"],
    "uo": ["object", {"a": "number", "b": "string"}], "ut": ["tuple", ["string", "number"]],
    "ulo": ["list", ["object", {"a": "number"}]], "ull": ["list", ["list", "string"]],
    "uml": ["map", ["list", "number"]], "uoe": ["object", {}], "ute": ["tuple", []],
    "ut1": ["tuple", ["bool"]], "usb": ["set", "bool"], "uld": ["list", "dynamic"],
}
VARS = {
    "n": 3, "s": "abc", "b": True, "z": None, "l": [1, 2, 3], "e": [],
    "ls": {"type": ["list", "string"], "value": ["x", "y"]},
    "m": {"type": ["map", "number"], "value": {"a": 1, "b": 2}},
    "o": {"a": 1, "b": "x"}, "ns": {"type": "string", "value": None},
    "nl": {"type": ["list", "string"], "value": None},
    "sset": {"type": ["set", "string"], "value": ["a", "b"]},
}
UNK_NAMES = list(UNKNOWNS)
KNOWN = list(VARS)

NUM_LITS = ["0", "1", "-1", "2.5", "10", "100", "-0.5", "1e3", "0.1"]
STR_LITS = ['""', '"a"', '"x-"', '"https://"', '"a b"', '"é"', '"1"', '"true"', '"{"', '"["',
            '"\\""', '"ab\\n"', '"é\\u0301"', '"<"', '"="', '"k:"', '"null"', '"%"']
PREFIXES = ["", "a", "x-", "https://", "pre/", "é", "a b ", "{", "[", "\"", "1", "t", "n", "-",
            "ab\n", "\t", "e\u0301", "\U0001F600", "<", "x=", "k: ", "ok.", "Ω", "한", "\u0915\u094d"]


def lit():
    r = R.random()
    if r < 0.4:
        return R.choice(NUM_LITS)
    if r < 0.75:
        return R.choice(STR_LITS)
    if r < 0.85:
        return R.choice(["true", "false", "null"])
    return R.choice(["[]", "[1, 2]", '["a"]', "{}", "{a = 1}", '{a = 1, b = "x"}', "[null]", 'tolist(["a", "b"])',
                     "toset([1, 2])", 'tomap({a = "x"})'])


def leaf():
    r = R.random()
    if r < 0.55:
        return R.choice(UNK_NAMES)
    if r < 0.75:
        return R.choice(KNOWN)
    return lit()


def template(depth):
    p = R.choice(PREFIXES)
    parts = [p.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t").replace("${", "$${").replace("%{", "%%{")]
    for _ in range(R.randint(1, 3)):
        k = R.random()
        if k < 0.6:
            parts.append("${" + expr(depth) + "}")
        elif k < 0.75:
            parts.append("%{ if " + expr(depth) + " }y%{ else }n%{ endif }")
        elif k < 0.85:
            parts.append("%{ for x in " + expr(depth) + " }${x},%{ endfor }")
        else:
            parts.append(R.choice(["-", " ", "z", "/", "é"]))
    return '"' + "".join(parts) + '"'


FUNCS1 = ["length", "abs", "upper", "lower", "title", "trimspace", "chomp", "tostring", "tonumber", "tobool",
          "tolist", "toset", "tomap", "keys", "values", "distinct", "flatten", "sort", "reverse", "jsonencode",
          "jsondecode", "ceil", "floor", "signum", "compact", "coalescelist", "can"]
FUNCS2 = ["split", "join", "contains", "element", "format", "formatlist", "min", "max", "coalesce", "concat",
          "setunion", "setintersection", "setsubtract", "setproduct", "merge", "zipmap", "chunklist", "pow", "log",
          "replace", "trimprefix", "trimsuffix", "indent", "regexall", "lookup", "try", "range", "parseint", "index"]


def call(depth):
    r = R.random()
    if r < 0.45:
        f = R.choice(FUNCS1)
        return "%s(%s)" % (f, expr(depth))
    f = R.choice(FUNCS2)
    if f == "format":
        return 'format(%s, %s)' % (R.choice(['"a%s"', '"%d items"', '"%v-%v"', '"x%%y%s"', '"%s"', '"pre %q"', '"%#v"']), expr(depth))
    if f == "formatlist":
        return 'formatlist("%%s!", %s)' % expr(depth)
    if f == "lookup":
        return "lookup(%s, %s, %s)" % (expr(depth), expr(depth), expr(depth))
    if f == "index":
        return "%s[%s]" % (expr(depth), expr(depth))
    if f == "range":
        return "range(%s)" % ", ".join(expr(depth) for _ in range(R.randint(1, 3)))
    if f == "replace":
        return "replace(%s, %s, %s)" % (expr(depth), expr(depth), expr(depth))
    n = R.randint(1, 3)
    return "%s(%s)" % (f, ", ".join(expr(depth) for _ in range(n)))


def expr(depth=0):
    if depth > 2 or R.random() < 0.25:
        return leaf()
    d = depth + 1
    k = R.random()
    if k < 0.14:
        op = R.choice(["+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "&&", "||"])
        return "(%s %s %s)" % (expr(d), op, expr(d))
    if k < 0.2:
        return "(%s %s null)" % (expr(d), R.choice(["==", "!="]))
    if k < 0.24:
        return "%s%s" % (R.choice(["!", "-"]), expr(d))
    if k < 0.36:
        return "(%s ? %s : %s)" % (expr(d), expr(d), expr(d))
    if k < 0.5:
        return template(d)
    if k < 0.72:
        return call(d)
    if k < 0.78:
        return "%s[*]%s" % (expr(d), R.choice(["", ".a", ".b"]))
    if k < 0.84:
        v = R.choice(["v", "x"])
        if R.random() < 0.5:
            return "[for %s in %s : %s%s]" % (v, expr(d), R.choice([v, "%s + 1" % v, '"${%s}"' % v, "length(%s)" % v]),
                                             R.choice(["", " if %s != null" % v, " if ub"]))
        return "{for k, %s in %s : k => %s}" % (v, expr(d), v)
    if k < 0.9:
        return "[%s]" % ", ".join(expr(d) for _ in range(R.randint(0, 3)))
    if k < 0.94:
        return "{a = %s, b = %s}" % (expr(d), expr(d))
    if k < 0.97:
        return "%s.%s" % (expr(d), R.choice(["a", "b"]))
    return "length(%s) %s %s" % (expr(d), R.choice(["==", ">", "<", ">="]), R.choice(["0", "1", "2", "5"]))


# ----- typed generation: expressions that mostly type-check, so refined
# unknowns reach the operations that consume them -------------------------

T_LEAVES = {
    "num": ["un", "n", "1", "0", "-2", "2.5", "100", "length(uls)", "length(l)"],
    "str": ["us", "s", '"a"', '""', '"x-1"', '"{\\"a\\":1}"', '"[1]"', '"true"', '"5"', "ns"],
    "bool": ["ub", "b", "true", "false"],
    "lstr": ["uls", "ls", '["a", "b"]', "[]", "nl", 'tolist(["x"])'],
    "lnum": ["uln", "l", "[1, 2]", "[]"],
    "set": ["uss", "sset", 'toset(["a"])', "toset([])"],
    "map": ["ums", "m", 'tomap({a = "x"})', "{}", "umn"],
    "obj": ["uo", "o", '{a = 1, b = "x"}', "uoe"],
    "any": ["ud", "uld", "z", "ut", "ute", "ut1", "ulo", "ull", "uml"],
}


def t_leaf(t):
    return R.choice(T_LEAVES[t])


def g(t, d=0):
    if d > 3 or R.random() < 0.2:
        return t_leaf(t)
    d += 1
    if R.random() < 0.12:
        return "(%s ? %s : %s)" % (g("bool", d), g(t, d), g(t, d))
    if t == "num":
        return R.choice([
            lambda: "(%s %s %s)" % (g("num", d), R.choice("+-*/%"), g("num", d)),
            lambda: "length(%s)" % g(R.choice(["lstr", "lnum", "set", "map", "any"]), d),
            lambda: "%s(%s)" % (R.choice(["abs", "floor", "ceil", "signum", "tonumber"]), g("num", d)),
            lambda: "%s(%s, %s)" % (R.choice(["min", "max", "pow", "log"]), g("num", d), g("num", d)),
            lambda: "tonumber(%s)" % g("str", d),
            lambda: "parseint(%s, 10)" % g("str", d),
            lambda: "-%s" % g("num", d),
            lambda: "%s[0]" % g("lnum", d),
            lambda: "jsondecode(%s)" % g("str", d),
            lambda: "sum([%s])" % g("num", d) if False else "max(%s...)" % g("lnum", d),
        ])()
    if t == "str":
        return R.choice([
            lambda: template(d),
            lambda: "%s(%s)" % (R.choice(["upper", "lower", "title", "trimspace", "chomp", "reverse", "tostring"]), g("str", d)),
            lambda: "format(%s, %s)" % (R.choice(['"a%s"', '"x-%d"', '"%v"', '"pre: %s."', '"%%%s"']), g(R.choice(["str", "num", "bool"]), d)),
            lambda: "join(%s, %s)" % (R.choice(['","', '""', '"-"']), g("lstr", d)),
            lambda: "jsonencode(%s)" % g(R.choice(list(T_LEAVES)), d),
            lambda: "tostring(%s)" % g(R.choice(["num", "bool", "str"]), d),
            lambda: "replace(%s, %s, %s)" % (g("str", d), g("str", d), g("str", d)),
            lambda: "substr(%s, %s, %s)" % (g("str", d), g("num", d), g("num", d)),
            lambda: "lookup(%s, %s, %s)" % (g("map", d), g("str", d), g("str", d)),
            lambda: "element(%s, %s)" % (g("lstr", d), g("num", d)),
            lambda: "coalesce(%s, %s)" % (g("str", d), g("str", d)),
            lambda: "trimprefix(%s, %s)" % (g("str", d), g("str", d)),
            lambda: "%s.b" % g("obj", d),
            lambda: "indent(2, %s)" % g("str", d),
        ])()
    if t == "bool":
        return R.choice([
            lambda: "(%s %s %s)" % (g("num", d), R.choice(["<", "<=", ">", ">="]), g("num", d)),
            lambda: "(%s %s %s)" % (g(R.choice(list(T_LEAVES)), d), R.choice(["==", "!="]), g(R.choice(list(T_LEAVES)), d)),
            lambda: "(%s %s null)" % (g(R.choice(list(T_LEAVES)), d), R.choice(["==", "!="])),
            lambda: "(%s %s %s)" % (g("bool", d), R.choice(["&&", "||"]), g("bool", d)),
            lambda: "!%s" % g("bool", d),
            lambda: "contains(%s, %s)" % (g(R.choice(["lstr", "set"]), d), g("str", d)),
            lambda: "can(%s)" % g(R.choice(list(T_LEAVES)), d),
            lambda: "(length(%s) %s %s)" % (g(R.choice(["lstr", "lnum", "set", "map"]), d), R.choice(["==", ">", "<", ">="]), R.choice(["0", "1", "2"])),
            lambda: "(%s == %s)" % (g("str", d), R.choice(STR_LITS)),
            lambda: "tobool(%s)" % g("str", d),
        ])()
    if t == "lstr":
        return R.choice([
            lambda: "split(%s, %s)" % (R.choice(['","', '"-"']), g("str", d)),
            lambda: "tolist([%s])" % ", ".join(g("str", d) for _ in range(R.randint(0, 3))),
            lambda: "%s(%s)" % (R.choice(["sort", "distinct", "compact", "tolist"]), g("lstr", d)),
            lambda: "concat(%s, %s)" % (g("lstr", d), g("lstr", d)),
            lambda: "[for x in %s : %s]" % (g(R.choice(["lstr", "set", "map"]), d), R.choice(["x", "upper(x)", '"${x}!"'])),
            lambda: "keys(%s)" % g("map", d),
            lambda: "values(%s)" % g("map", d),
            lambda: "formatlist(%s, %s)" % (R.choice(['"%s!"', '"a-%s"']), g("lstr", d)),
            lambda: "slice(%s, 0, %s)" % (g("lstr", d), g("num", d)),
            lambda: "coalescelist(%s, %s)" % (g("lstr", d), g("lstr", d)),
            lambda: "flatten([%s, %s])" % (g("lstr", d), g("lstr", d)),
            lambda: "%s[*]" % g("lstr", d),
            lambda: "tolist(%s)" % g("set", d),
            lambda: "regexall(%s, %s)" % (R.choice(['"[a-z]+"', '"x"']), g("str", d)),
        ])()
    if t == "lnum":
        return R.choice([
            lambda: "range(%s)" % g("num", d),
            lambda: "[for x in %s : length(x)]" % g(R.choice(["lstr", "set"]), d),
            lambda: "[%s]" % ", ".join(g("num", d) for _ in range(R.randint(0, 3))),
            lambda: "%s[*]" % g("lnum", d),
            lambda: "chunklist(%s, 1)[0]" % g("lnum", d),
        ])()
    if t == "set":
        return R.choice([
            lambda: "toset(%s)" % g("lstr", d),
            lambda: "%s(%s, %s)" % (R.choice(["setunion", "setintersection", "setsubtract"]), g("set", d), g("set", d)),
            lambda: "setproduct(%s, %s)" % (g(R.choice(["set", "lstr"]), d), g(R.choice(["set", "lstr"]), d)),
        ])()
    if t == "map":
        return R.choice([
            lambda: "tomap({a = %s, b = %s})" % (g("str", d), g("str", d)),
            lambda: "merge(%s, %s)" % (g("map", d), g("map", d)),
            lambda: "zipmap(%s, %s)" % (g("lstr", d), g("lstr", d)),
            lambda: "{for k in %s : k => upper(k)}" % g("lstr", d),
            lambda: "tomap(%s)" % g("obj", d),
        ])()
    if t == "obj":
        return R.choice([
            lambda: "{a = %s, b = %s}" % (g("num", d), g("str", d)),
            lambda: "merge(%s, {c = %s})" % (g("obj", d), g("bool", d)),
            lambda: "try(%s, %s)" % (g("obj", d), g("obj", d)),
        ])()
    return R.choice([
        lambda: "try(%s, %s)" % (g(R.choice(list(T_LEAVES)), d), g(R.choice(list(T_LEAVES)), d)),
        lambda: "%s[*].a" % g("any", d),
        lambda: "jsondecode(%s)" % g("str", d),
        lambda: "%s[0]" % g("any", d),
        lambda: "[%s, %s]" % (g(R.choice(list(T_LEAVES)), d), g(R.choice(list(T_LEAVES)), d)),
    ])()


def typed_expr():
    t = R.choice(list(T_LEAVES))
    e = g(t)
    r = R.random()
    if r < 0.15:
        return "(%s == null)" % e
    if r < 0.25:
        return "(%s != null)" % e
    if t in ("lstr", "lnum", "set", "map") and r < 0.45:
        return "length(%s)" % e
    if t == "num" and r < 0.45:
        return "(%s %s %s)" % (e, R.choice(["<", ">", "<=", ">=", "=="]), R.choice(NUM_LITS))
    return e


def main():
    for i in range(COUNT):
        r = R.random()
        if r < 0.55:
            case = {"id": "u-%d" % i, "mode": "expr", "src": typed_expr()}
        elif r < 0.8:
            case = {"id": "u-%d" % i, "mode": "expr", "src": expr()}
        elif r < 0.9:
            case = {"id": "u-%d" % i, "mode": "template", "src": template(1)[1:-1].replace("$${", "${")}
        else:
            attrs = "".join("a%d = %s\n" % (j, R.choice([expr, typed_expr])()) for j in range(R.randint(1, 4)))
            case = {"id": "u-%d" % i, "mode": "body", "src": attrs}
        case["vars"] = VARS
        case["unknowns"] = UNKNOWNS
        print(json.dumps(case, ensure_ascii=False))


main()
