<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Pdo;

/** A class for FETCH_CLASS, FETCH_INTO and fetchObject(): it records what its constructor saw. */
final class FetchTarget
{
    public mixed $id = 'unset';
    public mixed $name = 'unset';
    /** @var list<mixed> */
    public array $ctorArgs = [];
    public mixed $nameInConstructor = 'no constructor call';
    private mixed $grp = 'unset';

    public function __construct(mixed ...$args)
    {
        $this->ctorArgs = $args;
        $this->nameInConstructor = $this->name;
    }

    public function grp(): mixed
    {
        return $this->grp;
    }
}
