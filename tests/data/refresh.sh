#!/usr/bin/env bash
# Re-copies the test data under tests/data/ from the read-only shared folder
# (default: ../shared next to the repository, or $HCLVM_SHARED).
#
#   conformance/cases/*.jsonl, conformance/expected/*.expected.jsonl  (all of them)
#   corpus/realworld/<owner>__<repo>/..., corpus/templates/...         (permissive licenses only)
#   corpus/MANIFEST.tsv, corpus/REFERENCE_PARSE_FAILURES.tsv           (rows of the copied files only)
#   corpus/LICENSES.md                                                  (generated: repo, commit, SPDX id)
#
# Only corpus sources whose license (column 3 of the table in the shared
# corpus README) is Apache-2.0, MIT or MPL-2.0 are copied: the BUSL-1.1 ones
# stay out of the repository.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$here/../.." && pwd)"
shared="${HCLVM_SHARED:-$repo_root/../shared}"
[ -d "$shared/conformance/cases" ] || { echo "refresh.sh: no shared folder at $shared" >&2; exit 2; }
shared="$(cd "$shared" && pwd)"

# --- conformance -----------------------------------------------------------
rm -rf "$here/conformance"
mkdir -p "$here/conformance/cases" "$here/conformance/expected"
cp "$shared"/conformance/cases/*.jsonl "$here/conformance/cases/"
cp "$shared"/conformance/expected/*.expected.jsonl "$here/conformance/expected/"

# --- corpus ----------------------------------------------------------------
src="$shared/corpus"
dst="$here/corpus"
rm -rf "$dst"
mkdir -p "$dst/realworld" "$dst/templates"

# "repo<TAB>SPDX" for every row of the README's source table with a permissive license.
allowed="$(mktemp)"
trap 'rm -f "$allowed"' EXIT
awk -F'|' '
  /^\| *[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+/ {
    repo = $2; gsub(/^ +| +$/, "", repo); sub(/ *\(sampled\)$/, "", repo)
    lic = $4; gsub(/^ +| +$/, "", lic); split(lic, w, " ")
    if (w[1] == "Apache-2.0" || w[1] == "MIT" || w[1] == "MPL-2.0") print repo "\t" w[1]
  }' "$src/README.md" > "$allowed"
[ -s "$allowed" ] || { echo "refresh.sh: could not read the license table of $src/README.md" >&2; exit 1; }

# Filtered manifest (header + rows whose source_repo is allowed), then copy its files.
awk -F'\t' 'NR == FNR { ok[$1] = 1; next } FNR == 1 || ($2 in ok)' "$allowed" "$src/MANIFEST.tsv" > "$dst/MANIFEST.tsv"
tail -n +2 "$dst/MANIFEST.tsv" | cut -f1 | while IFS= read -r path; do
  mkdir -p "$dst/$(dirname "$path")"
  cp "$src/$path" "$dst/$path"
done

# Failures of the copied files only.
awk -F'\t' 'NR == FNR { if (FNR > 1) have[$1] = 1; next } FNR == 1 || ($1 in have)' \
  "$dst/MANIFEST.tsv" "$src/REFERENCE_PARSE_FAILURES.tsv" > "$dst/REFERENCE_PARSE_FAILURES.tsv"

# LICENSES.md: one row per copied source repository.
{
  echo "# Licenses of the corpus files"
  echo
  echo "The files under \`realworld/\` and \`templates/\` are copied unchanged from the public"
  echo "GitHub repositories below, one snapshot each (the commit). Each file stays under the"
  echo "license of its repository. They are test inputs only (parse conformance and parse"
  echo "throughput); they are not part of the hclvm product. Only repositories under Apache-2.0,"
  echo "MIT or MPL-2.0 are included here; the upstream LICENSE texts are not copied: the"
  echo "license of each is given by its SPDX id, as found in the repository's LICENSE file at"
  echo "that commit. \`MANIFEST.tsv\` maps every file to its source path."
  echo
  echo "| repository | commit | license (SPDX) | files |"
  echo "| --- | --- | --- | ---: |"
  while IFS=$'\t' read -r repo spdx; do
    commit="$(awk -F'\t' -v r="$repo" '$2 == r { print $4; exit }' "$dst/MANIFEST.tsv")"
    n="$(awk -F'\t' -v r="$repo" '$2 == r' "$dst/MANIFEST.tsv" | wc -l | tr -d ' ')"
    [ "$n" -gt 0 ] && echo "| https://github.com/$repo | \`$commit\` | $spdx | $n |"
  done < "$allowed"
} > "$dst/LICENSES.md"

echo "refresh.sh: $(ls "$here/conformance/cases" | wc -l) case files, $(($(wc -l < "$dst/MANIFEST.tsv") - 1)) corpus files, $(($(wc -l < "$dst/REFERENCE_PARSE_FAILURES.tsv") - 1)) reference failures"

# The reference's results for the copied corpus (tests/corpus_eval.rs), when
# its oracle is built.
if [ -x "$shared/oracle/bin/hcl-oracle" ]; then
  python3 "$here/corpus_eval.py" "$shared/oracle/bin/hcl-oracle"
  echo "refresh.sh: corpus_eval.tsv made with the reference"
else
  echo "refresh.sh: no $shared/oracle/bin/hcl-oracle (run its build.sh): corpus_eval.tsv left as it is" >&2
fi
