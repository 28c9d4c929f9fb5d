#!/usr/bin/env python3
# Random expressions for differential testing against the reference:
#   python3 tests/eval_diff_fuzz.py SEED COUNT [body] > cases.jsonl
# With `body`, each case is a body whose attributes (some in nested blocks)
# repeat expressions of a small pool, as configurations do: what hclvm
# shares between the attributes of a body must not change any result.
#   hclvm conformance cases.jsonl > ours; hcl-oracle --in-process cases.jsonl > ref; diff ours ref
import random,json,sys
random.seed(int(sys.argv[1]))
VARS={"n":5,"s":"str","b":True,"l":[1,2,3],"o":{"a":1,"b":"x","c":[True,False]},"e":[],"m":{"k1":"v1","k2":"v2"},"z":None,"lo":[{"a":1},{"a":2}]}
UNK={"u":"number","us":"string","ul":["list","number"],"ud":"dynamic","uo":["object",{"a":"number"}]}
names=list(VARS)+list(UNK)+["nope"]
def atom(d):
    r=random.random()
    if r<0.3: return random.choice(names)
    if r<0.45: return random.choice(["1","0","-1","2.5","1e3","true","false","null",'"a"','"1"','""','"true"'])
    if r<0.55: return random.choice(names)+random.choice([".a",".b","[0]","[1]",'["a"]',".c[0]","[*].a",".*"])
    return expr(d+1)
def expr(d):
    if d>4: return random.choice(["1",'"x"',"n","l","true","null","u"])
    r=random.random()
    if r<0.2: return atom(d)+" "+random.choice(["+","-","*","/","%","==","!=","<",">=","&&","||"])+" "+atom(d)
    if r<0.3: return random.choice(["!","-"])+atom(d)
    if r<0.4: return atom(d)+" ? "+atom(d)+" : "+atom(d)
    if r<0.5: return "["+", ".join(atom(d) for _ in range(random.randint(0,3)))+"]"
    if r<0.58: return "{"+", ".join(random.choice(["a","b","(s)","\"k\"","(n)","(z)","(l)"])+" = "+atom(d) for _ in range(random.randint(0,3)))+"}"
    if r<0.7:
        c=random.choice(["l","o","m","e","ul","ud","z","s","lo","[1,2]","{x=1}"])
        if random.random()<0.5: return "[for v in %s : %s%s]"%(c,random.choice(["v","v.a","v+1",'"${v}"']),random.choice([""," if v != 1"," if v"," if null"]))
        return "{for k, v in %s : %s => %s%s}"%(c,random.choice(["k","v","\"c\"","tostring(k)"]),random.choice(["v","k"]),random.choice(["","..."]))
    if r<0.78: return "\"%s${%s}%s\""%(random.choice(["","a"]),atom(d),random.choice(["","%{ if b }y%{ endif }","%{ for x in l }${x}%{ endfor }"]))
    if r<0.85: return atom(d)+"["+atom(d)+"]"
    if r<0.92: return random.choice(["try","can"])+"("+", ".join(atom(d) for _ in range(random.randint(1,2)))+")"
    return random.choice(["length","upper","tostring","max","concat","keys","coalesce","tolist","lookup"])+"("+", ".join(atom(d) for _ in range(random.randint(0,2)))+random.choice(["",""," ..."]).replace(" ...","...")+")"
def body():
    pool=[expr(1) for _ in range(random.randint(1,3))]
    pick=lambda: random.choice(pool) if random.random()<0.7 else expr(1)
    attrs=lambda p: "".join("%sa%d = %s\n"%(p,i,pick()) for i in range(random.randint(1,4)))
    return attrs("")+"".join("blk {\n%s}\n"%attrs("  ") for _ in range(random.randint(0,2)))
for i in range(int(sys.argv[2])):
    if sys.argv[3:]==["body"]:
        print(json.dumps({"id":str(i),"mode":"body","src":body(),"vars":VARS,"unknowns":UNK}))
    else:
        print(json.dumps({"id":str(i),"mode":"expr","src":expr(0),"vars":VARS,"unknowns":UNK}))
