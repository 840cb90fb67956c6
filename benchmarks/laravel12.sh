#!/usr/bin/env bash
# The Laravel 12 fixture app (tests/fixtures/laravel12-app) under nginx + php-fpm against Spindle,
# side by side in one run, with the plumbing of benchmarks/lib.sh.
#
#   bash benchmarks/laravel12.sh                     # from the repository root
#   DURATION=20 ROUNDS=2 bash benchmarks/laravel12.sh
#
# Targets (the same app directory for both servers):
#   /hello                  nginx + php-fpm (pm=static, 2 children) against `spindle serve
#                           --workers=2`, wrk -t2 -c$CONNS
#   /sleep (SELECT SLEEP(1)) php-fpm with 1 child against `spindle serve --workers=1`, wrk -t1 -c10
#
# Env knobs: DURATION (seconds per run, default 10), ROUNDS (best of, default 1), WARMUP (default
# 2), CONNS (default 32), SLEEP_CONNS (default 10), SPINDLE_BIN (default bin/spindle).
# Everything it starts lives in one mktemp -d directory and is stopped by pid on exit.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

DURATION="${DURATION:-10}"
ROUNDS="${ROUNDS:-1}"
WARMUP="${WARMUP:-2}"
CONNS="${CONNS:-32}"
SLEEP_CONNS="${SLEEP_CONNS:-10}"
SPINDLE_BIN="${SPINDLE_BIN:-bin/spindle}"
APP="$ROOT/tests/fixtures/laravel12-app"

need_tools nginx fpm wrk curl deb:php8.2-mysql
find_servers
[[ -f "$APP/vendor/autoload.php" ]] || { log "installing the fixture"; scripts/composer-fixture "$APP" install --no-progress --quiet; }

make_tmp spindle-laravel12-bench
chmod 0711 "$TMP"
mkdir -p "$TMP/cache" "$TMP/views"
use_mariadb
declare -A APP_ENV_VARS=(
    [APP_ENV]=production [APP_DEBUG]=false [LOG_LEVEL]=warning [SESSION_DRIVER]=cookie
    [VIEW_COMPILED_PATH]="$TMP/views" [APP_CONFIG_CACHE]="$TMP/cache/config.php"
    [APP_ROUTES_CACHE]="$TMP/cache/routes.php" [APP_EVENTS_CACHE]="$TMP/cache/events.php"
    [APP_PACKAGES_CACHE]="$TMP/cache/packages.php" [APP_SERVICES_CACHE]="$TMP/cache/services.php"
    [DB_HOST]="$MYSQL_HOST" [DB_PORT]="$MYSQL_PORT" [DB_DATABASE]="$MYSQL_DATABASE"
    [DB_USERNAME]="$MYSQL_USER" [DB_PASSWORD]="$MYSQL_PASSWORD"
)
ENV_ARGS=()
for k in "${!APP_ENV_VARS[@]}"; do ENV_ARGS+=("$k=${APP_ENV_VARS[$k]}"); done
# As a production deploy does: `php artisan optimize` (config, events, routes, views cached).
env "${ENV_ARGS[@]}" php "$APP/artisan" optimize --no-interaction >/dev/null

SPINDLE_PHP_ARGS=("${PHP_SHARED_ARGS[@]}")
fpm_php_ini
fpm_pool() {    # fpm_pool NAME CHILDREN
    fpm_static_pool "$1" "$2" "$TMP/$1.sock"
    for k in "${!APP_ENV_VARS[@]}"; do echo "env[$k] = \"${APP_ENV_VARS[$k]}\""; done
}
{ fpm_global_conf; fpm_pool fpm2 2; fpm_pool fpm1 1; } > "$TMP/php-fpm.conf"
start_fpm "${PHP_SHARED_ARGS[@]}"
read -r PORT_FPM2 PORT_FPM1 < <(free_ports 2)
fastcgi_server() {   # fastcgi_server PORT UPSTREAM
    cat <<CONF
    server {
        listen 127.0.0.1:$1;
        root $APP/public;
        location / {
            fastcgi_pass $2;
            include /etc/nginx/fastcgi_params;
            fastcgi_param SCRIPT_FILENAME $APP/public/index.php;
            fastcgi_param SCRIPT_NAME     /index.php;
            fastcgi_read_timeout 120s;
        }
    }
CONF
}
write_nginx_conf text/plain "$(printf '    upstream fpm2 { server unix:%s; }\n    upstream fpm1 { server unix:%s; }\n%s\n%s\n' \
    "$TMP/fpm2.sock" "$TMP/fpm1.sock" "$(fastcgi_server "$PORT_FPM2" fpm2)" "$(fastcgi_server "$PORT_FPM1" fpm1)")"
start_nginx

spawn_spindle spindle-w2 "Spindle (2 workers)" "$TMP/spindle-w2.log" 30 \
    env "${ENV_ARGS[@]}" php "${SPINDLE_PHP_ARGS[@]}" "$SPINDLE_BIN" serve "$APP" --port=0 --workers=2
