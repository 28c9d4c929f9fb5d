#!/usr/bin/env python3
# Wide random cases for differential testing against the reference:
#   python3 tests/diff_fuzz_wide.py SEED COUNT [AREA] > cases.jsonl
#   hclvm conformance cases.jsonl > ours; hcl-oracle --in-process cases.jsonl > ref; diff ours ref
# AREA (default: a mix of all): funcs, format, template, for, splat, cond,
# ops, index, try, body. Unlike tests/eval_diff_fuzz.py it calls every stdlib
# function with well- and ill-typed arguments, edge numbers and strings,
# typed variables (sets, maps, lists of every element type), nulls and unknowns.
import json
import random
import sys

R = random.Random(int(sys.argv[1]))
COUNT = int(sys.argv[2])
AREA = sys.argv[3] if len(sys.argv) > 3 else "mix"

VARS = {
    "n": 5, "f": 0.1, "big": 123456789012345678901234567890, "neg": -2.5,
    "s": "str", "es": "", "us": "h\u00e9llo \u00fc\u00df \u4e16", "nfd": "e\u0301",
    "b": True, "z": None,
    "l": [1, 2, 3], "e": [], "lo": [{"a": 1, "b": "x"}, {"a": 2, "b": "y"}],
    "tup": [1, "a", True, None], "nest": [[1, 2], [3], []],
    "o": {"a": 1, "b": "x", "c": [True, False]},
    "m": {"k1": "v1", "k2": "v2"},
    "ss": {"type": ["set", "string"], "value": ["b", "a", "c"]},
    "sn": {"type": ["set", "number"], "value": [3, 1, 2, 10]},
    "se": {"type": ["set", "string"], "value": []},
    "mn": {"type": ["map", "number"], "value": {"x": 1, "y": 2.5}},
    "me": {"type": ["map", "string"], "value": {}},
    "ls": {"type": ["list", "string"], "value": ["x", "y", "x"]},
    "ln": {"type": ["list", "number"], "value": [3, -1, 0.5]},
    "ll": {"type": ["list", ["list", "string"]], "value": [["a"], ["b", "c"]]},
    "lno": {"type": ["list", "number"], "value": None},
    "mo": {"type": ["map", ["object", {"p": "number"}]], "value": {"a": {"p": 1}, "b": {"p": 2}}},
    "lob": {"type": ["list", ["object", {"p": "number", "q": "string"}]], "value": [{"p": 1, "q": "a"}, {"p": 2, "q": None}]},
    "sob": {"type": ["set", ["object", {"p": "number"}]], "value": [{"p": 1}, {"p": 2}]},
    "obn": {"type": ["object", {"p": "number", "q": "string"}], "value": {"p": 3}},
    "dyn": {"type": "dynamic", "value": None},
    "lsn": {"type": ["list", "string"], "value": ["a", None]},
}
UNK = {"u": "number", "uss": "string", "ul": ["list", "number"], "ud": "dynamic",
       "uo": ["object", {"a": "number"}], "um": ["map", "string"], "useto": ["set", "string"], "ub": "bool"}
NAMES = list(VARS) + list(UNK)

NUMS = ["0", "1", "-1", "2.5", "0.1", "-0", "1e308", "1e-7", "123456789012345678901234567890",
        "3", "7", "-7", "1/3", "1/0", "-1/0", "0.5", "100", "255", "1e21", "12345.678", "9007199254740993"]
STRS = ['""', '"a"', '"abc"', '"1"', '"-1.5"', '"true"', '"false"', '"e\\u0301"', '"\u00e9"', '"\u4e16\u754c"',
        '" pad "', '"a,b,c"', '"x\\ny"', '"%"', '"%%"', '"${"', '"\\t\\ttab"', '"A_b-C d"', '"0x1F"', '"1e3"',
        '"null"', '"\U0001F600"', '"\\u00e9"', '"a\\u0308"', '"Straße"', '"\\""']
LITS = ["true", "false", "null"]
COLL = ["[]", "[1, 2]", '["a", "b", "a"]', "[1, \"a\"]", "[null]", "[[1], [2, 3]]", "{}", "{a = 1}",
        '{a = 1, b = "x"}', '{"k" = [1], z = null}', "[{a = 1}, {a = 2}]", "tolist([1, 2])",
        "toset([\"x\", \"y\"])", "tomap({a = 1, b = 2})", "[1, 2, 3, 4, 5]", "toset([])", "tolist([])",
        "[true, false]", "{a = {b = {c = 1}}}"]


