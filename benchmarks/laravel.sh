#!/usr/bin/env bash
# The Laravel blog (examples/blog) under nginx + php-fpm against Spindle, side by side in one run.
#
#   bash benchmarks/laravel.sh                       # from the repository root
#   DURATION=20 ROUNDS=2 bash benchmarks/laravel.sh
#   BLOG=examples/blog12 bash benchmarks/laravel.sh  # the same blog on Laravel 12
#   DB=pgsql ROUNDS=3 bash benchmarks/laravel.sh     # on PostgreSQL, with a third side: Spindle
#                                                    # on native pdo_pgsql (SPINDLE_NATIVE=1)
#
# Targets (the same app directory, the same seeded database for both servers):
#   /hello, /users/{id} (a random id per request), /posts   nginx + php-fpm (pm=static, 2 children)
#                                                           against `spindle serve --workers=2`,
#                                                           wrk -t2 -c$CONNS
#   /sleep (SELECT SLEEP(1))                                php-fpm with 1 child against
#                                                           `spindle serve --workers=1`, wrk -t1 -c10
#   With SPINDLE_NATIVE=1 (the default on DB=pgsql), each route also against Spindle with
#   SPINDLE_MYSQL_DRIVER=native / SPINDLE_PGSQL_DRIVER=native: what Spindle's own client costs.
#   php-fpm always runs the native driver (pdo_mysql, pdo_pgsql), and the script checks which
#   driver each side opens before it measures (see spindle_driver below).
#
# Env knobs (see benchmarks/README.md):
#   BLOG           the blog to serve, relative to the repository root: examples/blog (default,
#                  Laravel 8 from Debian's php-laravel-framework) or examples/blog12 (Laravel 12
#                  from the package registry, installed with scripts/composer-fixture when missing)
#   DURATION       seconds per wrk run (default 10)
#   ROUNDS         repeat the whole sequence, report each target's best round (default 1)
#   WARMUP         seconds of unrecorded load before each measured run (default 2)
#   CONNS          wrk connections for /hello, /users, /posts (default 32)
#   SLEEP_CONNS    wrk connections for /sleep (default 10: the limit is then 10 req/s)
#   DB             mysql (default: the private MariaDB of scripts/mariadb, tables prefixed
#                  blogbench_, dropped on exit), pgsql (the private PostgreSQL of scripts/postgres,
#                  database spindle_blog, likewise; /sleep is SELECT pg_sleep(1)) or sqlite (a
#                  seeded file in the temp dir, no /sleep)
#   SPINDLE_NATIVE 1 = also measure Spindle on the native driver (default 1 on pgsql, else 0)
#   FPM_DRIVER     native (default) = php-fpm's pool gets SPINDLE_MYSQL_DRIVER=native and
#                  SPINDLE_PGSQL_DRIVER=native: before fcb0f5e the blog's discovered Spindle service
#                  provider opened Spindle's PHP client under php-fpm too (now only in Spindle's
#                  workers); spindle = let it
#   FPM_PERSISTENT 1 = php-fpm's connection gets PDO::ATTR_PERSISTENT (one connection per child
#                  kept across requests, php-fpm's best case; a config cache of its own, so it
#                  needs LARAVEL_CACHE=1); 0 (default) = a new connection per request, as Laravel
#                  ships
#   PGSQL_SSLMODE  the blog's DB_SSLMODE on pgsql, for both sides (default disable; the private
#                  PostgreSQL offers TLS, so prefer, Laravel's default, encrypts every connection)
#   LARAVEL_CACHE  1 (default) = `php artisan config:cache` and `route:cache` first, as a
#                  production deploy does (cache files in the temp dir); 0 = no caches
#   FPM_CHILDREN   php-fpm children for /hello, /users, /posts (default 2, as many as Spindle's
#                  workers; more let php-fpm use the CPU while children wait on MySQL)
#   ROUTES         which routes to measure, of "hello users posts batch sleep cache" (batch: 100
#                  Eloquent queries a request; default: the first
#                  four; cache = /redis-cache, Cache::remember on a private redis-server: phpredis
#                  under php-fpm, Spindle's Redis client under Spindle)
#   SKIP_SPINDLE   1 = measure only nginx + php-fpm (debugging knob)
#   SPINDLE_BIN    the Spindle CLI (default bin/spindle)
#   PHP_FPM_BIN    php-fpm binary (default php-fpm8.2 from PATH or /usr/sbin)
#
# Everything it starts (nginx, php-fpm, Spindle) lives in one mktemp -d directory: configs, pid
# files, logs, sockets, Laravel's config/route/view caches. Nothing under /etc is written and no
# system service is touched. On exit the trap stops exactly the processes this script started,
# drops the benchmark's tables and removes the directory.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

DURATION="${DURATION:-10}"
ROUNDS="${ROUNDS:-1}"
WARMUP="${WARMUP:-2}"
CONNS="${CONNS:-32}"
SLEEP_CONNS="${SLEEP_CONNS:-10}"
DB="${DB:-mysql}"
LARAVEL_CACHE="${LARAVEL_CACHE:-1}"
FPM_CHILDREN="${FPM_CHILDREN:-2}"
ROUTES="${ROUTES:-hello users posts sleep}"
SKIP_SPINDLE="${SKIP_SPINDLE:-0}"
SPINDLE_NATIVE="${SPINDLE_NATIVE:-$([[ "${DB:-mysql}" == pgsql ]] && echo 1 || echo 0)}"
FPM_DRIVER="${FPM_DRIVER:-native}"
FPM_PERSISTENT="${FPM_PERSISTENT:-0}"
PGSQL_SSLMODE="${PGSQL_SSLMODE:-disable}"
# Spindle lets go of the app instances a quiet worker did not need after this many seconds (its
# own default, 30). Before fcb0f5e a released instance kept its database connection open, and a
# side idle through the other sides' runs added a pool of connections every round: set 3600 to
# measure such a commit.
INSTANCE_IDLE_TIMEOUT="${SPINDLE_INSTANCE_IDLE_TIMEOUT:-30}"
# The run stops when fewer connection slots than this are left on the database server, before
# other clients of a shared server are refused.
DB_SLOTS_MIN="${DB_SLOTS_MIN:-20}"
SPINDLE_BIN="${SPINDLE_BIN:-bin/spindle}"
BLOG_DIR="${BLOG:-examples/blog}"
BLOG="$ROOT/$BLOG_DIR"
PREFIX=blogbench_
# Another blog gets tables of its own, so two runs on the shared MariaDB do not drop each other's.
[[ "$BLOG_DIR" == examples/blog ]] || PREFIX="$(basename "$BLOG_DIR")bench_"

