<?php

declare(strict_types=1);

namespace Spindle\Server;

use Psr\Log\LoggerInterface;
use Revolt\EventLoop;
use Spindle\Bridge\Psr15\Psr7Bridge;
use Spindle\Http\Clock;
use Spindle\Http\HandlerSet;
use Spindle\Http\Request;
use Spindle\Http\Response;
use Spindle\Http\ResponseSerializer;
use Spindle\Http\StaticFiles\StaticFileHandler;
use Spindle\Loop\Context;
use Spindle\Loop\Loop;
use Spindle\Loop\TaskRunner;

/**
 * One worker process: boots the application once, then serves requests from it until told to
 * stop, each request in its own fiber.
 */
final class Worker
{
    private ?HttpServer $server = null;
    private int $signals = 0;

    public function __construct(
        private readonly ServerOptions $options,
        private readonly LoggerInterface $logger,
    ) {
    }

    /**
     * Boots the app. Throws if it cannot be loaded: nothing is listening yet.
     *
     * @return \Closure(Request): Response
     */
    public function boot(): \Closure
    {
        $driver = Loop::driver();
        $logger = $this->logger;
        $driver->watchBlocking($this->options->blockThreshold, static function (Context $context, float $seconds) use ($logger): void {
            $logger->warning(\sprintf('Request %s blocked the event loop for %.3f s', $context->label, $seconds));
        });
        EventLoop::setErrorHandler(static function (\Throwable $e) use ($logger): void {
            $logger->error('Unhandled error in an event loop callback: ' . $e->getMessage(), ['exception' => $e]);
        });

        $handler = (new AppLoader(Psr7Bridge::withNyholm()))->load($this->options->app);
        if ($this->options->staticDir !== null) {
            $static = new StaticFileHandler($this->options->staticDir);
            $app = $handler;
            $handler = static fn (Request $request): Response => $static->handle($request) ?? $app($request);
        }
        $limit = new ConcurrencyLimit($this->options->concurrency);
        $inner = $handler;

        return static function (Request $request) use ($limit, $inner): Response {
            $limit->acquire();
            try {
                return $inner($request);
            } finally {
                $limit->release();
            }
        };
    }

    /**
     * Serves on $listener until SIGTERM/SIGINT (graceful) or a second signal (immediate).
     *
     * @param resource $listener
     * @param \Closure(): void $onReady called once the worker accepts connections
     * @param \Closure(Request): Response $handler
     */
    public function serve(mixed $listener, \Closure $handler, \Closure $onReady): void
    {
        $set = new HandlerSet(
            $handler,
            $this->options->limits,
            new TaskRunner(Loop::driver()),
            $this->logger,
            new Clock(),
            new ResponseSerializer(),
            $this->options->uploadDir ?? \sys_get_temp_dir(),
            $this->options->debug,
        );
        $local = (string) \stream_socket_get_name($listener, false);
        $colon = (int) \strrpos($local, ':');
        $server = new HttpServer($listener, $set, \trim(\substr($local, 0, $colon), '[]'), (int) \substr($local, $colon + 1));
        $this->server = $server;
        $server->start();

        foreach ([\SIGTERM, \SIGINT] as $signal) {
            EventLoop::unreference(EventLoop::onSignal($signal, $this->onSignal(...)));
        }
        $onReady();
        EventLoop::run();
    }

    private function onSignal(): void
    {
        $server = $this->server;
        if ($server === null) {
            return;
        }
        if (++$this->signals > 1) {
            $this->logger->notice('Second stop signal: closing all connections now');
            $server->abort();

            return;
        }
        $server->stop();
        EventLoop::unreference(EventLoop::delay($this->options->drainTimeout, static function () use ($server): void {
            $server->abort();
        }));
    }
}
