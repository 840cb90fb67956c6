#!/usr/bin/env bash
# Spindle against the servers a user would pick instead, side by side on this machine: the peers
# lab's runner (../shared/peers/run.sh) as Spindle measures with it, kept here so that the figures
# in docs/benchmarks.md can be made again. Two changes: the MySQL scenario (batch) takes its routes
# from BATCH_ROUTES (default "batch users/5"), and it reports the CPU each server and MariaDB spent
# per request (utime + stime of every process of the server, from /proc, over the measured wrk run,
# divided by the requests wrk counted; for nginx + php-fpm the php-fpm processes, nginx apart).
# Needs the $PEERS setup that ../shared/peers/SETUP.md describes, and MariaDB on the machine
# (service mariadb start) for the batch and sleep scenarios.
#
#   PEERS=/path/to/peers ROUNDS=3 bash benchmarks/peers-run.sh batch
#
#   run.sh                    # all scenarios: hello blog sleep batch
#   run.sh hello              # (a) hello world: nginx return 200, Workerman, Swoole BASE, php-fpm(2), Spindle
#   run.sh blog               # (b) Laravel blog /hello, /posts, /users/5 on SQLite (BLOG_ROUTES): Spindle, Octane+Swoole, nginx+php-fpm
#   run.sh sleep              # (c) blog /sleep (SELECT SLEEP(1)) on MySQL, 1 worker: Spindle, Octane+Swoole
#   run.sh batch              # (d) blog /batch (100 queries) on MySQL, 2 workers: Spindle, Octane+Swoole, nginx+php-fpm
#
# Prints one line per scenario: each server's best req/s over ROUNDS interleaved rounds
# (A,B,C,A,B,C), then Spindle's ratio to each. The per-round figures go to $RUN/rounds.tsv.
#
# Knobs: ROUNDS (2), DURATION (5 s per wrk run), WARMUP (1 s unrecorded wrk before each run),
#        CONNS (64), SLEEP_N (100 requests), SLEEP_C (10 at a time), OCTANE_MAX_REQUESTS (500,
#        Octane's own default; 0 = never recycle), FPM_KEEP_CONN (0 = nginx default),
#        PEERS ($PEERS), KEEP_RUN (1 = keep the run dir with logs).
# Only loopback; every process it starts is stopped by pid on exit.
set -uo pipefail
umask 077   # the run dir holds the app key and the MySQL password (config caches, php-fpm env)

PEERS="${PEERS:?set PEERS to the folder SETUP.md builds}"
HERE="${PEERS_LAB:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../../shared/peers" 2>/dev/null && pwd)}"   # the lab (its apps/)
ROUNDS="${ROUNDS:-2}"
DURATION="${DURATION:-5}"
WARMUP="${WARMUP:-1}"
CONNS="${CONNS:-64}"
SLEEP_N="${SLEEP_N:-100}"
SLEEP_C="${SLEEP_C:-10}"
OCTANE_MAX_REQUESTS="${OCTANE_MAX_REQUESTS:-500}"
FPM_KEEP_CONN="${FPM_KEEP_CONN:-0}"
SCENARIOS="${*:-hello blog sleep batch}"

SPINDLE="$PEERS/spindle"
BLOG="$SPINDLE/examples/blog"
OCTANE_BLOG="$PEERS/blog-octane"
SWOOLE_SO="$PEERS/swoole/swoole.so"
WM_DIR="$PEERS/workerman-5.0.1"
FPM_BIN="$(command -v php-fpm8.2 || echo /usr/sbin/php-fpm8.2)"
NGINX_BIN="$(command -v nginx || echo /usr/sbin/nginx)"

log() { printf '[peers] %s\n' "$*" >&2; }
die() { printf '[peers] ERROR: %s\n' "$*" >&2; exit 1; }

for f in "$SPINDLE/bin/spindle" "$BLOG/vendor/autoload.php" "$OCTANE_BLOG/vendor/laravel/octane/bin/swoole-server" \
         "$SWOOLE_SO" "$WM_DIR/src/Worker.php" "$PEERS/data/blog.sqlite" "$PEERS/data/app_key"; do
    [[ -e "$f" ]] || die "missing $f: build the setup of $HERE/SETUP.md first"