for n in "$DURATION" "$ROUNDS" "$WARMUP" "$CONNS" "$SLEEP_CONNS" "$FPM_CHILDREN" "$INSTANCE_IDLE_TIMEOUT" "$DB_SLOTS_MIN"; do
    [[ "$n" =~ ^[0-9]+$ ]] || { echo "DURATION, ROUNDS, WARMUP, CONNS, SLEEP_CONNS, FPM_CHILDREN, SPINDLE_INSTANCE_IDLE_TIMEOUT and DB_SLOTS_MIN must be whole numbers" >&2; exit 2; }
done
(( FPM_CHILDREN > 0 )) || { echo "FPM_CHILDREN must be > 0" >&2; exit 2; }
(( DURATION > 0 && ROUNDS > 0 )) || { echo "DURATION and ROUNDS must be > 0" >&2; exit 2; }
[[ "$DB" == mysql || "$DB" == pgsql || "$DB" == sqlite ]] || { echo "DB must be mysql, pgsql or sqlite" >&2; exit 2; }
[[ "$SPINDLE_NATIVE" =~ ^[01]$ && "$FPM_PERSISTENT" =~ ^[01]$ ]] || { echo "SPINDLE_NATIVE and FPM_PERSISTENT take 0 or 1" >&2; exit 2; }
[[ "$FPM_DRIVER" == native || "$FPM_DRIVER" == spindle ]] || { echo "FPM_DRIVER must be native or spindle" >&2; exit 2; }
[[ "$FPM_PERSISTENT" == 0 || "$LARAVEL_CACHE" == 1 ]] || { echo "FPM_PERSISTENT=1 needs LARAVEL_CACHE=1 (php-fpm's config cache)" >&2; exit 2; }
[[ "$DB" != sqlite ]] || SPINDLE_NATIVE=0
[[ "$SKIP_SPINDLE" != 1 ]] || SPINDLE_NATIVE=0
for r in $ROUTES; do
    [[ "$r" =~ ^(hello|users|posts|batch|sleep|cache)$ ]] || { echo "ROUTES takes hello, users, posts, batch, sleep and cache, got '$r'" >&2; exit 2; }
done
wanted() { [[ " $ROUTES " == *" $1 "* ]]; }
[[ -f "$BLOG/composer.json" && -f "$BLOG/artisan" ]] || { echo "BLOG=$BLOG_DIR is not a Laravel app of this repository" >&2; exit 2; }
# A blog that requires laravel/framework installs it from the package registry (examples/blog12);
# examples/blog takes Laravel 8 from Debian's php-laravel-framework.
LARAVEL_FROM_REGISTRY=0
grep -q '"laravel/framework"' "$BLOG/composer.json" && LARAVEL_FROM_REGISTRY=1

# --------------------------------------------------------------------------------------------
# 1. Tools, Laravel, the blog
# --------------------------------------------------------------------------------------------
if (( LARAVEL_FROM_REGISTRY )); then
    need_tools nginx fpm wrk curl deb:php8.2-sqlite3 deb:php8.2-mysql
else
    need_tools nginx fpm wrk curl deb:php-laravel-framework deb:php8.2-sqlite3 deb:php8.2-mysql
fi
find_servers

[[ -d vendor ]] || { log "composer install"; composer install --no-interaction --no-progress --quiet; }
if [[ ! -f "$BLOG/vendor/autoload.php" ]]; then
    log "composer install in $BLOG_DIR"
    if (( LARAVEL_FROM_REGISTRY )); then
        scripts/composer-fixture "$BLOG" install --no-progress --quiet
    else
        composer install --no-interaction --no-progress --quiet --working-dir="$BLOG"
    fi
fi

# --------------------------------------------------------------------------------------------
# 2. Temp dir + cleanup
# --------------------------------------------------------------------------------------------
make_tmp spindle-laravel-bench
chmod 0711 "$TMP"
DROP_TABLES=0

drop_tables() {
    if [[ "$DB" == pgsql ]]; then
        php -r '
            [$host, $port, $db, $user, $password, $prefix] = array_slice($argv, 1);
            $pdo = new PDO("pgsql:host=$host;port=$port;dbname=$db", $user, $password);
            foreach (["post_posts", "posts", "password_resets", "users", "migrations"] as $t) {
                $pdo->exec("DROP TABLE IF EXISTS \"$prefix$t\" CASCADE");
            }' "$PGSQL_HOST" "$PGSQL_PORT" spindle_blog "$PGSQL_USER" "$PGSQL_PASSWORD" "$PREFIX" \
            || log "could not drop the ${PREFIX}* tables"
        # (A bare return in the EXIT trap would return the status the script exited with, and
        # errexit would end the clean-up before the temp dir is removed.)
        return 0
    fi
    php -r '
        [$host, $port, $db, $user, $password, $prefix] = array_slice($argv, 1);
        $pdo = new PDO("mysql:host=$host;port=$port;dbname=$db", $user, $password);
        $pdo->exec("SET FOREIGN_KEY_CHECKS = 0");
        foreach (["post_posts", "posts", "password_resets", "users", "migrations"] as $t) {
            $pdo->exec("DROP TABLE IF EXISTS `$prefix$t`");
        }' "$MYSQL_HOST" "$MYSQL_PORT" "$MYSQL_DATABASE" "$MYSQL_USER" "$MYSQL_PASSWORD" "$PREFIX" \
        || log "could not drop the ${PREFIX}* tables"
}

on_cleanup() { if (( DROP_TABLES )); then drop_tables; fi; }

mkdir -p "$TMP/cache" "$TMP/views"

