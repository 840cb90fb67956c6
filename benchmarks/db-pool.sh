#!/usr/bin/env bash
# The blog on MySQL under Spindle with several database pool sizes and --concurrency values, side
# by side in interleaved rounds: what to choose as defaults (docs/database.md, "Sessions per
# worker").
#
#   bash benchmarks/db-pool.sh
#   SIDES="4:100 16:100 4:8" ROUTES="batch users posts" ROUNDS=3 bash benchmarks/db-pool.sh
#
# Each side is "POOL:CONCURRENCY[:CORE]" (SPINDLE_DB_POOL, --concurrency, SPINDLE_DB_POOL_CORE: default 4), served by `spindle serve
# --workers=2` (and by a second server with --workers=1 for /sleep). For every route the report
# gives each side's best req/s, its latency (avg / p99) and the CPU per request of the workers and
# of MariaDB, and the sessions the workers held at the end of the run.
#
# Env knobs: SIDES (default "16:100 16:100:16 4:100:4 16:16"), ROUTES (of batch, users, posts, sleep;
# default "batch users posts sleep"), ROUNDS (2), DURATION (8 s), WARMUP (3 s), CONNS (32; /sleep:
# 10 connections on the 1-worker servers, 20 s).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

SIDES="${SIDES:-16:100 16:100:16 4:100:4 16:16}"
ROUTES="${ROUTES:-batch users posts sleep}"
ROUNDS="${ROUNDS:-2}"
DURATION="${DURATION:-8}"
WARMUP="${WARMUP:-3}"
CONNS="${CONNS:-32}"
BLOG="$ROOT/examples/blog"
PREFIX=poolbench_

need_tools wrk curl deb:php-laravel-framework deb:php8.2-mysql
[[ -f "$BLOG/vendor/autoload.php" ]] || composer install --no-interaction --quiet --working-dir="$BLOG"
make_tmp spindle-db-pool-bench
use_mariadb
mkdir -p "$TMP/cache" "$TMP/views" "$TMP/wrk"
ENV_ARGS=(APP_ENV=production "APP_KEY=base64:$(head -c 32 /dev/urandom | base64)" APP_DEBUG=false LOG_CHANNEL=stderr
    SESSION_DRIVER=cookie CACHE_DRIVER=array "VIEW_COMPILED_PATH=$TMP/views"
    "APP_CONFIG_CACHE=$TMP/cache/config.php" "APP_ROUTES_CACHE=$TMP/cache/routes.php"
    DB_CONNECTION=mysql "DB_HOST=$MYSQL_HOST" "DB_PORT=$MYSQL_PORT" "DB_DATABASE=$MYSQL_DATABASE"
    "DB_USERNAME=$MYSQL_USER" "DB_PASSWORD=$MYSQL_PASSWORD" "DB_PREFIX=$PREFIX" SPINDLE_INSTANCE_IDLE_TIMEOUT=600)
artisan() { env "${ENV_ARGS[@]}" php "$BLOG/artisan" --no-interaction "$@"; }
on_cleanup() {
    php -r '$p = new PDO("mysql:host=".$argv[1].";port=".$argv[2].";dbname=".$argv[5], $argv[3], $argv[4]);
        foreach ($p->query("SHOW TABLES LIKE '"'"'poolbench\\_%'"'"'")->fetchAll(PDO::FETCH_COLUMN) as $t) { $p->exec("DROP TABLE `$t`"); }' \
        "$MYSQL_HOST" "$MYSQL_PORT" "$MYSQL_USER" "$MYSQL_PASSWORD" "$MYSQL_DATABASE" 2>/dev/null || true
}
log "seeding the blog (tables $PREFIX*)"
artisan blog:seed >&2
artisan config:cache >/dev/null
artisan route:cache >/dev/null
artisan view:cache >/dev/null

cat > "$TMP/users.lua" <<'LUA'
math.randomseed(os.time())
request = function() return wrk.format("GET", "/users/" .. math.random(1, 1000)) end
LUA

