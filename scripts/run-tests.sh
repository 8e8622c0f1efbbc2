#!/usr/bin/env bash
# The README's test command (via `make test`): make sure the services the suite needs
# exist (Debian chromium, postgresql and redis-server, installed when running as root; the
# worker tests start their own redis-server on a free port), start a
# throwaway PostgreSQL server on a free loopback port, run pytest, stop the server.
set -euo pipefail
venv="${1:-.venv}"
[ "$#" -gt 0 ] && shift
cd "$(dirname "$0")/.."
root="$(pwd)"

need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
pg_bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
[ -n "$pg_bin" ] && [ -x "$pg_bin/initdb" ] || need+=(postgresql)
command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ] || need+=(redis-server)
if [ "${#need[@]}" -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "==> installing ${need[*]} (Debian packages)"
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
        pg_bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
    else
        echo "warning: ${need[*]} missing and not root: their tests will be skipped" >&2
    fi
fi

pg_dir=""
cleanup() {
    if [ -n "$pg_dir" ] && [ -d "$pg_dir" ]; then
        runuser -u postgres -- "$pg_bin/pg_ctl" -D "$pg_dir/data" -m immediate stop >/dev/null 2>&1 || true
        rm -rf "$pg_dir"
    fi
}
trap cleanup EXIT

if [ -z "${PRDIGEST_TEST_PG_URL:-}" ] && [ -n "$pg_bin" ] && [ -x "$pg_bin/initdb" ] && [ "$(id -u)" = 0 ]; then
    pg_dir="$(mktemp -d /tmp/prdigest-pg.XXXXXX)"
    chown postgres "$pg_dir"
    port="$("$venv/bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    runuser -u postgres -- "$pg_bin/initdb" -D "$pg_dir/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >/dev/null
    runuser -u postgres -- "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/log" \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $pg_dir -c fsync=off" -w start >/dev/null
    export PRDIGEST_TEST_PG_URL="postgresql+psycopg://postgres@127.0.0.1:$port/postgres"
    echo "==> PostgreSQL test server on 127.0.0.1:$port"
fi

mkdir -p "$root/test-artifacts"
set +e
"$venv/bin/pytest" -n 2 --dist loadfile "$@"
status=$?
set -e
exit $status
