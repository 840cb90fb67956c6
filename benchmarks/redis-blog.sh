#!/usr/bin/env bash
# Redis concurrency benchmark on the Laravel blog (examples/blog): one Spindle worker, every
# request waits one second inside Redis (GET /redis-wait: BLPOP on an empty list, 1 s timeout).
#
#   bash benchmarks/redis-blog.sh
#   DURATION=30 bash benchmarks/redis-blog.sh
#
# wrk counts the responses completed within the run: with a 1 s floor per request a connection
# completes at most DURATION - 1 of them (19 in 20 s), so the cap is 9.5 req/s for 10 connections
# in 20 s; the last column gives the rate sustained, connections / mean latency.
#
# Two targets, each `bin/spindle serve examples/blog --workers=1 --port=0` under `wrk -t2 -c10`:
#   Spindle Redis client   the blog's phpredis connection, taken over by Spindle's client under
#                          spindle serve: the ten BLPOPs wait together on dedicated connections;
#                          the limit is 10 connections / 1 s = 10 req/s (target: at least 9.5).
#   phpredis               the same with SPINDLE_REDIS_DRIVER=native: phpredis blocks the worker
#                          for the whole second, about 1 req/s.
#
# Env knobs: DURATION (wrk seconds, default 20), CONNECTIONS (default 10), REDIS_HZ (default 100), SPINDLE_BIN,
# SPINDLE_PHP_ARGS, WRK_TIMEOUT (default 30s). It starts a private redis-server on a free port in
# its mktemp -d directory, installs wrk, curl, redis-server and php8.2-redis with apt-get if
# they are missing, and on exit stops exactly the processes it started (by pid).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

DURATION="${DURATION:-20}"
CONNECTIONS="${CONNECTIONS:-10}"
SPINDLE_BIN="${SPINDLE_BIN:-bin/spindle}"
WRK_TIMEOUT="${WRK_TIMEOUT:-30s}"
read -r -a SPINDLE_PHP_ARGS <<<"${SPINDLE_PHP_ARGS:-}"
BLOG="$ROOT/examples/blog"
[[ "$DURATION" =~ ^[0-9]+$ && "$CONNECTIONS" =~ ^[0-9]+$ ]] || die "DURATION and CONNECTIONS must be whole numbers"

need_tools wrk curl deb:redis-server deb:php8.2-redis deb:php-laravel-framework deb:php8.2-sqlite3
[[ -d vendor ]] || die "vendor/ is missing: run composer install"
[[ -f "$BLOG/vendor/autoload.php" ]] \
    || { log "composer install in examples/blog"; composer install --no-interaction --no-progress --quiet --working-dir="$BLOG"; }

make_tmp spindle-redis-blog
cat >"$TMP/report.lua" <<'LUA'
done = function(summary, latency, requests)
    io.write(string.format("exact: requests=%d duration_us=%d mean_us=%.0f p99_us=%d\n",
        summary.requests, summary.duration, latency.mean, latency:percentile(99)))
end
LUA

# ---- redis-server ----------------------------------------------------------------------------
REDIS_PORT="$(free_ports 1)"
# Redis ends a BLPOP whose timeout passed when its event loop next wakes, at worst one server
# tick (1/hz s) late: at the default hz 10 a "1 s" BLPOP takes 1.00-1.10 s whichever client sends
# it. REDIS_HZ=100 (the default here) makes that 10 ms, so the figures show the clients.
redis-server --hz "${REDIS_HZ:-100}" --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --dir "$TMP" --daemonize no \
    >"$TMP/redis.log" 2>&1 &
STARTED+=("redis-server:$!")
for ((i = 0; i < 100; i++)); do
    [[ "$(redis-cli -p "$REDIS_PORT" ping 2>/dev/null || true)" == PONG ]] && break
    sleep 0.1
done
[[ "$(redis-cli -p "$REDIS_PORT" ping 2>/dev/null || true)" == PONG ]] || { cat "$TMP/redis.log" >&2; die "redis-server did not start"; }
log "redis-server on port $REDIS_PORT"

