#!/usr/bin/env bash
# Assembles the lab of benchmarks/reverb-side-by-side.php: a Laravel 12 app set up for
# broadcasting as `php artisan install:broadcasting` sets one up (BROADCAST_CONNECTION=reverb,
# the REVERB_* variables, Reverb's published config/reverb.php), with laravel/reverb installed so
# that `php artisan reverb:start` runs beside it. The same app directory is what `spindle serve`
# is given on the other side. For measuring only: nothing of it goes into Spindle, and it is
# written outside the repository. Not part of the test suite.
#
#   bash benchmarks/reverb-lab.sh                  # writes ../reverb-lab (beside the checkout)
#   REVERB_LAB=/tmp/lab bash benchmarks/reverb-lab.sh
#
# The registry copy on these machines serves laravel/framework 12, guzzlehttp/psr7,
# pusher/pusher-php-server, laravel/prompts and react/{socket,event-loop,stream,dns,cache,promise},
# but not laravel/reverb, ratchet/rfc6455, clue/redis-react, clue/redis-protocol or
# react/promise-timer. Those five come from snapshots of their public GitHub repositories, bare git
# directories under $MIRROR (default /work/.mirror, as the session's `fetch` tool leaves them:
# $MIRROR/<owner>+<name>/repo), archived at the release commits below and installed through
# Composer "path" repositories, each composer.json given the release's "version". Fetch these first:
#
#   laravel/reverb          github:laravel/reverb            v1.10.2  43a5c0a99b1aaba33dc32f97fcf51f182dd8c8ac
#   ratchet/rfc6455         github:ratchetphp/RFC6455        v0.4.0   859d95f85dda0912c6d5b936d036d044e3af47ef
#   clue/redis-react        github:clue/reactphp-redis       v2.7.0   2283690f249e8d93342dd63b5285732d2654e077
#   clue/redis-protocol     github:clue/redis-protocol       v0.3.2   6f565332f5531b7722d1e9c445314b91862f6d6c
#   react/promise-timer     github:reactphp/promise-timer    v1.10.0  4cb85c1c2125390748e3908120bb82feb99fe766
#
# Spindle is installed from this checkout (a path repository, symlinked), as
# `composer require spindle/spindle` would.
# Laravel 12's own missing packages come from ../shared/composer-packages (its README), as for
# tests/fixtures/laravel12-app; symfony/polyfill-php85 is replaced by bootstrap/polyfill-php85.php.
# Re-running rebuilds the app's vendor/ from scratch, from its composer.lock when there is one
# (delete it to resolve again).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LAB="${REVERB_LAB:-$(dirname "$ROOT")/reverb-lab}"
MIRROR="${MIRROR:-/work/.mirror}"
SHARED="${SPINDLE_COMPOSER_PACKAGES:-$ROOT/../shared/composer-packages}"
log() { printf '[reverb-lab] %s\n' "$*" >&2; }
die() { printf '[reverb-lab] ERROR: %s\n' "$*" >&2; exit 1; }
case "$LAB" in "$ROOT" | "$ROOT"/*) die "REVERB_LAB must be outside the repository" ;; esac

# package  mirror  commit  version
SOURCES=(
    "laravel/reverb laravel+reverb 43a5c0a99b1aaba33dc32f97fcf51f182dd8c8ac 1.10.2"
    "ratchet/rfc6455 ratchetphp+RFC6455 859d95f85dda0912c6d5b936d036d044e3af47ef 0.4.0"
    "clue/redis-react clue+reactphp-redis 2283690f249e8d93342dd63b5285732d2654e077 2.7.0"
    "clue/redis-protocol clue+redis-protocol 6f565332f5531b7722d1e9c445314b91862f6d6c 0.3.2"
    "react/promise-timer reactphp+promise-timer 4cb85c1c2125390748e3908120bb82feb99fe766 1.10.0"
)

mkdir -p "$LAB/packages"
REPOS='[]'
for source in "${SOURCES[@]}"; do
    read -r package mirror commit version <<<"$source"
    git_dir="$MIRROR/$mirror/repo"
    git --git-dir="$git_dir" cat-file -e "$commit^{commit}" 2>/dev/null \
        || die "$git_dir lacks $commit: fetch github:${mirror/+//} first"
    dir="$LAB/packages/$package"
    if [[ "$(cat "$dir/.commit" 2>/dev/null)" != "$commit" ]]; then
        log "unpacking $package $version ($commit)"
        rm -rf "$dir"
        mkdir -p "$dir"
        git --git-dir="$git_dir" archive "$commit" | tar -x -C "$dir"
        php -r '[, $file, $version] = $argv;
            $json = json_decode(file_get_contents($file), true, 512, JSON_THROW_ON_ERROR);
            $json["version"] = $version;
            file_put_contents($file, json_encode($json, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES) . "\n");' \
            "$dir/composer.json" "$version"
        echo "$commit" > "$dir/.commit"
    fi
    REPOS="$(php -r 'echo json_encode([...json_decode($argv[1], true), ["type" => "path", "url" => $argv[2], "options" => ["symlink" => false]]], JSON_UNESCAPED_SLASHES);' "$REPOS" "$dir")"
done
# Spindle itself, as `composer require spindle/spindle` installs it (its service provider makes
# broadcast() deliver in process); the checkout this script is in, symlinked.
REPOS="$(php -r 'echo json_encode([...json_decode($argv[1], true), ["type" => "path", "url" => $argv[2]]], JSON_UNESCAPED_SLASHES);' "$REPOS" "$ROOT")"
if [[ -d "$SHARED" ]]; then
    REPOS="$(php -r 'echo json_encode([...json_decode($argv[1], true), ["type" => "path", "url" => $argv[2] . "/*/*"]], JSON_UNESCAPED_SLASHES);' "$REPOS" "$(cd "$SHARED" && pwd)")"
