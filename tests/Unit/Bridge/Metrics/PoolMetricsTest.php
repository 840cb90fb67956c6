<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Metrics;

use PHPUnit\Framework\TestCase;
use Revolt\EventLoop;
use Spindle\Database\Pool\ConnectionPool;
use Spindle\Bridge\Metrics\PoolMetrics;
use Spindle\Metrics\PrometheusText;
use Spindle\Metrics\Registry;
use Spindle\Tests\Unit\Database\FakeConnection;
use Spindle\Tests\Unit\Metrics\PrometheusParser;

final class PoolMetricsTest extends TestCase
{
    public function testThePoolsFiguresAreReadWhenCollected(): void
    {
        $registry = new Registry();
        $made = 0;
        $connect = static function () use (&$made): FakeConnection {
            return new FakeConnection(++$made);
        };
        $main = new ConnectionPool($connect, maxSize: 1);
        $other = new ConnectionPool($connect, maxSize: 4);
        PoolMetrics::export($main, 'main', $registry);
        PoolMetrics::export($other, 'reports', $registry);

        $held = $main->acquire();
        $waited = false;
        EventLoop::queue(static function () use ($main, &$waited): void {
            $main->acquire()->release();
            $waited = true;
        });
        EventLoop::queue(static function () use ($registry, $held): void {
            // One fiber waits for the only connection now.
            $samples = PrometheusParser::parse(PrometheusText::render($registry->collect()));
            self::assertSame(1.0, (float) $samples['spindle_mysql_pool_connections{pool="main",state="busy"}']);
            self::assertSame(0.0, (float) $samples['spindle_mysql_pool_connections{pool="main",state="idle"}']);
            self::assertSame(1.0, (float) $samples['spindle_mysql_pool_waiting{pool="main"}']);
            self::assertSame(4.0, (float) $samples['spindle_mysql_pool_max_connections{pool="reports"}']);
            $held->release();
        });
        EventLoop::run();
        self::assertTrue($waited);

        $samples = PrometheusParser::parse(PrometheusText::render($registry->collect()));
        self::assertSame(1.0, (float) $samples['spindle_mysql_pool_waits_total{pool="main"}']);
        self::assertSame(0.0, (float) $samples['spindle_mysql_pool_waiting{pool="main"}']);
        self::assertSame(1.0, (float) $samples['spindle_mysql_pool_connections{pool="main",state="idle"}']);

        unset($other);
        $samples = PrometheusParser::parse(PrometheusText::render($registry->collect()));
        self::assertArrayNotHasKey('spindle_mysql_pool_max_connections{pool="reports"}', $samples, 'a pool that is gone shows nothing');
    }
}
