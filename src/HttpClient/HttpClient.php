<?php

declare(strict_types=1);

namespace Spindle\HttpClient;

use Spindle\HttpClient\Protocol\RequestSerializer;
use Spindle\HttpClient\Protocol\ResponseHead;
use Spindle\HttpClient\Protocol\ResponseParseException;
use Spindle\HttpClient\Protocol\ResponseParser;

/**
 * HTTP/1.1 client on the event loop. request() suspends the calling fiber while it waits (outside
 * a fiber it runs the loop until the answer is in, so it is synchronous there); N requests in N
 * fibers wait together. Connections are kept alive in a pool per origin.
 */
final class HttpClient
{
    private const CHUNK = 65536;
    private const REDIRECTS = [301, 302, 303, 307, 308];
    private const DRAIN_LIMIT = 65536;
    /** Methods whose request says how long its body is even when it has none. */
    private const BODY_METHODS = ['POST', 'PUT', 'PATCH'];

    private readonly RequestSerializer $serializer;

    public function __construct(
        public readonly ConnectionPool $pool = new ConnectionPool(),
        private readonly Resolver $resolver = new Resolver(),
        private readonly ?string $userAgent = null,
    ) {
        $this->serializer = new RequestSerializer();
    }

    /**
     * Sends $request and returns once the final response head is in; its body is read through
     * $response->body. Follows up to $options->maxRedirects redirects.
     *
     * @throws HttpClientException|HttpClientError
     */
    public function request(Request $request, Options $options = new Options()): Response
    {
        $startedAt = \hrtime(true) / 1e9;
        $deadline = $options->timeout !== null && $options->timeout > 0 ? $startedAt + $options->timeout : null;
        $history = [];
        for ($redirects = 0; ; ++$redirects) {
            $response = $this->exchange($request, $options, $deadline, $startedAt);
            $location = $response->header('location');
            if ($options->maxRedirects <= 0 || $location === null || !\in_array($response->status, self::REDIRECTS, true)) {
                return $history === [] ? $response : new Response(
                    $response->status, $response->reason, $response->protocolVersion, $response->fields,
                    $response->body, $response->url, $history, $response->primaryIp, $startedAt,
                );
            }
            if ($redirects >= $options->maxRedirects) {
                $response->body->close();
                throw new TooManyRedirects(\sprintf('Will not follow more than %d redirects (last from %s)', $options->maxRedirects, $request->url), $response);
            }
            $this->drain($response);
            $history[] = $response->head();
            $request = $this->redirect($request, $response, $location, $options);
        }
    }

    /** The request that follows $response's redirect: 303 (and 301/302 after POST) become GET, credentials stay with their origin. */
    private function redirect(Request $request, Response $response, string $location, Options $options): Request
    {
        $url = $request->url->resolve($location);
        $method = $request->method;
        $body = $request->body;
        $drop = ['host'];
        $toGet = $response->status === 303 && $method !== 'HEAD'
            || !$options->strictRedirects && \in_array($response->status, [301, 302], true) && $method === 'POST';
        if ($toGet) {
            $method = 'GET';
            $body = null;
            $drop = [...$drop, 'content-length', 'content-type', 'transfer-encoding', 'content-encoding'];
        } elseif (\is_resource($body)) {
            if (!@\rewind($body)) {
                throw new HttpClientException(\sprintf('Cannot follow the redirect from %s: the request body cannot be sent again', $request->url));
            }
        } elseif ($body !== null && !\is_string($body) && !\is_array($body)) {
            throw new HttpClientException(\sprintf('Cannot follow the redirect from %s: the request body cannot be sent again', $request->url));
        }
        if ($url->origin() !== $request->url->origin()) {
            $drop = [...$drop, 'authorization', 'cookie', 'proxy-authorization'];
            $url = new Url($url->scheme, $url->host, $url->port, $url->target);
        }

        return $request->with($method, $url, $request->withoutHeaders($drop)->headers, $body);
    }

    private function drain(Response $response): void
    {
        $length = $response->header('content-length');
        if ($length !== null && (int) $length <= self::DRAIN_LIMIT) {
            try {
                $response->body->contents();

                return;
            } catch (HttpClientException) {
            }
        }
        $response->body->close();
    }

