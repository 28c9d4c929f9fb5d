#!/usr/bin/env python3
# Packer's yamldecode and yamlencode ("funcs": "packer"; zclconf/go-cty-yaml
# v1.0.1, whose libyaml port hclvm reproduces): YAML syntax of every kind
# (block and flow collections, all scalar styles, block scalars with every
# chomping and indentation indicator, comments, directives, document
# markers), go-cty-yaml's implicit typing (YAML 1.1 booleans, null
# spellings, numbers with underscores, signs, exponents, .inf and .nan,
# hex/octal/binary, timestamps), explicit tags, anchors, aliases and merge
# keys, key conversion, syntax errors with their (partly 0-based) line
# numbers, the reader's 512-byte chunks (when a control character is
# noticed), unicode and byte order marks; yamlencode of every value type,
# quoting and style choices, line folding at 80 columns, long keys, and
# unknowns. YAML texts are passed in a variable `y`, so no HCL escaping is
# involved. Writes cases/packer_yaml.jsonl next to this script.
#   python3 tests/data/rows/gen_packer_yaml.py && tests/data/rows/regen.sh
from rowgen import Rows

rows = Rows("packer_yaml")
add = rows.add


def dec(y, note=None):
    add("yamldecode(y)", vars={"y": y}, note=note)


UNK = {"us": "string", "ud": "dynamic", "un": "number", "ul": ["list", "string"], "uo": ["object", {"a": "number"}]}


def enc(expr, note=None):
    add("yamlencode(%s)" % expr, unknowns=UNK, note=note)


# ----- structure ---------------------------------------------------------
for y in ["a: 1", "a: 1\nb: two\nc: [3, 4]\n", "- a\n- b\n- c", "x", "'x'", "\"x\"", "a:\n  b:\n    c: d", "a:\n- b\n- c",
          "- - a\n  - b\n- - c", "- a: 1\n  b: 2\n- c: 3", "{a: 1, b: [x, y], c: {d: e}}", "[a, [b, c], {d: e}, f: g]",
          "[]", "{}", "- []\n- {}", "a: []\nb: {}", "a:\nb:\n", "- \n- x", "? a\n: b", "? a\n? b\n: c", "- ? a\n  : b",
          "[a: 1, b]", "{a, b: c}", "{a: 1,}", "[1, 2,]", "a: 1 # comment\n# another\nb: 2", "# only a comment", "   ", "\n\n",
          "a: b\n\n\nc: d", "a:    1", "a:\n\n  b: 1", "-\n  a: 1", "- - - deep", "k: v\r\nk2: v2\r\n", "a: {b: [c, {d: [e]}]}"]:
    dec(y, "structure")

# ----- scalars and implicit types ------------------------------------------
for y in ["y", "Y", "yes", "Yes", "YES", "yEs", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "tRUE", "false", "False",
          "FALSE", "on", "On", "ON", "oN", "off", "Off", "OFF", "~", "null", "Null", "NULL", "nULL", "~a",
          "0", "-0", "+1", "1_000", "1__0", "_1", "1_", "12.5", "1.", ".5", "+.5", "-.5", ".", "..", "1e3", "1E3", "1.5e-3",
          "-1e+2", "1e", "1p3", "0x1F", "0X1F", "0o17", "0777", "08", "0b101", "-0b101", "0b102", "1:30", "12:30:45",
          "123456789012345678901234567890", "1e400", "0.1", "3.14159265358979323846264338327950288",
          ".inf", ".Inf", ".INF", ".iNf", "+.inf", "+.INF", "-.inf", "-.Inf", ".nan", ".NaN", ".NAN", "+inf", "-Inf", "inf",
          "Infinity", "nan", "<<", "- <<", "a: <<", "2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14T21:59:43Z",
          "2001-12-14T21:59:43+05:30", "2001-12-14 21:59:43.10", "2001-12-14   21:59:43", "2001-2-3", "2001-02-30",
          "2000-02-29", "1900-02-29", "2001-12-14T24:00:00Z", "2001-12-14T21:59:43.123456789Z",
          "2001-12-14T21:59:43.1234567891Z", "2001-12-14T21:59:43+99:00", "2001-12-14T1:2:3Z", "12345-01-01", "2001-13-01",
          "'yes'", "\"1\"", "'~'", "\"\"", "''", "'it''s'", "\"\\x41\\u263A\\U0001F600\\t\\n\\\\\\\"\"", "\"\\0\\a\\b\\e\\v\\f\\r\"",
          "\"\\N\\_\\L\\P\\ \\/\"", "\"\\q\"", "\"\\xZZ\"", "\"\\uD800\"", "\"\\U00110000\"", "a: \"multi\n  line\n\n  folded\"",
          "a: 'single\n  quoted\n\n\n  lines'", "a: \"esc\\\n  aped\"", "a: plain\n  continued\n\n  lines", "a: x #c", "a: x#c"]:
    dec(y, "scalars")

