<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql\Protocol;

/** An Authentication* message: what the server asks for (or that it is satisfied). */
final class Authentication
{
    public const OK = 0;
    public const CLEARTEXT = 3;
    public const MD5 = 5;
    public const SASL = 10;
    public const SASL_CONTINUE = 11;
    public const SASL_FINAL = 12;

    public function __construct(
        public readonly int $code,
        /** MD5: the 4-byte salt; SASL: the mechanism list (NUL-separated); SASL_CONTINUE/FINAL: the server's data */
        public readonly string $data = '',
    ) {
    }

    /** @return list<string> the SASL mechanisms offered */
    public function mechanisms(): array
    {
        return array_values(array_filter(explode("\0", $this->data), static fn (string $m): bool => $m !== ''));
    }
}
