#!/usr/bin/env python3
"""Differential fuzzing against the reference: random conformance cases,
run by `hclvm conformance` and by the oracle (`../shared/oracle`), result
lines compared.

    python3 fuzz/differential.py [--oracle PATH] [--kinds K,K,...] [--seeds N] [--cases N] [--first-seed S]

Kinds (all by default):
  expr       stdlib calls on literals, typed variables, nulls and unknowns,
             operators, conditionals, for expressions, indexes
  unknowns   the same weighted to unknown values (refinements), splats,
             templates with directives, object for expressions
  structure  nested collections of mixed types: unification in conditionals,
             constructors and collection functions, conversions, for
             expressions with grouping, splats and traversals
  structunk  the same weighted to unknown values
  directives templates of nested if and for directives with strip markers,
             interpolations of every type, escapes and stray sigils, bare
             and in heredocs
  bodies     nested, labelled blocks of attributes whose expressions reference
             variables every way (traversals, splats, for locals,
             templates): the structure, values and static `vars` lists
  numbers    arithmetic and formatting of long, huge and tiny numbers
  format     format verbs, formatdate layouts, string functions on Unicode
  declare    declared type constraints with optional attributes and
             defaults, values that mostly fit them
  packer     the packer function table (cidr, yaml, encodings, hashes)
  vars       plain-JSON variables (long numbers, Unicode keys and values)
  body       real-world corpus files with a few random edits
  template   corpus templates with a few random edits
  regex      regex, regexall (also inside length()), regexreplace and
             can() over patterns of Go's syntax, valid and not (escapes,
             classes, groups, flags, repetitions), and replacements with
             $ references
  unicode    quoted strings of joiners, combining marks, emoji, Hangul jamo
             and escape sequences (valid and not) before syntax errors:
             the columns of diagnostics
  sigils     not random: every string of up to 5 bytes over `% $ \r \n x { }`
             as a bare template and as a heredoc (39,214 cases; --cases
             and --seeds do not apply)

A difference is reported only when the oracle, run again (up to 12
times), never gives hclvm's line: the reference picks among several
failing attributes or colliding object keys in Go's random map order.
Differing cases go to `target/differential/DIFF-<kind>-<seed>.jsonl`
(case, then both results). Exits 1 when there is any, 0 otherwise, and
77 (skipped) without the oracle (default `../shared/oracle/bin/hcl-oracle`;
shared/ is read-only, so build a copy of it with its `build.sh` and pass
`--oracle`). Needs a release build of hclvm.
"""
import argparse
import glob
import json
import os
import random
import subprocess
import sys

# Long literals (gen_numbers) are written from Python integers of thousands
# of digits.
if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared")
ORACLE = os.path.join(SHARED, "oracle", "bin", "hcl-oracle")
HCLVM = os.environ.get("HCLVM", os.path.join(ROOT, "target", "release", "hclvm"))
OUT = os.path.join(ROOT, "target", "differential")

STDLIB = ("abs can ceil chomp chunklist coalesce coalescelist compact concat contains csvdecode distinct element "
          "flatten floor format formatdate formatlist indent join jsondecode jsonencode keys length log lookup lower "
          "max merge min parseint pow range regex regexall regexreplace replace reverse setintersection setproduct "
          "setsubtract setsymmetricdifference setunion signum slice sort split substr timeadd title tobool tolist "
          "tomap tonumber toset tostring trim trimprefix trimspace trimsuffix try upper values zipmap").split()
PACKER = ("cidrsubnet textencodebase64 cidrhost yamldecode convert textdecodebase64 cidrsubnets yamlencode index "
          "length cidrnetmask reverse dirname basename coalesce sha256 strrev sha512 sha1 md5 urlencode base64encode "
          "base64decode regex_replace pathexpand substr abspath uuidv5 upper tostring format formatlist join split "
          "jsonencode jsondecode max min merge zipmap element slice flatten distinct compact concat lookup keys "
          "values chunklist range").split()

VARS = {
    "ns": {"type": "number", "value": None}, "ss": {"type": "string", "value": None},
    "sn": {"type": "string", "value": "12"}, "bb": {"type": "bool", "value": True},
    "lst": {"type": ["list", "string"], "value": ["a", "b", "a"]},
    "st": {"type": ["set", "number"], "value": [1, 2, 3]},
    "mp": {"type": ["map", "string"], "value": {"k": "v", "a": "b"}},
    "obj": {"type": ["object", {"a": "number", "b": "string"}], "value": {"a": 1, "b": "x"}},
    "tup": {"type": ["tuple", ["number", "string", "bool"]], "value": [1, "s", True]},
    "lnull": {"type": ["list", "string"], "value": None},
    "emptyl": {"type": ["list", "number"], "value": []},
    "emptys": {"type": ["set", "string"], "value": []},
    "emptym": {"type": ["map", "number"], "value": {}},
    "nested": {"type": ["list", ["list", "number"]], "value": [[1, 2], [3]]},
    "strset": {"type": ["set", "string"], "value": ["b", "a"]},
    "nn": {"type": "dynamic", "value": None},
}
UNKNOWNS = {"ul": ["list", "string"], "um": ["map", "number"], "us": ["set", "string"],
            "uo": ["object", {"a": "string"}], "ut": ["tuple", ["string", "number"]], "udyn": "dynamic",
            "un": "number", "ustr": "string", "ubool": "bool"}
