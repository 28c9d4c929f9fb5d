#!/usr/bin/env python3
# Declared variable types (the case key "declare"): type constraints with
# optional attributes and defaults as hcl's ext/typeexpr reads them
# (TypeConstraintWithDefaults), invalid constraints (phase "declare"),
# values given for declared variables with the defaults applied and then
# converted (phase "vars" with cty's path errors), declared variables not
# given (unknowns of their types: validation without inputs) flowing
# through operators, functions, for, splat, conditionals and templates,
# and policies with typos and type mistakes. Writes cases/declare.jsonl
# next to this script; regen.sh gives them the reference's results
# (expected/declare.expected.jsonl) and tests/conformance.rs compares
# hclvm's with those.
#   python3 tests/data/rows/gen_declare.py && tests/data/rows/regen.sh
import json, os

rows = []


def add(cat, src, declare, vars_=None, unknowns=None, mode="expr", note=None):
    row = {"id": "declare-%s-%d" % (cat, sum(1 for r in rows if r["id"].startswith("declare-%s-" % cat)) + 1),
           "mode": mode, "src": src, "declare": declare}
    if vars_ is not None:
        row["vars"] = vars_
    if unknowns is not None:
        row["unknowns"] = unknowns
    if note:
        row["_note"] = note
    rows.append(row)


# --- valid constraints: the type read, as the unknown it gives ---------
types = [
    "string", "number", "bool", "any",
    "list(string)", "set(number)", "map(bool)", "list(any)", "map(any)",
    "list(list(string))", "map(set(number))", "set(map(string))",
    "tuple([])", "tuple([string])", "tuple([string, number, bool])", "tuple([any, list(string)])",
    "object({})", "object({a = string})", "object({b = number, a = string})",
    "object({a = optional(string)})", "object({a = optional(string, \"x\")})",
    "object({a = string, b = optional(number, 1), c = optional(bool)})",
    "object({nested = object({x = optional(number, 0)})})",
    "object({items = list(object({name = string, qty = optional(number, 1)}))})",
    "map(object({enabled = optional(bool, true), port = number}))",
    "list(object({a = optional(string)}))",
    "tuple([object({a = optional(number, 5)}), string])",
    "object({a = any, b = optional(any)})",
    "object({null = string, true = bool})",
    "object({\n  a = string\n  b = optional(number, 2)\n})",
    "object({a = string,})",
    "list(string...)",
    "object({tags = optional(map(string), {})})",
    "object({ports = optional(list(number), [80, 443])})",
    "object({o = optional(object({p = optional(string, \"d\")}), {})})",
    "set(object({k = string, v = optional(string)}))",
]
for t in types:
    add("type", "v", {"v": t}, note="the declared type, as an unknown")

