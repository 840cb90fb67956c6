<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql\Protocol;

/**
 * ErrorResponse or NoticeResponse: every field kept, by its one-letter code (S severity, V
 * severity not localised, C SQLSTATE, M message, D detail, H hint, P position, p internal
 * position, q internal query, W where, s schema, t table, c column, d data type, n constraint,
 * F file, L line, R routine).
 */
final class ServerMessage
{
    /** @param array<string, string> $fields */
    public function __construct(public readonly bool $isError, public readonly array $fields)
    {
    }

    public function severity(): string
    {
        return $this->fields['S'] ?? $this->fields['V'] ?? ($this->isError ? 'ERROR' : 'NOTICE');
    }

    public function sqlState(): string
    {
        return $this->fields['C'] ?? ($this->isError ? 'XX000' : '00000');
    }

    public function message(): string
    {
        return $this->fields['M'] ?? '';
    }

    public function detail(): ?string
    {
        return $this->fields['D'] ?? null;
    }

    public function hint(): ?string
    {
        return $this->fields['H'] ?? null;
    }

    /** 1-based character position in the query text, or null. */
    public function position(): ?int
    {
        return isset($this->fields['P']) ? (int) $this->fields['P'] : null;
    }

    public function field(string $code): ?string
    {
        return $this->fields[$code] ?? null;
    }

    /** FATAL and PANIC end the session. */
    public function isFatal(): bool
    {
        $severity = $this->fields['V'] ?? $this->fields['S'] ?? '';

        return $severity === 'FATAL' || $severity === 'PANIC';
    }
}