touch "$TMP/blog.sqlite"
ENV_ARGS=(APP_ENV=production APP_DEBUG=false "APP_KEY=base64:$(php -r 'echo base64_encode(random_bytes(32));')"
    LOG_CHANNEL=stderr LOG_LEVEL=warning SESSION_DRIVER=array CACHE_DRIVER=array
    DB_CONNECTION=sqlite "DB_DATABASE=$TMP/blog.sqlite" "VIEW_COMPILED_PATH=$TMP/views"
    REDIS_HOST=127.0.0.1 "REDIS_PORT=$REDIS_PORT" REDIS_CLIENT=phpredis)
mkdir -p "$TMP/views"

ROWS=()
measure() {   # measure NAME SPINDLE_REDIS_DRIVER
    local name="$1" driver="$2" raw="$TMP/$1.wrk" body
    spawn_spindle "$name" "$name" "$TMP/$name.log" 30 \
        env "${ENV_ARGS[@]}" "SPINDLE_REDIS_DRIVER=$driver" php ${SPINDLE_PHP_ARGS[@]+"${SPINDLE_PHP_ARGS[@]}"} "$SPINDLE_BIN" serve "$BLOG" \
        --host=127.0.0.1 --port=0 --workers=1 --request-timeout=120
    body="$(fetch_ready "${SPINDLE_URL}redis-wait" "$SPINDLE_PID")"
    [[ "$body" == *'"popped":null'* ]] || { dump_logs 30; die "$name: /redis-wait answered '$body'"; }
    # Warm-up, not recorded: the worker boots its app instances (one per concurrent request) on
    # first use. Not for phpredis: its queued requests would still run into the measured run.
    [[ "$driver" == native ]] || run_wrk "$TMP/$name.warmup" -t2 -c"$CONNECTIONS" -d2s --timeout "$WRK_TIMEOUT" "${SPINDLE_URL}redis-wait" || true
    log "$name: wrk -t2 -c$CONNECTIONS -d${DURATION}s ${SPINDLE_URL}redis-wait"
    run_wrk "$raw" -t2 -c"$CONNECTIONS" -d"${DURATION}s" --timeout "$WRK_TIMEOUT" --latency -s "$TMP/report.lua" "${SPINDLE_URL}redis-wait" || true
    stop_started_named "$name"
    local rps mean requests errors
    rps="$(wrk_rps "$raw")"
    requests="$(sed -n 's/^exact: requests=\([0-9]*\).*/\1/p' "$raw")"
    mean="$(sed -n 's/^exact:.* mean_us=\([0-9]*\).*/\1/p' "$raw")"
    errors="$(grep -m1 'Socket errors' "$raw" | sed 's/^ *//' || true)"
    ROWS+=("| $name | ${rps:-?} | ${requests:-?} | $(awk -v m="${mean:-0}" 'BEGIN {printf "%.3f s", m / 1e6}') | $(awk -v c="$CONNECTIONS" -v m="${mean:-0}" 'BEGIN { if (m <= 0) print "?"; else if (m / 1e6 > 1.5) print "n/a (requests queue)"; else printf "%.2f", c / (m / 1e6) }') | ${errors:-none} |")
}

# stop_started_named NAME: stops the one process recorded as NAME (redis-server keeps running).
stop_started_named() {
    local entry keep=()
    for entry in "${STARTED[@]}"; do
        if [[ "${entry%%:*}" == "$1" ]]; then stop_pid "$1" "${entry#*:}"; else keep+=("$entry"); fi
    done
    STARTED=("${keep[@]}")
}

measure "Spindle Redis client" spindle
measure "phpredis (SPINDLE_REDIS_DRIVER=native)" native

echo "## examples/blog GET /redis-wait (BLPOP, 1 s timeout), 1 worker, wrk -t2 -c$CONNECTIONS -d${DURATION}s"
echo
echo "$(date -u +%Y-%m-%dT%H:%M:%SZ); $(nproc) cores; PHP $(php -r 'echo PHP_VERSION;'); phpredis $(php -r 'echo phpversion("redis");'); $(redis-server --version | cut -d' ' -f3)"
echo "redis-server --hz ${REDIS_HZ:-100}; limit: $CONNECTIONS connections / 1 s = $CONNECTIONS req/s; target for Spindle: >= 9.5 req/s"
echo
echo "| target | wrk req/s | requests | mean latency | connections / mean latency | errors |"
echo "| --- | ---: | ---: | ---: | ---: | --- |"
printf '%s\n' "${ROWS[@]}"
