<?php

declare(strict_types=1);

namespace Spindle\HttpClient\Stream;

use Spindle\HttpClient\HttpClientError;
use Spindle\HttpClient\HttpClientException;
use Spindle\HttpClient\Options;
use Spindle\HttpClient\Request;
use Spindle\HttpClient\Response;
use Spindle\HttpClient\ResponseBody;
use Spindle\HttpClient\SharedClient;
use Spindle\HttpClient\TlsOptions;
use Spindle\HttpClient\TooManyRedirects;
use Spindle\HttpClient\Url;

/**
 * The http:// and https:// stream wrapper that replaces PHP's in workers (StreamWrappers::install()):
 * file_get_contents(), fopen()/fread(), copy(), file() and friends on URLs wait by suspending only
 * the calling fiber. Context options are PHP's: http (method, header, content, user_agent,
 * timeout, ignore_errors, follow_location, max_redirects, protocol_version) and ssl
 * (verify_peer, verify_peer_name, allow_self_signed, cafile, capath, local_cert, local_pk,
 * passphrase, peer_name).
 *
 * What a user-space wrapper cannot do as PHP's does (docs/http-client.md): PHP sets
 * $http_response_header only for its own wrapper, and get_headers() only accepts its own
 * wrapper's data. The response head lines are in $responseHeaders of the object that
 * stream_get_meta_data($stream)['wrapper_data'] returns.
 */
final class HttpStreamWrapper
{
    /** @var resource|null set by PHP */
    public $context;
    /** @var list<string> the status and header lines of every response received, redirects first, as PHP's $http_response_header */
    public array $responseHeaders = [];
    private ?ResponseBody $body = null;
    private string $buffer = '';
    private bool $eof = false;
    private int $position = 0;

    public function stream_open(string $path, string $mode, int $options, ?string &$openedPath): bool
    {
        // PHP never passes STREAM_REPORT_ERRORS to a user wrapper; @ silences what it reports.
        $report = true;
        ResetWrapper::clearOpeningName();
        if (\strpbrk($mode, 'wax+c') !== false) {
            return $this->fail($report, $path, 'HTTP wrapper does not support writeable connections');
        }
        $context = $this->context ?? \stream_context_get_default();
        $all = \stream_context_get_options($context);
        /** @var array<string, mixed> $http */
        $http = \is_array($all['http'] ?? null) ? $all['http'] : [];
        /** @var array<string, mixed> $ssl */
        $ssl = \is_array($all['ssl'] ?? null) ? $all['ssl'] : [];
        try {
            $request = $this->request($path, $http);
            $response = SharedClient::get()->request($request, $this->options($http, $ssl));
        } catch (TooManyRedirects $e) {
            $this->record($e->response);

            return $this->fail($report, $path, 'Redirection limit reached, aborting');
        } catch (HttpClientException|HttpClientError $e) {
            return $this->fail($report, $path, $e->getMessage());
        }
        $this->record($response);
        $this->body = $response->body;
        if ($response->status >= 400 && !self::flag($http['ignore_errors'] ?? false)) {
            $response->body->close();
            $this->body = null;

            return $this->fail($report, $path, 'HTTP request failed! ' . $response->head()->statusLine() . "\r\n");
        }
        $openedPath = (string) $response->url;

        return true;
    }

    public function stream_read(int $count): string
    {
        while ($this->buffer === '' && !$this->eof) {
            try {
                $piece = $this->body?->read();
            } catch (HttpClientException $e) {
                \trigger_error(\sprintf('fread(): %s', $e->getMessage()), \E_USER_NOTICE);
                $piece = null;
            }
            if ($piece === null) {
                $this->eof = true;
                $this->body = null;
            } else {
                $this->buffer = $piece;
            }
        }
        $out = (string) \substr($this->buffer, 0, $count);
        $this->buffer = (string) \substr($this->buffer, \strlen($out));
        $this->position += \strlen($out);

        return $out;
    }

    public function stream_eof(): bool
    {
        return $this->eof && $this->buffer === '';
    }

    public function stream_tell(): int
    {
        return $this->position;
    }

    public function stream_write(string $data): int
    {
        return 0;
    }

    /** @return array<int|string, int> */
    public function stream_stat(): array
    {
        return [];
    }

    public function stream_close(): void
    {
        $this->body?->close();
        $this->body = null;
    }

