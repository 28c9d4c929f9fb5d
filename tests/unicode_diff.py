#!/usr/bin/env python3
# Differential test of Unicode handling against the reference: NFC (every
# string value) and grapheme clusters (columns of source positions, which
# hcl counts with go-textseg v15; cty's reverse, substr and format, which
# count with go-textseg v13).
#
#   python3 tests/unicode_diff.py [--seed N] [--random N] [--areas A,B,...] [--keep DIR]
#
# Builds the cases, runs hclvm (`hclvm conformance`, default
# target/release/hclvm, or $HCLVM) and the reference (`hcl-oracle
# --in-process`, default ../shared/oracle/bin/hcl-oracle next to the
# repository, or $HCL_ORACLE) on them and compares the results item by
# item (a case packs many items: a tuple element, or an attribute, which
# in hcl-sweep holds 12 probes). Prints, per area, the cases, items and
# probes run and the items that differ, with a few examples; exits 1 on
# any difference. --keep DIR writes the cases and both outputs there. All
# areas with the defaults: 8,400 cases, 6.7M probes, about 80 s.
#
# Areas:
#   nfc-sweep     every code point U+0080..U+1FFFF (samples of planes 2, 3,
#                 15, 16; plane 14 whole) in string literals, alone and next
#                 to letters, marks, jamo, kana voicing marks
#   nfc-pairs     starters whose low 16 bits match a composition's first
#                 character, in every plane, before backward-combining
#                 characters (x/text looks compositions up by 16-bit halves)
#   nfc-stream    long runs of non-starters (x/text's stream-safe joiner)
#   nfc-random    short random sequences of marks, composites, jamo and
#                 characters of Unicode 14, 15 and 16
#   cty-sweep     reverse() of every code point next to probes
#   triples       every triple of cluster classes (3 samples each), through
#                 reverse() and through columns
#   cty-random    reverse, substr and format of random sequences (emoji ZWJ
#                 sequences, flags, Hangul, Indic viramas, Prepend, ...)
#   cty-prefix    the known prefix of a template with an unknown part (cty's
#                 SafeKnownPrefix: NFC boundaries and v13 clusters) after
#                 random sequences
#   cty-long      format width of strings longer than the 4096 bytes that
#                 go-textseg's TokenCount reads at once
#   hcl-sweep     columns after every code point next to probes, raw in
#                 the source
#   hcl-random    columns after random raw sequences, in quoted strings and
#                 in templates
#   hcl-invalid   columns after invalid UTF-8 (overlong forms, surrogates,
#                 truncated sequences, stray bytes) mixed with characters;
#                 only diagnostics are compared: a string value holding
#                 invalid UTF-8 prints differently (the reference writes
#                 \ufffd for each invalid byte, hclvm holds U+FFFD)
#
# Character classes come from go-textseg v15's tables in the reference's
# sources (../shared/oracle/third_party/...; $HCL_TEXTSEG_TABLES), with a
# built-in fallback sample; the sweeps do not depend on them.
import argparse
import base64
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORACLE = os.environ.get("HCL_ORACLE") or os.path.join(ROOT, "..", "shared", "oracle", "bin", "hcl-oracle")
HCLVM = os.environ.get("HCLVM") or os.path.join(ROOT, "target", "release", "hclvm")
TABLES = os.environ.get("HCL_TEXTSEG_TABLES") or os.path.join(
    ROOT, "..", "shared", "oracle", "third_party", "src", "github.com", "apparentlymart", "go-textseg", "v15",
    "textseg", "tables.go")

AREAS = ["nfc-sweep", "nfc-pairs", "nfc-stream", "nfc-random", "cty-sweep", "triples", "cty-random", "cty-prefix", "cty-long",
         "hcl-sweep", "hcl-random", "hcl-invalid"]


def sweep_code_points():
    cps = [c for c in range(0x80, 0x20000) if not 0xD800 <= c <= 0xDFFF]
    cps += list(range(0x20000, 0x40000, 37)) + list(range(0xE0000, 0xE1000)) + list(range(0xF0000, 0x110000, 211))
    return cps


