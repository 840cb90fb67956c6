<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Metrics;

use PHPUnit\Framework\TestCase;
use Spindle\Metrics\Aggregator;
use Spindle\Metrics\Family;
use Spindle\Metrics\MetricsError;
use Spindle\Metrics\PrometheusText;
use Spindle\Metrics\Registry;

final class MetricsTest extends TestCase
{
    public function testTheRegistryReturnsTheSameMetricForTheSameName(): void
    {
        $registry = new Registry();
        $a = $registry->counter('app_orders_total', 'Orders', ['status']);
        $a->inc(['paid']);
        $b = $registry->counter('app_orders_total', 'Orders', ['status']);
        $b->inc(['paid'], 2);
        self::assertSame($a, $b);
        self::assertSame(3.0, $a->value(['paid']));
    }

    /** @return iterable<string, array{\Closure(Registry): mixed}> */
    public static function misuse(): iterable
    {
        yield 'bad name' => [static fn (Registry $r) => $r->counter('app-orders', 'x')];
        yield 'bad label' => [static fn (Registry $r) => $r->counter('app_orders', 'x', ['1st'])];
        yield 'reserved label' => [static fn (Registry $r) => $r->counter('app_orders', 'x', ['__name'])];
        yield 'le on a histogram' => [static fn (Registry $r) => $r->histogram('app_seconds', 'x', ['le'])];
        yield 'other type' => [static function (Registry $r): void {
            $r->counter('app_x', 'x');
            $r->gauge('app_x', 'x');
        }];
        yield 'other labels' => [static function (Registry $r): void {
            $r->counter('app_x', 'x', ['a']);
            $r->counter('app_x', 'x', ['b']);
        }];
        yield 'label count' => [static fn (Registry $r) => $r->counter('app_x', 'x', ['a'])->inc([])];
        yield 'counter down' => [static fn (Registry $r) => $r->counter('app_x', 'x')->inc([], -1)];
        yield 'unsorted duplicate buckets' => [static fn (Registry $r) => $r->histogram('app_s', 'x', [], [1.0, 1.0])];
    }

    /**
     * @dataProvider misuse
     *
     * @param \Closure(Registry): mixed $misuse
     */
    public function testMisuseIsRefused(\Closure $misuse): void
    {
        $this->expectException(MetricsError::class);
        $misuse(new Registry());
    }

    public function testTheTextIsReadByAPrometheusParser(): void
    {
        $registry = new Registry();
        $requests = $registry->counter('spindle_http_requests_total', 'Requests, "quoted" \\ and' . "\n" . 'two lines', ['method', 'status']);
        $requests->inc(['GET', '2xx'], 3);
        $requests->inc(['POST', '5xx']);
        $requests->inc(["we\"ird\\\nvalue", '2xx']);
        $registry->gauge('app_queue_depth', 'Depth')->set(-2.5);
        $seconds = $registry->histogram('app_render_seconds', 'Render', ['view'], [0.01, 0.1, 1.0]);
        $seconds->observe(0.005, ['home']);
        $seconds->observe(0.05, ['home']);
        $seconds->observe(7.0, ['home']);
        $seconds->observe(0.1, ['home']);

        $text = PrometheusText::render($registry->collect());
        $samples = PrometheusParser::parse($text);

        self::assertSame(3.0, (float) $samples['spindle_http_requests_total{method="GET",status="2xx"}']);
        self::assertSame(1.0, (float) $samples['spindle_http_requests_total{method="POST",status="5xx"}']);
        self::assertSame(1.0, (float) $samples["spindle_http_requests_total{method=\"we\"ird\\\nvalue\",status=\"2xx\"}"]);
        self::assertSame(-2.5, (float) $samples['app_queue_depth']);
        self::assertSame(1.0, (float) $samples['app_render_seconds_bucket{le="0.01",view="home"}']);
        self::assertSame(3.0, (float) $samples['app_render_seconds_bucket{le="0.1",view="home"}'], 'le is inclusive and cumulative');
        self::assertSame(3.0, (float) $samples['app_render_seconds_bucket{le="1",view="home"}']);
        self::assertSame(4.0, (float) $samples['app_render_seconds_bucket{le="+Inf",view="home"}']);
        self::assertSame(4.0, (float) $samples['app_render_seconds_count{view="home"}']);
        self::assertEqualsWithDelta(7.155, (float) $samples['app_render_seconds_sum{view="home"}'], 1e-9);
        self::assertSame('counter', $samples['# TYPE spindle_http_requests']);
        self::assertSame('histogram', $samples['# TYPE app_render_seconds']);
    }

    public function testTheMasterSumsWorkersAndKeepsWhatExitedWorkersCounted(): void
    {
        $worker = static function (float $requests, float $gauge, float $observed): array {
            $registry = new Registry();
            $registry->counter('spindle_http_requests_total', 'R', ['method', 'status'])->inc(['GET', '2xx'], $requests);
            $registry->gauge('app_busy', 'B')->set($gauge);
            $registry->histogram('app_seconds', 'S', [], [1.0])->observe($observed);
            $families = [];
            foreach ($registry->collect() as $family) {
                // As it crosses the channel.
                $copy = Family::fromArray(\json_decode((string) \json_encode($family->toArray(), \JSON_PRESERVE_ZERO_FRACTION), true));
                self::assertNotNull($copy);
                $families[] = $copy;
            }

            return $families;
        };
        $aggregator = new Aggregator();
        $aggregator->update(101, $worker(5, 1, 0.5));
        $aggregator->update(102, $worker(7, 2, 3.0));
        $sum = PrometheusParser::parse(PrometheusText::render($aggregator->families()));
        self::assertSame(12.0, (float) $sum['spindle_http_requests_total{method="GET",status="2xx"}']);
        self::assertSame(3.0, (float) $sum['app_busy']);
        self::assertSame(1.0, (float) $sum['app_seconds_bucket{le="1"}']);
        self::assertSame(2.0, (float) $sum['app_seconds_count']);

        // Worker 101 exits; its replacement starts from zero. The counter does not go down.
        $aggregator->retire(101);
        $aggregator->update(103, $worker(1, 4, 0.1));
        $aggregator->update(102, $worker(8, 2, 3.0));
        $sum = PrometheusParser::parse(PrometheusText::render($aggregator->families()));
        self::assertSame(14.0, (float) $sum['spindle_http_requests_total{method="GET",status="2xx"}']);
        self::assertSame(6.0, (float) $sum['app_busy'], 'the gauge of the exited worker is gone');
        self::assertSame(3.0, (float) $sum['app_seconds_count']);
    }

    public function testMalformedReportsAreIgnored(): void
    {
        self::assertNull(Family::fromArray('x'));
        self::assertNull(Family::fromArray(['n' => 'bad name', 't' => 'counter', 'h' => '', 'l' => [], 'b' => [], 's' => []]));
        self::assertNull(Family::fromArray(['n' => 'a', 't' => 'summary', 'h' => '', 'l' => [], 'b' => [], 's' => []]));
        self::assertNull(Family::fromArray(['n' => 'a', 't' => 'histogram', 'h' => '', 'l' => [], 'b' => [1], 's' => ['' => [[1], 1, 1]]]));
        self::assertNotNull(Family::fromArray(['n' => 'a', 't' => 'histogram', 'h' => '', 'l' => [], 'b' => [1], 's' => ['' => [[1, 0], 1, 1]]]));
    }
}
