#!/usr/bin/env python3
"""Random calls of Packer's functions ("funcs": "packer"), for differential
testing against the reference:

    python3 tests/diff_fuzz_packer.py SEED COUNT > cases.jsonl
    hclvm conformance cases.jsonl > ours
    hcl-oracle --in-process cases.jsonl > ref      # from the repository root
    python3 tests/diff_compare.py cases.jsonl ours ref

Each case calls one function Packer adds or changes with random arguments
drawn from pools of good, odd and wrong values: CIDR prefixes of both
families (mapped, /0, full length, malformed), numbers (negative, huge,
fractional), texts (empty, non-ASCII, base64-like, path-like, UUID-like),
collections, nulls and unknowns, sometimes nested in another call or
spread with `...`. File paths point into tests/data/rows/files (run both
from the repository root). The functions that read the clock or
randomness appear only inside shape checks whose result cannot vary.
"""
import json
import random
import sys

R = random.Random(int(sys.argv[1]))
COUNT = int(sys.argv[2])

UNKNOWNS = {"us": "string", "un": "number", "ud": "dynamic", "uls": ["list", "string"], "ut": ["tuple", ["string", "number"]],
            "uo": ["object", {"a": "number"}], "usn": ["set", "number"]}
VARS = {"s": "abc", "n": 8, "l": ["a", "b", "a"], "z": None, "e": [], "m": {"type": ["map", "string"], "value": {"k": "v"}},
        "ss": {"type": ["set", "string"], "value": ["x", "y"]}}

def q(s):
    return json.dumps(s, ensure_ascii=False)

def rint():
    return R.choice([0, 1, 2, 3, 7, 8, 15, 16, 24, 31, 32, 33, 64, 127, 128, 255, 256, 65535, 65536, -1, -2, -8, -255, -256,
                     2**31, 2**32, 2**32 - 1, 2**63 - 1, -2**63, 2**63, R.randint(-300, 300), R.randint(0, 2**40)])

def octet():
    return str(R.choice([0, 1, 10, 127, 128, 192, 255, 256, R.randint(0, 255)]))

def cidr():
    k = R.random()
    if k < 0.4:
        return "%s.%s.%s.%s/%d" % (octet(), octet(), octet(), octet(), R.choice([0, 1, 8, 16, 24, 30, 31, 32, 33, R.randint(0, 32)]))
    if k < 0.75:
        groups = [R.choice(["0", "1", "fd00", "ffff", "db8", "2001", "%x" % R.randint(0, 65535)]) for _ in range(8)]
        cut = R.randint(0, 8)
        text = ":".join(groups) if R.random() < 0.4 else ":".join(groups[:cut]) + "::" + ":".join(groups[cut + 2:] if cut + 2 <= 8 else [])
        return "%s/%d" % (text, R.choice([0, 8, 32, 48, 56, 64, 96, 104, 112, 120, 127, 128, 129, R.randint(0, 128)]))
    if k < 0.9:
        return "::ffff:%s.%s.%s.%s/%d" % (octet(), octet(), octet(), octet(), R.choice([0, 64, 96, 100, 104, 112, 120, 128]))
    return R.choice(["", "10.0.0.0", "/8", "10.0.0.0/x", "01.0.0.0/8", "::/", "1::2::3/8", "10.0.0.0/8/8", " 10.0.0.0/8"])

TEXTS = ["", "a", "abc", "héllo", "e\u0301", "日本", "\U0001F600", "a b&c=d", "~/x", "~", "/a/b/", "a//b/../c", "..", ".",
         "YWJj", "YQ==", "YQ", "Y=", "4pyT", "/w==", "YW\nJj", "dns", "url", "oid", "x500", "6ba7b810-9dad-11d1-80b4-00c04fd430c8",
         "{6ba7b810-9dad-11d1-80b4-00c04fd430c8}", "urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8", "6ba7b8109dad11d180b400c04fd430c8",
         "tests/data/rows/files/hello.txt", "tests/data/rows/files/latin1.txt", "tests/data/rows/files/sub", "tests/data/rows/files/none",
         "tests/data/rows/files/sub/nfd.txt", "\t", "%41", "+"]

