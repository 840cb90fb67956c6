<?php

declare(strict_types=1);

namespace Spindle\HttpClient\Guzzle;

use GuzzleHttp\Exception\ConnectException as GuzzleConnectException;
use GuzzleHttp\Exception\GuzzleException;
use GuzzleHttp\Exception\RequestException;
use GuzzleHttp\Promise\CancellationException;
use GuzzleHttp\Promise\FulfilledPromise;
use GuzzleHttp\Promise\Promise;
use GuzzleHttp\Promise\PromiseInterface;
use GuzzleHttp\Promise\RejectedPromise;
use GuzzleHttp\Psr7;
use GuzzleHttp\TransferStats;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;
use Psr\Http\Message\StreamInterface;
use Revolt\EventLoop;
use Spindle\HttpClient\HttpClient;
use Spindle\HttpClient\HttpClientError;
use Spindle\HttpClient\HttpClientException;
use Spindle\HttpClient\Request;
use Spindle\HttpClient\Response;
use Spindle\HttpClient\SharedClient;
use Spindle\HttpClient\Transfer;
use Spindle\HttpClient\Url;
use Spindle\Loop\Loop;

/**
 * A Guzzle handler on Spindle's client: `HandlerStack::create(new SpindleHandler())`.
 *
 * A synchronous request (Guzzle's `sync` option, which Client::request() sets) runs in the
 * calling fiber and returns a settled promise, as CurlHandler does. Any other runs in a fiber of
 * its own; its promise resolves by suspending whoever waits on it, so Guzzle's middleware works on
 * top and `Utils::all()`, `Pool` and `Http::pool()` run concurrently. Cancelling that promise
 * stops the request where it waits (its connection closed), and so does the end of the server
 * request that started it, or the cancellation (timeout) of a request waiting on it.
 *
 * Failures are Guzzle's, as its curl handler raises them: ConnectException for curl's connection
 * errors (DNS, refused, TLS handshake, timeout, empty reply), RequestException otherwise (with the
 * response when its head was in), with curl's message ("cURL error 7: …") and `errno`/`error` in
 * the handler context. Option values of the wrong type raise InvalidArgumentException, as there.
 */
final class SpindleHandler
{
    private const SMALL_BODY = 1048576;
    /** curl's option number (ext-curl need not be loaded to read it from Guzzle's `curl` option). */
    private const CURLOPT_ENCODING = 10102;

    public function __construct(private readonly ?HttpClient $client = null)
    {
    }

    /** @param array<string, mixed> $options */
    public function __invoke(RequestInterface $request, array $options): PromiseInterface
    {
        GuzzleOptions::validate($options);
        if (!empty($options['sync'])) {
            try {
                return new FulfilledPromise($this->transfer($request, $options));
            } catch (\Throwable $e) {
                return new RejectedPromise($e);
            }
        }
        $settle = new Settle();
        $transfer = Transfer::start(
            fn (): ResponseInterface => $this->transfer($request, $options),
            $settle->settle(...),
        );
        $promise = new Promise(
            static function () use ($transfer): void {
                try {
                    $transfer->await();
                } catch (\Throwable $e) {
                    if ($transfer->isDone()) {
                        return; // the transfer's own failure: the promise is rejected with it already
                    }
                    // The wait itself was interrupted (the waiting request timed out): the
                    // transfer stops too, and the promise is rejected with the interruption.
                    $transfer->cancel($e);

                    throw $e;
                }
            },
            static function () use ($transfer): void {
                $transfer->cancel(new CancellationException('Promise has been cancelled'));
            },
        );
        $settle->promise = $promise;
        $context = Loop::context();
        if ($context !== null) {
            RequestTransfers::of($context)->add($transfer);
        }

        return $promise;
    }