def atom():
    r = R.random()
    if r < 0.35:
        return R.choice(NAMES)
    if r < 0.55:
        return R.choice(NUMS)
    if r < 0.75:
        return R.choice(STRS)
    if r < 0.82:
        return R.choice(LITS)
    return R.choice(COLL)


FUNCS = {
    "abs": 1, "ceil": 1, "floor": 1, "log": 2, "pow": 2, "signum": 1, "parseint": 2, "min": -1, "max": -1,
    "upper": 1, "lower": 1, "title": 1, "chomp": 1, "trimspace": 1, "trim": 2, "trimprefix": 2,
    "trimsuffix": 2, "indent": 2, "format": -1, "formatlist": -1, "formatdate": 2, "join": -2, "split": 2,
    "replace": 3, "regex": 2, "regexall": 2, "regexreplace": 3, "substr": 3, "reverse": 1, "length": 1,
    "concat": -1, "contains": 2, "distinct": 1, "element": 2, "flatten": 1, "keys": 1, "values": 1,
    "lookup": 3, "merge": -1, "range": -1, "slice": 3, "sort": 1, "chunklist": 2, "coalesce": -1,
    "coalescelist": -1, "compact": 1, "zipmap": 2, "setunion": -1, "setintersection": -1,
    "setsubtract": 2, "setsymmetricdifference": -1, "setproduct": -1, "jsonencode": 1, "jsondecode": 1,
    "csvdecode": 1, "timeadd": 2, "tostring": 1, "tonumber": 1, "tobool": 1, "tolist": 1, "toset": 1,
    "tomap": 1, "try": -1, "can": 1,
}

