<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Laravel;

use PHPUnit\Framework\TestCase;
use Spindle\Bridge\Laravel\MysqlDriver;
use Spindle\Bridge\Laravel\PgsqlDriver;

/** Laravel's mysql and pgsql connections get Spindle's client in the CLI (spindle serve, artisan) only. */
final class DatabaseDriverChoiceTest extends TestCase
{
    protected function tearDown(): void
    {
        \putenv('SPINDLE_MYSQL_DRIVER');
        \putenv('SPINDLE_PGSQL_DRIVER');
    }

    public function testTheCommandLineUsesSpindlesClientUnlessTheEnvironmentSaysNative(): void
    {
        self::assertTrue(MysqlDriver::enabled('cli'));
        self::assertTrue(PgsqlDriver::enabled('cli'));
        \putenv('SPINDLE_MYSQL_DRIVER=Native');
        self::assertFalse(MysqlDriver::enabled('cli'));
        self::assertTrue(PgsqlDriver::enabled('cli'));
        \putenv('SPINDLE_PGSQL_DRIVER=native');
        self::assertFalse(PgsqlDriver::enabled('cli'));
    }

    public function testWebSapisKeepTheNativeDriver(): void
    {
        foreach (['fpm-fcgi', 'apache2handler', 'cgi-fcgi', 'litespeed'] as $sapi) {
            self::assertFalse(MysqlDriver::enabled($sapi), $sapi);
            self::assertFalse(PgsqlDriver::enabled($sapi), $sapi);
        }
    }
}