    /** @param array<string, mixed> $options */
    private function transfer(RequestInterface $request, array $options): ResponseInterface
    {
        $delay = (float) ($options['delay'] ?? 0);
        if ($delay > 0) {
            $suspension = EventLoop::getSuspension();
            $timer = EventLoop::delay($delay / 1000, static fn () => $suspension->resume());
            try {
                $suspension->suspend();
            } finally {
                EventLoop::cancel($timer);
            }
        }
        $started = \hrtime(true) / 1e9;
        $debug = isset($options['debug']) && $options['debug'] !== false ? Debug::to($options['debug']) : null;
        $progress = isset($options['progress']) && \is_callable($options['progress']) ? $options['progress'](...) : null;
        $scheme = $request->getUri()->getScheme();
        if ($scheme !== 'http' && $scheme !== 'https') {
            $error = new RequestException(\sprintf("The scheme '%s' is not supported.", $scheme), $request);
            $this->stats($request, null, $started, null, $error, $options, null);
            throw $error;
        }
        $psrResponse = null;
        $ours = null;
        $headAt = null;
        $phase = 'request';
        try {
            $spindleOptions = GuzzleOptions::toOptions($options, $scheme, $request->getUri()->getHost());
            $converted = $this->convert($request, $options);
            $debug?->request($request, $converted);
            $ours = ($this->client ?? SharedClient::get())->request($converted, $spindleOptions);
            $headAt = \hrtime(true) / 1e9;
            $debug?->response($ours);
            $phase = 'response';
            $psrResponse = $this->response($ours, $options);
            $phase = 'headers';
            $this->onHeaders($request, $psrResponse, $ours, $options);
            $phase = 'body';
            $psrResponse = $psrResponse->withBody($this->body($request, $ours, $options, $progress, $converted));
        } catch (\Throwable $e) {
            $ours?->body->close();
            $error = $this->guzzleException($e, $request, $psrResponse, $phase, $started);
            $debug?->error($error);
            if (!$this->isCancellation($error)) {
                $this->stats($request, $psrResponse, $started, $headAt, $error, $options, $ours);
            }
            throw $error;
        }
        $this->stats($request, $psrResponse, $started, $headAt, null, $options, $ours);

        return $psrResponse;
    }

    /** @param array<string, mixed> $options */
    private function convert(RequestInterface $request, array $options): Request
    {
        $headers = [];
        foreach ($request->getHeaders() as $name => $values) {
            foreach ($values as $value) {
                $headers[] = [(string) $name, $value];
            }
        }
        if (!$request->hasHeader('Accept-Encoding')) {
            // decode_content as a string, or curl's CURLOPT_ENCODING ('': every encoding decoded here).
            $encoding = $options['decode_content'] ?? null;
            $encoding = \is_string($encoding) ? $encoding : ($options['curl'][self::CURLOPT_ENCODING] ?? null);
            if (\is_string($encoding)) {
                $headers[] = ['Accept-Encoding', $encoding === '' ? 'gzip, deflate' : $encoding];
            }
        }
        $stream = $request->getBody();
        $size = $stream->getSize();
        if ($size === 0) {
            $body = null;
        } elseif ($size !== null && $size <= self::SMALL_BODY) {
            if ($stream->isSeekable()) {
                $stream->rewind();
            }
            $body = $stream->getContents();
        } else {
            if ($stream->isSeekable()) {
                $stream->rewind();
            }
            $body = (static function () use ($stream): \Generator {
                while (!$stream->eof()) {
                    $piece = $stream->read(65536);
                    if ($piece === '') {
                        break;
                    }
                    yield $piece;
                }
            })();
        }
        $version = (string) ($options['version'] ?? $request->getProtocolVersion());

        return new Request($request->getMethod(), Url::parse((string) $request->getUri()), $headers, $body, $version === '1.0' ? '1.0' : '1.1');
    }

    /** @param array<string, mixed> $options */
    private function response(Response $ours, array $options): ResponseInterface
    {
        $headers = $ours->headers();
        $decode = ($options['decode_content'] ?? true) !== false;
        $encoding = $ours->header('content-encoding');
        if ($decode && $encoding !== null) {
            // As Guzzle's curl handler does: the body arrives decoded, the encoded headers are renamed.
            $renamed = [];
            foreach (['content-encoding', 'content-length'] as $field) {
                foreach ($headers as $name => $values) {
                    if (\strtolower($name) === $field) {
                        $renamed['x-encoded-' . $field] = $values;
                        unset($headers[$name]);
                    }
                }
            }
            $headers += $renamed;
        }

        return new Psr7\Response($ours->status, $headers, null, $ours->protocolVersion, $ours->reason);
    }

    /** @param array<string, mixed> $options */
    private function onHeaders(RequestInterface $request, ResponseInterface $response, Response $ours, array $options): void
    {
        $onHeaders = $options['on_headers'] ?? null;
        if (!\is_callable($onHeaders)) {
            return;
        }
        try {
            $onHeaders($response);
        } catch (\Throwable $e) {
            $ours->body->close();
            throw new RequestException('An error was encountered during the on_headers event', $request, $response, $e);
        }
    }

