#!/usr/bin/env bash
# What per-request isolation costs: the Laravel blog (examples/blog, SQLite) under this checkout's
# Spindle and under another checkout's (BASELINE_DIR, e.g. a worktree of the commit before), in
# interleaved rounds of the same run, on /hello and /posts.
#
#   git worktree add /tmp/spindle-base <commit> && (cd /tmp/spindle-base && composer install &&
#       composer install --working-dir=examples/blog)
#   BASELINE_DIR=/tmp/spindle-base bash benchmarks/isolation.sh
#
# Env knobs: BASELINE_DIR (required), DURATION (seconds per wrk run, default 5), ROUNDS (default 3),
# CONNS (default 32), WORKERS (default 2), ROUTES (default "hello posts"), CURRENT_ARGS (more
# `serve` options for this checkout's side only, e.g. "--static-dir=none" to leave out the
# public/ lookup that a baseline without it does not make).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

BASELINE_DIR="${BASELINE_DIR:?set BASELINE_DIR to another Spindle checkout with its blog installed}"
DURATION="${DURATION:-5}"
ROUNDS="${ROUNDS:-3}"
CONNS="${CONNS:-32}"
WORKERS="${WORKERS:-2}"
ROUTES="${ROUTES:-hello posts}"
read -r -a CURRENT_ARGS <<<"${CURRENT_ARGS:-}"
[[ -f "$BASELINE_DIR/examples/blog/vendor/autoload.php" ]] || die "$BASELINE_DIR/examples/blog has no vendor/: composer install --working-dir=examples/blog there"

need_tools wrk curl deb:php-laravel-framework deb:php8.2-sqlite3
make_tmp spindle-isolation-bench
SETTINGS=(-d opcache.enable_cli=1 -d opcache.jit=tracing -d opcache.jit_buffer_size=64M -d zend.assertions=-1 -d memory_limit=512M)

declare -A PORTS PIDS
start() {   # start NAME CHECKOUT [SERVE OPTIONS...]
    local name="$1" dir="$2"
    shift 2
    cp "$TMP/blog.sqlite" "$TMP/$name.sqlite"
    spawn_spindle "spindle-$name" "Spindle ($name)" "$TMP/$name.log" 30 \
        env APP_ENV=production APP_DEBUG=false APP_KEY="$APP_KEY" LOG_CHANNEL=stderr LOG_LEVEL=warning \
        SESSION_DRIVER=cookie CACHE_DRIVER=array DB_CONNECTION=sqlite DB_DATABASE="$TMP/$name.sqlite" DB_PREFIX= \
        php "${SETTINGS[@]}" "$dir/bin/spindle" serve "$dir/examples/blog" --host=127.0.0.1 --port=0 --workers="$WORKERS" "$@"
    PORTS[$name]="$SPINDLE_PORT"
    PIDS[$name]="$SPINDLE_PID"
    fetch_ready "http://127.0.0.1:$SPINDLE_PORT/posts" "$SPINDLE_PID" >/dev/null
}

APP_KEY="base64:$(php -r 'echo base64_encode(random_bytes(32));')"
log "seeding the blog (SQLite)"
env APP_KEY="$APP_KEY" DB_CONNECTION=sqlite DB_DATABASE="$TMP/blog.sqlite" DB_PREFIX= php "$ROOT/examples/blog/artisan" --no-interaction blog:seed >/dev/null
start baseline "$BASELINE_DIR"
start current "$ROOT" "${CURRENT_ARGS[@]}"

declare -A RESULTS
for ((round = 1; round <= ROUNDS; round++)); do
    for route in $ROUTES; do
        for name in baseline current; do
            out="$TMP/$name-$route-$round.txt"
            url="http://127.0.0.1:${PORTS[$name]}/$route"
            run_wrk /dev/null -t2 -c"$CONNS" -d1s "$url" || true
            mapfile -t pids < <(ps -o pid= --ppid "${PIDS[$name]}")
            before="$(cpu_ticks "${pids[@]}")"
            run_wrk "$out" -t2 -c"$CONNS" -d"${DURATION}s" "$url" || die "wrk failed on $url"
            ticks=$(( $(cpu_ticks "${pids[@]}") - before ))
            rps="$(wrk_rps "$out")"
            cpu="$(awk -v t="$ticks" -v n="$(wrk_requests "$out")" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", t * 1e6 / hz / n }')"
            RESULTS[$name-$route]+="$rps req/s ($cpu µs CPU); "
            log "round $round: $name $route: $rps req/s, $cpu µs CPU per request, errors: $(wrk_errors "$out")"
        done
    done
done
for route in $ROUTES; do
    echo "/$route baseline: ${RESULTS[baseline-$route]}"
    echo "/$route current:  ${RESULTS[current-$route]}"
done
