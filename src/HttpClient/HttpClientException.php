<?php

declare(strict_types=1);

namespace Spindle\HttpClient;

/**
 * The root of every failure of an outgoing HTTP request: connect, TLS, timeout, a remote server
 * that broke the protocol or closed the connection early. The message names the peer.
 */
class HttpClientException extends \RuntimeException
{
}