done
command -v wrk >/dev/null || die "wrk is missing"
if [[ " $SCENARIOS " == *" sleep "* ]]; then
    [[ -r "$PEERS/data/mysql_pass" ]] || die "missing $PEERS/data/mysql_pass (the peers MySQL account): see SETUP.md"
    mysqladmin -h127.0.0.1 ping >/dev/null 2>&1 || mysqladmin ping >/dev/null 2>&1 || die "MariaDB does not answer"
fi

# PHP settings every PHP server runs with (php-fpm through its php.ini): what bin/spindle
# re-execs itself with by default (OPcache + tracing JIT), plus no timestamp checks.
PHP_SETTINGS=(opcache.enable=1 opcache.enable_cli=1 opcache.validate_timestamps=0 opcache.memory_consumption=128
    opcache.max_accelerated_files=20000 opcache.interned_strings_buffer=16 opcache.jit=tracing
    opcache.jit_buffer_size=64M realpath_cache_size=4096K realpath_cache_ttl=600 memory_limit=256M)
PHPOPTS=()
for s in "${PHP_SETTINGS[@]}"; do PHPOPTS+=(-d "$s"); done
SWOOLEOPTS=(-d "extension=$SWOOLE_SO")

RUN="$(mktemp -d "$PEERS/run.XXXXXX")"
chmod 0711 "$RUN"
STARTED=()   # "name:pid"

