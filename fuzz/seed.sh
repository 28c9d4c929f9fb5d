#!/usr/bin/env bash
# Fills fuzz/corpus/<target>/ (git-ignored) with seed inputs from the
# repository's test data: corpus config files and conformance body cases for
# parse_body, templates and template cases for parse_template, expression
# cases for parse_expression. Needs python3 (to unpack the JSON Lines cases).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
data="$here/../tests/data"
[ -d "$data/conformance/cases" ] || { echo "seed.sh: no test data at $data" >&2; exit 2; }

for t in parse_body parse_expression parse_template; do mkdir -p "$here/corpus/$t"; done

# Corpus files, named by a hash of their path so re-running is idempotent.
copy_files() { # FOLDER TARGET
  find "$1" -type f -print0 | while IFS= read -r -d '' f; do
    cp "$f" "$here/corpus/$2/corpus-$(printf '%s' "${f#"$data"/}" | sha1sum | cut -c1-16)"
  done
}
copy_files "$data/corpus/realworld" parse_body
copy_files "$data/corpus/templates" parse_template

python3 - "$data/conformance/cases" "$here/corpus" <<'PY'
import base64, hashlib, json, os, sys
cases_dir, out_dir = sys.argv[1], sys.argv[2]
target = {"body": "parse_body", "expr": "parse_expression", "template": "parse_template"}
n = 0
for name in sorted(os.listdir(cases_dir)):
    if not name.endswith(".jsonl"):
        continue
    with open(os.path.join(cases_dir, name), encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            case = json.loads(line)
            if "src_base64" in case:
                src = base64.b64decode(case["src_base64"])
            else:
                src = case.get("src", "").encode("utf-8", "surrogatepass")
            t = target.get(case.get("mode"))
            if t is None:
                continue
            key = hashlib.sha1(case["id"].encode("utf-8")).hexdigest()[:16]
            with open(os.path.join(out_dir, t, "case-" + key), "wb") as out:
                out.write(src)
            n += 1
print("seed.sh: %d conformance sources" % n)
PY
for t in parse_body parse_expression parse_template; do
  echo "seed.sh: corpus/$t: $(ls "$here/corpus/$t" | wc -l) files"
done
