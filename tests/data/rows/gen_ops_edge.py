#!/usr/bin/env python3
# Edge cases of operators, accessors and constructors (vm::ops): indexing
# with odd keys, unknown structures, infinities, unification of
# conditionals, object keys, for/splat corner cases. Writes
# cases/ops_edge.jsonl next to this script; regen.sh gives them the
# reference's results (expected/ops_edge.expected.jsonl) and
# tests/conformance.rs compares hclvm's with those.
#   python3 tests/data/rows/gen_ops_edge.py && tests/data/rows/regen.sh
import json, os
vars_ = {
 "l": {"type":["list","string"],"value":["a","b"]},
 "lo": {"type":["list",["object",{"a":"number"}]],"value":[{"a":1},None,{"a":3}]},
 "so": {"type":["set",["object",{"a":"string"}]],"value":[{"a":"y"},{"a":"x"}]},
 "m": {"type":["map","number"],"value":{"x":1,"y":2}},
 "mo": {"type":["map",["object",{"n":"number"}]],"value":{"k":{"n":1}}},
 "t": [1, "a", True, None, [1,2], {"z":1}],
 "o": {"a":1,"b":{"c":[1,2]},"0":"zero"},
 "big": {"type":"number","value":"123456789012345678901234567890"},
 "nested": {"type":["list",["list","number"]],"value":[[1,2],[3]]},
 "nm": {"type":["map","string"],"value":None},
 "s": {"type":["set","number"],"value":[3,1,2]},
}
unknowns = {"un":"number","us":"string","ub":"bool","ud":"dynamic","ul":["list","number"],"uo":["object",{"a":"number","b":"string"}],
            "ut":["tuple",["string","number"]],"um":["map","string"],"uset":["set","string"],"ulo":["list",["object",{"a":"number"}]]}
srcs = r'''
l[1e0]
l["1e0"]
l[1e400]
l[-0]
l[0.5]
l[9223372036854775808]
l[-9223372036854775809]
l["0x1"]
l[" 1"]
t[3]
t[6]
t[-1]
t[2.0]
ut[1]
ut[2]
ut[5]
ut[un]
ut["1"]
ut["x"]
uo.a
uo.c
uo["a"]
uo[us]
um.k
um["k"]
um[un]
um[1]
ul[0]
ul["x"]
ul[us]
uset[0]
o.0
o[0]
o["0"]
o.b.c.1
o.b.c[1]
o.b["c"][5]
m.x
m["z"]
m.0
mo.k.n
mo["k"]["n"]
nm.x
nm["x"]
lo[*].a
lo.*.a
lo[1].a
so[*].a
so.*.a
s[*]
ulo[*].a
ulo.*.a
ud[*].a
uo[*].a
uo.*.a
un[*]
[for x in lo: x]
[for x in lo: x.a]
[for x in ulo: x]
{for k, v in m: k => v * 2}
{for k, v in m: v => k}
{for k, v in m: "k" => v...}
{for k, v in o: k => k}
{for i, x in l: x => i}
{for x in s: x => x}
[for x in s: x if x > 1]
[for x in s: x if un > 1]
{for x in s: x => x if un > 1}
[for x in s: x if ud]
{for x in s: us => x}
{for x in s: x => x if x}
[for x in [1, 2]: x if x]
[for x in ["true", "false"]: x if x]
[for x in [[1], [2]]: x if x]
[for k, v in t: k]
[for v in nested: [for x in v: x * 10]]
[u, 1] == [u, 1]
[un] == [1]
[un] == ["a"]
[un] == [1, 2]
{a = un} == {a = 1}
{a = un, b = 1} == {a = 1, b = 1}
s == s
uset == uset
ul == ul
un == un
ud == null
null == un
nm == null
lo == lo
1/0 > 1
-1/0 < -1e400
(1/0) - (1/0)
(1/0) + (-1/0)
0 * (1/0)
(1/0) * (1/0)
(1/0) % 2
5 % (1/0)
0 % 0
5 % -3
-5 % 3
5.5 % 2
0/0
1/3 * 3 == 1
big + 1
big * big
big % 7
-big
1e400 - 1e400
"${1/3}"
"a${1e30}"
"a${-0}"
"a${true}${null == null}"
"${big}x"
"x${1/0}"
"x${un}${[1]}"
"x${ud}"
true ? {a = 1} : {a = "x"}
true ? {a = 1} : {b = 1}
false ? {a = 1} : {b = 1}
true ? [1] : ["a", true]
true ? [1, 2] : [1]
true ? {a = [1]} : {a = ["x", false]}
true ? l : s
true ? l : ["x", 1]
false ? l : [true]
ub ? l : [true]
ud ? 1 : "x"
true ? ud : 1
false ? ud : 1
null ? 1 : 2
true ? null : null
false ? null : l
true ? un : "x"
true ? m : {x = "a"}
true ? m : {x = [1]}
true ? lo : [{a = "x"}]
true ? {a = {b = 1}} : {a = {b = [1]}}
true ? [[1]] : [["a", [1]]]
true ? mo : {k = {n = "x"}}
{1 = 1, "1" = 2}
{true = 1}
{(true) = 1}
{null = 1}
{(null) = 1}
{(un) = 1, a = 2}
{(ud) = 1}
{(1.5) = 1}
{(1/0) = 1}
{(["a"]) = 1}
{a = 1, a = 2}
[for x in [1, 2, 3]: x if x != 2]
[for x in ["a", "b"]: upper]
[for x in []: x]
{for x in []: x => x}
{for x in [1]: x => x...}
[for x in {}: x]
[for x in null: x]
[for x in ud: x]
[for x in un: x]
[for x in 1: x]
[for x in "abc": x]
[for x in uset: x]
{for k, v in um: k => v}
!null
!un
!ud
!"true"
!"yes"
!1
-"1"
-"x"
-true
-un
-ud
-null
-big
"1" + "2"
"1" < "10"
"a" == "a"
true && "true"
"false" || false
ub && false
false && ub
ud || true
null && true
'''.strip().split("\n")
cases=[]
for i,s in enumerate(srcs):
    cases.append({"id":f"ops-edge/{i:03d}","mode":"expr","src":s,"vars":vars_,"unknowns":unknowns})
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases", "ops_edge.jsonl")
with open(out, "w") as fh:
    for c in cases:
        fh.write(json.dumps(c, separators=(",", ":")) + "\n")
print(f"{out}: {len(cases)} cases")
