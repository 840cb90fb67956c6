<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\LaravelFixture;

/**
 * The isolation suite of LaravelIsolationSuiteTest on the Laravel 12 fixture app (tests/fixtures/laravel12-app).
 *
 * @group frameworks
 */
final class Laravel12IsolationSuiteTest extends LaravelIsolationSuiteTest
{
    protected static function app(): string
    {
        return LaravelFixture::path(LaravelFixture::LARAVEL_12);
    }
}