LITERALS = ['0', '1', '-1', '2.5', '1e3', '"a"', '"b"', '""', '"A b"', '"1"', '"true"', 'true', 'false', 'null',
            '"%d"', '"%s-%v"', '"x,y"', '"2006-01-02T15:04:05Z"', '"1h"', '","', '"[a-z]+"', '"(a)(b)?"',
            '"héllo"', '"\\u00e9"', '3', '10', '0.1', '-0.5']


def with_names(case, src):
    """Adds the typed variables and unknowns `src` names."""
    words = set(''.join(c if c.isalnum() or c == '_' else ' ' for c in src).split())
    used = {k: v for k, v in VARS.items() if k in words}
    unknown = {k: v for k, v in UNKNOWNS.items() if k in words}
    if used:
        case["vars"] = used
    if unknown:
        case["unknowns"] = unknown
    return case


def gen_expr(r, unknown_weighted):
    atoms = LITERALS + list(VARS)
    if unknown_weighted:
        atoms = list(UNKNOWNS) * 3 + ['"a"', '1', 'null', 'lst', 'obj', 'mp']
    else:
        atoms = atoms + list(UNKNOWNS)

    def expr(d):
        x = r.random()
        if d <= 0 or x < 0.35:
            return r.choice(atoms)
        if x < 0.6:
            k = r.choice([0, 1, 1, 2, 2, 2, 3, 3])
            expand = r.choice(["", "", "", "..."]) if k else ""
            return r.choice(STDLIB) + "(" + ", ".join(expr(d - 1) for _ in range(k)) + expand + ")"
        if x < 0.7:
            return "[" + ", ".join(expr(d - 1) for _ in range(r.randint(0, 3))) + "]"
        if x < 0.75:
            return "{" + ", ".join(f"{r.choice('abc')} = {expr(d - 1)}" for _ in range(r.randint(0, 2))) + "}"
        if x < 0.85:
            op = r.choice(['+', '-', '*', '/', '%', '==', '!=', '<', '>=', '&&', '||'])
            return f"{expr(d - 1)} {op} {expr(d - 1)}"
        if x < 0.9:
            return f"{expr(d - 1)} ? {expr(d - 1)} : {expr(d - 1)}"
        if x < 0.93:
            return f"[for k, v in {expr(d - 1)} : {r.choice(['v', 'k', expr(d - 1)])}]"
        if unknown_weighted and x < 0.95:
            return r.choice([f"{{for k, v in {expr(d - 1)} : k => v...}}", f"{expr(d - 1)}[*].{r.choice('ab')}",
                             f'"${{{expr(d - 1)}}}x%{{for x in {expr(d - 1)}}}${{x}}%{{endfor}}"'])
        if x < 0.97:
            return f"{r.choice('!-')}{expr(d - 1)}"
        return f"{expr(d - 1)}[{expr(d - 1)}]"

    src = expr(3)
    return with_names({"mode": "expr", "src": src}, src)


def gen_structure(r, unknown_weighted=False):
    """Nested collections of mixed element types where the type system
    works hardest: unification (conditionals, collection constructors and
    functions), conversion, for expressions with grouping, splats and
    traversals through nulls, unknowns and sets."""
    scalars = ['1', '"a"', 'true', 'null', '2.5', '"1"', '"true"', '0', '""', 'ns', 'ss', 'un', 'ustr', 'ubool', 'udyn']
    if unknown_weighted:
        scalars = scalars + ['un', 'ustr', 'udyn', 'ul', 'uo', 'ut', 'um']
    vars_ = ['lst', 'st', 'mp', 'obj', 'tup', 'lnull', 'emptyl', 'emptys', 'emptym', 'nested', 'strset', 'nn',
             'ul', 'um', 'us', 'uo', 'ut']

    def val(d):
        x = r.random()
        if d <= 0 or x < 0.25:
            return r.choice(scalars + vars_)
        if x < 0.4:
            return "[" + ", ".join(val(d - 1) for _ in range(r.randint(0, 3))) + "]"
        if x < 0.55:
            keys = r.sample(["a", "b", "c", '"a"', '"x y"'], r.randint(0, 3))
            return "{" + ", ".join(f"{k} = {val(d - 1)}" for k in keys) + "}"
        if x < 0.65:
            return f"{r.choice(['tolist', 'toset', 'tomap', 'tostring', 'tonumber', 'tobool'])}({val(d - 1)})"
        if x < 0.75:
            return f"{r.choice(['true', 'false', 'ubool', 'bb', 'null'])} ? {val(d - 1)} : {val(d - 1)}"
        if x < 0.85:
            f = r.choice(['concat', 'merge', 'coalesce', 'coalescelist', 'flatten', 'setunion', 'distinct', 'compact',
                          'values', 'keys', 'sort', 'reverse', 'zipmap', 'lookup', 'element', 'slice', 'contains',
                          'setproduct', 'chunklist', 'transpose', 'length', 'jsonencode', 'index', 'matchkeys'])
            return f + "(" + ", ".join(val(d - 1) for _ in range(r.choice([1, 1, 2, 2, 3]))) + ")"
        if x < 0.92:
            body = r.choice(["v", "k", f"{{x = v}}", f"[k, v]", val(d - 1)])
            cond = r.choice(["", "", f" if {r.choice(['v != null', 'k != 0', 'true', 'ubool', 'v == 1'])}"])
            if r.random() < 0.5:
                return f"[for k, v in {val(d - 1)} : {body}{cond}]"
            key = r.choice(["k", "tostring(k)", "v", '"g"'])
            group = r.choice(["", "", "..."])
            return f"{{for k, v in {val(d - 1)} : {key} => {body}{group}{cond}}}"
        base = val(d - 1)
        return base + r.choice(["[*]", "[*].a", ".*", ".a", "[0]", ".0", '["a"]', "[1]", "[*][0]", ".a.b", '[null]',
                                "[ustr]", "[un]", "[udyn]"])

    src = val(3)
    case = {"mode": "expr", "src": src}
    if r.random() < 0.15:
        case = {"mode": "template", "src": f"%{{ for k, v in {src} }}${{k}}=${{jsonencode(v)}};%{{ endfor }}"}
    return with_names(case, src)