# Arguments that fit a function's parameters well, to get past type checks.
GOOD = {
    "abs": [["n", "neg", "-0", "1e308", "big", "u", "1/0", "-1/0", "f", "z"]],
    "ceil": [["2.5", "-2.5", "-0.5", "big", "1/0", "f", "1e308", "u", "0.9999999999999999999"]],
    "floor": [["2.5", "-2.5", "-0.5", "big", "1/0", "-1/0", "f", "u"]],
    "log": [["8", "1", "0", "100", "0.5", "big", "-1"], ["2", "10", "1", "0.5", "0"]],
    "pow": [["2", "0", "-2", "10", "0.5", "big", "-0"], ["10", "0.5", "-1", "0", "100", "3", "1024", "-0.5"]],
    "signum": [["-0", "neg", "n", "0", "u", "1/0"]],
    "parseint": [['"ff"', '"FF"', '"-101"', '"zz"', '"0x1f"', '"+7"', '"123456789012345678901234567890"', '""', '"1_0"', '"07"'],
                 ["16", "2", "36", "10", "1", "37", "8", "2.5"]],
    "upper": [STRS + ["us", "nfd", "uss"]], "lower": [STRS + ["us", "nfd"]], "title": [STRS + ["us", '"hello wORLD-foo_bar"']],
    "chomp": [['"a\\n"', '"a\\r\\n"', '"a\\n\\n"', '"\\r"', '"a\\n\\r"', '""', "s"]],
    "trimspace": [['" a "', '"\\t\\na \\u3000"', '"\\u00a0x\\u00a0"', '""', "us"]],
    "trim": [['"??a??"', '"xyzax"', "us", '""', '"aba"'], ['"?"', '"xyz"', '""', '"a"', '"\u00e9"']],
    "trimprefix": [['"abcab"', '"é"', '"e\\u0301x"', "s"], ['"ab"', '"e"', '""', '"é"', '"s"']],
    "trimsuffix": [['"abcab"', '"xé"', "s", '"ab"'], ['"ab"', '"é"', '""', '"r"']],
    "indent": [["2", "0", "-1", "1.5", "3"], ['"a\\nb\\n"', '"a\\r\\nb"', '""', '"x"', '"\\n\\n"']],
    "formatdate": [['"YYYY-MM-DD hh:mm:ss ZZZ"', '"EEEE, DD-MMM-YY"', "\"h:mm aa 'quoted''s' Z\"", '"YY M D H m s"',
                    '"ZZZZ ZZZZZ"', '"EEE MMMM"', '"AA"', '"bad %"', '"\'unterminated"'],
                   ['"2017-11-22T10:00:00Z"', '"2017-11-22T10:00:00.123+05:30"', '"2017-11-22"', '"2017-02-29T00:00:00Z"',
                    '"0001-01-01T00:00:00-00:00"', '"9999-12-31T23:59:59Z"']],
    "timeadd": [['"2017-11-22T10:00:00Z"', '"2017-11-22T10:00:00+01:00"', '"bad"', '"2017-11-22T10:00:00.5Z"'],
                ['"1h"', '"-30m"', '"1.5h"', '"10s"', '"1h2m3s4ms5us6ns"', '"0"', '"1d"', '"-1µs"', '""', '"300ms"']],
    "join": [['","', '""', '"-"'], ["ls", "ss", '["a", null]', "[]", "[1, 2]", "tup", "e", "lsn"]],
    "split": [['","', '""', '"a"', '",,"'], ['"a,b,,c"', '""', '","', "s", "us"]],
    "replace": [['"hello"', "s", '"aaa"', '""', "us"], ['"l"', '""', '"aa"', '"/l/"', '"é"'], ['"L"', '""', '"$1"']],
    "regex": [['"(\\\\d+)-(\\\\d+)"', '"(?P<a>[a-z]+)(?P<b>\\\\d)?"', '"[a-z]+"', '"("', '"x*"', '"(?i)ABC"', '"^$"'],
              ['"12-34 56-78"', '"abc1 de"', '"ABC"', '""', '"none"']],
    "regexall": [['"(\\\\d+)-(\\\\d+)"', '"(?P<a>[a-z]+)(?P<b>\\\\d)?"', '"[a-z]+"', '"x*"', '"."'],
                 ['"12-34 56-78"', '"abc1 de"', '""', '"héllo"']],
    "regexreplace": [['"hello world"', '"aaa"', '""', "us"], ['"o"', '"(l+)"', '"(?P<x>w)"', '"x*"', '"^"'], ['"0"', '"[$1]"', '"${x}!"', '"$$"', '""']],
    "substr": [['"hello"', "us", '""', '"e\\u0301e\\u0301"', '"\U0001F600ab"'], ["0", "1", "-1", "-3", "5", "10", "1.5"], ["1", "-1", "0", "2", "100", "-2"]],
    "reverse": [["s", "us", '""', '"e\\u0301a"', '"\U0001F600ab"', "l", "ls"]],
    "length": [["l", "e", "m", "o", "ss", "tup", "mn", "sob", "ul", "ud", "um", "s", "z", "useto"]],
    "contains": [["l", "ls", "ss", "tup", "sn", "ul", "e", "lno"], ["1", '"x"', '"a"', "null", "u", '"1"', "1.0"]],
    "distinct": [["ls", "l", "tup", '[1, 1, "1"]', "ss", "e", "ul", "[null, null]"]],
    "element": [["ls", "l", "tup", "e", "ul", "ss"], ["0", "1", "-1", "5", "1.5", "u", "big", "-0"]],
    "flatten": [["nest", "ll", '[[1], "a", [[2, [3]]]]', "e", "[ul]", "[tolist([]), [1]]", "[toset([1])]", "[null]"]],
    "keys": [["o", "m", "mn", "me", "um", "uo", "{}", "mo", "obn"]],
    "values": [["o", "m", "mn", "me", "um", "uo", "{}", "mo", "obn"]],
    "lookup": [["o", "m", "mn", "me", "um", "uo", "mo"], ['"a"', '"k1"', '"x"', '"zz"', "uss"], ['"d"', "0", "null", '{p = 9}', "u"]],
    "range": [["0", "1", "3", "-3", "1.5", "5"], ["5", "0", "-2", "2.5", "3"], ["1", "-1", "0.5", "2", "0"]],
    "slice": [["l", "ls", "tup", "e", "ul", "ss"], ["0", "1", "-1", "2", "1.5"], ["0", "1", "2", "3", "4"]],
    "sort": [["ls", '["b", "a", "10", "9"]', "[3, 1, 2]", "ss", "e", '["a", null]', "ul", "[]"]],
    "chunklist": [["l", "ls", "e", "ul", "tup", "ss"], ["1", "2", "0", "-1", "1.5", "u"]],
    "compact": [['["a", "", null, "b"]', "ls", "e", "lsn", "[1, \"\"]", "ss"]],
    "zipmap": [["ls", '["a", "b"]', "e", "ss", '["a", "a"]'], ["l", "tup", "e", '[1, "x"]', "ln"]],
    "setproduct": [["ss", "l", "ls", "e", "[]", "sn"], ["ss", "l", "tup", "se"]],
    "setsubtract": [["ss", "sn", "se", "toset(l)"], ["ss", "se", "sn", "toset([\"a\"])"]],
    "jsonencode": [["o", "l", "s", "us", "z", "big", "f", "ss", "mn", "1e308", "-0", '"<>&"', "lob", "u", "tup", '"\\u2028"']],
    "jsondecode": [['"{\\"a\\":1}"', '"[1,\\"x\\",null]"', '"1e400"', '"  \\"s\\"  "', '"{"', '"[] x"', '"0.1"', '"{\\"b\\":1,\\"a\\":2,\\"a\\":3}"', '""', '"null"', '"-0"', '"1E2"']],
    "csvdecode": [['"a,b\\n1,2\\n"', '"a,b\\n1\\n"', '""', '"a\\n\\"x,y\\"\\n"', '"a,a\\n1,2"', '"a\\n"', '"a,b\\r\\n1,2"']],
    "tostring": [["n", "f", "big", "b", "s", "z", "l", "1/0", "-0", "1e308", "1e21", "0.1", "u", "1/3"]],
    "tonumber": [['"1"', '"0x10"', '"1e3"', '" 1"', '"1.50"', '"-0"', '"abc"', "true", "n", "z", '"123456789012345678901234567890"', '"Inf"', '"+1"', '".5"']],
    "tobool": [['"true"', '"false"', '"True"', '"1"', "true", "1", "z", "u"]],
    "tolist": [["ss", "tup", "l", '[1, "a"]', "[1, null]", "o", "m", "e", "sob", '[{a=1}, {b=2}]', '[[1], ["a"]]', "[1, true]"]],
    "toset": [["ls", "tup", "l", '[1, "a"]', "[1, null]", "e", "lob", '[{a=1}, {a="x"}]', "[1, 1.0, 1]"]],
    "tomap": [["o", "m", "mn", '{a = 1, b = "x"}', '{a = 1, b = true}', '{a = [1], b = ["x"]}', "{}", "l", "{a = null}", '{a = {x=1}, b = {y=2}}']],
}


