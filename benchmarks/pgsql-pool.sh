#!/usr/bin/env bash
# The blog (examples/blog) on the private PostgreSQL of scripts/postgres under Spindle, its pgsql
# connection pooled (a worker's requests share SPINDLE_DB_POOL sessions, reset between requests,
# each keeping its prepared statements), pooled without the statement cache
# (SPINDLE_DB_STATEMENT_CACHE=0: reset by DISCARD ALL) and unpooled (DB_POOL=false: a session per
# app instance, as before pools), side by side in interleaved rounds (docs/database.md,
# "Sessions per worker").
#
#   bash benchmarks/pgsql-pool.sh
#   ROUTES="batch users" ROUNDS=3 bash benchmarks/pgsql-pool.sh
#
# Both sides: `spindle serve --workers=2` (and a 1-worker server for /sleep, 10 connections). For
# every route the report gives each side's best req/s, its latency (avg / p99), the CPU per
# request of the workers and of PostgreSQL (the postmaster and its backends), and the sessions the
# workers held at the end of the run.
#
# Env knobs: SIDES (of pooled, pooled-nocache, unpooled; default all three), ROUTES (of batch, users, posts, sleep; default "batch users posts sleep"), ROUNDS (2),
# DURATION (8 s), WARMUP (3 s), CONNS (32).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ROUTES="${ROUTES:-batch users posts sleep}"
ROUNDS="${ROUNDS:-2}"
DURATION="${DURATION:-8}"
WARMUP="${WARMUP:-3}"
CONNS="${CONNS:-32}"
BLOG="$ROOT/examples/blog"
SIDES="${SIDES:-pooled pooled-nocache unpooled}"

need_tools wrk curl deb:php-laravel-framework deb:php8.2-pgsql
[[ -f "$BLOG/vendor/autoload.php" ]] || composer install --no-interaction --quiet --working-dir="$BLOG"
make_tmp spindle-pgsql-pool-bench
use_postgres
mkdir -p "$TMP/cache" "$TMP/views" "$TMP/wrk"
ENV_ARGS=(APP_ENV=production "APP_KEY=base64:$(head -c 32 /dev/urandom | base64)" APP_DEBUG=false LOG_CHANNEL=stderr
    SESSION_DRIVER=cookie CACHE_DRIVER=array "VIEW_COMPILED_PATH=$TMP/views"
    "APP_CONFIG_CACHE=$TMP/cache/config.php" "APP_ROUTES_CACHE=$TMP/cache/routes.php"
    DB_CONNECTION=pgsql "DB_HOST=$PGSQL_HOST" "DB_PORT=$PGSQL_PORT" DB_DATABASE=spindle_blog
    "DB_USERNAME=$PGSQL_USER" "DB_PASSWORD=$PGSQL_PASSWORD" DB_PREFIX= DB_SSLMODE=disable SPINDLE_INSTANCE_IDLE_TIMEOUT=600)
log "seeding the blog (database spindle_blog, if needed)"
env "${ENV_ARGS[@]}" php "$BLOG/artisan" --no-interaction blog:seed --if-needed >&2

cat > "$TMP/users.lua" <<'LUA'
math.randomseed(os.time())
request = function() return wrk.format("GET", "/users/" .. math.random(1, 1000)) end
LUA

declare -A URL1 URL2 PID1 PID2
for side in $SIDES; do
    pool=()
    [[ "$side" == unpooled ]] && pool=(DB_POOL=false)
    [[ "$side" == pooled-nocache ]] && pool=(SPINDLE_DB_STATEMENT_CACHE=0)
    spawn_spindle "w2-$side" "Spindle $side" "$TMP/spindle-w2-$side.log" 60 \
        env "${ENV_ARGS[@]}" "${pool[@]}" php "${PHP_SHARED_ARGS[@]}" bin/spindle serve "$BLOG" --host=127.0.0.1 --port=0 --workers=2
    URL2[$side]="http://127.0.0.1:$SPINDLE_PORT"; PID2[$side]="$SPINDLE_PID"
    if [[ " $ROUTES " == *" sleep "* ]]; then
        spawn_spindle "w1-$side" "Spindle $side, 1 worker" "$TMP/spindle-w1-$side.log" 60 \
            env "${ENV_ARGS[@]}" "${pool[@]}" php "${PHP_SHARED_ARGS[@]}" bin/spindle serve "$BLOG" --host=127.0.0.1 --port=0 --workers=1
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
            out="$TMP/wrk/$route-$side-$round.txt"
            app_before="$(cpu_ticks "${pids[@]}")" db_before="$(tree_cpu_ticks "$(postgres_pid)")"
            run_wrk "$out" "${args[@]}" -d"${duration}s" "$url" || die "wrk failed: $(cat "$out")"
            app=$(( $(cpu_ticks "${pids[@]}") - app_before )) db=$(( $(tree_cpu_ticks "$(postgres_pid)") - db_before ))
            held="$(tcp_connections_of "$PGSQL_PORT" "${pids[@]}")"
            rps="$(wrk_rps "$out")" n="$(wrk_requests "$out")"
            cpu="$(awk -v a="$app" -v d="$db" -v n="$n" -v hz="$(getconf CLK_TCK)" 'BEGIN { if (n == 0) print "-"; else printf "%.2f / %.2f", a * 1000 / hz / n, d * 1000 / hz / n }')"
            log "round $round $route side $side: $rps req/s, avg $(wrk_latency "$out"), p99 $(wrk_p99 "$out"), CPU ms/request workers / PostgreSQL $cpu, sessions $held, errors: $(wrk_errors "$out")"
            key="$route|$side"
            if [[ -z "${BEST[$key]:-}" ]] || awk -v a="$rps" -v b="${BEST[$key]}" 'BEGIN { exit !(a > b) }'; then
                BEST[$key]="$rps" LAT[$key]="$(wrk_latency "$out")" P99[$key]="$(wrk_p99 "$out")" CPU[$key]="$cpu" HELD[$key]="$held"
            fi
        done
    done
done

echo "# The blog on PostgreSQL, pooled against unpooled sessions ($(date -Iseconds), $(nproc) cores, best of $ROUNDS)"
echo
echo "2 workers, wrk -t2 -c$CONNS (/sleep: 1 worker, 10 connections); pooled: the default pool (SPINDLE_DB_POOL 16, core 4, 256 statements kept per session); pooled-nocache: SPINDLE_DB_STATEMENT_CACHE=0; unpooled: DB_POOL=false."
echo
echo "| route | side | req/s | latency avg / p99 | CPU ms per request, workers / PostgreSQL | sessions held |"
echo "| --- | --- | ---: | ---: | ---: | ---: |"
for route in $ROUTES; do
    for side in $SIDES; do
        key="$route|$side"
        echo "| /$route | $side | ${BEST[$key]} | ${LAT[$key]} / ${P99[$key]} | ${CPU[$key]} | ${HELD[$key]} |"
    done
done
