<?php

declare(strict_types=1);

namespace Spindle\Tests\Replay;

use Psr\Log\LoggerInterface;
use Psr\Log\NullLogger;
use Revolt\EventLoop;
use Spindle\Bridge\Laravel\LaravelApp;
use Spindle\Http\FileBody;
use Spindle\Http\Request;
use Spindle\Http\Response;
use Spindle\Loop\Context;
use Spindle\Loop\Loop;
use Spindle\Loop\TaskRunner;
use Spindle\Server\ServerOptions;
use Spindle\Server\WorkerServices;

/**
 * An in-process replay harness: boots a Laravel app in this process the way a worker does
 * (LaravelApp::boot(): the instance pool, Spindle's resetters and the app's, the statics swap)
 * and feeds it requests through Spindle's Laravel handler, each in a task of its own on the
 * event loop (its waits suspend it, its after-response work runs as the server runs it), then
 * returns the response with its whole body.
 *
 * Load it with the app's own autoloader (each fixture brings its Laravel): scripts that use it
 * run in a child process and `require` this file.
 */
final class LaravelReplay
{
    private readonly TaskRunner $runner;

    /** @param \Closure(Request): Response $handler */
    private function __construct(private readonly \Closure $handler)
    {
        $this->runner = new TaskRunner(Loop::driver());
    }

    /**
     * Boots the app in $directory with $env set first (as the server's environment), one
     * instance unless $env says otherwise, so that requests in a row run on the same instance
     * as the requests of one connection do in a worker.
     *
     * @param array<string, string> $env
     */
    public static function boot(string $directory, array $env = [], bool $checkState = false, LoggerInterface $logger = new NullLogger()): self
    {
        $env += ['SPINDLE_INSTANCES' => '1', 'SPINDLE_WARM_INSTANCES' => '1'];
        foreach ($env as $name => $value) {
            \putenv($name . '=' . $value);
            $_SERVER[$name] = $_ENV[$name] = $value;
        }
        $handler = LaravelApp::boot($directory, new ServerOptions(app: $directory, concurrency: 16, checkState: $checkState), $logger, WorkerServices::current());

        return new self($handler);
    }

    /**
     * Serves one request and returns its response once the work after it (terminate, the
     * resetters) is done.
     *
     * @param array<string, string> $headers
     */
    public function request(string $method, string $target, array $headers = [], string $body = ''): ReplayResponse
    {
        $request = self::makeRequest($method, $target, $headers, $body);
        $context = new Context($method . ' ' . $request->path);
        $outcome = null;
        $suspension = null;
        $this->runner->run($context, function () use ($request, $context, &$outcome, &$suspension): void {
            try {
                $response = ($this->handler)($request);
                $outcome = new ReplayResponse($response->status, $response->headers, self::readBody($response->body));
            } catch (\Throwable $e) {
                $outcome = $e;
            }
            $context->runDeferred(static function (Context $context, \Throwable $e) use (&$outcome): void {
                $outcome ??= $e;
            });
            $suspension?->resume();
        });
        if ($outcome === null) {
            // The request waits (database, delay()): run the loop until it is done.
            $suspension = EventLoop::getSuspension();
            $suspension->suspend();
        }
        if ($outcome instanceof \Throwable) {
            throw $outcome;
        }
        \assert($outcome instanceof ReplayResponse);

        return $outcome;
    }

    public function get(string $target): ReplayResponse
    {
        return $this->request('GET', $target);
    }

    /** @param array<string, string> $headers */
    private static function makeRequest(string $method, string $target, array $headers, string $body): Request
    {
        $question = \strpos($target, '?');
        $lists = ['host' => ['localhost']];
        foreach ($headers as $name => $value) {
            $lists[\strtolower($name)] = [$value];
        }
        if ($body !== '') {
            $lists['content-length'] = [(string) \strlen($body)];
        }

        return new Request(
            $method,
            $target,
            $question === false ? $target : \substr($target, 0, $question),
            $question === false ? '' : \substr($target, $question + 1),
            '1.1',
            $lists,
            $body,
            remoteAddress: '127.0.0.1',
            remotePort: 50000,
            localAddress: '127.0.0.1',
            localPort: 8080,
        );
    }

    /** @param string|iterable<string>|FileBody $body */
    private static function readBody(string|iterable|FileBody $body): string
    {
        if (\is_string($body)) {
            return $body;
        }
        if ($body instanceof FileBody) {
            return (string) \file_get_contents($body->path, false, null, $body->offset, $body->length);
        }
        $read = '';
        foreach ($body as $piece) {
            $read .= $piece;
        }

        return $read;
    }
}
