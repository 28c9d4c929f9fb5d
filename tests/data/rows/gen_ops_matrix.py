#!/usr/bin/env python3
# Operator, accessor and constructor cases (vm::ops) over many operand kinds:
# binary and unary operators, index, attribute and legacy index, splats,
# for expressions, templates, object keys and conditionals over literals,
# typed nulls, known collections and unknowns of many types. Writes
# cases/ops_matrix.jsonl next to this script; regen.sh gives them the
# reference's results (expected/ops_matrix.expected.jsonl) and
# tests/conformance.rs compares hclvm's with those.
#   python3 tests/data/rows/gen_ops_matrix.py && tests/data/rows/regen.sh
import itertools, json, os
# Operand catalogue: name -> (src, vars entry or None, unknowns entry or None)
V = {}
def lit(name, src): V[name] = (src, None, None)
def var(name, typ, value): V[name] = (name, {"type": typ, "value": value}, None)
def unk(name, typ): V[name] = (name, None, typ)
lit("n1", "1"); lit("n0", "0"); lit("neg", "-2.5"); lit("s2", '"2"'); lit("sx", '"x"'); lit("st", '"true"')
lit("b", "true"); lit("bf", "false"); lit("null", "null"); lit("tup", "[1, \"a\"]"); lit("obj", "{a = 1}")
var("nn", "number", None); var("ns", "string", None); var("nb", "bool", None); var("nl", ["list","number"], None)
var("lst", ["list","string"], ["a","b"]); var("mp", ["map","number"], {"a":1,"b":2}); var("st1", ["set","string"], ["q","p"])
var("el", ["list","string"], []); var("lobj", ["list",["object",{"a":"number"}]], [{"a":1},{"a":2}])
var("obj2", ["object",{"a":"number","b":["list","string"]}], {"a":5,"b":["z"]})
unk("un", "number"); unk("us", "string"); unk("ub", "bool"); unk("ud", "dynamic"); unk("ul", ["list","number"])
unk("uo", ["object",{"a":"number"}]); unk("ut", ["tuple",["string","bool"]]); unk("um", ["map","string"]); unk("uset", ["set","number"])
binops = ["+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||"]
cases = []
def case(cid, src, names, mode="expr"):
    vars_, unks = {}, {}
    for n in names:
        _, ve, ue = V[n]
        if ve is not None: vars_[n] = ve
        if ue is not None: unks[n] = ue
    c = {"id": "ops/" + cid, "mode": mode, "src": src}
    if vars_: c["vars"] = vars_
    if unks: c["unknowns"] = unks
    cases.append(c)
binary_operands = ["n1","s2","sx","st","b","null","tup","nn","nb","ns","un","us","ub","ud","ul","mp"]
for op in binops:
    for a, b in itertools.product(binary_operands, repeat=2):
        case(f"bin/{op}/{a}/{b}", f"{V[a][0]} {op} {V[b][0]}", [a, b])
for op in ["-", "!"]:
    for a in V:
        case(f"un/{op}/{a}", f"{op}{V[a][0]}", [a])
keys = ["n0","n1","s2","sx","st","b","null","neg","un","us","ud","ub","tup"]
colls = ["tup","obj","lst","mp","st1","el","lobj","obj2","nl","null","sx","ul","uo","ut","um","uset","ud","us"]
for c in colls:
    for k in keys:
        case(f"idx/{c}/{k}", f"{V[c][0]}[{V[k][0]}]", [c, k])
    for name in ["a", "b", "zz"]:
        case(f"attr/{c}/{name}", f"{V[c][0]}.{name}", [c])
    case(f"legacy/{c}", f"{V[c][0]}.0", [c])
    case(f"splat/{c}", f"{V[c][0]}[*]", [c])
    case(f"splat-attr/{c}", f"{V[c][0]}[*].a", [c])
    case(f"for-tuple/{c}", f"[for k, v in {V[c][0]}: v]", [c])
    case(f"for-obj/{c}", f"{{for k, v in {V[c][0]}: k => v}}", [c])
    case(f"for-group/{c}", f"{{for k, v in {V[c][0]}: \"g\" => v...}}", [c])
    case(f"for-if/{c}", f"[for k, v in {V[c][0]}: k if k != 0]", [c])
for a in V:
    case(f"tmpl/{a}", f"x${{{V[a][0]}}}", [a], mode="template")
    case(f"tmpl-for/{a}", f"%{{for x in [{V[a][0]}]}}${{x}}%{{endfor}}", [a], mode="template")
    case(f"objkey/{a}", f"{{({V[a][0]}) = 1}}", [a])
    case(f"for-cond/{a}", f"[for x in [1, 2]: x if {V[a][0]}]", [a])
    case(f"for-cond-obj/{a}", f"{{for x in [1, 2]: x => x if {V[a][0]}}}", [a])
    case(f"for-key/{a}", f"{{for x in [1]: {V[a][0]} => x}}", [a])
conds = ["b","bf","null","st","sx","n1","ub","ud","un","ul"]
results = ["n1","s2","null","tup","obj","lst","nn","un","ud","mp","b"]
for c in conds:
    for t, f in [("n1","s2"),("s2","n1"),("null","lst"),("lst","null"),("tup","obj"),("nn","un"),("ud","n1"),("mp","obj"),("tup","lst"),("b","sx"),("sx","b"),("n1","tup")]:
        case(f"cond/{c}/{t}/{f}", f"{V[c][0]} ? {V[t][0]} : {V[f][0]}", [c, t, f])
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases", "ops_matrix.jsonl")
with open(out, "w") as fh:
    for c in cases:
        fh.write(json.dumps(c, separators=(",", ":")) + "\n")
print(f"{out}: {len(cases)} cases")
