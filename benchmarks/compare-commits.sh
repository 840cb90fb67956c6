#!/usr/bin/env bash
# The same app served by two commits of Spindle side by side: the regression guard to run before
# landing any change to the request path.
#
#   bash benchmarks/compare-commits.sh BASE [HEAD]       # HEAD defaults to the working tree
#   APP=blog12 ROUNDS=5 bash benchmarks/compare-commits.sh e36d931
#
# Each side is a copy of its commit (git archive) with its own Composer install, serving the same
# app directory of that copy with the same seeded SQLite database, the same environment and the
# same PHP settings (OPcache + tracing JIT with the trace budget bin/spindle gives itself,
# src/Server/JitRestart.php), 2 workers each. Rounds are interleaved (the order of
# the two sides alternates every round) so that a busier minute of this shared machine hits both;
# for every route the report gives each side's median req/s over the rounds, the ratio of the
# medians and the ratio of each round, CPU per request, and each worker's RSS after one request
# and after the load.
#
# Env knobs:
#   APP        blog (examples/blog, Laravel 8; default), blog12 (examples/blog12, Laravel 12),
#              laravel12 (tests/fixtures/laravel12-app: /hello, /view) or symfony74
#              (tests/fixtures/symfony74-app: /hello); both commits must have the app
#   ROUTES     paths to measure (default: /hello /users/{id} /posts for the blogs; {id} is a
#              random id of 1..1000 per request)
#   ROUNDS     interleaved rounds (default 3)
#   DURATION   seconds per wrk run (default 5)
#   WARMUP     seconds of unrecorded load before each run (default 1)
#   CONNS      wrk connections (default 32, wrk -t2)
#   WORKERS    Spindle workers on each side (default 2)
#   KEEP       1 = keep the copies in benchmarks/.compare/<commit> (faster next time; default 1)
#   SAME_APP   1 = both sides serve HEAD's copy of the app (its code, routes, config and Composer
#              packages), each with its own Spindle: what changed in Spindle alone, where an app
#              that grew between the commits (more routes, middleware, packages) would otherwise
#              count against HEAD (default 0: each commit's own app)
#   PHP_EXTRA  more PHP settings for both sides, e.g. "-d opcache.jit_max_root_traces=1024" (PHP's
#              default trace budget)
#   FPM        1 = a third side: nginx + php-fpm (pm=static, WORKERS children, the same PHP
#              settings as both Spindles, on php-fpm's command line too, so that Debian's conf.d
#              does not turn its JIT off) serving HEAD's copy of the app with HEAD's environment
#              and caches; the report adds each commit's ratio to it, round by round. With
#              SAME_APP=1 all three serve the same app. CPU per request counts php-fpm's children
#              and nginx's workers (default 0)
#   DB         sqlite (default: a seeded file in the temp dir) or mysql (the blogs only: the private
#              MariaDB of scripts/mariadb, tables prefixed cmp<pid>_, seeded once for both sides
#              and dropped on exit; default ROUTES then /users/{id} /batch; the report adds
#              MariaDB's CPU per request, beside each side's)
#   BASE_ENV_EXTRA, HEAD_ENV_EXTRA
#              more environment variables for one side, as VAR=value words: one setting against
#              another on the same commit, e.g.
#              HEAD_ENV_EXTRA=SPINDLE_WARM_INSTANCES=1 bash benchmarks/compare-commits.sh HEAD
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

BASE_REF="${1:?usage: compare-commits.sh BASE [HEAD]}"
HEAD_REF="${2:-}"
APP="${APP:-blog}"
ROUNDS="${ROUNDS:-3}"
DURATION="${DURATION:-5}"
WARMUP="${WARMUP:-1}"
CONNS="${CONNS:-32}"
WORKERS="${WORKERS:-2}"
KEEP="${KEEP:-1}"
SAME_APP="${SAME_APP:-0}"
FPM="${FPM:-0}"
DB="${DB:-sqlite}"
for n in "$ROUNDS" "$DURATION" "$WARMUP" "$CONNS" "$WORKERS"; do
    [[ "$n" =~ ^[0-9]+$ ]] || die "ROUNDS, DURATION, WARMUP, CONNS and WORKERS must be whole numbers"
