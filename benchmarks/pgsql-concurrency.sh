#!/usr/bin/env bash
# PostgreSQL concurrency benchmark: the Laravel blog (examples/blog) on the private PostgreSQL of
# scripts/postgres, one Spindle worker, every request of /sleep waiting on SELECT pg_sleep(1).
#
#   bash benchmarks/pgsql-concurrency.sh              # from the repository root
#   DURATION=30 bash benchmarks/pgsql-concurrency.sh
#
# Two targets, each `bin/spindle serve examples/blog --workers=1 --port=0` under `wrk -t2 -c10`:
#   Spindle Pdo    DB_CONNECTION=pgsql: Laravel's pgsql connection opens Spindle\Database\Pdo; the
#                  waits of the 10 requests overlap, so the limit is 10 req/s (target: >= 9).
#   native PDO     the same with SPINDLE_PGSQL_DRIVER=native: pdo_pgsql blocks the worker for
#                  each whole second, about 1 req/s.
#
# Env knobs: DURATION (wrk seconds, default 10), CONNECTIONS (default 10), SPINDLE_BIN.
# It seeds the blog's database once (artisan blog:seed --if-needed), keeps logs in a mktemp -d
# directory and on exit stops exactly the servers it started.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

DURATION="${DURATION:-10}"
CONNECTIONS="${CONNECTIONS:-10}"
SPINDLE_BIN="${SPINDLE_BIN:-bin/spindle}"

need_tools wrk curl
grep -qx pdo_pgsql <<<"$(php -m)" || die "pdo_pgsql is missing: apt-get install php8.2-pgsql"
[[ -f examples/blog/vendor/autoload.php ]] || die "examples/blog is not installed: composer install --working-dir=examples/blog"

use_postgres
export APP_ENV=production APP_DEBUG=false LOG_CHANNEL=stderr SESSION_DRIVER=cookie CACHE_DRIVER=array
export APP_KEY="base64:$(head -c 32 /dev/urandom | base64)"
export DB_CONNECTION=pgsql DB_HOST="$PGSQL_HOST" DB_PORT="$PGSQL_PORT" DB_DATABASE=spindle_blog \
    DB_USERNAME="$PGSQL_USER" DB_PASSWORD="$PGSQL_PASSWORD" DB_PREFIX=
make_tmp spindle-pgsql-concurrency
export APP_CONFIG_CACHE="$TMP/config.php" APP_ROUTES_CACHE="$TMP/routes.php"
php examples/blog/artisan blog:seed --if-needed --no-interaction >&2

ROWS=()
measure() {
    local name="$1" driver="$2" raw="$TMP/$1.wrk" out="$TMP/$1.log"
    SPINDLE_PGSQL_DRIVER="$driver" spawn_spindle "$name" "$name" "$out" 30 \
        php "$SPINDLE_BIN" serve examples/blog --host=127.0.0.1 --port=0 --workers=1 --request-timeout=120
    fetch_ready "${SPINDLE_URL}users/5" "$SPINDLE_PID" >/dev/null
    log "$name: wrk -t2 -c$CONNECTIONS -d${DURATION}s ${SPINDLE_URL}sleep"
    run_wrk "$raw" -t2 -c"$CONNECTIONS" -d"${DURATION}s" --timeout 30s --latency "${SPINDLE_URL}sleep" || true
    stop_started
    ROWS+=("| $name | $(wrk_rps "$raw") | $(wrk_requests "$raw") | $(wrk_latency "$raw") | $(wrk_p99 "$raw") | $(wrk_errors "$raw") |")
    echo "--- raw wrk output: $name"
    cat "$raw"
    echo
}

measure "Spindle Pdo" spindle
measure "native pdo_pgsql" native

echo "## SELECT pg_sleep(1) per request (examples/blog /sleep), 1 worker, wrk -t2 -c$CONNECTIONS -d${DURATION}s"
echo
echo "$(date -u +%Y-%m-%dT%H:%M:%SZ); $(nproc) cores; PHP $(php -r 'echo PHP_VERSION;'); PostgreSQL $(psql --version | awk '{print $3}')"
echo "limit: $CONNECTIONS connections / 1 s = $CONNECTIONS req/s"
echo
echo "| target | wrk req/s | requests | mean latency | p99 | errors |"
echo "| --- | ---: | ---: | ---: | ---: | --- |"
printf '%s\n' "${ROWS[@]}"
