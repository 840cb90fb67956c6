# shellcheck shell=bash
# shellcheck disable=SC2034  # the variables it sets (BEST_*, NGINX_BIN, ...) are read by the scripts
# Plumbing shared by the benchmark scripts (http.sh, laravel.sh, mysql-http.sh,
# mysql-concurrency.sh). Sourced, never run:
#
#   source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
#
# Sourcing it sets ROOT (the repository root) and changes into it. The rest are functions:
# logging, tool discovery and installation, the private MariaDB, one temp dir whose processes are
# stopped by pid on exit, php-fpm and nginx started from configs in that dir, Spindle started and
# waited for, readiness checks, wrk runs and the parsing of their output.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT" || exit 1
BENCH_NAME="$(basename "${BASH_SOURCE[1]:-$0}")"   # the script that sourced this file

# The PHP settings every server of a comparison runs with (php-fpm through its php.ini, the others
# as -d options, so that bin/spindle does not restart itself with its own): OPcache without
# timestamp checks, the tracing JIT with the trace budget bin/spindle gives itself
# (src/Server/JitRestart.php), a large realpath cache.
PHP_SHARED_SETTINGS=(
    "realpath_cache_size=4096K" "realpath_cache_ttl=600"
    "opcache.enable=1" "opcache.enable_cli=1" "opcache.validate_timestamps=0"
    "opcache.memory_consumption=128" "opcache.max_accelerated_files=20000" "opcache.interned_strings_buffer=16"
    "opcache.jit=tracing" "opcache.jit_buffer_size=64M"
    "opcache.jit_max_root_traces=8192" "opcache.jit_max_exit_counters=65536"
)
PHP_SHARED_ARGS=()
for setting in "${PHP_SHARED_SETTINGS[@]}"; do PHP_SHARED_ARGS+=(-d "$setting"); done

log() { printf '[%s] %s\n' "$BENCH_NAME" "$*" >&2; }
die() { printf '[%s] ERROR: %s\n' "$BENCH_NAME" "$*" >&2; exit 1; }

# --------------------------------------------------------------------------------------------
# Tools
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

