<?php

declare(strict_types=1);

namespace Spindle\HttpClient;

/** Misuse of the client: an URL it cannot request, an option of the wrong shape. */
final class HttpClientError extends \InvalidArgumentException
{
}
