<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql\Protocol;

/** CopyInResponse, CopyOutResponse or CopyBothResponse ($type tells which). */
final class CopyResponse
{
    /** @param list<int> $columnFormats 0 text, 1 binary */
    public function __construct(
        public readonly MessageType $type,
        public readonly int $format,
        public readonly array $columnFormats,
    ) {
    }
}
