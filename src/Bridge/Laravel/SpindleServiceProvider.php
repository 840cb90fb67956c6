<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Illuminate\Console\Application as Artisan;
use Illuminate\Support\ServiceProvider;
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
