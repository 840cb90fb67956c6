<?php

declare(strict_types=1);

namespace Spindle\HttpClient;

/** The connection could not be made: DNS, TCP connect, proxy or TLS handshake (no byte of the request went out). */
final class ConnectException extends HttpClientException
{
}
