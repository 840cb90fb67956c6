<?php

declare(strict_types=1);

namespace Spindle\HttpClient\Dns;

use Spindle\HttpClient\HttpClientException;

/** A DNS message that cannot be read, or no answer from any name server. */
final class DnsException extends HttpClientException
{
}