# --------------------------------------------------------------------------------------------
# 3. The blog's environment, its database and Laravel's caches
# --------------------------------------------------------------------------------------------
# Both servers get exactly these variables (php-fpm through env[] in its pool, Spindle through
# its environment); the blog's own .env, if any, is not used for anything they set.
declare -A APP_ENV_VARS=(
    [APP_ENV]=production
    [APP_DEBUG]=false
    [APP_KEY]="base64:$(php -r 'echo base64_encode(random_bytes(32));')"
    [LOG_CHANNEL]=stderr
    [LOG_LEVEL]=warning
    [SESSION_DRIVER]=cookie
    [CACHE_DRIVER]=array
    [VIEW_COMPILED_PATH]="$TMP/views"
    [APP_CONFIG_CACHE]="$TMP/cache/config.php"
    [APP_ROUTES_CACHE]="$TMP/cache/routes.php"
)
if (( LARAVEL_FROM_REGISTRY )); then
    # Laravel 12 writes its package manifest at boot: keep it (and the rest) out of the checkout,
    # where the php-fpm user may not write.
    APP_ENV_VARS+=([CACHE_STORE]=array [APP_PACKAGES_CACHE]="$TMP/cache/packages.php"
        [APP_SERVICES_CACHE]="$TMP/cache/services.php" [APP_EVENTS_CACHE]="$TMP/cache/events.php")
fi
if [[ "$DB" == mysql ]]; then
    log "MariaDB: scripts/mariadb"
    use_mariadb
    APP_ENV_VARS+=([DB_CONNECTION]=mysql [DB_HOST]="$MYSQL_HOST" [DB_PORT]="$MYSQL_PORT"
        [DB_DATABASE]="$MYSQL_DATABASE" [DB_USERNAME]="$MYSQL_USER" [DB_PASSWORD]="$MYSQL_PASSWORD"
        [DB_PREFIX]="$PREFIX")
    DROP_TABLES=1
elif [[ "$DB" == pgsql ]]; then
    # The private PostgreSQL of scripts/postgres: pdo_pgsql under php-fpm, Spindle's driver under
    # Spindle (Laravel's pgsql connection), on the same database.
    log "PostgreSQL: scripts/postgres"
    need_tools deb:php8.2-pgsql
    use_postgres
    APP_ENV_VARS+=([DB_CONNECTION]=pgsql [DB_HOST]="$PGSQL_HOST" [DB_PORT]="$PGSQL_PORT"
        [DB_DATABASE]=spindle_blog [DB_USERNAME]="$PGSQL_USER" [DB_PASSWORD]="$PGSQL_PASSWORD"
        [DB_PREFIX]="$PREFIX" [DB_SSLMODE]="$PGSQL_SSLMODE")
    DROP_TABLES=1
else
    APP_ENV_VARS+=([DB_CONNECTION]=sqlite [DB_DATABASE]="$TMP/blog.sqlite" [DB_PREFIX]="")
fi
if wanted cache; then
    need_tools deb:redis-server deb:php8.2-redis
    REDIS_PORT="$(free_ports 1)"
    redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --dir "$TMP" --daemonize no >"$TMP/redis.log" 2>&1 &
    STARTED+=("redis-server:$!")
    for ((i = 0; i < 100; i++)); do
        [[ "$(redis-cli -p "$REDIS_PORT" ping 2>/dev/null || true)" == PONG ]] && break
        sleep 0.1
    done
    log "redis-server on port $REDIS_PORT"
    APP_ENV_VARS+=([REDIS_HOST]=127.0.0.1 [REDIS_PORT]="$REDIS_PORT")
fi
ENV_ARGS=()
for k in "${!APP_ENV_VARS[@]}"; do ENV_ARGS+=("$k=${APP_ENV_VARS[$k]}"); done

artisan() { env "${ENV_ARGS[@]}" php "$BLOG/artisan" --no-interaction "$@"; }

log "seeding the blog ($DB)"
artisan blog:seed | sed 's/^/    /' >&2
if [[ "$LARAVEL_CACHE" == 1 ]]; then
    artisan config:cache >/dev/null
    artisan route:cache >/dev/null
fi
artisan view:cache >/dev/null

# What php-fpm's pool gets on top of APP_ENV_VARS. The blog requires Spindle, so Laravel discovers
# Spindle's service provider, which binds the mysql and pgsql connectors to Spindle's driver in
# every SAPI: php-fpm gets the native drivers only when told so.
declare -A FPM_ENV_VARS=()
if [[ "$FPM_DRIVER" == native ]]; then
    FPM_ENV_VARS+=([SPINDLE_MYSQL_DRIVER]=native [SPINDLE_PGSQL_DRIVER]=native)
fi
if [[ "$FPM_PERSISTENT" == 1 ]]; then
    # php-fpm's own config cache: the same config, with PDO::ATTR_PERSISTENT on the connection.
    # shellcheck disable=SC2016  # PHP code
    php -r '
        $config = require $argv[1];
        $config["database"]["connections"][$argv[3]]["options"][PDO::ATTR_PERSISTENT] = true;
        file_put_contents($argv[2], "<?php return " . var_export($config, true) . ";\n");' \
        "$TMP/cache/config.php" "$TMP/cache/config-fpm.php" "$DB"
    FPM_ENV_VARS+=([APP_CONFIG_CACHE]="$TMP/cache/config-fpm.php")
fi

# Free ports: bind port 0 several times at once (so they differ) and print what the kernel chose.
read -r PORT_FPM2 PORT_FPM1 < <(free_ports 2)
[[ -n "${PORT_FPM1:-}" ]] || die "could not pick free ports"

# --------------------------------------------------------------------------------------------
# 4. php-fpm: one master, two static pools (2 children, 1 child)
# --------------------------------------------------------------------------------------------
# Both servers run with lib.sh's PHP_SHARED_SETTINGS: php-fpm reads them from its php.ini, Spindle
# gets them as -d options.
SPINDLE_PHP_ARGS=("${PHP_SHARED_ARGS[@]}")
fpm_php_ini

fpm_pool() {    # fpm_pool NAME CHILDREN
    fpm_static_pool "$1" "$2" "$TMP/$1.sock"
    # (php-fpm refuses an empty env[] value: such a variable is left unset, which Laravel reads alike.)
    for k in "${!APP_ENV_VARS[@]}"; do
        [[ -n "${FPM_ENV_VARS[$k]:-}" || -z "${APP_ENV_VARS[$k]}" ]] || echo "env[$k] = \"${APP_ENV_VARS[$k]}\""
    done
    for k in "${!FPM_ENV_VARS[@]}"; do echo "env[$k] = \"${FPM_ENV_VARS[$k]}\""; done
}
{
    fpm_global_conf
    fpm_pool fpm2 "$FPM_CHILDREN"
    fpm_pool fpm1 1
} > "$TMP/php-fpm.conf"

