<?php

declare(strict_types=1);

namespace Spindle\HttpClient\Guzzle;

use Spindle\HttpClient\CertificateException;
use Spindle\HttpClient\ConnectException;
use Spindle\HttpClient\ConnectionLost;
use Spindle\HttpClient\Dns\DnsException;
use Spindle\HttpClient\HttpClientError;
use Spindle\HttpClient\TimeoutException;
use Spindle\HttpClient\TimeoutKind;

/**
 * A failure of Spindle's client told as Guzzle's curl handler tells it: curl's error number and
 * text ("cURL error 7: Failed to connect to localhost port 123 after 0 ms: Connection refused"),
 * which apps and tests match, and whether Guzzle makes it a ConnectException (no response could
 * be had: curl's errors 6, 7, 28, 35 and 52) or a RequestException.
 *
 * @internal
 */
final class CurlError
{
    public const UNSUPPORTED_PROTOCOL = 1;
    public const WEIRD_SERVER_REPLY = 8;
    public const COULDNT_RESOLVE_HOST = 6;
    public const COULDNT_CONNECT = 7;
    public const PARTIAL_FILE = 18;
    public const READ_ERROR = 26;
    public const OPERATION_TIMEDOUT = 28;
    public const SSL_CONNECT_ERROR = 35;
    public const GOT_NOTHING = 52;
    public const SEND_ERROR = 55;
    public const RECV_ERROR = 56;
    public const PEER_FAILED_VERIFICATION = 60;
    public const BAD_CONTENT_ENCODING = 61;

    /** The errors Guzzle's CurlFactory makes ConnectException of. */
    private const CONNECT_ERRORS = [self::OPERATION_TIMEDOUT, self::COULDNT_RESOLVE_HOST, self::COULDNT_CONNECT, self::SSL_CONNECT_ERROR, self::GOT_NOTHING];

    private function __construct(public readonly int $errno, public readonly string $error)
    {
    }

    /** @param float $elapsed seconds since the transfer started (curl's messages name them) */
    public static function of(\Throwable $e, float $elapsed): self
    {
        $message = $e->getMessage();
        $ms = (int) \round($elapsed * 1000);

        return match (true) {
            $e instanceof TimeoutException => new self(self::OPERATION_TIMEDOUT, match (true) {
                $e->kind === TimeoutKind::Connect => \sprintf('Connection timed out after %d milliseconds (%s)', $ms, $message),
                default => \sprintf('Operation timed out after %d milliseconds (%s)', $ms, $message),
            }),
            $e instanceof CertificateException => new self(self::PEER_FAILED_VERIFICATION, 'SSL certificate problem: ' . $message),
            $e instanceof ConnectException => self::connect($e, $message, $ms),
            $e instanceof DnsException => \str_contains($message, 'timed out')
                ? new self(self::OPERATION_TIMEDOUT, \sprintf('Resolving timed out after %d milliseconds (%s)', $ms, $message))
                : new self(self::COULDNT_RESOLVE_HOST, $message),
            $e instanceof ConnectionLost => self::lost($message),
            $e instanceof HttpClientError => new self(self::UNSUPPORTED_PROTOCOL, $message),
            \str_contains($message, 'response body is corrupt') || \str_contains($message, 'decoding the response body') => new self(self::BAD_CONTENT_ENCODING, 'Error while processing content unencoding: ' . $message),
            \str_contains($message, 'Reading the request body failed') => new self(self::READ_ERROR, $message),
            default => new self(self::RECV_ERROR, $message),
        };
    }

    public function isConnectError(): bool
    {
        return \in_array($this->errno, self::CONNECT_ERRORS, true);
    }

    /** Guzzle's message: "cURL error N: text (see …) for URL". */
    public function message(string $uri): string
    {
        $message = \sprintf('cURL error %d: %s (see https://curl.se/libcurl/c/libcurl-errors.html)', $this->errno, $this->error);

        return $uri !== '' && !\str_contains($this->error, $uri) ? $message . ' for ' . $uri : $message;
    }

    private static function connect(ConnectException $e, string $message, int $ms): self
    {
        if ($e->getPrevious() instanceof DnsException) {
            return self::of($e->getPrevious(), $ms / 1000);
        }
        if (\str_starts_with($message, 'Could not resolve host')) {
            return new self(self::COULDNT_RESOLVE_HOST, $message);
        }
        if (\preg_match('/^Failed to connect to (.+):(\d+): (.*)$/s', $message, $m) === 1) {
            return new self(self::COULDNT_CONNECT, \sprintf('Failed to connect to %s port %s after %d ms: %s', $m[1], $m[2], $ms, $m[3]));
        }
        if (\str_starts_with($message, 'TLS handshake')) {
            return new self(self::SSL_CONNECT_ERROR, $message);
        }

        // The proxy did not open a tunnel.
        return new self(self::RECV_ERROR, $message);
    }

    private static function lost(string $message): self
    {
        return match (true) {
            \str_contains($message, 'without sending a response') => new self(self::GOT_NOTHING, 'Empty reply from server'),
            // curl takes a response whose first line is not an HTTP status line for HTTP/0.9.
            \str_contains($message, 'does not start with a status line'), \preg_match('/invalid status line: "(?!HTTP\/)/', $message) === 1 => new self(self::UNSUPPORTED_PROTOCOL, 'Received HTTP/0.9 when not allowed'),
            \preg_match('/with (\d+) bytes of the body still to come/', $message, $m) === 1 => new self(self::PARTIAL_FILE, \sprintf('transfer closed with %s bytes remaining to read', $m[1])),
            \str_contains($message, 'in the middle of the chunked body') => new self(self::PARTIAL_FILE, 'transfer closed with outstanding read data remaining'),
            \str_starts_with($message, 'Sending the request') => new self(self::SEND_ERROR, 'Failed sending data to the peer (' . $message . ')'),
            \str_starts_with($message, 'Invalid response') => new self(self::WEIRD_SERVER_REPLY, $message),
            default => new self(self::RECV_ERROR, $message),
        };
    }
}