# the same types with values that fit
fits = [
    ("string", 1), ("string", True), ("number", "12"), ("number", "0x1"), ("bool", "true"), ("bool", "1"),
    ("any", [1, "a"]), ("list(string)", [1, True, "x"]), ("list(any)", [1, "a"]), ("list(any)", [1, 2]),
    ("set(number)", [3, 1, 3, "2"]), ("map(bool)", {"a": "false"}), ("map(any)", {"a": 1, "b": "x"}),
    ("map(any)", {"a": [1], "b": ["x", "y"]}),
    ("tuple([string, number, bool])", ["a", "1", "true"]),
    ("object({a = string})", {"a": 1, "extra": 2}),
    ("object({a = optional(string)})", {}),
    ("object({a = optional(string, \"x\")})", {}),
    ("object({a = optional(string, \"x\")})", {"a": None}),
    ("object({a = optional(string, \"x\")})", {"a": "given"}),
    ("object({a = string, b = optional(number, 1), c = optional(bool)})", {"a": "s"}),
    ("object({a = string, b = optional(number, 1), c = optional(bool)})", {"a": "s", "b": "7", "c": "false"}),
    ("object({nested = object({x = optional(number, 0)})})", {"nested": {}}),
    ("object({nested = object({x = optional(number, 0)})})", {"nested": {"x": 3}}),
    ("object({items = list(object({name = string, qty = optional(number, 1)}))})", {"items": [{"name": "a"}, {"name": "b", "qty": 4}]}),
    ("object({items = list(object({name = string, qty = optional(number, 1)}))})", {"items": []}),
    ("map(object({enabled = optional(bool, true), port = number}))", {"web": {"port": 80}, "db": {"port": "5432", "enabled": False}}),
    ("list(object({a = optional(string)}))", [{}, {"a": "x"}]),
    ("tuple([object({a = optional(number, 5)}), string])", [{}, 1]),
    ("object({tags = optional(map(string), {})})", {}),
    ("object({tags = optional(map(string), {})})", {"tags": {"env": "prod", "n": 1}}),
    ("object({ports = optional(list(number), [80, 443])})", {}),
    ("object({ports = optional(list(number), [80, 443])})", {"ports": ["8080"]}),
    ("object({o = optional(object({p = optional(string, \"d\")}), {})})", {}),
    ("object({o = optional(object({p = optional(string, \"d\")}), {})})", {"o": {}}),
    ("object({o = optional(object({p = optional(string, \"d\")}), {})})", {"o": {"p": "q"}}),
    ("object({o = optional(object({p = optional(string, \"d\")}))})", {}),
    ("set(object({k = string, v = optional(string)}))", [{"k": "a"}, {"k": "b", "v": "x"}]),
    ("set(object({k = string, v = optional(string, \"z\")}))", [{"k": "a"}, {"k": "a", "v": "z"}]),
    ("map(object({a = optional(number, 1)}))", {}),
    ("list(object({a = optional(number, 1)}))", []),
    ("map(list(object({a = optional(number, 1)})))", {"x": [{}, {"a": 2}], "y": []}),
    ("object({a = any})", {"a": [1, "x"]}),
    ("object({a = list(any)})", {"a": [1, "x"]}),
    ("list(object({a = optional(list(string), [])}))", [{}, {"a": ["x"]}]),
    ("object({a = optional(number, 1), b = optional(string, \"s\")})", {"a": None, "b": None}),
    ("object({x = optional(object({y = optional(object({z = optional(number, 42)}), {})}), {})})", {}),
    ("object({x = optional(object({y = optional(object({z = optional(number, 42)}), {})}), {})})", {"x": {"y": {"z": 1}}}),
    ("object({x = optional(object({y = optional(object({z = optional(number, 42)}), {})}), {})})", {"x": {"y": None}}),
    ("list(string)", {"type": ["set", "string"], "value": ["b", "a"]}),
    ("set(string)", {"type": ["list", "string"], "value": ["b", "a", "b"]}),
    ("map(string)", {"type": ["object", {"a": "number"}], "value": {"a": 1}}),
    ("object({a = string})", {"type": ["map", "string"], "value": {"a": "x", "b": "y"}}),
    ("object({a = optional(number, 3)})", {"type": ["map", "number"], "value": {}}),
    ("object({a = optional(number, 3), b = string})", {"type": ["map", "string"], "value": {"b": "x"}}),
    ("list(number)", {"type": ["list", "number"], "value": None}),
    ("object({a = optional(string, \"x\")})", {"type": ["object", {"a": "string"}], "value": None}),
    ("string", None),
    ("map(object({enabled = optional(bool, true)}))", {"type": ["map", ["object", {"enabled": "bool"}]], "value": {"a": {"enabled": None}}}),
]
for t, v in fits:
    add("fit", "v", {"v": t}, vars_={"v": v}, note="a value that fits, defaults applied")