def gen_directives(r):
    """Templates built from directives: `if`/`else` and `for` nested, strip
    markers on every side, interpolations of every type (unknowns and nulls
    too), escapes and stray sigils, bare or in a (flush) heredoc."""
    texts = ['a', ' ', '\n', '  x  ', '\n  \n', '$${x}', '%%{y}', '$', '%', '}', 'é', '\t', '~', '"q"', '\\']
    exprs = ['1', '"s"', 'true', 'null', 'ns', 'ustr', 'un', 'ubool', 'lst', 'obj', 'tup', 'mp', 'st', 'bb', 'sn',
             '2.50', '"a\\nb"', 'udyn', 'lst[0]', 'obj.a', 'nn', 'ul', 'emptyl', '[1, 2]', '{a = 1}']
    colls = ['lst', 'mp', 'obj', 'tup', 'st', 'emptyl', 'emptym', 'ul', 'um', 'us', 'nn', 'lnull', '[1, 2]', '"s"',
             '{a = "x", b = null}', 'nested', 'udyn', 'strset']
    conds = ['true', 'false', 'bb', 'ubool', 'null', '"true"', '1', 'x == 1', 'k == "a"', 'nn', 'udyn']

    def strip():
        return r.choice(["", "", "~"])

    def part(d):
        x = r.random()
        if d <= 0 or x < 0.35:
            return r.choice(texts)
        if x < 0.6:
            return f"${{{strip()}{r.choice(exprs + ['x', 'k', 'v'])}{strip()}}}"
        if x < 0.8:
            body = "".join(part(d - 1) for _ in range(r.randint(0, 3)))
            other = "".join(part(d - 1) for _ in range(r.randint(0, 2)))
            els = f"%{{{strip()} else {strip()}}}{other}" if r.random() < 0.5 else ""
            return f"%{{{strip()} if {r.choice(conds)} {strip()}}}{body}{els}%{{{strip()} endif {strip()}}}"
        if x < 0.95:
            head = r.choice(["x", "k, v", "k, x"])
            body = "".join(part(d - 1) for _ in range(r.randint(0, 3)))
            return f"%{{{strip()} for {head} in {r.choice(colls)} {strip()}}}{body}%{{{strip()} endfor {strip()}}}"
        return r.choice(["%{ endif }", "%{ else }", "%{ endfor }", "${", "%{ if true }", "%{ for in x }", "${}"])

    text = "".join(part(3) for _ in range(r.randint(1, 4)))
    x = r.random()
    if x < 0.6:
        case = {"mode": "template", "src": text}
    elif x < 0.8:
        indent = r.choice(["", "  ", "\t"])
        lines = "\n".join(indent + line for line in text.split("\n"))
        case = {"mode": "body", "src": f"t = <<-EOT\n{lines}\nEOT\n"}
    else:
        case = {"mode": "body", "src": f"t = <<EOT\n{text}\nEOT\n"}
    return with_names(case, text)


def gen_bodies(r):
    """Bodies of attributes and nested, labelled blocks whose expressions
    reference variables every way (traversals, indexes by variables, splats,
    for expressions and their locals, templates, calls, `try`): the
    structure, each attribute's value and its static `vars` list."""
    roots = ['a', 'b', 'lst', 'obj', 'mp', 'nn', 'ul', 'uo', 'self', 'count', 'each', 'var', 'k', 'v']
    steps = ['.x', '.y', '[0]', '["k"]', '[*]', '[*].x', '.*', '.0', '[a]', '[k]', '[lst[0]]', '.x[1]']

    def ref():
        return r.choice(roots) + "".join(r.choice(steps) for _ in range(r.randint(0, 3)))

    def expr(d):
        x = r.random()
        if d <= 0 or x < 0.35:
            return r.choice([ref(), ref(), '1', '"s"', 'null', 'true'])
        if x < 0.5:
            return f"[for {r.choice(['k, v', 'v', 'a'])} in {expr(d - 1)} : {expr(d - 1)}{r.choice(['', ' if ' + ref()])}]"
        if x < 0.58:
            return f"{{for k, v in {expr(d - 1)} : {expr(d - 1)} => {expr(d - 1)}{r.choice(['', '...'])}}}"
        if x < 0.68:
            return f'"${{{expr(d - 1)}}}%{{ for v in {expr(d - 1)} }}${{v}}{r.choice(["", "${k}"])}%{{ endfor }}"'
        if x < 0.78:
            return f"{r.choice(['length', 'try', 'coalesce', 'concat', 'lookup', 'can', 'upper'])}({', '.join(expr(d - 1) for _ in range(r.randint(1, 2)))})"
        if x < 0.86:
            return f"{expr(d - 1)} ? {expr(d - 1)} : {expr(d - 1)}"
        if x < 0.93:
            return f"{expr(d - 1)} {r.choice(['+', '==', '&&', '<'])} {expr(d - 1)}"
        return f"({expr(d - 1)}){r.choice(steps)}"

    def body(d, indent):
        lines = []
        for _ in range(r.randint(1, 3)):
            if d > 0 and r.random() < 0.3:
                labels = " ".join(r.choice(['"x"', 'y', '"é"', '""', 'z']) for _ in range(r.randint(0, 2)))
                name = r.choice(["blk", "resource", "dynamic", "locals"])
                lines.append(f"{indent}{name} {labels} {{\n{body(d - 1, indent + '  ')}{indent}}}\n")
            else:
                lines.append(f"{indent}{r.choice(['p', 'q', 'r', 'p'])} = {expr(2)}\n")
        return "".join(lines)

    src = body(2, "")
    vars_ = {"a": {"type": "number", "value": 1}, "b": {"type": ["list", "number"], "value": [1, 2]},
             "lst": VARS["lst"], "obj": {"type": ["object", {"x": "number", "y": ["list", "string"]}],
                                         "value": {"x": 1, "y": ["p"]}},
             "mp": VARS["mp"], "nn": VARS["nn"]}
    words = set(''.join(c if c.isalnum() or c == '_' else ' ' for c in src).split())
    case = {"mode": "body", "src": src}
    used = {k: v for k, v in vars_.items() if k in words}
    if used:
        case["vars"] = used
    unknown = {k: v for k, v in UNKNOWNS.items() if k in words}
    unknown.update({k: "dynamic" for k in ("ul", "uo") if k in words})
    if unknown:
        case["unknowns"] = unknown
    return case