def text():
    if R.random() < 0.15:
        return "".join(R.choice("ab/.~=+%é日 \n-_") for _ in range(R.randint(0, 12)))
    return R.choice(TEXTS)

def scalar():
    k = R.random()
    if k < 0.45:
        return q(text())
    if k < 0.75:
        return str(rint())
    return R.choice(["true", "false", "null", "1.5", "-0.5", "1e3", "s", "n", "z", "us", "un", "ud"])

def coll():
    return R.choice(["[]", "[1, 2, 3]", "[\"a\", \"b\"]", "[\"a\", 1]", "[null]", "[[1], [2]]", "tolist([])", "toset([3, 1])",
                     "{}", "{a = 1}", "{a = \"\", b = \"x\"}", "l", "e", "m", "ss", "uls", "ut", "uo", "usn", "[us, \"a\"]",
                     "[un]", "ud", "\"abc\"", "\"\"", "null", "1"])

def arg():
    k = R.random()
    if k < 0.6:
        return scalar()
    if k < 0.85:
        return coll()
    return call(depth=1)

CALLS = [
    ("cidrhost", lambda: [q(cidr()), str(rint())]),
    ("cidrnetmask", lambda: [q(cidr())]),
    ("cidrsubnet", lambda: [q(cidr()), str(R.choice([-1, 0, 1, 2, 4, 8, 16, 24, 32, 33, R.randint(-40, 40)])), str(rint())]),
    ("cidrsubnets", lambda: [q(cidr())] + [str(R.choice([1, 2, 4, 8, 16, 24, 0, 33, -1, R.randint(1, 32)])) for _ in range(R.randint(0, 6))]),
    ("md5", lambda: [scalar()]), ("sha1", lambda: [scalar()]), ("sha256", lambda: [scalar()]), ("sha512", lambda: [scalar()]),
    ("uuidv5", lambda: [q(R.choice(TEXTS[20:30])) if R.random() < 0.7 else scalar(), scalar()]),
    ("base64encode", lambda: [scalar()]), ("base64decode", lambda: [scalar()]), ("urlencode", lambda: [scalar()]),
    ("basename", lambda: [scalar()]), ("dirname", lambda: [scalar()]),
    ("file", lambda: [q(R.choice(TEXTS[28:35]))]), ("fileexists", lambda: [q(R.choice(TEXTS[28:35]))]),
    ("length", lambda: [arg()]), ("reverse", lambda: [arg()]), ("strrev", lambda: [scalar()]),
    ("index", lambda: [coll(), scalar()]),
    ("coalesce", lambda: [arg() for _ in range(R.randint(0, 4))]),
    ("regex_replace", lambda: [scalar(), q(R.choice(["a", "b+", "(.)", "[", "^", "é", "(?P<x>a)"])), q(R.choice(["x", "$1", "${x}", ""]))]),
]

SHAPES = ["length(uuidv4())", "substr(bcrypt(%s, 4), 0, 7)", "length(timestamp())", "legacy_isotime(\"2006\") == legacy_strftime(\"%%Y\")",
          "length(legacy_strftime(%s)) >= 0"]

def call(depth=0):
    if depth == 0 and R.random() < 0.04:
        shape = R.choice(SHAPES)
        return shape % q(text()) if "%s" in shape else shape.replace("%%", "%")
    name, gen = R.choice(CALLS)
    args = gen()
    if args and R.random() < 0.05:
        return "%s(%s, [%s]...)" % (name, ", ".join(args[:1]), ", ".join(args[1:])) if len(args) > 1 else "%s(%s)" % (name, args[0])
    return "%s(%s)" % (name, ", ".join(args))

for i in range(COUNT):
    src = call()
    if R.random() < 0.1:
        src = "try(%s, \"failed\")" % src
    case = {"id": "fz/%d" % i, "mode": "expr", "src": src, "funcs": "packer", "vars": VARS, "unknowns": UNKNOWNS}
    print(json.dumps(case, ensure_ascii=False))
