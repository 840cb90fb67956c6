#!/usr/bin/env bash
# HTTP throughput benchmark: Spindle against nginx and nginx + php-fpm on this machine.
#
#   bash benchmarks/http.sh                      # from the repository root
#   DURATION=30 ROUNDS=3 bash benchmarks/http.sh
#
# Env knobs (see benchmarks/README.md):
#   DURATION      seconds per wrk run (default 10)
#   ROUNDS        repeat the whole sequence N times, report the best round per target (default 1)
#   WARMUP        seconds of unrecorded wrk load per target before each measured run (default 1, 0 = none)
#   SKIP_SPINDLE  1 = do not start or measure Spindle (debugging knob for the nginx/php-fpm part)
#   SPINDLE_BIN   the Spindle CLI to run (default bin/spindle)
#   SPINDLE_PHP_ARGS  extra php CLI flags for Spindle, e.g. "-d opcache.enable_cli=1" (default none)
#   PHP_FPM_BIN   php-fpm binary (default: php-fpm8.2 from PATH or /usr/sbin)
#   FPM_KEEP_CONN 1 = nginx keeps FastCGI connections to php-fpm open (default), 0 = one per request
#
# Everything it starts (nginx, php-fpm, Spindle) lives in one mktemp -d directory: configs, pid
# files, logs and sockets. Nothing under /etc is written and no system service is touched. On exit
# the trap stops exactly the processes this script started and removes the directory.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

DURATION="${DURATION:-10}"
ROUNDS="${ROUNDS:-1}"
WARMUP="${WARMUP:-1}"
SKIP_SPINDLE="${SKIP_SPINDLE:-0}"
SPINDLE_BIN="${SPINDLE_BIN:-bin/spindle}"
read -r -a SPINDLE_PHP_ARGS <<<"${SPINDLE_PHP_ARGS:-}"
FPM_KEEP_CONN="${FPM_KEEP_CONN:-1}"
CONNS=64          # wrk connections for the hello targets
DELAY_CONNS=50    # wrk connections for the delay app (limit = 50 / 0.1 s = 500 req/s)
DELAY_SECONDS=0.1

for n in "$DURATION" "$ROUNDS" "$WARMUP"; do
    [[ "$n" =~ ^[0-9]+$ ]] || { echo "DURATION, ROUNDS and WARMUP must be whole numbers" >&2; exit 2; }
done
(( DURATION > 0 && ROUNDS > 0 )) || { echo "DURATION and ROUNDS must be > 0" >&2; exit 2; }

log() { printf '[http.sh] %s\n' "$*" >&2; }
die() { printf '[http.sh] ERROR: %s\n' "$*" >&2; exit 1; }

# --------------------------------------------------------------------------------------------
# 1. Tools
# --------------------------------------------------------------------------------------------
find_fpm() {
    if [[ -n "${PHP_FPM_BIN:-}" ]]; then echo "$PHP_FPM_BIN"; return; fi
    command -v php-fpm8.2 2>/dev/null && return
    [[ -x /usr/sbin/php-fpm8.2 ]] && { echo /usr/sbin/php-fpm8.2; return; }
    return 1
}

apt_install() {
    local sudo=()
    (( EUID == 0 )) || sudo=(sudo)
    log "installing: $*"
    if ! "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@"; then
        log "apt-get install failed; running apt-get update and retrying"
        "${sudo[@]}" apt-get update
        "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@"
    fi
}