def classes():
    """Grapheme_Cluster_Break classes (Unicode 15.0.0) from go-textseg's
    tables, or a fallback sample."""
    pools = {}
    try:
        src = open(TABLES).read()
        for m in re.finditer(r"var _Grapheme(\w+) = &unicode.RangeTable\{(.*?)\n\}", src, re.S):
            cps = []
            for r in re.finditer(r"Lo: 0x([0-9a-f]+), Hi: 0x([0-9a-f]+), Stride: 0x([0-9a-f]+)", m.group(2)):
                lo, hi, st = (int(x, 16) for x in r.groups())
                cps.extend(range(lo, hi + 1, st))
            pools[m.group(1)] = cps
    except OSError:
        pools = {
            "CR": [0xD], "LF": [0xA], "Control": [0x1, 0x7F, 0x85, 0xAD, 0x200B, 0x2028, 0xE0001],
            "Extend": [0x300, 0x301, 0x316, 0x94D, 0x9BE, 0x200C, 0x1F3FB, 0xFE0F, 0xE0100, 0x898, 0x11F40],
            "Prepend": [0x600, 0x6DD, 0x890, 0x110BD, 0x11F02], "Regional_Indicator": [0x1F1E6, 0x1F1FA, 0x1F1F8],
            "SpacingMark": [0x903, 0x93E, 0xE33, 0x11720, 0x1715], "L": [0x1100, 0x115F, 0xA960],
            "V": [0x1160, 0x1161, 0xD7B0], "T": [0x11A8, 0x11C3, 0xD7CB], "LV": [0xAC00, 0xAC1C],
            "LVT": [0xAC01, 0xD7A3], "ZWJ": [0x200D],
        }
    pools["ExtPict"] = [0xA9, 0xAE, 0x203C, 0x2122, 0x231A, 0x2328, 0x2600, 0x2639, 0x2764, 0x2B50, 0x3030,
                        0x1F000, 0x1F10D, 0x1F300, 0x1F468, 0x1F469, 0x1F466, 0x1F600, 0x1F64F, 0x1F680,
                        0x1F90C, 0x1FA70, 0x1FAE8, 0x1FABF, 0x1FC00, 0x1FFFD, 0x1F8B0]
    pools["FFFD"] = [0xFFFD]
    pools["Other"] = [0x61, 0x915, 0x937, 0x924, 0x930, 0x995, 0xB95, 0x1000, 0x4E00, 0x20000, 0x5D0, 0x3B1,
                      0xE01, 0x10000, 0x10FFFD, 0xE000, 0x378, 0x11F12, 0x16D63]
    return pools


