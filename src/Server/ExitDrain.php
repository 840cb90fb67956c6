<?php

declare(strict_types=1);

namespace Spindle\Server;

use Psr\Log\LoggerInterface;
use Revolt\EventLoop;
use Spindle\Http\Request;
use Spindle\Http\RequestRunner;
use Spindle\Http\Response;
use Spindle\Http\RunningRequest;
use Spindle\Loop\Loop;
use Spindle\Server\AccessLog\RequestIds;

/**
 * A request that ends the process (exit(), die, a fatal error such as an exhausted memory_limit)
 * costs that one request, not the other requests its worker has in flight.
 *
 * PHP unwinds exit() out of the fiber that called it, through the event loop, to the end of the
 * script (no catch or finally block runs); a fatal error jumps there at once. Either way PHP then
 * calls the shutdown functions, and every other fiber is still suspended where it waited, with
 * its stack whole: a shutdown function can resume them (docs/architecture.md has the details).
 * The one registered here
 *
 * 1. answers the request that ended the process, as PHP-FPM would: what it printed (and what
 *    its open output buffers hold) with its response code, 200 unless it set one, after exit();
 *    a 500 after a fatal error; and closes its connection, since it was left mid-request;
 * 2. tells the master, which starts the replacement at once, and stops accepting (the listening
 *    socket is closed: new connections go to the other workers, or wait for the replacement);
 * 3. runs the event loop until the other requests are answered (or --drain-timeout), then exits
 *    with EXIT_CODE: a worker that served and was replaced, not one that crashed.
 *
 * What PHP does not allow: a second request that ends the process while this drain runs ends it
 * for good (exit() inside a shutdown function stops PHP's shutdown functions, and the objects'
 * destructors that come next cannot switch fibers); the requests still in flight then are cut.
 */
final class ExitDrain
{
    /** The worker's exit status after such a drain: it served, replace it without back-off (EX_TEMPFAIL). */
    public const EXIT_CODE = 75;

    /** Memory above what the process uses that the drain may take, past an exhausted memory_limit. */
    private const HEADROOM = 33554432;
    private const FATAL = \E_ERROR | \E_CORE_ERROR | \E_COMPILE_ERROR | \E_USER_ERROR | \E_RECOVERABLE_ERROR | \E_PARSE;

    private bool $armed = false;
    private bool $registered = false;

    public function __construct(
        private readonly RequestRunner $runner,
        private readonly PrintedOutput $printed,
        private readonly ChannelToMaster $channel,
        private readonly LoggerInterface $logger,
        /** Whether a 500 shows the error (--debug). */
        private readonly bool $debug,
        /** @var \Closure(): void stops accepting; in-flight requests get the drain timeout */
        private readonly \Closure $stop,
        /** @var \Closure(): void what the worker does once its loop has ended */
        private readonly \Closure $cleanup,
        /** @var \Closure(Request, int, int, float): void the access log line and metrics of an answered request */
        private readonly \Closure $record,
    ) {
    }

    /** From now on a process end that is not serve() returning is drained (once per process). */
    public function arm(): void
    {
        $this->armed = true;
        if (!$this->registered) {
            $this->registered = true;
            \register_shutdown_function($this->onShutdown(...));
        }
    }

    /** serve() returned (or threw): the process ends on purpose. */
    public function disarm(): void
    {
        $this->armed = false;
    }