missing=()
command -v nginx >/dev/null 2>&1 || [[ -x /usr/sbin/nginx ]] || missing+=(nginx)
find_fpm >/dev/null 2>&1 || missing+=(php8.2-fpm)
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
command -v curl >/dev/null 2>&1 || missing+=(curl)
(( ${#missing[@]} == 0 )) || apt_install "${missing[@]}"

NGINX_BIN="$(command -v nginx 2>/dev/null || echo /usr/sbin/nginx)"
FPM_BIN="$(find_fpm)" || die "php-fpm8.2 not found"
command -v wrk >/dev/null 2>&1 || die "wrk not found"
command -v php >/dev/null 2>&1 || die "php (CLI) not found"

if [[ ! -d vendor ]]; then
    log "vendor/ missing: composer install"
    composer install --no-interaction --no-progress
fi

# --------------------------------------------------------------------------------------------
# 2. Temp dir + cleanup
# --------------------------------------------------------------------------------------------
TMP="$(mktemp -d "${TMPDIR:-/tmp}/spindle-http-bench.XXXXXX")"
STARTED=()        # "name:pid" of every process this script started
WRK_PID=""        # the wrk run in progress, if any

stop_pid() {      # stop_pid NAME PID: TERM, wait up to 10 s, then KILL the pid and its children
    local name="$1" pid="$2" children i state
    [[ -e "/proc/$pid" ]] || return 0
    children="$(ps -o pid= --ppid "$pid" 2>/dev/null | tr -s ' \n' ' ' || true)"
    kill -TERM "$pid" 2>/dev/null || return 0
    for ((i = 0; i < 100; i++)); do
        state="$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null || echo gone)"
        [[ "$state" == gone || "$state" == Z ]] && return 0
        sleep 0.1
    done
    log "$name (pid $pid) ignored SIGTERM for 10 s; sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    for i in $children; do kill -KILL "$i" 2>/dev/null || true; done
}

cleanup() {
    local rc=$? entry
    trap - EXIT INT TERM
    [[ -n "$WRK_PID" ]] && kill -TERM "$WRK_PID" 2>/dev/null
    # Stop in reverse start order.
    for ((i = ${#STARTED[@]} - 1; i >= 0; i--)); do
        entry="${STARTED[$i]}"
        stop_pid "${entry%%:*}" "${entry##*:}"
    done
    rm -rf "$TMP"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mkdir -p "$TMP/nginx-tmp" "$TMP/wrk"

# Free ports: bind port 0 several times at once (so they differ) and print what the kernel chose.
read -r PORT_NGINX PORT_FPM2 PORT_FPM8 < <(php -r '
    $s = []; $p = [];
    for ($i = 0; $i < 3; $i++) {
        $s[$i] = stream_socket_server("tcp://127.0.0.1:0", $errno, $errstr) or exit(1);
        $name = stream_socket_get_name($s[$i], false);
        $p[] = substr($name, strrpos($name, ":") + 1);
    }
    echo implode(" ", $p), "\n";')
[[ -n "${PORT_FPM8:-}" ]] || die "could not pick free ports"

# --------------------------------------------------------------------------------------------
# 3b. php-fpm: one master, two static pools (2 and 8 children) on unix sockets
# --------------------------------------------------------------------------------------------
FPM_SCRIPT="$ROOT/benchmarks/apps/fpm-hello.php"
[[ -r "$FPM_SCRIPT" ]] || die "$FPM_SCRIPT missing"

# php.ini for php-fpm (replaces /etc/php/8.2/fpm/php.ini; the conf.d scan dir still loads the
# usual extensions). OPcache is loaded there on Debian; load it here only if it is not.
{
    echo "; php.ini for the benchmark's php-fpm (generated by benchmarks/http.sh)"
    echo "memory_limit = 128M"
    echo "output_buffering = 4096"
    echo "expose_php = Off"
    echo "error_log = $TMP/php-fpm-php-errors.log"
    echo "opcache.enable = 1"
    echo "opcache.validate_timestamps = 0"
    echo "opcache.memory_consumption = 64"
    # The same JIT as bin/spindle gives itself, so that both sides run the same engine settings.
    echo "opcache.jit = tracing"
    echo "opcache.jit_buffer_size = 64M"
} > "$TMP/php.ini"
if ! "$FPM_BIN" -c "$TMP/php.ini" -m 2>/dev/null | grep -qx 'Zend OPcache'; then
    sed -i '1a zend_extension = opcache.so' "$TMP/php.ini"
fi
"$FPM_BIN" -c "$TMP/php.ini" -m 2>/dev/null | grep -qx 'Zend OPcache' || die "php-fpm cannot load OPcache"

FPM_ROOT_ARGS=()
FPM_USER_LINES=""
if (( EUID == 0 )); then
    # php-fpm refuses to run workers as root unless told to; the sockets live in a 0700 temp dir
    # owned by root, so both nginx and the fpm workers run as root here.
    FPM_ROOT_ARGS=(-R)
    FPM_USER_LINES=$'user = root\ngroup = root'
fi

fpm_pool() {    # fpm_pool NAME CHILDREN
    cat <<EOF
[$1]
$FPM_USER_LINES
listen = $TMP/$1.sock
listen.mode = 0600
pm = static
pm.max_children = $2
pm.max_requests = 0
catch_workers_output = yes
clear_env = yes
EOF
}
{
    cat <<EOF
[global]
pid = $TMP/php-fpm.pid
error_log = $TMP/php-fpm.log
log_level = notice
daemonize = no
EOF
    fpm_pool fpm2 2
    fpm_pool fpm8 8
} > "$TMP/php-fpm.conf"

"$FPM_BIN" -t -c "$TMP/php.ini" -y "$TMP/php-fpm.conf" "${FPM_ROOT_ARGS[@]}" >"$TMP/php-fpm-test.log" 2>&1 \
    || { cat "$TMP/php-fpm-test.log" >&2; die "php-fpm config test failed"; }
"$FPM_BIN" -F -c "$TMP/php.ini" -y "$TMP/php-fpm.conf" "${FPM_ROOT_ARGS[@]}" >"$TMP/php-fpm.out" 2>&1 &
STARTED+=("php-fpm:$!")
FPM_PID=$!

# --------------------------------------------------------------------------------------------
# 3a. nginx: static "return 200" server + the two FastCGI fronts of 3b
# --------------------------------------------------------------------------------------------
# Persistent FastCGI connections nginx -> php-fpm (fastcgi_keep_conn + upstream keepalive).
# php-fpm binds a child to a kept-alive connection until nginx closes it, so when nginx has more
# connections open than the pool has children, the extra ones wait in the socket backlog: higher
# req/s, but a bimodal latency (see benchmarks/README.md). The idle cache per nginx worker is
# sized so that 2 workers cache at most as many connections as the pool has children.
if [[ "$FPM_KEEP_CONN" == 1 ]]; then
    FPM_KEEP_CONN_NGX=on; FPM2_KEEPALIVE="keepalive 1;"; FPM8_KEEPALIVE="keepalive 4;"
else
    FPM_KEEP_CONN_NGX=off; FPM2_KEEPALIVE=""; FPM8_KEEPALIVE=""
fi
NGINX_USER_LINE=""
(( EUID == 0 )) && NGINX_USER_LINE="user root;"   # workers must reach the sockets in the 0700 temp dir

fastcgi_location() {   # fastcgi_location UPSTREAM
    cat <<EOF
        location / {
            fastcgi_pass $1;
            fastcgi_keep_conn $FPM_KEEP_CONN_NGX;
            fastcgi_param SCRIPT_FILENAME   $FPM_SCRIPT;
            fastcgi_param SCRIPT_NAME       /fpm-hello.php;
            fastcgi_param QUERY_STRING      \$query_string;
            fastcgi_param REQUEST_METHOD    \$request_method;
            fastcgi_param CONTENT_TYPE      \$content_type;
            fastcgi_param CONTENT_LENGTH    \$content_length;
            fastcgi_param REQUEST_URI       \$request_uri;
            fastcgi_param DOCUMENT_URI      \$document_uri;
            fastcgi_param DOCUMENT_ROOT     $ROOT/benchmarks/apps;
            fastcgi_param SERVER_PROTOCOL   \$server_protocol;
            fastcgi_param GATEWAY_INTERFACE CGI/1.1;
            fastcgi_param SERVER_SOFTWARE   nginx;
            fastcgi_param REMOTE_ADDR       \$remote_addr;
            fastcgi_param REMOTE_PORT       \$remote_port;
            fastcgi_param SERVER_ADDR       \$server_addr;
            fastcgi_param SERVER_PORT       \$server_port;
            fastcgi_param SERVER_NAME       \$server_name;
        }
EOF
}

cat > "$TMP/nginx.conf" <<EOF
# generated by benchmarks/http.sh
$NGINX_USER_LINE
worker_processes 2;
daemon off;
master_process on;
pid $TMP/nginx.pid;
lock_file $TMP/nginx.lock;
error_log $TMP/nginx-error.log warn;

events {
    worker_connections 4096;
}

http {
    default_type text/plain;
    access_log off;
    keepalive_requests 100000;
    keepalive_timeout 65s;
    server_tokens off;
    client_body_temp_path $TMP/nginx-tmp/body;
    fastcgi_temp_path     $TMP/nginx-tmp/fastcgi;
    proxy_temp_path       $TMP/nginx-tmp/proxy;
    scgi_temp_path        $TMP/nginx-tmp/scgi;
    uwsgi_temp_path       $TMP/nginx-tmp/uwsgi;

    # FPM_KEEP_CONN=$FPM_KEEP_CONN: idle upstream connections cached per nginx worker
    # (2 workers x 1 = 2 children; 2 workers x 4 = 8 children).
    upstream fpm2 {
        server unix:$TMP/fpm2.sock;
        $FPM2_KEEPALIVE
    }
    upstream fpm8 {
        server unix:$TMP/fpm8.sock;
        $FPM8_KEEPALIVE
    }

    server {
        listen 127.0.0.1:$PORT_NGINX;
        location / {
            return 200 "Hello World";
        }
    }
    server {
        listen 127.0.0.1:$PORT_FPM2;
$(fastcgi_location fpm2)
    }
    server {
        listen 127.0.0.1:$PORT_FPM8;
$(fastcgi_location fpm8)
    }
}
EOF

"$NGINX_BIN" -t -p "$TMP" -e "$TMP/nginx-error.log" -c "$TMP/nginx.conf" >"$TMP/nginx-test.log" 2>&1 \
    || { cat "$TMP/nginx-test.log" >&2; die "nginx config test failed"; }
"$NGINX_BIN" -p "$TMP" -e "$TMP/nginx-error.log" -c "$TMP/nginx.conf" >"$TMP/nginx.out" 2>&1 &
STARTED+=("nginx:$!")
NGINX_PID=$!

# --------------------------------------------------------------------------------------------
# 3c. Spindle: hello app and delay app, 2 workers each
# --------------------------------------------------------------------------------------------
# start_spindle NAME APP: starts it, waits (at most 20 s) for the "Spindle listening on" line,
# and sets SPINDLE_PORT.
start_spindle() {
    local name="$1" app="$2" out="$TMP/spindle-$1.log" pid line i
    php ${SPINDLE_PHP_ARGS[@]+"${SPINDLE_PHP_ARGS[@]}"} "$SPINDLE_BIN" serve "$app" --host=127.0.0.1 --port=0 --workers=2 >"$out" 2>&1 &
    pid=$!
    STARTED+=("spindle-$name:$pid")
    line=""
    for ((i = 0; i < 200; i++)); do
        line="$(grep -m1 -oE 'Spindle listening on http://[^[:space:]]+' "$out" || true)"
        [[ -n "$line" ]] && break
        [[ -e "/proc/$pid" ]] || break
        sleep 0.1
    done
    if [[ -z "$line" ]]; then
        log "--- output of Spindle ($app) ---"
        cat "$out" >&2 || true
        die "Spindle ($app) did not print 'Spindle listening on http://...' within 20 s"
    fi
    SPINDLE_PORT="${line##*:}"
    SPINDLE_PORT="${SPINDLE_PORT%%/*}"
    [[ "$SPINDLE_PORT" =~ ^[0-9]+$ ]] || die "cannot parse a port from: $line"
    log "Spindle $name ($app) pid $pid on port $SPINDLE_PORT"
}

PORT_SPINDLE=""
PORT_DELAY=""
PORT_PSR7=""
if [[ "$SKIP_SPINDLE" != 1 ]]; then
    [[ -e "$SPINDLE_BIN" ]] || die "$SPINDLE_BIN not found (SKIP_SPINDLE=1 measures nginx/php-fpm only)"
    start_spindle hello examples/hello.php
    PORT_SPINDLE="$SPINDLE_PORT"
    start_spindle delay benchmarks/apps/delay.php
    PORT_DELAY="$SPINDLE_PORT"
    start_spindle psr7 examples/hello-psr7.php
    PORT_PSR7="$SPINDLE_PORT"
else
    log "SKIP_SPINDLE=1: Spindle is not started or measured"
fi

# --------------------------------------------------------------------------------------------
# Readiness + sanity checks
# --------------------------------------------------------------------------------------------
wait_for_body() {   # wait_for_body NAME URL EXPECTED PID
    local name="$1" url="$2" expected="$3" pid="$4" body="" i
    for ((i = 0; i < 100; i++)); do
        [[ -e "/proc/$pid" ]] || break
        body="$(curl -s --max-time 5 "$url" 2>/dev/null || true)"
        [[ "$body" == "$expected" ]] && { log "ok: $name answers '$expected'"; return 0; }
        sleep 0.1
    done
    for f in "$TMP"/*.log "$TMP"/*.out; do [[ -s "$f" ]] && { echo "--- $f" >&2; tail -n 20 "$f" >&2; }; done
    die "$name ($url) did not answer '$expected' (last body: '${body}')"
}

wait_for_body "nginx return 200" "http://127.0.0.1:$PORT_NGINX/" "Hello World" "$NGINX_PID"
wait_for_body "nginx+php-fpm static 2" "http://127.0.0.1:$PORT_FPM2/" "Hello World" "$FPM_PID"
wait_for_body "nginx+php-fpm static 8" "http://127.0.0.1:$PORT_FPM8/" "Hello World" "$FPM_PID"
if [[ "$SKIP_SPINDLE" != 1 ]]; then
    wait_for_body "Spindle hello" "http://127.0.0.1:$PORT_SPINDLE/" "Hello World" "${STARTED[-3]##*:}"
    wait_for_body "Spindle delay" "http://127.0.0.1:$PORT_DELAY/" "slept" "${STARTED[-2]##*:}"
    wait_for_body "Spindle hello PSR-7" "http://127.0.0.1:$PORT_PSR7/" "Hello World" "${STARTED[-1]##*:}"
    # The delay must really be there.
    t="$(curl -s -o /dev/null -w '%{time_total}' --max-time 5 "http://127.0.0.1:$PORT_DELAY/")"
    awk -v t="$t" -v d="$DELAY_SECONDS" 'BEGIN { exit !(t + 0 >= d * 0.9) }' \
        || die "Spindle delay app answered in ${t}s, expected >= ${DELAY_SECONDS}s"
fi

# --------------------------------------------------------------------------------------------
# 4. Measure
# --------------------------------------------------------------------------------------------
# Targets: key|label|url|connections
TARGETS=("nginx|nginx \`return 200\` (2 workers)|http://127.0.0.1:$PORT_NGINX/|$CONNS")
if [[ "$SKIP_SPINDLE" != 1 ]]; then
    TARGETS+=("spindle|Spindle hello (2 workers)|http://127.0.0.1:$PORT_SPINDLE/|$CONNS")
    TARGETS+=("psr7|Spindle hello through PSR-7 request and response (2 workers)|http://127.0.0.1:$PORT_PSR7/|$CONNS")
fi
TARGETS+=("fpm2|nginx + php-fpm static 2|http://127.0.0.1:$PORT_FPM2/|$CONNS")
TARGETS+=("fpm8|nginx + php-fpm static 8|http://127.0.0.1:$PORT_FPM8/|$CONNS")
if [[ "$SKIP_SPINDLE" != 1 ]]; then
    TARGETS+=("delay|Spindle delay 0.1 s (2 workers)|http://127.0.0.1:$PORT_DELAY/|$DELAY_CONNS")
fi

# run_wrk OUTFILE ARGS...: wrk in the background + wait, so that INT/TERM reach the trap at once.
run_wrk() {
    local out="$1" rc=0
    shift
    wrk "$@" >"$out" 2>&1 &
    WRK_PID=$!
    wait "$WRK_PID" || rc=$?
    WRK_PID=""
    return "$rc"
}

declare -A BEST_RPS BEST_LAT BEST_P99 BEST_ERR BEST_FILE
wrk_rps()     { awk '$1 == "Requests/sec:" { print $2 }' "$1"; }
wrk_latency() { awk '$1 == "Latency" { print $2; exit }' "$1"; }
wrk_p99()     { awk '$1 == "99%" { print $2; exit }' "$1"; }
wrk_errors()  {
    local e
    e="$(grep -E 'Socket errors|Non-2xx' "$1" | sed -E 's/^[[:space:]]+//' | paste -sd ';' - | sed 's/;/; /g' || true)"
    echo "${e:-none}"
}

for ((round = 1; round <= ROUNDS; round++)); do
    for t in "${TARGETS[@]}"; do
        IFS='|' read -r key label url conns <<<"$t"
        if (( WARMUP > 0 )); then
            run_wrk /dev/null -t2 -c"$conns" -d"${WARMUP}s" "$url" || true
        fi
        out="$TMP/wrk/$key-round$round.txt"
        log "round $round/$ROUNDS: $label: wrk -t2 -c$conns -d${DURATION}s --latency $url"
        run_wrk "$out" -t2 -c"$conns" -d"${DURATION}s" --latency "$url" || { cat "$out" >&2; die "wrk failed for $label"; }
        rps="$(wrk_rps "$out")"
        [[ -n "$rps" ]] || { cat "$out" >&2; die "no Requests/sec in wrk output for $label"; }
        log "  $rps req/s, latency avg $(wrk_latency "$out"), p99 $(wrk_p99 "$out"), errors: $(wrk_errors "$out")"
        if [[ -z "${BEST_RPS[$key]:-}" ]] || awk -v a="$rps" -v b="${BEST_RPS[$key]}" 'BEGIN { exit !(a + 0 > b + 0) }'; then
            BEST_RPS[$key]="$rps"
            BEST_LAT[$key]="$(wrk_latency "$out")"
            BEST_P99[$key]="$(wrk_p99 "$out")"
            BEST_ERR[$key]="$(wrk_errors "$out")"
            BEST_FILE[$key]="$out"
        fi
    done
done

# --------------------------------------------------------------------------------------------
# 5. Report
# --------------------------------------------------------------------------------------------
ratio() {   # ratio A B -> "0.42x" (or "-" when B is unknown)
    [[ -n "${1:-}" && -n "${2:-}" ]] || { echo "-"; return; }
    awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 == 0) print "-"; else printf "%.2fx\n", a / b }'
}

DRIVER="$(php -r 'require "vendor/autoload.php"; echo get_class(Revolt\EventLoop::getDriver());' 2>/dev/null || echo unknown)"
if [[ "$DRIVER" == *StreamSelectDriver ]]; then IS_SELECT="yes"; else IS_SELECT="no"; fi
CPU_MODEL="$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)"
STAMP="$(date +%Y-%m-%d-%H%M%S)"
RESULTS_DIR="$ROOT/benchmarks/results"
RESULT_FILE="$RESULTS_DIR/http-$STAMP.md"

report() {
    echo "# Spindle HTTP benchmark"
    echo
    echo "- date: $(date -Iseconds)"
    echo "- nproc: $(nproc)"
    echo "- CPU: ${CPU_MODEL:-unknown}"
    echo "- PHP CLI: $(php -r 'echo PHP_VERSION;'); php-fpm: $("$FPM_BIN" -v 2>/dev/null | head -n1 | awk '{print $2}'); nginx: $("$NGINX_BIN" -v 2>&1 | sed 's#.*/##'); $(wrk -v 2>&1 | head -n1 | awk '{print $1, $2}')"
    echo "- Spindle event loop driver: $DRIVER (stream_select: $IS_SELECT); command: php ${SPINDLE_PHP_ARGS[*]+"${SPINDLE_PHP_ARGS[*]} "}$SPINDLE_BIN serve APP --host=127.0.0.1 --port=0 --workers=2"
    echo "- wrk: -t2, -c$CONNS (hello targets) / -c$DELAY_CONNS (delay), ${DURATION}s per run, warm-up ${WARMUP}s, best of $ROUNDS round(s)"
    echo "- load generator and servers share the same $(nproc) cores"
    echo "- nginx -> php-fpm: unix sockets, fastcgi_keep_conn $FPM_KEEP_CONN_NGX (FPM_KEEP_CONN=$FPM_KEEP_CONN), OPcache on, validate_timestamps off, tracing JIT"
    [[ "$SKIP_SPINDLE" == 1 ]] && echo "- **SKIP_SPINDLE=1: Spindle was not measured**"
    echo
    echo "| target | req/s | latency avg | p99 | vs nginx | vs fpm(2) | errors |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: | --- |"
    for t in "${TARGETS[@]}"; do
        IFS='|' read -r key label url conns <<<"$t"
        [[ "$key" == delay ]] && continue
        printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$label" "${BEST_RPS[$key]}" "${BEST_LAT[$key]}" "${BEST_P99[$key]}" \
            "$(ratio "${BEST_RPS[$key]}" "${BEST_RPS[nginx]:-}")" \
            "$(ratio "${BEST_RPS[$key]}" "${BEST_RPS[fpm2]:-}")" "${BEST_ERR[$key]}"
    done
    if [[ "$SKIP_SPINDLE" == 1 ]]; then
        echo "| Spindle hello (2 workers) | skipped | | | | | SKIP_SPINDLE=1 |"
    fi
    echo
    local limit
    limit="$(awk -v c="$DELAY_CONNS" -v d="$DELAY_SECONDS" 'BEGIN { printf "%d", c / d }')"
    if [[ -n "${BEST_RPS[delay]:-}" ]]; then
        echo "Delay app (\`Spindle\\delay($DELAY_SECONDS)\` per request, $DELAY_CONNS connections): **${BEST_RPS[delay]} req/s** of a limit of $limit req/s ($DELAY_CONNS / $DELAY_SECONDS s) = $(awk -v a="${BEST_RPS[delay]}" -v b="$limit" 'BEGIN { printf "%.1f%%", 100 * a / b }'), latency avg ${BEST_LAT[delay]}, p99 ${BEST_P99[delay]}, errors: ${BEST_ERR[delay]}"
    else
        echo "Delay app: skipped (SKIP_SPINDLE=1); its limit would be $limit req/s ($DELAY_CONNS / $DELAY_SECONDS s)"
    fi
}

raw_outputs() {
    echo
    echo "## wrk output (best round per target)"
    for t in "${TARGETS[@]}"; do
        IFS='|' read -r key label url conns <<<"$t"
        echo
        echo "### $label"
        echo
        echo '```'
        sed "s#$url#<$key>#" "${BEST_FILE[$key]}"
        echo '```'
    done
}

mkdir -p "$RESULTS_DIR"
REPORT="$(report)"
echo
echo "$REPORT"
{ echo "$REPORT"; raw_outputs; } > "$RESULT_FILE"
echo
log "written to ${RESULT_FILE#"$ROOT"/}"
