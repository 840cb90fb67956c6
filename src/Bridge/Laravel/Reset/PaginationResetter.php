<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Reset;

use Spindle\Bridge\Laravel\SupportStatics;

/**
 * Puts back the pagination resolvers (current page, path, query string, view factory, cursor:
 * SupportStatics::PAGINATION) that the instance had after boot, in case a request replaced them
 * (`Paginator::currentPageResolver()`).
 */
final class PaginationResetter implements Resetter
{
    private readonly SupportStatics $statics;
    /** @var array<int, mixed> */
    private readonly array $resolvers;

    /** Captures the resolvers as they are now: make it while the booted instance owns the statics. */
    public function __construct()
    {
        $this->statics = new SupportStatics(SupportStatics::PAGINATION);
        $this->resolvers = $this->statics->capture();
    }

    public function reset(): void
    {
        $this->statics->restore($this->resolvers);
    }
}