fi

APP="$LAB/app"
log "writing the app in $APP"
mkdir -p "$APP"/{app/Events,bootstrap/cache,config,public,routes,storage/framework/{cache,sessions,views},storage/logs}
php -r '[, $file, $repos] = $argv;
    file_put_contents($file, json_encode([
        "name" => "spindle/reverb-lab",
        "description" => "A Laravel 12 app with laravel/reverb: the lab of Spindle'"'"'s benchmarks/reverb-side-by-side.php.",
        "type" => "project",
        "license" => "MIT",
        "repositories" => json_decode($repos, true),
        "require" => [
            "php" => "^8.2",
            "laravel/framework" => "^12.0",
            "laravel/reverb" => "1.10.2",
            "spindle/spindle" => "@dev",
        ],
        "replace" => ["symfony/polyfill-php85" => "*"],
        "autoload" => ["psr-4" => ["App\\" => "app/"], "files" => ["bootstrap/polyfill-php85.php"]],
        "config" => ["sort-packages" => true],
        "minimum-stability" => "stable",
        "prefer-stable" => true,
    ], JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES) . "\n");' "$APP/composer.json" "$REPOS"
cp "$ROOT/tests/fixtures/laravel12-app/bootstrap/polyfill-php85.php" "$APP/bootstrap/polyfill-php85.php"

cat > "$APP/artisan" <<'PHP'
#!/usr/bin/env php
<?php

use Symfony\Component\Console\Input\ArgvInput;

define('LARAVEL_START', microtime(true));
require __DIR__.'/vendor/autoload.php';
$status = (require_once __DIR__.'/bootstrap/app.php')->handleCommand(new ArgvInput);
exit($status);
PHP
cat > "$APP/public/index.php" <<'PHP'
<?php

use Illuminate\Http\Request;

define('LARAVEL_START', microtime(true));
require __DIR__.'/../vendor/autoload.php';
(require_once __DIR__.'/../bootstrap/app.php')->handleRequest(Request::capture());
PHP
cat > "$APP/bootstrap/app.php" <<'PHP'
<?php