    private function onShutdown(): void
    {
        if (!$this->armed) {
            return;
        }
        $this->armed = false;
        self::makeHeadroom();
        $error = \error_get_last();
        $fatal = $error !== null && ($error['type'] & self::FATAL) !== 0 ? $error : null;

        // The process state on now is the interrupted request's: read it, then put the baseline back.
        $interrupted = $this->runner->interrupted();
        $code = \http_response_code();
        $buffered = $this->takeBuffers();
        // Should the request have removed the recording buffer, it is back before the baseline is taken.
        $this->printed->reopen();
        $isolation = Loop::driver()->isolation;
        $isolation->finish();
        self::makeHeadroom();
        $isolation->rebase();

        $what = $fatal !== null
            ? \sprintf('a fatal error (%s in %s:%d)', $fatal['message'], $fatal['file'], $fatal['line'])
            : 'exit()';
        if ($interrupted === []) {
            $this->logger->error(\sprintf('%s ended the worker process outside any request', \ucfirst($what)));
        }
        foreach ($interrupted as $i => $run) {
            $printed = $this->printed->take($run->context);
            if ($fatal !== null) {
                $body = ($this->debug ? \sprintf("PHP Fatal error: %s in %s:%d", $fatal['message'], $fatal['file'], $fatal['line']) : 'Internal Server Error') . "\n";
                $response = new Response(500, ['Content-Type' => 'text/plain; charset=utf-8', 'Connection' => 'close'], $body);
            } else {
                $status = \is_int($code) && $code >= 200 && $code <= 599 ? $code : 200;
                $body = $printed . ($i === 0 ? $buffered : '');
                $response = new Response($status, ['Content-Type' => 'text/html; charset=UTF-8', 'Connection' => 'close'], $body);
            }
            try {
                $id = $run->context->get(RequestIds::CONTEXT_KEY);
                $answered = $this->runner->abandon($run, \is_string($id) ? RequestIds::withId($response, $id) : $response);
                if ($answered) {
                    ($this->record)(self::requestWithId($run, $id), $response->status, \is_string($response->body) ? \strlen($response->body) : 0, $run->startedAt);
                }
            } catch (\Throwable $e) {
                $answered = false;
                $this->logger->error(\sprintf('%s could not be answered: %s', $run->context->label, $e->getMessage()), ['exception' => $e]);
            }
            $this->logger->log($fatal !== null ? 'error' : 'warning', \sprintf(
                '%s ended the worker process with %s: %s; the worker finishes its other requests and is replaced',
                $run->context->label,
                $what,
                $answered ? 'answered ' . $response->status : 'its connection was closed (its response had begun)',
            ));
        }

        $this->channel->exiting($fatal !== null ? ExitCause::FatalError : ExitCause::Exit, $this->runner->requestCount(), $this->runner->runningCount());
        ($this->stop)();
        try {
            EventLoop::run();
        } catch (\Throwable $e) {
            $this->logger->error('The drain after a request ended the process failed: ' . $e->getMessage(), ['exception' => $e]);
        }
        ($this->cleanup)();

        exit(self::EXIT_CODE);
    }

    /** $run's request with the X-Request-Id RequestIds gave it ($id), if any, for its access log line. */
    private static function requestWithId(RunningRequest $run, mixed $id): Request
    {
        $request = $run->request;

        return \is_string($id) && ($request->headers['x-request-id'][0] ?? null) !== $id ? $request->withHeader('x-request-id', $id) : $request;
    }

    /**
     * Takes the output buffers the interrupted request had open (they are on PHP's stack now),
     * with their contents in the order PHP would have flushed them.
     */
    private function takeBuffers(): string
    {
        $base = $this->printed->isRemoved() ? 0 : $this->printed->level();
        $pieces = [];
        while (\ob_get_level() > $base) {
            $contents = @\ob_get_clean();
            if ($contents === false) {
                // A buffer that cannot be removed: ProcessState leaves it as it is.
                break;
            }
            $pieces[] = $contents;
        }

        return \implode('', \array_reverse($pieces));
    }

    /** Raises memory_limit above what the process uses now, so that the drain can run. */
    private static function makeHeadroom(): void
    {
        $limit = self::bytes((string) \ini_get('memory_limit'));
        if ($limit <= 0) {
            return;
        }
        $wanted = \memory_get_usage(true) + self::HEADROOM;
        if ($wanted > $limit) {
            @\ini_set('memory_limit', (string) $wanted);
        }
    }

    /** An ini size ("128M", "1G", "-1") in bytes; 0 or less is no limit. */
    private static function bytes(string $value): int
    {
        $value = \trim($value);
        if ($value === '' || $value === '-1') {
            return -1;
        }
        $number = (int) $value;

        return match (\strtolower(\substr($value, -1))) {
            'g' => $number << 30,
            'm' => $number << 20,
            'k' => $number << 10,
            default => $number,
        };
    }
}
