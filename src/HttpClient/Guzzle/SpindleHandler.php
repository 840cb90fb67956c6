<?php

declare(strict_types=1);

namespace Spindle\HttpClient\Guzzle;

use GuzzleHttp\Exception\ConnectException as GuzzleConnectException;
use GuzzleHttp\Exception\RequestException;
use GuzzleHttp\Promise\Promise;
use GuzzleHttp\Promise\PromiseInterface;
use GuzzleHttp\Psr7;
use GuzzleHttp\TransferStats;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;
use Psr\Http\Message\StreamInterface;
use Revolt\EventLoop;
use Spindle\HttpClient\ConnectException;
use Spindle\HttpClient\ConnectionLost;
use Spindle\HttpClient\HttpClient;
use Spindle\HttpClient\HttpClientException;
use Spindle\HttpClient\Request;
use Spindle\HttpClient\Response;
use Spindle\HttpClient\SharedClient;
use Spindle\HttpClient\TimeoutException;
use Spindle\HttpClient\Transfer;
use Spindle\HttpClient\Url;

/**
 * A Guzzle handler on Spindle's client: `HandlerStack::create(new SpindleHandler())`. Each
 * request runs in a fiber of its own; its promise resolves by suspending whoever waits on it, so
 * Guzzle's middleware works on top and `Utils::all()`, `Pool` and `Http::pool()` run
 * concurrently. Failures are Guzzle's: ConnectException before a response, RequestException (with
 * the response when its head was in) after.
 */
final class SpindleHandler
{
    private const SMALL_BODY = 1048576;

    public function __construct(private readonly ?HttpClient $client = null)
    {
    }

    /** @param array<string, mixed> $options */
    public function __invoke(RequestInterface $request, array $options): PromiseInterface
    {
        $settle = new Settle();
        $transfer = Transfer::start(
            fn (): ResponseInterface => $this->transfer($request, $options),
            $settle->settle(...),
        );
        $promise = new Promise(static function () use ($transfer): void {
            try {
                $transfer->await();
            } catch (\Throwable) {
                // the promise is rejected with it already
            }
        });
        $settle->promise = $promise;

        return $promise;
    }

    /** @param array<string, mixed> $options */
    private function transfer(RequestInterface $request, array $options): ResponseInterface
    {
        $delay = (float) ($options['delay'] ?? 0);
        if ($delay > 0) {
            $suspension = EventLoop::getSuspension();
            EventLoop::delay($delay / 1000, static fn () => $suspension->resume());
            $suspension->suspend();
        }
        $started = \hrtime(true) / 1e9;
        $client = $this->client ?? SharedClient::get();
        $psrResponse = null;
        try {
            $ours = $client->request($this->convert($request, $options), GuzzleOptions::toOptions($options, $request->getUri()->getScheme(), $request->getUri()->getHost()));
            $psrResponse = $this->response($ours, $options);
            $psrResponse = $this->onHeaders($request, $psrResponse, $ours, $options);
            $psrResponse = $psrResponse->withBody($this->body($ours, $options));
        } catch (\Throwable $e) {
            $error = $this->guzzleException($e, $request, $psrResponse);
            $this->stats($request, $psrResponse, $started, $error, $options, null);
            throw $error;
        }
        $this->stats($request, $psrResponse, $started, null, $options, $ours);

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
        if (isset($options['decode_content']) && \is_string($options['decode_content']) && !$request->hasHeader('Accept-Encoding')) {
            $headers[] = ['Accept-Encoding', $options['decode_content']];
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
    private function onHeaders(RequestInterface $request, ResponseInterface $response, Response $ours, array $options): ResponseInterface
    {
        $onHeaders = $options['on_headers'] ?? null;
        if (!\is_callable($onHeaders)) {
            return $response;
        }
        try {
            $onHeaders($response);
        } catch (\Throwable $e) {
            $ours->body->close();
            throw new RequestException('An error was encountered during the on_headers event', $request, $response, $e);
        }

        return $response;
    }

    /** @param array<string, mixed> $options */
    private function body(Response $ours, array $options): StreamInterface
    {
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
        while (($piece = $ours->body->read()) !== null) {
            $sink->write($piece);
        }
        if ($sink->isSeekable()) {
            $sink->rewind();
        }

        return $sink;
    }

    private function guzzleException(\Throwable $e, RequestInterface $request, ?ResponseInterface $response): \Throwable
    {
        if ($e instanceof RequestException || $e instanceof GuzzleConnectException || !$e instanceof HttpClientException) {
            return $e;
        }
        $message = \sprintf('%s (%s %s)', $e->getMessage(), $request->getMethod(), Psr7\Utils::redactUserInfo($request->getUri()));
        $context = ['errno' => 0, 'error' => $e->getMessage()];
        $beforeResponse = $response === null
            && ($e instanceof ConnectException || $e instanceof TimeoutException
                || $e instanceof ConnectionLost && \str_contains($e->getMessage(), 'without sending a response'));

        return $beforeResponse
            ? new GuzzleConnectException($message, $request, $e, $context)
            : new RequestException($message, $request, $response, $e, $context);
    }

    /** @param array<string, mixed> $options */
    private function stats(RequestInterface $request, ?ResponseInterface $response, float $started, ?\Throwable $error, array $options, ?Response $ours): void
    {
        $onStats = $options['on_stats'] ?? null;
        if (!\is_callable($onStats)) {
            return;
        }
        $time = \hrtime(true) / 1e9 - $started;
        $handlerStats = [
            'url' => (string) $request->getUri(),
            'http_code' => $response?->getStatusCode() ?? 0,
            'total_time' => $time,
            'primary_ip' => $ours?->primaryIp,
        ];
        $onStats(new TransferStats($request, $response, $time, $error, $handlerStats));
    }
}