# --- values that do not fit: phase vars --------------------------------
misfits = [
    ("number", "x"), ("number", [1]), ("bool", "yes"), ("bool", "True"), ("string", [1]), ("string", {"a": 1}),
    ("list(number)", [1, "x"]), ("list(number)", ["1", "2", "three"]), ("list(string)", "abc"), ("list(string)", [[1]]),
    ("set(number)", ["a"]), ("map(number)", {"a": 1, "b": "x"}), ("map(string)", {"a": [1]}), ("map(string)", [1]),
    ("tuple([string, number])", ["a"]), ("tuple([string, number])", ["a", "b"]), ("tuple([string])", "a"),
    ("object({a = string})", {}), ("object({a = string, b = number})", {}), ("object({a = string, b = number, c = bool})", {}),
    ("object({a = number})", {"a": "x"}), ("object({a = object({b = number})})", {"a": {"b": "x"}}),
    ("object({a = object({b = number})})", {"a": {}}), ("object({a = list(number)})", {"a": [1, 2, "x"]}),
    ("object({a = map(number)})", {"a": {"k": "v"}}), ("object({a = map(number)})", {"a": {"k": [1]}}),
    ("list(object({n = number}))", [{"n": 1}, {"n": "x"}]), ("list(object({n = number}))", [{"n": 1}, {}]),
    ("map(object({n = number}))", {"k": {"n": "x"}}), ("map(object({n = number}))", {"k": {"m": 1}}),
    ("object({items = list(object({name = string, qty = optional(number, 1)}))})", {"items": [{"qty": 2}]}),
    ("object({items = list(object({name = string, qty = optional(number, 1)}))})", {"items": [{"name": "a", "qty": "many"}]}),
    ("object({items = list(object({name = string, qty = optional(number, 1)}))})", {"items": {"name": "a"}}),
    ("object({tags = optional(map(string), {})})", {"tags": ["a"]}),
    ("object({tags = optional(map(string), {})})", {"tags": {"env": {"x": 1}}}),
    ("map(object({enabled = optional(bool, true), port = number}))", {"web": {}}),
    ("map(object({enabled = optional(bool, true), port = number}))", {"web": {"port": 1, "enabled": "maybe"}}),
    ("object({o = optional(object({p = optional(string, \"d\")}), {})})", {"o": {"p": [1]}}),
    ("set(object({k = string}))", [{"k": "a"}, {"j": "b"}]),
    ("tuple([object({a = number}), string])", [{"a": "x"}, "s"]),
    ("object({a = string})", {"type": ["object", {"b": "string"}], "value": None}),
    ("object({a = number})", {"type": ["map", "string"], "value": {"a": "x"}}),
    ("object({a = number})", {"type": ["map", "string"], "value": {"b": "1"}}),
    ("object({a = optional(list(string))})", {"type": ["map", "number"], "value": {"a": 1}}),
    ("list(string)", {"type": ["map", "string"], "value": {"a": "x"}}),
    ("map(list(number))", {"a": [1], "b": ["x"]}),
    ("object({a = tuple([number, bool])})", {"a": [1, "maybe"]}),
    ("number", {"type": "string", "value": "1e99999999999"}),
    ("object({\"a\" = string})", {"a": 1}),
]
for t, v in misfits:
    add("misfit", "v", {"v": t}, vars_={"v": v}, note="a value that does not fit: phase vars")

# several variables: one diagnostic each, in name order, unknowns too
add("multi", "[a, b, c]", {"a": "number", "b": "list(bool)", "c": "string"}, vars_={"a": "x", "b": ["no"], "c": "ok"})
add("multi", "[a, b, c]", {"a": "number", "b": "list(bool)", "c": "string"}, vars_={"a": "1", "b": ["true"]})
add("multi", "[a, b]", {"a": "number", "b": "object({x = string})"}, vars_={"a": 1}, unknowns={"b": "dynamic"})
add("multi", "[a, b]", {"a": "number", "b": "object({x = string})"}, unknowns={"a": "string", "b": ["object", {"x": "number", "y": "bool"}]})
add("multi", "b", {"a": "number"}, vars_={"a": "x", "b": 1}, note="an undeclared variable beside a declared one")
add("multi", "a + b", {"a": "number"}, vars_={"b": 2})
add("multi", "a", {}, vars_={"a": 1}, note="an empty declare object")
add("multi", "a", {"a": "object({x = optional(number, 1)})"}, unknowns={"a": ["object", {}]})
add("multi", "a", {"a": "object({x = optional(number, 1)})"}, unknowns={"a": ["map", "number"]})
add("multi", "a", {"a": "list(object({x = optional(number, 1)}))"}, unknowns={"a": ["tuple", [["object", {}]]]})
add("multi", "undeclared + 1", {"a": "number"}, note="a reference to an undeclared variable")
add("multi", "declared_nmae", {"declared_name": "string"}, note="a typo of a declared name")
add("multi", "[for x in xs : x]", {"xs": "list(string)"}, vars_={"xs": ["a", 1]})
add("multi", "1 +", {"a": "numbr"}, note="declarations are read before the source")
add("multi", "1 +", {"a": "number"}, vars_={"a": "x"}, note="values are converted before the source is parsed")
add("multi", "a", {"a": "number", "b": "lst(string)", "c": "map()"}, note="every declaration's errors, in name order")

