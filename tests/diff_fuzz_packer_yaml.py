#!/usr/bin/env python3
"""Random yamldecode and yamlencode calls ("funcs": "packer"), for
differential testing against the reference (go-cty-yaml):

    python3 tests/diff_fuzz_packer_yaml.py SEED COUNT > cases.jsonl
    hclvm conformance cases.jsonl > ours
    hcl-oracle --in-process cases.jsonl > ref
    python3 tests/diff_compare.py cases.jsonl ours ref

Most cases decode a YAML text (passed in a variable, so no HCL escaping
is involved) generated from a small grammar: block and flow mappings and
sequences nested at random, every scalar style (plain, quoted, block with
chomping and indentation indicators), scalars drawn from YAML 1.1's
implicit types in their odd spellings, tags, anchors, aliases and merge
keys, comments, document markers and directives. A share of the texts is
then mutated (a character inserted, deleted or swapped, a line
re-indented, a tab or control character put in) to reach the scanner's
and parser's error paths. The other cases encode a random value (strings
with quotes, breaks, spaces and unicode that steer the emitter's style
choices and line folding, numbers, bools, nulls, nested collections,
unknowns), sometimes decoding the result again.
"""
import json
import random
import sys

R = random.Random(int(sys.argv[1]))
COUNT = int(sys.argv[2])

UNKNOWNS = {"us": "string", "ud": "dynamic", "un": "number", "ul": ["list", "string"]}

WORDS = ["a", "b", "key", "x y", "é", "日本", "<<", "yes", "No", "on", "OFF", "y", "n", "~", "null", "Null", "true", "False",
         "0", "-0", "+1", "12", "1_000", "0x1F", "0o17", "0777", "0b101", "-0b11", "1e3", "1.5e-3", ".5", "1.", ".inf",
         "-.Inf", "+.INF", ".nan", ".NaN", "1:30", "2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43",
         "2001-02-30", "2001-1-2T3:4:5Z", "0.1", "123456789012345678901234567890", "-", "a-b", "a:b", "a#b", "a,b",
         "[x]", "{x}", "@x", "`x", "%x", "!x", "&x", "*x", "|x", ">x", "'x", "\"x", "?x", ":x", "a b  c", "x\u00a0y"]
TAGS = ["!!str", "!!int", "!!float", "!!bool", "!!null", "!!binary", "!!timestamp", "!!map", "!!seq", "!foo", "!",
        "!<tag:yaml.org,2002:str>", "!!set", "!e!x"]


def word():
    if R.random() < 0.2:
        return "".join(R.choice("abz01_.-+:#,[]{}!&*?|>'\" \té~") for _ in range(R.randint(0, 6))).strip() or "w"
    return R.choice(WORDS)


def single_quoted(s):
    return "'" + s.replace("'", "''") + "'"


def double_quoted(s):
    out = []
    for c in s:
        if c in "\"\\":
            out.append("\\" + c)
        elif c == "\n":
            out.append(R.choice(["\\n", "\\x0a", "\\u000A"]))
        elif c == "\t":
            out.append(R.choice(["\\t", "\t"]))
        else:
            out.append(c)
    if R.random() < 0.2:
        out.append(R.choice(["\\x41", "\\u263A", "\\U0001F600", "\\0", "\\e", "\\N", "\\_", "\\L", "\\P", "\\ ", "\\/", "\\q",
                             "\\xZ1", "\\uD800"]))
    return '"' + "".join(out) + '"'