def long_literal(r):
    """A literal of over a thousand significant digits (parsed from its
    leading digits when they decide, else whole): random digits, runs of 9s
    or 0s where the leading digits end, or a value halfway between two
    512-bit numbers; scaled by an exponent near the usual range."""
    kind = r.random()
    if kind < 0.25:
        # 514 bits whose last two are 10: a tie at 512 bits, shifted left.
        m = ((1 << 513) + r.choice([2, 6]) + (r.getrandbits(500) << 3)) << r.randint(3400, 4000)
        digits = str(m)
    else:
        n = r.randint(1001, 2500)
        digits = str(r.randint(1, 9)) + "".join(r.choice("0123456789") for _ in range(n - 1))
        if kind < 0.5:
            cut = r.randint(395, 405)
            digits = digits[:cut] + r.choice("09") * (n - cut - 400) + digits[n - 400:]
    n = len(digits)
    if kind < 0.25 and r.random() < 0.5:
        # The tie itself, unscaled.
        return digits
    if r.random() < 0.5:
        return f"{digits}e-{n - r.randint(1, 40)}"
    at = n - r.randint(1, 40)
    return f"{digits[:at]}.{digits[at:]}"


def gen_numbers(r):
    def num():
        x = r.random()
        if x < 0.04:
            return long_literal(r)
        if x < 0.3:
            return str(r.randint(-10 ** r.randint(1, 30), 10 ** r.randint(1, 30)))
        if x < 0.6:
            return f"{r.randint(0, 10 ** r.randint(1, 20))}.{r.randint(0, 10 ** r.randint(1, 25))}"
        if x < 0.8:
            return f"{r.randint(1, 99)}e{r.randint(-400, 400)}"
        return r.choice(["0", "-0", "1", "3", "7", "0.1", "1e308", "1.7976931348623157e308", "4.9e-324",
                         "9223372036854775807", "9223372036854775808", "-9223372036854775809", "18446744073709551616"])

    def expr(d):
        x = r.random()
        if d <= 0 or x < 0.3:
            return num()
        if x < 0.7:
            return f"({expr(d - 1)} {r.choice('+-*/%')} {expr(d - 1)})"
        if x < 0.8:
            f = r.choice(['floor', 'ceil', 'abs', 'signum', 'log', 'pow', 'max', 'min', 'tostring', 'tonumber'])
            args = [expr(d - 1)] + ([expr(d - 1)] if r.random() < 0.5 else [])
            return f"{f}({', '.join(args)})"
        if x < 0.87:
            verb = r.choice(["%d", "%.3f", "%e", "%g", "%v", "%.0f", "%x", "%10.2e", "%f"])
            return f'format("{verb}", {expr(d - 1)})'
        if x < 0.93:
            return f"{expr(d - 1)} {r.choice(['==', '<', '>=', '!='])} {expr(d - 1)}"
        digits = r.choice(["ff", "-101", "zz", "7fffffffffffffffffff", "0", "1_0"])
        return f'parseint("{digits}", {r.choice(["2", "16", "36", "10", "1", "37"])})'

    return {"mode": "expr", "src": expr(3)}