# ----- block scalars ---------------------------------------------------------
for head in ["|", "|-", "|+", ">", ">-", ">+", "|2", "|2-", "|+2", ">1", ">-1"]:
    dec("a: %s\n  one\n   two\n\n  three\n\n\nb: 1" % head, "block scalar " + head)
for y in ["a: |\n  x", "a: >\n  a\n  b\n\n  c\n   d\n  e\n", "|\n  top\n", ">\n top\n", "|0\n x", "|10\n x", "a: |\n\tx",
          "a: |\n  x\n\t\n", "a: | # c\n  x", "a: |x\n  y", "- |\n  a\n- >\n  b\n", "a: |\n\n\n  late\n", "a: |-\n", "a: |+\n\n",
          "|-\n", "a: |-\n  1", "a: >-\n  yes", "a: |-\n  ~", "a: |-\n  .inf", "a: |-\n  1_0", "a: |-\n  2001-01-01",
          "a: |-\n  .nan", "a: |-\n  .nan\nb: [", "a: &x |-\n  1\nb: *x", "a: &x |-\n  1\nb: {<<: {c: *x}}", "- >-\n  <<",
          "? |-\n  1\n: v", "? |-\n  .nan\n: v"]:
    dec(y, "block scalars")

# ----- tags ------------------------------------------------------------------
for y in ["!!str 1", "!!str yes", "!!str", "!!int 1", "!!int 0x1F", "!!int 0o17", "!!int 0b11", "!!int -0b11", "!!int 0b-11",
          "!!int 1_000", "!!int 99999999999999999999", "!!int 0xFFFFFFFFFFFFFFFF", "!!int 0x10000000000000000", "!!int x",
          "!!int yes", "!!float 1.5", "!!float .nan", "!!float .inf", "!!float x", "!!bool yes", "!!bool true", "!!bool 1",
          "!!bool x", "!!null x", "!!null 5", "!!null", "!!timestamp 2001-01-01", "!!timestamp x", "!!timestamp 5",
          "!!binary aGVsbG8=", "!!binary aGVsbG8", "!!binary 'not base64!'", "!!map {a: 1}", "!!seq [1]", "!!map [1]",
          "!!seq {a: 1}", "!!set {a}", "!!omap [a: 1]", "!foo x", "! x", "!<tag:yaml.org,2002:str> 1", "!<!bar> x",
          "!!str <<: {a: 1}", "a: !!str\nb: 1", "&a !!str x", "!!str &a x", "!e!foo x", "%TAG !e! tag:yaml.org,2002:\n---\n!e!str 1",
          "%TAG !e! tag:example.com,2000:\n---\n!e!foo x", "!!%41 x", "!!str%zz x"]:
    dec(y, "tags")

# ----- anchors, aliases, merges ------------------------------------------------
for y in ["a: &x 1\nb: *x", "a: *x", "&a [1, *a]", "&a a: 1\nb: *a", "a: &a {x: 1}\nb: *a", "a: &a [1, 2]\nb: [*a, *a]",
          "a: &a 1\nb: &a 2\nc: *a", "- &a x\n- &a [*a]\n- *a", "a: &a\nb: *a", "&top {a: *top}", "*",  "&",
          "<<: {a: 1}\nb: 2", "a: &b {x: 1, y: 1}\nc:\n  <<: *b\n  y: 2", "c:\n  y: 0\n  <<: {y: 2}", "c:\n  <<: [{a: 1}]\n",
          "<<: 1", "<<: ~", "<<: [1]", "\"<<\": {a: 1}", "'<<': {a: 1}", "<<: {a: 1}\n<<: {b: 2}", "a: &m {k: v}\nb: {<<: *m, z: 1}",
          "[<<: {a: 1}]", "&a x: 1"]:
    dec(y, "anchors and merges")

