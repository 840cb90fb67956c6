<?php

declare(strict_types=1);

namespace Spindle\HttpClient;

/** The server's TLS certificate did not verify (unknown issuer, expired, another host's name). */
final class CertificateException extends HttpClientException
{
}
