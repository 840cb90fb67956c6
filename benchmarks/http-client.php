<?php

declare(strict_types=1);

/*
 * The HTTP client side by side with Guzzle's curl handlers, in one process (run by
 * benchmarks/http-client.sh, which starts the servers):
 *
 *   php benchmarks/http-client.php keepalive URL N      sequential keep-alive GETs to URL (nginx)
 *   php benchmarks/http-client.php concurrent URL N     N GETs at once to URL (a 100 ms endpoint)
 *
 * Prints one JSON object of figures per line: the fastest of ROUNDS (default 3) rounds.
 */

require \dirname(__DIR__) . '/vendor/autoload.php';

use GuzzleHttp\Client;
use GuzzleHttp\Handler\CurlHandler;
use GuzzleHttp\Handler\CurlMultiHandler;
use GuzzleHttp\HandlerStack;
use GuzzleHttp\Promise\Utils;
use Revolt\EventLoop;
use Spindle\HttpClient\ConnectionPool;
use Spindle\HttpClient\Guzzle\SpindleHandler;
use Spindle\HttpClient\HttpClient;
use Spindle\HttpClient\Request;

[, $mode, $url, $n] = $argv + [null, 'keepalive', '', '1000'];
$n = (int) $n;

$rounds = (int) (\getenv('ROUNDS') ?: 3);
/** Runs $run($n) $rounds times after a warm-up and reports the fastest round (the machine is shared). */
$measure = static function (string $name, \Closure $run) use ($n, $rounds): void {
    $run(10); // warm-up: connections, autoloading
    $seconds = \INF;
    $cpuSeconds = 0.0;
    for ($round = 0; $round < $rounds; ++$round) {
        $cpu = \getrusage();
        $started = \hrtime(true);
        $run($n);
        $elapsed = (\hrtime(true) - $started) / 1e9;
        $after = \getrusage();
        if ($elapsed < $seconds) {
            $seconds = $elapsed;
            $cpuSeconds = ($after['ru_utime.tv_sec'] - $cpu['ru_utime.tv_sec']) + ($after['ru_utime.tv_usec'] - $cpu['ru_utime.tv_usec']) / 1e6
                + ($after['ru_stime.tv_sec'] - $cpu['ru_stime.tv_sec']) + ($after['ru_stime.tv_usec'] - $cpu['ru_stime.tv_usec']) / 1e6;
        }
    }
    echo \json_encode(['name' => $name, 'n' => $n, 'seconds' => \round($seconds, 4), 'us_per_request' => \round($seconds / $n * 1e6, 1), 'cpu_us_per_request' => \round($cpuSeconds / $n * 1e6, 1)]), "\n";
};

if ($mode === 'keepalive') {
    $curl = new Client(['handler' => HandlerStack::create(new CurlHandler())]);
    $measure('guzzle-curl', static function (int $n) use ($curl, $url): void {
        for ($i = 0; $i < $n; ++$i) {
            $curl->get($url)->getBody()->getContents();
        }
    });
    $spindleGuzzle = new Client(['handler' => HandlerStack::create(new SpindleHandler(new HttpClient()))]);
    $measure('guzzle-spindle', static function (int $n) use ($spindleGuzzle, $url): void {
        for ($i = 0; $i < $n; ++$i) {
            $spindleGuzzle->get($url)->getBody()->getContents();
        }
    });
    $client = new HttpClient();
    $measure('spindle-client', static function (int $n) use ($client, $url): void {
        for ($i = 0; $i < $n; ++$i) {
            $client->request(Request::create('GET', $url))->body->contents();
        }
    });
    // The same inside a fiber, as in a worker (each wait suspends the fiber instead of running the loop from {main}).
    $measure('spindle-client-in-fiber', static function (int $n) use ($client, $url): void {
        EventLoop::queue(static function () use ($client, $url, $n): void {
            for ($i = 0; $i < $n; ++$i) {
                $client->request(Request::create('GET', $url))->body->contents();
            }
        });
        EventLoop::run();
    });
} else {
    $measure('guzzle-curl-multi', static function (int $n) use ($url): void {
        $client = new Client(['handler' => HandlerStack::create(new CurlMultiHandler())]);
        $promises = [];
        for ($i = 0; $i < $n; ++$i) {
            $promises[] = $client->getAsync($url);
        }
        Utils::all($promises)->wait();
    });
    $measure('guzzle-spindle', static function (int $n) use ($url): void {
        $client = new Client(['handler' => HandlerStack::create(new SpindleHandler(new HttpClient(new ConnectionPool(maxPerOrigin: 512, maxTotal: 512))))]);
        $promises = [];
        for ($i = 0; $i < $n; ++$i) {
            $promises[] = $client->getAsync($url);
        }
        Utils::all($promises)->wait();
    });
    $measure('spindle-fibers', static function (int $n) use ($url): void {
        $client = new HttpClient(new ConnectionPool(maxPerOrigin: 512, maxTotal: 512));
        for ($i = 0; $i < $n; ++$i) {
            EventLoop::queue(static function () use ($client, $url): void {
                $client->request(Request::create('GET', $url))->body->contents();
            });
        }
        EventLoop::run();
    });
}