def call(d):
    fn = R.choice(list(FUNCS))
    ar = FUNCS[fn]
    good = GOOD.get(fn)
    if fn == "format" or fn == "formatlist":
        return fmt_call(fn)
    if good is not None and R.random() < 0.75:
        args = [R.choice(p) if R.random() < 0.85 else atom() for p in good]
        if fn in ("range",):
            args = args[:R.randint(1, 3)]
        if fn == "lookup" and R.random() < 0.3:
            args = args[:2]
        return "%s(%s)" % (fn, ", ".join(args))
    if ar == -1:
        k = R.randint(0, 4)
    elif ar == -2:
        k = R.randint(1, 3)
    else:
        k = ar if R.random() < 0.85 else R.randint(0, ar + 1)
    args = [atom() if R.random() < 0.8 else expr(d + 1) for _ in range(k)]
    if fn in ("concat", "merge", "setunion", "setintersection", "setsymmetricdifference", "setproduct", "coalescelist"):
        args = [R.choice(COLL + ["l", "ls", "ss", "sn", "e", "o", "m", "mn", "tup", "ul", "um", "useto", "lob", "mo", "z", "se"]) for _ in range(k)]
    if fn in ("min", "max"):
        args = [R.choice(NUMS + ["n", "f", "big", "u", '"5"', "z", "l"]) for _ in range(k)]
    if fn == "coalesce":
        args = [R.choice(['""', "null", "z", "n", '"a"', "1", "true", "u", "l", "es", "dyn"]) for _ in range(k)]
    expand = "..." if args and R.random() < 0.1 else ""
    return "%s(%s%s)" % (fn, ", ".join(args), expand)


VERBS = ["%v", "%#v", "%t", "%b", "%d", "%o", "%x", "%X", "%e", "%E", "%f", "%g", "%G", "%s", "%q", "%%",
         "%5d", "%-5d|", "%05d", "%+d", "% d", "%.2f", "%8.3f", "%-8.3f|", "%.0f", "%10s|", "%-10s|", "%.2s",
         "%5.1s|", "%[2]s", "%[1]d %[1]v", "%*d", "%.3e", "%+.1e", "%x", "%.3g", "%10.4v", "%[3]v", "%!", "%",
         "%c", "%U", "%08.3f", "%+v", "%-+6d|", "%#x", "%.10g", "%.0e", "%.30f", "%25.20f"]
