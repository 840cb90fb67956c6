<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Illuminate\Console\Application as Artisan;
use Illuminate\Cache\CacheManager;
use Illuminate\Cache\Repository;
use Illuminate\Concurrency\ConcurrencyManager;
use Illuminate\Hashing\HashManager;
use Illuminate\Support\ServiceProvider;
use Spindle\Server\SharedCache\SharedCache;
use Spindle\Supervisor\ControlCommand;

/**
 * Adds `php artisan spindle:serve|stop|reload|status` to a Laravel app, and makes its `mysql`
 * and `pgsql` connections use Spindle's driver in artisan commands as they do under `spindle
 * serve` (see SpindleMySqlConnector and SpindlePostgresConnector for the opt-outs). Laravel discovers it
 * through the `extra.laravel.providers` key of Spindle's composer.json.
 */
final class SpindleServiceProvider extends ServiceProvider
{
    /** MySQL and PostgreSQL connections open Spindle's driver in artisan commands (migrations) too; the `spindle` Redis client driver. */
    public function register(): void
    {
        $this->app->bind('db.connector.mysql', SpindleMySqlConnector::class);
        $this->app->bind('db.connector.pgsql', SpindlePostgresConnector::class);
        Redis\RedisDriver::registerOnce($this->app);
        HttpClient\HttpDriver::register($this->app);
        // The cache store `spindle`: the cache shared by the server's workers.
        $this->app->afterResolving('cache', static function (CacheManager $cache): void {
            // Not static: the manager binds its drivers to itself.
            $cache->extend('spindle', function ($app, array $config) use ($cache): Repository {
                $prefix = $config['prefix'] ?? $app['config']['cache.prefix'] ?? '';

                return $cache->repository(new Cache\SpindleStore(SharedCache::store(), \is_string($prefix) && $prefix !== '' ? $prefix . ':' : ''));
            });
        });
        // Broadcasting on `reverb` and `pusher` connections the server answers itself: in process.
        Broadcasting\BroadcastDriver::register($this->app);
        // Password hashing in the task workers, when the server has some (SPINDLE_HASH_OFFLOAD=0: not).
        if (Hashing\TaskHasher::enabled()) {
            $this->app->afterResolving('hash', static function (HashManager $hash): void {
                foreach (['bcrypt' => 'createBcryptDriver', 'argon' => 'createArgonDriver', 'argon2id' => 'createArgon2idDriver'] as $driver => $create) {
                    // Not static: the manager binds its drivers to itself.
                    $hash->extend($driver, fn (): Hashing\TaskHasher => new Hashing\TaskHasher($hash->{$create}()));
                }
            });
        }
        // Laravel 11 and later: the `spindle` driver of the Concurrency facade.
        if (\class_exists(ConcurrencyManager::class)) {
            $this->app->afterResolving(ConcurrencyManager::class, static function (ConcurrencyManager $manager): void {
                // Not static: the manager binds its creators to itself.
                $manager->extend('spindle', fn (): ConcurrencyDriver => new ConcurrencyDriver());
            });
        }
    }

    public function boot(): void
    {
        if (!$this->app->runningInConsole()) {
            return;
        }
        $basePath = $this->app->basePath();
        Artisan::starting(static function (Artisan $artisan) use ($basePath): void {
            // addCommand() since Laravel 12 on Console 7.4, which deprecates add().
            // @phpstan-ignore function.alreadyNarrowedType (true from Laravel 12 on, false on Laravel 8 to 11)
            $add = \method_exists($artisan, 'addCommand') ? $artisan->addCommand(...) : $artisan->add(...);
            $add(new ServeArtisanCommand($basePath));
            foreach (['status' => 'Show the Spindle master and its workers', 'stop' => 'Stop the Spindle server gracefully', 'reload' => 'Start a new generation of Spindle workers, then drain the old one'] as $verb => $summary) {
                $command = new ControlCommand($verb, $summary);
                $command->setName('spindle:' . $verb);
                $add($command);
            }
        });
    }
}