# The shared settings also go on php-fpm's command line: Debian's conf.d/10-opcache.ini, read
# after the -c php.ini, says opcache.jit=off, so the php.ini alone would leave php-fpm without
# the JIT that Spindle runs with. The report shows what php-fpm -i says.
start_fpm "${SPINDLE_PHP_ARGS[@]}"

# nginx in front: every request goes to public/index.php, one FastCGI connection per request
# (at Laravel's request rates the connection set-up is noise, and php-fpm children are not bound
# to idle kept-alive connections).
fastcgi_server() {   # fastcgi_server PORT UPSTREAM
    cat <<EOF
    server {
        listen 127.0.0.1:$1;
        root $BLOG/public;
        location / {
            fastcgi_pass $2;
            include /etc/nginx/fastcgi_params;
            fastcgi_param SCRIPT_FILENAME $BLOG/public/index.php;
            fastcgi_param SCRIPT_NAME     /index.php;
            fastcgi_read_timeout 120s;
        }
        # Which PDO class the blog's connection opens in this pool, and whether the JIT is on.
        location = /__pdo-class {
            fastcgi_pass $2;
            include /etc/nginx/fastcgi_params;
            fastcgi_param SCRIPT_FILENAME $ROOT/benchmarks/apps/laravel-pdo-class.php;
            fastcgi_param BLOG_DIR        $BLOG;
        }
    }
EOF
}
write_nginx_conf text/plain "$(cat <<EOF
    upstream fpm2 { server unix:$TMP/fpm2.sock; }
    upstream fpm1 { server unix:$TMP/fpm1.sock; }
$(fastcgi_server "$PORT_FPM2" fpm2)
$(fastcgi_server "$PORT_FPM1" fpm1)
EOF
)"
start_nginx

# --------------------------------------------------------------------------------------------
# 5. Spindle: the blog with 2 workers, and with 1 worker for /sleep
# --------------------------------------------------------------------------------------------
# start_spindle NAME WORKERS [VAR=VALUE...]: sets SPINDLE_PID and SPINDLE_PORT. The driver
# variables of the caller's environment are dropped: only VAR=VALUE chooses the native drivers.
start_spindle() {
    local name="$1" workers="$2"
    spawn_spindle "spindle-$name" "Spindle ($name)" "$TMP/spindle-$name.log" 30 \
        env -u SPINDLE_MYSQL_DRIVER -u SPINDLE_PGSQL_DRIVER "${ENV_ARGS[@]}" SPINDLE_INSTANCE_IDLE_TIMEOUT="$INSTANCE_IDLE_TIMEOUT" "${@:3}" \
        php "${SPINDLE_PHP_ARGS[@]}" "$SPINDLE_BIN" serve "$BLOG" --host=127.0.0.1 --port=0 --workers="$workers"
    log "Spindle $name (--workers=$workers${3:+ ${*:3}}) pid $SPINDLE_PID on port $SPINDLE_PORT"
}
PORT_SPINDLE2=""
PORT_SPINDLE1=""
PID_SPINDLE2=""
PID_SPINDLE1=""
PORT_NATIVE2=""
PORT_NATIVE1=""
PID_NATIVE2=""
PID_NATIVE1=""
if [[ "$SKIP_SPINDLE" != 1 ]]; then
    start_spindle w2 2
    PORT_SPINDLE2="$SPINDLE_PORT"
    PID_SPINDLE2="$SPINDLE_PID"
    start_spindle w1 1
    PORT_SPINDLE1="$SPINDLE_PORT"
    PID_SPINDLE1="$SPINDLE_PID"
fi
NATIVE_ENV=(SPINDLE_MYSQL_DRIVER=native SPINDLE_PGSQL_DRIVER=native)
if [[ "$SPINDLE_NATIVE" == 1 ]]; then
    start_spindle native-w2 2 "${NATIVE_ENV[@]}"
    PORT_NATIVE2="$SPINDLE_PORT"
    PID_NATIVE2="$SPINDLE_PID"
    if wanted sleep; then
        start_spindle native-w1 1 "${NATIVE_ENV[@]}"
        PORT_NATIVE1="$SPINDLE_PORT"
        PID_NATIVE1="$SPINDLE_PID"
    fi
fi

# --------------------------------------------------------------------------------------------
# 6. Sanity: both servers give the same answers
# --------------------------------------------------------------------------------------------
check() {   # check NAME PORT: prints "hello|user5|posts count"
    local name="$1" port="$2" hello user posts i
    for ((i = 0; i < 100; i++)); do
        hello="$(curl -s --max-time 10 "http://127.0.0.1:$port/hello" || true)"
        [[ "$hello" == "Hello World" ]] && break
        sleep 0.1
    done
    [[ "$hello" == "Hello World" ]] || { dump_logs 30; die "$name: /hello answered '$hello'"; }
    user="$(curl -s --max-time 10 "http://127.0.0.1:$port/users/5")"
    [[ "$user" == *'"id":5,'* ]] || { dump_logs 30; die "$name: /users/5 answered '$user'"; }
    posts="$(curl -s --max-time 10 "http://127.0.0.1:$port/posts" | grep -c '<article id="post-' || true)"
    [[ "$posts" == 20 ]] || { dump_logs 30; die "$name: /posts showed $posts posts, expected 20"; }
    echo "$user"
}
USER_FPM="$(check "nginx + php-fpm" "$PORT_FPM2")"
check "nginx + php-fpm (1 child)" "$PORT_FPM1" >/dev/null
log "ok: nginx + php-fpm answers /hello, /users/5 and /posts"
if [[ "$SKIP_SPINDLE" != 1 ]]; then
    USER_SPINDLE="$(check "Spindle" "$PORT_SPINDLE2")"
    check "Spindle (1 worker)" "$PORT_SPINDLE1" >/dev/null
    [[ "$USER_SPINDLE" == "$USER_FPM" ]] || die "/users/5 differs: php-fpm '$USER_FPM', Spindle '$USER_SPINDLE'"
    log "ok: Spindle answers the same"