FARGS = NUMS + STRS + ["n", "f", "big", "neg", "s", "us", "b", "z", "l", "o", "m", "u", "uss", "true", "ss", "mn", "nfd", "ud", "tup"]


def fmt_call(fn):
    spec = "".join(R.choice(VERBS) + R.choice(["", " ", "-", "é"]) for _ in range(R.randint(1, 3)))
    k = R.randint(0, 3)
    if fn == "formatlist":
        args = [R.choice(FARGS + ["ls", "ln", '["a", "b"]', "[1, 2, 3]", "e", "ul", "lsn", "ss"]) for _ in range(k)]
    else:
        args = [R.choice(FARGS) for _ in range(k)]
    return "%s(%s)" % (fn, ", ".join([json.dumps(spec)] + args))


def tmpl_text():
    parts = []
    for _ in range(R.randint(1, 4)):
        r = R.random()
        if r < 0.25:
            parts.append(R.choice(["a", " ", "x y", "\\n", "é", "$${x}", "%%{x}", "$", "%", "\\\\", "\\u00e9", "e\\u0301"]))
        elif r < 0.6:
            parts.append("${%s%s%s}" % (R.choice(["", "~ "]), R.choice(NUMS + ["n", "f", "big", "neg", "s", "b", "z", "u", "uss", "us", "nfd", "l", "true", "ub", "dyn", "1.0", "1e2", "0.30000000000000000001"]), R.choice(["", " ~"])))
        elif r < 0.8:
            parts.append("%%{%sif %s%s}%s%%{%selse%s}%s%%{%sendif%s}" % (R.choice(["", "~ "]), R.choice(["b", "!b", "z", "ub", "n > 1", '"true"', "1", "s == \"str\""]), R.choice(["", " ~"]),
                                                                           R.choice(["yes", " y ", "\\n"]), R.choice(["", "~ "]), R.choice(["", " ~"]), R.choice(["no", " n ", ""]), R.choice(["", "~"]), R.choice(["", "~"])))
        else:
            parts.append("%%{%sfor %s in %s%s}%s%%{%sendfor%s}" % (R.choice(["", "~"]), R.choice(["x", "k, x"]), R.choice(["l", "ls", "ss", "m", "o", "e", "z", "ul", "mn", "tup", "s", "sob"]), R.choice(["", "~"]),
                                                                  R.choice(["${x},", " ${x} ", "\\n${x}", "[${k}]"]), R.choice(["", "~"]), R.choice(["", "~"])))
    return "".join(parts)


def expr(d=0):
    if d > 3:
        return atom()
    r = R.random()
    if r < 0.3:
        return call(d)
    if r < 0.4:
        return "(%s) %s (%s)" % (expr(d + 1), R.choice(["+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||"]), expr(d + 1))
    if r < 0.5:
        return "%s ? %s : %s" % (R.choice(["b", "ub", "z", "true", "false", "n > 3", '"true"', "1", "u > 1"]), atom(), atom())
    if r < 0.58:
        return '"%s"' % tmpl_text()
    if r < 0.7:
        return for_expr(d)
    if r < 0.8:
        return splat()
    if r < 0.9:
        return index()
    return R.choice(["try", "can"]) + "(" + ", ".join(expr(d + 1) for _ in range(R.randint(1, 2))) + ")"


FOR_COLL = ["l", "ls", "ss", "sn", "m", "mn", "o", "tup", "e", "se", "me", "lob", "sob", "mo", "ul", "um", "useto", "ud", "z", "lno", "s", '{a = 1, b = "x"}', "[1, null]", "dyn", "uo"]


def for_expr(d):
    c = R.choice(FOR_COLL)
    kv = R.choice(["v", "k, v"])
    cond = R.choice(["", "", " if v != null", " if k != \"a\"", " if v == 1", " if u > 1", " if ub", " if length(tostring(k)) > 0"])
    if R.random() < 0.5:
        return "[for %s in %s : %s%s]" % (kv, c, R.choice(["v", "k", "tostring(v)", "[v]", "{x = v}", '"${v}"', "v == null ? 0 : 1", "v.p", "v[0]", "u"]), cond)
    key = R.choice(["k", "tostring(v)", '"c"', "v", "uss", "tostring(k)"])
    val = R.choice(["v", "k", "1", "[v]", "u", "null"])
    return "{for %s in %s : %s => %s%s%s}" % (kv, c, key, val, R.choice(["", "..."]), cond)


