<?php

declare(strict_types=1);

/*
 * The Spindle side of Guzzle's handler tests: Guzzle's handler classes, declared here before
 * Composer's autoloader would load Guzzle's own, each a SpindleHandler. A test written for
 * `new CurlHandler()`, `new CurlMultiHandler()` or `new StreamHandler()`, and every Client whose
 * stack Guzzle builds with its default handler (Utils::chooseHandler()), then runs on Spindle's
 * client without a line of the test changed.
 *
 * CurlHandler and StreamHandler are synchronous in Guzzle (their promise is settled when
 * returned): their stand-ins pass `sync`, which SpindleHandler honours the same way. CurlMultiHandler's tick() and execute() run
 * the event loop until the requests it started have ended; dropping it cancels those still running.
 */

namespace GuzzleHttp\Handler;

use GuzzleHttp\Promise\PromiseInterface;
use Psr\Http\Message\RequestInterface;
use Spindle\HttpClient\Guzzle\SpindleHandler;
use Spindle\HttpClient\HttpClient;

abstract class SpindleStandIn
{
    private static ?HttpClient $client = null;

    protected readonly SpindleHandler $handler;

    /** @param array<string, mixed> $options the stand-in's constructor options (curl's are ignored) */
    public function __construct(array $options = [])
    {
        // One client for the run, as a worker has one: its pool keeps connections alive.
        $this->handler = new SpindleHandler(self::$client ??= new HttpClient());
    }

    /** @param array<string, mixed> $options */
    public function __invoke(RequestInterface $request, array $options): PromiseInterface
    {
        return ($this->handler)($request, $options);
    }
}

class CurlHandler extends SpindleStandIn
{
    /** @param array<string, mixed> $options */
    public function __invoke(RequestInterface $request, array $options): PromiseInterface
    {
        return ($this->handler)($request, ['sync' => true] + $options);
    }
}

class CurlMultiHandler extends SpindleStandIn
{
    /** @var list<PromiseInterface> */
    private array $pending = [];

    /** @param array<string, mixed> $options */
    public function __invoke(RequestInterface $request, array $options): PromiseInterface
    {
        $promise = ($this->handler)($request, $options);
        $this->pending[] = $promise;

        return $promise;
    }

    /** Runs the loop until the requests started so far have ended. */
    public function execute(): void
    {
        while (($promise = array_shift($this->pending)) !== null) {
            if ($promise->getState() === PromiseInterface::PENDING) {
                try {
                    $promise->wait(false);
                } catch (\Throwable) {
                }
            }
        }
    }

    /**
     * As curl_multi_close() drops what a CurlMultiHandler has in flight when it goes, the
     * requests of a stand-in dropped unwaited are cancelled: they do not run on into the next test
     * and take the responses queued for it.
     */
    public function __destruct()
    {
        foreach ($this->pending as $promise) {
            $promise->cancel();
        }
    }

    public function tick(): void
    {
        \GuzzleHttp\Promise\Utils::queue()->run();
        $this->execute();
    }
}

class StreamHandler extends SpindleStandIn
{
    /** @param array<string, mixed> $options */
    public function __invoke(RequestInterface $request, array $options): PromiseInterface
    {
        return ($this->handler)($request, ['sync' => true] + $options);
    }
}