fi
if [[ "$SPINDLE_NATIVE" == 1 ]]; then
    USER_NATIVE="$(check "Spindle on the native driver" "$PORT_NATIVE2")"
    [[ -z "$PORT_NATIVE1" ]] || check "Spindle on the native driver (1 worker)" "$PORT_NATIVE1" >/dev/null
    [[ "$USER_NATIVE" == "$USER_FPM" ]] || die "/users/5 differs: php-fpm '$USER_FPM', Spindle on the native driver '$USER_NATIVE'"
    log "ok: Spindle on the native driver answers the same"
fi
if wanted cache; then
    for port in "$PORT_FPM2" ${PORT_SPINDLE2:+"$PORT_SPINDLE2"}; do
        body="$(curl -s --max-time 10 "http://127.0.0.1:$port/redis-cache")"
        # Laravel's Redis store keeps numbers unserialized: a cached count reads back as "1000".
        [[ "$body" == '{"users":1000}' || "$body" == '{"users":"1000"}' ]] || { dump_logs 30; die "/redis-cache on port $port answered '${body:0:200}'"; }
    done
    log "ok: both answer /redis-cache"
fi
if [[ "$DB" != sqlite ]]; then
    for port in "$PORT_FPM1" ${PORT_SPINDLE1:+"$PORT_SPINDLE1"} ${PORT_NATIVE1:+"$PORT_NATIVE1"}; do
        body="$(curl -s --max-time 10 "http://127.0.0.1:$port/sleep")"
        [[ "$body" == *'"slept":1'* ]] || { dump_logs 30; die "/sleep on port $port answered '$body'"; }
    done
fi

# Which driver each side opens, checked rather than assumed. php-fpm: the PDO class of the
# blog's connection in its pool (benchmarks/apps/laravel-pdo-class.php). Spindle: /sleep?tasks=2
# sleeps one second twice at once, each on a connection of its own: on Spindle's client the two
# waits overlap (about 1 s); on a native driver they run one after the other (about 2 s) and the
# worker logs that the request blocked its event loop.
DRIVER_FPM="-"
DRIVER_SPINDLE="-"
DRIVER_NATIVE="-"
spindle_driver() {   # spindle_driver NAME PORT LOG client|native: prints what it found
    local name="$1" port="$2" logfile="$3" expect="$4" body slept blocked="" i
    body="$(curl -s --max-time 30 "http://127.0.0.1:$port/sleep?tasks=2")"
    slept="$(sed -nE 's/.*"slept":([0-9.]+).*/\1/p' <<<"$body")"
    [[ -n "$slept" ]] || { dump_logs 30; die "$name: /sleep?tasks=2 answered '$body'"; }
    if [[ "$expect" == client ]]; then
        awk -v s="$slept" 'BEGIN { exit !(s < 1.5) }' \
            || die "$name: the two waits of /sleep?tasks=2 did not overlap ($slept s): not Spindle's client"
        echo "Spindle\\Database\\Pdo (/sleep?tasks=2: two 1 s waits overlapped, $slept s)"
        return
    fi
    for ((i = 0; i < 50; i++)); do
        blocked="$(grep -oE 'blocked the event loop for [0-9.]+ s' "$logfile" | tail -n1 || true)"
        [[ -n "$blocked" ]] && break
        sleep 0.1
    done
    awk -v s="$slept" 'BEGIN { exit !(s >= 1.9) }' && [[ -n "$blocked" ]] \
        || die "$name: /sleep?tasks=2 took $slept s and the worker logged '${blocked:-nothing}': not the native driver"
    echo "native PDO (/sleep?tasks=2: the waits ran one after the other, $slept s; the worker logged '$blocked')"
}
# The probe also says whether php-fpm's pool runs with the JIT (opcache_get_status()).
expected="PDO $DB persistent=$FPM_PERSISTENT"
[[ "$FPM_DRIVER" == spindle && "$DB" != sqlite ]] && expected="Spindle\\Database\\Pdo $DB persistent=$FPM_PERSISTENT"
body="$(curl -s --max-time 30 "http://127.0.0.1:$PORT_FPM2/__pdo-class")"
FPM_JIT_ON="${body##*$'\n'}"
body="${body%%$'\n'*}"
[[ "$body" == "$expected" ]] || { dump_logs 30; die "php-fpm's blog opens '$body', expected '$expected'"; }
[[ "$FPM_JIT_ON" == jit=on ]] || die "php-fpm's pool runs without the JIT ('$FPM_JIT_ON' from opcache_get_status())"
DRIVER_FPM="$body (the class its pool opens)"
if [[ "$DB" != sqlite ]]; then
    if [[ "$SKIP_SPINDLE" != 1 ]]; then
        DRIVER_SPINDLE="$(spindle_driver Spindle "$PORT_SPINDLE2" "$TMP/spindle-w2.log" client)"
    fi
    if [[ "$SPINDLE_NATIVE" == 1 ]]; then
        DRIVER_NATIVE="$(spindle_driver "Spindle on the native driver" "$PORT_NATIVE2" "$TMP/spindle-native-w2.log" native)"
    fi
    log "drivers: php-fpm $DRIVER_FPM; Spindle $DRIVER_SPINDLE; Spindle native $DRIVER_NATIVE"
fi

# --------------------------------------------------------------------------------------------
# 7. Measure
# --------------------------------------------------------------------------------------------
cat > "$TMP/users.lua" <<'EOF'
-- /users/{id} with a random id of the 1,000 users
math.randomseed(os.time())
request = function()
    return wrk.format(nil, "/users/" .. math.random(1, 1000))
end
EOF