done
case "$APP" in
    blog) APP_DIR=examples/blog; DEFAULT_ROUTES="/hello /users/{id} /posts" ;;
    blog12) APP_DIR=examples/blog12; DEFAULT_ROUTES="/hello /users/{id} /posts" ;;
    laravel12) APP_DIR=tests/fixtures/laravel12-app; DEFAULT_ROUTES="/hello /view" ;;
    symfony74) APP_DIR=tests/fixtures/symfony74-app; DEFAULT_ROUTES="/hello" ;;
    *) die "APP must be blog, blog12, laravel12 or symfony74" ;;
esac
[[ "$DB" == sqlite || "$DB" == mysql ]] || die "DB must be sqlite or mysql"
if [[ "$DB" == mysql ]]; then
    [[ "$APP" == blog || "$APP" == blog12 ]] || die "DB=mysql needs APP=blog or blog12"
    DEFAULT_ROUTES="/users/{id} /batch"
fi
ROUTES="${ROUTES:-$DEFAULT_ROUTES}"

need_tools wrk curl deb:php8.2-sqlite3
[[ "$FPM" == 1 ]] && need_tools nginx fpm && find_servers
[[ "$APP" == blog ]] && need_tools deb:php-laravel-framework
[[ "$APP" == symfony74 ]] && need_tools deb:php-symfony-runtime

make_tmp spindle-compare
COPIES="$ROOT/benchmarks/.compare"
mkdir -p "$COPIES"

# checkout REF: prints the directory of a ready copy of REF (the working tree when REF is empty).
checkout() {
    local ref="$1" sha dir
    if [[ -z "$ref" ]]; then
        dir="$ROOT"
    else
        sha="$(git rev-parse --verify "$ref^{commit}")" || die "no commit $ref"
        dir="$COPIES/${sha:0:12}"
        if [[ ! -f "$dir/.ready-$APP" ]]; then
            log "copy of $ref (${sha:0:12}) in ${dir#"$ROOT"/}"
            rm -rf "$dir"
            mkdir -p "$dir"
            git archive "$sha" | tar -x -C "$dir"
        fi
        (( KEEP )) || COPY_DIRS+=("$dir")
    fi
    if [[ ! -f "$dir/.ready-$APP" ]]; then
        (cd "$dir" && composer install --no-interaction --no-progress --quiet) >&2
        case "$APP" in
            blog) composer install --no-interaction --no-progress --quiet --working-dir="$dir/$APP_DIR" >&2 ;;
            # This checkout's composer-fixture (it finds the registry's missing packages from here).
            *) "$ROOT/scripts/composer-fixture" "$dir/$APP_DIR" install --no-progress --quiet >&2 ;;
        esac
        [[ "$dir" == "$ROOT" ]] || touch "$dir/.ready-$APP"
    fi
    echo "$dir"
}
COPY_DIRS=()
DB_PREFIX="cmp$$_"
DROP_TABLES=0
drop_tables() {
    php -r '
        [$host, $port, $db, $user, $password, $prefix] = array_slice($argv, 1);
        $pdo = new PDO("mysql:host=$host;port=$port;dbname=$db", $user, $password);
        $pdo->exec("SET FOREIGN_KEY_CHECKS = 0");
        foreach (["post_posts", "posts", "password_resets", "users", "migrations"] as $t) {
            $pdo->exec("DROP TABLE IF EXISTS `$prefix$t`");
        }' "$MYSQL_HOST" "$MYSQL_PORT" "$MYSQL_DATABASE" "$MYSQL_USER" "$MYSQL_PASSWORD" "$DB_PREFIX" \
        || log "could not drop the ${DB_PREFIX}* tables"
    return 0
}
on_cleanup() {
    local d
    for d in "${COPY_DIRS[@]}"; do rm -rf "$d"; done
    if (( DROP_TABLES )); then drop_tables; fi
}
if [[ "$DB" == mysql ]]; then
    need_tools deb:php8.2-mysql
    use_mariadb
    DROP_TABLES=1
fi

BASE_DIR="$(checkout "$BASE_REF")"
HEAD_DIR="$(checkout "$HEAD_REF")"
if [[ "$SAME_APP" == 1 ]]; then
    # BASE's Spindle (src, bin, vendor) with HEAD's app: the app's vendor/spindle/spindle is a
    # relative link, so in this copy it resolves to BASE's Spindle.
    log "SAME_APP: the base serves HEAD's $APP_DIR"
    mkdir -p "$TMP/base-same-app/$(dirname "$APP_DIR")"
    cp -a "$BASE_DIR/src" "$BASE_DIR/bin" "$BASE_DIR/vendor" "$BASE_DIR/composer.json" "$TMP/base-same-app/"
    cp -a "$HEAD_DIR/$APP_DIR" "$TMP/base-same-app/$APP_DIR"
    BASE_DIR="$TMP/base-same-app"