def scalar(indent):
    """A scalar in value position (may be a multi-line block scalar)."""
    k = R.random()
    w = word()
    prefix = ""
    if R.random() < 0.12:
        prefix = R.choice(TAGS) + " "
    if R.random() < 0.08:
        prefix = "&" + R.choice(["a", "b", "c"]) + " " + prefix
    if k < 0.5:
        return prefix + w if not w.startswith(("#", "- ")) else prefix + single_quoted(w)
    if k < 0.65:
        return prefix + single_quoted(w)
    if k < 0.8:
        return prefix + double_quoted(w + R.choice(["", "\n", " x", "\ty"]))
    head = R.choice(["|", ">"]) + R.choice(["", "-", "+", "2", "1-", "+1", "0"])
    pad = " " * (indent + R.choice([1, 2, 2, 3]))
    lines = [R.choice(["", w, "  " + w, w + " more words here", "\t" + w]) for _ in range(R.randint(0, 4))]
    return prefix + head + "\n" + "\n".join(pad + l if l else "" for l in lines) + R.choice(["", "\n", "\n\n"])


def flow(depth):
    k = R.random()
    if depth > 3 or k < 0.4:
        w = word()
        return R.choice([w if not any(c in w for c in ",[]{}#") else single_quoted(w), single_quoted(w), double_quoted(w),
                         "*" + R.choice("abc"), "&" + R.choice("abc") + " " + w.replace(",", "")])
    if k < 0.7:
        return "[" + ", ".join(flow(depth + 1) for _ in range(R.randint(0, 4))) + R.choice(["", ",", " "]) + "]"
    items = []
    for _ in range(R.randint(0, 4)):
        key = R.choice(["a", "b", "k", "<<", "1", "~", "'q'", "\"d\"", "yes"])
        items.append(R.choice(["%s: %s" % (key, flow(depth + 1)), key, "%s:" % key]))
    return "{" + ", ".join(items) + "}"


def block(indent, depth):
    pad = " " * indent
    k = R.random()
    if depth > 4 or k < 0.15:
        return pad + (flow(depth) if R.random() < 0.5 else scalar(indent))
    lines = []
    if k < 0.55:
        keys = ["a", "b", "c", "key", "<<", "1", "2.0", "true", "~", "é", "'q'", "\"d\"", "x y", "? k"]
        for _ in range(R.randint(1, 4)):
            key = R.choice(keys)
            anchor = R.choice(["", "", "", " &a", " &b", " !!map"])
            r = R.random()
            if key == "<<" and R.random() < 0.6:
                lines.append(pad + "<<: " + R.choice(["*a", "*b", "{m: 1, a: 2}", "[*a]", "1"]))
            elif r < 0.45:
                lines.append(pad + key + ":" + anchor + "\n" + block(indent + R.choice([1, 2, 2, 4]), depth + 1))
            elif r < 0.55 and not anchor:
                lines.append(pad + key + ":\n" + block(indent, depth + 1).replace(pad + "- ", pad + "- ", 1))
            else:
                lines.append(pad + key + ": " + (scalar(indent) if R.random() < 0.6 else flow(depth + 1)))
    else:
        for _ in range(R.randint(1, 4)):
            r = R.random()
            if r < 0.4:
                lines.append(pad + "- " + (scalar(indent + 2) if R.random() < 0.6 else flow(depth + 1)))
            elif r < 0.8:
                inner = block(indent + 2, depth + 1)
                lines.append(pad + "- " + inner.lstrip(" ") if R.random() < 0.6 else pad + "-\n" + inner)
            else:
                lines.append(pad + "-" + R.choice(["", " ", " # c"]))
    if R.random() < 0.1:
        lines.insert(R.randint(0, len(lines)), pad + "# comment")
    return "\n".join(lines)


def document():
    body = block(0, 0)
    if R.random() < 0.12:
        # Longer texts, past the reader's 512-byte chunks.
        body = "\n".join("k%d:\n%s" % (j, block(2, 1)) for j in range(R.randint(5, 40)))
    r = R.random()
    if r < 0.1:
        body = "---\n" + body
    elif r < 0.14:
        body = "--- " + flow(0)
    elif r < 0.17:
        body = body + "\n...\n"
    elif r < 0.2:
        body = body + "\n---\n" + block(0, 2)
    elif r < 0.22:
        body = R.choice(["%YAML 1.1\n", "%YAML 1.2\n", "%TAG !e! tag:yaml.org,2002:\n", "%FOO x\n"]) + "---\n" + body
    elif r < 0.25:
        body = "\ufeff" + body
    if R.random() < 0.5:
        body += "\n"
    if R.random() < 0.3:
        body = mutate(body)
    return body


