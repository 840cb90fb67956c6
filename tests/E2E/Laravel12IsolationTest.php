<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\LaravelFixture;

/**
 * The tests of LaravelIsolationTest on the Laravel 12 fixture app (tests/fixtures/laravel12-app).
 *
 * @group frameworks
 */
final class Laravel12IsolationTest extends LaravelIsolationTest
{
    protected static function app(): string
    {
        return LaravelFixture::path(LaravelFixture::LARAVEL_12);
    }
}