fi
BASE_LABEL="$(git rev-parse --short "$BASE_REF")"
HEAD_LABEL="${HEAD_REF:+$(git rev-parse --short "$HEAD_REF")}"
HEAD_LABEL="${HEAD_LABEL:-working tree ($(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src || echo '+changes'))}"
BASE_LABEL+="${BASE_ENV_EXTRA:+ ($BASE_ENV_EXTRA)}"
HEAD_LABEL+="${HEAD_ENV_EXTRA:+ ($HEAD_ENV_EXTRA)}"

# The same environment for both sides; Laravel's caches are per side (they hold the app's paths).
APP_KEY="base64:$(php -r 'echo base64_encode(random_bytes(32));')"
side_env() {   # side_env NAME DIR: the environment of one side, one VAR=value per line
    local name="$1" dir="$2"
    mkdir -p "$TMP/$name/cache" "$TMP/$name/views"
    cat <<EOF
APP_ENV=production
APP_DEBUG=false
APP_KEY=$APP_KEY
LOG_CHANNEL=stderr
LOG_LEVEL=warning
SESSION_DRIVER=cookie
CACHE_DRIVER=array
CACHE_STORE=array
$(if [[ "$DB" == mysql ]]; then
    printf '%s\n' DB_CONNECTION=mysql "DB_HOST=$MYSQL_HOST" "DB_PORT=$MYSQL_PORT" "DB_DATABASE=$MYSQL_DATABASE" \
        "DB_USERNAME=$MYSQL_USER" "DB_PASSWORD=$MYSQL_PASSWORD" "DB_PREFIX=$DB_PREFIX"
else
    printf '%s\n' DB_CONNECTION=sqlite "DB_DATABASE=$TMP/app.sqlite" DB_PREFIX= "DATABASE_URL=sqlite:///$TMP/app.sqlite"
fi)
VIEW_COMPILED_PATH=$TMP/$name/views
APP_CONFIG_CACHE=$TMP/$name/cache/config.php
APP_ROUTES_CACHE=$TMP/$name/cache/routes.php
APP_PACKAGES_CACHE=$TMP/$name/cache/packages.php
APP_SERVICES_CACHE=$TMP/$name/cache/services.php
APP_EVENTS_CACHE=$TMP/$name/cache/events.php
APP_SECRET=compare-commits
EOF
    local extra
    [[ "$name" == base ]] && extra="${BASE_ENV_EXTRA:-}" || extra="${HEAD_ENV_EXTRA:-}"
    # shellcheck disable=SC2086 # VAR=value words
    [[ -z "$extra" ]] || printf '%s\n' $extra
}
mapfile -t BASE_ENV < <(side_env base "$BASE_DIR")
mapfile -t HEAD_ENV < <(side_env head "$HEAD_DIR")

if [[ "$APP" == blog || "$APP" == blog12 ]]; then
    log "seeding the blog ($DB)"
    env "${HEAD_ENV[@]}" php "$HEAD_DIR/$APP_DIR/artisan" --no-interaction blog:seed >/dev/null
    for side in base head; do
        dir="$BASE_DIR"; envs=("${BASE_ENV[@]}")
        [[ "$side" == head ]] && { dir="$HEAD_DIR"; envs=("${HEAD_ENV[@]}"); }
        env "${envs[@]}" php "$dir/$APP_DIR/artisan" --no-interaction config:cache >/dev/null
        env "${envs[@]}" php "$dir/$APP_DIR/artisan" --no-interaction route:cache >/dev/null
    done
fi
if [[ "$APP" == laravel12 ]]; then
    for side in base head; do
        dir="$BASE_DIR"; envs=("${BASE_ENV[@]}")
        [[ "$side" == head ]] && { dir="$HEAD_DIR"; envs=("${HEAD_ENV[@]}"); }
        env "${envs[@]}" php "$dir/$APP_DIR/artisan" --no-interaction config:cache >/dev/null
    done
fi

# lib.sh's PHP_SHARED_SETTINGS: the same for both sides.
PHP_ARGS=("${PHP_SHARED_ARGS[@]}")
# shellcheck disable=SC2206 # PHP_EXTRA is a list of words
PHP_ARGS+=(${PHP_EXTRA:-})