def mutate(s):
    for _ in range(R.randint(1, 3)):
        if not s:
            return R.choice(["", " ", "\n", ":"])
        i = R.randrange(len(s) + 1)
        k = R.random()
        if k < 0.3:
            s = s[:i] + R.choice([":", "-", " ", "\n", "\t", "[", "]", "{", "}", ",", "#", "'", "\"", "&", "*", "!", "|", ">", "?",
                                  "%", "@", "\u0001", "\u007f", "\u0085", "\u2028", "\ufeff", "\r", "\\"]) + s[i:]
        elif k < 0.6:
            s = s[:i] + s[i + 1:]
        elif k < 0.8:
            lines = s.split("\n")
            j = R.randrange(len(lines))
            lines[j] = " " * R.randint(0, 3) + lines[j].lstrip(" ") if R.random() < 0.7 else lines[j][1:]
            s = "\n".join(lines)
        else:
            j = R.randrange(len(s) + 1)
            a, b = sorted((i, j))
            s = s[:a] + s[b:] + s[a:b]
    return s


def hcl_string(s):
    return json.dumps(s, ensure_ascii=False).replace("${", "$${").replace("%{", "%%{")


def text_value():
    k = R.random()
    if k < 0.3:
        return R.choice(WORDS)
    parts = [R.choice(["word", " ", "  ", "\n", "\n\n", "é", "日本", "\t", "'", "\"", "\\", ":", "# ", "- ", "---", "\u0085",
                       "\u2028", "\u00a0", "\ufeff", "\u0001", "\r", "x" * R.randint(1, 30)]) for _ in range(R.randint(0, 12))]
    s = "".join(parts)
    if R.random() < 0.2:
        s = " ".join(["abcdefghij"] * R.randint(5, 20))
    return s


def value(depth=0):
    k = R.random()
    if depth > 3 or k < 0.45:
        r = R.random()
        if r < 0.5:
            return hcl_string(text_value())
        if r < 0.7:
            return R.choice(["0", "1", "-1", "1.5", "1e30", "0.000001", "1/3", "pow(2, 70)", "-0.5", "123456789012345678901"])
        if r < 0.85:
            return R.choice(["true", "false", "null"])
        return R.choice(["us", "un", "ud", "ul"]) if R.random() < 0.3 else hcl_string(text_value())
    if k < 0.7:
        inner = ", ".join(value(depth + 1) for _ in range(R.randint(0, 4)))
        return R.choice(["[%s]", "tolist([%s])" if R.random() < 0.3 else "[%s]", "toset([%s])" if R.random() < 0.2 else "[%s]"]) % inner
    items = []
    for _ in range(R.randint(0, 4)):
        key = text_value() if R.random() < 0.4 else R.choice(["a", "b", "c", "key", "x y", "k" * R.randint(120, 135)])
        items.append("%s = %s" % (hcl_string(key), value(depth + 1)))
    return "{%s}" % ", ".join(items)


for i in range(COUNT):
    r = R.random()
    if r < 0.7:
        case = {"id": "fz/%d" % i, "mode": "expr", "src": "yamldecode(y)", "funcs": "packer", "vars": {"y": document()}}
    else:
        v = value()
        src = "yamlencode(%s)" % v
        if R.random() < 0.15:
            src = "yamldecode(%s)" % src
        case = {"id": "fz/%d" % i, "mode": "expr", "src": src, "funcs": "packer", "unknowns": UNKNOWNS}
    print(json.dumps(case))