def splat():
    base = R.choice(["lo", "lob", "sob", "mo", "o", "z", "lno", "ul", "ud", "uo", "e", "se", "tup", "s", "obn", "dyn", "l", "ss", "[{a = 1}, {b = 2}]", "[null, {a = 1}]", "{a = {b = 1}}", "tolist([{p=1}])"])
    return base + R.choice(["[*]", "[*].a", "[*].p", "[*].b", ".*.a", ".*", "[*][0]", "[*].p.x", ".*.p", "[*].c[0]"])


def index():
    base = R.choice(["l", "ls", "ss", "m", "mn", "o", "tup", "e", "lob", "sob", "mo", "ul", "um", "uo", "ud", "z", "lno", "s", "obn", "nest", "dyn", "big"])
    key = R.choice(["[0]", "[1]", "[-1]", "[1.5]", '["0"]', '["a"]', '["k1"]', '["p"]', "[u]", "[uss]", "[null]", "[true]", "[big]", ".a", ".p", ".k1", ".0", "[\"x\"]", "[2]", "[\"1\"]", "[l]", "[3]", "[4]"])
    return base + key + R.choice(["", "", ".p", "[0]"])


def cond():
    a = R.choice(["l", "ls", "tup", "o", "m", "mn", "e", "[]", "{}", "[1]", '["a"]', "{a = 1}", '{a = "x"}', "null", "z", "ul", "um", "uo", "ss", "lob", "mo", "1", '"s"', "true", "dyn", "u", "[1, \"a\"]", "tolist([])", "{a = 1, b = 2}", "lno", "obn", "[null]"])
    b = R.choice(["l", "ls", "tup", "o", "m", "mn", "e", "[]", "{}", "[2]", '["b", "c"]', "{b = 2}", '{a = 1}', "null", "z", "ul", "um", "uo", "se", "lob", "mo", "2", "false", "dyn", "u", "[true]", "tomap({})", "{a = 1, b = \"x\"}", "lno", "obn", "[{a = 1}]"])
    c = R.choice(["b", "!b", "ub", "z", "true", "false", "n > 3", '"true"', '"false"', "1", "u > 1", "dyn"])
    return "%s ? %s : %s" % (c, a, b)


def ops():
    a = R.choice(NUMS + STRS + ["n", "f", "big", "neg", "s", "b", "z", "u", "uss", "ub", "l", "o", "m", "ss", "tup", "e", "[]", "{}", "dyn", "true", "null", "mn", "ud", "lob", "[1, 2]", "tolist([1, 2])", "{a = 1}"])
    b = R.choice(NUMS + STRS + ["n", "f", "big", "neg", "s", "b", "z", "u", "uss", "ub", "l", "o", "m", "ss", "tup", "e", "[]", "{}", "dyn", "false", "null", "mn", "ud", "lob", "[1, 2]", "[1.0, 2]", "{a = 1.0}"])
    op = R.choice(["+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||"])
    if R.random() < 0.15:
        return R.choice(["!", "-"]) + a
    return "%s %s %s" % (a, op, b)


def body():
    out = []
    names = set()
    for _ in range(R.randint(1, 4)):
        nm = R.choice(["a", "b", "c", "d", "a"])
        out.append("%s = %s\n" % (nm, expr(1)))
    for _ in range(R.randint(0, 2)):
        lbl = R.choice(["", ' "x"', ' "x" "y"', " lab", ' "é"'])
        inner = "".join("  %s = %s\n" % (R.choice(["p", "q"]), expr(2)) for _ in range(R.randint(0, 2)))
        if R.random() < 0.3:
            inner += "  sub {\n    r = %s\n  }\n" % expr(2)
        out.append("blk%s {\n%s}\n" % (lbl, inner))
    if R.random() < 0.1:
        out.append(R.choice(["x = 1 y = 2\n", "blk {}\n", "blk { a = 1 }\n", "x = <<EOT\n  hi ${s}\n  EOT\n", "x = <<-EOT\n    a\n      b ${n}\n    EOT\n", "# c\n// d\n/* e */ y = 1\n"]))
    return "".join(out)