def gen_format(r):
    strs = ['"a"', '"é"', '"e\\u0301"', '"\\n"', '"$${x}"', '"%%{"', '"🇺🇸"', '"ÅΩ"', '"  pad  "', '"a\\tb"', '"Ǆ"',
            '"ß"', '"İ"', '""']
    nums = ['0', '1', '-0', '1.5', '1e308', '123456789012345678901234567890', '0.1', '-7', '9007199254740993']

    def expr(d):
        x = r.random()
        if d <= 0 or x < 0.3:
            return r.choice(nums + strs + ['true', 'null', '[1,2]', '{a=1}'])
        if x < 0.5:
            verb = r.choice(["%d", "%5.2f", "%e", "%g", "%x", "%X", "%o", "%b", "%q", "%-5s|", "%05d", "%+d", "%.3s",
                             "%v", "%#v", "%t", "%10.4g", "%%", "%c", "%U", "%8.3e"])
            return f'format("{verb}", {expr(d - 1)})'
        if x < 0.6:
            layout = r.choice(["YYYY-MM-DD", "DD MMM YYYY hh:mm ZZZ", "EEEE, h:mm aa", "'quoted' YY", "ZZZZZ",
                               "hh:mm:ss.SSS", "Z ZZ ZZZZ", "'unterminated"])
            stamp = r.choice(["2017-11-22T00:00:00Z", "2006-01-02T15:04:05+07:00", "1999-12-31T23:59:59.123456789-08:30",
                              "2017-11-22 00:00:00Z"])
            return f'formatdate("{layout}", "{stamp}")'
        if x < 0.75:
            f = r.choice(["upper", "lower", "title", "trimspace", "chomp", "jsonencode", "tostring"])
            return f"{f}({expr(d - 1)})"
        if x < 0.85:
            return f"substr({expr(d - 1)}, {r.choice(nums)}, {r.choice(nums)})"
        return f'"${{{expr(d - 1)}}}%{{ if {expr(d - 1)} }}y%{{ else }}n%{{ endif }}"'

    return {"mode": "expr", "src": expr(3)}


def gen_declare(r):
    def ty(d):
        x = r.random()
        if d <= 0 or x < 0.3:
            k = r.choice(["string", "number", "bool", "any"])
            pools = {"string": ["x", "1", "true", None, "é"], "number": [1, 2.5, "3", None, -1],
                     "bool": [True, False, "true", None], "any": [1, "x", [1], {"a": 1}, None, True, [1, "a"]]}
            return k, (lambda p=pools[k]: r.choice(p))
        if x < 0.65:
            s, g = ty(d - 1)
            kind = r.choice(["list", "set", "map"])
            if kind == "map":
                return f"map({s})", lambda: None if r.random() < 0.05 else {k: g() for k in r.sample("pqrs", r.randint(0, 3))}
            return f"{kind}({s})", lambda: None if r.random() < 0.05 else [g() for _ in range(r.randint(0, 3))]
        if x < 0.72:
            ts = [ty(d - 1) for _ in range(r.randint(0, 3))]
            return "tuple([" + ", ".join(t[0] for t in ts) + "])", lambda: None if r.random() < 0.05 else [t[1]() for t in ts]
        attrs = []
        for k in r.sample("abcd", r.randint(0, 3)):
            s, g = ty(d - 1)
            optional = r.random() < 0.5
            if optional:
                default = g() if r.random() < 0.6 else ...
                if default is ...:
                    s = f"optional({s})"
                elif isinstance(default, dict):
                    s = f"optional({s}, {{{', '.join(f'{kk} = {json.dumps(vv)}' for kk, vv in default.items())}}})"
                else:
                    s = f"optional({s}, {json.dumps(default)})"
            attrs.append((k, s, g, optional))

        def value():
            if r.random() < 0.05:
                return None
            o = {k: g() for k, _, g, opt in attrs if not (opt and r.random() < 0.5)}
            if r.random() < 0.1:
                o["z"] = 1
            return o

        return "object({" + ", ".join(f"{k} = {s}" for k, s, _, _ in attrs) + "})", value

    t, value = ty(3)
    case = {"mode": "expr", "src": r.choice(["v", "v", "jsonencode(v)", "v == null", "length(v)", "[for x in v : x]"]),
            "declare": {"v": t}}
    if r.random() < 0.9:
        case["vars"] = {"v": value()}
    return case


def gen_packer(r):
    atoms = ['0', '1', '-1', '8', '24', '2.5', '"a"', '""', '"10.0.0.0/8"', '"192.168.1.0/24"', '"fd00::/8"', '"::1/128"',
             '"10.0.0.1"', '"256.0.0.0/8"', '"a: 1\\nb: [1, 2]\\n"', '"- x\\n- {y: z}\\n"', '"{a: &x 1, b: *x}"',
             '"UTF-16LE"', '"UTF-8"', '"ISO-8859-1"', '"aGVsbG8="', '"/a/b/c.txt"', '"../x"', '"~/y"', '"dns"',
             '"6ba7b810-9dad-11d1-80b4-00c04fd430c8"', '"héllo wörld"', '"a b&c=d/e?f"', 'null', 'true', '[1, 2, 3]',
             '["a", "b"]', '{a = 1, b = "x"}', '[]', '{}', '"%s"', '"a,b,,c"', '"[0-9]+"', '"$1"', 'string', 'number',
             'list(string)', 'map(number)', '"yes"', '"~"', '"null"', '"1e3"', '"0x1F"', '"!!binary aGk="']

    def expr(d):
        x = r.random()
        if d <= 0 or x < 0.35:
            return r.choice(atoms)
        if x < 0.8:
            return r.choice(PACKER) + "(" + ", ".join(expr(d - 1) for _ in range(r.choice([0, 1, 1, 2, 2, 2, 3, 4]))) + ")"
        if x < 0.9:
            return "[" + ", ".join(expr(d - 1) for _ in range(r.randint(0, 3))) + "]"
        return "{" + ", ".join(f"{r.choice('abc')} = {expr(d - 1)}" for _ in range(r.randint(0, 2))) + "}"

    return {"mode": "expr", "src": expr(3), "funcs": "packer"}


