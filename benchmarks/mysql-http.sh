#!/usr/bin/env bash
# MySQL over HTTP: nginx + php-fpm with native PDO against Spindle with Spindle\Database\Pdo, in
# one run, for the two database scenarios of the seed (shared/seeds/002): "fetch a user by id"
# and "100 queries per request".
#
#   bash benchmarks/mysql-http.sh                  # from the repository root
#   DURATION=30 ROUNDS=3 CONNS=64 bash benchmarks/mysql-http.sh
#
# Targets (each on 2 processes, the machine has 2 cores):
#   php-fpm, connect per request   nginx + php-fpm pm=static, 2 children, OPcache on; the plain
#                                  script benchmarks/apps/mysql-users-fpm.php opens a native PDO
#                                  connection per request (as an app without persistent
#                                  connections does)
#   php-fpm, persistent PDO        the same script with PDO::ATTR_PERSISTENT: one connection per child
#   Spindle                        bin/spindle serve benchmarks/apps/mysql-users.php --workers=2:
#                                  Spindle\Database\Pdo on a per-worker ConnectionPool (POOL_SIZE)
# Routes (benchmarks/apps/mysql-users-routes.php, the same code for all three):
#   /user?id=N   one point select by primary key (N random in 1..1000, drawn by wrk per request)
#   /batch       100 point selects through one prepared statement
#
# Env knobs: DURATION (wrk seconds per run, default 10), ROUNDS (default 3; the median round
# counts), WARMUP (seconds of unrecorded load before each run, default 2), CONNS (wrk
# connections, default 64), POOL_SIZE (Spindle connections per worker, default 8), ONLY (user or
# batch: one scenario), SPINDLE_BIN, SPINDLE_PHP_ARGS, PHP_FPM_BIN, FPM_KEEP_CONN (1: nginx keeps
# FastCGI connections open, default), WORKERS (Spindle's --workers, default 2), BASELINE_DIR (another checkout with its own vendor/, e.g.
# `git worktree add` of an earlier commit: its Spindle is a fourth target in the same rounds, so
# that a change is measured before/after side by side).
#
# It starts the private MariaDB with scripts/mariadb (reused when it runs) and creates the table
# mysqlhttp_users (1,000 rows), dropped at the end. nginx, php-fpm and Spindle live in one
# mktemp -d directory (configs, pid files, logs, sockets); nothing under /etc is written. On exit
# the trap stops exactly the processes this script started, by pid, and removes the directory.
# The report is printed and written to benchmarks/results/mysql-http-<date>.md.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

DURATION="${DURATION:-10}"
ROUNDS="${ROUNDS:-3}"
WARMUP="${WARMUP:-2}"
CONNS="${CONNS:-64}"
POOL_SIZE="${POOL_SIZE:-8}"
SPINDLE_BIN="${SPINDLE_BIN:-bin/spindle}"
read -r -a SPINDLE_PHP_ARGS <<<"${SPINDLE_PHP_ARGS:-}"
FPM_KEEP_CONN="${FPM_KEEP_CONN:-1}"
ONLY="${ONLY:-}"
BASELINE_DIR="${BASELINE_DIR:-}"
WORKERS="${WORKERS:-2}"
export POOL_SIZE

for n in "$DURATION" "$ROUNDS" "$WARMUP" "$CONNS" "$POOL_SIZE" "$WORKERS"; do
    [[ "$n" =~ ^[0-9]+$ ]] || { echo "DURATION, ROUNDS, WARMUP, CONNS and POOL_SIZE must be whole numbers" >&2; exit 2; }
done
(( DURATION > 0 && ROUNDS > 0 && CONNS > 0 && POOL_SIZE > 0 )) || { echo "DURATION, ROUNDS, CONNS and POOL_SIZE must be > 0" >&2; exit 2; }

# ---- tools ----------------------------------------------------------------------------------
need_tools nginx fpm wrk curl pdo_mysql
find_servers
[[ -d vendor ]] || die "vendor/ is missing: run composer install"
[[ -e "$SPINDLE_BIN" ]] || die "$SPINDLE_BIN not found"

