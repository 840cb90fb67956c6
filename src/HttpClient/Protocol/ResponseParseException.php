<?php

declare(strict_types=1);

namespace Spindle\HttpClient\Protocol;

use Spindle\HttpClient\HttpClientException;

/** The server's bytes are not an HTTP/1.x response (or exceed a limit); the connection must be closed. */
final class ResponseParseException extends HttpClientException
{
}