WEIRD = ["null", "dyn", "z", "ud", '"x"', "1", "true", "[1]", '["a"]', "toset([1])", 'toset(["a", "b"])', "tolist([])", "[]", "{}",
         "{a = 1}", 'tomap({a = "x"})', "[null]", "toset([null])", "lno", "ss", "sn", "mn", "lob", "u", "uss", "ul", "[[1]]", "[ud]"]


def dyn_call():
    """Any function, arguments drawn mostly from nulls, dynamic values and
    values of the wrong kind: checks that rely on argument types are
    skipped when a type is dynamic, and the implementation sees the rest."""
    fn = R.choice([f for f in FUNCS if f not in ("try", "can")])
    ar = FUNCS[fn]
    k = R.randint(0, 4) if ar < 0 else (ar if R.random() < 0.9 else R.randint(0, ar + 1))
    args = [R.choice(WEIRD) if R.random() < 0.7 else atom() for _ in range(k)]
    return "%s(%s%s)" % (fn, ", ".join(args), "..." if args and R.random() < 0.1 else "")


def rnum():
    """A random number literal or arithmetic on them: many digits, big and
    tiny exponents, halves (rounding), negatives."""
    r = R.random()
    if r < 0.3:
        return str(R.choice([0, 1, 2, 5, 9, 10, 15, 16, 255, 1000, 99999, 2 ** 53, 2 ** 53 + 1, 2 ** 63, 2 ** 64, 10 ** 21, 10 ** 40]) * R.choice([1, 1, -1]))
    if r < 0.55:
        return "%s%d.%s" % (R.choice(["", "-"]), R.randint(0, 10 ** R.randint(0, 20)), "".join(R.choice("0123456789") for _ in range(R.randint(1, 25))))
    if r < 0.7:
        return "%d.5" % R.randint(-5, 5) if R.random() < 0.5 else "0.%s5" % ("0" * R.randint(0, 4))
    if r < 0.85:
        return "%de%d" % (R.randint(1, 99), R.randint(-330, 330))
    return "(%s %s %s)" % (rnum(), R.choice(["+", "-", "*", "/", "%"]), rnum())


NUMVERBS = ["%v", "%d", "%f", "%.0f", "%.1f", "%.3f", "%.20f", "%e", "%.2e", "%E", "%g", "%.3g", "%G", "%x", "%X", "%o", "%b",
            "%s", "%q", "%10.2f", "%-10d|", "%+g", "% f", "%010.3e", "%#v", "%t", "%c", "%U", "%5.0f", "%.10e", "%.40g"]


def numfmt():
    r = R.random()
    if r < 0.45:
        return "format(%s, %s)" % (json.dumps(R.choice(NUMVERBS)), rnum())
    if r < 0.6:
        return '"${%s}"' % rnum()
    if r < 0.7:
        return "tostring(%s)" % rnum()
    if r < 0.8:
        return R.choice(["floor", "ceil", "abs", "signum", "tonumber", "jsonencode"]) + "(%s)" % rnum()
    if r < 0.9:
        return "%s %s %s" % (rnum(), R.choice(["==", "!=", "<", ">=", "+", "*", "/", "%", "-"]), rnum())
    return R.choice(["pow", "log", "parseint", "min", "max", "range"]) + "(%s, %s)" % (rnum(), R.choice([rnum(), "2", "10", "0.5"]))


UCHARS = ["a", "B", "\u00e9", "e\u0301", "\u00df", "\u0130", "\u0131", "\u01c5", "\u1e9e", "\ufb01", "\u03a3", "\u03c3",
          "\U0001F600", "\U0001F1FA\U0001F1F8", "\U0001F468\u200D\U0001F469", "\u0915\u094D\u0937", "\r\n", "\n", " ", "\t",
          "\u00a0", "\u3000", "\u2028", "-", "_", "'", ".", "1", "\u0669", "\u212b", "\u1100\u1161", "\ud55c", "x\u0308",
          "\u0345", "\u1f80", "\u0149", "\u01f0", "%", "$", "\\", "\"", "<", ">", "&"]


def ustr():
    return '"%s"' % "".join(R.choice(UCHARS) for _ in range(R.randint(0, 6)))