# ----- keys ----------------------------------------------------------------------
for y in ["a: 1\na: 2", "1: a\n2.0: b\ntrue: c\nyes: d", "~: x", "null: x", "'': x", ": x", "[1]: x", "{a: b}: c",
          "*a: 1", ".inf: x", "1e3: x", "0x1F: x", "2001-01-01: x", "!!int 7: x", "!!binary aGk=: x", "!!float .nan: x",
          ".nan: x", "é: ü", "\"a\\nb\": c", "? |\n  block key\n: v"]:
    dec(y, "keys")

# ----- documents and directives -------------------------------------------------------
for y in ["", "---", "--- x", "---\na: 1", "a: 1\n...", "a: 1\n...\n", "a: 1\n...\nb: 2", "--- 1\n--- 2", "---\na: 1\n---\n",
          "...", "%YAML 1.1\n---\na: 1", "%YAML 1.2\n---\na: 1", "%YAML 1.1\n%YAML 1.1\n---\nx", "%YAML 1\n---\nx",
          "%FOO bar\n---\nx", "%TAG ! !\n%TAG ! !\n---\nx", "--- |\n  text\n", "--- >\n text\n...\n"]:
    dec(y, "documents")

# ----- syntax errors (with their line numbers) ---------------------------------------
for y in ["a: 1\n  b: 2", "[1, 2", "{a: 1", "a: [1, 2}", "a:\n  - b\n  -c\n", "a: b: c", "- a\n - b", "a: b\n\tc: d", "a:\n\t- b",
          "@x", "`x", "a: @", "a: \"unterminated", "a: 'x", "- [a, b]: c", "[,]", "{,}", "a\n- b", "- a\nb: c", "a: b\nc",
          "  a: 1\nb: 2", "a:\n  b: 1\n c: 2", "x: |\n  a\n b", "key:\n\n\n\n  - a\n  b: c", "a: 1\n" * 5 + "b: [\n",
          "a: 1\n" * 5 + "  x: y", "? a\n? b\n- c", "a: &x\n  *x", "]", "}", ",", "a: ]", "- - a\n -b", "\"a\" b",
          "a: {b: c\nd: e"]:
    dec(y, "syntax errors")

# ----- characters, byte order marks, reader chunks --------------------------------------
for y in ["\t", "a\u0001", "a: \u0007", "\u007f", "a: \u0080", "a: \u0085x", "a\u2028b: c", "a: \u00a0", "\ufeffa: 1",
          "\ufeff\ufeffa: 1\nb: 2\nc: 3", "\ufeffa: 1\n\ufeffb: 2", "a: 1\n\ufeff", "\ufeff", "日本: 語", "\U0001F600: x",
          "e\u0301: x", "a: \"\\ufffe\""]:
    dec(y, "characters")
for n in [400, 505, 506, 510, 512, 600]:
    dec("a: [1\n" + "x" * n + "\u0001", "control character after a syntax error, %d bytes on" % n)
for n in [253, 254, 255, 256]:
    dec("a: b\n" + "é" * n + ": \u0007", "two-byte characters across the reader's chunk")
for n in [1020, 1030]:
    dec("[" + "a" * n + ": 1]", "simple key 1024 characters on")
dec("a" * 1030 + ": 1", "block simple key over 1024 characters")
dec("a: " + "x " * 600 + "\nb: 1", "long plain scalar")

# ----- yamldecode's arguments and results ----------------------------------------------------
add("yamldecode(us)", unknowns=UNK, note="unknown source")
add("yamldecode(null)", note="null source")
add("yamldecode(1)", note="number converted to string")
add("yamldecode(\"a: 1\").a + 1", note="use of a decoded value")
add("yamldecode(\"- x\\n- 2\")[1] * 2", note="tuple element")
add("yamldecode(<<EOT\na: [1, 2]\nb:\n  c: yes\nEOT\n)", note="heredoc source")
add("yamldecode(\"~\") == null", note="a null document is unknown")
add("keys(yamldecode(\"b: 1\\na: 2\\n'c': 3\"))", note="keys are sorted")
add("yamldecode(yamlencode({a = [1, \"x\\ny\", null, {b = true}]}))", note="round trip")
add("try(yamldecode(\"[\"), \"bad\")", note="try")

