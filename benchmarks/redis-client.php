<?php

declare(strict_types=1);

// Spindle's Redis client against phpredis, side by side on one private redis-server:
//   1. one fiber, sequential SET then GET of 100-byte values: the cost per command;
//   2. 100 fibers each doing 100 GETs at once, against phpredis doing the 10,000 one after the other.
// Knobs: OPS (commands per sequential run, default 10000), ROUNDS (best of, default 7).
//
//   php benchmarks/redis-client.php      (benchmarks/redis-client.sh runs it with OPcache + JIT)

require dirname(__DIR__) . '/vendor/autoload.php';

use Revolt\EventLoop;
use Spindle\Redis\PhpRedisCompat;
use Spindle\Redis\RedisClient;
use Spindle\Tests\Integration\Redis\RedisServer;

if (!extension_loaded('redis')) {
    fwrite(STDERR, "phpredis (php8.2-redis) is needed for the comparison\n");
    exit(1);
}
$ops = (int) (getenv('OPS') ?: 10000);
$rounds = (int) (getenv('ROUNDS') ?: 7);
$server = RedisServer::start();
$value = str_repeat('v', 100);

/** Runs $body in a fiber on the loop and returns the seconds it took. */
$inFiber = static function (Closure $body): float {
    $elapsed = 0.0;
    EventLoop::queue(static function () use ($body, &$elapsed): void {
        $t = hrtime(true);
        $body();
        $elapsed = (hrtime(true) - $t) / 1e9;
    });
    EventLoop::run();

    return $elapsed;
};
// The clients take turns, round after round, and each keeps its best round: on a shared, noisy
// machine a burst of load then hits all of them rather than one.
$interleaved = static function (array $measures) use ($rounds): array {
    $best = array_fill_keys(array_keys($measures), INF);
    for ($i = 0; $i < $rounds; ++$i) {
        foreach ($measures as $name => $measure) {
            $best[$name] = min($best[$name], $measure());
        }
    }

    return $best;
};

$native = new Redis();
$native->connect('127.0.0.1', $server->port);
$spindle = RedisClient::fromUrl($server->url());
$compat = new PhpRedisCompat($spindle);
$pairs = intdiv($ops, 2);

// predis (Debian's php-predis), when installed: the pure-PHP client Laravel also supports.
$predis = null;
if (is_file('/usr/share/php/Predis/Autoloader.php')) {
    require_once '/usr/share/php/Predis/Autoloader.php';
    Predis\Autoloader::register();
    $predis = new Predis\Client(['host' => '127.0.0.1', 'port' => $server->port]);
}

$sequentialMeasures = [
    'phpredis' => (static function () use ($native, $pairs, $value): float {
        $t = hrtime(true);
        for ($i = 0; $i < $pairs; ++$i) {
            $native->set('k' . ($i % 100), $value);
            $native->get('k' . ($i % 100));
        }

        return (hrtime(true) - $t) / 1e9;
    }),
    'Spindle RedisClient (1 fiber)' => (static fn (): float => $inFiber(static function () use ($spindle, $pairs, $value): void {
        for ($i = 0; $i < $pairs; ++$i) {
            $spindle->execute('SET', 'k' . ($i % 100), $value);
            $spindle->execute('GET', 'k' . ($i % 100));
        }
    })),
    'Spindle PhpRedisCompat (1 fiber)' => (static fn (): float => $inFiber(static function () use ($compat, $pairs, $value): void {
        for ($i = 0; $i < $pairs; ++$i) {
            $compat->set('k' . ($i % 100), $value);
            $compat->get('k' . ($i % 100));
        }
    })),
];
if ($predis !== null) {
    $sequentialMeasures['predis ' . Predis\Client::VERSION] = static function () use ($predis, $pairs, $value): float {
        $t = hrtime(true);
        for ($i = 0; $i < $pairs; ++$i) {
            $predis->set('k' . ($i % 100), $value);
            $predis->get('k' . ($i % 100));
        }

        return (hrtime(true) - $t) / 1e9;
    };
}
$sequential = $interleaved($sequentialMeasures);

$fibers = 100;
$each = 100;
$concurrent = $interleaved([
    'phpredis, 10,000 GETs one after the other' => (static function () use ($native, $fibers, $each): float {
        $t = hrtime(true);
        for ($i = 0; $i < $fibers * $each; ++$i) {
            $native->get('k' . ($i % 100));
        }

        return (hrtime(true) - $t) / 1e9;
    }),
    'Spindle RedisClient, 100 fibers x 100 GETs' => (static function () use ($spindle, $fibers, $each): float {
        $t = hrtime(true);
        for ($f = 0; $f < $fibers; ++$f) {
            EventLoop::queue(static function () use ($spindle, $each, $f): void {
                for ($i = 0; $i < $each; ++$i) {
                    $spindle->execute('GET', 'k' . (($f + $i) % 100));
                }
            });
        }
        EventLoop::run();

        return (hrtime(true) - $t) / 1e9;
    }),
    'Spindle PhpRedisCompat, 100 fibers x 100 GETs' => (static function () use ($spindle, $fibers, $each): float {
        $t = hrtime(true);
        for ($f = 0; $f < $fibers; ++$f) {
            EventLoop::queue(static function () use ($spindle, $each, $f): void {
                $redis = new PhpRedisCompat($spindle);
                for ($i = 0; $i < $each; ++$i) {
                    $redis->get('k' . (($f + $i) % 100));
                }
            });
        }
        EventLoop::run();

        return (hrtime(true) - $t) / 1e9;
    }),
]);
$server->stop();

printf("%s; %d cores; PHP %s; phpredis %s; %s; JIT %s; best of %d\n\n", gmdate('Y-m-d\TH:i:s\Z'), (int) shell_exec('nproc'), PHP_VERSION,
    phpversion('redis'), trim((string) shell_exec('redis-server --version | cut -d" " -f3')), ini_get('opcache.jit') ?: 'off', $rounds);
echo "### One fiber, sequential SET/GET of 100-byte values ($ops commands)\n\n";
echo "| client | µs per command | commands/s | vs phpredis (cost) |\n| --- | ---: | ---: | ---: |\n";
$base = $sequential['phpredis'];
foreach ($sequential as $name => $seconds) {
    printf("| %s | %.1f | %s | %.2fx |\n", $name, $seconds / $ops * 1e6, number_format($ops / $seconds), $seconds / $base);
}
echo "\n### 10,000 GETs: 100 fibers at once against phpredis sequentially\n\n";
echo "| client | seconds | GETs/s | vs phpredis (throughput) |\n| --- | ---: | ---: | ---: |\n";
$base = reset($concurrent);
foreach ($concurrent as $name => $seconds) {
    printf("| %s | %.3f | %s | %.2fx |\n", $name, $seconds, number_format($fibers * $each / $seconds), $base / $seconds);
}
