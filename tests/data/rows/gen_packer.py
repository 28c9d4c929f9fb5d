#!/usr/bin/env python3
# Packer's function table ("funcs": "packer"): every function Packer adds or
# changes, with the edge cases of each (CIDR extremes, negative numbers,
# IPv4-mapped prefixes, hashes of odd text, UUID namespaces, Go's base64
# and path rules, the file functions on tests/data/rows/files, Packer's
# index/length/reverse/coalesce, unknown and null arguments) and shape
# checks of the functions that read the clock or randomness. Writes
# cases/packer.jsonl next to this script; regen.sh gives them the
# reference's results and tests/conformance.rs compares hclvm's with those.
# File paths are relative to the repository root, where both run.
#   python3 tests/data/rows/gen_packer.py && tests/data/rows/regen.sh
from rowgen import Rows, q

rows = Rows("packer")
add = rows.add


v4 = ["10.0.0.0/8", "10.1.2.3/8", "0.0.0.0/0", "192.168.1.0/24", "192.168.1.7/32", "172.16.0.0/12",
      "255.255.255.255/32", "10.0.0.0/31", "100.64.0.0/10"]
v6 = ["fd00::/8", "fd00:fd12:3456:7890::/56", "::/0", "::1/128", "2001:db8::/32", "2001:db8::1/127",
      "fe80::/64", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128", "::ffff:10.0.0.0/104", "::ffff:10.0.0.0/120",
      "::ffff:0.0.0.0/96", "1:2:3:4:5:6:7:8/64", "2001:db8:0:0:1::/80"]
bad = ["10.0.0.0", "10.0.0.0/33", "::/129", "10.0.0.256/8", "010.0.0.0/8", "10.0.0/8", "fd00:::/8",
       "10.0.0.0/-1", "10.0.0.0/ 8", "", "/", "a.b.c.d/8", "1::2::3/64", "::ffff:1.2.3/64", "10.0.0.0/08",
       "1:2:3:4:5:6:7:8:9/64", "1.2.3.4.5/8"]
hostnums = ["0", "1", "-1", "-2", "2", "255", "256", "-256", "-257", "16777215", "16777216", "4294967295",
            "4294967296", "-4294967296", "9223372036854775807", "-9223372036854775808", "1.5", "9223372036854775808", "\"3\""]
for p in v4 + v6:
    for h in hostnums:
        add("cidrhost(%s, %s)" % (q(p), h))
for p in bad:
    add("cidrhost(%s, 1)" % q(p))
for p in v4 + v6 + bad:
    add("cidrnetmask(%s)" % q(p))
for p in ["10.0.0.0/8", "0.0.0.0/0", "192.168.0.0/30", "fd00::/56", "::/0", "::ffff:10.0.0.0/104", "10.0.0.0/32"]:
    for nb in ["-9", "-1", "0", "1", "2", "8", "24", "30", "32", "33"]:
        for nn in ["0", "1", "-1", "3", "255", "256", "-300", "4294967295"]:
            add("cidrsubnet(%s, %s, %s)" % (q(p), nb, nn))
for p in bad[:6]:
    add("cidrsubnet(%s, 8, 1)" % q(p))
subnets_args = ["", ", 8", ", 8, 8, 16", ", 4, 4, 4, 4", ", 1, 1", ", 1, 1, 1", ", 0", ", 33", ", -1", ", 24",
                ", 25", ", 8, 24, 8", ", 16, 8", ", 2, 1", ", 1.5", ", 32, 32", ", 8, \"8\""]
