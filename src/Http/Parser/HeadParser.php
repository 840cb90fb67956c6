<?php

declare(strict_types=1);

namespace Spindle\Http\Parser;

use Spindle\Http\HttpException;
use Spindle\Http\HttpLimits;

/**
 * Sans-I/O: one request head (the request line and the header fields, RFC 9112 §3 and §5) as a
 * RequestHead, or HttpException with the status to answer. It checks the request line, every
 * field line, Host, and the framing the fields declare (Content-Length, Transfer-Encoding,
 * Expect, Connection) against the limits; RequestParser finds where a head ends and frames the
 * body that follows it.
 */
final class HeadParser
{
    private const TOKEN = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    /** The request line with its CRLF, matched at the start of the head. */
    private const REQUEST_LINE = "#^([!\\#$%&'*+.^_`|~0-9A-Za-z-]+) ([^\\x00-\\x20\\x7f\\#]+) HTTP/1\\.([01])\\r\\n#";
    private const HEADER_LINE = "#\\G([!\\#$%&'*+.^_`|~0-9A-Za-z-]+):[ \\t]*([^\\x00-\\x08\\x0a-\\x1f\\x7f]*?)[ \\t]*\\r\\n#";
    /** uri-host [ ":" port ] (RFC 9110 §7.2, RFC 3986 §3.2.2): an IP literal, or a reg-name that may be empty. */
    private const HOST = "#^(?:\\[[0-9A-Fa-f:.]+\\]|\\[v[0-9A-Fa-f]+\\.[\\w.~!$&'()*+,;=:-]+\\]|[\\w.~!$&'()*+,;=%-]*)(?::[0-9]*)?$#D";
    /** Lower-case forms of common field names, as sent by browsers and proxies: no strtolower() call for them. */
    private const LOWER_NAMES = [
        'Host' => 'host', 'host' => 'host', 'User-Agent' => 'user-agent', 'user-agent' => 'user-agent',
        'Accept' => 'accept', 'accept' => 'accept', 'Accept-Encoding' => 'accept-encoding',
        'accept-encoding' => 'accept-encoding', 'Accept-Language' => 'accept-language',
        'accept-language' => 'accept-language', 'Accept-Charset' => 'accept-charset',
        'accept-charset' => 'accept-charset', 'Connection' => 'connection', 'connection' => 'connection',
        'Content-Type' => 'content-type', 'content-type' => 'content-type',
        'Content-Length' => 'content-length', 'content-length' => 'content-length', 'Cookie' => 'cookie',
        'cookie' => 'cookie', 'Authorization' => 'authorization', 'authorization' => 'authorization',
        'Cache-Control' => 'cache-control', 'cache-control' => 'cache-control', 'Pragma' => 'pragma',
        'pragma' => 'pragma', 'Referer' => 'referer', 'referer' => 'referer', 'Origin' => 'origin',
        'origin' => 'origin', 'Upgrade-Insecure-Requests' => 'upgrade-insecure-requests',
        'upgrade-insecure-requests' => 'upgrade-insecure-requests', 'If-None-Match' => 'if-none-match',
        'if-none-match' => 'if-none-match', 'If-Modified-Since' => 'if-modified-since',
        'if-modified-since' => 'if-modified-since', 'X-Forwarded-For' => 'x-forwarded-for',
        'x-forwarded-for' => 'x-forwarded-for', 'X-Forwarded-Proto' => 'x-forwarded-proto',
        'x-forwarded-proto' => 'x-forwarded-proto', 'X-Forwarded-Host' => 'x-forwarded-host',
        'x-forwarded-host' => 'x-forwarded-host', 'X-Real-IP' => 'x-real-ip', 'x-real-ip' => 'x-real-ip',
        'X-Requested-With' => 'x-requested-with', 'x-requested-with' => 'x-requested-with',
        'Sec-Fetch-Dest' => 'sec-fetch-dest', 'sec-fetch-dest' => 'sec-fetch-dest',
        'Sec-Fetch-Mode' => 'sec-fetch-mode', 'sec-fetch-mode' => 'sec-fetch-mode',
        'Sec-Fetch-Site' => 'sec-fetch-site', 'sec-fetch-site' => 'sec-fetch-site',
        'Sec-Fetch-User' => 'sec-fetch-user', 'sec-fetch-user' => 'sec-fetch-user',
        'Transfer-Encoding' => 'transfer-encoding', 'transfer-encoding' => 'transfer-encoding',
        'Expect' => 'expect', 'expect' => 'expect', 'Range' => 'range', 'range' => 'range',
        'Upgrade' => 'upgrade', 'upgrade' => 'upgrade', 'DNT' => 'dnt', 'dnt' => 'dnt',
        'Priority' => 'priority', 'priority' => 'priority', 'TE' => 'te', 'te' => 'te',
    ];