descendants() {   # descendants PID: every descendant pid, deepest last
    local c
    for c in $(ps -o pid= --ppid "$1" 2>/dev/null); do echo "$c"; descendants "$c"; done
}
stop_pid() {      # stop_pid NAME PID: TERM the pid, wait up to 15 s, then KILL it and what it left
    local name="$1" pid="$2" kids i
    kill -0 "$pid" 2>/dev/null || return 0
    kids="$(descendants "$pid" | tr '\n' ' ')"
    kill -TERM "$pid" 2>/dev/null
    for ((i = 0; i < 150; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && { log "$name ($pid) ignored TERM, KILL"; kill -KILL "$pid" 2>/dev/null; }
    sleep 0.3
    for k in $kids; do kill -0 "$k" 2>/dev/null && kill -KILL "$k" 2>/dev/null; done
    wait "$pid" 2>/dev/null || true
}
stop_all() {
    local i entry
    for ((i = ${#STARTED[@]} - 1; i >= 0; i--)); do entry="${STARTED[$i]}"; stop_pid "${entry%%:*}" "${entry##*:}"; done
    STARTED=()
}
cleanup() {
    stop_all
    if [[ "${KEEP_RUN:-0}" == 1 ]]; then log "run dir kept: $RUN"; else rm -rf "$RUN"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_ports() {    # free_ports N: N distinct free loopback ports
    python3 - "$1" <<'EOF'
import socket, sys
socks = []
for _ in range(int(sys.argv[1])):
    s = socket.socket(); s.bind(("127.0.0.1", 0)); socks.append(s)
print(" ".join(str(s.getsockname()[1]) for s in socks))
EOF
}
start() {         # start NAME LOG COMMAND...: background, records the pid
    local name="$1" out="$2"; shift 2
    "$@" >"$out" 2>&1 &
    STARTED+=("$name:$!")
    LAST_PID=$!
}
wait_body() {     # wait_body NAME URL NEEDLE [SECONDS]: until URL's body contains NEEDLE
    local name="$1" url="$2" needle="$3" secs="${4:-30}" body="" i
    for ((i = 0; i < secs * 10; i++)); do
        body="$(curl -s --max-time 5 "$url" 2>/dev/null || true)"
        [[ "$body" == *"$needle"* ]] && return 0
        sleep 0.1
    done
    for f in "$RUN"/*.log; do echo "== $f" >&2; tail -n 20 "$f" >&2; done
    die "$name: $url did not answer '$needle' (got '${body:0:200}')"
}

# ---------------------------------------------------------------------------------------------
# nginx + php-fpm
# ---------------------------------------------------------------------------------------------
USER_LINES=""; NGINX_USER=""; FPM_ROOT=()
if (( EUID == 0 )); then USER_LINES=$'user = root\ngroup = root'; NGINX_USER="user root;"; FPM_ROOT=(-R); fi

write_php_ini() {  # the php.ini of php-fpm: Debian's production one plus PHP_SETTINGS
    { cat /usr/lib/php/8.2/php.ini-production 2>/dev/null || echo "[PHP]"
      echo; echo "output_buffering = 4096"; echo "expose_php = Off"
      for s in "${PHP_SETTINGS[@]}"; do echo "${s%%=*} = ${s#*=}"; done
    } > "$RUN/php.ini"
    "$FPM_BIN" -c "$RUN/php.ini" -m 2>/dev/null | grep -qx 'Zend OPcache' || sed -i '1a zend_extension = opcache.so' "$RUN/php.ini"
}
start_fpm() {      # start_fpm NAME CHILDREN [ENV lines]: a pm=static pool on $RUN/NAME.sock
    local name="$1" children="$2" envlines="${3:-}"
    write_php_ini
    cat > "$RUN/$name-fpm.conf" <<EOF
[global]
pid = $RUN/$name-fpm.pid
error_log = $RUN/$name-fpm-error.log
daemonize = no
[$name]
$USER_LINES
listen = $RUN/$name.sock
listen.mode = 0600
pm = static
pm.max_children = $children
pm.max_requests = 0
clear_env = yes
catch_workers_output = yes
$envlines
EOF
    # -d as well: Debian's conf.d/10-opcache.ini (read after php.ini) says opcache.jit=off.
    "$FPM_BIN" -t -c "$RUN/php.ini" "${PHPOPTS[@]}" -y "$RUN/$name-fpm.conf" "${FPM_ROOT[@]}" >"$RUN/$name-fpm-test.log" 2>&1 \
        || { cat "$RUN/$name-fpm-test.log" >&2; die "php-fpm config test failed"; }
    start "php-fpm-$name" "$RUN/$name-fpm.log" "$FPM_BIN" -F -c "$RUN/php.ini" "${PHPOPTS[@]}" -y "$RUN/$name-fpm.conf" "${FPM_ROOT[@]}"
}
start_nginx() {    # start_nginx NAME HTTP_BLOCK: 2 workers, everything under $RUN/NAME-nginx
    local name="$1" dir="$RUN/$1-nginx"
    mkdir -p "$dir/tmp"
    cat > "$dir/nginx.conf" <<EOF
$NGINX_USER
worker_processes 2;
daemon off;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 4096; }
http {
    default_type text/plain;
    access_log off;
    keepalive_requests 100000;
    server_tokens off;
    client_body_temp_path $dir/tmp/body;
    fastcgi_temp_path $dir/tmp/fastcgi;
    proxy_temp_path $dir/tmp/proxy;
    scgi_temp_path $dir/tmp/scgi;
    uwsgi_temp_path $dir/tmp/uwsgi;
$2
}
EOF
    "$NGINX_BIN" -t -p "$dir" -e "$dir/error.log" -c "$dir/nginx.conf" >"$dir/test.log" 2>&1 \
        || { cat "$dir/test.log" >&2; die "nginx config test failed"; }
    start "nginx-$name" "$RUN/$name-nginx.log" "$NGINX_BIN" -p "$dir" -e "$dir/error.log" -c "$dir/nginx.conf"
}
fastcgi_server() { # fastcgi_server PORT SOCKET SCRIPT
    local keep="" up="unix:$2"
    if [[ "$FPM_KEEP_CONN" == 1 ]]; then
        # 1 idle FastCGI connection cached per nginx worker: 2 workers x 1 = the 2 children
        keep="fastcgi_keep_conn on;"; up="fpm_$1"
        echo "    upstream fpm_$1 { server unix:$2; keepalive 1; }"
    fi
    cat <<EOF
    server {
        listen 127.0.0.1:$1;
        location / {
            fastcgi_pass $up;
            $keep
            include /etc/nginx/fastcgi_params;
            fastcgi_param SCRIPT_FILENAME $3;
            fastcgi_param SCRIPT_NAME /index.php;
            fastcgi_read_timeout 120s;
        }
    }
EOF
}

start_spindle() {  # start_spindle NAME APP WORKERS [env...]: sets PORT
    local name="$1" app="$2" workers="$3"; shift 3
    PORT="$(free_ports 1)"
    start "$name" "$RUN/$name.log" env "$@" php "${PHPOPTS[@]}" "$SPINDLE/bin/spindle" serve "$app" \
        --host=127.0.0.1 --port="$PORT" --workers="$workers"
}

# ---------------------------------------------------------------------------------------------
# measuring
# ---------------------------------------------------------------------------------------------
declare -A BEST=() ALL=()
wrk_once() {       # wrk_once URL OUTFILE: prints req/s, with '!' appended when wrk saw errors
    local url="$1" out="$2" rps err
    if (( WARMUP > 0 )); then wrk -t2 -c"$CONNS" -d"${WARMUP}s" "$url" >/dev/null 2>&1; fi
    wrk -t2 -c"$CONNS" -d"${DURATION}s" "$url" >"$out" 2>&1
    rps="$(awk '$1 == "Requests/sec:" { printf "%d", $2 }' "$out")"
    err="$(grep -E 'Non-2xx|Socket errors' "$out" | tr -s ' ' | tr '\n' ';')"
    [[ -n "$err" ]] && { log "  wrk errors on $url: $err"; rps="${rps}!"; }
    echo "${rps:-0}"
}
tree_ticks() {     # tree_ticks PID...: CPU (clock ticks) of the pids and their descendants: utime + stime,
                   # plus cutime + cstime, where the CPU of children already reaped lands (Octane's
                   # workers recycled after --max-requests, a Spindle worker replaced)
    local p total=0 f
    for p in "$@" $(for q in "$@"; do descendants "$q"; done); do
        f="$(cut -d')' -f2- "/proc/$p/stat" 2>/dev/null)" || continue
        [[ -n "$f" ]] && total=$((total + $(echo "$f" | awk '{ print $12 + $13 + $14 + $15 }')))
    done
    echo "$total"
}
mysqld_pid() {    # the server on port 3306 (the lab's; a test suite's private one listens elsewhere)
    ss -ltnpH 'sport = :3306' 2>/dev/null | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2
}
wrk_cpu_once() {   # wrk_cpu_once URL OUTFILE PIDS: like wrk_once, then "req/s php-ms db-ms" per request
    local url="$1" out="$2" pids="$3" rps err db a0 a1 d0 d1 n hz
    hz="$(getconf CLK_TCK)"; db="$(mysqld_pid)"
    if (( WARMUP > 0 )); then wrk -t2 -c"$CONNS" -d"${WARMUP}s" "$url" >/dev/null 2>&1; fi
    a0="$(tree_ticks $pids)"; d0="$(tree_ticks $db)"
    wrk -t2 -c"$CONNS" -d"${DURATION}s" "$url" >"$out" 2>&1
    a1="$(tree_ticks $pids)"; d1="$(tree_ticks $db)"
    rps="$(awk '$1 == "Requests/sec:" { printf "%d", $2 }' "$out")"
    n="$(awk '/requests in/ { print $1 }' "$out")"
    err="$(grep -E 'Non-2xx|Socket errors' "$out" | tr -s ' ' | tr '\n' ';')"
    [[ -n "$err" ]] && { log "  wrk errors on $url: $err"; rps="${rps}!"; }
    awk -v r="${rps:-0}" -v a=$((a1 - a0)) -v d=$((d1 - d0)) -v n="${n:-0}" -v hz="$hz" \
        'BEGIN { if (n > 0) printf "%s %.2f %.2f", r, a * 1000 / hz / n, d * 1000 / hz / n; else printf "%s - -", r }'
}
burst_once() {     # burst_once URL NEEDLE: SLEEP_N requests, SLEEP_C at a time; prints ok/wall req/s
    local url="$1" needle="$2" t0 t1 ok
    t0="$(date +%s.%N)"
    ok="$(seq "$SLEEP_N" | xargs -P "$SLEEP_C" -I{} curl -s --max-time 300 "$url" | grep -o "$needle" | wc -l)"
    t1="$(date +%s.%N)"
    [[ "$ok" == "$SLEEP_N" ]] || log "  $url: only $ok of $SLEEP_N answered '$needle'"
    awk -v ok="$ok" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", ok / (b - a) }'
}
record() {         # record SCENARIO SERVER ROUND VALUE
    local key="$1|$2" v="${4%!}"
    printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$(cut -d' ' -f1-3 /proc/loadavg)" >> "$RUN/rounds.tsv"
    ALL[$key]="${ALL[$key]:+${ALL[$key]} }$4"
    if [[ -z "${BEST[$key]:-}" ]] || awk -v a="$v" -v b="${BEST[$key]%!}" 'BEGIN { exit !(a > b) }'; then BEST[$key]="$4"; fi
}
report() {         # report SCENARIO SPINDLE_NAME OTHER...: the scenario's line
    local sc="$1" sp="$2" line ratios="" o; shift 2
    line="$(printf '%-12s' "$sc")"
    for o in "$sp" "$@"; do line+=" $o=${BEST[$sc|$o]:-?} (${ALL[$sc|$o]:-})"; done
    for o in "$@"; do
        ratios+=" /$o=$(awk -v a="${BEST[$sc|$sp]%!}" -v b="${BEST[$sc|$o]%!}" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }')"
    done
    echo "$line | spindle$ratios" | tee -a "$RUN/report.txt"
}

# ---------------------------------------------------------------------------------------------
# the blog's environment (the same for every server), Laravel caches per app dir and database
# ---------------------------------------------------------------------------------------------
blog_env() {       # blog_env DB TAG: sets BLOG_ENV (array of K=V)
    local db="$1" tag="$2"
    mkdir -p "$RUN/cache-$tag" "$RUN/views-$tag"
    BLOG_ENV=(APP_ENV=production APP_DEBUG=false "APP_KEY=$(cat "$PEERS/data/app_key")" LOG_CHANNEL=stderr
        LOG_LEVEL=warning SESSION_DRIVER=cookie CACHE_DRIVER=array "VIEW_COMPILED_PATH=$RUN/views-$tag"
        "APP_CONFIG_CACHE=$RUN/cache-$tag/config.php" "APP_ROUTES_CACHE=$RUN/cache-$tag/routes.php")
    if [[ "$db" == mysql ]]; then
        BLOG_ENV+=(DB_CONNECTION=mysql DB_HOST=127.0.0.1 DB_PORT=3306 DB_DATABASE=peers_blog DB_USERNAME=peers
            "DB_PASSWORD=$(cat "$PEERS/data/mysql_pass")")
    else
        BLOG_ENV+=(DB_CONNECTION=sqlite "DB_DATABASE=$PEERS/data/blog.sqlite")
    fi
}
laravel_caches() { # laravel_caches APPDIR [extra env...]: config, route and view caches
    local dir="$1"; shift
    (cd "$dir" && env "${BLOG_ENV[@]}" "$@" php artisan --no-interaction config:cache >/dev/null \
        && env "${BLOG_ENV[@]}" "$@" php artisan --no-interaction route:cache >/dev/null \
        && env "${BLOG_ENV[@]}" "$@" php artisan --no-interaction view:cache >/dev/null) || die "artisan caches failed in $dir"
}
start_octane() {   # start_octane NAME WORKERS: Octane 1.x on Swoole serving the blog copy; sets PORT
    local name="$1" workers="$2"
    PORT="$(free_ports 1)"
    (cd "$OCTANE_BLOG" && exec env "${BLOG_ENV[@]}" OCTANE_PHP_OPTIONS="${SWOOLEOPTS[*]} ${PHPOPTS[*]}" \
        php "${SWOOLEOPTS[@]}" "${PHPOPTS[@]}" artisan octane:start --server=swoole --workers="$workers" \
        --host=127.0.0.1 --port="$PORT" --max-requests="$OCTANE_MAX_REQUESTS") >"$RUN/$name.log" 2>&1 &
    STARTED+=("$name:$!")
}

log "run dir $RUN; load $(cut -d' ' -f1-3 /proc/loadavg); nproc $(nproc); ROUNDS=$ROUNDS DURATION=${DURATION}s WARMUP=${WARMUP}s CONNS=$CONNS"
echo "# peers $(date -u +%FT%TZ) nproc=$(nproc) load=$(cut -d' ' -f1-3 /proc/loadavg) rounds=$ROUNDS wrk -t2 -c$CONNS -d${DURATION}s (best of rounds; all rounds in parentheses; '!' = wrk saw errors)" | tee "$RUN/report.txt"

# ---------------------------------------------------------------------------------------------
# (a) hello world
# ---------------------------------------------------------------------------------------------
if [[ " $SCENARIOS " == *" hello "* ]]; then
    read -r P_NGX P_FPM P_WM P_SW < <(free_ports 4)
    start_fpm hello 2
    start_nginx hello "$(cat <<EOF
    server { listen 127.0.0.1:$P_NGX; location / { return 200 "Hello World"; } }
$(fastcgi_server "$P_FPM" "$RUN/hello.sock" "$SPINDLE/benchmarks/apps/fpm-hello.php")
EOF
)"
    start workerman "$RUN/workerman.log" env WM_PORT="$P_WM" PEERS_WM_DIR="$WM_DIR" PEERS_RUN="$RUN" \
        php "${PHPOPTS[@]}" "$HERE/apps/workerman-hello.php" start
    start swoole "$RUN/swoole.log" env SW_PORT="$P_SW" php "${SWOOLEOPTS[@]}" "${PHPOPTS[@]}" "$HERE/apps/swoole-hello.php"
    start_spindle spindle "$SPINDLE/examples/hello.php" 2; P_SP="$PORT"
    declare -A URL=([nginx]="http://127.0.0.1:$P_NGX/" [fpm2]="http://127.0.0.1:$P_FPM/" [workerman]="http://127.0.0.1:$P_WM/"
        [swoole-base]="http://127.0.0.1:$P_SW/" [spindle]="http://127.0.0.1:$P_SP/")
    ORDER=(nginx workerman swoole-base fpm2 spindle)
    for s in "${ORDER[@]}"; do wait_body "$s" "${URL[$s]}" "Hello World"; done
    log "hello: all five answer; measuring"
    for ((r = 1; r <= ROUNDS; r++)); do
        for s in "${ORDER[@]}"; do v="$(wrk_once "${URL[$s]}" "$RUN/wrk-hello-$s-$r.txt")"; record hello "$s" "$r" "$v"; log "  round $r $s $v"; done
    done
    report hello spindle nginx workerman swoole-base fpm2
    stop_all
fi

# ---------------------------------------------------------------------------------------------
# (b) the Laravel blog on SQLite: /hello and /posts, 2 workers / children each
# ---------------------------------------------------------------------------------------------
if [[ " $SCENARIOS " == *" blog "* ]]; then
    blog_env sqlite sqlite-spindle; laravel_caches "$BLOG"; ENV_SPINDLE=("${BLOG_ENV[@]}")
    FPM_ENV=""; for kv in "${BLOG_ENV[@]}"; do FPM_ENV+="env[${kv%%=*}] = \"${kv#*=}\""$'\n'; done
    blog_env sqlite sqlite-octane; laravel_caches "$OCTANE_BLOG" OCTANE_PHP_OPTIONS="${SWOOLEOPTS[*]} ${PHPOPTS[*]}"
    read -r P_FPM < <(free_ports 1)
    start_fpm blog 2 "$FPM_ENV"
    start_nginx blog "$(fastcgi_server "$P_FPM" "$RUN/blog.sock" "$BLOG/public/index.php")"
    start_spindle spindle "$BLOG" 2 "${ENV_SPINDLE[@]}"; P_SP="$PORT"
    start_octane octane 2; P_OC="$PORT"
    declare -A BURL=([spindle]="http://127.0.0.1:$P_SP" [octane]="http://127.0.0.1:$P_OC" [fpm2]="http://127.0.0.1:$P_FPM")
    ORDER=(spindle octane fpm2)
    for s in "${ORDER[@]}"; do
        wait_body "$s" "${BURL[$s]}/hello" "Hello World" 60
        n="$(curl -s --max-time 10 "${BURL[$s]}/posts" | grep -c '<article id="post-')"
        [[ "$n" == 20 ]] || die "$s: /posts showed $n posts, expected 20"
    done
    log "blog: all three answer /hello and /posts; measuring"
    for route in ${BLOG_ROUTES:-hello posts users/5}; do
        rn=${route//\//_}
        for ((r = 1; r <= ROUNDS; r++)); do
            for s in "${ORDER[@]}"; do
                v="$(wrk_once "${BURL[$s]}/$route" "$RUN/wrk-blog-$rn-$s-$r.txt")"; record "blog-$rn" "$s" "$r" "$v"
                log "  $route round $r $s $v"
            done
        done
        report "blog-$rn" spindle octane fpm2
    done
    stop_all
fi

if [[ " $SCENARIOS " == *" batch "* ]]; then
    blog_env mysql mysql-spindle; laravel_caches "$BLOG"; ENV_SPINDLE=("${BLOG_ENV[@]}")
    FPM_ENV=""; for kv in "${BLOG_ENV[@]}"; do FPM_ENV+="env[${kv%%=*}] = \"${kv#*=}\""$'\n'; done
    blog_env mysql mysql-octane; laravel_caches "$OCTANE_BLOG" OCTANE_PHP_OPTIONS="${SWOOLEOPTS[*]} ${PHPOPTS[*]}"
    read -r P_FPM < <(free_ports 1)
    start_fpm batch 2 "$FPM_ENV"; PID_FPM="$LAST_PID"
    start_nginx batch "$(fastcgi_server "$P_FPM" "$RUN/batch.sock" "$BLOG/public/index.php")"
    start_spindle spindle "$BLOG" ${BATCH_WORKERS:-2} "${ENV_SPINDLE[@]}"; P_SP="$PORT"; PID_SP="$LAST_PID"
    start_octane octane 2; P_OC="$PORT"; PID_OC="${STARTED[-1]##*:}"
    declare -A BURL=([spindle]="http://127.0.0.1:$P_SP" [octane]="http://127.0.0.1:$P_OC" [fpm2]="http://127.0.0.1:$P_FPM")
    declare -A BPID=([spindle]="$PID_SP" [octane]="$PID_OC" [fpm2]="$PID_FPM")
    ORDER=(spindle octane fpm2)
    for s in "${ORDER[@]}"; do wait_body "$s" "${BURL[$s]}/batch" '"users_found":99' 60; done
    for route in ${BATCH_ROUTES:-batch users/5}; do
    rn="${route//\//-}"
    for ((r = 1; r <= ROUNDS; r++)); do
        for s in "${ORDER[@]}"; do
            read -r v cpu_php cpu_db < <(wrk_cpu_once "${BURL[$s]}/$route" "$RUN/wrk-$rn-$s-$r.txt" "${BPID[$s]}")
            record "$rn" "$s" "$r" "$v"
            echo "$rn round $r $s: $v req/s, CPU per request: PHP $cpu_php ms, MariaDB $cpu_db ms" | tee -a "$RUN/cpu.txt" >&2
        done
    done
    report "$rn" spindle octane fpm2
    done
    cat "$RUN/cpu.txt" >> "$RUN/report.txt"
    stop_all
fi

# ---------------------------------------------------------------------------------------------
# (c) the blog's /sleep (SELECT SLEEP(1)) on MySQL: 1 worker each, SLEEP_N requests SLEEP_C at a time
# ---------------------------------------------------------------------------------------------
if [[ " $SCENARIOS " == *" sleep "* ]]; then
    blog_env mysql mysql-spindle; laravel_caches "$BLOG"; ENV_SPINDLE=("${BLOG_ENV[@]}")
    blog_env mysql mysql-octane; laravel_caches "$OCTANE_BLOG" OCTANE_PHP_OPTIONS="${SWOOLEOPTS[*]} ${PHPOPTS[*]}"
    start_spindle spindle "$BLOG" 1 "${ENV_SPINDLE[@]}"; P_SP="$PORT"
    start_octane octane 1; P_OC="$PORT"
    declare -A SURL=([spindle]="http://127.0.0.1:$P_SP/sleep" [octane]="http://127.0.0.1:$P_OC/sleep")
    ORDER=(spindle octane)
    for s in "${ORDER[@]}"; do wait_body "$s" "${SURL[$s]}" '"slept":1' 60; done
    log "sleep: both answer /sleep; $SLEEP_N requests, $SLEEP_C at a time"
    for ((r = 1; r <= ROUNDS; r++)); do
        for s in "${ORDER[@]}"; do
            v="$(burst_once "${SURL[$s]}" '"slept":1')"; record sleep "$s" "$r" "$v"; log "  round $r $s $v"
        done
    done
    report sleep spindle octane
    stop_all
fi
echo "# done $(date -u +%FT%TZ) load=$(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$RUN/report.txt"
