<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql;

/** libpq's sslmode, as far as Spindle supports it. */
enum SslMode: string
{
    /** never TLS */
    case Disable = 'disable';
    /** TLS when the server offers it, without verifying the certificate; plain otherwise (the default) */
    case Prefer = 'prefer';
    /** TLS or no connection; the certificate is not verified */
    case Require = 'require';
    /** TLS with a certificate signed by the trusted CA (sslrootcert) */
    case VerifyCa = 'verify-ca';
    /** as verify-ca, and the certificate must name the host */
    case VerifyFull = 'verify-full';

    public static function fromName(string $name): self
    {
        // "allow" (plain first, TLS if the server insists) is taken as "prefer".
        return $name === 'allow' ? self::Prefer : (self::tryFrom($name)
            ?? throw new \InvalidArgumentException(sprintf('invalid sslmode value: "%s"', $name)));
    }
}