    private function __construct()
    {
    }

    /**
     * @param string $head the request line and the field lines, each ending with CRLF, within $limits
     *
     * @throws HttpException with the status to answer
     */
    public static function parse(string $head, HttpLimits $limits): RequestHead
    {
        // One regular expression validates the request line and one the whole header section:
        // strspn()/strcspn() with long character lists cost more than the rest of the parse.
        $valid = \preg_match(self::REQUEST_LINE, $head, $m) === 1;
        $lineEnd = $valid ? \strlen($m[0]) - 2 : (int) \strpos($head, "\r\n");
        if ($lineEnd > $limits->maxRequestLine) {
            throw new HttpException(414, \sprintf('Request line longer than %d bytes', $limits->maxRequestLine));
        }
        if (!$valid) {
            throw self::requestLineError(\substr($head, 0, $lineEnd));
        }
        [, $method, $target, $minor] = $m;
        $protocol = $minor === '1' ? '1.1' : '1.0';
        if ($method === 'CONNECT') {
            throw new HttpException(501, 'CONNECT is not supported');
        }

        $headers = [];
        $start = $lineEnd + 2;
        if ($start < \strlen($head)) {
            $lines = \substr_count($head, "\n", $start);
            if ($lines > $limits->maxHeaderCount) {
                throw new HttpException(431, \sprintf('More than %d request header fields', $limits->maxHeaderCount));
            }
            // Each match is one whole line (a value holds no CR or LF) and \G chains them from the
            // start, so all lines are valid when there are as many matches as lines.
            $matched = \preg_match_all(self::HEADER_LINE, $head, $matches, 0, $start);
            if ($matched !== $lines) {
                throw self::headerLineError((string) \substr($head, $start + \strlen(\implode('', $matches[0]))));
            }
            $values = $matches[2];
            foreach ($matches[1] as $i => $name) {
                $headers[self::LOWER_NAMES[$name] ?? \strtolower($name)][] = $values[$i];
            }
        }

        if ($target[0] === '/') {
            // origin-form, by far the most common: nothing to convert.
            $originForm = $target;
            $authority = null;
        } else {
            [$originForm, $authority] = self::originForm($method, $target);
        }
        $q = \strpos($originForm, '?');
        if ($q === false) {
            $path = $originForm;
            $query = '';
        } else {
            $path = \substr($originForm, 0, $q);
            $query = \substr($originForm, $q + 1);
        }

        if (isset($headers['host'])) {
            if (\count($headers['host']) !== 1) {
                throw new HttpException(400, 'More than one Host header');
            }
            if (\preg_match(self::HOST, $headers['host'][0]) !== 1) {
                throw new HttpException(400, 'Malformed Host header');
            }
        } elseif ($protocol === '1.1') {
            throw new HttpException(400, 'Host header is required in HTTP/1.1');
        }
        if ($authority !== null) {
            // With an absolute-form target the target's authority is the host, not the Host
            // header (RFC 9112 §3.2.2).
            $headers['host'] = [$authority];
        }

        $keepAlive = $protocol === '1.1';
        if (isset($headers['connection'])) {
            $close = false;
            foreach ($headers['connection'] as $value) {
                foreach (\explode(',', \strtolower($value)) as $token) {
                    $token = \trim($token);
                    if ($token === 'close') {
                        $close = true;
                    } elseif ($token === 'keep-alive' && $protocol === '1.0') {
                        $keepAlive = true;
                    }
                }
            }
            // "close" wins wherever it appears (RFC 9112 §9.3).
            $keepAlive = $keepAlive && !$close;
        }

        $expectsContinue = false;
        if (isset($headers['expect'])) {
            if (\strtolower(\implode(',', $headers['expect'])) !== '100-continue') {
                throw new HttpException(417, 'Only the 100-continue expectation is supported', false);
            }
            $expectsContinue = $protocol === '1.1';
        }

        $contentLength = 0;
        $chunked = false;
        if (isset($headers['transfer-encoding'])) {
            if (isset($headers['content-length'])) {
                throw new HttpException(400, 'Content-Length and Transfer-Encoding must not both be present');
            }
            if ($protocol === '1.0') {
                throw new HttpException(400, 'Transfer-Encoding is not allowed in HTTP/1.0');
            }
            $codings = [];
            foreach ($headers['transfer-encoding'] as $value) {
                foreach (\explode(',', \strtolower($value)) as $coding) {
                    $coding = \trim($coding, " \t");
                    if ($coding !== '') {
                        $codings[] = $coding;
                    }
                }
            }
            foreach ($codings as $coding) {
                if ($coding !== 'chunked') {
                    throw new HttpException(501, \sprintf('Transfer coding "%s" is not supported', \substr($coding, 0, 64)));
                }
            }
            if (\count($codings) !== 1) {
                throw new HttpException(400, 'Transfer-Encoding must end with exactly one chunked coding');
            }
            $chunked = true;
            $contentLength = null;
        } elseif (isset($headers['content-length'])) {
            $contentLength = self::contentLength($headers['content-length'], $limits->maxBodySize);
        }

        // Only a request with content has anything to wait for (RFC 9110 §10.1.1).
        $expectsContinue = $expectsContinue && ($chunked || $contentLength > 0);

        return new RequestHead($method, $target, $path, $query, $protocol, $headers, $keepAlive, $expectsContinue, $contentLength, $chunked);
    }