# ----- yamlencode ------------------------------------------------------------------------
for s in ["", " ", "a ", " a", "a  b", "yes", "no", "1", "1.5", "null", "~", "-", "- a", "-a", "?", "? a", ":", "a: b",
          "a:b", "#a", "a #b", "a#b", "---", "--- a", "...", "a\\tb", "a\\rb", "\\u0085", "\\u2028x", "é", "日本",
          "\\U0001F600", "\\\\", "\\\"", "'", "a'b", "&a", "*a", "!a", "|", ">", "%", "@", "`", "[", "{}", ",", "a,b",
          "a\\u00a0b", "\\ufeff", "\\ufeffab", "\\ufffe", "\\u0000", "\\u001b", "\\u007f", "\\u0080", "\\u00ff", "\\u0100",
          "a\\n", "\\n", "\\na", "a\\n\\n", "a\\nb\\n", " a\\nb", "a \\nb", "a\\n b", "\\n\\n", "a\\r\\nb", "a\\tb\\nc",
          "x\\u0085y\\nz", "a\\n ", "é\\nü", "$${x}", "%%{y}"]:
    enc("\"%s\"" % s, "string styles")
for n in [7, 8, 9, 15]:
    enc("\"%s\"" % ("abcdefghij " * n), "folding of long double-quoted strings")
enc("\"%s\"" % ("abcdefghij  " * 10), "folding at double spaces")
enc("\"%s\"" % ("x" * 200), "no space to fold at")
enc("\"%s\"" % ("ab " * 60 + "\\n" + "cd " * 40), "long literal lines are not folded")
enc("\"%s\"" % (" é" * 60), "folding counts characters")
for n in [127, 128, 129]:
    enc("{\"%s\" = 1}" % ("k" * n), "simple keys up to 128 bytes")
enc("{\"%s\" = \"v\"}" % ("ké" * 50), "key length counts bytes")
for e in ["1", "-1.5", "1e30", "0.000001", "1/3", "-0", "pow(2, 80)", "true", "false", "null", "[]", "{}", "tolist([])",
          "toset([])", "tomap({})", "[null, true, 0]", "{a = null}", "[{}]", "[[]]", "[[[]]]", "{a = {b = {}}}",
          "{a = 1, b = [true, null]}", "[[1, [2, {a = 3}]], {b = [4]}]", "{a = [1, 2], b = {c = [{d = 1}]}}",
          "tolist([1, 2])", "toset([\"b\", \"a\", \"c\"])", "tomap({b = 1, a = 2})", "[\"a\\nb\"]", "{a = \"x\\ny\"}",
          "[[\"a\\nb\"]]", "{\"a\\nb\" = 1}", "{\"\" = 1}", "{\"a: b\" = \"c\", \"- x\" = 1, \"?\" = 2}", "[\"\"]",
          "{a = \"\"}", "{k = \"%s\"}" % ("abcdefghij " * 10), "[\"%s\"]" % ("abcdefghij " * 10), "[[[[1]]]]",
          "[{a = [{b = 1, c = 2}]}]", "{a = [[1, 2]]}", "yamldecode(\"a: [1, {b: c}]\")",
          "us", "ud", "un", "ul", "uo", "[us]", "{a = us}", "[ud]", "[1, un]"]:
    enc(e, "values")
for e in ["yamlencode(upper(us))", "yamlencode([upper(us)])", "yamldecode(upper(us))", "yamldecode(\"$${us}\")",
          "yamldecode(\"${us}: x\")", "length(yamlencode(us))", "yamldecode(ud)",
          "yamlencode(yamldecode(\".inf\"))", "yamlencode(yamldecode(\"2001-01-01\"))"]:
    add(e, unknowns=UNK, note="unknown and refined arguments")
add("yamlencode()", note="missing argument")
add("yamlencode(1, 2)", note="extra argument")
add("length(yamlencode({a = 1}))", note="use of the result")

path = rows.write()
print("gen_packer_yaml.py: %d cases -> %s" % (len(rows), path))