def compositions():
    """(first, second) pairs of primary composites, from Python's tables
    (close enough to pick probes: the reference decides)."""
    pairs = []
    for cp in range(0x80, 0x30000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        d = unicodedata.decomposition(chr(cp))
        if d and not d.startswith("<"):
            p = [int(x, 16) for x in d.split()]
            if len(p) == 2 and unicodedata.normalize("NFC", chr(cp)) == chr(cp):
                pairs.append((p[0], p[1]))
    return pairs


def esc(cps):
    """An HCL quoted string literal of the code points, escaped."""
    out = []
    for c in cps:
        if c < 0x80 and chr(c).isalnum():
            out.append(chr(c))
        elif c <= 0xFFFF:
            out.append("\\u%04x" % c)
        else:
            out.append("\\U%08x" % c)
    return '"' + "".join(out) + '"'


RAW_BAD = {0x22, 0x5C, 0x24, 0x25, 0xA, 0xD, 0x0}


def raw(cps):
    return "".join(chr(c) for c in cps)


class Cases:
    def __init__(self):
        self.lines = []
        # id -> (area, kind, probes)
        self.meta = {}

    def add(self, area, kind, case, probes):
        cid = "%s-%d" % (area, len(self.lines))
        case = dict(case, id=cid)
        self.lines.append(json.dumps(case))
        self.meta[cid] = (area, kind, probes)


def tuple_expr(cases, area, items, per_case, wrap):
    """Cases of mode expr whose value is a tuple, one element per probe."""
    for i in range(0, len(items), per_case):
        chunk = items[i:i + per_case]
        src = "[" + ",\n".join(wrap(p) for p in chunk) + "]"
        cases.add(area, "tuple", {"mode": "expr", "src": src}, chunk)


def body_columns(cases, area, items, per_case, attr, per_attr=1):
    """Cases of mode body, one attribute per `per_attr` probes, each failing
    with a diagnostic whose column follows the probes' clusters."""
    groups = [items[i:i + per_attr] for i in range(0, len(items), per_attr)]
    for i in range(0, len(groups), per_case):
        chunk = groups[i:i + per_case]
        src = "".join("a%d = %s\n" % (j, attr(g)) for j, g in enumerate(chunk))
        cases.add(area, "body", {"mode": "body", "src": src}, chunk)


def build(areas, seed, n_random):
    # One random stream per area, so that an area's cases do not depend on
    # which other areas run.
    rnd = random.Random(seed)

    def area(name):
        rnd.seed("%d:%s" % (seed, name))
        return name in areas
    pools = classes()
    names = sorted(pools)
    cases = Cases()
    cps = sweep_code_points()
    pairs = compositions()
    seconds = sorted({b for _, b in pairs}) + [0x110BA, 0x11127, 0x1133E, 0x11357, 0x114B0, 0x114BA, 0x114BD,
                                               0x115AF, 0x11930]
    marks = [c for c in range(0x300, 0x20000) if not 0xD800 <= c <= 0xDFFF and unicodedata.combining(chr(c))]
    newer = [0x898, 0x899, 0x89F, 0x8CA, 0x8D2, 0xC3C, 0xCF3, 0xECE, 0x1715, 0x180F, 0x1AC1, 0x1ACE, 0x1DFA,
             0x10EFD, 0x10F82, 0x11070, 0x110C2, 0x11241, 0x11720, 0x11F00, 0x11F02, 0x11F03, 0x11F12,
             0x11F34, 0x11F3E, 0x11F41, 0x11F42, 0x13439, 0x13440, 0x13447, 0x1CF00, 0x1E08F, 0x1E2AE, 0x1E4EC,
             0x890, 0x891, 0x1FAE8,
             # Unicode 16: Kirat Rai, Tulu-Tigalari, Gurung Khema, Garay
             0x16D63, 0x16D67, 0x16D68, 0x16D69, 0x16D6A, 0x113B8, 0x113C2, 0x113C5, 0x113C7, 0x113C9,
             0x1611E, 0x1611F, 0x16121, 0x16129, 0x10D69, 0x10D6D, 0x105D2, 0x1E5EE, 0x1E5EF, 0x0897]
    compat_trail = [0xA8, 0xB4, 0xE9, 0x1E09, 0x1F82, 0x1FED, 0xFF9E, 0xFF9F, 0x3131, 0x314F, 0xFFA0, 0xFFC2,
                    0x344, 0xF73, 0xF75, 0xF81, 0x385, 0xAC00, 0xAC01, 0x9BE, 0xB3E, 0xCD5, 0x1161, 0x11A8]

    if area("nfc-sweep"):
        probes = [lambda c: [c], lambda c: [0x61, c], lambda c: [c, 0x301], lambda c: [c, 0x316],
                  lambda c: [c, 0x1161], lambda c: [0x1100, c], lambda c: [0xAC00, c], lambda c: [c, 0x11A8],
                  lambda c: [c, 0x3099], lambda c: [0x301, c], lambda c: [c, 0x334, 0x301]]
        items = [p(c) for c in cps for p in probes]
        tuple_expr(cases, "nfc-sweep", items, 600, esc)
    if area("nfc-pairs"):
        lows = sorted({a & 0xFFFF for a, _ in pairs} | {0x1099, 0x109B, 0x10A5, 0x1131, 0x1132, 0x1347, 0x14B9,
                                                        0x15B8, 0x15B9, 0x1935})
        items = []
        for low in lows:
            for plane in range(17):
                a = plane << 16 | low
                if 0xD800 <= a <= 0xDFFF:
                    continue
                for b in seconds:
                    if plane == 0 or b > 0xFFFF or rnd.random() < 0.2:
                        items.append([a, b])
        items += [[m, b] for m in marks[::5] for b in seconds[::4]]
        tuple_expr(cases, "nfc-pairs", items, 600, esc)
    if area("nfc-stream"):
        items = []
        for _ in range(max(n_random // 4, 100)):
            seq = []
            for _ in range(rnd.randint(20, 90)):
                r = rnd.random()
                if r < 0.6:
                    seq.append(rnd.choice(marks))
                elif r < 0.75:
                    seq.append(rnd.choice(compat_trail))
                elif r < 0.85:
                    seq.append(rnd.choice(seconds))
                elif r < 0.9:
                    seq.append(rnd.choice([0x61, 0x65, 0x915, 0x1100, 0x10041, 0x4E00]))
                else:
                    seq.append(rnd.choice([0x301, 0x316, 0x334, 0x345, 0x5B0, 0x93C, 0x3099, 0x1161]))
            items.append(seq)
        tuple_expr(cases, "nfc-stream", items, 100, esc)
    if area("nfc-random"):
        firsts = sorted({a for a, _ in pairs})
        ps = [marks, seconds, firsts, compat_trail, newer, [0x34F, 0x200D, 0xFFFD, 0x61, 0x20]]
        items = [[rnd.choice(rnd.choice(ps)) for _ in range(rnd.randint(1, 8))] for _ in range(n_random)]
        tuple_expr(cases, "nfc-random", items, 500, esc)

    seg_probes = [lambda c: [c], lambda c: [0x61, c], lambda c: [c, 0x301], lambda c: [c, c],
                  lambda c: [0x600, c], lambda c: [c, 0x200D, 0x2764], lambda c: [0x2764, 0x200D, c],
                  lambda c: [0xAC00, c], lambda c: [0x1100, c], lambda c: [c, 0x11C3], lambda c: [c, 0x1176],
                  lambda c: [0x1F1E6, c], lambda c: [c, 0x1F1E6], lambda c: [c, 0x903], lambda c: [c, 0xFFFD],
                  lambda c: [0xFFFD, c], lambda c: [0x2764, 0x903, 0x200D, c], lambda c: [c, 0x903, 0x200D, 0x2764]]
    if area("cty-sweep"):
        items = [p(c) for c in cps for p in seg_probes]
        tuple_expr(cases, "cty-sweep", items, 600, lambda p: "reverse(%s)" % esc(p))

    if area("triples"):
        reps = {k: sorted(set(v[:2] + v[-2:] + rnd.sample(v, min(4, len(v))))) for k, v in pools.items()}
        items = [[rnd.choice(reps[a]), rnd.choice(reps[b]), rnd.choice(reps[c])]
                 for a in names for b in names for c in names for _ in range(3)]
        tuple_expr(cases, "triples", items, 600, lambda p: "reverse(%s)" % esc(p))
        raw_items = [p for p in items if not any(c in RAW_BAD for c in p)]
        body_columns(cases, "triples", raw_items, 400, lambda g: '["%s", nope]' % raw(g[0]))

    weights = [3 if k in ("Extend", "ZWJ", "ExtPict", "Prepend", "SpacingMark", "L", "V", "T", "LV",
                          "Regional_Indicator") else 1 for k in names]

    def random_seq(allow):
        out = []
        while len(out) < rnd.randint(1, 10):
            r = rnd.random()
            if r < 0.1:
                out += rnd.choice([[0x1F468, 0x200D, 0x1F469, 0x200D, 0x1F467], [0x1F44D, 0x1F3FD],
                                   [0x1F1FA, 0x1F1F8], [0x915, 0x94D, 0x937, 0x93F], [0x1100, 0x1161, 0x11A8],
                                   [0x1100, 0xAC00, 0x11C3], [0x600, 0x661], [0x2764, 0xFE0F, 0x200D, 0x1F525],
                                   [0x11F12, 0x11F41, 0x11F12], [0xE01, 0xE33]])
            elif r < 0.2:
                out.append(rnd.choice(newer))
            else:
                out.append(rnd.choice(pools[rnd.choices(names, weights)[0]]))
        return [c for c in out if allow(c)]

    if area("cty-random"):
        items = [random_seq(lambda c: c != 0) for _ in range(n_random)]
        items = [p for p in items if p]

        def call(p):
            s = esc(p)
            r = rnd.random()
            if r < 0.5:
                return "reverse(%s)" % s
            if r < 0.75:
                return "substr(%s, %d, %d)" % (s, rnd.randint(-3, 3), rnd.randint(-1, 4))
            return 'format("%%-%ds|%%.%ds|%%%ds", %s, %s, %s)' % (rnd.randint(0, 12), rnd.randint(0, 6),
                                                                    rnd.randint(0, 8), s, s, s)
        tuple_expr(cases, "cty-random", items, 400, call)
    if area("cty-prefix"):
        items = [random_seq(lambda c: c not in (0x24, 0x25)) for _ in range(n_random)]
        items = [p for p in items if p]
        for i in range(0, len(items), 400):
            chunk = items[i:i + 400]
            src = "[" + ",\n".join('"%s${u}"' % esc(p)[1:-1] for p in chunk) + "]"
            cases.add("cty-prefix", "tuple", {"mode": "expr", "src": src, "unknowns": {"u": "string"}}, chunk)
    if area("cty-long"):
        items = []
        for _ in range(60):
            n = rnd.choice([4094, 4095, 4096, 4097, 8190, 8191, 12287, 70000])
            tail = rnd.choice([[0x78, 0x316], [0x1F468, 0x200D, 0x1F469], [0xE9], [0xD, 0xA], [0x1F1FA, 0x1F1F8],
                               [0x915, 0x94D, 0x937], [0xA]])
            head = rnd.choice(["", "\\n", "\\r", "x\\u0316", "\\u00e9"])
            items.append((head, n, tail, rnd.choice([4096, 4100, 8200, 70010])))
        for head, n, tail, width in items:
            # n zeros, then the tail; the padding is the spaces added (the
            # text has none).
            src = ('length(split(" ", format("%%-%ds", "%s${format("%%0%dd", 0)}%s"))) - 1'
                   % (width, head, n, esc(tail)[1:-1]))
            cases.add("cty-long", "value", {"mode": "expr", "src": src}, [src])
    if area("hcl-sweep"):
        items = [p(c) for c in cps for p in seg_probes]
        items = [p for p in items if not any(c in RAW_BAD for c in p)]
        body_columns(cases, "hcl-sweep", items, 200, lambda g: "[%s, nope]" % ", ".join('"%s"' % raw(p) for p in g),
                     per_attr=12)
    if area("hcl-random"):
        items = [random_seq(lambda c: c not in RAW_BAD and c >= 0x20) for _ in range(n_random)]
        items = [p for p in items if p]
        half = len(items) // 2
        body_columns(cases, "hcl-random", items[:half], 300, lambda g: '["%s", nope]' % raw(g[0]))
        body_columns(cases, "hcl-random", items[half:], 300, lambda g: '"%s${nope}%s"' % (raw(g[0]), raw(g[0][:2])))
        # Heredoc indentation is counted in clusters too.
        for p in items[:50]:
            spaces = rnd.choice([[0x20], [0x3000], [0xA0, 0x20], [0x2003], [0x20, 0x301]])
            src = "<<-EOT\n%s%s\n %sx\nEOT\n" % (raw(spaces * 2), raw(p), raw(spaces))
            cases.add("hcl-random", "value", {"mode": "expr", "src": src}, [src])
    if area("hcl-invalid"):
        bad = [b"\xc0\x80", b"\xc1\xbf", b"\xe0\x80\x80", b"\xe0\x9f\xbf", b"\xed\xa0\x80", b"\xed\xbf\xbf",
               b"\xf0\x80\x80\x80", b"\xf4\x90\x80\x80", b"\xf5\x80\x80\x80", b"\xf7\xbf\xbf\xbf", b"\xf8\x88\x80\x80\x80",
               b"\xff", b"\xfe", b"\x80", b"\xbf", b"\xc3", b"\xe2\x82", b"\xf0\x9f\x98", b"\xcc"]
        good = [0x301, 0x200D, 0x903, 0x600, 0x2764, 0x1F1E6, 0xAC00, 0x1100, 0x11A8, 0xFFFD, 0x61, 0x915, 0x94D]
        groups = []
        for _ in range(max(n_random // 10, 200)):
            b = b""
            for _ in range(rnd.randint(1, 6)):
                b += rnd.choice(bad) if rnd.random() < 0.5 else chr(rnd.choice(good)).encode()
            groups.append(b)
        for i in range(0, len(groups), 100):
            chunk = groups[i:i + 100]
            for form in (b'a%d = ["%s", nope]\n', b'a%d = "%s${nope}"\n'):
                src = b"".join(form % (j, g) for j, g in enumerate(chunk))
                cases.add("hcl-invalid", "body", {"mode": "body", "src_base64": base64.b64encode(src).decode()},
                          [list(g) for g in chunk])
    return cases


def run(cmd, path):
    out = subprocess.run(cmd + [path], stdout=subprocess.PIPE, check=True).stdout.decode("utf-8")
    # (not splitlines: results hold U+2028, U+0085 and other line breaks)
    return out.split("\n")[:-1] if out.endswith("\n") else out.split("\n")


def probe_results(kind, line):
    d = json.loads(line)
    if kind == "tuple" and d.get("ok") and isinstance(d.get("value"), list):
        return d["value"]
    if kind == "body" and d.get("ok") and "body" in d:
        return [json.dumps(a, sort_keys=True) for a in d["body"]["attrs"].values()]
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--random", type=int, default=20000, help="random probes per random area")
    ap.add_argument("--areas", default=",".join(AREAS))
    ap.add_argument("--keep", help="directory for cases.jsonl, hclvm.out, oracle.out")
    args = ap.parse_args()
    areas = [a for a in args.areas.split(",") if a]
    for a in areas:
        if a not in AREAS:
            sys.exit("unknown area %s (known: %s)" % (a, ", ".join(AREAS)))
    cases = build(areas, args.seed, args.random)
    tmp = args.keep or tempfile.mkdtemp(prefix="unicode_diff.")
    os.makedirs(tmp, exist_ok=True)
    path = os.path.join(tmp, "cases.jsonl")
    with open(path, "w") as f:
        f.write("\n".join(cases.lines) + "\n")
    ours = run([HCLVM, "conformance"], path)
    ref = run([ORACLE, "--in-process"], path)
    if args.keep:
        open(os.path.join(tmp, "hclvm.out"), "w").write("\n".join(ours) + "\n")
        open(os.path.join(tmp, "oracle.out"), "w").write("\n".join(ref) + "\n")
    if len(ours) != len(cases.lines) or len(ref) != len(cases.lines):
        sys.exit("line counts differ: %d cases, hclvm %d, oracle %d" % (len(cases.lines), len(ours), len(ref)))
    # cases, items, items that differ, examples, probes (an item of the
    # column areas is an attribute, with one or more probes)
    stats = {a: [0, 0, 0, [], 0] for a in areas}
    for case, a, b in zip(cases.lines, ours, ref):
        cid = json.loads(case)["id"]
        area, kind, probes = cases.meta[cid]
        st = stats[area]
        st[0] += 1
        st[1] += len(probes)
        st[4] += sum(len(p) if isinstance(p, list) and p and isinstance(p[0], list) else 1 for p in probes)
        if a == b:
            continue
        pa, pb = probe_results(kind, a), probe_results(kind, b)
        if pa is None or pb is None or len(pa) != len(pb):
            st[2] += len(probes)
            st[3].append((cid, probes[0], a[:300], b[:300]))
            continue
        for p, x, y in zip(probes, pa, pb):
            if x != y:
                st[2] += 1
                if len(st[3]) < 5:
                    st[3].append((cid, p, str(x)[:300], str(y)[:300]))
    total = [0, 0, 0, 0]
    for area in areas:
        cs, ps, bad, examples, leaves = stats[area]
        total = [total[0] + cs, total[1] + ps, total[2] + bad, total[3] + leaves]
        print("%-11s %6d cases %9d items (%9d probes) %7d items differ" % (area, cs, ps, leaves, bad))
        for cid, p, x, y in examples:
            if isinstance(p, list) and p and isinstance(p[0], list):
                p = [c for q in p for c in q + [0x7C]]
            shown = " ".join("%04X" % c for c in p) if isinstance(p, list) else p[:200]
            print("    %s [%s]\n      hclvm:  %s\n      oracle: %s" % (cid, shown, x, y))
    print("%-11s %6d cases %9d items (%9d probes) %7d items differ" % ("total", total[0], total[1], total[3], total[2]))
    sys.exit(1 if total[2] else 0)


if __name__ == "__main__":
    main()
