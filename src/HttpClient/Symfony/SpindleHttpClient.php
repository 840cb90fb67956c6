<?php

declare(strict_types=1);

namespace Spindle\HttpClient\Symfony;

use Spindle\HttpClient\HttpClient;
use Spindle\HttpClient\Options;
use Spindle\HttpClient\Request;
use Spindle\HttpClient\SharedClient;
use Spindle\HttpClient\TlsOptions;
use Spindle\HttpClient\Transfer;
use Spindle\HttpClient\Url;
use Symfony\Component\HttpClient\Chunk\DataChunk;
use Symfony\Component\HttpClient\Chunk\ErrorChunk;
use Symfony\Component\HttpClient\Chunk\FirstChunk;
use Symfony\Component\HttpClient\Chunk\LastChunk;
use Symfony\Component\HttpClient\HttpClientTrait;
use Symfony\Component\HttpClient\Response\ResponseStream;
use Symfony\Contracts\HttpClient\HttpClientInterface;
use Symfony\Contracts\HttpClient\ResponseInterface;
use Symfony\Contracts\HttpClient\ResponseStreamInterface;

/**
 * Symfony's HttpClientInterface on Spindle's client: request() starts the exchange in a fiber of
 * its own and returns at once, as Symfony's clients do, so several responses are in flight
 * together; reading one suspends only the calling fiber. Options are normalized by Symfony's
 * own HttpClientTrait (headers, query, json, body, auth_basic, auth_bearer, base_uri, timeout,
 * max_duration, max_redirects, verify_peer, verify_host, cafile, capath, local_cert, local_pk,
 * passphrase, ciphers, proxy, user_data); responses are buffered whole (no on_progress, no
 * partial chunks).
 */
final class SpindleHttpClient implements HttpClientInterface
{
    use HttpClientTrait;

    /** @var array<string, mixed> */
    private array $defaultOptions = self::OPTIONS_DEFAULTS;

    /** @param array<string, mixed> $defaultOptions */
    public function __construct(array $defaultOptions = [], private readonly ?HttpClient $client = null)
    {
        if ($defaultOptions !== []) {
            [, $this->defaultOptions] = self::prepareRequest(null, null, $defaultOptions, $this->defaultOptions);
        }
    }

    /** @param array<string, mixed> $options */
    public function request(string $method, string $url, array $options = []): ResponseInterface
    {
        [$parts, $options] = self::prepareRequest($method, $url, $options, $this->defaultOptions);
        $url = \implode('', $parts);
        $request = new Request($method, Url::parse($url), self::headers($options), self::body($options['body'] ?? ''), (float) ($options['http_version'] ?? 1.1) < 1.1 ? '1.0' : '1.1');
        $client = $this->client ?? SharedClient::get();
        $spindleOptions = self::options($options);
        $transfer = Transfer::start(static function () use ($client, $request, $spindleOptions): array {
            $response = $client->request($request, $spindleOptions);

            return [$response, $response->body->contents()];
        });

        return new SpindleResponse($transfer, $method, $url, $options, \microtime(true));
    }

    /**
     * @param ResponseInterface|iterable<ResponseInterface> $responses
     */
    public function stream($responses, ?float $timeout = null): ResponseStreamInterface
    {
        if ($responses instanceof ResponseInterface) {
            $responses = [$responses];
        }

        return new ResponseStream((static function () use ($responses): \Generator {
            foreach ($responses as $response) {
                if (!$response instanceof SpindleResponse) {
                    throw new \TypeError(\sprintf('%s can only stream its own responses', self::class));
                }
                $error = $response->await();
                if ($error !== null) {
                    yield $response => new ErrorChunk(0, $error);
                    continue;
                }
                yield $response => new FirstChunk();
                $content = $response->getContent(false);
                if ($content !== '') {
                    yield $response => new DataChunk(0, $content);
                }
                yield $response => new LastChunk(\strlen($content));
            }
        })());
    }

    /**
     * @param array<string, mixed> $options
     *
     * @return list<array{string, string}>
     */
    private static function headers(array $options): array
    {
        $headers = [];
        foreach ($options['headers'] ?? [] as $line) {
            [$name, $value] = \explode(':', (string) $line, 2) + [1 => ''];
            $headers[] = [\trim($name), \trim($value)];
        }

        return $headers;
    }

    /** @return string|iterable<string> */
    private static function body(mixed $body): string|iterable
    {
        if (!$body instanceof \Closure) {
            return (string) $body;
        }

        return (static function () use ($body): \Generator {
            while ('' !== $piece = $body(65536)) {
                yield (string) $piece;
            }
        })();
    }

    /** @param array<string, mixed> $options */
    private static function options(array $options): Options
    {
        $timeout = (float) ($options['timeout'] ?? \ini_get('default_socket_timeout'));
        $string = static fn (string $key): ?string => isset($options[$key]) && \is_string($options[$key]) && $options[$key] !== '' ? $options[$key] : null;

        return new Options(
            connectTimeout: $timeout > 0 ? $timeout : null,
            idleTimeout: $timeout > 0 ? $timeout : null,
            timeout: (float) ($options['max_duration'] ?? 0) > 0 ? (float) $options['max_duration'] : null,
            tls: new TlsOptions(
                verifyPeer: (bool) ($options['verify_peer'] ?? true),
                verifyPeerName: (bool) ($options['verify_host'] ?? true),
                caFile: $string('cafile'),
                caPath: $string('capath'),
                certFile: $string('local_cert'),
                keyFile: $string('local_pk'),
                passphrase: $string('passphrase'),
                ciphers: $string('ciphers'),
            ),
            maxRedirects: \max(0, (int) ($options['max_redirects'] ?? 20)),
            decodeContent: true,
            proxy: $string('proxy'),
        );
    }
}
