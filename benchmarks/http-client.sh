#!/usr/bin/env bash
# Spindle's HTTP client, side by side in one run (issue 10):
#
#   bash benchmarks/http-client.sh                  # from anywhere
#   DURATION=20 N=5000 bash benchmarks/http-client.sh
#
# 1. A Laravel app (tests/fixtures/laravel-app, Laravel 8 from Debian) under `spindle serve
#    --workers=1`, wrk -t1 -c10, a route calling Http::get() on a local endpoint that answers
#    after 1 s (target >= 9.5 req/s), then a route calling file_get_contents() on it (same
#    target); each also with SPINDLE_HTTP_DRIVER=native / SPINDLE_URL_STREAMS=native (before).
# 2. N sequential keep-alive GETs to a local nginx: Guzzle + CurlHandler, Guzzle + Spindle's
#    handler, Spindle's client (target: Guzzle+Spindle <= 1.5x CurlHandler per request).
# 3. 200 concurrent GETs to a local endpoint that answers after 100 ms: Guzzle + CurlMultiHandler
#    (curl_multi) against Spindle (Guzzle handler, and plain fibers); target <= 0.4 s.
#
# Each in-process figure is the fastest of 3 rounds. The slow endpoints are tests/fixtures/http-client/server.php (non-blocking). Everything runs in
# one mktemp -d directory; the trap stops what the script started, by pid.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

DURATION="${DURATION:-10}"
N="${N:-2000}"
CONCURRENT="${CONCURRENT:-200}"
APP="$ROOT/tests/fixtures/laravel-app"

need_tools nginx wrk curl deb:php-laravel-framework deb:php-guzzlehttp-guzzle deb:php8.2-curl
NGINX_BIN="$(command -v nginx 2>/dev/null || echo /usr/sbin/nginx)"
[[ -d vendor ]] || composer install --no-interaction --no-progress --quiet
[[ -f "$APP/vendor/autoload.php" ]] || composer install --no-interaction --no-progress --quiet --working-dir="$APP"

make_tmp spindle-http-client-bench

# The remote: the fake server (1 s and 100 ms endpoints) and nginx (return 200 for keep-alive).
php tests/fixtures/http-client/server.php >"$TMP/remote.out" 2>&1 &
STARTED+=("remote:$!")
for _ in $(seq 50); do grep -q '^listening' "$TMP/remote.out" && break; sleep 0.1; done
REMOTE_PORT="$(awk '/^listening/ { print $2 }' "$TMP/remote.out")"
[[ -n "$REMOTE_PORT" ]] || die "the fake server did not start"
read -r NGINX_PORT <<<"$(free_ports 1)"
NGINX_USER_LINE=""
(( EUID == 0 )) && NGINX_USER_LINE="user root;"
write_nginx_conf text/plain "    server { listen 127.0.0.1:$NGINX_PORT; location / { return 200 \"Hello World\"; } }"
start_nginx
wait_for_body nginx "http://127.0.0.1:$NGINX_PORT/" "Hello World" "$NGINX_PID"

declare -A RPS
laravel_round() {   # laravel_round NAME ROUTE ENV...: one worker, wrk -t1 -c10 on ROUTE
    local name="$1" route="$2"
    shift 2
    spawn_spindle "spindle-$name" "Spindle ($name)" "$TMP/spindle-$name.log" 30 \
        env "$@" php "$ROOT/bin/spindle" serve "$APP" --host=127.0.0.1 --port=0 --workers=1
    local url="${SPINDLE_URL}http/$route?url=http%3A%2F%2F127.0.0.1%3A$REMOTE_PORT%2Fdelay%3Fms%3D1000"
    fetch_ready "$url" "$SPINDLE_PID" >/dev/null
    run_wrk "$TMP/wrk/$name.txt" -t1 -c10 -d"${DURATION}s" --timeout 30s "$url" || true
    RPS[$name]="$(wrk_rps "$TMP/wrk/$name.txt")"
    log "$name: ${RPS[$name]} req/s ($(wrk_errors "$TMP/wrk/$name.txt"))"
    stop_pid "spindle-$name" "$SPINDLE_PID"
}
laravel_round http-spindle get SPINDLE_HTTP_DRIVER=spindle
laravel_round http-native get SPINDLE_HTTP_DRIVER=native
laravel_round stream-spindle stream SPINDLE_URL_STREAMS=spindle
laravel_round stream-native stream SPINDLE_URL_STREAMS=native

log "keep-alive: $N sequential GETs to nginx"
php benchmarks/http-client.php keepalive "http://127.0.0.1:$NGINX_PORT/" "$N" >"$TMP/keepalive.jsonl"
log "concurrent: $CONCURRENT GETs to a 100 ms endpoint"
php benchmarks/http-client.php concurrent "http://127.0.0.1:$REMOTE_PORT/delay?ms=100" "$CONCURRENT" >"$TMP/concurrent.jsonl"

field() { php -r '$f = $argv[1]; foreach (file($argv[2]) as $l) { $d = json_decode($l, true); if ($d["name"] === $argv[3]) echo $d[$f]; }' "$1" "$2" "$3"; }
CURL_US="$(field us_per_request "$TMP/keepalive.jsonl" guzzle-curl)"
GS_US="$(field us_per_request "$TMP/keepalive.jsonl" guzzle-spindle)"
SC_US="$(field us_per_request "$TMP/keepalive.jsonl" spindle-client)"
SF_US="$(field us_per_request "$TMP/keepalive.jsonl" spindle-client-in-fiber)"
MULTI_S="$(field seconds "$TMP/concurrent.jsonl" guzzle-curl-multi)"
GSC_S="$(field seconds "$TMP/concurrent.jsonl" guzzle-spindle)"
FIB_S="$(field seconds "$TMP/concurrent.jsonl" spindle-fibers)"

REPORT="$(cat <<EOF
## HTTP client, $(date -u +%Y-%m-%d) ($(nproc) cores, $(cpu_model); PHP $(php -r 'echo PHP_VERSION;'))

Laravel fixture app, \`spindle serve --workers=1\`, wrk -t1 -c10 -d${DURATION}s, remote answers after 1 s (limit 10 req/s):

| route | Spindle | native (opt-out) | ratio |
| --- | ---: | ---: | ---: |
| \`Http::get()\` | ${RPS[http-spindle]} | ${RPS[http-native]} | $(ratio "${RPS[http-spindle]}" "${RPS[http-native]}") |
| \`file_get_contents('http://…')\` | ${RPS[stream-spindle]} | ${RPS[stream-native]} | $(ratio "${RPS[stream-spindle]}" "${RPS[stream-native]}") |

$N sequential keep-alive GETs to nginx, µs per request (lower is better):

| Guzzle + CurlHandler | Guzzle + SpindleHandler | Spindle client | Spindle client in a fiber | SpindleHandler / CurlHandler |
| ---: | ---: | ---: | ---: | ---: |
| $CURL_US | $GS_US | $SC_US | $SF_US | $(ratio "$GS_US" "$CURL_US") |

$CONCURRENT concurrent GETs to an endpoint that answers after 100 ms, seconds for all:

| Guzzle + CurlMultiHandler (curl_multi) | Guzzle + SpindleHandler | Spindle client, one fiber each |
| ---: | ---: | ---: |
| $MULTI_S | $GSC_S | $FIB_S |
EOF
)"
publish_report "$ROOT/benchmarks/results/http-client-$(date -u +%Y%m%d-%H%M%S).md"
