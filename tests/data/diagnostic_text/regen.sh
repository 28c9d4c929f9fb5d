#!/usr/bin/env bash
# Regenerates <input>.expected for every input file here: the reference hcl's
# text rendering of the file's parse diagnostics. Needs Go and the oracle's
# hcl sources (shared/oracle/third_party beside the repository, hcl v2.20.0;
# HCL_GOPATH overrides) and Debian's Go packages its build.sh installs.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
gopath="$(mktemp -d)"
trap 'rm -rf "$gopath"' EXIT
mkdir -p "$gopath/src/reference_writer"
cp "$here/reference_writer/main.go" "$gopath/src/reference_writer/"
(cd "$gopath/src/reference_writer" && GO111MODULE=off GOPATH="$gopath:${HCL_GOPATH:-$here/../../../../shared/oracle/third_party:/usr/share/gocode}" go build -o "$gopath/reference_writer" .)
cd "$here"
for f in *.hcl *.tmpl; do
  "$gopath/reference_writer" "$f" > "$f.expected"
done
echo "regen.sh: $(ls *.expected | wc -l) expected outputs"