# --- invalid constraints: phase declare --------------------------------
bad = [
    "", " ", "strin", "String", "list", "map", "set", "object", "tuple", "null", "true", "optional",
    "list()", "list(string, number)", "list(string, number, bool)", "map(string, number)", "set()",
    "object()", "object({a = string}, 1)", "tuple()", "tuple([string], [number])",
    "string()", "number(1)", "bool(x)", "any()", "any(string)",
    "optional(string)", "list(optional(string))", "object({a = optional()})",
    "object({a = optional(string, \"x\", 1)})", "object({a = optional(number, \"x\")})",
    "object({a = optional(number, b)})", "object({a = optional(number, upper(\"x\"))})",
    "object({a = optional(list(number), [1, \"x\"])})", "object({a = optional(object({b = number}), {c = 1})})",
    "object({a = optional(number, 1/0 - 1/0)})", "object({a = optional(string, [for x in y : x])})",
    "object({a = optional(string, [for x in [1] : z])})", "object({a = optional(string, [for xx in [1] : x])})",
    "object({a = string, a = number})", "object({\"a\" = string})", "object({(a) = string})", "object({a.b = string})",
    "object({1 = string})", "object([string])", "object(string)", "object({a = strin})",
    "object({a = list})", "tuple(string)", "tuple({a = string})", "tuple([strin, numbr])",
    "list(strin)", "map(list(strng))", "list((string))", "(string)", "\"string\"", "\"${string}\"",
    "string.x", "list.of(string)", "list(string)[0]", "list(string) + 1", "[string]", "{a = string}",
    "lists(string)", "foo(bar)", "provider::x::list(string)", "string string", "list(string", "object({a = })",
    "object({a = string b = number})", "map(string))", "#", "list(string) # comment",
    "object({a = optional(string), b = optional(number, \"n\"), c = optional()})",
    "object({x = optional(object({y = optional(number, \"no\")}), {})})",
    "object({x = optional(object({y = number}), {})})",
    "object({x = optional(map(number), {a = \"b\"})})",
    "list(object({a = optional(number, true)}))",
    "object({a = optional(number, null)})",
    "object({a = optional(bool, \"true\")})",
    "object({a = optional(set(string), [\"b\", \"a\", \"b\"])})",
    "object({a = optional(tuple([string]), [1, 2])})",
    "any.x", "any[0]", "list(any...)", "object({...})",
]
for t in bad:
    add("bad", "v", {"v": t}, note="an invalid type constraint: phase declare")
# Defaults that are fine though odd (null defaults, converted defaults).
odd = ["object({a = optional(number, null)})", "object({a = optional(bool, \"true\")})",
       "object({a = optional(set(string), [\"b\", \"a\", \"b\"])})", "object({a = optional(string, 1 + 1)})",
       "object({a = optional(list(string), [for s in [\"x\", \"y\"] : upper(s)])})",
       "object({a = optional(map(number), {for k in [\"x\"] : k => 1})})",
       "object({a = optional(string, \"${1 + 2}\")})", "object({a = optional(number, true ? 1 : 2)})"]
for t in odd:
    add("oddfit", "v", {"v": t}, vars_={"v": {}}, note="defaults evaluated without a context")