PORT_SPINDLE2="$SPINDLE_PORT"; PID_SPINDLE2="$SPINDLE_PID"
spawn_spindle spindle-w1 "Spindle (1 worker)" "$TMP/spindle-w1.log" 30 \
    env "${ENV_ARGS[@]}" php "${SPINDLE_PHP_ARGS[@]}" "$SPINDLE_BIN" serve "$APP" --port=0 --workers=1
PORT_SPINDLE1="$SPINDLE_PORT"
for port in "$PORT_FPM2" "$PORT_FPM1" "$PORT_SPINDLE2" "$PORT_SPINDLE1"; do
    wait_for_body "port $port" "http://127.0.0.1:$port/hello" "Hello from Laravel" "$([[ $port == "$PORT_SPINDLE2" ]] && echo "$PID_SPINDLE2" || echo "$FPM_PID")"
done
for port in "$PORT_FPM1" "$PORT_SPINDLE1"; do
    body="$(curl -s --max-time 10 "http://127.0.0.1:$port/sleep")"
    [[ "$body" == *'"in_flight":1'* ]] || { dump_logs 30; die "/sleep on port $port answered '$body'"; }
done

TARGETS=(
    "fpm-hello|/hello|nginx + php-fpm, 2 children|http://127.0.0.1:$PORT_FPM2/hello|2|$CONNS"
    "spindle-hello|/hello|Spindle, 2 workers|http://127.0.0.1:$PORT_SPINDLE2/hello|2|$CONNS"
    "fpm-sleep|/sleep|nginx + php-fpm, 1 child|http://127.0.0.1:$PORT_FPM1/sleep|1|$SLEEP_CONNS"
    "spindle-sleep|/sleep|Spindle, 1 worker|http://127.0.0.1:$PORT_SPINDLE1/sleep|1|$SLEEP_CONNS"
)
for ((round = 1; round <= ROUNDS; round++)); do
    for t in "${TARGETS[@]}"; do
        IFS='|' read -r key path label url threads conns <<<"$t"
        duration="$DURATION"
        if [[ "$key" == *sleep ]]; then
            # One wave of concurrent requests as warm-up (Spindle boots its instances), then at
            # least 20 s: wrk drops each connection's last, unfinished second.
            warm=()
            for ((i = 0; i < conns; i++)); do curl -s -o /dev/null --max-time 60 "$url" & warm+=($!); done
            wait "${warm[@]}" || true
            (( duration < 20 )) && duration=20
        elif (( WARMUP > 0 )); then
            run_wrk /dev/null -t"$threads" -c"$conns" -d"${WARMUP}s" "$url" || true
        fi
        out="$TMP/wrk/$key-round$round.txt"
        log "round $round/$ROUNDS: $label $path: wrk -t$threads -c$conns -d${duration}s"
        run_wrk "$out" -t"$threads" -c"$conns" --timeout 30s -d"${duration}s" --latency "$url" || { cat "$out" >&2; die "wrk failed for $key"; }
        log "  $(wrk_rps "$out") req/s, latency avg $(wrk_latency "$out"), p99 $(wrk_p99 "$out"), errors: $(wrk_errors "$out")"
        keep_best "$key" "$out" || true
    done
done

report() {
    echo "# Laravel 12 fixture app: nginx + php-fpm against Spindle"
    echo
    echo "- date: $(date -Iseconds); nproc $(nproc); CPU: $(cpu_model)"
    echo "- PHP $(php -r 'echo PHP_VERSION;'); Laravel $(env "${ENV_ARGS[@]}" php "$APP/artisan" --version --no-ansi | awk '{print $NF}'); MariaDB for /sleep"
    echo "- \`php artisan optimize\` caches; the same OPcache/JIT settings for both; wrk --timeout 30s, ${DURATION}s per run (/sleep at least 20 s), best of $ROUNDS"
    echo
    echo "| route | nginx + php-fpm req/s | Spindle req/s | Spindle / fpm | fpm latency avg / p99 | Spindle latency avg / p99 | errors (fpm; Spindle) |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: | --- |"
    local route
    for route in hello sleep; do
        local path="/hello (2 children / 2 workers, $CONNS connections)"
        [[ "$route" == sleep ]] && path="/sleep (1 child / 1 worker, $SLEEP_CONNS connections)"
        printf '| %s | %s | %s | %s | %s / %s | %s / %s | %s; %s |\n' "$path" \
            "${BEST_RPS[fpm-$route]}" "${BEST_RPS[spindle-$route]}" "$(ratio "${BEST_RPS[spindle-$route]}" "${BEST_RPS[fpm-$route]}" 1)" \
            "${BEST_LAT[fpm-$route]}" "${BEST_P99[fpm-$route]}" "${BEST_LAT[spindle-$route]}" "${BEST_P99[spindle-$route]}" \
            "${BEST_ERR[fpm-$route]}" "${BEST_ERR[spindle-$route]}"
    done
}
REPORT="$(report)"
publish_report "$ROOT/benchmarks/results/laravel12-$(date +%Y-%m-%d-%H%M%S).md"