    /**
     * @param array<string, mixed> $options
     * @param (\Closure(int, int, int, int): mixed)|null $progress
     */
    private function body(RequestInterface $request, Response $ours, array $options, ?\Closure $progress, Request $sent): StreamInterface
    {
        $total = (int) ($ours->header('content-length') ?? 0);
        $uploaded = \is_string($sent->body) ? \strlen($sent->body) : (int) $request->getBody()->getSize();
        if ($progress !== null) {
            $progress($total, 0, $uploaded, $uploaded);
        }
        if (!empty($options['stream'])) {
            return new BodyStream($ours->body);
        }
        $sink = $options['sink'] ?? null;
        if (\is_string($sink)) {
            $sink = new Psr7\LazyOpenStream($sink, 'w+');
        } elseif ($sink === null) {
            $sink = Psr7\Utils::streamFor(Psr7\Utils::tryFopen('php://temp', 'r+'));
        } else {
            $sink = Psr7\Utils::streamFor($sink);
        }
        $received = 0;
        while (($piece = $ours->body->read()) !== null) {
            try {
                $sink->write($piece);
            } catch (\RuntimeException $e) {
                throw new SinkFailed($e->getMessage(), 0, $e);
            }
            if ($progress !== null) {
                $received += \strlen($piece);
                $progress(\max($total, $received), $received, $uploaded, $uploaded);
            }
        }
        if ($sink->isSeekable()) {
            $sink->rewind();
        }

        return $sink;
    }

    private function isCancellation(\Throwable $e): bool
    {
        return $e instanceof CancellationException || $e instanceof \Spindle\Loop\TaskCancelled;
    }

    private function guzzleException(\Throwable $e, RequestInterface $request, ?ResponseInterface $response, string $phase, float $started): \Throwable
    {
        if ($e instanceof GuzzleException || $this->isCancellation($e)) {
            return $e;
        }
        if ($phase === 'response' && !$e instanceof HttpClientException) {
            // Guzzle could not make a PSR-7 response of it (a status of 999, say).
            // curl's error is 23, its header callback having failed.
            return new RequestException('An error was encountered while creating the response', $request, null, $e, ['errno' => 23, 'error' => 'Failure writing output to destination']);
        }
        if ($e instanceof HttpClientError && $phase === 'request' && \str_starts_with($e->getMessage(), 'SSL ')) {
            // A verify, cert or ssl_key file that does not exist: Guzzle's stream handler words it so.
            return new RequestException($e->getMessage(), $request, null, $e);
        }
        if ($e instanceof SinkFailed) {
            return new RequestException(\sprintf('cURL error 23: Failure writing output to destination: %s', $e->getMessage()), $request, $response, $e, ['errno' => 23, 'error' => $e->getMessage()]);
        }
        if (!$e instanceof HttpClientException && !$e instanceof HttpClientError) {
            return $e;
        }
        $curl = CurlError::of($e, \hrtime(true) / 1e9 - $started);
        $context = ['errno' => $curl->errno, 'error' => $curl->error] + $this->handlerStats($request, $response, $started, null, null);
        $message = $curl->message((string) Psr7\Utils::redactUserInfo($request->getUri()));

        return $curl->isConnectError()
            ? new GuzzleConnectException($message, $request, $e, $context)
            : new RequestException($message, $request, $response, $e, $context);
    }

    /** @param array<string, mixed> $options */
    private function stats(RequestInterface $request, ?ResponseInterface $response, float $started, ?float $headAt, ?\Throwable $error, array $options, ?Response $ours): void
    {
        $onStats = $options['on_stats'] ?? null;
        if (!\is_callable($onStats)) {
            return;
        }
        $stats = $this->handlerStats($request, $response, $started, $headAt, $ours);
        // As curl's handler: the error number (0 when none), or the error itself when curl would have none.
        $errorData = $error === null ? 0 : (($error instanceof RequestException || $error instanceof GuzzleConnectException ? ($error->getHandlerContext()['errno'] ?? null) : null) ?? $error);
        $onStats(new TransferStats($request, $response, $stats['total_time'], $errorData, $stats));
    }

    /**
     * What Guzzle's curl handler puts in TransferStats::getHandlerStats(), of what Spindle knows:
     * connect-phase times are not measured (0, as curl reports them for a reused connection).
     *
     * @return array<string, mixed>
     */
    private function handlerStats(RequestInterface $request, ?ResponseInterface $response, float $started, ?float $headAt, ?Response $ours): array
    {
        [$ip, $port] = $ours?->primaryIp !== null ? self::split($ours->primaryIp) : ['', 0];

        return [
            'url' => (string) $request->getUri(),
            'content_type' => $response?->getHeaderLine('Content-Type'),
            'http_code' => $response?->getStatusCode() ?? 0,
            'total_time' => \hrtime(true) / 1e9 - $started,
            'namelookup_time' => 0.0,
            'connect_time' => 0.0,
            'appconnect_time' => 0.0,
            'pretransfer_time' => 0.0,
            'starttransfer_time' => $headAt !== null ? $headAt - $started : 0.0,
            'redirect_count' => 0,
            'primary_ip' => $ip,
            'primary_port' => $port,
        ];
    }

    /** @return array{string, int} host and port of "host:port" */
    private static function split(string $peer): array
    {
        $colon = \strrpos($peer, ':');

        return $colon === false ? [$peer, 0] : [\trim(\substr($peer, 0, $colon), '[]'), (int) \substr($peer, $colon + 1)];
    }
}