def gen_vars(r):
    nums = ["0", "-0", "1.0", "1e400", "-1e400", "1e-400", "123456789012345678901234567890",
            "0.1000000000000000055511151231257827", "3.14", "1E5", "2.5e-3", "-0.0", "9007199254740993"]

    def val(d):
        x = r.random()
        if d <= 0 or x < 0.4:
            return r.choice(nums + ['"x"', '"é"', '"e\\u0301"', 'true', 'null', '"\\ud83d\\ude00"', '""'])
        if x < 0.7:
            return "[" + ",".join(val(d - 1) for _ in range(r.randint(0, 3))) + "]"
        # One spelling of é per object: keys that collide once normalized
        # make the reference's result depend on Go's map order.
        keys = r.sample(['"a"', '"b"', r.choice(['"é"', '"e\\u0301"']), '""', '"1"', '"a b"'], r.randint(0, 3))
        return "{" + ",".join(f"{k}:{val(d - 1)}" for k in keys) + "}"

    src = r.choice(["v", "jsonencode(v)", "v == v", "length(v)", "tostring(v)", "[for k, x in v : k]", "keys(v)", "v[0]",
                    "v.a", 'v["é"]'])
    # Raw JSON text for the variable: the numbers keep their digits.
    return {"mode": "expr", "src": src, "vars_raw": val(3)}


EDITS_BODY = list('{}[]()"=,.:?!\n$%~*<>/#\\\'') + ['${', '%{', '<<EOT\n', '\nEOT\n', '...', '=>', '::', '\t', 'é', '\r',
                                                   '\r\n', '<<-EOT\n', '  EOT\n', '~}', '\u200b', '\ufeff', '/*', '*/', '//']


def corpus_files(kind):
    base = os.path.join(SHARED, "corpus", "realworld" if kind == "body" else "templates")
    pats = ["**/*.hcl", "**/*.tf"] if kind == "body" else ["**/*"]
    files = sorted(f for p in pats for f in glob.glob(os.path.join(base, p), recursive=True) if os.path.isfile(f))
    return [f for f in files if 50 < os.path.getsize(f) < 2500]


def gen_mutated(r, kind, files):
    for _ in range(10):
        try:
            with open(r.choice(files), encoding="utf-8") as fh:
                s = fh.read()
            break
        except (UnicodeDecodeError, OSError):
            continue
    else:
        s = ""
    for _ in range(r.randint(1, 3)):
        p = r.randrange(len(s) + 1)
        x = r.random()
        if x < 0.4:
            s = s[:p] + s[p + 1:]
        elif x < 0.8:
            s = s[:p] + r.choice(EDITS_BODY) + s[p:]
        else:
            s = s[:p] + s[min(len(s), p + r.randint(1, 20)):]
    return {"mode": kind, "src": s}


def gen_sets(r):
    """Sets of sets, tuples and objects of numbers near one another, 0 and
    -0: deduplication keys, tied elements in insertion order, and cty's
    order where its `Less` is no strict weak order (raw-equal values written
    apart)."""
    nums = ["1.00000000001", "1.00000000002", "1.000000000015", "1", "0", "-0", "2", "1.0000000000100000001"]
    shape = r.choice(["[{x}]", "toset([{x}, {y}])", "[toset([{x}, {y}])]", "{{a = {x}}}", "toset([[{x}], [{y}]])",
                      "toset([{{a = {x}}}, {{a = {y}}}])"])
    def coll():
        return "[" + ", ".join(shape.format(x=r.choice(nums), y=r.choice(nums)) for _ in range(r.randint(1, 5))) + "]"
    a, b = coll(), coll()
    src = r.choice([
        f"length(distinct({a}))", f"length(toset({a}))", f"toset({a})", f"distinct({a})",
        f"setintersection({a}, {b})", f"setunion({a}, {b})", f"setsubtract(toset({a}), toset({b}))",
        f"setsymmetricdifference({a}, {b})", f"contains(toset({a}), {b}[0])", f"toset({a}) == toset({b})",
    ])
    return {"mode": "expr", "src": src}


