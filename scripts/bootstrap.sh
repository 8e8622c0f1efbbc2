#!/usr/bin/env bash
# Create the virtual environment and install prdigest with every extra and the dev tools.
# Uses uv when it can get it (seconds), plain venv + pip otherwise.
set -euo pipefail
venv="${1:-.venv}"
cd "$(dirname "$0")/.."
if ! command -v uv >/dev/null 2>&1; then
    python3 -m pip install --quiet uv >/dev/null 2>&1 || true
fi
if command -v uv >/dev/null 2>&1; then
    uv venv --quiet --allow-existing "$venv"
    uv pip install --quiet --python "$venv/bin/python" -e '.[all,dev]'
else
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --upgrade pip
    "$venv/bin/python" -m pip install --quiet -e '.[all,dev]'
fi
echo "prdigest installed in $venv ($("$venv/bin/prdigest" --version))"
