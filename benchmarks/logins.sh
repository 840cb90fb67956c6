#!/usr/bin/env bash
# Logins and /hello on the same servers: 24 JSON logins at once (SecurityBundle, bcrypt at cost 12)
# while 20 clients fetch /hello, on the Symfony 7.4 fixture (tests/fixtures/symfony74-app,
# config/packages/security.php), side by side:
#
#   spindle, 2 task workers   bin/spindle serve --workers=2 --task-workers=2: the hashing runs in
#                             the task workers (PasswordHashersPass), the workers keep serving
#   spindle, no task workers  --workers=2 --task-workers=0: each login holds its worker's loop
#   nginx + php-fpm           2 static children behind nginx (the kernel preempts a child that
#                             hashes, but a child that hashes serves nothing else meanwhile)
#
# For each: wrk -t1 -c20 --timeout 60s fetches /hello for DURATION seconds; one second in, 24 curl
# processes POST /login at once (every one must answer 200 with the user). The report gives /hello's
# req/s, p50 and p99 over the whole run, how many logins succeeded and when the last one ended.
# JIT and OPcache on both sides (the same -d settings). Everything listens on 127.0.0.1.
#
#   bash benchmarks/logins.sh              # DURATION=10 LOGINS=24 HELLO_CLIENTS=20
#
# Everything it starts lives in one mktemp -d directory and is stopped by pid on exit; the
# fixture's var/cache/bench* directories it builds are removed.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

DURATION="${DURATION:-10}"
LOGINS="${LOGINS:-24}"
HELLO_CLIENTS="${HELLO_CLIENTS:-20}"
APP="$ROOT/tests/fixtures/symfony74-app"
[[ "$DURATION" =~ ^[0-9]+$ && "$LOGINS" =~ ^[0-9]+$ && "$HELLO_CLIENTS" =~ ^[0-9]+$ ]] || die "DURATION, LOGINS and HELLO_CLIENTS must be whole numbers"
(( DURATION >= 3 )) || die "DURATION must be at least 3 (the logins start one second in)"

need_tools nginx fpm wrk curl
find_servers
[[ -f "$APP/vendor/autoload.php" ]] || { log "installing the fixture"; scripts/composer-fixture "$APP" install --no-progress --quiet; }
make_tmp spindle-logins
chmod 0711 "$TMP"
on_cleanup() { rm -rf "$APP/var/cache/benchspindle" "$APP/var/cache/benchfpm"; }
on_cleanup

PHP_ARGS=("${PHP_SHARED_ARGS[@]}")
LOGIN_BODY='{"username":"alice","password":"correct horse battery staple"}'

# --------------------------------------------------------------------------------------------
# One run: wrk on /hello, the logins one second in
# --------------------------------------------------------------------------------------------
ROWS=()
measure() {   # measure NAME BASE_URL
    local name="$1" url="$2" out="$TMP/$1" pids=() i ok=0 last=0 started
    mkdir -p "$out"
    # Warm-up: the kernels boot and the JIT compiles the hot paths (one login: the hasher's code).
    curl -s -o /dev/null --max-time 60 -X POST -H 'Content-Type: application/json' -d "$LOGIN_BODY" "${url}login" || true
    run_wrk "$out/warm" -t1 -c"$HELLO_CLIENTS" -d2s "${url}hello" || true

    wrk -t1 -c"$HELLO_CLIENTS" -d"${DURATION}s" --timeout 60s --latency "${url}hello" >"$out/wrk" 2>&1 &
    WRK_PID=$!
    sleep 1
    started="$(date +%s.%N)"
    for ((i = 0; i < LOGINS; i++)); do
        curl -s -o "$out/login-$i.json" -w '%{http_code} %{time_total}\n' --max-time 120 \
            -X POST -H 'Content-Type: application/json' -d "$LOGIN_BODY" "${url}login" >"$out/login-$i.status" 2>/dev/null &
        pids+=($!)
    done
    wait "${pids[@]}" || true
    last="$(awk -v s="$started" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }')"
    wait "$WRK_PID" || true
    WRK_PID=""
    for ((i = 0; i < LOGINS; i++)); do
        if [[ "$(cut -d' ' -f1 "$out/login-$i.status" 2>/dev/null)" == 200 ]] && grep -q '"user":"alice"' "$out/login-$i.json" 2>/dev/null; then
            ok=$((ok + 1))
        fi
    done
    local p50
    p50="$(awk '$1 == "50%" { print $2; exit }' "$out/wrk")"
    ROWS+=("| $name | $(wrk_rps "$out/wrk") | ${p50:-?} | $(wrk_p99 "$out/wrk") | $ok / $LOGINS | ${last} s | $(wrk_errors "$out/wrk") |")
    log "$name: /hello $(wrk_rps "$out/wrk") req/s, p99 $(wrk_p99 "$out/wrk"); logins $ok/$LOGINS in $last s"
}

# --------------------------------------------------------------------------------------------
# Spindle, with and without task workers
# --------------------------------------------------------------------------------------------
run_spindle() {   # run_spindle NAME TASK_WORKERS
    spawn_spindle "$1" "Spindle ($1)" "$TMP/$1.log" 60 \
        env APP_ENV=benchspindle APP_DEBUG=0 php "${PHP_ARGS[@]}" bin/spindle serve "$APP" \
        --host=127.0.0.1 --port=0 --workers=2 --task-workers="$2" --request-timeout=300
    fetch_ready "${SPINDLE_URL}hello" "$SPINDLE_PID" >/dev/null
    measure "$1" "$SPINDLE_URL"
    stop_started
}
run_spindle "spindle, 2 task workers" 2
run_spindle "spindle, no task workers" 0

# --------------------------------------------------------------------------------------------
# nginx + php-fpm, 2 children
# --------------------------------------------------------------------------------------------
fpm_php_ini
{
    fpm_global_conf
    fpm_static_pool app 2 "$TMP/app.sock"
    echo 'env[APP_ENV] = "benchfpm"'
    echo 'env[APP_DEBUG] = "0"'
    echo 'request_terminate_timeout = 300'
} >"$TMP/php-fpm.conf"
start_fpm "${PHP_ARGS[@]}"
read -r PORT_FPM < <(free_ports 1)
write_nginx_conf text/plain "$(cat <<EOF
    upstream app { server unix:$TMP/app.sock; }
    server {
        listen 127.0.0.1:$PORT_FPM;
        root $APP/public;
        location / {
            fastcgi_pass app;
            include /etc/nginx/fastcgi_params;
            fastcgi_param SCRIPT_FILENAME $APP/public/index.php;
            fastcgi_param SCRIPT_NAME     /index.php;
            fastcgi_read_timeout 300s;
        }
    }
EOF
)"
start_nginx
wait_for_body "nginx + php-fpm" "http://127.0.0.1:$PORT_FPM/hello" "Hello World" "$NGINX_PID"
measure "nginx + php-fpm, 2 children" "http://127.0.0.1:$PORT_FPM/"

echo
echo "## $LOGINS logins at once (bcrypt cost 12) while $HELLO_CLIENTS clients fetch /hello (wrk -t1 -c$HELLO_CLIENTS -d${DURATION}s)"
echo
echo "$(date -u +%Y-%m-%dT%H:%M:%SZ); $(nproc) cores ($(cpu_model)); PHP $(php -r 'echo PHP_VERSION;'); load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| server | /hello req/s | /hello p50 | /hello p99 | logins ok | last login ended after | wrk errors |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | --- |"
printf '%s\n' "${ROWS[@]}"