def gen_regex(r):
    atoms = ['a', 'b', '.', '\\d', '\\w', '\\s', '\\pL', '\\p{Greek}', '\\PL', '\\p{^Greek}', '\\p{Foo}', '\\pN', '\\p',
             '[a-z]', '[^a]', '[[:alpha:]]', '[[:^digit:]]', '[[:foo:]]', '\\Q.*\\E', '(?i)', '(?s)', '(?m)', '(?U)',
             '(?-U)', '(?i-s:', '(?x)', '^', '$', '\\A', '\\z', '\\b', '\\B', '(?P<n>a)', '(?P<1>a)', '(?P<>a)',
             '(?<n>a)', '(a|b)', '(?:ab)', '\\1', '\\C', '\\x41', '\\x{263a}', '\\x{110000}', '\\xZ', '\\n', 'é',
             '[é-ü]', '\\', '(', ')', '[', ']', '-', '*', '+', '?', '{2}', '{1,3}', '{1001}', '{2,}', '*?', '+?', '??',
             '\\Z', '(?=a)', '\\8', '\\0', '\\01', '{', '}', '{0}', '{500}', '{0,}', '{600}', '{2,3}', '|', '(?P=n)', '\\e', '\\v', '[\\b]', '[a-\\d]',
             '[z-a]', '[\\x41-\\x5a]', '<', '>', '#', ' ', '&', '~']
    texts = ['abc', 'aBc ü é 123', '', 'a\nb', 'ααβ', 'xyz 42 foo_bar', 'aaaa', '☺ A', '<a> & ~b-c #1']
    refs = ['$', '$$', '$1', '$2', '${1}', '$1x', '${1}x', '$01', '${n}', '$n', '$nn', '${n', '$}', '${}', '$é', '-']
    pattern = json.dumps(''.join(r.choice(atoms) for _ in range(r.randint(1, 6))))
    text = json.dumps(r.choice(texts))
    x = r.random()
    if x < 0.3:
        template = json.dumps(''.join(r.choice(refs) for _ in range(r.randint(1, 3)))).replace('${', '$${')
        return {"mode": "expr", "src": f"regexreplace({text}, {pattern}, {template})"}
    if x < 0.5:
        return {"mode": "expr", "src": f"can(regex({pattern}, {text}))"}
    if x < 0.7:
        # Terraform's "does it match" (one call of a composition in hclvm).
        return {"mode": "expr", "src": f"length(regexall({pattern}, {text}))"}
    return {"mode": "expr", "src": f"{r.choice(['regex', 'regexall'])}({pattern}, {text})"}


def gen_unicode(r):
    pieces = ['é', 'e\u0301', '🇺🇸', '👨\u200d👩\u200d👧', '\u200d', '\u1100\u1161', '\t', 'a', '😀', '\u0301', 'ﬁ',
              'ß', '\u3000', ' ', 'x', '"', '\\u00e9', '\\U0001F600', '\\ud800', '\\x', '\\', '${', '}', '%{',
              '\\n', '\\u20', '$${', '%%{', '\\"', '\\\\', '\u0308', '\u200d\u0301', '가', '\\U110000']
    errors = ['nope', '1 +', '[', '{a=}', 'x.', '"a" + 1', 'f(', '!"x"', '[for x in 1: x]', 'null.a', 'a = 1', '"${"']
    text = ''.join(r.choice(pieces) for _ in range(r.randint(0, 8)))
    more = ''.join(r.choice(pieces) for _ in range(r.randint(0, 4)))
    x = r.random()
    if x < 0.4:
        return {"mode": "expr", "src": f'"{text}" == {r.choice(errors)} && "{more}"'}
    if x < 0.7:
        return {"mode": "body", "src": f'a = "{text}"\nb = {r.choice(errors)} # {text}\nc "{more}" {{}}\n'}
    return {"mode": "template", "src": f'{text}${{{r.choice(errors)}}}{text}'}


def sigil_cases():
    """Every short string of template sigils, braces and line breaks, bare
    and in a heredoc: where the scanner's sigil rules and its stops at a
    lone carriage return show."""
    import itertools
    alphabet = ['%', '$', '\r', '\n', 'x', '{', '}']
    for n in range(1, 6):
        for chars in itertools.product(alphabet, repeat=n):
            s = ''.join(chars)
            yield {"mode": "template", "src": s}
            yield {"mode": "body", "src": "a = <<EOT\n" + s + "\nEOT\n"}


def case_line(case, cid):
    raw = case.pop("vars_raw", None)
    case = {"id": cid, **case}
    line = json.dumps(case, ensure_ascii=False)
    if raw is not None:
        line = line[:-1] + ', "vars": {"v": ' + raw + "}}"
    return line


def loads(line):
    """A result line with each number kept as its text (a float would drop
    digits past the 17th and read 1e-400 as 0; a decimal would make 1.0
    equal 1): numbers compare exactly as the engines print them."""
    def number(text):
        return ("number", text)
    return json.loads(line, parse_float=number, parse_int=number)


def run_engine(cmd, path):
    # (the reference may log bytes that are not UTF-8 on standard error)
    out = subprocess.run(cmd + [path], capture_output=True, text=True, errors="replace").stdout
    results = {}
    for line in out.splitlines():
        if line.strip():
            d = loads(line)
            results[d.get("id")] = d
    return results


def oracle_can_give(oracle, line, ours, tries=12):
    for _ in range(tries):
        out = subprocess.run([oracle, "/dev/stdin"], input=line, capture_output=True, text=True).stdout
        if out.strip() and loads(out) == ours:
            return True
    return False


