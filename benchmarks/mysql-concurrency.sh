#!/usr/bin/env bash
# MySQL concurrency benchmark: one Spindle worker whose every request runs SELECT SLEEP(1).
#
#   bash benchmarks/mysql-concurrency.sh              # from the repository root
#   DURATION=30 bash benchmarks/mysql-concurrency.sh
#
# Two targets, each `bin/spindle serve APP --workers=1 --port=0` under `wrk -t2 -c10`:
#   Spindle Pdo + pool   benchmarks/apps/mysql-sleep.php: Spindle\Database\Pdo on a pool of 10
#                        connections; the 10 queries wait for the server together, so the limit
#                        is 10 connections / 1 s = 10 req/s (target: at least 9.5).
#   native PDO           benchmarks/apps/mysql-sleep-native.php: pdo_mysql, which blocks the
#                        worker for the whole second: about 1 req/s.
#
# Env knobs: DURATION (wrk seconds, default 10), CONNECTIONS (default 10), SLEEP_SECONDS (default
# 1), SPINDLE_BIN (default bin/spindle), SPINDLE_PHP_ARGS (extra php flags), WRK_TIMEOUT (default
# 30s: the native target's queued requests wait for up to CONNECTIONS seconds).
#
# It starts the private MariaDB with scripts/mariadb (reused when it runs), installs wrk, curl and
# php8.2-mysql with apt-get if they are missing, keeps logs in one mktemp -d directory, and on
# exit stops exactly the servers it started (by pid) and removes the directory.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

DURATION="${DURATION:-10}"
CONNECTIONS="${CONNECTIONS:-10}"
SLEEP_SECONDS="${SLEEP_SECONDS:-1}"
SPINDLE_BIN="${SPINDLE_BIN:-bin/spindle}"
WRK_TIMEOUT="${WRK_TIMEOUT:-30s}"
read -r -a SPINDLE_PHP_ARGS <<<"${SPINDLE_PHP_ARGS:-}"
export SLEEP_SECONDS

[[ "$DURATION" =~ ^[0-9]+$ && "$CONNECTIONS" =~ ^[0-9]+$ ]] || die "DURATION and CONNECTIONS must be whole numbers"

# ---- tools ----------------------------------------------------------------------------------
need_tools wrk curl pdo_mysql
[[ -d vendor ]] || die "vendor/ is missing: run composer install"

# ---- MariaDB --------------------------------------------------------------------------------
use_mariadb
export MYSQL_HOST MYSQL_PORT MYSQL_USER MYSQL_PASSWORD MYSQL_DATABASE

# ---- servers --------------------------------------------------------------------------------
make_tmp spindle-mysql-concurrency
# wrk rounds its latency figures to 10 ms; this prints them exactly.
cat >"$TMP/report.lua" <<'LUA'
done = function(summary, latency, requests)
    io.write(string.format("exact: requests=%d duration_us=%d mean_us=%.0f p99_us=%d\n",
        summary.requests, summary.duration, latency.mean, latency:percentile(99)))
end
LUA

# start_server NAME APP: starts one worker on a free port, waits for its "Spindle listening on"
# line and sets URL.
start_server() {
    local name="$1" app="$2" out="$TMP/$1.log" body
    # The request timeout stays above what a queued native request waits.
    spawn_spindle "$name" "$name" "$out" 20 \
        php ${SPINDLE_PHP_ARGS[@]+"${SPINDLE_PHP_ARGS[@]}"} "$SPINDLE_BIN" serve "$app" --host=127.0.0.1 --port=0 --workers=1 \
        --request-timeout=120 --pid-file="$TMP/$name.pid"
    URL="$SPINDLE_URL"
    body="$(curl -s --max-time 10 "$URL" || true)"
    [[ "$body" == "slept 0" ]] || { cat "$out" >&2; die "$name answered '$body' instead of 'slept 0'"; }
    log "$name: pid $SPINDLE_PID at $URL"
}

# measure NAME APP: prints one markdown row and keeps the raw wrk output.
ROWS=()
measure() {
    local name="$1" app="$2" raw="$TMP/$1.wrk"
    start_server "$name" "$app"
    log "$name: wrk -t2 -c$CONNECTIONS -d${DURATION}s"
    run_wrk "$raw" -t2 -c"$CONNECTIONS" -d"${DURATION}s" --timeout "$WRK_TIMEOUT" --latency -s "$TMP/report.lua" "$URL" || true
    stop_started
    local rps mean p99 requests errors non2xx bound
    rps="$(wrk_rps "$raw")"
    requests="$(sed -n 's/^exact: requests=\([0-9]*\).*/\1/p' "$raw")"
    mean="$(sed -n 's/^exact:.* mean_us=\([0-9]*\).*/\1/p' "$raw")"
    p99="$(sed -n 's/^exact:.* p99_us=\([0-9]*\).*/\1/p' "$raw")"
    errors="$(grep -m1 'Socket errors' "$raw" | sed 's/^ *//' || true)"
    non2xx="$(grep -m1 'Non-2xx' "$raw" | sed 's/^ *//' || true)"
    # What the server sustains once every connection has a request in flight: connections / mean latency.
    # Only meaningful while requests do not queue (mean latency near the sleep).
    bound="$(awk -v c="$CONNECTIONS" -v m="${mean:-0}" -v s="$SLEEP_SECONDS" \
        'BEGIN { if (m <= 0) print "?"; else if (m / 1e6 > 1.5 * s) print "n/a (requests queue)"; else printf "%.2f", c / (m / 1e6) }')"
    ROWS+=("| $name | ${rps:-?} | ${requests:-?} | $(awk -v m="${mean:-0}" 'BEGIN {printf "%.4f s", m / 1e6}') | $(awk -v m="${p99:-0}" 'BEGIN {printf "%.4f s", m / 1e6}') | $bound | ${errors:-none}${non2xx:+; $non2xx} |")
    echo "--- raw wrk output: $name ($app)"
    cat "$raw"
    echo
}

measure "Spindle Pdo + pool of 10" benchmarks/apps/mysql-sleep.php
measure "native PDO" benchmarks/apps/mysql-sleep-native.php

echo "## SELECT SLEEP($SLEEP_SECONDS) per request, 1 worker, wrk -t2 -c$CONNECTIONS -d${DURATION}s"
echo
echo "$(date -u +%Y-%m-%dT%H:%M:%SZ); $(nproc) cores; PHP $(php -r 'echo PHP_VERSION;'); $(mariadb --version 2>/dev/null | awk '{print $5}' | tr -d ,)"
echo "limit: $CONNECTIONS connections / ${SLEEP_SECONDS} s = $(awk -v c="$CONNECTIONS" -v s="$SLEEP_SECONDS" 'BEGIN {printf "%.1f", c / s}') req/s; target for Spindle: >= 9.5 req/s"
echo
echo "wrk's req/s counts responses completed within the run: with a ${SLEEP_SECONDS} s floor per request a connection completes"
echo "at most floor(DURATION / latency) of them (9 in 10 s when a request takes 1.001 s), so the last column gives the"
echo "rate the server sustains: connections / mean latency."
echo
echo "| target | wrk req/s | requests | mean latency | p99 | connections / mean latency | errors |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | --- |"
printf '%s\n' "${ROWS[@]}"
