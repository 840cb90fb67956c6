<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Pdo;

/** An ATTR_STATEMENT_CLASS class written for native PDO: it extends PDOStatement only. */
class UserPdoStatement extends \PDOStatement
{
    public string $seen = '';
    /** @var list<string> */
    public array $log = [];

    protected function __construct(public mixed $tag = null)
    {
        $this->seen = $this->queryString;
    }

    /** @return list<mixed> */
    public function column(int $index): array
    {
        $this->log[] = 'column';

        return $this->fetchAll(\PDO::FETCH_COLUMN, $index);
    }

    public function rowCount(): int
    {
        $this->log[] = 'rowCount';

        return 42;
    }
}
