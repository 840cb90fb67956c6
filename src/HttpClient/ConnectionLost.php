<?php

declare(strict_types=1);

namespace Spindle\HttpClient;

/** The server closed the connection before the response was complete. */
final class ConnectionLost extends HttpClientException
{
}
