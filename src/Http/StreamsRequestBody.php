<?php

declare(strict_types=1);

namespace Spindle\Http;

/**
 * A RequestHandler that reads request bodies as they arrive: it is called as soon as a request's
 * head is in, with the body to read from `Request::$bodyStream` (a RequestBody), instead of once
 * the whole body has been received and stored (in memory, or in a temporary file past
 * --body-buffer-size). For uploads too large to hold, proxies, and protocols that talk both ways
 * over one request. Forms and multipart bodies are then not parsed: the handler reads the bytes.
 *
 * Frameworks read the whole body before they route, so their bridges do not stream.
 */
interface StreamsRequestBody extends RequestHandler
{
}