# Targets: key|route|server|url|threads|connections|lua
TARGETS=()
for route in hello users posts batch cache; do
    wanted "$route" || continue
    path="/$route"
    [[ "$route" == users ]] && path="/users/{id}"
    urlpath="/$route"
    [[ "$route" == cache ]] && { path="/redis-cache"; urlpath="/redis-cache"; }
    lua=""
    [[ "$route" == users ]] && lua="$TMP/users.lua"
    TARGETS+=("fpm-$route|$path|nginx + php-fpm, $FPM_CHILDREN children|http://127.0.0.1:$PORT_FPM2$urlpath|2|$CONNS|$lua")
    [[ "$SKIP_SPINDLE" != 1 ]] && TARGETS+=("spindle-$route|$path|Spindle, 2 workers|http://127.0.0.1:$PORT_SPINDLE2$urlpath|2|$CONNS|$lua")
    [[ "$SPINDLE_NATIVE" == 1 ]] && TARGETS+=("native-$route|$path|Spindle on the native driver, 2 workers|http://127.0.0.1:$PORT_NATIVE2$urlpath|2|$CONNS|$lua")
done
if [[ "$DB" != sqlite ]] && wanted sleep; then
    TARGETS+=("fpm-sleep|/sleep|nginx + php-fpm, 1 child|http://127.0.0.1:$PORT_FPM1/sleep|1|$SLEEP_CONNS|")
    [[ "$SKIP_SPINDLE" != 1 ]] && TARGETS+=("spindle-sleep|/sleep|Spindle, 1 worker|http://127.0.0.1:$PORT_SPINDLE1/sleep|1|$SLEEP_CONNS|")
    [[ "$SPINDLE_NATIVE" == 1 ]] && TARGETS+=("native-sleep|/sleep|Spindle on the native driver, 1 worker|http://127.0.0.1:$PORT_NATIVE1/sleep|1|$SLEEP_CONNS|")
fi

declare -A BEST_CPU BEST_REST HELD
# CPU time per request, from /proc/<pid>/stat (utime + stime) before and after a run: the
# server's processes (php-fpm's children and nginx's workers, or Spindle's workers) and the
# database's: MariaDB's process, or PostgreSQL's postmaster with its backends, those that ended
# during the run included (php-fpm opens a backend per request). Both databases are shared with
# whatever else runs on the machine, whose queries count too.
CLK_TCK="$(getconf CLK_TCK)"
machine_ticks() {   # busy and idle ticks of all CPUs since boot, from /proc/stat
    awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9, $5 + $6; exit }' /proc/stat
}
DB_PID=""
DB_NAME="SQLite (in the server's processes)"
DB_PORT=""
case "$DB" in
    mysql) DB_PID="$(mariadb_pid)"; DB_NAME=MariaDB; DB_PORT="$MYSQL_PORT" ;;
    pgsql) DB_PID="$(postgres_pid)"; DB_NAME=PostgreSQL; DB_PORT="$PGSQL_PORT" ;;
esac
# db_free_slots: the connections the database server would still accept from ordinary clients.
db_free_slots() {
    local dsn user password sql
    case "$DB" in
        pgsql)
            dsn="pgsql:host=$PGSQL_HOST;port=$PGSQL_PORT;dbname=spindle_blog;sslmode=disable" user="$PGSQL_USER" password="$PGSQL_PASSWORD"
            sql="SELECT current_setting('max_connections')::int - current_setting('superuser_reserved_connections')::int - count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'" ;;
        mysql)
            dsn="mysql:host=$MYSQL_HOST;port=$MYSQL_PORT" user="$MYSQL_USER" password="$MYSQL_PASSWORD"
            sql="SELECT @@max_connections - COUNT(*) FROM information_schema.PROCESSLIST" ;;
        *) echo 1000000; return ;;
    esac
    # shellcheck disable=SC2016  # PHP code
    php -r 'echo (int) (new PDO($argv[1], $argv[2], $argv[3]))->query($argv[4])->fetchColumn();' "$dsn" "$user" "$password" "$sql" 2>/dev/null || echo 0
}
check_db_slots() {
    local free
    free="$(db_free_slots)"
    (( free >= DB_SLOTS_MIN )) || die "only $free connection slots left on $DB_NAME (DB_SLOTS_MIN=$DB_SLOTS_MIN): stopping before its other clients are refused"
}
check_db_slots
database_ticks() {
    case "$DB" in
        mysql) cpu_ticks "$DB_PID" ;;
        pgsql) tree_cpu_ticks "$DB_PID" ;;
        *) echo 0 ;;
    esac
}
server_pids() {   # server_pids KEY
    case "$1" in
        fpm-*) ps -o pid= --ppid "$FPM_PID"; ps -o pid= --ppid "$NGINX_PID" ;;
        spindle-sleep) ps -o pid= --ppid "$PID_SPINDLE1" ;;
        spindle-*) ps -o pid= --ppid "$PID_SPINDLE2" ;;
        native-sleep) ps -o pid= --ppid "$PID_NATIVE1" ;;
        native-*) ps -o pid= --ppid "$PID_NATIVE2" ;;
    esac
}
for ((round = 1; round <= ROUNDS; round++)); do
    for t in "${TARGETS[@]}"; do
        IFS='|' read -r key path label url threads conns lua <<<"$t"
        args=(-t"$threads" -c"$conns" --timeout 30s)
        [[ -n "$lua" ]] && args+=(-s "$lua")
        duration="$DURATION"
        if [[ "$key" == *sleep ]]; then
            # Warm-up: one wave of $conns concurrent requests, each waited for (a wrk warm-up would
            # leave php-fpm's queue full of abandoned requests that still sleep). It lets Spindle
            # create its app instances (one per concurrent request, on first use). wrk counts only
            # the requests that complete within the run, so each connection loses its last,
            # unfinished second: at least 20 s keeps that under 5 %.
            warm_pids=()
            for ((i = 0; i < conns; i++)); do
                curl -s -o /dev/null --max-time 60 "$url" &
                warm_pids+=($!)
            done
            wait "${warm_pids[@]}" || true
            (( duration < 20 )) && duration=20
        elif (( WARMUP > 0 )); then
            run_wrk /dev/null "${args[@]}" -d"${WARMUP}s" "$url" || true
        fi
        out="$TMP/wrk/$key-round$round.txt"
        log "round $round/$ROUNDS: $label $path: wrk ${args[*]} -d${duration}s"
        mapfile -t pids < <(server_pids "$key")
        app_before="$(cpu_ticks "${pids[@]}")"
        db_before="$(database_ticks)"
        read -r busy_before idle_before < <(machine_ticks)
        run_wrk "$out" "${args[@]}" -d"${duration}s" --latency "$url" || { cat "$out" >&2; die "wrk failed for $key"; }
        app_ticks=$(( $(cpu_ticks "${pids[@]}") - app_before ))
        db_ticks=$(( $(database_ticks) - db_before ))
        read -r busy_after idle_after < <(machine_ticks)
        # The connections to the database the side still holds: its pool, as the run left it.
        held="$( [[ -n "$DB_PORT" ]] && tcp_connections_of "$DB_PORT" "${pids[@]}" || echo 0)"
        side="${key%%-*}"
        [[ "$key" != *-sleep ]] || side+="-sleep"
        if (( held >= ${HELD[$side]:-0} )); then HELD[$side]="$held"; fi
        check_db_slots
        requests="$(wrk_requests "$out")"
        cpu="$(awk -v a="$app_ticks" -v d="$db_ticks" -v n="${requests:-0}" -v hz="$CLK_TCK" \
            'BEGIN { if (n + 0 == 0) print "-"; else printf "%.2f / %.2f ms\n", a * 1000 / hz / n, d * 1000 / hz / n }')"
        # The rest of the machine's busy time (wrk, the kernel's loopback work, other jobs) per
        # request, and how much of the run the CPUs sat idle: where the server's share ends.
        rest="$(awk -v b=$(( busy_after - busy_before )) -v i=$(( idle_after - idle_before )) -v a="$app_ticks" -v d="$db_ticks" -v n="${requests:-0}" -v hz="$CLK_TCK" \
            'BEGIN { if (n + 0 == 0 || b + i == 0) print "-"; else printf "%.2f ms, idle %.0f %%\n", (b - a - d) * 1000 / hz / n, 100 * i / (b + i) }')"
        rps="$(wrk_rps "$out")"
        [[ -n "$rps" ]] || { cat "$out" >&2; die "no Requests/sec in wrk output for $key"; }
        log "  $rps req/s, latency avg $(wrk_latency "$out"), p99 $(wrk_p99 "$out"), CPU per request server / $DB_NAME $cpu, rest of the machine $rest${DB_PORT:+, $held connections to $DB_NAME held}, errors: $(wrk_errors "$out")"
        if keep_best "$key" "$out"; then BEST_CPU[$key]="$cpu"; BEST_REST[$key]="$rest"; fi
    done
