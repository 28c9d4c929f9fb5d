#!/usr/bin/env bash
# Remakes the expected results of the short-circuit cases (cases/*.jsonl)
# into expected/, with an oracle that evaluates `&&` and `||` as hcl
# v2.24.0 does: the reference oracle (hcl v2.20.0, go-cty v1.13.0) built
# with hcl v2.24.0's hclsyntax/expression_ops.go in place of v2.20.0's
# (the operators' short-circuit, hashicorp/hcl #713 and #719; the rest of
# hcl is v2.20.0, as in hclvm's `--short-circuit` mode).
#
#   tests/data/short_circuit/regen.sh [ORACLE]
#
# Without ORACLE it builds one into a temporary folder from ../shared/oracle
# and ../shared/spec/short-circuit/expression_ops.v2.24.0.go beside the
# repository (Go 1.19, GOPATH mode, as the oracle's build.sh does).
# tests/conformance.rs runs these cases through `hclvm conformance
# --short-circuit`'s runner and compares the result lines byte for byte.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$here/../../.." && pwd)"
shared="${HCLVM_SHARED:-$repo_root/../shared}"
oracle="${1:-}"
if [ -z "$oracle" ]; then
  build="$(mktemp -d)"
  trap 'rm -rf "$build"' EXIT
  cp -r "$shared/oracle/." "$build/"
  rm -rf "$build/bin"
  cp "$shared/spec/short-circuit/expression_ops.v2.24.0.go" \
    "$build/third_party/src/github.com/hashicorp/hcl/v2/hclsyntax/expression_ops.go"
  sh "$build/build.sh"
  oracle="$build/bin/hcl-oracle"
fi
# The short-circuit decides `null && true` (false); v2.20.0 fails it.
probe="$(echo '{"id":"p","mode":"expr","src":"null && true"}' | "$oracle" --in-process)"
[ "$probe" = '{"id":"p","ok":true,"type":"bool","value":false}' ] || { echo "regen.sh: $oracle does not short-circuit (v2.24.0 operators)" >&2; exit 2; }
for cases in "$here"/cases/*.jsonl; do
  name="$(basename "$cases" .jsonl)"
  "$oracle" --in-process "$cases" > "$here/expected/$name.expected.jsonl" 2>/dev/null
  echo "regen.sh: $name: $(wc -l < "$here/expected/$name.expected.jsonl") results"
done
