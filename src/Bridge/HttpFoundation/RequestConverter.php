<?php

declare(strict_types=1);

namespace Spindle\Bridge\HttpFoundation;

use Spindle\Http\FormBody;
use Spindle\Http\HttpException;
use Spindle\Http\Request;
use Spindle\Http\UploadedFile;
use Symfony\Component\HttpFoundation\File\UploadedFile as SymfonyUploadedFile;
use Symfony\Component\HttpFoundation\Request as SymfonyRequest;

/**
 * Builds a Symfony HttpFoundation request (or a subclass such as Laravel's) from Spindle's lean
 * request, with the query, form fields, cookies, uploaded files, raw body (a string, or a stream
 * on the temporary file of a body too large for memory) and the $_SERVER
 * entries PHP-FPM behind nginx would give the same request.
 *
 * REMOTE_ADDR is always the real peer: the framework's own trusted-proxy configuration decides
 * whether X-Forwarded-* headers count.
 */
final class RequestConverter
{
    /** Host header syntax, as Symfony's Request::getHost() accepts it (plus an optional port). */
    private const HOST_PATTERN = '/^(?:\[[0-9a-fA-F:.]+\]|[a-zA-Z0-9_\-.]+)(?::(\d{1,5}))?$/';

    /** @var array<string, string> the entries that are the same for every request */
    private readonly array $fixed;

    public function __construct(ServerParams $server)
    {
        $fixed = $server->extra;
        $fixed['SERVER_SOFTWARE'] = $server->serverSoftware;
        $fixed['DOCUMENT_ROOT'] = $server->documentRoot;
        $fixed['SCRIPT_FILENAME'] = $server->scriptFilename;
        $fixed['SCRIPT_NAME'] = $server->scriptName;
        $fixed['PHP_SELF'] = $server->scriptName;
        $fixed['REQUEST_SCHEME'] = $server->https ? 'https' : 'http';
        if ($server->https) {
            $fixed['HTTPS'] = 'on';
        }
        $this->fixed = $fixed;
    }

    /**
     * @template T of SymfonyRequest
     *
     * @param class-string<T> $class
     *
     * @return T
     *
     * @throws HttpException 400 when the Host header is not a host name or address with an optional port
     */
    public function toSymfony(Request $request, string $class = SymfonyRequest::class): SymfonyRequest
    {
        $query = [];
        if ($request->query !== '') {
            \parse_str($request->query, $query);
        }
        $cookies = isset($request->headers['cookie'])
            ? FormBody::parseCookies(\implode('; ', $request->headers['cookie']))
            : [];

        return new $class(
            $query,
            $request->parsedBody,
            [],
            $cookies,
            self::files($request->uploadedFiles),
            $this->serverVariables($request),
            // A body too large for memory is a stream on its temporary file: getContent() reads it
            // whole, getContent(true) hands the stream over.
            $request->bodyFile() !== null ? $request->openBody() : $request->body,
        );
    }

    /**
     * The $_SERVER array for $request.
     *
     * Ports are strings, as PHP-FPM gives them; REQUEST_TIME is an int, REQUEST_TIME_FLOAT a float.
     *
     * @return array<string, string|int|float>
     *
     * @throws HttpException 400 for an invalid Host header
     */
    public function serverVariables(Request $request): array
    {
        $now = \microtime(true);
        $server = $this->fixed;
        [$serverName, $serverPort] = $this->serverNameAndPort($request);
        $server['SERVER_NAME'] = $serverName;
        $server['SERVER_PORT'] = $serverPort;
        $server['SERVER_ADDR'] = $request->localAddress;
        $server['SERVER_PROTOCOL'] = 'HTTP/' . $request->protocolVersion;
        if ($request->secure) {
            // Served over TLS by Spindle itself (Symfony's isSecure(), Laravel's secure()).
            $server['HTTPS'] = 'on';
            $server['REQUEST_SCHEME'] = 'https';
        }
        $server['REQUEST_METHOD'] = $request->method;
        $server['REQUEST_URI'] = $request->target;
        $server['QUERY_STRING'] = $request->query;
        $server['REMOTE_ADDR'] = $request->remoteAddress;
        $server['REMOTE_PORT'] = (string) $request->remotePort;
        $server['REQUEST_TIME_FLOAT'] = $now;
        $server['REQUEST_TIME'] = (int) $now;

        foreach ($request->headers as $name => $values) {
            $name = (string) $name;
            if (\str_contains($name, '_')) {
                // "X_Forwarded_For" would land on the same key as "X-Forwarded-For": dropped, as nginx does.
                continue;
            }
            $key = \strtoupper(\strtr($name, '-', '_'));
            $value = \implode($name === 'cookie' ? '; ' : ', ', $values);
            if ($key === 'CONTENT_TYPE' || $key === 'CONTENT_LENGTH') {
                $server[$key] = $value;
            }
            $server['HTTP_' . $key] = $value;
        }
        if (isset($request->headers['authorization'])) {
            self::authVariables($request->headers['authorization'][0], $server);
        }

        return $server;
    }