spawn_spindle spindle-base "Spindle $BASE_LABEL" "$TMP/base.log" 60 \
    env "${BASE_ENV[@]}" php "${PHP_ARGS[@]}" "$BASE_DIR/bin/spindle" serve "$BASE_DIR/$APP_DIR" --host=127.0.0.1 --port=0 --workers="$WORKERS"
BASE_PID="$SPINDLE_PID"; BASE_PORT="$SPINDLE_PORT"
spawn_spindle spindle-head "Spindle $HEAD_LABEL" "$TMP/head.log" 60 \
    env "${HEAD_ENV[@]}" php "${PHP_ARGS[@]}" "$HEAD_DIR/bin/spindle" serve "$HEAD_DIR/$APP_DIR" --host=127.0.0.1 --port=0 --workers="$WORKERS"
HEAD_PID="$SPINDLE_PID"; HEAD_PORT="$SPINDLE_PORT"
SIDES=(base head)
if [[ "$FPM" == 1 ]]; then
    # php-fpm serves HEAD's copy of the app with HEAD's environment (its config and route caches
    # included); an empty value is left unset, as php-fpm refuses an empty env[].
    fpm_php_ini
    {
        fpm_global_conf
        fpm_static_pool fpm "$WORKERS" "$TMP/fpm.sock"
        for kv in "${HEAD_ENV[@]}"; do [[ -z "${kv#*=}" ]] || echo "env[${kv%%=*}] = \"${kv#*=}\""; done
    } > "$TMP/php-fpm.conf"
    start_fpm "${PHP_ARGS[@]}"
    # (php-fpm -i is read whole before awk looks at it: awk leaving the pipe at its match would
    # kill php-fpm with SIGPIPE, a failure under pipefail whenever php-fpm had more to write.)
    FPM_JIT="$(awk '$1 == "opcache.jit" { print $3; exit }' <<<"$("$FPM_BIN" -c "$TMP/php.ini" "${PHP_ARGS[@]}" -i 2>/dev/null)")"
    [[ "$FPM_JIT" == tracing ]] || die "php-fpm's opcache.jit is '$FPM_JIT', not tracing as Spindle's"
    read -r FPM_PORT < <(free_ports 1)
    mkdir -p "$TMP/nginx-tmp"
    write_nginx_conf text/html "    server {
        listen 127.0.0.1:$FPM_PORT;
        root $HEAD_DIR/$APP_DIR/public;
        location / {
            fastcgi_pass unix:$TMP/fpm.sock;
            include /etc/nginx/fastcgi_params;
            fastcgi_param SCRIPT_FILENAME $HEAD_DIR/$APP_DIR/public/index.php;
            fastcgi_param SCRIPT_NAME     /index.php;
        }
    }"
    start_nginx
    SIDES+=(fpm)
fi

cat > "$TMP/ids.lua" <<'EOF'
-- {id} in the path: a random id of the 1,000 users per request
math.randomseed(os.time())
local template = wrk.path
request = function()
    return wrk.format(nil, (template:gsub("%%7Bid%%7D", tostring(math.random(1, 1000))):gsub("{id}", tostring(math.random(1, 1000)))))
end
EOF

workers_of() { ps -o pid= --ppid "$1" | tr -d ' '; }
rss_mb() {   # rss_mb PID...: "a / b" MB of each process
    local pid out=()
    for pid in "$@"; do out+=("$(awk '/^VmRSS/ { printf "%.0f", $2 / 1024 }' "/proc/$pid/status" 2>/dev/null || echo '?')"); done
    local IFS=/
    echo "${out[*]}" | sed 's#/# / #g'
}

# Same answers from both sides, and the RSS of each worker after a few single requests.
for route in $ROUTES; do
    path="${route//\{id\}/5}"
    b="$(curl -s --max-time 30 "http://127.0.0.1:$BASE_PORT$path")"
    h="$(curl -s --max-time 30 "http://127.0.0.1:$HEAD_PORT$path")"
    [[ -n "$b" && "$b" == "$h" ]] || { dump_logs 20; die "$path differs: base '${b:0:200}', head '${h:0:200}'"; }
    if [[ "$FPM" == 1 && -z "${FPM_READY:-}" ]]; then
        # The first route waits for php-fpm's children and must be the same answer; a page may
        # name the server that sent it (the blog's footer does), so the others must be a 200.
        wait_for_body "nginx + php-fpm" "http://127.0.0.1:$FPM_PORT$path" "$h" "$FPM_PID"
        FPM_READY=1
    elif [[ "$FPM" == 1 ]]; then
        code="$(curl -s -o /dev/null -w '%{http_code}' --max-time 30 "http://127.0.0.1:$FPM_PORT$path")"
        [[ "$code" == 200 ]] || { dump_logs 20; die "nginx + php-fpm answers $path with $code"; }
    fi