for p in ["10.0.0.0/8", "10.0.0.0/16", "0.0.0.0/0", "10.0.0.0/30", "fd00::/56", "::/0", "::ffff:10.0.0.0/104",
          "255.255.255.0/24", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ff00/120", "10.0.0.0/x"]:
    for a in subnets_args:
        add("cidrsubnets(%s%s)" % (q(p), a))
add("cidrsubnets(\"10.0.0.0/8\", [for i in range(256) : 16]...)", note="all of a /8's /16s")
add("cidrsubnets(\"10.0.0.0/8\", [for i in range(257) : 16]...)", note="one too many")
add("length(cidrsubnets(\"fd00::/48\", [for i in range(2000) : 16]...))")
add("cidrhost(p, 1)", unknowns={"p": "string"})
add("cidrsubnets(p, 8)", unknowns={"p": "string"})
add("cidrsubnets(\"10.0.0.0/8\", n, 8)", unknowns={"n": "number"})
add("cidrsubnet(null, 8, 1)")
add("cidrhost(\"10.0.0.0/8\", null)")

# ----- hashes -----------------------------------------------------------
texts = ["", "a", "abc", "hello, world", "héllo", "e\u0301", "日本語", "\U0001F600", "\n", "a" * 1000,
         "The quick brown fox jumps over the lazy dog", "\u0000", "tab\there"]
for f in ["md5", "sha1", "sha256", "sha512"]:
    for t in texts:
        add("%s(%s)" % (f, q(t)))
    add("%s(1)" % f)
    add("%s(true)" % f)
    add("%s(null)" % f)
    add("%s(u)" % f, unknowns={"u": "string"})
    add("%s([])" % f)

# ----- uuid ---------------------------------------------------------------
namespaces = ["dns", "url", "oid", "x500", "DNS", "6ba7b810-9dad-11d1-80b4-00c04fd430c8",
              "{6ba7b810-9dad-11d1-80b4-00c04fd430c8}", "(6ba7b810-9dad-11d1-80b4-00c04fd430c8)",
              "urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8", "URN:UUID:6ba7b810-9dad-11d1-80b4-00c04fd430c8",
              "urx:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8", "6ba7b8109dad11d180b400c04fd430c8",
              "6BA7B8109DAD11D180B400C04FD430C8", "6ba7b810x9dad-11d1-80b4-00c04fd430c8", "6ba7b810-9dad-11d1-80b4-00c04fd430cg",
              "", "zz", "00000000-0000-0000-0000-000000000000", "é" * 18, "ééééééééééééééééé-é"]
for ns in namespaces:
    for name in ["", "www.example.com", "héllo"]:
        add("uuidv5(%s, %s)" % (q(ns), q(name)))
add("uuidv5(u, \"x\")", unknowns={"u": "string"})
add("uuidv5(\"dns\", 1)")

# ----- encoding -----------------------------------------------------------
for t in texts + ["\u00ff\u00fe", "a+b/c=", "~!@#$%^&*()_+-={}[]|\\:;\"'<>,.?/ "]:
    add("base64encode(%s)" % q(t))
    add("urlencode(%s)" % q(t))
    add("base64decode(base64encode(%s))" % q(t))
for b in ["", "YQ==", "YQ", "YQ=", "YWJj", "YWJjZA==", "YWJjZA", "YR==", "YWI=", "YWJ=", "Y", "=", "==", "====",
          "YQ==YQ==", "YW\nJj", "YW\r\nJj", "YWJj\n", "YW Jj", "YWJj!", "/w==", "gA==", "wyg=", "4pyT", "8J+YgA==",
          "aGVsbG8sIHdvcmxk", "aGVsbG8sIHdvcmxk\n", "-_8=", "YWJjZA==\n\n", "Y\nQ\n=\n=", "YQ==\nx"]:
    add("base64decode(%s)" % q(b))
add("base64decode(u)", unknowns={"u": "string"})
add("urlencode(null)")

# ----- paths and files ------------------------------------------------------
paths = ["", ".", "..", "/", "//", "a", "a/", "a/b", "a/b/", "/a/b", "/a/b/", "a//b", "./a", "../a", "a/../b",
         "/../a", "a/./b/.", "~/x", "~", "~user/x", "C:\\dir\\file", "a\\b", "/a/b/c.txt", "héllo/wörld", "...", "a/.."]
for pth in paths:
    add("basename(%s)" % q(pth))
    add("dirname(%s)" % q(pth))
for pth in ["/", "/a/b/../c", "/a//b/", "/..", "/a/./b/."]:
    add("abspath(%s)" % q(pth))
for pth in ["", "abc", "/abs/path", "a/~/b", "~x", "~user/dir"]:
    add("pathexpand(%s)" % q(pth))
F = "tests/data/rows/files/"
for pth in [F + "hello.txt", F + "empty.txt", F + "latin1.txt", F + "sub/nfd.txt", F + "sub/template.tpl", F + "missing.txt",
            F + "sub", F + "sub/", F + "./hello.txt", F + "sub/../hello.txt", F + "hello.txt/x", "./" + F + "hello.txt",
            "tests/data/rows/files//hello.txt", "/nonexistent/file", "~x/file", "/dev/null", "/"]:
    add("file(%s)" % q(pth))
    add("fileexists(%s)" % q(pth))
add("length(file(%s))" % q(F + "hello.txt"))
add("sha256(file(%s))" % q(F + "hello.txt"))
add("file(p)", unknowns={"p": "string"})
add("fileexists(null)")
add("file(1)")

# ----- Packer's collection choices ------------------------------------------
colls = ["[]", "[1, 2, 3]", "[\"a\", 1]", "[[1], [2]]", "tolist([])", "toset([1])", "{}", "{a = 1, b = 2}", "\"\"",
         "\"héllo\"", "\"e\u0301\"", "\"\U0001F1E9\U0001F1EA\"", "null", "1", "true", "[null]", "[\"a\", \"b\", \"a\"]"]
for c in colls:
    add("length(%s)" % c)
    add("reverse(%s)" % c)
    add("index(%s, 1)" % c)
    add("index(%s, \"a\")" % c)
    add("strrev(%s)" % c)
for args in ["", "null", "\"\"", "\"\", \"\"", "\"\", null, \"b\"", "1, \"\"", "\"\", 1", "null, 0", "[], [1]",
             "[\"\"], []", "{}, {a=1}", "\"a\", true", "null, null", "1, 2", "\"\", \"x\", \"y\"", "false, true"]:
    add("coalesce(%s)" % args)
for args in ["\"abc\", \"b\", \"x\"", "\"abc\", \"(b)\", \"[$1]\"", "\"aaa\", \"a*\", \"-\"", "\"abc\", \"(\", \"x\"",
             "\"héllo\", \"[éè]\", \"e\"", "\"abc\", \"(?P<n>b)\", \"${n}${n}\""]:
    add("regex_replace(%s)" % args)
    add("regexreplace(%s)" % args)
for f in ["setsubtract([1], [2])", "setsymmetricdifference([1], [2])", "tostring(1)", "tonumber(\"1\")", "tobool(true)",
          "tolist([1])", "toset([1])", "tomap({a=1})", "setunion([1], [2])", "setintersection([1], [1])",
          "setproduct([1], [2])", "upper(\"a\")", "try(nope, 1)", "can(nope)"]:
    add(f)
unk = {"ls": ["list", "string"], "s": "string", "d": "dynamic", "t": ["tuple", ["string", "number"]],
       "o": ["object", {"a": "number"}], "m": ["map", "number"], "st": ["set", "number"], "n": "number"}
for e in ["length(ls)", "length(s)", "length(d)", "length(t)", "length(o)", "length(m)", "length(st)", "length(\"ab${s}\")",
          "length(\"e\u0301${s}\")", "reverse(ls)", "reverse(t)", "reverse(st)", "reverse(d)", "index(ls, \"a\")",
          "index([s, \"a\"], \"a\")", "index([\"a\", s], \"a\")", "index(t, 1)", "index(d, 1)", "index([1], n)",
          "coalesce(s, \"a\")", "coalesce(\"\", s)", "coalesce(d, 1)", "coalesce(null, n)", "strrev(s)",
          "[length([s]), length({a = s})]", "length(tolist([s]))", "length(toset([s, \"a\"]))"]:
    add(e, unknowns=unk)
for e in ["length(v)", "reverse(v)", "index(v, \"b\")"]:
    for v in [["a", "b"], {"type": ["list", "string"], "value": ["b", "a"]}, {"type": ["set", "string"], "value": ["b", "a"]},
              {"type": ["map", "string"], "value": {"x": "b"}}, {"type": "string", "value": "abc"}]:
        add(e, vars={"v": v})

# ----- clock and randomness: types and shapes ---------------------------------
# (only what cannot change between runs: no month or weekday names, whose
# lengths vary, and no two clock readings compared)
for e in ["length(uuidv4())", "can(regex(\"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$\", uuidv4()))",
          "uuidv4() == uuidv4()", "uuidv4(1)", "length(bcrypt(\"a\"))", "substr(bcrypt(\"a\"), 0, 7)",
          "substr(bcrypt(\"secret\", 4), 0, 7)", "substr(bcrypt(\"\", 5), 0, 7)", "substr(bcrypt(\"x\", 3), 0, 7)",
          "substr(bcrypt(\"x\", -1), 0, 7)", "bcrypt(\"x\", 32)", "bcrypt(\"x\", 4, 5)", "bcrypt(\"x\", 1.5)",
          "bcrypt(\"x\", 9223372036854775808)", "length(bcrypt(\"%s\", 4))" % ("a" * 100), "bcrypt(u)",
          "can(regex(\"^\\\\d{4}-\\\\d\\\\d-\\\\d\\\\dT\\\\d\\\\d:\\\\d\\\\d:\\\\d\\\\dZ$\", timestamp()))", "timestamp(1)",
          "legacy_isotime() == legacy_isotime()", "legacy_isotime() == legacy_strftime()",
          "can(regex(\"^\\\\d{4}-\\\\d\\\\d-\\\\d\\\\dT\\\\d\\\\d:\\\\d\\\\d:\\\\d\\\\dZ$\", legacy_isotime()))",
          "legacy_isotime(\"2006\") == formatdate(\"YYYY\", legacy_isotime())",
          "legacy_isotime(\"01/02/06\") == formatdate(\"MM/DD/YY\", legacy_isotime())",
          "legacy_isotime(\"Jan Monday MST -0700 Z07:00 PM\") == formatdate(\"MMM EEEE\", legacy_isotime()) ? 1 : 2",
          "length(legacy_isotime(\".000 ,000000 .000000000\"))", "legacy_isotime(\"no layout here\")", "legacy_isotime(\"\")",
          "legacy_isotime(\"a\", \"b\")", "legacy_strftime(\"%Y\", \"b\")", "legacy_strftime(\"%Y\") == legacy_isotime(\"2006\")",
          "legacy_strftime(\"%Y-%m-%d %H:%M:%S\") == legacy_isotime(\"2006-01-02 15:04:05\")",
          "legacy_strftime(\"%% %Q %\")", "legacy_strftime(\"\")", "legacy_strftime(\"%Z %z\")",
          "legacy_strftime(\"%B %b %A %a %d %I %y %p %L\") == legacy_isotime(\"January Jan Monday Mon 02 03 06 PM .000\")",
          "legacy_strftime(\"%é\")", "legacy_isotime(u)", "timestamp() != \"\"", "[for i in range(3) : length(uuidv4())]"]:
    add(e, unknowns={"u": "string"} if "(u)" in e else None)

# ----- templates and bodies ------------------------------------------------
add("%{ for c in cidrsubnets(\"10.0.0.0/16\", 8, 8) }${c} %{ endfor }", mode="template")
add("${sha1(\"a\")}-${length(\"héllo\")}", mode="template")
add("net = cidrsubnet(\"10.0.0.0/8\", 8, 1)\nhash = md5(net)\nn = length(net)\nids { a = uuidv5(\"dns\", net) }\n", mode="body")
add("a = reverse([1, 2])\nb = strrev(\"ab\")\nc = regexreplace(\"a\", \"a\", \"b\")\n", mode="body")

rows.write()
print("gen_packer.py: %d rows" % len(rows))