    private function exchange(Request $request, Options $options, ?float $deadline, float $startedAt): Response
    {
        $url = $request->url;
        $proxy = $options->proxy !== null && $options->proxy !== '' ? Url::parse(\str_contains($options->proxy, '://') ? $options->proxy : 'http://' . $options->proxy) : null;
        $proxyAuthorization = $proxy !== null && $proxy->userInfo !== '' ? 'Basic ' . \base64_encode(\rawurldecode($proxy->userInfo)) : null;
        $tunnel = $proxy !== null && $url->scheme === 'https' ? ['host' => $url->host, 'port' => $url->port, 'authorization' => $proxyAuthorization] : null;
        $peer = $proxy ?? $url;
        $tls = $url->scheme === 'https' ? $options->tls : ($peer->scheme === 'https' ? $options->tls : null);
        // Tunnels are not shared between proxy credentials.
        $key = $peer->origin() . ($tunnel !== null ? '>' . $url->origin() . '@' . \md5((string) $proxyAuthorization) : '') . ($tls !== null ? '#' . $tls->key() : '');
        // Through a proxy, http requests carry the absolute URL; https ones go through a tunnel.
        $target = $proxy !== null && $tunnel === null ? (string) $url : $url->target;
        if ($proxyAuthorization !== null && $tunnel === null && $request->header('proxy-authorization') === null) {
            $request = $request->with($request->method, $url, [...$request->headers, ['Proxy-Authorization', $proxyAuthorization]], $request->body);
        }
        for ($attempt = 0; ; ++$attempt) {
            $connectDeadline = $this->earliest($deadline, $options->connectTimeout === null || $options->connectTimeout <= 0 ? null : \hrtime(true) / 1e9 + $options->connectTimeout);
            $connection = $this->pool->acquire($key, fn (): Connection => Connection::open(
                $key,
                $this->resolver->resolve($peer->host, $connectDeadline),
                $peer->host,
                $peer->port,
                $tls,
                $connectDeadline,
                $tunnel,
            ), $connectDeadline);
            $reused = $connection->requests++ > 0;
            $parser = new ResponseParser($request->method === 'HEAD');
            try {
                $this->send($connection, $request, $target, $options, $deadline);
                $head = $this->readHead($connection, $parser, $options, $deadline);
            } catch (ConnectionLost $e) {
                $this->pool->release($connection, false);
                if ($reused && $attempt === 0 && $parser->head() === null && $this->replayable($request)) {
                    continue;
                }
                throw $e;
            } catch (\Throwable $e) {
                $this->pool->release($connection, false);
                throw $e;
            }
            $decoder = $options->decodeContent && $request->method !== 'HEAD' ? Decoder::for($head->first('content-encoding')) : null;
            $body = new ResponseBody($connection, $parser, $this->pool, $decoder, $options->idleTimeout, $deadline);
            $response = new Response($head->status, $head->reason, $head->protocolVersion, $head->fields, $body, $url, [], $connection->peer, $startedAt);
            if ($options->onHeaders !== null) {
                ($options->onHeaders)($response);
            }

            return $response;
        }
    }

    private function replayable(Request $request): bool
    {
        return $request->body === null || \is_string($request->body) || (\is_resource($request->body) && @\rewind($request->body));
    }