# --- unknowns of declared types flowing through expressions -----------
req = "object({user = string, amount = number, currency = optional(string, \"USD\"), tags = optional(map(string), {}), items = optional(list(object({sku = string, qty = optional(number, 1), price = number})), [])})"
flows = [
    "r.amount * 2 > 10", "r.amount + 1", "-r.amount", "r.amount / 0", "r.amount % 2", "r.amount == 5", "r.amount != null",
    "r.user == \"ann\"", "r.user != null", "\"user-${r.user}\"", "\"${r.user}\" == \"x\"", "upper(r.user)", "length(r.user)",
    "length(r.tags)", "length(r.items)", "keys(r.tags)", "values(r.tags)", "lookup(r.tags, \"env\", \"dev\")",
    "contains(keys(r.tags), \"env\")", "r.tags[\"env\"]", "r.tags.env", "r.items[0]", "r.items[0].sku", "r.items[*].sku",
    "r.items.*.qty", "[for i in r.items : i.price * i.qty]", "{for k, v in r.tags : k => upper(v)}",
    "[for i in r.items : i.sku if i.qty > 1]", "sum([for i in r.items : i.price])",
    "r.amount > 100 ? \"review\" : \"auto\"", "r.amount > 100 ? r.user : 5", "r.amount > 100 ? r : r",
    "r.amount > 100 ? r.tags : {}", "r.currency == \"USD\" && r.amount < 1000", "!(r.amount < 0) || r.user == \"root\"",
    "max(r.amount, 10)", "min(r.amount, 10, 3)", "abs(r.amount)", "ceil(r.amount)", "tostring(r.amount)", "tonumber(r.user)",
    "jsonencode(r)", "jsonencode(r.tags)", "merge(r.tags, {a = \"b\"})", "coalesce(r.user, \"anon\")", "concat(r.items, [])",
    "flatten([r.items])", "[r.user, r.amount]", "{u = r.user}", "r", "r.items", "[r]", "tolist([r])", "toset([r.user])",
    "tomap(r.tags)", "try(r.amount, 0)", "can(r.nope)", "format(\"%s:%d\", r.user, r.amount)", "formatlist(\"%s\", r.items[*].sku)",
    "join(\",\", keys(r.tags))", "split(\",\", r.user)", "replace(r.user, \"a\", \"b\")", "substr(r.user, 0, 3)",
    "regex(\"^a\", r.user)", "startswith(r.user, \"a\")", "element(r.items, 0)", "slice(r.items, 0, 1)",
    "distinct(r.items[*].sku)", "sort(keys(r.tags))", "reverse(r.user)", "r.amount > 0 && r.amount < 1000 && r.currency == \"EUR\"",
    "r.items == []", "r.tags == {}", "r == null", "r.amount >= 1e3", "\"%{ if r.amount > 1 }big%{ else }small%{ endif }\"",
    "\"%{ for i in r.items }${i.sku},%{ endfor }\"", "[for k, v in r : k]", "r[\"user\"]", "r.items[0][\"sku\"]",
    "length(r)", "keys(r)",
]
for f in flows:
    add("flow", f, {"r": req}, note="validation without inputs: r is an unknown of its declared type")
# given values through the same expressions
given = {"user": "ann", "amount": "250", "items": [{"sku": "a-1", "price": 10}, {"sku": "b-2", "price": "2.5", "qty": 4}], "tags": {"env": "prod"}}
for f in flows[:40]:
    add("flowv", f, {"r": req}, vars_={"r": given}, note="the same expressions with a value that fits")

