#!/usr/bin/env bash
# The blog's /posts (examples/blog: 4 queries and a Blade view per request) against the same page
# with its list of posts rendered once and kept in a cache (App\Blog\NewestPosts), side by side on
# one Spindle server (--workers=2, SQLite):
#
#   /posts                 no cache
#   /posts-cached          the cache all workers share (store `spindle`: shmop, or APCu with APCU=1)
#   /posts-cached/file     Laravel's file store (storage/framework/cache in a temp dir)
#   /posts-cached/redis    Laravel's Redis store on a private redis-server (when redis-server exists)
#
# ROUNDS rounds, each running every route once in turn (interleaved, so that load from other jobs
# falls on all of them alike, each round starting one route further on); the table gives each
# route's median req/s over the rounds.
#
#   bash benchmarks/blog-cache.sh                                # ROUNDS=3 DURATION=5 CONNS=32
#   APCU=1 ROUNDS=5 DURATION=3 bash benchmarks/blog-cache.sh     # the shared cache on APCu (apc.enable_cli=1)
#
# Everything it starts lives in one mktemp -d directory and is stopped by pid on exit.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

DURATION="${DURATION:-5}"
WARMUP="${WARMUP:-2}"
ROUNDS="${ROUNDS:-3}"
CONNS="${CONNS:-32}"
APCU="${APCU:-0}"
BLOG="$ROOT/examples/blog"

need_tools wrk curl deb:php-laravel-framework deb:php8.2-sqlite3
[[ -d vendor ]] || composer install --no-interaction --no-progress --quiet
[[ -f "$BLOG/vendor/autoload.php" ]] || composer install --no-interaction --no-progress --quiet --working-dir="$BLOG"

make_tmp spindle-blog-cache
mkdir -p "$TMP/views" "$TMP/cache"
export APP_ENV=production APP_DEBUG=false LOG_CHANNEL=stderr LOG_LEVEL=warning SESSION_DRIVER=cookie \
    CACHE_DRIVER=array DB_CONNECTION=sqlite DB_DATABASE="$TMP/blog.sqlite" DB_PREFIX= \
    VIEW_COMPILED_PATH="$TMP/views" APP_CONFIG_CACHE="$TMP/cache/config.php" APP_ROUTES_CACHE="$TMP/cache/routes.php"
APP_KEY="base64:$(php -r 'echo base64_encode(random_bytes(32));')"
export APP_KEY
touch "$DB_DATABASE"
log "seeding the blog (SQLite, 10,000 posts)"
php "$BLOG/artisan" blog:seed >/dev/null

routes=(/posts /posts-cached /posts-cached/file)
if command -v redis-server >/dev/null; then
    REDIS_PORT="$(free_ports 1)"
    redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --dir "$TMP" >"$TMP/redis.log" 2>&1 &
    STARTED+=("redis:$!")
    export REDIS_HOST=127.0.0.1 REDIS_PORT REDIS_CLIENT=phpredis
    routes+=(/posts-cached/redis)
fi

php_args=(-d opcache.enable_cli=1 -d opcache.jit=tracing -d opcache.jit_buffer_size=64M)
(( APCU )) && php_args+=(-d apc.enable_cli=1)
spawn_spindle spindle "Spindle" "$TMP/spindle.log" 30 \
    php "${php_args[@]}" bin/spindle serve "$BLOG" --port=0 --workers=2
for route in "${routes[@]}"; do
    fetch_ready "${SPINDLE_URL%/}$route" "$SPINDLE_PID" >/dev/null
done

for route in "${routes[@]}"; do
    run_wrk "$TMP/wrk/warm" -t2 -c"$CONNS" -d"${WARMUP}s" "${SPINDLE_URL%/}$route" || true
done

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print ""; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
declare -A RUNS P99S ERRORS
for ((round = 1; round <= ROUNDS; round++)); do
    line="round $round:"
    # Each round starts one route further on, so that no route always follows /posts (whose
    # queued requests the server still answers for a moment after wrk stops), and a pause of
    # a second lets the workers finish those before the next run.
    n=${#routes[@]}
    for ((i = 0; i < n; i++)); do
        route="${routes[$(((i + round - 1) % n))]}"
        sleep 1
        run_wrk "$TMP/wrk/run" -t2 -c"$CONNS" -d"${DURATION}s" --latency "${SPINDLE_URL%/}$route"
        rps="$(wrk_rps "$TMP/wrk/run")"
        RUNS[$route]+="$rps "
        P99S[$route]+="$(wrk_p99 "$TMP/wrk/run") "
        errors="$(wrk_errors "$TMP/wrk/run")"
        [[ "$errors" == none ]] || ERRORS[$route]+="round $round: $errors; "
        line+=" $route $rps"
    done
    log "$line"
done

printf '\n%-22s %12s  %-28s %s\n' route 'median req/s' 'p99 per round' errors
declare -A RPS
for route in "${routes[@]}"; do
    RPS[$route]="$(tr ' ' '\n' <<<"${RUNS[$route]}" | grep . | median)"
    printf '%-22s %12s  %-28s %s\n' "$route" "${RPS[$route]}" "${P99S[$route]% }" "${ERRORS[$route]:-none}"
done
echo
if (( APCU )); then echo "shared cache backend: apcu"; else echo "shared cache backend: shm"; fi
echo "rounds: $ROUNDS x ${DURATION} s per route, wrk -t2 -c$CONNS"
for route in "${routes[@]:1}"; do
    echo "$route / /posts: $(ratio "${RPS[$route]}" "${RPS[/posts]}")"
done
for route in "${routes[@]:2}"; do
    echo "/posts-cached / $route: $(ratio "${RPS[/posts-cached]}" "${RPS[$route]}")"
done