# ---- MariaDB and the table ------------------------------------------------------------------
use_mariadb
export MYSQL_HOST MYSQL_PORT MYSQL_USER MYSQL_PASSWORD MYSQL_DATABASE

db() {   # db SQL...: runs statements with the CLI's native PDO
    php -r '
        $pdo = new PDO(sprintf("mysql:host=%s;port=%d;dbname=%s;charset=utf8mb4", getenv("MYSQL_HOST"), getenv("MYSQL_PORT"), getenv("MYSQL_DATABASE")),
            getenv("MYSQL_USER"), getenv("MYSQL_PASSWORD"), [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
        foreach (array_slice($argv, 1) as $sql) { $pdo->exec($sql); }' -- "$@"
}

# ---- processes and cleanup ------------------------------------------------------------------
make_tmp spindle-mysql-http
TABLE_CREATED=0
on_cleanup() { if (( TABLE_CREATED == 1 )); then db 'DROP TABLE IF EXISTS mysqlhttp_users' || true; fi; }

log "creating mysqlhttp_users (1,000 rows)"
TABLE_CREATED=1
db 'DROP TABLE IF EXISTS mysqlhttp_users' \
   'CREATE TABLE mysqlhttp_users (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
        name VARCHAR(64) NOT NULL,
        email VARCHAR(128) NOT NULL,
        score INT NOT NULL,
        created_at DATETIME NOT NULL
    ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4' \
   "INSERT INTO mysqlhttp_users (name, email, score, created_at)
        SELECT CONCAT('user ', seq), CONCAT('user', seq, '@example.com'), (seq * 7919) % 100000,
               '2024-01-01 00:00:00' + INTERVAL seq MINUTE
        FROM seq_1_to_1000" \
   'ANALYZE TABLE mysqlhttp_users'

read -r PORT_CONNECT PORT_PERSISTENT < <(free_ports 2)
[[ -n "${PORT_PERSISTENT:-}" ]] || die "could not pick free ports"

# ---- php-fpm: one static pool of 2 children -------------------------------------------------
FPM_SCRIPT="$ROOT/benchmarks/apps/mysql-users-fpm.php"
{
    echo "; php.ini for the benchmark's php-fpm (generated by benchmarks/mysql-http.sh)"
    echo "memory_limit = 128M"
    echo "output_buffering = 4096"
    echo "expose_php = Off"
    echo "error_log = $TMP/php-fpm-php-errors.log"
    echo "opcache.enable = 1"
    echo "opcache.validate_timestamps = 0"
    echo "opcache.memory_consumption = 64"
} > "$TMP/php.ini"
# The JIT bin/spindle runs with, for both sides alike. On the command line: Debian's
# conf.d/10-opcache.ini sets opcache.jit=off, and the scan directory is read after php.ini.
FPM_INI=(-d opcache.jit=tracing -d opcache.jit_buffer_size=64M)
fpm_load_opcache
FPM_MODULES="$("$FPM_BIN" -c "$TMP/php.ini" -m 2>/dev/null || true)"
grep -qx 'pdo_mysql' <<<"$FPM_MODULES" || die "php-fpm has no pdo_mysql (apt-get install php8.2-mysql)"
[[ "$("$FPM_BIN" -c "$TMP/php.ini" "${FPM_INI[@]}" -i 2>/dev/null | awk -F' => ' '$1 == "opcache.jit" { print $2; exit }')" == tracing ]] \
    || die "php-fpm does not take opcache.jit=tracing"
{
    fpm_global_conf
    echo
    fpm_static_pool users 2 "$TMP/fpm.sock"
} > "$TMP/php-fpm.conf"
start_fpm "${FPM_INI[@]}"

# ---- nginx: two FastCGI fronts to that pool (connect per request / persistent PDO) ----------
if [[ "$FPM_KEEP_CONN" == 1 ]]; then KEEP_CONN=on; KEEPALIVE="keepalive 1;"; else KEEP_CONN=off; KEEPALIVE=""; fi
fastcgi_server() {   # fastcgi_server PORT PERSISTENT
    cat <<EOF
    server {
        listen 127.0.0.1:$1;
        location / {
            fastcgi_pass fpm;
            fastcgi_keep_conn $KEEP_CONN;
            fastcgi_param SCRIPT_FILENAME   $FPM_SCRIPT;
            fastcgi_param SCRIPT_NAME       /mysql-users-fpm.php;
            fastcgi_param QUERY_STRING      \$query_string;
            fastcgi_param REQUEST_METHOD    \$request_method;
            fastcgi_param REQUEST_URI       \$request_uri;
            fastcgi_param SERVER_PROTOCOL   \$server_protocol;
            fastcgi_param REMOTE_ADDR       \$remote_addr;
            fastcgi_param SERVER_PORT       \$server_port;
            fastcgi_param MYSQL_HOST        $MYSQL_HOST;
            fastcgi_param MYSQL_PORT        $MYSQL_PORT;
            fastcgi_param MYSQL_USER        $MYSQL_USER;
            fastcgi_param MYSQL_PASSWORD    $MYSQL_PASSWORD;
            fastcgi_param MYSQL_DATABASE    $MYSQL_DATABASE;
            fastcgi_param MYSQL_PERSISTENT  $2;
        }
    }
EOF
}
write_nginx_conf application/json "$(cat <<EOF
    upstream fpm {
        server unix:$TMP/fpm.sock;
        $KEEPALIVE
    }
$(fastcgi_server "$PORT_CONNECT" 0)
$(fastcgi_server "$PORT_PERSISTENT" 1)
EOF
)"
start_nginx

# ---- Spindle --------------------------------------------------------------------------------
start_spindle() {   # start_spindle NAME BIN APP: sets SPINDLE_PID and SPINDLE_PORT
    spawn_spindle "$1" "$1" "$TMP/$1.log" 20 \
        php ${SPINDLE_PHP_ARGS[@]+"${SPINDLE_PHP_ARGS[@]}"} "$2" serve "$3" --host=127.0.0.1 --port=0 --workers="$WORKERS"
}
start_spindle spindle "$SPINDLE_BIN" benchmarks/apps/mysql-users.php
PORT_SPINDLE="$SPINDLE_PORT"
PID_SPINDLE="$SPINDLE_PID"
BASELINE_PID=""
if [[ -n "$BASELINE_DIR" ]]; then
    # Another checkout (an earlier commit, its own vendor/) served the same way, measured in the same rounds.
    start_spindle baseline "$BASELINE_DIR/bin/spindle" "$BASELINE_DIR/benchmarks/apps/mysql-users.php"
    BASELINE_PID="$SPINDLE_PID"
    PORT_BASELINE="$SPINDLE_PORT"
fi

# ---- the three must give the same answers ---------------------------------------------------
for path in '/user?id=42' '/batch?start=5'; do
    a="$(fetch_ready "http://127.0.0.1:$PORT_CONNECT$path" "$FPM_PID")"
    b="$(fetch_ready "http://127.0.0.1:$PORT_PERSISTENT$path" "$FPM_PID")"
    c="$(fetch_ready "http://127.0.0.1:$PORT_SPINDLE$path" "$PID_SPINDLE")"
    if [[ -n "$BASELINE_PID" ]]; then
        d="$(fetch_ready "http://127.0.0.1:$PORT_BASELINE$path" "$BASELINE_PID")"
        [[ "$d" == "$c" ]] || die "different answers for $path: Spindle '$c', baseline '$d'"
    fi
    [[ "$a" == "$b" && "$a" == "$c" ]] || die "different answers for $path: fpm '$a', fpm persistent '$b', Spindle '$c'"
    log "ok: $path answers $c"
done

# ---- measure --------------------------------------------------------------------------------
cat > "$TMP/user.lua" <<'LUA'
math.randomseed(42)
request = function()
    return wrk.format(nil, "/user?id=" .. math.random(1, 1000))
end
LUA
cat > "$TMP/batch.lua" <<'LUA'
math.randomseed(43)
request = function()
    return wrk.format(nil, "/batch?start=" .. math.random(0, 999))
end
LUA

SCENARIOS=()
[[ "$ONLY" == "" || "$ONLY" == user ]] && SCENARIOS+=("user|fetch a user by id (/user?id=N)")
[[ "$ONLY" == "" || "$ONLY" == batch ]] && SCENARIOS+=("batch|100 queries per request (/batch)")
(( ${#SCENARIOS[@]} > 0 )) || die "ONLY must be user or batch"
TARGETS=("connect|nginx + php-fpm (2 children), native PDO, connect per request|$PORT_CONNECT"
         "persistent|nginx + php-fpm (2 children), native PDO, persistent connection|$PORT_PERSISTENT"
         "spindle|Spindle --workers=$WORKERS, Spindle\\Database\\Pdo, pool of $POOL_SIZE per worker|$PORT_SPINDLE")
[[ -n "$BASELINE_PID" ]] && TARGETS+=("baseline|Spindle as in $BASELINE_DIR, same settings|$PORT_BASELINE")
median_index() {   # median_index "v1 v2 ...": the index of the median value (the lower middle one)
    echo "$1" | tr ' ' '\n' | awk 'NF { print NR - 1, $1 }' | sort -k2 -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}
nth() { echo "$1" | tr "${3:- }" '\n' | sed -n "$(( $2 + 1 ))p"; }
# CPU time (user + system, in clock ticks) of a server: the process and its children (php-fpm's
# pool children, Spindle's workers). Divided by the requests served, it tells what a request costs
# the PHP side whatever else runs on the machine (MariaDB's share is not counted).
server_ticks() {
    # shellcheck disable=SC2046
    cpu_ticks "$1" $(ps -o pid= --ppid "$1" 2>/dev/null)
}
TICK_MS="$(awk -v hz="$(getconf CLK_TCK)" 'BEGIN { print 1000 / hz }')"
# MariaDB's own CPU per request: what serving the queries of one request costs the server, which
# depends on how the client talks to it (how many connections are busy at once, the packets).
DB_PID="$(mariadb_pid)"
db_ticks() { if [[ -n "$DB_PID" ]]; then cpu_ticks "$DB_PID"; else echo 0; fi; }
declare -A RPS LAT P99 ERR CPU DBCPU
for ((round = 1; round <= ROUNDS; round++)); do
    for s in "${SCENARIOS[@]}"; do
        scenario="${s%%|*}"
        for t in "${TARGETS[@]}"; do
            IFS='|' read -r key label port <<<"$t"
            url="http://127.0.0.1:$port/"
            (( WARMUP > 0 )) && { run_wrk /dev/null -t2 -c"$CONNS" -d"${WARMUP}s" -s "$TMP/$scenario.lua" "$url" || true; }
            out="$TMP/wrk/$scenario-$key-$round.txt"
            log "round $round/$ROUNDS: $scenario, $key: wrk -t2 -c$CONNS -d${DURATION}s"
            server_pid="$FPM_PID"
            [[ "$key" == spindle ]] && server_pid="$PID_SPINDLE"
            [[ "$key" == baseline ]] && server_pid="$BASELINE_PID"
            ticks_before="$(server_ticks "$server_pid")"
            db_before="$(db_ticks)"
            run_wrk "$out" -t2 -c"$CONNS" -d"${DURATION}s" --timeout 10s --latency -s "$TMP/$scenario.lua" "$url" \
                || { cat "$out" >&2; die "wrk failed"; }
            ticks="$(( $(server_ticks "$server_pid") - ticks_before ))"
            db_used="$(( $(db_ticks) - db_before ))"
            CPU[$scenario-$key]+="$(awk -v t="$ticks" -v ms="$TICK_MS" -v n="$(wrk_requests "$out")" 'BEGIN { if (n + 0 == 0) print "-"; else printf "%.2f", t * ms / n }') "
            DBCPU[$scenario-$key]+="$(awk -v t="$db_used" -v ms="$TICK_MS" -v n="$(wrk_requests "$out")" 'BEGIN { if (n + 0 == 0) print "-"; else printf "%.2f", t * ms / n }') "
            rps="$(wrk_rps "$out")"
            [[ -n "$rps" ]] || { cat "$out" >&2; die "no Requests/sec in wrk output"; }
            log "  $rps req/s, latency avg $(wrk_latency "$out"), p99 $(wrk_p99 "$out"), server CPU $(nth "${CPU[$scenario-$key]}" $(( round - 1 ))) ms/request, MariaDB CPU $(nth "${DBCPU[$scenario-$key]}" $(( round - 1 ))) ms/request, errors: $(wrk_errors "$out")"
            RPS[$scenario-$key]+="$rps "
            LAT[$scenario-$key]+="$(wrk_latency "$out") "
            P99[$scenario-$key]+="$(wrk_p99 "$out") "
            ERR[$scenario-$key]+="$(wrk_errors "$out")|"
        done
    done
done

# ---- report ---------------------------------------------------------------------------------

STAMP="$(date +%Y-%m-%d-%H%M%S)"
RESULT_FILE="$ROOT/benchmarks/results/mysql-http-$STAMP.md"
report() {
    echo "# MySQL over HTTP: nginx + php-fpm against Spindle"
    echo
    echo "- date: $(date -Iseconds); $(nproc) cores: $(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)"
    echo "- PHP $(php -r 'echo PHP_VERSION;'); $("$NGINX_BIN" -v 2>&1 | sed 's#.*/#nginx #'); MariaDB $(php -r '$p = new PDO(sprintf("mysql:host=%s;port=%d", getenv("MYSQL_HOST"), getenv("MYSQL_PORT")), getenv("MYSQL_USER"), getenv("MYSQL_PASSWORD")); echo $p->getAttribute(PDO::ATTR_SERVER_VERSION);') over TCP on 127.0.0.1, on the same 2 cores"
    echo "- wrk -t2 -c$CONNS, ${DURATION} s per run after ${WARMUP} s of warm-up, median of $ROUNDS round(s); ids drawn at random by wrk"
    echo "- php-fpm: pm=static, 2 children, OPcache + tracing JIT (validate_timestamps off), unix socket, fastcgi_keep_conn $KEEP_CONN"
    echo "- Spindle: php ${SPINDLE_PHP_ARGS[*]+"${SPINDLE_PHP_ARGS[*]} "}$SPINDLE_BIN serve benchmarks/apps/mysql-users.php --workers=$WORKERS (OPcache + tracing JIT), pool of $POOL_SIZE connections per worker"
    local s scenario title t key label port i
    for s in "${SCENARIOS[@]}"; do
        scenario="${s%%|*}"
        title="${s#*|}"
        echo
        echo "## $title"
        echo
        echo "| target | req/s (median) | all rounds | latency avg | p99 | PHP CPU ms/request | MariaDB CPU ms/request | Spindle vs this | errors |"
        echo "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- |"
        local spindle_i spindle_rps
        spindle_i="$(median_index "${RPS[$scenario-spindle]}")"
        spindle_rps="$(nth "${RPS[$scenario-spindle]}" "$spindle_i")"
        for t in "${TARGETS[@]}"; do
            IFS='|' read -r key label port <<<"$t"
            i="$(median_index "${RPS[$scenario-$key]}")"
            local rps
            rps="$(nth "${RPS[$scenario-$key]}" "$i")"
            printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$label" "$rps" "$(echo "${RPS[$scenario-$key]}" | sed 's/ *$//; s/ /, /g')" \
                "$(nth "${LAT[$scenario-$key]}" "$i")" "$(nth "${P99[$scenario-$key]}" "$i")" "$(nth "${CPU[$scenario-$key]}" "$i")" \
                "$(nth "${DBCPU[$scenario-$key]}" "$i")" \
                "$([[ "$key" == spindle ]] && echo '' || ratio "$spindle_rps" "$rps")" "$(nth "${ERR[$scenario-$key]}" "$i" '|')"
        done
    done
}
REPORT="$(report)"
publish_report "$RESULT_FILE"
