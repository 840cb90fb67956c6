<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql\Protocol;

use Spindle\Database\Mysql\ColumnDefinition;
use Spindle\Database\Mysql\Result;

/**
 * One result set of a streamed (unbuffered) command while it arrives: the protocol appends the
 * rows it decodes, the reader takes them, so only the rows of the bytes read so far are held.
 * $summary is set once the set ended (for an OK result at once): its affected rows, insert id,
 * warnings and status, without rows (but for a set read whole, whose summary may hold them).
 *
 * @internal
 */
final class StreamedSet
{
    /** @var list<list<int|float|string|null>> rows decoded and not taken yet */
    public array $rows = [];
    public ?Result $summary = null;

    /** @param list<ColumnDefinition> $columns */
    public function __construct(public readonly array $columns)
    {
    }

    public static function ok(Result $result): self
    {
        $set = new self([]);
        $set->summary = $result;

        return $set;
    }

    public function ended(): bool
    {
        return $this->summary !== null;
    }
}
