#!/usr/bin/env bash
# Remakes the expected result of every case file under tests/data/rows/cases
# with the reference (hcl-oracle), into tests/data/rows/expected.
#
#   tests/data/rows/regen.sh [ORACLE]
#       (default: ../shared/oracle/bin/hcl-oracle next to the repository)
#
# These are hclvm's own oracle rows: cases written while fixing a class of
# difference, in the conformance case format (`_note` says what a row is
# about). tests/conformance.rs compares hclvm's result lines with these,
# byte for byte, as it does the shared conformance cases.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$here/../../.." && pwd)"
oracle="${1:-$repo_root/../shared/oracle/bin/hcl-oracle}"
[ -x "$oracle" ] || { echo "regen.sh: no oracle at $oracle (build it with its build.sh)" >&2; exit 2; }
"$oracle" --version | grep -q "hcl v2.20.0" || { echo "regen.sh: $oracle is not hcl v2.20.0" >&2; exit 2; }
# File paths in the cases (packer.jsonl: tests/data/rows/files/...) are
# relative to the repository root, where tests/conformance.rs runs too.
cd "$repo_root"
for cases in "$here"/cases/*.jsonl; do
  name="$(basename "$cases" .jsonl)"
  # (the oracle logs the Go stack of the cases where the reference crashes)
  "$oracle" "$cases" > "$here/expected/$name.expected.jsonl" 2>/dev/null
  echo "regen.sh: $name: $(wc -l < "$here/expected/$name.expected.jsonl") results"
done