use Illuminate\Foundation\Application;
use Illuminate\Foundation\Configuration\Exceptions;
use Illuminate\Foundation\Configuration\Middleware;

// As the laravel/laravel 12 skeleton after `php artisan install:broadcasting`.
return Application::configure(basePath: dirname(__DIR__))
    ->withRouting(web: __DIR__.'/../routes/web.php', commands: __DIR__.'/../routes/console.php', channels: __DIR__.'/../routes/channels.php', health: '/up')
    ->withMiddleware(function (Middleware $middleware): void {})
    ->withExceptions(function (Exceptions $exceptions): void {})
    ->create();
PHP
echo '<?php return [];' > "$APP/bootstrap/providers.php"
cat > "$APP/routes/web.php" <<'PHP'
<?php

use App\Events\Tick;
use Illuminate\Support\Facades\Route;

Route::get('/', fn () => 'reverb-lab');
// The app's own broadcast(): the event's data carries its send time (t), as the benchmark's
// HTTP API events do, so the subscribers measure it the same way.
Route::get('/tick', function () {
    broadcast(new Tick((float) request('t'), (int) request('seq')));

    return response('sent');
});
PHP
cat > "$APP/routes/channels.php" <<'PHP'
<?php

use Illuminate\Support\Facades\Broadcast;

Broadcast::channel('orders.{id}', fn ($user, $id) => true);
PHP
echo '<?php' > "$APP/routes/console.php"
cat > "$APP/app/Events/Tick.php" <<'PHP'
<?php

namespace App\Events;

use Illuminate\Broadcasting\Channel;
use Illuminate\Contracts\Broadcasting\ShouldBroadcastNow;

class Tick implements ShouldBroadcastNow
{
    public function __construct(public float $t, public int $seq)
    {
    }

    public function broadcastOn(): Channel
    {
        return new Channel('news');
    }
}
PHP
# What `php artisan install:broadcasting` (with Reverb) writes to .env; the benchmark overrides
# REVERB_PORT/REVERB_SERVER_PORT per run.
cat > "$APP/.env" <<ENV
APP_NAME=reverb-lab
APP_ENV=production
APP_KEY=base64:$(php -r 'echo base64_encode(random_bytes(32));')
APP_DEBUG=false
LOG_CHANNEL=stderr
LOG_LEVEL=warning
SESSION_DRIVER=array
CACHE_STORE=array
BROADCAST_CONNECTION=reverb
REVERB_APP_ID=1
REVERB_APP_KEY=app-key
REVERB_APP_SECRET=app-secret
REVERB_HOST=127.0.0.1
REVERB_PORT=8080
REVERB_SCHEME=http
ENV

log "composer install (laravel/framework 12, laravel/reverb and their dependencies)"
rm -rf "$APP/vendor"
rm -f "$APP"/bootstrap/cache/*.php
if [[ -f "$APP/composer.lock" ]]; then
    composer --working-dir="$APP" --no-interaction --no-progress install --quiet
else
    composer --working-dir="$APP" --no-interaction --no-progress update --quiet
fi
# As the skeleton's post-autoload-dump script: Reverb's and Spindle's service providers.
php "$APP/artisan" package:discover --no-interaction >/dev/null
# Reverb's own config file and Laravel's broadcasting.php, as install:broadcasting publishes them.
php "$APP/artisan" vendor:publish --tag=reverb-config --force --no-interaction >/dev/null
php "$APP/artisan" config:publish broadcasting --force --no-interaction >/dev/null
php "$APP/artisan" reverb:start --help >/dev/null || die "reverb:start is not there"
log "done: $APP (laravel/framework $(composer --working-dir="$APP" show laravel/framework --format=json | php -r 'echo json_decode(stream_get_contents(STDIN), true)["versions"][0];'), laravel/reverb 1.10.2)"
