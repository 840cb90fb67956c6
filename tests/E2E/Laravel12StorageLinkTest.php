<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\LaravelFixture;

/**
 * The tests of LaravelStorageLinkTest on the Laravel 12 fixture app (tests/fixtures/laravel12-app).
 *
 * @group frameworks
 */
final class Laravel12StorageLinkTest extends LaravelStorageLinkTest
{
    protected static function app(): string
    {
        return LaravelFixture::path(LaravelFixture::LARAVEL_12);
    }
}
