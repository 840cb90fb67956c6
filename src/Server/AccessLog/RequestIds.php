<?php

declare(strict_types=1);

namespace Spindle\Server\AccessLog;

use Spindle\Http\Middleware;
use Spindle\Http\Request;
use Spindle\Http\RequestHandler;
use Spindle\Http\Response;
use Spindle\Loop\Loop;

/**
 * Gives every request an X-Request-Id and returns it with the response (`--access-log`): the
 * client's (or the proxy's) when it sent a usable one (1 to 200 visible ASCII characters), else a
 * new one: this worker's random prefix (48 bits) and a counter ("9c1f03a2be71-42"), unique without
 * a system call per request. What comes after it (the access log, the app) sees the id as if the
 * client had sent it; the response carries it unless the app set its own. The id is also kept in
 * the request's task context (CONTEXT_KEY), for a request that ends the process (ExitDrain).
 */
final class RequestIds implements Middleware
{
    /** Where the request's id is kept in its Loop\Context. */
    public const CONTEXT_KEY = 'spindle.request-id';

    private readonly string $prefix;
    private int $counter = 0;

    public function __construct()
    {
        $this->prefix = \bin2hex(\random_bytes(6)) . '-';
    }

    public function process(Request $request, RequestHandler $next): Response
    {
        $given = $request->headers['x-request-id'] ?? null;
        if ($given !== null && \count($given) === 1 && $given[0] !== '' && \strlen($given[0]) <= 200 && \preg_match('/[^\x21-\x7e]/', $given[0]) === 0) {
            $id = $given[0];
        } else {
            $id = $this->prefix . ++$this->counter;
            $request = $request->withHeader('x-request-id', $id);
        }
        Loop::context()?->set(self::CONTEXT_KEY, $id);

        return self::withId($next->handle($request), $id);
    }

    /** $response with X-Request-Id $id, unless the app gave one. */
    public static function withId(Response $response, string $id): Response
    {
        $headers = $response->headers;
        if (isset($headers['X-Request-Id']) || isset($headers['x-request-id'])) {
            return $response;
        }
        $headers['X-Request-Id'] = $id;

        return $response->withHeaders($headers);
    }
}
