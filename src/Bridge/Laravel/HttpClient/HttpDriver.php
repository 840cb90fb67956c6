<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\HttpClient;

use Illuminate\Contracts\Foundation\Application;
use Illuminate\Http\Client\Factory;
use Revolt\EventLoop;
use Spindle\Loop\ContextDriver;

/**
 * Under Spindle (in a worker, whose loop is Spindle's), Laravel's `Http` facade sends through
 * Spindle's Guzzle handler, so a request waiting on another service suspends only its fiber.
 * `SPINDLE_HTTP_DRIVER=native` keeps Guzzle's own handler; `Http::fake()` works as ever.
 */
final class HttpDriver
{
    private function __construct()
    {
    }

    public static function enabled(): bool
    {
        $value = $_SERVER['SPINDLE_HTTP_DRIVER'] ?? $_ENV['SPINDLE_HTTP_DRIVER'] ?? \getenv('SPINDLE_HTTP_DRIVER');
        if (\is_string($value) && \strtolower($value) === 'native') {
            return false;
        }

        return EventLoop::getDriver() instanceof ContextDriver && \class_exists(\GuzzleHttp\HandlerStack::class);
    }

    public static function register(Application $app): void
    {
        if (self::enabled() && \class_exists(Factory::class)) {
            $app->bind(Factory::class, SpindleFactory::class);
        }
    }
}