declare -A URL1 URL2 PID1 PID2
for side in $SIDES; do
    IFS=: read -r pool conc core <<<"$side"
    core="${core:-4}"
    spawn_spindle "w2-$side" "Spindle $side" "$TMP/spindle-w2-${side//:/-}.log" 60 \
        env "${ENV_ARGS[@]}" SPINDLE_DB_POOL="$pool" SPINDLE_DB_POOL_CORE="$core" php "${PHP_SHARED_ARGS[@]}" bin/spindle serve "$BLOG" --host=127.0.0.1 --port=0 --workers=2 --concurrency="$conc"
    URL2[$side]="http://127.0.0.1:$SPINDLE_PORT"; PID2[$side]="$SPINDLE_PID"
    if [[ " $ROUTES " == *" sleep "* ]]; then
        spawn_spindle "w1-$side" "Spindle $side, 1 worker" "$TMP/spindle-w1-${side//:/-}.log" 60 \
            env "${ENV_ARGS[@]}" SPINDLE_DB_POOL="$pool" SPINDLE_DB_POOL_CORE="$core" php "${PHP_SHARED_ARGS[@]}" bin/spindle serve "$BLOG" --host=127.0.0.1 --port=0 --workers=1 --concurrency="$conc"
        URL1[$side]="http://127.0.0.1:$SPINDLE_PORT"; PID1[$side]="$SPINDLE_PID"
    fi
done
for side in $SIDES; do
    body="$(curl -s --max-time 30 "${URL2[$side]}/batch")"
    [[ "$body" == *'"users_found":99'* ]] || die "side $side: /batch answered: ${body:0:300}"
done
log "measuring: sides $SIDES; routes $ROUTES; $ROUNDS rounds"

declare -A BEST LAT P99 CPU HELD
for ((round = 1; round <= ROUNDS; round++)); do
    for route in $ROUTES; do
        for side in $SIDES; do
            args=(-t2 -c"$CONNS" --timeout 30s --latency) url="${URL2[$side]}/$route" pids=() duration="$DURATION"
            [[ "$route" == users ]] && args+=(-s "$TMP/users.lua") && url="${URL2[$side]}/"
            if [[ "$route" == sleep ]]; then
                args=(-t1 -c10 --timeout 30s --latency) url="${URL1[$side]}/sleep" duration=20
                mapfile -t pids < <(ps -o pid= --ppid "${PID1[$side]}")
            else
                mapfile -t pids < <(ps -o pid= --ppid "${PID2[$side]}")
                (( WARMUP > 0 )) && run_wrk /dev/null "${args[@]}" -d"${WARMUP}s" "$url"
            fi
            out="$TMP/wrk/$route-${side//:/-}-$round.txt"
            app_before="$(cpu_ticks "${pids[@]}")" db_before="$(cpu_ticks "$(mariadb_pid)")"
            run_wrk "$out" "${args[@]}" -d"${duration}s" "$url" || die "wrk failed: $(cat "$out")"
            app=$(( $(cpu_ticks "${pids[@]}") - app_before )) db=$(( $(cpu_ticks "$(mariadb_pid)") - db_before ))
            held="$(tcp_connections_of "$MYSQL_PORT" "${pids[@]}")"
            rps="$(wrk_rps "$out")" n="$(wrk_requests "$out")"
            cpu="$(awk -v a="$app" -v d="$db" -v n="$n" -v hz="$(getconf CLK_TCK)" 'BEGIN { if (n == 0) print "-"; else printf "%.2f / %.2f", a * 1000 / hz / n, d * 1000 / hz / n }')"
            log "round $round $route side $side: $rps req/s, avg $(wrk_latency "$out"), p99 $(wrk_p99 "$out"), CPU ms/request workers / MariaDB $cpu, sessions $held, errors: $(wrk_errors "$out")"
            key="$route|$side"
            if [[ -z "${BEST[$key]:-}" ]] || awk -v a="$rps" -v b="${BEST[$key]}" 'BEGIN { exit !(a > b) }'; then
                BEST[$key]="$rps" LAT[$key]="$(wrk_latency "$out")" P99[$key]="$(wrk_p99 "$out")" CPU[$key]="$cpu" HELD[$key]="$held"
            fi
        done
    done
done

echo "# Database pool sizes and concurrency ($(date -Iseconds), $(nproc) cores, best of $ROUNDS)"
echo
echo "Side = SPINDLE_DB_POOL:--concurrency[:SPINDLE_DB_POOL_CORE]; 2 workers, wrk -t2 -c$CONNS (/sleep: 1 worker, 10 connections)."
echo
echo "| route | side | req/s | latency avg / p99 | CPU ms per request, workers / MariaDB | sessions held |"
echo "| --- | --- | ---: | ---: | ---: | ---: |"
for route in $ROUTES; do
    for side in $SIDES; do
        key="$route|$side"
        echo "| /$route | $side | ${BEST[$key]} | ${LAT[$key]} / ${P99[$key]} | ${CPU[$key]} | ${HELD[$key]} |"
    done
done
