#!/usr/bin/env bash
# Fills fuzz/corpus/<target>/ (git-ignored) with seed inputs from the
# repository's test data: corpus config files and conformance body cases for
# parse_body, templates and template cases for parse_template, expression
# cases for parse_expression, and the same cases with their variables for the
# eval_* targets. Needs python3 (to unpack the JSON Lines cases).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
data="$here/../tests/data"
[ -d "$data/conformance/cases" ] || { echo "seed.sh: no test data at $data" >&2; exit 2; }

for t in parse_body parse_expression parse_template eval_body eval_expression eval_template eval_declared json_variables yaml_decode; do mkdir -p "$here/corpus/$t"; done

# Corpus files, named by a hash of their path so re-running is idempotent.
copy_files() { # FOLDER TARGET
  find "$1" -type f -print0 | while IFS= read -r -d '' f; do
    cp "$f" "$here/corpus/$2/corpus-$(printf '%s' "${f#"$data"/}" | sha1sum | cut -c1-16)"
  done
}
copy_files "$data/corpus/realworld" parse_body
copy_files "$data/corpus/templates" parse_template
# The eval_* targets read `u16 spec length | spec | source`: these files get
# an empty spec (no variables; mutation adds some).
copy_files_eval() { # FOLDER TARGET
  find "$1" -type f -print0 | while IFS= read -r -d '' f; do
    { printf '\0\0'; cat "$f"; } > "$here/corpus/$2/corpus-$(printf '%s' "${f#"$data"/}" | sha1sum | cut -c1-16)"
  done
}
copy_files_eval "$data/corpus/realworld" eval_body
copy_files_eval "$data/corpus/templates" eval_template

# One seed file per case line whose field gives one: json_variables reads
# JSON text, each conformance case's variables; eval_declared reads
# `u16 spec length | spec | type constraint`, the constraints of the
# oracle rows' declarations with an empty spec (mutation binds variables;
# the first name of input.rs's table, "a", is the one declared).
python3 - "$here/corpus" "$data" <<'PY'
import hashlib, json, os, sys
out_root, data = sys.argv[1], sys.argv[2]

def seeds(case_dir):
    for f in sorted(os.listdir(case_dir)):
        for line in open(os.path.join(case_dir, f), encoding="utf-8"):
            try:
                case = json.loads(line)
            except ValueError:
                continue
            if isinstance(case, dict):
                yield case

def write(target, prefix, blob):
    with open(os.path.join(out_root, target, prefix + hashlib.sha1(blob).hexdigest()[:16]), "wb") as out:
        out.write(blob)

for case in seeds(os.path.join(data, "conformance", "cases")):
    if case.get("vars"):
        write("json_variables", "case-", json.dumps(case["vars"], ensure_ascii=False).encode("utf-8"))
for case in seeds(os.path.join(data, "rows", "cases")):
    for text in (case.get("declare") or {}).values():
        write("eval_declared", "declare-", b"\0\0" + text.encode("utf-8"))
PY

# yaml_decode reads YAML text: the texts of the random yamldecode cases of
# tests/diff_fuzz_packer_yaml.py (a fixed seed; its encode cases have none).
python3 "$here/../tests/diff_fuzz_packer_yaml.py" 1 600 | python3 -c '
import hashlib, json, os, sys
for line in sys.stdin:
    y = json.loads(line).get("vars", {}).get("y")
    if isinstance(y, str):
        blob = y.encode("utf-8")
        with open(os.path.join(sys.argv[1], "yaml-" + hashlib.sha1(blob).hexdigest()[:16]), "wb") as out:
            out.write(blob)
' "$here/corpus/yaml_decode"

# Conformance case sources. The parse_* targets get the bare source; the
# eval_* targets get `u16 spec length | variable spec | source`, the spec
# encoding the case's variables and unknowns (src/eval/input.rs documents the
# format; the encoder below mirrors it). Cases without variables get no
# spec, except every fourth, which gets a rich set bound to common names.
# The shared folder's cases (../shared beside the repository, or
# $HCLVM_SHARED) are added when present.
cases=("$data/conformance/cases")
shared="${HCLVM_SHARED:-$here/../../shared}"
[ -d "$shared/conformance/cases" ] && cases+=("$shared/conformance/cases")
python3 - "$here/corpus" "$here/src/eval/input.rs" "${cases[@]}" <<'PY'
import base64, hashlib, json, os, re, struct, sys
out_dir, input_rs, case_dirs = sys.argv[1], sys.argv[2], sys.argv[3:]

def table(name):
    # The name tables of input.rs, so the encoder and decoder agree.
    text = open(input_rs, encoding="utf-8").read()
    body = re.search(r"pub const %s: &\[&str\] = &\[(.*?)\];" % name, text, re.S).group(1)
    items = re.findall(r'"((?:[^"\\]|\\.)*)"', body)
    return [json.loads('"' + re.sub(r"\\u\{([0-9A-Fa-f]+)\}", lambda m: "\\u%04x" % int(m.group(1), 16)
                                     if int(m.group(1), 16) < 0x10000 else chr(int(m.group(1), 16)), i) + '"')
            for i in items]
NAMES, KEYS, STRINGS = table("NAMES"), table("KEYS"), table("STRINGS")
MAX_DEPTH = 6

class Num(str):
    """A JSON number, kept as its text."""

class Unsupported(Exception):
    pass

def name(n, tab):
    if n in tab:
        return bytes([tab.index(n)])
    b = n.encode("utf-8")
    if len(b) > 255:
        raise Unsupported("long name")
    return bytes([0xFF, len(b)]) + b

def enc_type(t, depth):
    if depth >= MAX_DEPTH and not isinstance(t, str):
        raise Unsupported("deep type")
    if isinstance(t, str):
        return bytes([{"string": 0, "number": 1, "bool": 2, "dynamic": 3}[t]])
    kind, arg = t
    if kind in ("list", "set", "map"):
        return bytes([{"list": 4, "set": 5, "map": 6}[kind]]) + enc_type(arg, depth + 1)
    if len(arg) > 15:
        raise Unsupported("wide type")
    if kind == "object":
        return bytes([7, len(arg)]) + b"".join(name(k, KEYS) + enc_type(arg[k], depth + 1) for k in sorted(arg))
    return bytes([8, len(arg)]) + b"".join(enc_type(e, depth + 1) for e in arg)

def implied_type(v):
    if v is None: return "dynamic"
    if isinstance(v, bool): return "bool"
    if isinstance(v, Num): return "number"
    if isinstance(v, str): return "string"
    if isinstance(v, list): return ["tuple", [implied_type(e) for e in v]]
    return ["object", {k: implied_type(e) for k, e in v.items()}]

def enc_number(text):
    try:
        i = int(text)
        if -128 <= i <= 127:
            return bytes([0, i & 0xFF])
    except ValueError:
        pass
    b = text.encode()
    if len(b) > 255:
        raise Unsupported("long number")
    return bytes([2, len(b)]) + b

def enc_value(t, v, exact, depth):
    """known-value(t) for the JSON value v (null, or typed-JSON for dynamic)."""
    if v is None:
        return bytes([6])
    if isinstance(t, str):
        if t == "bool":
            return bytes([1 if v else 0])
        if t == "number":
            return b"\0" + enc_number(str(v))
        if t == "string":
            s = v if isinstance(v, str) else str(v)
            if s in STRINGS:
                return bytes([0, 0, STRINGS.index(s)])
            b = s.encode("utf-8")[:255].decode("utf-8", "ignore").encode("utf-8")
            return bytes([0, 1, len(b)]) + b
        # dynamic: the value is {"type": T, "value": V}
        if exact or not isinstance(v, dict) or "type" not in v:
            raise Unsupported("dynamic value")
        return b"\0" + enc_type(v["type"], depth + 1) + enc_value(v["type"], v.get("value"), False, depth + 1)
    kind, arg = t
    if kind in ("list", "set"):
        if len(v) > 127: raise Unsupported("long list")
        return bytes([0, len(v)]) + b"".join(enc_value(arg, e, True, depth + 1) for e in v)
    if kind == "map":
        if len(v) > 127: raise Unsupported("long map")
        return bytes([0, len(v)]) + b"".join(name(k, KEYS) + enc_value(arg, e, True, depth + 1) for k, e in v.items())
    if kind == "object":
        return b"\0" + b"".join(enc_value(arg[k], v.get(k), exact, depth + 1) for k in sorted(arg))
    return b"\0" + b"".join(enc_value(et, e, exact, depth + 1) for et, e in zip(arg, v))

def enc_var(n, raw):
    if isinstance(raw, dict) and set(raw) == {"type", "value"}:
        t, v = raw["type"], raw["value"]
    else:
        t, v = implied_type(raw), raw
    return name(n, NAMES) + enc_type(t, 0) + enc_value(t, v, False, 0)

def spec_for(case):
    out = b""
    for n, raw in (case.get("vars") or {}).items():
        try:
            out += enc_var(n, raw)
        except (Unsupported, KeyError, TypeError, ValueError, AttributeError):
            pass
    for n, t in (case.get("unknowns") or {}).items():
        try:
            out += name(n, NAMES) + enc_type(t, 0) + bytes([7])
        except (Unsupported, KeyError, TypeError, ValueError):
            pass
    return out

def rich_spec():
    """a..z and friends bound to a mix of values (deterministic)."""
    vars = {
        "a": Num("12"), "b": "hello", "c": True, "x": [Num("1"), Num("-0"), "s"],
        "y": {"name": "n", "tags": {"k": "v"}, "list": [Num("1e400")]},
        "l": {"type": ["list", "string"], "value": ["b", "a", "é"]},
        "m": {"type": ["map", "number"], "value": {"x": Num("1"), "y": Num("2.5")}},
        "s": {"type": ["set", "string"], "value": ["x", "y"]},
        "n": {"type": "number", "value": Num("123456789012345678901234567890.5")},
        "z": None, "v": {"type": ["list", ["object", {"a": "string"}]], "value": [{"a": "x"}, {"a": None}]},
    }
    out = b"".join(enc_var(n, v) for n, v in vars.items())
    out += name("u", NAMES) + enc_type("number", 0) + bytes([7])
    out += name("t", NAMES) + enc_type("dynamic", 0) + bytes([7])
    return out

RICH = rich_spec()
parse_target = {"body": "parse_body", "expr": "parse_expression", "template": "parse_template"}
eval_target = {"body": "eval_body", "expr": "eval_expression", "template": "eval_template"}
for t in list(parse_target.values()) + list(eval_target.values()):
    os.makedirs(os.path.join(out_dir, t), exist_ok=True)
n = 0
for cases_dir in case_dirs:
    for fname in sorted(os.listdir(cases_dir)):
        if not fname.endswith(".jsonl"):
            continue
        with open(os.path.join(cases_dir, fname), encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    continue
                case = json.loads(line, parse_int=Num, parse_float=Num)
                if "src_base64" in case:
                    src = base64.b64decode(case["src_base64"])
                else:
                    src = case.get("src", "").encode("utf-8", "surrogatepass")
                mode = case.get("mode")
                if mode not in parse_target:
                    continue
                key = hashlib.sha1(case["id"].encode("utf-8")).hexdigest()[:16]
                with open(os.path.join(out_dir, parse_target[mode], "case-" + key), "wb") as out:
                    out.write(src)
                spec = spec_for(case)
                if not spec and int(key, 16) % 4 == 0:
                    spec = RICH
                spec = spec[:0xFFFF]
                with open(os.path.join(out_dir, eval_target[mode], "case-" + key), "wb") as out:
                    out.write(struct.pack("<H", len(spec)) + spec + src)
                n += 1
print("seed.sh: %d conformance sources" % n)
PY
for t in parse_body parse_expression parse_template eval_body eval_expression eval_template eval_declared json_variables yaml_decode; do
  echo "seed.sh: corpus/$t: $(ls "$here/corpus/$t" | wc -l) files"
done
