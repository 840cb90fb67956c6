#!/usr/bin/env bash
# DoctrineBundle under `spindle serve`: the Symfony 7.4 fixture (tests/fixtures/symfony74-app:
# DoctrineBundle 2.19, DBAL 4) or the 5.4 one (FIXTURE=symfony-app: DoctrineBundle 2.3, DBAL 3),
# whose connection is DoctrineBundle's recipe (`url: '%env(resolve:DATABASE_URL)%'`, a mysql:// URL)
# and nothing about Spindle, one worker, every request running SELECT SLEEP(1) through that connection.
#
#   bash benchmarks/symfony-doctrine.sh              # from the repository root
#   DURATION=30 bash benchmarks/symfony-doctrine.sh
#   FIXTURE=symfony-app bash benchmarks/symfony-doctrine.sh
#
# Two targets, `bin/spindle serve tests/fixtures/$FIXTURE --workers=1` under wrk -t2 -c10:
#   Spindle's clients   the default: Spindle's DBAL middleware puts Spindle's driver in place of
#                       pdo_mysql, so the 10 queries wait on the server together (limit 10 req/s,
#                       target at least 9.5)
#   native              SPINDLE_MYSQL_DRIVER=native: pdo_mysql blocks the worker, about 1 req/s
# With DB=pgsql (default mysql) the connection is a postgresql:// URL to the private PostgreSQL of
# scripts/postgres, the route runs SELECT pg_sleep(1), Spindle's PgsqlDriver takes pdo_pgsql's place
# and the native side is SPINDLE_PGSQL_DRIVER=native:  DB=pgsql bash benchmarks/symfony-doctrine.sh
#
# wrk counts the responses completed within the run: with a 1 s floor per request a connection
# completes at most floor(DURATION / latency) of them (29 in 30 s at 1.02 s), so the report also
# gives what the worker sustains: connections / mean latency.
#
# Env knobs: DURATION (wrk seconds, default 30), CONNECTIONS (default 10), SPINDLE_BIN (default
# bin/spindle), FIXTURE (symfony74-app, the default, or symfony-app).
# The kernels' container is built in the fixture's var/cache/bench (APP_ENV=bench), removed on exit.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

DURATION="${DURATION:-30}"
CONNECTIONS="${CONNECTIONS:-10}"
SPINDLE_BIN="${SPINDLE_BIN:-bin/spindle}"
FIXTURE="${FIXTURE:-symfony74-app}"
[[ "$FIXTURE" == symfony74-app || "$FIXTURE" == symfony-app ]] || die "FIXTURE must be symfony74-app or symfony-app"
APP="$ROOT/tests/fixtures/$FIXTURE"
[[ "$DURATION" =~ ^[0-9]+$ && "$CONNECTIONS" =~ ^[0-9]+$ ]] || die "DURATION and CONNECTIONS must be whole numbers"

need_tools wrk curl
if [[ ! -f "$APP/vendor/autoload.php" ]]; then
    log "installing the fixture"
    if [[ "$FIXTURE" == symfony-app ]]; then
        # Debian's Symfony 5.4 and its Doctrine bridge, as scripts/test installs them.
        need_tools deb:php-symfony-framework-bundle deb:php-symfony-runtime deb:php-symfony-dotenv \
            deb:php-symfony-console deb:php-symfony-doctrine-bridge
        composer install --no-interaction --no-progress --quiet --working-dir="$APP"
    else
        scripts/composer-fixture "$APP" install --no-progress --quiet
    fi