def gen_literals(r):
    """Object and tuple constructors of literals (which the parser keeps
    as their source text) and near misses: keys of every form, `=` and
    `:`, commas, newlines and comments between and inside items, duplicate
    and NFC-equal keys, `for` as a key, nested and long objects, and a
    token here or there that makes the run stop (an operator, a
    reference, an escape, an interpolation, a missing separator)."""
    keys = ["a", "b", "a", "for", "null", "true", "k-1", "e\u0301", "\u00e9", '"a"', '"a b"', '""', '"e\u0301"', '"\u00e9"',
            '"x\\n"', '"${v}"', "(v)", "a.b", "1", "-"]
    values = ["1", "0", "-1", "1.5e3", "1e400", "0.1", "007", "1.", "true", "false", "null", '"x"', '""', '"h\u00e9"',
              '"$${x}"', '"%%{y}"', '"a\\tb"', '"${v}"', "v", "[1]", "{}", "1 + 1", '"x" == "y"']
    gaps = ["", " ", "\n", " # c\n", " /* c */ ", "\n\n"]
    seps = [", ", ",", "\n", ",\n", " ", ",,", "\n,", ", # c\n"]
    def value(depth):
        x = r.random()
        if depth == 0 and x < 0.15:
            return obj(depth + 1)
        if depth == 0 and x < 0.25:
            return tup(depth + 1)
        return r.choice(values[:16] if r.random() < 0.85 else values)
    def item(depth):
        key = r.choice(keys[:14] if r.random() < 0.85 else keys)
        eq = r.choice(["=", ":", " = ", ": ", " =\n"] if r.random() < 0.1 else [" = ", "=", ": "])
        return f"{key}{eq}{value(depth)}"
    def obj(depth):
        n = r.choice([0, 1, 1, 2, 3, 5, 80]) if depth else r.choice([1, 2, 3, 6, 30])
        sep = lambda: r.choice(seps[:4] if r.random() < 0.9 else seps)
        body = "".join(item(depth) + (sep() if i + 1 < n else r.choice(["", ",", "\n"])) for i in range(n))
        return "{" + r.choice(gaps) + body + r.choice(gaps) + "}"
    def tup(depth):
        n = r.choice([1, 2, 4, 7, 100]) if depth else r.choice([1, 2, 4, 30])
        els = [value(depth) if r.random() < 0.5 else obj(depth) for _ in range(n)]
        return "[" + r.choice(gaps) + ("," + r.choice(gaps)).join(els) + r.choice(["", ","]) + r.choice(gaps) + "]"
    src = obj(0) if r.random() < 0.5 else tup(0)
    x = r.random()
    if x < 0.15:
        return {"mode": "body", "src": f"x = {src}\ny = {r.choice(['1', src])}\n", "vars": {"v": "k"}}
    if x < 0.25:
        return {"mode": "expr", "src": f"jsonencode({src})", "vars": {"v": "k"}}
    return {"mode": "expr", "src": src, "vars": {"v": "k"}}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--oracle", default=ORACLE, help="the hcl-oracle binary")
    ap.add_argument("--kinds", default="expr,unknowns,structure,structunk,directives,bodies,numbers,format,declare,packer,vars,regex,unicode,sets,literals,body,template,sigils")
    ap.add_argument("--seeds", type=int, default=1)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--cases", type=int, default=2000, help="cases per kind and seed")
    args = ap.parse_args()
    if not os.access(args.oracle, os.X_OK):
        print(f"differential.py: skipped: no oracle at {args.oracle} (../shared absent, or the oracle not built)")
        return 77
    if not os.access(HCLVM, os.X_OK):
        print(f"differential.py: no {HCLVM}: cargo build --release first", file=sys.stderr)
        return 2
    os.makedirs(OUT, exist_ok=True)
    gens = {
        "expr": lambda r: gen_expr(r, False), "unknowns": lambda r: gen_expr(r, True), "numbers": gen_numbers,
        "format": gen_format, "declare": gen_declare, "packer": gen_packer, "vars": gen_vars, "regex": gen_regex,
        "unicode": gen_unicode, "structure": gen_structure, "structunk": lambda r: gen_structure(r, True),
        "directives": gen_directives, "bodies": gen_bodies, "sets": gen_sets, "literals": gen_literals,
    }
    kinds = args.kinds.split(",")
    unknown = [k for k in kinds if k not in gens and k not in ("body", "template", "sigils")]
    if unknown:
        print(f"differential.py: unknown kind {', '.join(unknown)}", file=sys.stderr)
        return 2
    failed = 0
    for kind in kinds:
        files = corpus_files(kind) if kind in ("body", "template") else None
        if files == []:
            print(f"{kind}: skipped: no corpus files under {SHARED}/corpus")
            continue
        seeds = [0] if kind == "sigils" else range(args.first_seed, args.first_seed + args.seeds)
        for seed in seeds:
            r = random.Random(f"{kind}-{seed}")
            if kind == "sigils":
                lines = [case_line(case, f"sigils-{i}") for i, case in enumerate(sigil_cases())]
            else:
                lines = []
                for i in range(args.cases):
                    case = gen_mutated(r, kind, files) if files is not None else gens[kind](r)
                    lines.append(case_line(case, f"{kind}-{seed}-{i}"))
            path = os.path.join(OUT, f"cases-{kind}-{seed}.jsonl")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write("\n".join(lines) + "\n")
            ref = run_engine([args.oracle], path)
            ours = run_engine([HCLVM, "conformance"], path)
            by_id = {json.loads(l)["id"]: l for l in lines}
            differ = [cid for cid in by_id if ref.get(cid) != ours.get(cid)]
            real = [cid for cid in differ if ours.get(cid) is None or not oracle_can_give(args.oracle, by_id[cid], ours[cid])]
            ok = sum(1 for v in ref.values() if v.get("ok"))
            print(f"{kind} seed {seed}: {len(lines)} cases ({ok} ok in the reference), {len(differ)} differ, "
                  f"{len(real)} not explained by the reference's map order")
            diff_path = os.path.join(OUT, f"DIFF-{kind}-{seed}.jsonl")
            if os.path.exists(diff_path):
                os.remove(diff_path)
            if real:
                failed += len(real)
                with open(diff_path, "w", encoding="utf-8") as fh:
                    for cid in real:
                        fh.write(by_id[cid] + "\n" + json.dumps(ref.get(cid)) + "\n" + json.dumps(ours.get(cid)) + "\n")
                print(f"  cases and both results: {diff_path}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
