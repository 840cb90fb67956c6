#!/usr/bin/env bash
# Do the app instances a worker lets go leave its memory and the database? The Laravel blog
# (examples/blog) on the private PostgreSQL of scripts/postgres, one worker whose idle instances
# go after SPINDLE_INSTANCE_IDLE_TIMEOUT=3: ROUNDS bursts of `wrk -t1 -c16 -d3s /users/5` (each
# request waits on the database, so a burst needs several instances), each followed by 8 quiet
# seconds; after each quiet period, the blog database's connections and the worker's RSS.
#
#   bash benchmarks/instance-release.sh              # from the repository root
#   SPINDLE_DIR=/path/to/other/checkout bash benchmarks/instance-release.sh   # another commit's Spindle
#
# Env knobs: ROUNDS (default 4), SPINDLE_DIR (a checkout with bin/spindle, vendor/ and
# examples/blog/vendor installed; default this one). A worker that frees what it lets go stays
# at its warm instances' connections and a flat RSS; one that does not grows by a pool of
# connections and an instance's memory per burst.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ROUNDS="${ROUNDS:-4}"
SPINDLE_DIR="${SPINDLE_DIR:-$PWD}"
[[ "$ROUNDS" =~ ^[0-9]+$ ]] || die "ROUNDS must be a whole number"
need_tools wrk curl
[[ -f "$SPINDLE_DIR/examples/blog/vendor/autoload.php" ]] || die "$SPINDLE_DIR/examples/blog is not installed: composer install --working-dir=examples/blog"

use_postgres
make_tmp spindle-instance-release
export APP_ENV=production APP_DEBUG=false LOG_CHANNEL=stderr SESSION_DRIVER=cookie CACHE_DRIVER=array
export APP_KEY="base64:$(head -c 32 /dev/urandom | base64)"
export DB_CONNECTION=pgsql DB_HOST="$PGSQL_HOST" DB_PORT="$PGSQL_PORT" DB_DATABASE=spindle_blog \
    DB_USERNAME="$PGSQL_USER" DB_PASSWORD="$PGSQL_PASSWORD" DB_PREFIX= DB_SSLMODE=disable
export APP_CONFIG_CACHE="$TMP/config.php" APP_ROUTES_CACHE="$TMP/routes.php"
php examples/blog/artisan blog:seed --if-needed --no-interaction >&2

connections() {
    PGPASSWORD="$PGSQL_PASSWORD" psql -h "$PGSQL_HOST" -p "$PGSQL_PORT" -U "$PGSQL_USER" -d postgres -Atc \
        "SELECT count(*) FROM pg_stat_activity WHERE datname = 'spindle_blog'"
}
worker_rss_mb() { echo $(( $(ps -o rss= --ppid "$SPINDLE_PID" | head -n1) / 1024 )); }

SPINDLE_INSTANCE_IDLE_TIMEOUT=3 spawn_spindle spindle "Spindle ($SPINDLE_DIR)" "$TMP/spindle.log" 60 \
    php "$SPINDLE_DIR/bin/spindle" serve "$SPINDLE_DIR/examples/blog" --host=127.0.0.1 --port=0 --workers=1
fetch_ready "${SPINDLE_URL}users/5" "$SPINDLE_PID" >/dev/null
log "Spindle of $SPINDLE_DIR ($(git -C "$SPINDLE_DIR" rev-parse --short HEAD 2>/dev/null || echo '?')), load $(cut -d' ' -f1 /proc/loadavg)"
echo "| after | connections | worker RSS |"
echo "| --- | ---: | ---: |"
echo "| one request | $(connections) | $(worker_rss_mb) MB |"
for ((round = 1; round <= ROUNDS; round++)); do
    wrk -t1 -c16 -d3s "${SPINDLE_URL}users/5" >"$TMP/wrk/round-$round.txt"
    sleep 8   # the idle timeout (3 s) and the next trim pass
    curl -s "${SPINDLE_URL}users/5" >/dev/null
    echo "| burst $round and 8 quiet seconds | $(connections) | $(worker_rss_mb) MB |"
done
grep -h 'was let go but is still referenced' "$TMP/spindle.log" >&2 || true
