<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Reset;

use Spindle\Bridge\Laravel\StaticState;

/**
 * Puts back the pagination resolvers (current page, path, query string, view factory, cursor)
 * that the instance had after boot, in case a request replaced them (`Paginator::currentPageResolver()`).
 */
final class PaginationResetter implements Resetter
{
    /** @var array<string, mixed> */
    private readonly array $resolvers;
    private readonly mixed $cursor;
    /** @var \Closure(array<string, mixed>): void */
    private readonly \Closure $writeResolvers;
    /** @var \Closure(mixed): void */
    private readonly \Closure $writeCursor;

    /** Captures the resolvers as they are now: make it while the booted instance owns the statics. */
    public function __construct()
    {
        $this->resolvers = StaticState::paginatorResolvers();
        $this->cursor = StaticState::cursorResolver();
        $this->writeResolvers = StaticState::paginatorWriter();
        $this->writeCursor = StaticState::cursorWriter();
    }

    public function reset(): void
    {
        ($this->writeResolvers)($this->resolvers);
        ($this->writeCursor)($this->cursor);
    }
}