    /**
     * SERVER_NAME and SERVER_PORT from the Host header (its port, else the local port), else
     * from the local address.
     *
     * @return array{string, string}
     */
    private function serverNameAndPort(Request $request): array
    {
        $host = $request->headers['host'][0] ?? null;
        if ($host === null || $host === '') {
            return [$request->localAddress, (string) $request->localPort];
        }
        if (\preg_match(self::HOST_PATTERN, $host, $m) !== 1) {
            throw new HttpException(400, 'Invalid Host header');
        }
        if (isset($m[1])) {
            return [\strtolower(\substr($host, 0, -\strlen($m[1]) - 1)), $m[1]];
        }

        return [\strtolower($host), (string) $request->localPort];
    }

    /**
     * PHP_AUTH_USER / PHP_AUTH_PW (Basic) and PHP_AUTH_DIGEST (Digest), as PHP sets them, and
     * REMOTE_USER as nginx's fastcgi_params pass it.
     *
     * @param array<string, string|int|float> $server
     */
    private static function authVariables(string $authorization, array &$server): void
    {
        if (\strncasecmp($authorization, 'basic ', 6) === 0) {
            $decoded = \base64_decode(\substr($authorization, 6), true);
            if ($decoded !== false && \str_contains($decoded, ':')) {
                [$user, $password] = \explode(':', $decoded, 2);
                $server['PHP_AUTH_USER'] = $user;
                $server['PHP_AUTH_PW'] = $password;
                $server['REMOTE_USER'] = $user;
            }
        } elseif (\strncasecmp($authorization, 'digest ', 7) === 0) {
            $server['PHP_AUTH_DIGEST'] = \substr($authorization, 7);
        }
    }

    /**
     * Spindle's uploaded files as Symfony UploadedFile objects, nested like the field names. They
     * are made in test mode: Spindle wrote the temporary files itself, so is_uploaded_file() and
     * move_uploaded_file() would refuse them, while isValid() and move() (a rename) work.
     * A field left without a file becomes null, as Symfony's FileBag makes it from $_FILES.
     *
     * @param array<array-key, mixed> $files
     *
     * @return array<array-key, mixed>
     */
    private static function files(array $files): array
    {
        $out = [];
        foreach ($files as $key => $file) {
            if ($file instanceof UploadedFile) {
                $out[$key] = $file->error === \UPLOAD_ERR_NO_FILE
                    // FileBag turns this $_FILES entry into null; a bare null at the top level it would refuse.
                    ? ['name' => $file->clientFilename ?? '', 'type' => '', 'tmp_name' => '', 'error' => \UPLOAD_ERR_NO_FILE, 'size' => 0]
                    : new SymfonyUploadedFile(
                        $file->tmpPath,
                        $file->clientFilename ?? '',
                        $file->clientMediaType,
                        $file->error,
                        true,
                    );
            } elseif (\is_array($file)) {
                $out[$key] = self::files($file);
            }
        }

        return $out;
    }
}