done
log "ok: ${#SIDES[@]} sides give the same answers"
mapfile -t BASE_WORKERS < <(workers_of "$BASE_PID")
mapfile -t HEAD_WORKERS < <(workers_of "$HEAD_PID")
RSS_IDLE_BASE="$(rss_mb "${BASE_WORKERS[@]}")"
RSS_IDLE_HEAD="$(rss_mb "${HEAD_WORKERS[@]}")"

declare -A RPS CPU P99 DBCPU
DB_PID=""
[[ "$DB" == mysql ]] && DB_PID="$(mariadb_pid)"
wrk_p99_ms() {   # wrk's 99th percentile latency in ms (wrk prints us, ms or s)
    awk '$1 == "99%" { v = $2; u = v; sub(/[0-9.]+/, "", u); sub(/[a-z]+$/, "", v);
        if (u == "us") v /= 1000; else if (u == "s") v *= 1000; else if (u == "m") v *= 60000; printf "%.1f", v; exit }' "$1"
}
LOAD_BEFORE="$(cut -d" " -f1-3 /proc/loadavg)"
CLK_TCK="$(getconf CLK_TCK)"
measure() {   # measure SIDE ROUTE ROUND
    local side="$1" route="$2" round="$3" port pids out args before ticks n
    case "$side" in
        base) port="$BASE_PORT"; pids=("${BASE_WORKERS[@]}") ;;
        head) port="$HEAD_PORT"; pids=("${HEAD_WORKERS[@]}") ;;
        fpm) port="$FPM_PORT"; mapfile -t pids < <(workers_of "$FPM_PID"; workers_of "$NGINX_PID") ;;
    esac
    args=(-t2 -c"$CONNS" --timeout 30s --latency)
    [[ "$route" == *"{id}"* ]] && args+=(-s "$TMP/ids.lua")
    (( WARMUP > 0 )) && { run_wrk /dev/null "${args[@]}" -d"${WARMUP}s" "http://127.0.0.1:$port$route" || true; }
    out="$TMP/wrk/$side-${route//\//_}-$round.txt"
    before="$(cpu_ticks "${pids[@]}")"
    local db_before=0 db_ticks=0
    [[ -n "$DB_PID" ]] && db_before="$(cpu_ticks "$DB_PID")"
    run_wrk "$out" "${args[@]}" -d"${DURATION}s" "http://127.0.0.1:$port$route" || { cat "$out" >&2; die "wrk failed"; }
    ticks=$(( $(cpu_ticks "${pids[@]}") - before ))
    [[ -n "$DB_PID" ]] && db_ticks=$(( $(cpu_ticks "$DB_PID") - db_before ))
    n="$(wrk_requests "$out")"
    DBCPU[$side|$route]+="$(awk -v t="$db_ticks" -v n="${n:-0}" -v hz="$CLK_TCK" 'BEGIN { if (n + 0 > 0) printf "%.3f", t * 1000 / hz / n; else print 0 }') "
    RPS[$side|$route]+="$(wrk_rps "$out") "
    P99[$side|$route]+="$(wrk_p99_ms "$out") "
    CPU[$side|$route]+="$(awk -v t="$ticks" -v n="${n:-0}" -v hz="$CLK_TCK" 'BEGIN { if (n + 0 > 0) printf "%.3f", t * 1000 / hz / n; else print 0 }') "
    log "round $round: $side $route $(wrk_rps "$out") req/s, errors: $(wrk_errors "$out")"
}
for ((round = 1; round <= ROUNDS; round++)); do
    for route in $ROUTES; do
        # Each round starts with the next side: every side goes first, last (and between) in turn.
        for ((i = 0; i < ${#SIDES[@]}; i++)); do
            measure "${SIDES[(round - 1 + i) % ${#SIDES[@]}]}" "$route" "$round"
        done
    done
done
RSS_LOAD_BASE="$(rss_mb "${BASE_WORKERS[@]}")"
RSS_LOAD_HEAD="$(rss_mb "${HEAD_WORKERS[@]}")"

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.2f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
round_ratios() {   # round_ratios "h1 h2 .." "b1 b2 ..": "0.98 1.01 .."
    paste -d' ' <(tr ' ' '\n' <<<"$1" | grep -v '^$') <(tr ' ' '\n' <<<"$2" | grep -v '^$') \
        | awk '{ printf "%s%.2f", (NR > 1 ? " " : ""), $1 / $2 }'
}

report() {
    echo "# $APP_DIR: $HEAD_LABEL against $BASE_LABEL$( [[ "$SAME_APP" == 1 ]] && echo " (both serving HEAD's app)")"
    echo
    echo "- date: $(date -Iseconds); nproc $(nproc); $(cpu_model); load before: $LOAD_BEFORE"
    echo "- PHP $(php -r 'echo PHP_VERSION;') with ${PHP_ARGS[*]}"
    echo "- $WORKERS workers each, wrk -t2 -c$CONNS, ${DURATION}s per run after ${WARMUP}s warm-up, $ROUNDS interleaved rounds; $([[ "$DB" == mysql ]] && echo "MariaDB (scripts/mariadb, on the same cores), tables ${DB_PREFIX}*" || echo SQLite)"
    echo
    echo "| route | $BASE_LABEL req/s (median) | head req/s (median) | head / base | per round | CPU ms per request base / head | p99 ms base / head |"
    echo "| --- | ---: | ---: | ---: | --- | ---: | ---: |"
    local route b h
    for route in $ROUTES; do
        b="$(median <<<"${RPS[base|$route]}")"
        h="$(median <<<"${RPS[head|$route]}")"
        printf '| %s | %s | %s | **%s** | %s | %s / %s | %s / %s |\n' "$route" "$b" "$h" "$(ratio "$h" "$b")" \
            "$(round_ratios "${RPS[head|$route]}" "${RPS[base|$route]}")" \
            "$(median <<<"${CPU[base|$route]}")" "$(median <<<"${CPU[head|$route]}")" \
            "$(median <<<"${P99[base|$route]}")" "$(median <<<"${P99[head|$route]}")"
    done
    if [[ "$DB" == mysql ]]; then
        echo
        echo "MariaDB's CPU per request (mariadbd, /proc), median of the rounds:"
        echo
        echo "| route | $BASE_LABEL ms | head ms |$( [[ "$FPM" == 1 ]] && echo " fpm ms |")"
        echo "| --- | ---: | ---: |$( [[ "$FPM" == 1 ]] && echo " ---: |")"
        for route in $ROUTES; do
            printf '| %s | %s | %s |%s\n' "$route" "$(median <<<"${DBCPU[base|$route]}")" "$(median <<<"${DBCPU[head|$route]}")" \
                "$( [[ "$FPM" == 1 ]] && echo " $(median <<<"${DBCPU[fpm|$route]}") |")"
        done
    fi
    if [[ "$FPM" == 1 ]]; then
        echo
        echo "nginx + php-fpm ($WORKERS children, opcache.jit=$FPM_JIT per php-fpm -i) serving HEAD's app in the same rounds:"
        echo
        echo "| route | nginx + php-fpm req/s (median) | head / fpm | per round | $BASE_LABEL / fpm | per round | CPU ms per request fpm (children and nginx) |"
        echo "| --- | ---: | ---: | --- | ---: | --- | ---: |"
        local f
        for route in $ROUTES; do
            f="$(median <<<"${RPS[fpm|$route]}")"
            printf '| %s | %s | **%s** | %s | %s | %s | %s |\n' "$route" "$f" \
                "$(ratio "$(median <<<"${RPS[head|$route]}")" "$f" 1)" "$(round_ratios "${RPS[head|$route]}" "${RPS[fpm|$route]}")" \
                "$(ratio "$(median <<<"${RPS[base|$route]}")" "$f" 1)" "$(round_ratios "${RPS[base|$route]}" "${RPS[fpm|$route]}")" \
                "$(median <<<"${CPU[fpm|$route]}")"
        done
    fi
    echo
    echo "| worker RSS, MB (each worker) | after one request per route | after the load |"
    echo "| --- | --- | --- |"
    echo "| $BASE_LABEL | $RSS_IDLE_BASE | $RSS_LOAD_BASE |"
    echo "| head | $RSS_IDLE_HEAD | $RSS_LOAD_HEAD |"
}

REPORT="$(report)"
publish_report "$ROOT/benchmarks/results/compare-$APP-$(date +%Y-%m-%d-%H%M%S).md"