    private function send(Connection $connection, Request $request, string $target, Options $options, ?float $deadline): void
    {
        $headers = $request->headers;
        $has = [];
        foreach ($headers as [$name]) {
            $has[\strtolower($name)] = true;
        }
        $url = $request->url;
        if (!isset($has['host'])) {
            \array_unshift($headers, ['Host', $url->authority()]);
        }
        if ($url->userInfo !== '' && !isset($has['authorization'])) {
            $headers[] = ['Authorization', 'Basic ' . \base64_encode(\rawurldecode($url->userInfo))];
        }
        if ($this->userAgent !== null && !isset($has['user-agent'])) {
            $headers[] = ['User-Agent', $this->userAgent];
        }
        if ($options->decodeContent && $options->advertiseEncodings && !isset($has['accept-encoding']) && \function_exists('inflate_init')) {
            $headers[] = ['Accept-Encoding', 'gzip, deflate'];
        }
        $body = $request->body;
        $chunked = false;
        if ($body === null && !isset($has['content-length']) && !isset($has['transfer-encoding']) && \in_array($request->method, self::BODY_METHODS, true)) {
            // As curl and PHP's http wrapper do: some servers answer a POST without a length with 411.
            $headers[] = ['Content-Length', '0'];
        } elseif (\is_string($body)) {
            if (!isset($has['content-length']) && ($body !== '' || !\in_array($request->method, ['GET', 'HEAD', 'OPTIONS', 'DELETE', 'TRACE'], true))) {
                $headers[] = ['Content-Length', (string) \strlen($body)];
            }
        } elseif ($body !== null && !isset($has['content-length'])) {
            $size = \is_resource($body) ? $this->remainingSize($body) : null;
            if ($size !== null) {
                $headers[] = ['Content-Length', (string) $size];
            } elseif (!isset($has['transfer-encoding'])) {
                $headers[] = ['Transfer-Encoding', 'chunked'];
                $chunked = true;
            } else {
                $chunked = true;
            }
        }
        $head = $this->serializer->head($request->method, $target, $headers, $request->protocolVersion);
        if (\is_string($body) || $body === null) {
            $connection->write($head . $body, $this->writeDeadline($options, $deadline));

            return;
        }
        $connection->write($head, $this->writeDeadline($options, $deadline));
        foreach ($this->pieces($body) as $piece) {
            $connection->write($chunked ? $this->serializer->chunk($piece) : $piece, $this->writeDeadline($options, $deadline));
        }
        if ($chunked) {
            $connection->write($this->serializer->lastChunk(), $this->writeDeadline($options, $deadline));
        }
    }

    /**
     * @param resource|iterable<string> $body
     *
     * @return iterable<string>
     */
    private function pieces(mixed $body): iterable
    {
        if (\is_iterable($body)) {
            foreach ($body as $piece) {
                yield (string) $piece;
            }

            return;
        }
        while (!\feof($body)) {
            $piece = \fread($body, self::CHUNK);
            if ($piece === false) {
                throw new HttpClientException('Reading the request body failed');
            }
            if ($piece !== '') {
                yield $piece;
            }
        }
    }

    /** @param resource $body */
    private function remainingSize($body): ?int
    {
        $stat = @\fstat($body);
        $position = @\ftell($body);
        $meta = \stream_get_meta_data($body);
        if ($stat === false || $position === false || !$meta['seekable'] || !\in_array($meta['wrapper_type'], ['plainfile', 'PHP'], true) || ($stat['mode'] & 0170000) !== 0100000 && $meta['wrapper_type'] === 'plainfile') {
            return null;
        }

        return \max(0, $stat['size'] - $position);
    }

    private function readHead(Connection $connection, ResponseParser $parser, Options $options, ?float $deadline): ResponseHead
    {
        while (($head = $parser->head()) === null) {
            $idle = $options->idleTimeout === null ? null : \hrtime(true) / 1e9 + $options->idleTimeout;
            $limit = $this->earliest($deadline, $idle);
            $bytes = $connection->read($limit, $limit !== null && $limit === $deadline ? TimeoutKind::Total : TimeoutKind::Idle);
            try {
                if ($bytes === '') {
                    $parser->close();
                } else {
                    $parser->push($bytes);
                }
            } catch (ResponseParseException $e) {
                throw new ConnectionLost(\sprintf('Invalid response from %s: %s', $connection->peer, $e->getMessage()), 0, $e);
            }
            $parser->takeInterim();
        }

        return $head;
    }

    private function writeDeadline(Options $options, ?float $deadline): ?float
    {
        return $this->earliest($deadline, $options->idleTimeout === null ? null : \hrtime(true) / 1e9 + $options->idleTimeout);
    }

    private function earliest(?float $a, ?float $b): ?float
    {
        return $a === null ? $b : ($b === null ? $a : \min($a, $b));
    }
}
