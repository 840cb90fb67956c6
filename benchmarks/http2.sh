#!/usr/bin/env bash
# HTTP/2 and TLS side by side on one server: the same app over HTTP/1.1, h2c (prior knowledge),
# h2 over TLS (ALPN) and HTTP/1.1 over TLS, all from one Spindle process per listener, and nginx's
# h2 with TLS in front of the plain Spindle; then TLS handshakes per second, Spindle against nginx.
#
#   bash benchmarks/http2.sh                         # the raw hello app and the blog's /hello
#   ROUNDS=3 REQUESTS=20000 bash benchmarks/http2.sh
#
# Env knobs:
#   ROUNDS      interleaved rounds; the report gives each target's median (default 3)
#   REQUESTS    requests per h2load run (default 20000; the blog gets a fifth)
#   WORKERS     Spindle workers (default 2); nginx runs as many worker processes
#   APPS        "hello blog" (default): examples/hello.php, examples/blog's /hello
#
# h2load is the client throughout (nghttp2-client): 10 clients x 10 streams for HTTP/2,
# 100 clients for HTTP/1.1 (one request at a time each), and for handshakes one request per
# connection. Everything it starts lives in one mktemp -d directory and is stopped by pid on exit.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
BENCH_NAME=http2.sh

ROUNDS="${ROUNDS:-3}"
REQUESTS="${REQUESTS:-20000}"
WORKERS="${WORKERS:-2}"
APPS="${APPS:-hello blog}"
need_tools nginx deb:nghttp2-client deb:openssl

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TMP="$(mktemp -d)"
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$TMP"
}
trap cleanup EXIT

openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost \
    -addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout "$TMP/key.pem" -out "$TMP/cert.pem" >/dev/null 2>&1
chmod 600 "$TMP/key.pem"

free_port() { php -r '$s = stream_socket_server("tcp://127.0.0.1:0"); echo explode(":", stream_socket_get_name($s, false))[1];'; }

# start_spindle APP_PATH PORT [options…]: serves and waits for the readiness line.
start_spindle() {
    local app="$1" port="$2"
    shift 2
    php "$ROOT/bin/spindle" serve "$app" --port="$port" --workers="$WORKERS" "$@" >"$TMP/spindle-$port.log" 2>&1 &
    PIDS+=($!)
    for _ in $(seq 1 200); do
        grep -q "Spindle listening on" "$TMP/spindle-$port.log" && return 0
        sleep 0.1
    done
    die "Spindle on $port did not start: $(cat "$TMP/spindle-$port.log")"
}

# rate ARGS…: requests per second h2load reports (0 when any request failed).
rate() {
    local out
    out="$(h2load "$@" 2>&1)"
    if ! grep -q ' 0 failed, 0 errored, 0 timeout' <<<"$out"; then
        # Failures are shown in the report, not hidden in a median.
        echo "failed($(sed -n 's/^requests: .* \([0-9]*\) failed.*/\1/p' <<<"$out"))"
        printf '%s\n' "$out" >>"$TMP/failures.log"
        return
    fi
    sed -n 's/^finished in .*, \([0-9.]*\) req\/s.*/\1/p' <<<"$out"
}

median() { grep -v failed | sort -n | awk '{a[NR]=$1} END {if (NR == 0) print "-"; else print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

declare -A RESULTS
for app in $APPS; do
    case "$app" in
        hello) app_path="$ROOT/examples/hello.php"; path=/; n="$REQUESTS" ;;
        blog)
            app_path="$ROOT/examples/blog"; path=/hello; n=$((REQUESTS / 5))
            [[ -d "$ROOT/examples/blog/vendor" ]] || composer install --no-interaction --no-progress --quiet --working-dir="$ROOT/examples/blog"
            ;;
        *) die "unknown app $app" ;;
    esac
    plain=$(free_port)
    start_spindle "$app_path" "$plain"
    tls=$(free_port)
    start_spindle "$app_path" "$tls" --tls-cert="$TMP/cert.pem" --tls-key="$TMP/key.pem" --max-connections=2048
    front=$(free_port)
    cat >"$TMP/nginx-$app.conf" <<EOF
worker_processes $WORKERS;
pid $TMP/nginx-$app.pid;
error_log $TMP/nginx-$app.error.log;
events { worker_connections 4096; }
http {
    access_log off;
    keepalive_requests 1000000;
    client_body_temp_path $TMP; proxy_temp_path $TMP; fastcgi_temp_path $TMP; uwsgi_temp_path $TMP; scgi_temp_path $TMP;
    upstream spindle { server 127.0.0.1:$plain; keepalive 64; }
    server {
        listen 127.0.0.1:$front ssl http2;
        ssl_certificate $TMP/cert.pem;
        ssl_certificate_key $TMP/key.pem;
        ssl_protocols TLSv1.2 TLSv1.3;
        location = /nginx-static { return 200 "ok\n"; }
        location / { proxy_pass http://spindle; proxy_http_version 1.1; proxy_set_header Connection ""; proxy_set_header Host \$host; }
    }
}
EOF
    nginx -c "$TMP/nginx-$app.conf" -g 'daemon off;' &
    PIDS+=($!)
    sleep 0.5
    for round in $(seq 1 "$ROUNDS"); do
        log "$app round $round"
        RESULTS["$app h1 plain"]+="$(rate --h1 -n "$n" -c 100 "http://127.0.0.1:$plain$path") "
        RESULTS["$app h2c"]+="$(rate -n "$n" -c 10 -m 10 "http://127.0.0.1:$plain$path") "
        RESULTS["$app h1 TLS"]+="$(rate --h1 -n "$n" -c 100 "https://127.0.0.1:$tls$path") "
        RESULTS["$app h2 TLS"]+="$(rate -n "$n" -c 10 -m 10 "https://127.0.0.1:$tls$path") "
        RESULTS["$app nginx h2 TLS in front"]+="$(rate -n "$n" -c 10 -m 10 "https://127.0.0.1:$front$path") "
        if [[ "$app" == hello ]]; then
            # A handshake per request: 1000 connections, one request each.
            RESULTS["handshakes Spindle"]+="$(rate -n 1000 -c 1000 -m 1 "https://127.0.0.1:$tls$path") "
            RESULTS["handshakes nginx"]+="$(rate -n 1000 -c 1000 -m 1 "https://127.0.0.1:$front/nginx-static") "
        fi
    done
done

[[ -s "$TMP/failures.log" ]] && { log "runs with failures:"; tail -40 "$TMP/failures.log" >&2; }
printf '\n%-32s %12s   %s\n' target 'median req/s' rounds
for key in "${!RESULTS[@]}"; do
    printf '%-32s %12s   %s\n' "$key" "$(tr ' ' '\n' <<<"${RESULTS[$key]}" | grep -v '^$' | median)" "${RESULTS[$key]}"
done | sort
