<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Laravel;

use PHPUnit\Framework\TestCase;
use Revolt\EventLoop;
use Revolt\EventLoop\Driver\StreamSelectDriver;
use Spindle\Bridge\Laravel\MysqlDriver;
use Spindle\Bridge\Laravel\PgsqlDriver;
use Spindle\Loop\ContextDriver;

/**
 * Laravel's mysql and pgsql connections get Spindle's client in a worker of spindle serve (the
 * event loop is Spindle's) only: artisan commands, PHP-FPM and other servers keep native PDO.
 */
final class DatabaseDriverChoiceTest extends TestCase
{
    private EventLoop\Driver $driver;

    protected function setUp(): void
    {
        $this->driver = EventLoop::getDriver();
    }

    protected function tearDown(): void
    {
        EventLoop::setDriver($this->driver);
        \putenv('SPINDLE_MYSQL_DRIVER');
        \putenv('SPINDLE_PGSQL_DRIVER');
    }

    public function testAWorkerUsesSpindlesClientUnlessTheEnvironmentSaysNative(): void
    {
        EventLoop::setDriver(new ContextDriver(new StreamSelectDriver()));
        self::assertTrue(MysqlDriver::enabled());
        self::assertTrue(PgsqlDriver::enabled());
        \putenv('SPINDLE_MYSQL_DRIVER=Native');
        self::assertFalse(MysqlDriver::enabled());
        self::assertTrue(PgsqlDriver::enabled());
        \putenv('SPINDLE_PGSQL_DRIVER=native');
        self::assertFalse(PgsqlDriver::enabled());
    }

    public function testOutsideAWorkerTheNativeDriverStays(): void
    {
        EventLoop::setDriver(new StreamSelectDriver());
        self::assertFalse(MysqlDriver::enabled());
        self::assertFalse(PgsqlDriver::enabled());
    }
}
