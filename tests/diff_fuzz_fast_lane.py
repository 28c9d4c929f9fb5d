#!/usr/bin/env python3
# Random programs of the kind the VM runs in its fast lane (vm::fast_lane:
# comparisons, &&, ||, arithmetic over variables, paths and constants, no
# calls or conditionals) against random variables (numbers small and
# large, strings that convert or not, bools, nulls, unknowns, missing
# attributes), for differential testing against the reference:
#   python3 tests/diff_fuzz_fast_lane.py SEED COUNT > cases.jsonl
#   hclvm conformance cases.jsonl > ours; hcl-oracle --in-process cases.jsonl > ref
#   python3 tests/diff_compare.py cases.jsonl ours ref
import json, random, sys

random.seed(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
count = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
names = ["a", "b", "c", "d"]
paths = ["o.n", "o.s", "o.b", "o.deep.n", "o.missing"]
consts = ["0", "1", "2", "-3", "2.5", "100", "1e30", '"x"', '"1"', '"MOW"', "true", "false", "null"]
compare = ["==", "!=", "<", "<=", ">", ">="]
arith = ["+", "-", "*", "/", "%"]
logic = ["&&", "||"]
scalars = [0, 1, 2, 7, -3, 2.5, 100, 1e30, "x", "1", "MOW", "", True, False, None,
           {"type": "number", "value": "123456789012345678901234567890"},
           {"type": "number", "value": None}, {"type": "string", "value": None}]


def leaf():
    r = random.random()
    if r < 0.45:
        return random.choice(names)
    if r < 0.65:
        return random.choice(paths)
    return random.choice(consts)


def num(d):
    if d <= 0 or random.random() < 0.3:
        return leaf()
    return f"({num(d - 1)} {random.choice(arith)} {num(d - 1)})"


def cond(d):
    if d <= 0 or random.random() < 0.25:
        return f"{num(1)} {random.choice(compare)} {num(1)}"
    return f"({cond(d - 1)} {random.choice(logic)} {cond(d - 1)})"


def scalar():
    # Mostly small numbers, so that most programs finish in the fast lane.
    return random.choice([0, 1, 2, 7, -3, 100]) if random.random() < 0.7 else random.choice(scalars)


def variables():
    vs = {}
    unknowns = {}
    for n in names:
        r = random.random()
        if r < 0.1:
            continue  # unset: "Unknown variable"
        if r < 0.2:
            unknowns[n] = random.choice(["number", "string", "bool", "dynamic"])
            continue
        vs[n] = scalar()
    o = {"n": scalar(), "s": random.choice(scalars), "b": random.choice([True, False, None, "true"]), "deep": {"n": scalar()}}
    r = random.random()
    vs["o"] = o if r < 0.85 else random.choice([None, "str", {"n": 1}])
    return vs, unknowns


for i in range(count):
    src = cond(3) if random.random() < 0.7 else num(3)
    vs, unknowns = variables()
    print(json.dumps({"id": f"fast-lane-fuzz/{i:05d}", "mode": "expr", "src": src, "vars": vs, "unknowns": unknowns}, separators=(",", ":")))