done

# --------------------------------------------------------------------------------------------
# 8. Report
# --------------------------------------------------------------------------------------------
CPU_MODEL="$(cpu_model)"
STAMP="$(date +%Y-%m-%d-%H%M%S)"
RESULTS_DIR="$ROOT/benchmarks/results"
RESULT_FILE="$RESULTS_DIR/laravel-$STAMP.md"
[[ "$BLOG_DIR" == examples/blog ]] || RESULT_FILE="$RESULTS_DIR/laravel-$(basename "$BLOG_DIR")-$STAMP.md"

FPM_ASSERTIONS="$("$FPM_BIN" -c "$TMP/php.ini" "${SPINDLE_PHP_ARGS[@]}" -i 2>/dev/null | awk '$1 == "zend.assertions" { print $3 }' || true)"
FPM_JIT="$("$FPM_BIN" -c "$TMP/php.ini" "${SPINDLE_PHP_ARGS[@]}" -i 2>/dev/null | awk '$1 == "opcache.jit" { print $3; exit }' || true)"
CLI_ASSERTIONS="$(php "${SPINDLE_PHP_ARGS[@]}" -r 'echo ini_get("zend.assertions");')"
CLI_INI="$(php -r 'echo php_ini_loaded_file() ?: "no php.ini";')"
db_description() {   # " (server version, tables)" for the report's database line
    case "$DB" in
        mysql) echo " (MariaDB $(php -r '$p = new PDO("mysql:host=".$argv[1].";port=".$argv[2], $argv[3], $argv[4]); echo $p->query("SELECT VERSION()")->fetchColumn();' "$MYSQL_HOST" "$MYSQL_PORT" "$MYSQL_USER" "$MYSQL_PASSWORD" 2>/dev/null), tables ${PREFIX}*)" ;;
        pgsql) echo " (PostgreSQL $(php -r '$p = new PDO("pgsql:host=".$argv[1].";port=".$argv[2].";dbname=spindle_blog;sslmode=disable", $argv[3], $argv[4]); echo $p->query("SHOW server_version")->fetchColumn();' "$PGSQL_HOST" "$PGSQL_PORT" "$PGSQL_USER" "$PGSQL_PASSWORD" 2>/dev/null), database spindle_blog, tables ${PREFIX}*, over TCP with sslmode=$PGSQL_SSLMODE)" ;;
    esac
}
laravel_version() {
    if (( LARAVEL_FROM_REGISTRY )); then
        echo "$(sed -nE "s/.*const VERSION = '([^']+)'.*/\1/p" "$BLOG/vendor/laravel/framework/src/Illuminate/Foundation/Application.php") (laravel/framework from the package registry)"
    else
        echo "$(sed -nE "s/.*const VERSION = '([^']+)'.*/\1/p" /usr/share/php/Illuminate/Foundation/Application.php) (Debian php-laravel-framework)"
    fi
}
route_label() {   # route_label ROUTE: the route as the report's tables name it
    case "$1" in
        users) echo "/users/{id}" ;;
        batch) echo "/batch (100 queries)" ;;
        cache) echo "/redis-cache (Cache::remember on Redis)" ;;
        sleep) echo "/sleep (1 worker, $SLEEP_CONNS connections)" ;;
        *) echo "/$1" ;;
    esac
}
report() {
    echo "# Laravel blog ($BLOG_DIR): nginx + php-fpm against Spindle"
    echo
    echo "- date: $(date -Iseconds)"
    echo "- nproc: $(nproc); CPU: ${CPU_MODEL:-unknown}"
    echo "- PHP $(php -r 'echo PHP_VERSION;'); Laravel $(laravel_version); nginx $("$NGINX_BIN" -v 2>&1 | sed 's#.*/##'); $(wrk -v 2>&1 | head -n1 | awk '{print $1, $2}')"
    echo "- database: $DB$(db_description); 1,000 users, 10,000 posts, 33,864 links"
    if [[ "$DB" != sqlite ]]; then
        echo "- drivers (checked before measuring): php-fpm $DRIVER_FPM; Spindle $DRIVER_SPINDLE$([[ "$SPINDLE_NATIVE" == 1 ]] && echo "; Spindle with ${NATIVE_ENV[*]}: $DRIVER_NATIVE")"
        echo "- connections: php-fpm $([[ "$FPM_PERSISTENT" == 1 ]] && echo "keeps one persistent connection per child (FPM_PERSISTENT=1)" || echo "opens a new connection per request (Laravel's default; FPM_PERSISTENT=1 keeps one per child)"); Spindle: the sessions of each worker's pool (SPINDLE_DB_POOL=${SPINDLE_DB_POOL:-default}, shared by its requests)"
    fi
    echo "- Laravel caches: $([[ "$LARAVEL_CACHE" == 1 ]] && echo 'config:cache + route:cache + view:cache' || echo 'view:cache only')"
    echo "- PHP settings of both: ${PHP_SHARED_SETTINGS[*]}"
    echo "- php-fpm (pm=static, nginx -> php-fpm over a unix socket): ${FPM_INI_BASE:-the built-in defaults} plus those settings, also as -d options (zend.assertions=$FPM_ASSERTIONS, opcache.jit=$FPM_JIT per php-fpm -i, $FPM_JIT_ON per opcache_get_status() in the pool); Spindle: the CLI's $CLI_INI plus those settings as -d options (zend.assertions=$CLI_ASSERTIONS)"
    echo "- Spindle: php -d ... $SPINDLE_BIN serve $BLOG_DIR --workers=N, with SPINDLE_INSTANCE_IDLE_TIMEOUT=$INSTANCE_IDLE_TIMEOUT"
    echo "- wrk --timeout 30s: -t2 -c$CONNS for /hello, /users/{id}, /posts ($FPM_CHILDREN php-fpm children / 2 Spindle workers); -t1 -c$SLEEP_CONNS for /sleep (1 child / 1 worker); ${DURATION}s per run (/sleep: at least 20 s, after one wave of $SLEEP_CONNS concurrent requests as warm-up), warm-up ${WARMUP}s, best of $ROUNDS round(s)"
    [[ "$SKIP_SPINDLE" == 1 ]] && echo "- **SKIP_SPINDLE=1: Spindle was not measured**"
    echo
    echo "| route | nginx + php-fpm req/s | Spindle req/s | Spindle / fpm | fpm latency avg / p99 | Spindle latency avg / p99 | CPU per request, server / $DB_NAME: fpm; Spindle | errors (fpm; Spindle) |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
    local route
    for route in hello users posts batch sleep cache; do
        [[ -n "${BEST_RPS[fpm-$route]:-}" ]] || continue
        local path
        path="$(route_label "$route")"
        printf '| %s | %s | %s | %s | %s / %s | %s / %s | %s; %s | %s; %s |\n' "$path" \
            "${BEST_RPS[fpm-$route]}" "${BEST_RPS[spindle-$route]:-skipped}" \
            "$(ratio "${BEST_RPS[spindle-$route]:-}" "${BEST_RPS[fpm-$route]}" 1)" \
            "${BEST_LAT[fpm-$route]}" "${BEST_P99[fpm-$route]}" \
            "${BEST_LAT[spindle-$route]:--}" "${BEST_P99[spindle-$route]:--}" \
            "${BEST_CPU[fpm-$route]}" "${BEST_CPU[spindle-$route]:--}" \
            "${BEST_ERR[fpm-$route]}" "${BEST_ERR[spindle-$route]:--}"
    done
    echo
    echo "The rest of the machine per request in the same rounds (wrk, which shares the CPUs, the kernel's loopback work, anything else running) and the share of the time the CPUs sat idle:"
    echo
    for route in hello users posts batch sleep cache; do
        [[ -n "${BEST_RPS[fpm-$route]:-}" ]] || continue
        echo "- $(route_label "$route"): php-fpm ${BEST_REST[fpm-$route]:--}; Spindle ${BEST_REST[spindle-$route]:--}"
    done
    [[ "$SPINDLE_NATIVE" == 1 ]] || return 0
    echo
    echo "Spindle on the native driver (${NATIVE_ENV[*]}), the same rounds: what Spindle's own client costs or saves."
    echo
    echo "| route | Spindle native req/s | Spindle / Spindle native | Spindle native / fpm | latency avg / p99 | CPU per request, server / $DB_NAME | errors |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: | --- |"
    for route in hello users posts batch sleep cache; do
        [[ -n "${BEST_RPS[native-$route]:-}" ]] || continue
        local path
        path="$(route_label "$route")"
        printf '| %s | %s | %s | %s | %s / %s | %s | %s |\n' "$path" "${BEST_RPS[native-$route]}" \
            "$(ratio "${BEST_RPS[spindle-$route]:-}" "${BEST_RPS[native-$route]}")" \
            "$(ratio "${BEST_RPS[native-$route]}" "${BEST_RPS[fpm-$route]}")" \
            "${BEST_LAT[native-$route]}" "${BEST_P99[native-$route]}" "${BEST_CPU[native-$route]}" "${BEST_ERR[native-$route]}"
    done
}
connections_line() {   # what each side's pool held: "N" (2 workers) or "N (/sleep, 1 worker: M)"
    [[ -n "$DB_PORT" ]] || return 0
    local side held=()
    for side in fpm spindle native; do
        [[ -n "${HELD[$side]:-}" ]] || continue
        held+=("$side ${HELD[$side]}${HELD[$side-sleep]:+ (/sleep, 1 worker or child: ${HELD[$side-sleep]})}")
    done
    echo
    echo "Connections to $DB_NAME held when a run ended (the most of any run): $(IFS=';'; echo "${held[*]}" | sed 's/;/, /g')."
}
raw_outputs() {
    echo
    echo "## wrk output (best round per target)"
    for t in "${TARGETS[@]}"; do
        IFS='|' read -r key path label url threads conns lua <<<"$t"
        echo
        echo "### $label: $path"
        echo
        echo '```'
        sed "s#$url#<$key>#" "${BEST_FILE[$key]}"
        echo '```'
    done
}

REPORT="$(report; connections_line)"
publish_report "$RESULT_FILE" raw_outputs
