#!/usr/bin/env python3
"""Random calls of Packer's functions ("funcs": "packer"), for differential
testing against the reference:

    python3 tests/diff_fuzz_packer.py SEED COUNT [NAME,...] > cases.jsonl
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

NAME,... keeps only calls to those functions (e.g.
`textencodebase64,textdecodebase64`). Also the text encodings under random IANA names and aliases (from
runtime/src/func/packer/textencoding_tables.rs, in random letter case)
with random text and bytes, convert to random type expressions (good and
bad), fileset with random patterns over tests/data/rows/files/tree,
templatefile with the templates of tests/data/rows/files/tmpl and random
variables, and rsadecrypt with the keys and ciphertexts of
tests/data/rows/files/rsa and broken ones.
"""
import base64
import os
import re
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

ALIASES = re.findall(r'^    \("((?:[^"\\]|\\.)*)", \d+\),', open("runtime/src/func/packer/textencoding_tables.rs", encoding="utf-8").read(), re.M)
ENC_TEXTS = ["", "abc", "héllo", "Grüße", "日本語", "中文", "한국어", "Ελληνικά", "Кириллица", "עברית", "العربية", "ไทย", "€", "~{x}~",
             "\U0001F600", "e\u0301", "½ ¾", "ÿ", "\u00a0", "カナ", "ｶﾅ", "\\", "¥", "‾", "−", "〜", "\u3000"]

def enc_name():
    k = R.random()
    if k < 0.85:
        n = R.choice(ALIASES)
        return q("".join(c.upper() if R.random() < 0.3 else c for c in n))
    return q(R.choice(["UTF-32", "utf-7", "", "nope", " utf-8 ", "IBM290", "ISO-8859-11", "latin9x", "cp1252"]))

def enc_text():
    if R.random() < 0.3:
        return q("".join(R.choice(ENC_TEXTS) for _ in range(R.randint(1, 3))))
    return q(R.choice(ENC_TEXTS)) if R.random() < 0.8 else scalar()

def enc_bytes():
    if R.random() < 0.15:
        return scalar()
    n = R.randint(0, 6)
    b = bytes(R.choice([R.randint(0, 255), R.randint(0x20, 0x7e), R.randint(0x80, 0xff), 0x1b, 0x7e, 0x7b, 0x7d, 0x0a]) for _ in range(n))
    return q(base64.b64encode(b).decode())

TYPES = ["string", "number", "bool", "any", "list(string)", "list(number)", "set(string)", "map(string)", "map(any)", "list(any)",
         "tuple([string, number])", "tuple([])", "object({a = number})", "object({a = string, b = optional(number)})",
         "object({})", "set(any)", "map(list(string))", "list(object({a = string}))", "foo", "list", "optional(string)",
         "object({a = optional(string, \"x\")})", "\"string\"", "map(string, number)", "list(foo)", "tuple(string)"]

TREE = "tests/data/rows/files/tree"
PATTERN_PARTS = ["*", "**", "?", "a", "b", "dir1", "dir2", "deep", "[ab]", "[^a]", "[a-c]", "{a,b}", "{dir1,dir2}", ".txt", ".md",
                 "*.txt", "x", "z.txt", "link1", ".hidden", "\\[x]", ",", "[", "{", "..", "."]

def pattern():
    parts = []
    for _ in range(R.randint(1, 3)):
        parts.append("".join(R.choice(PATTERN_PARTS) for _ in range(R.randint(1, 2))))
    return "/".join(parts)

TEMPLATES = ["hello", "loop", "funcs", "single", "recursive", "badparse", "evalerr", "twoerrs", "nested", "unknownvar", "if", "obj",
             "try", "text", "attrs", "file", "deep", "multiline", "warn", "nope"]

