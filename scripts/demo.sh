#!/usr/bin/env bash
# The README's first command: build a small example repository with a realistic PR
# history, sync it into SQLite, analyze it, print its feed and write every report.
set -euo pipefail
venv="${1:-.venv}"
cd "$(dirname "$0")/.."
out="${DEMO_DIR:-build/demo}"
prdigest="$venv/bin/prdigest"
rm -rf "$out"
mkdir -p "$out"
db="$out/prdigest.db"
repo_slug="example-org/example-project"

echo "==> building the example repository in $out/example-project"
"$venv/bin/python" -m prdigest.demo.example_repo "$out/example-project"
echo "==> syncing it into $db"
"$prdigest" sync git "$out/example-project" --db "$db"
echo "==> pull requests found"
"$prdigest" list --db "$db"
echo "==> analyzing"
"$prdigest" analyze --db "$db"
echo "==> feed (en)"
"$prdigest" feed "$repo_slug" --lang en --db "$db"
echo "==> feed (zh)"
"$prdigest" feed "$repo_slug" --lang zh --db "$db"
echo "==> writing every report (zh and en) to $out/reports"
"$prdigest" publish "$repo_slug" --out "$out/reports" --db "$db"
echo "done: reports in $out/reports (open $out/reports/index.html); browse with:"
echo "    $prdigest serve --db $db"
