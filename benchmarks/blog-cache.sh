#!/usr/bin/env bash
# The blog's /posts (examples/blog: 4 queries and a Blade view per request) against the same page
# with its data in a cache, side by side on one Spindle server (--workers=2, SQLite):
#
#   /posts                 no cache
#   /posts-cached          the cache all workers share (store `spindle`: shmop, or APCu with APCU=1)
#   /posts-cached/file     Laravel's file store (storage/framework/cache in a temp dir)
#   /posts-cached/redis    Laravel's Redis store on a private redis-server (when redis-server exists)
#
#   bash benchmarks/blog-cache.sh                     # DURATION=10 CONNS=32
#   APCU=1 DURATION=5 bash benchmarks/blog-cache.sh   # the shared cache on APCu (apc.enable_cli=1)
#
# Everything it starts lives in one mktemp -d directory and is stopped by pid on exit.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

DURATION="${DURATION:-10}"
WARMUP="${WARMUP:-2}"
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

printf '\n%-22s %12s %10s %10s  %s\n' route req/s latency p99 errors
declare -A RPS
for route in "${routes[@]}"; do
    run_wrk "$TMP/wrk/warm" -t2 -c"$CONNS" -d"${WARMUP}s" "${SPINDLE_URL%/}$route" || true
    run_wrk "$TMP/wrk/run" -t2 -c"$CONNS" -d"${DURATION}s" --latency "${SPINDLE_URL%/}$route"
    RPS[$route]="$(wrk_rps "$TMP/wrk/run")"
    printf '%-22s %12s %10s %10s  %s\n' "$route" "${RPS[$route]}" "$(wrk_latency "$TMP/wrk/run")" "$(wrk_p99 "$TMP/wrk/run")" "$(wrk_errors "$TMP/wrk/run")"
done
echo
if (( APCU )); then echo "shared cache backend: apcu"; else echo "shared cache backend: shm"; fi
for route in "${routes[@]:1}"; do
    echo "$route / /posts: $(ratio "${RPS[$route]}" "${RPS[/posts]}")"
done