def strfn():
    fn = R.choice(["upper", "lower", "title", "reverse", "substr", "length", "trimspace", "chomp", "split", "join", "replace",
                   "trim", "trimprefix", "trimsuffix", "indent", "format", "regexall", "regex", "regexreplace", "sort",
                   "distinct", "jsonencode", "csvdecode", "strlen", "compact", "contains", "tostring", "formatlist", "tolist", "toset"])
    if fn == "substr":
        return "substr(%s, %d, %d)" % (ustr(), R.randint(-4, 6), R.randint(-2, 6))
    if fn in ("split", "trim", "trimprefix", "trimsuffix", "join"):
        return "%s(%s, %s)" % (fn, ustr(), ustr() if fn != "join" else "[%s]" % ", ".join(ustr() for _ in range(R.randint(0, 3))))
    if fn in ("replace",):
        return "replace(%s, %s, %s)" % (ustr(), ustr(), ustr())
    if fn in ("regex", "regexall"):
        return "%s(%s, %s)" % (fn, json.dumps(R.choice(["\\w+", "\\pL+", "\\p{Greek}", "(?i)\u00df", ".", "\\b", "\\s+", "[[:alpha:]]+", "(?s).+", "\\X", "(a)|(b)", "(?P<n>.)"])), ustr())
    if fn == "regexreplace":
        return "regexreplace(%s, %s, %s)" % (ustr(), json.dumps(R.choice([".", "\\w", "(.)", "^|$", "\\B", "(?P<n>\\S)"])), json.dumps(R.choice(["<$1>", "${n}", "$0", "x", "", "$$"])))
    if fn == "indent":
        return "indent(%d, %s)" % (R.randint(0, 3), ustr())
    if fn in ("format", "formatlist"):
        return "%s(%s, %s)" % (fn, json.dumps(R.choice(["%q", "%s", "%5s|", "%-5s|", "%.2s", "%x", "%X", "% x", "%v", "%#v", "%10q", "%c", "%.1q"])), ustr())
    if fn in ("sort", "distinct", "compact", "tolist", "toset"):
        return "%s([%s])" % (fn, ", ".join(ustr() for _ in range(R.randint(0, 4))))
    if fn == "contains":
        return "contains([%s], %s)" % (", ".join(ustr() for _ in range(R.randint(0, 3))), ustr())
    if fn == "length":
        return "length(%s)" % R.choice(["[%s]" % ustr(), "{(%s) = 1, (%s) = 2}" % (ustr(), ustr())])
    if fn == "strlen":
        return "{(%s) = 1, (%s) = 2}" % (ustr(), ustr())
    return "%s(%s)" % (fn, ustr())


def heredoc():
    """Heredocs (flush and plain) with indentation, directives, strip
    markers and non-ASCII text, in a body."""
    marker = R.choice(["EOT", "EOF", "X"])
    flush = R.random() < 0.6
    lines = []
    for _ in range(R.randint(0, 4)):
        ind = R.choice(["", " ", "  ", "    ", "\t", "  \t", "\u3000"])
        lines.append(ind + tmpl_text().replace("\\n", "") + R.choice(["", " ", "\u0301"]))
    close_ind = R.choice(["", "  ", "    "])
    body = "a = <<%s%s\n%s%s%s\n" % ("-" if flush else "", marker, "\n".join(lines), "\n" if lines else "", close_ind + marker)
    if R.random() < 0.3:
        body += "b = \"${a}\"\n"
    return body


GEN = {
    "heredoc": lambda: ("body", heredoc()),
    "str": lambda: ("expr", strfn()),
    "num": lambda: ("expr", numfmt()),
    "dyn": lambda: ("expr", dyn_call()),
    "funcs": lambda: ("expr", call(0)),
    "format": lambda: ("expr", fmt_call(R.choice(["format", "format", "formatlist"]))),
    "template": lambda: ("template", tmpl_text()),
    "for": lambda: ("expr", for_expr(0)),
    "splat": lambda: ("expr", splat()),
    "cond": lambda: ("expr", cond()),
    "ops": lambda: ("expr", ops()),
    "index": lambda: ("expr", index()),
    "try": lambda: ("expr", R.choice(["try", "can"]) + "(" + ", ".join(expr(1) for _ in range(R.randint(1, 3))) + ")"),
    "body": lambda: ("body", body()),
    "expr": lambda: ("expr", expr(0)),
}

for i in range(COUNT):
    area = AREA if AREA != "mix" else R.choice(list(GEN))
    mode, src = GEN[area]()
    print(json.dumps({"id": "%s-%d" % (area, i), "mode": mode, "src": src, "vars": VARS, "unknowns": UNK}))
