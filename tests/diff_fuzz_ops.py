#!/usr/bin/env python3
# Random expressions over operators, accessors, constructors, for and splat
# with typed variables and unknowns (the operand kinds of vm::ops), for
# differential testing against the reference:
#   python3 tests/diff_fuzz_ops.py SEED COUNT > cases.jsonl
#   hclvm conformance cases.jsonl > ours; hcl-oracle --in-process cases.jsonl > ref
#   python3 tests/diff_compare.py cases.jsonl ours ref
# (tests/data/rows/gen_ops_matrix.py and gen_ops_edge.py make the fixed
# rows that tests/conformance.rs checks.)
import json, random, sys
random.seed(int(sys.argv[1]) if len(sys.argv)>1 else 1)
vars_ = {
 "l": {"type":["list","string"],"value":["a","b"]},
 "ln": {"type":["list","number"],"value":[1,2,3]},
 "lo": {"type":["list",["object",{"a":"number"}]],"value":[{"a":1},{"a":3}]},
 "s": {"type":["set","number"],"value":[3,1,2]},
 "m": {"type":["map","number"],"value":{"x":1,"y":2}},
 "o": {"a":1,"b":{"c":[1,2]},"s":"str"},
 "t": [1, "a", True],
 "nn": {"type":"number","value":None},
 "ns": {"type":"string","value":None},
}
unknowns = {"un":"number","us":"string","ub":"bool","ud":"dynamic","ul":["list","number"],"uo":["object",{"a":"number"}],"um":["map","string"]}
atoms = ["1","0","2.5","-1","\"2\"","\"x\"","\"true\"","true","false","null","[]","{}","[1, 2]","{a = 1}",
         "l","ln","lo","s","m","o","t","nn","ns","un","us","ub","ud","ul","uo","um","1/0",
         "[un, 1]","{a = un}","[ud]","[null]","(-0)","1e400","0.1","\"1e1\"","\"-0\"","\" 1\"","[[1], [un]]","{a = {b = ud}}","[lo[0], null]"]
binops = ["+","-","*","/","%","==","!=","<","<=",">",">=","&&","||"]
keys = ["0","1","\"a\"","\"x\"","un","us","ud","null","true","-1","1.5"]
def gen(d):
    if d <= 0: return random.choice(atoms)
    r = random.random()
    if r < 0.30: return f"({gen(d-1)} {random.choice(binops)} {gen(d-1)})"
    if r < 0.38: return f"{random.choice(['-','!'])}{gen(d-1)}"
    if r < 0.50: return f"({gen(d-1)} ? {gen(d-1)} : {gen(d-1)})"
    if r < 0.58: return f"{random.choice(['l','ln','lo','m','o','t','ul','uo','um','ud','s'])}[{random.choice(keys+[gen(d-1)])}]"
    if r < 0.64: return f"{random.choice(['lo','o','uo','um','m','ud','t'])}.{random.choice(['a','b','x','0'])}"
    if r < 0.70: return f"[{gen(d-1)}, {gen(d-1)}]"
    if r < 0.75: return f"{{a = {gen(d-1)}, ({gen(d-1)}) = {gen(d-1)}}}"
    if r < 0.82: return f"[for k, v in {gen(d-1)}: {random.choice(['v','k',gen(d-1)])}{random.choice(['',' if '+gen(d-1)])}]"
    if r < 0.87: return f"{{for k, v in {gen(d-1)}: {random.choice(['k','v',gen(d-1)])} => {random.choice(['v','k'])}{random.choice(['','...'])}}}"
    if r < 0.92: return f"{random.choice(['lo','ul','uo','ud','t','o','l'])}[*]{random.choice(['','.a','.b','[0]'])}"
    return f"\"p${{{gen(d-1)}}}q${{{gen(d-1)}}}\""
cases=[]
for i in range(int(sys.argv[2]) if len(sys.argv)>2 else 2000):
    cases.append({"id":f"f/{i}","mode":"expr","src":gen(random.randint(1,3)),"vars":vars_,"unknowns":unknowns})
sys.stdout.write("".join(json.dumps(c)+"\n" for c in cases))
