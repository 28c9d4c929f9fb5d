#!/usr/bin/env python3
# Random nests of `&&`, `||`, `!`, comparisons, conditionals, templates,
# `for` and `try`/`can` over operands that are bools, nulls, unknowns
# (refined too), failures and values that do not convert to bool, for
# differential testing of the opt-in short-circuit mode against an oracle
# built with hcl v2.24.0's hclsyntax/expression_ops.go
# (tests/data/short_circuit/regen.sh builds one):
#   python3 tests/diff_fuzz_short_circuit.py SEED COUNT > cases.jsonl
#   hclvm conformance --short-circuit cases.jsonl > ours
#   $ORACLE --in-process cases.jsonl > ref   (ORACLE: that oracle binary)
#   cmp ours ref
import json, random, re, sys
random.seed(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
vars_ = {
    "t": True, "f": False, "n": None,
    "nb": {"type": "bool", "value": None},
    "nl": {"type": ["list", "string"], "value": None},
    "s": "abc", "st": "true", "sf": "0", "num": 5,
    "o": {"x": 1, "ok": True, "no": False},
    "l": [True, False, None],
    "ls": {"type": ["list", "string"], "value": ["true", "x"]},
}
unknowns = {"ub": "bool", "ud": "dynamic", "us": "string", "un": "number", "ul": ["list", "bool"]}
atoms = ["true", "false", "null", "t", "f", "n", "nb", "nl", "ub", "ud", "us", "un", "s", "st", "sf", "num",
         "o.ok", "o.no", "o.x", "o.nope", "n.x", "nope", "l[0]", "l[1]", "l[2]", "l[5]", "ul[0]", "ls[0]",
         "\"${n}true\"", "\"${n}false\"", "\"true\"", "\"x${us}\"", "[t]", "{}"]
cmp = ["==", "!=", "<", ">=", ">"]
def gen(d):
    if d <= 0:
        return random.choice(atoms)
    r = random.random()
    if r < 0.45:
        return f"({gen(d-1)} {random.choice(['&&', '||'])} {gen(d-1)})"
    if r < 0.55:
        return f"{gen(d-1)} {random.choice(['&&', '||'])} {gen(d-1)} {random.choice(['&&', '||'])} {gen(d-1)}"
    if r < 0.62:
        return f"!{gen(d-1)}"
    if r < 0.70:
        return f"({gen(d-1)} {random.choice(cmp)} {random.choice(atoms)})"
    if r < 0.78:
        return f"({gen(d-1)} ? {gen(d-1)} : {gen(d-1)})"
    if r < 0.83:
        return f"can({gen(d-1)})"
    if r < 0.87:
        return f"try({gen(d-1)}, {gen(d-1)})"
    if r < 0.91:
        return f"\"${{{gen(d-1)}}}\""
    if r < 0.96:
        return f"[for x in {random.choice(['l', 'ul', 'ls', '[t, n]', 'us', 'n'])} : {gen(d-1).replace('t', 'x', 1)}]"
    return f"length([for x in {random.choice(['l', 'ls'])} : x if {gen(d-1)}]) > 0"
def referenced(names, src):
    return {k: v for k, v in names.items() if re.search(r"(?<![\w.])" + k + r"\b", src)}
for i in range(int(sys.argv[2]) if len(sys.argv) > 2 else 2000):
    mode = random.choice(["expr", "expr", "expr", "template"])
    src = gen(random.randint(1, 4))
    if mode == "template":
        src = random.choice([f"${{{src}}}", f"%{{ if {src} }}yes%{{ else }}no%{{ endif }}", f"x-${{{src}}}-y"])
    print(json.dumps({"id": f"sc{i}", "mode": mode, "src": src, "vars": referenced(vars_, src), "unknowns": referenced(unknowns, src)}))