# unknowns of other declared shapes
shapes = [
    ("n", "number", ["n + 1", "n > 0 ? n : -n", "[for i in range(n) : i]", "n == n", "floor(n / 2)", "tostring(n)", "\"${n}\""]),
    ("s", "string", ["upper(s)", "\"https://${s}\"", "\"https://${s}\" != null", "length(s) > 0", "s == \"\"", "split(\"/\", s)", "trimspace(s)", "s[0]", "s.x"]),
    ("b", "bool", ["!b", "b && true", "b || false", "b ? 1 : 2", "b ? \"a\" : \"b\"", "b == true", "tostring(b)", "b + 1"]),
    ("l", "list(string)", ["length(l)", "l[0]", "l[*]", "[for x in l : upper(x)]", "join(\",\", l)", "contains(l, \"a\")", "toset(l)", "l.x", "l[\"k\"]", "concat(l, [\"x\"])", "length(l) == 0 ? \"none\" : l[0]"]),
    ("m", "map(number)", ["m[\"a\"]", "m.a", "keys(m)", "values(m)", "lookup(m, \"a\", 0)", "[for k, v in m : v * 2]", "m[0]", "merge(m, {b = 1})", "length(m)"]),
    ("st", "set(string)", ["length(st)", "st[0]", "[for x in st : x]", "contains(st, \"a\")", "tolist(st)", "setunion(st, [\"a\"])"]),
    ("t", "tuple([string, number])", ["t[0]", "t[1] + 1", "t[2]", "length(t)", "[for x in t : x]", "t[*]"]),
    ("a", "any", ["a.x", "a[0]", "a + 1", "upper(a)", "length(a)", "[for x in a : x]", "a == null", "a ? 1 : 2"]),
    ("o", "object({a = optional(number, 1), b = optional(list(string))})", ["o.a", "o.b", "o.c", "o.b[0]", "length(o.b)", "o.a + 1", "o", "[o.a, o.b]", "o.a > 0 ? o : o"]),
    ("lo", "list(object({name = string, port = optional(number, 80)}))", ["lo[*].name", "lo[*].port", "lo[*].nope", "[for x in lo : x.name]", "[for x in lo : x.nope]", "lo[0].port + 1", "length(lo)", "{for x in lo : x.name => x.port}", "lo[0]"]),
    ("mo", "map(object({enabled = optional(bool, true)}))", ["mo[\"a\"].enabled", "[for k, v in mo : k if v.enabled]", "mo.a.enabled", "mo.a.disabled", "keys(mo)", "length(mo) > 0"]),
]
for name, ty, exprs in shapes:
    for e in exprs:
        add("shape", e, {name: ty}, note="an unknown of a declared type")

# --- policies (body mode) with typos and type mistakes ------------------
policy = '''rule "limit" {
  condition = request.amount <= 1000
  message   = "amount ${request.amount} over the limit"
}
rule "currency" {
  condition = contains(["USD", "EUR"], request.currency)
}
rule "owner" {
  condition = request.user == lookup(request.tags, "owner", request.user)
}
allow = request.amount <= 1000 && request.currency != "GBP"
'''
preq = "object({user = string, amount = number, currency = optional(string, \"USD\"), tags = optional(map(string), {})})"
add("policy", policy, {"request": preq}, mode="body", note="a policy validated without inputs")
add("policy", policy, {"request": preq}, vars_={"request": {"user": "ann", "amount": 12}}, mode="body")
add("policy", policy, {"request": preq}, vars_={"request": {"user": "ann", "amount": 5000, "currency": "GBP", "tags": {"owner": "bob"}}}, mode="body")
add("policy", policy, {"request": preq}, vars_={"request": {"user": "ann"}}, mode="body", note="a required attribute missing")
add("policy", policy, {"request": preq}, vars_={"request": {"user": "ann", "amount": "a lot"}}, mode="body")
typos = [
    ("amount", "ammount"), ("request.currency", "request.curency"), ("lookup(", "lokup("), ("contains(", "contain("),
    ("request.user", "requst.user"), ("request.tags, \"owner\"", "request.tags[\"owner\"], \"owner\""),
    ("<= 1000", "<= \"1000\""), ("request.amount <= 1000 &&", "request.amount <= 1000 && request.tags &&"),
    ("[\"USD\", \"EUR\"]", "\"USD\""), ("request.user ==", "request.user.name =="),
    ("\"amount ${request.amount} over the limit\"", "\"amount ${request.items} over\""),
    ("contains([\"USD\", \"EUR\"], request.currency)", "contains([\"USD\", \"EUR\"], request.currency, 1)"),
    ("lookup(request.tags, \"owner\", request.user)", "lookup(request.tags)"),
]
for old, new in typos:
    src = policy.replace(old, new, 1)
    add("policy", src, {"request": preq}, mode="body", note="a typo or type mistake: %s -> %s" % (old, new))
    add("policy", src, {"request": preq}, vars_={"request": {"user": "ann", "amount": 12, "tags": {"owner": "ann"}}}, mode="body")