def tvars():
    names = R.sample(["name", "items", "cond", "m", "n", "x", "y", "xs", "depth", "string", "bad name", "1x", "_u"], R.randint(0, 5))
    # Packer checks the names in Go map order: with two bad ones, the one
    # it names varies from run to run.
    if "bad name" in names and "1x" in names:
        names.remove("1x")
    vals = {"name": ["\"w\"", "1", "null", "[\"x\"]", "us"], "items": ["[1, \"a\"]", "[]", "\"s\"", "uls"], "cond": ["true", "false", "\"x\""],
            "m": ["{a = 1}", "{}", "[1]"], "n": ["5", "\"n\""], "x": ["1", "null"], "y": ["{z = 2}", "{w = 1}"], "xs": ["{a = 1, b = 2}", "[]"],
            "depth": ["2", "0", "-1", "\"3\""], "string": ["1"], "bad name": ["1"], "1x": ["1"], "_u": ["2"]}
    if R.random() < 0.1:
        return R.choice(["\"str\"", "null", "[1]", "m", "ud", "uo", "{}"])
    return "{%s}" % ", ".join("%s = %s" % (q(n) if " " in n or n[0].isdigit() else n, R.choice(vals[n])) for n in names)

RSA = "tests/data/rows/files/rsa/"
def rsa_ct():
    k = R.random()
    if k < 0.6:
        return q(open(RSA + "ct1_%d.b64" % R.randint(0, 4)).read())
    if k < 0.75:
        return q(open(RSA + "ct2_%d.b64" % R.randint(0, 2)).read())
    return scalar()

def broken_der():
    """The 1024-bit key's DER with a few random edits, as PEM."""
    text = open(RSA + "k1024.pem").read()
    d = bytearray(base64.b64decode("".join(text.strip().split("\n")[1:-1])))
    for _ in range(R.randint(1, 3)):
        k = R.random()
        if k < 0.4:
            j = R.randrange(len(d)); d[j] = R.randrange(256)
        elif k < 0.6:
            j = R.randrange(min(len(d), 24)); d[j] = R.randrange(256)
        elif k < 0.75:
            d = d[:R.randrange(1, len(d))]
        elif k < 0.88:
            j = R.randrange(len(d) + 1); d[j:j] = bytes(R.randrange(256) for _ in range(R.randint(1, 4)))
        else:
            j = R.randrange(len(d)); del d[j:j + R.randint(1, 5)]
    return q("-----BEGIN RSA PRIVATE KEY-----\n" + base64.b64encode(bytes(d)).decode() + "\n-----END RSA PRIVATE KEY-----\n")

def rsa_key():
    k = R.random()
    if k < 0.35:
        return q(open(RSA + "k1024.pem").read())
    if k < 0.65:
        return q(open(RSA + R.choice(["k2048.pem", "k_pkcs8.pem", "ec.pem", "k_encrypted.pem", "k3primes.pem", "k_e3.pem"])).read())
    if k < 0.9:
        return broken_der()
    return scalar()

CALLS = [
    ("textencodebase64", lambda: [enc_text(), enc_name()]),
    ("textdecodebase64", lambda: [enc_bytes(), enc_name()]),
    ("convert", lambda: [arg(), R.choice(TYPES)]),
    ("fileset", lambda: [q(R.choice([TREE, TREE + "/dir1", TREE + "/", "tests/data/rows/files", TREE + "/nomatch", ""])), q(pattern())]),
    ("templatefile", lambda: [q("tests/data/rows/files/tmpl/%s.tpl" % R.choice(TEMPLATES)), tvars()]),
    ("rsadecrypt", lambda: [rsa_ct(), rsa_key()]),
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

if len(sys.argv) > 3:
    only = sys.argv[3].split(",")
    CALLS = [c for c in CALLS if c[0] in only]

SHAPES = ["length(uuidv4())", "substr(bcrypt(%s, 4), 0, 7)", "length(timestamp())", "legacy_isotime(\"2006\") == legacy_strftime(\"%%Y\")",
          "length(legacy_strftime(%s)) >= 0"]

def call(depth=0):
    if depth == 0 and R.random() < 0.04 and len(sys.argv) <= 3:
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
