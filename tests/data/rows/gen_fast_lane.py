#!/usr/bin/env python3
# Programs the VM runs in its fast lane (vm::fast_lane: entry blocks of
# comparisons, `&&`, `||`, arithmetic and marks only) against variables
# that make it hand back to the general loop at each kind of instruction:
# unset variables, nulls, unknowns, strings that convert, operands of the
# wrong type, numbers that do not fit a machine word, missing attributes,
# division by zero. Writes cases/fast_lane.jsonl next to this script;
# regen.sh gives them the reference's results and tests/conformance.rs
# compares hclvm's with those.
#   python3 tests/data/rows/gen_fast_lane.py && tests/data/rows/regen.sh
from rowgen import Rows

srcs = [
    '(origin == "MOW" || country == "RU") && (value >= 100 || req.adults == 1)',
    'a + b * c - d / e',
    'a % e == 1 || a < b',
    'x == y && x != z',
    'req.n.m > a && a <= value',
    '(a - b) * (c + d) >= e && x == "s"',
]
full = {
    "origin": "MOW", "country": "FR", "value": 150, "req": {"adults": 1, "n": {"m": 3}},
    "a": 7, "b": 2, "c": 3, "d": 10, "e": 4, "x": "s", "y": "s", "z": "t",
}
var_sets = {
    "plain": (full, {}),
    "strings": (dict(full, value="150", a="7", e="4", b="2.5"), {}),
    "nulls": (dict(full, value=None, a=None, x=None, origin=None), {}),
    "unknowns": ({k: v for k, v in full.items() if k not in ("origin", "a", "x")}, {"origin": "string", "a": "number", "x": "dynamic"}),
    "unset": ({"origin": "LED", "a": 1}, {}),
    "types": (dict(full, origin=1, value=True, req="str", x=True, y=1, b=[1]), {}),
    "big": (dict(full, value={"type": "number", "value": "1e300"}, a={"type": "number", "value": "123456789012345678901234567890"}, b=0.1, c=0.2, e=0), {}),
    "missing_attr": (dict(full, req={}), {}),
    "bools": (dict(full, x=True, y=True, z=False, country="RU"), {}),
    # Operands equal where an ordering operator decides.
    "ties": (dict(full, value=4, a=4, b=4, e=4, z="s", req={"adults": 2, "n": {"m": 5}}), {}),
    "ties_ge": (dict(full, value=100, req={"adults": 2, "n": {"m": 3}}), {}),
}
rows = Rows("fast_lane", funcs="stdlib")
for i, src in enumerate(srcs):
    for name, (vars_, unknowns) in var_sets.items():
        rows.add(src, vars=vars_, unknowns=unknowns, note=f"program {i}, variables {name}")
print(f"{rows.write()}: {len(rows)} cases")