fi
use_mariadb
make_tmp spindle-symfony-doctrine
on_cleanup() { rm -rf "$APP/var/cache/bench"; }
rm -rf "$APP/var/cache/bench"
export APP_ENV=bench APP_DEBUG=0
export DATABASE_URL="mysql://$MYSQL_USER:$MYSQL_PASSWORD@$MYSQL_HOST:$MYSQL_PORT/$MYSQL_DATABASE?charset=utf8mb4"
DB="${DB:-mysql}"
DRIVER_VARIABLE=SPINDLE_MYSQL_DRIVER
SLEEP_SQL='SELECT SLEEP(1)'
if [[ "$DB" == pgsql ]]; then
    use_postgres
    server_version="$(PGPASSWORD="$PGSQL_PASSWORD" psql -h "$PGSQL_HOST" -p "$PGSQL_PORT" -U "$PGSQL_USER" -d "$PGSQL_DATABASE" -Atc 'SHOW server_version' | cut -d' ' -f1)"
    export DATABASE_URL="postgresql://$PGSQL_USER:$PGSQL_PASSWORD@$PGSQL_HOST:$PGSQL_PORT/$PGSQL_DATABASE?serverVersion=$server_version&charset=utf8"
    DRIVER_VARIABLE=SPINDLE_PGSQL_DRIVER
    SLEEP_SQL='SELECT pg_sleep(1)'
elif [[ "$DB" != mysql ]]; then
    die "DB must be mysql or pgsql"
fi
unset REDIS_URL
# wrk rounds its latency figures to 10 ms; this prints them exactly.
cat >"$TMP/report.lua" <<'LUA'
done = function(summary, latency, requests)
    io.write(string.format("exact: requests=%d mean_us=%.0f\n", summary.requests, latency.mean))
end
LUA

ROWS=()
measure() {   # measure NAME MYSQL_DRIVER
    local name="$1" driver="$2" raw="$TMP/$1.wrk" classes warm=() i
    local -x "$DRIVER_VARIABLE=$driver"
    spawn_spindle "$name" "$name" "$TMP/$name.log" 30 \
        php "$SPINDLE_BIN" serve "$APP" --host=127.0.0.1 --port=0 --workers=1 --concurrency=16 --request-timeout=120
    classes="$(curl -s --max-time 10 "${SPINDLE_URL}clients/classes")"
    log "$name: $classes"
    # One wave first: the worker boots its kernels.
    for ((i = 0; i < CONNECTIONS; i++)); do curl -s -o /dev/null --max-time 60 "${SPINDLE_URL}clients/sleep?seconds=1" & warm+=($!); done
    wait "${warm[@]}" || true
    run_wrk "$raw" -t2 -c"$CONNECTIONS" -d"${DURATION}s" --timeout 30s --latency -s "$TMP/report.lua" "${SPINDLE_URL}clients/sleep?seconds=1" || true
    stop_started
    local mean bound
    mean="$(sed -n 's/^exact:.* mean_us=\([0-9]*\).*/\1/p' "$raw")"
    bound="$(awk -v c="$CONNECTIONS" -v m="${mean:-0}" 'BEGIN { if (m <= 0) print "?"; else if (m / 1e6 > 1.5) print "n/a (requests queue)"; else printf "%.2f", c / (m / 1e6) }')"
    ROWS+=("| $name | $(grep -o '"pdo":"[^"]*"' <<<"$classes" | cut -d'"' -f4 | sed 's/\\\\/\\/g') | $(wrk_rps "$raw") | $(wrk_requests "$raw") | $(awk -v m="${mean:-0}" 'BEGIN {printf "%.4f s", m / 1e6}') | $bound | $(grep -c 'blocked the event loop' "$TMP/$name.log" || true) | $(wrk_errors "$raw") |")
    echo "--- raw wrk output: $name"
    cat "$raw"
}

measure "Spindle's clients" spindle
measure "native ($DRIVER_VARIABLE=native)" native

echo
echo "## DoctrineBundle ($FIXTURE), SELECT SLEEP(1) per request, 1 worker, wrk -t2 -c$CONNECTIONS -d${DURATION}s"
echo
echo "$(date -u +%Y-%m-%dT%H:%M:%SZ); $(nproc) cores; PHP $(php -r 'echo PHP_VERSION;'); $DB, $SLEEP_SQL per request; limit $CONNECTIONS req/s; target >= 9.5 req/s"
echo
echo "| target | getNativeConnection() | wrk req/s | requests | mean latency | connections / mean latency | 'blocked the event loop' lines | errors |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |"
printf '%s\n' "${ROWS[@]}"
