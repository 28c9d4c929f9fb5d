#!/usr/bin/env bash
# Builds the Python package into a virtualenv and runs its tests (pytest).
# Called by .ci/run; usable alone. The virtualenv is target/pyenv (or $1).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
venv="${1:-target/pyenv}"

cargo fmt --manifest-path python/Cargo.toml --check
cargo clippy --manifest-path python/Cargo.toml --locked -- -D warnings

[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q "maturin>=1.7,<2" "pytest>=7" "dask[distributed]>=2024.1"
VIRTUAL_ENV="$PWD/$venv" "$venv/bin/maturin" develop --release --locked -q -m python/Cargo.toml
"$venv/bin/pytest" -q python/tests