policy2 = '''locals {
  total = sum([for i in order.items : i.price * i.qty])
  skus  = order.items[*].sku
  big   = [for i in order.items : i if i.qty > 10]
}
decision {
  approve = local.total < 500
  review  = length(order.items) > 20 || order.customer.tier == "new"
  note    = "order ${order.id}: ${length(order.items)} items"
}
'''
oreq = "object({id = string, customer = object({tier = optional(string, \"std\"), email = string}), items = list(object({sku = string, qty = optional(number, 1), price = number}))})"
add("policy", policy2, {"order": oreq}, mode="body", note="local is undeclared; for and splat over unknown lists")
add("policy", policy2.replace("local.total", "sum([for i in order.items : i.price])"), {"order": oreq}, mode="body")
add("policy", policy2.replace("i.price * i.qty", "i.prise * i.qty"), {"order": oreq}, mode="body")
add("policy", policy2.replace("order.customer.tier", "order.customer.teir"), {"order": oreq}, mode="body")
add("policy", policy2.replace("order.customer.tier", "order.costumer.tier"), {"order": oreq}, mode="body")
add("policy", policy2.replace("order.id", "order.id.x"), {"order": oreq}, mode="body")
add("policy", policy2.replace("length(order.items) > 20", "order.items > 20"), {"order": oreq}, mode="body")
add("policy", policy2.replace("local.total < 500", "sum([for i in order.items : i.price]) < \"five\""), {"order": oreq}, mode="body")
add("policy", policy2, {"order": oreq}, vars_={"order": {"id": "o-1", "customer": {"email": "a@b"}, "items": [{"sku": "x", "price": 3}]}}, mode="body")
add("policy", policy2, {"order": oreq}, vars_={"order": {"id": "o-1", "customer": {"email": "a@b"}, "items": [{"sku": "x", "price": "three"}]}}, mode="body")
add("policy", policy2, {"order": oreq}, vars_={"order": {"id": "o-1", "customer": {}, "items": []}}, mode="body")
add("policy", policy2, {"order": oreq, "local": "object({total = number})"}, mode="body", note="local declared too")

tpl = '''Hello ${user.name}!
%{ for r in user.roles ~}
- ${r.name}%{ if r.admin } (admin)%{ endif }
%{ endfor ~}
Quota: ${user.quota.gb} GB
'''
ut = "object({name = string, roles = optional(list(object({name = string, admin = optional(bool, false)})), []), quota = optional(object({gb = optional(number, 10)}), {})})"
add("template", tpl, {"user": ut}, mode="template")
add("template", tpl, {"user": ut}, vars_={"user": {"name": "ann"}}, mode="template")
add("template", tpl, {"user": ut}, vars_={"user": {"name": "ann", "roles": [{"name": "ops", "admin": True}, {"name": "dev"}]}}, mode="template")
add("template", tpl, {"user": ut}, vars_={"user": {"name": "ann", "quota": {}}}, mode="template")
add("template", tpl.replace("r.admin", "r.admn"), {"user": ut}, mode="template")
add("template", tpl.replace("user.quota.gb", "user.quota.tb"), {"user": ut}, mode="template")
add("template", tpl, {"user": ut}, vars_={"user": {"name": "ann", "roles": [{"admin": True}]}}, mode="template")

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "cases", "declare.jsonl"), "w") as f:
    for r in rows:
        f.write(json.dumps(r, ensure_ascii=False) + "\n")
print("gen_declare.py: %d cases" % len(rows))
