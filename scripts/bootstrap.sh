#!/usr/bin/env bash
# Create the virtual environment and install prdigest with every extra and the dev tools.
# Nothing is installed outside the venv: a uv already on PATH is used as it is; otherwise
# uv is installed INTO the venv (pip install uv) and used from there (seconds instead of
# minutes), and when even that fails, plain pip in the venv does the work.
set -euo pipefail
venv="${1:-.venv}"
cd "$(dirname "$0")/.."
if command -v uv >/dev/null 2>&1; then
    echo "bootstrap: using $(command -v uv) to create $venv" >&2
    uv venv --quiet --allow-existing "$venv"
    uv pip install --quiet --python "$venv/bin/python" -e '.[all,dev]'
else
    python3 -m venv "$venv"
    if "$venv/bin/python" -m pip install --quiet uv >/dev/null 2>&1; then
        echo "bootstrap: installed uv into $venv (not into the system Python) to install prdigest" >&2
        "$venv/bin/uv" pip install --quiet --python "$venv/bin/python" -e '.[all,dev]'
    else
        echo "bootstrap: no uv available; installing with pip into $venv (a few minutes)" >&2
        "$venv/bin/python" -m pip install --quiet --upgrade pip
        "$venv/bin/python" -m pip install --quiet -e '.[all,dev]'
    fi
fi
echo "prdigest installed in $venv ($("$venv/bin/prdigest" --version))"