    public function stream_set_option(int $option, int $arg1, ?int $arg2): bool
    {
        return false;
    }

    public function url_stat(string $path, int $flags): false
    {
        return false;
    }

    /** @param array<string, mixed> $http */
    private function request(string $path, array $http): Request
    {
        $url = Url::parse($path);
        $method = \strtoupper((string) ($http['method'] ?? 'GET'));
        $headers = [];
        $lines = $http['header'] ?? [];
        foreach (\is_array($lines) ? $lines : (\preg_split("/\r?\n/", (string) $lines) ?: []) as $line) {
            $line = \trim((string) $line);
            if ($line === '' || !\str_contains($line, ':')) {
                continue;
            }
            [$name, $value] = \explode(':', $line, 2);
            $headers[] = [\trim($name), \trim($value)];
        }
        $has = static fn (string $name): bool => \array_filter($headers, static fn (array $h): bool => \strcasecmp($h[0], $name) === 0) !== [];
        $agent = $http['user_agent'] ?? \ini_get('user_agent');
        if (\is_string($agent) && $agent !== '' && !$has('user-agent')) {
            $headers[] = ['User-Agent', $agent];
        }
        $content = isset($http['content']) ? (string) $http['content'] : null;
        if ($content !== null && $content !== '' && !$has('content-type')) {
            // PHP adds this one too (with a notice); without it many servers ignore the body.
            $headers[] = ['Content-Type', 'application/x-www-form-urlencoded'];
        }
        $version = (string) ($http['protocol_version'] ?? '1.1');

        return new Request($method, $url, $headers, $content, (float) $version < 1.1 ? '1.0' : '1.1');
    }

    /**
     * @param array<string, mixed> $http
     * @param array<string, mixed> $ssl
     */
    private function options(array $http, array $ssl): Options
    {
        $timeout = (float) ($http['timeout'] ?? \ini_get('default_socket_timeout'));
        $follow = self::flag($http['follow_location'] ?? true);
        $string = static fn (string $key): ?string => isset($ssl[$key]) && \is_string($ssl[$key]) && $ssl[$key] !== '' ? $ssl[$key] : null;

        return new Options(
            connectTimeout: $timeout > 0 ? $timeout : null,
            idleTimeout: $timeout > 0 ? $timeout : null,
            tls: new TlsOptions(
                verifyPeer: self::flag($ssl['verify_peer'] ?? true),
                verifyPeerName: self::flag($ssl['verify_peer_name'] ?? true),
                caFile: $string('cafile'),
                caPath: $string('capath'),
                certFile: $string('local_cert'),
                keyFile: $string('local_pk'),
                passphrase: $string('passphrase'),
                peerName: $string('peer_name'),
                allowSelfSigned: self::flag($ssl['allow_self_signed'] ?? false),
                ciphers: $string('ciphers'),
            ),
            maxRedirects: $follow ? \max(1, (int) ($http['max_redirects'] ?? 20)) - 1 : 0,
            decodeContent: false,
            proxy: isset($http['proxy']) && \is_string($http['proxy']) ? \preg_replace('#^tcp://#', 'http://', $http['proxy']) : null,
        );
    }

    private function record(Response $response): void
    {
        foreach ([...$response->history, $response->head()] as $head) {
            $this->responseHeaders[] = $head->statusLine();
            foreach ($head->fields as [$name, $value]) {
                if (\strcasecmp($name, 'transfer-encoding') === 0 && \strcasecmp($value, 'chunked') === 0) {
                    continue; // PHP drops it too, having decoded the chunks
                }
                $this->responseHeaders[] = $name . ': ' . $value;
            }
        }
    }

    private static function flag(mixed $value): bool
    {
        return \is_string($value) ? !\in_array(\strtolower($value), ['', '0', 'false', 'off', 'no'], true) : (bool) $value;
    }

    private function fail(bool $report, string $path, string $reason): bool
    {
        if ($report) {
            $caller = 'fopen';
            foreach (\debug_backtrace(\DEBUG_BACKTRACE_IGNORE_ARGS, 4) as $frame) {
                if (!isset($frame['class'])) {
                    $caller = $frame['function'];
                    break;
                }
            }
            \trigger_error(\sprintf('%s(%s): Failed to open stream: %s', $caller, $path, $reason), \E_USER_WARNING);
        }

        return false;
    }
}