# need_tools WHAT...: installs with apt-get whatever of these is missing, in one go. WHAT is
# nginx, fpm (php8.2-fpm), wrk, curl, pdo_mysql (php8.2-mysql) or deb:PACKAGE (any Debian package).
need_tools() {
    local what missing=()
    for what in "$@"; do
        case "$what" in
            nginx) command -v nginx >/dev/null 2>&1 || [[ -x /usr/sbin/nginx ]] || missing+=(nginx) ;;
            fpm) find_fpm >/dev/null 2>&1 || missing+=(php8.2-fpm) ;;
            wrk | curl) command -v "$what" >/dev/null 2>&1 || missing+=("$what") ;;
            pdo_mysql) grep -qx pdo_mysql <<<"$(php -m)" || missing+=(php8.2-mysql) ;;
            deb:*) dpkg -s "${what#deb:}" >/dev/null 2>&1 || missing+=("${what#deb:}") ;;
            *) die "need_tools: unknown tool '$what'" ;;
        esac
    done
    (( ${#missing[@]} == 0 )) || apt_install "${missing[@]}"
}

# find_servers: sets NGINX_BIN and FPM_BIN.
find_servers() {
    NGINX_BIN="$(command -v nginx 2>/dev/null || echo /usr/sbin/nginx)"
    FPM_BIN="$(find_fpm)" || die "php-fpm8.2 not found"
}

# use_mariadb: starts the private MariaDB of scripts/mariadb (reused when it runs) and reads its
# MYSQL_HOST/PORT/USER/PASSWORD/DATABASE into this shell (not exported).
use_mariadb() {
    scripts/mariadb >/dev/null
    # shellcheck disable=SC1091
    source "${SPINDLE_MYSQL_DIR:-/tmp/spindle-mariadb}/env"
}

mariadb_pid() { cat "${SPINDLE_MYSQL_DIR:-/tmp/spindle-mariadb}/mysqld.pid" 2>/dev/null || true; }

# use_postgres: starts the private PostgreSQL of scripts/postgres (reused when it runs) and reads
# its PGSQL_HOST/PORT/USER/PASSWORD/... into this shell (exported, as its env file says).
use_postgres() {
    scripts/postgres >/dev/null
    # shellcheck disable=SC1091
    source "${SPINDLE_PGSQL_DIR:-/tmp/spindle-postgres}/env"
}

# The postmaster of that PostgreSQL: it forks a backend per connection (see tree_cpu_ticks).
postgres_pid() { head -n1 "${SPINDLE_PGSQL_DIR:-/tmp/spindle-postgres}/data/postmaster.pid" 2>/dev/null || true; }

# --------------------------------------------------------------------------------------------
# Temp dir, the processes started, cleanup
# --------------------------------------------------------------------------------------------
# make_tmp NAME: one mktemp -d directory (TMP) for configs, pid files, logs and sockets, with
# nginx-tmp/ and wrk/ inside, and the traps: on exit every process recorded in STARTED is
# stopped (the last started first), then the script's on_cleanup runs, then TMP is removed.
STARTED=()        # "name:pid" of every process the script started
WRK_PID=""        # the wrk run in progress, if any
TMP=""
on_cleanup() { :; }   # a script redefines it for its own clean-up (dropping tables)

make_tmp() {
    TMP="$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")"
    trap cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    mkdir -p "$TMP/nginx-tmp" "$TMP/wrk"
}

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

stop_started() {  # stops every process in STARTED, the last started first, and empties it
    local i entry
    for ((i = ${#STARTED[@]} - 1; i >= 0; i--)); do
        entry="${STARTED[$i]}"
        stop_pid "${entry%%:*}" "${entry##*:}"
        wait "${entry##*:}" 2>/dev/null || true
    done
    STARTED=()
}

cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    [[ -n "$WRK_PID" ]] && kill -TERM "$WRK_PID" 2>/dev/null
    stop_started
    on_cleanup
    [[ -n "$TMP" ]] && rm -rf "$TMP"
    exit "$rc"
}

# free_ports N: N distinct free TCP ports on 127.0.0.1 on one line (port 0 bound N times at once).
free_ports() {
    # shellcheck disable=SC2016  # PHP code
    php -r '
        $s = []; $p = [];
        for ($i = 0; $i < (int) $argv[1]; $i++) {
            $s[$i] = stream_socket_server("tcp://127.0.0.1:0", $errno, $errstr) or exit(1);
            $name = stream_socket_get_name($s[$i], false);
            $p[] = substr($name, strrpos($name, ":") + 1);
        }
        echo implode(" ", $p), "\n";' "$1"
}

dump_logs() {     # dump_logs LINES: the tail of every log in TMP, to stderr
    local f
    for f in "$TMP"/*.log "$TMP"/*.out; do [[ -s "$f" ]] && { echo "--- $f" >&2; tail -n "$1" "$f" >&2; }; done
    return 0
}

# --------------------------------------------------------------------------------------------
# php-fpm and nginx, from configs in TMP
# --------------------------------------------------------------------------------------------
# Run as root, php-fpm needs -R and user/group lines, and nginx `user root;`: their workers must
# reach the sockets in the root-owned 0700 temp dir.
FPM_ROOT_ARGS=()
FPM_USER_LINES=""
NGINX_USER_LINE=""
if (( EUID == 0 )); then
    FPM_ROOT_ARGS=(-R)
    FPM_USER_LINES=$'user = root\ngroup = root'
    NGINX_USER_LINE="user root;"
fi

# fpm_load_opcache: loads OPcache from $TMP/php.ini when the conf.d scan dir does not already;
# dies when php-fpm still has no OPcache.
# (The module list is read whole before grep looks at it: grep -q leaving the pipe at the first
# match would kill php-fpm with SIGPIPE when it writes the rest, a failure under pipefail.)
fpm_load_opcache() {
    if ! grep -qx 'Zend OPcache' <<<"$("$FPM_BIN" -c "$TMP/php.ini" -m 2>/dev/null)"; then
        sed -i '1a zend_extension = opcache.so' "$TMP/php.ini"
    fi
    grep -qx 'Zend OPcache' <<<"$("$FPM_BIN" -c "$TMP/php.ini" -m 2>/dev/null)" || die "php-fpm cannot load OPcache"
}

# fpm_php_ini: $TMP/php.ini for php-fpm, then OPcache loaded (fpm_load_opcache). php-fpm -c
# replaces the php.ini of its SAPI, so the file starts from Debian's production php.ini (what
# /etc/php/8.2/fpm/php.ini is, and what the CLI that runs Spindle reads too): without it php-fpm
# would run on PHP's built-in defaults, e.g. zend.assertions=1. PHP_SHARED_SETTINGS come last;
# pass them on php-fpm's command line too (start_fpm "${PHP_SHARED_ARGS[@]}"): Debian's
# conf.d/10-opcache.ini, read after the -c php.ini, says opcache.jit=off.
# Sets FPM_INI_BASE to the php.ini it starts from (empty: PHP's built-in defaults), for reports.
fpm_php_ini() {
    local f setting
    FPM_INI_BASE=""
    for f in /usr/lib/php/8.2/php.ini-production /etc/php/8.2/fpm/php.ini; do
        [[ -r "$f" ]] && { FPM_INI_BASE="$f"; break; }
    done
    {
        if [[ -n "$FPM_INI_BASE" ]]; then
            cat "$FPM_INI_BASE"
            echo
        else
            echo "[PHP]"
            echo "zend.assertions = -1"
        fi
        echo "; the benchmark's settings (generated by benchmarks/$BENCH_NAME); later lines win"
        echo "memory_limit = 256M"
        echo "output_buffering = 4096"
        echo "expose_php = Off"
        echo "error_log = $TMP/php-fpm-php-errors.log"
        for setting in "${PHP_SHARED_SETTINGS[@]}"; do echo "${setting%%=*} = ${setting#*=}"; done
    } > "$TMP/php.ini"
    fpm_load_opcache
}

fpm_global_conf() {   # the [global] section of $TMP/php-fpm.conf
    cat <<EOF
[global]
pid = $TMP/php-fpm.pid
error_log = $TMP/php-fpm.log
log_level = notice
daemonize = no
EOF
}

fpm_static_pool() {   # fpm_static_pool NAME CHILDREN SOCKET: a pm=static pool on a unix socket
    cat <<EOF
[$1]
$FPM_USER_LINES
listen = $3
listen.mode = 0600
pm = static
pm.max_children = $2
pm.max_requests = 0
catch_workers_output = yes
clear_env = yes
EOF
}

# start_fpm [PHP_FPM_ARGS...]: tests and starts php-fpm on $TMP/php.ini and $TMP/php-fpm.conf
# (extra arguments go after -c, e.g. -d options), sets FPM_PID.
start_fpm() {
    "$FPM_BIN" -t -c "$TMP/php.ini" "$@" -y "$TMP/php-fpm.conf" "${FPM_ROOT_ARGS[@]}" >"$TMP/php-fpm-test.log" 2>&1 \
        || { cat "$TMP/php-fpm-test.log" >&2; die "php-fpm config test failed"; }
    "$FPM_BIN" -F -c "$TMP/php.ini" "$@" -y "$TMP/php-fpm.conf" "${FPM_ROOT_ARGS[@]}" >"$TMP/php-fpm.out" 2>&1 &
    FPM_PID=$!
    STARTED+=("php-fpm:$FPM_PID")
}

# write_nginx_conf DEFAULT_TYPE HTTP_BLOCK: $TMP/nginx.conf, 2 workers in the foreground, every
# path in TMP; HTTP_BLOCK (upstreams, servers) goes into the http block.
write_nginx_conf() {
    cat > "$TMP/nginx.conf" <<EOF
# generated by benchmarks/$BENCH_NAME
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
    default_type $1;
    access_log off;
    keepalive_requests 100000;
    keepalive_timeout 65s;
    server_tokens off;
    client_body_temp_path $TMP/nginx-tmp/body;
    fastcgi_temp_path     $TMP/nginx-tmp/fastcgi;
    proxy_temp_path       $TMP/nginx-tmp/proxy;
    scgi_temp_path        $TMP/nginx-tmp/scgi;
    uwsgi_temp_path       $TMP/nginx-tmp/uwsgi;

$2
}
EOF
}

start_nginx() {   # tests and starts nginx on $TMP/nginx.conf, sets NGINX_PID
    "$NGINX_BIN" -t -p "$TMP" -e "$TMP/nginx-error.log" -c "$TMP/nginx.conf" >"$TMP/nginx-test.log" 2>&1 \
        || { cat "$TMP/nginx-test.log" >&2; die "nginx config test failed"; }
    "$NGINX_BIN" -p "$TMP" -e "$TMP/nginx-error.log" -c "$TMP/nginx.conf" >"$TMP/nginx.out" 2>&1 &
    NGINX_PID=$!
    STARTED+=("nginx:$NGINX_PID")
}

# --------------------------------------------------------------------------------------------
# Spindle and readiness
# --------------------------------------------------------------------------------------------
# spawn_spindle NAME LABEL LOG SECONDS COMMAND...: runs COMMAND (a `spindle serve ... --port=0`)
# in the background with its output in LOG, records it in STARTED as NAME, and waits at most
# SECONDS for its "Spindle listening on" line. Sets SPINDLE_PID, SPINDLE_URL (http://host:port/)
# and SPINDLE_PORT; on failure prints LOG and dies, naming LABEL.
spawn_spindle() {
    local name="$1" label="$2" out="$3" seconds="$4" line="" i
    shift 4
    "$@" >"$out" 2>&1 &
    SPINDLE_PID=$!
    STARTED+=("$name:$SPINDLE_PID")
    for ((i = 0; i < seconds * 10; i++)); do
        line="$(grep -m1 -oE 'Spindle listening on http://[^[:space:]]+' "$out" || true)"
        [[ -n "$line" ]] && break
        [[ -e "/proc/$SPINDLE_PID" ]] || break
        sleep 0.1
    done
    if [[ -z "$line" ]]; then
        log "--- output of $label ---"
        cat "$out" >&2 || true
        die "$label did not print 'Spindle listening on http://...' within $seconds s"
    fi
    SPINDLE_URL="${line#Spindle listening on }"
    SPINDLE_URL="${SPINDLE_URL%/}/"
    SPINDLE_PORT="${line##*:}"
    SPINDLE_PORT="${SPINDLE_PORT%%/*}"
    [[ "$SPINDLE_PORT" =~ ^[0-9]+$ ]] || die "cannot parse a port from: $line"
}

wait_for_body() {   # wait_for_body NAME URL EXPECTED PID: up to 10 s for URL to answer EXPECTED
    local name="$1" url="$2" expected="$3" pid="$4" body="" i
    for ((i = 0; i < 100; i++)); do
        [[ -e "/proc/$pid" ]] || break
        body="$(curl -s --max-time 5 "$url" 2>/dev/null || true)"
        [[ "$body" == "$expected" ]] && { log "ok: $name answers '$expected'"; return 0; }
        sleep 0.1
    done
    dump_logs 20
    die "$name ($url) did not answer '$expected' (last body: '${body}')"
}

fetch_ready() {     # fetch_ready URL PID: the body once the server answers 200 (10 s at most)
    local url="$1" pid="$2" body="" i
    for ((i = 0; i < 100; i++)); do
        [[ -e "/proc/$pid" ]] || break
        body="$(curl -s -f --max-time 5 "$url" 2>/dev/null || true)"
        [[ -n "$body" ]] && { echo "$body"; return 0; }
        sleep 0.1
    done
    dump_logs 20
    die "$url did not answer"
}

# --------------------------------------------------------------------------------------------
# wrk and its output
# --------------------------------------------------------------------------------------------
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

wrk_rps()      { awk '$1 == "Requests/sec:" { print $2 }' "$1"; }
wrk_latency()  { awk '$1 == "Latency" { print $2; exit }' "$1"; }
wrk_p99()      { awk '$1 == "99%" { print $2; exit }' "$1"; }
wrk_requests() { awk '$2 == "requests" && $3 == "in" { print $1; exit }' "$1"; }
wrk_errors()   {
    local e
    e="$(grep -E 'Socket errors|Non-2xx' "$1" | sed -E 's/^[[:space:]]+//' | paste -sd ';' - | sed 's/;/; /g' || true)"
    echo "${e:-none}"
}

# keep_best KEY OUTFILE: when this run of KEY has the highest req/s so far, keeps its figures in
# BEST_RPS, BEST_LAT, BEST_P99, BEST_ERR and BEST_FILE and returns 0; else returns 1.
declare -A BEST_RPS BEST_LAT BEST_P99 BEST_ERR BEST_FILE
keep_best() {
    local key="$1" out="$2" rps
    rps="$(wrk_rps "$out")"
    if [[ -z "${BEST_RPS[$key]:-}" ]] || awk -v a="$rps" -v b="${BEST_RPS[$key]}" 'BEGIN { exit !(a + 0 > b + 0) }'; then
        BEST_RPS[$key]="$rps"
        BEST_LAT[$key]="$(wrk_latency "$out")"
        BEST_P99[$key]="$(wrk_p99 "$out")"
        BEST_ERR[$key]="$(wrk_errors "$out")"
        BEST_FILE[$key]="$out"
        return 0
    fi
    return 1
}

# cpu_ticks PID...: utime + stime (clock ticks) of those of the processes that still run.
cpu_ticks() {
    local pid sum=0 stat f
    for pid in "$@"; do
        pid="${pid//[[:space:]]/}"    # ps pads pids to a common width
        [[ -n "$pid" ]] || continue
        stat="$(cat "/proc/$pid/stat" 2>/dev/null)" || continue
        stat="${stat##*) }"    # fields after "(comm) "; utime and stime are then the 12th and 13th
        read -r -a f <<<"$stat"
        sum=$((sum + f[11] + f[12]))
    done
    echo "$sum"
}

# tree_cpu_ticks PID: CPU ticks of a server that forks a process per connection (PostgreSQL):
# its own, its reaped children's (cutime + cstime) and those of its children still running, so
# that a backend which came and went between two readings is counted once.
tree_cpu_ticks() {
    local stat f children
    stat="$(cat "/proc/$1/stat" 2>/dev/null)" || { echo 0; return; }
    stat="${stat##*) }"
    read -r -a f <<<"$stat"
    mapfile -t children < <(ps -o pid= --ppid "$1")
    echo $((f[11] + f[12] + f[13] + f[14] + $(cpu_ticks "${children[@]}")))
}

# tcp_connections_of PORT PID...: how many established TCP connections to 127.0.0.1:PORT these
# processes hold (from ss -p).
tcp_connections_of() {
    local port="$1" pid n=0
    shift
    local -A mine=()
    for pid in "$@"; do
        pid="${pid//[[:space:]]/}"
        [[ -z "$pid" ]] || mine[$pid]=1
    done
    while read -r pid; do
        if [[ -n "${mine[$pid]:-}" ]]; then n=$((n + 1)); fi
    done < <(ss -Htnp state established "( dport = :$port )" 2>/dev/null | sed -nE 's/.*pid=([0-9]+).*/\1/p')
    echo "$n"
}

ratio() {   # ratio A B [DECIMALS] -> "0.42x" (or "-" when either is unknown or B is 0)
    [[ -n "${1:-}" && -n "${2:-}" ]] || { echo "-"; return; }
    awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN { if (b + 0 == 0) print "-"; else printf "%.*fx\n", d, a / b }'
}

cpu_model() { awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true; }

# publish_report FILE [RAW_FUNCTION]: prints $REPORT and writes it to FILE, followed by what
# RAW_FUNCTION prints (the raw wrk output).
publish_report() {
    mkdir -p "$(dirname "$1")"
    echo
    echo "$REPORT"
    { echo "$REPORT"; [[ -z "${2:-}" ]] || "$2"; } > "$1"
    [[ -z "${2:-}" ]] || echo
    log "written to ${1#"$ROOT"/}"
}

started_pid() {   # started_pid NAME: the pid STARTED records for NAME
    local entry
    for entry in "${STARTED[@]}"; do
        [[ "${entry%%:*}" == "$1" ]] && { echo "${entry##*:}"; return 0; }
    done
    die "nothing named $1 was started"
}