    /** Works out why a request line was refused (slow path: only for bad requests). */
    private static function requestLineError(string $requestLine): HttpException
    {
        $parts = \explode(' ', $requestLine);
        if (\count($parts) !== 3) {
            return new HttpException(400, 'Malformed request line');
        }
        [$method, $target, $version] = $parts;
        if ($method === '' || \strspn($method, self::TOKEN) !== \strlen($method)) {
            return new HttpException(400, 'Malformed request method');
        }
        if ($version !== 'HTTP/1.1' && $version !== 'HTTP/1.0') {
            return \preg_match('#^HTTP/\\d\\.\\d$#D', $version) === 1
                ? new HttpException(505, \sprintf('HTTP version %s is not supported', \substr($version, 5)))
                : new HttpException(400, 'Malformed HTTP version');
        }

        return new HttpException(400, 'Malformed request target');
    }

    /** Works out why a header line was refused (slow path: only for bad requests). */
    private static function headerLineError(string $rest): HttpException
    {
        $line = \explode("\r\n", $rest, 2)[0];
        $colon = \strpos($line, ':');
        if ($colon === false || $colon === 0) {
            return new HttpException(400, $line !== '' && ($line[0] === ' ' || $line[0] === "\t") ? 'Obsolete header line folding is not accepted' : 'Malformed header line');
        }
        if (\strspn($line, self::TOKEN) !== $colon) {
            return new HttpException(400, 'Malformed header field name');
        }

        return new HttpException(400, 'Invalid character in header field value');
    }

    /**
     * The absolute-form (RFC 9112 §3.2.2) or asterisk-form (§3.2.4) target as origin-form, with the
     * authority of an absolute-form target.
     *
     * @return array{string, ?string}
     */
    private static function originForm(string $method, string $target): array
    {
        if ($target === '*' && $method === 'OPTIONS') {
            return ['*', null];
        }
        $scheme = \strtolower(\substr($target, 0, 8));
        if (\str_starts_with($scheme, 'http://')) {
            $rest = \substr($target, 7);
        } elseif ($scheme === 'https://') {
            $rest = \substr($target, 8);
        } else {
            throw new HttpException(400, 'Malformed request target');
        }
        $slash = \strcspn($rest, '/?');
        if ($slash === 0) {
            throw new HttpException(400, 'Absolute request target without a host');
        }
        $authority = \substr($rest, 0, $slash);
        if (\preg_match(self::HOST, $authority) !== 1) {
            throw new HttpException(400, 'Malformed host in the request target');
        }
        $target = \substr($rest, $slash);

        return [$target === '' || $target[0] === '?' ? '/' . $target : $target, $authority];
    }

    /** @param list<string> $values */
    private static function contentLength(array $values, int $maxBodySize): int
    {
        $length = null;
        foreach ($values as $value) {
            foreach (\explode(',', $value) as $part) {
                $part = \trim($part, " \t");
                if ($part === '' || !\ctype_digit($part) || \strlen($part) > 18) {
                    throw new HttpException(400, 'Malformed Content-Length');
                }
                $n = (int) $part;
                if ($length !== null && $n !== $length) {
                    throw new HttpException(400, 'Conflicting Content-Length values');
                }
                $length = $n;
            }
        }
        \assert($length !== null);
        if ($length > $maxBodySize) {
            throw new HttpException(413, \sprintf('Request body larger than %d bytes', $maxBodySize));
        }

        return $length;
    }
}
