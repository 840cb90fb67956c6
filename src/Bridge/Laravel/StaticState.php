<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Carbon\Carbon;
use Illuminate\Container\Container;
use Illuminate\Foundation\Application;
use Illuminate\Database\Eloquent\Model;
use Illuminate\Pagination\AbstractCursorPaginator;
use Illuminate\Pagination\AbstractPaginator;
use Illuminate\Support\Facades\Facade;

/**
 * The process-global (static) state that Laravel keeps for "the" application, as one app
 * instance left it: container instance, facade root and resolved facade instances, Eloquent's
 * connection resolver, event dispatcher and booted models, the pagination resolvers, Carbon's
 * locale and test time.
 *
 * save() reads it from the statics, load() writes it back. Model booting is part of it because
 * a model boots once per process and registers its event listeners on the dispatcher of the
 * instance that was current then: each instance boots its models on its own dispatcher.
 */
final class StaticState
{
    /** @var array<string, mixed> */
    private array $facades = [];
    private mixed $modelResolver = null;
    private mixed $modelDispatcher = null;
    /** @var array<string, mixed> */
    private array $modelBooted = [];
    /** @var array<string, mixed> */
    private array $modelGlobalScopes = [];
    /** @var array<string, mixed> */
    private array $modelTraitInitializers = [];
    /** @var array<string, mixed> */
    private array $paginator = [];
    private mixed $cursorResolver = null;
    private string $carbonLocale = 'en';
    private mixed $testNow = null;

    public function __construct(public readonly Application $app)
    {
    }

    /** Reads the statics as they are now (after this instance ran). */
    public function save(): void
    {
        $this->facades = self::facadeInstances();
        [$this->modelResolver, $this->modelDispatcher, $this->modelBooted, $this->modelGlobalScopes, $this->modelTraitInitializers]
            = self::modelStatics();
        $this->paginator = self::paginatorResolvers();
        $this->cursorResolver = self::cursorResolver();
        $this->carbonLocale = Carbon::getLocale();
        $this->testNow = Carbon::getTestNow();
    }

    /** Writes this instance's state into the statics. */
    public function load(): void
    {
        Container::setInstance($this->app);
        Facade::setFacadeApplication($this->app);
        self::call(\Closure::bind(function (array $facades): void {
            Facade::$resolvedInstance = $facades;
        }, null, Facade::class), $this->facades);
        self::call(\Closure::bind(function (array $model): void {
            [Model::$resolver, Model::$dispatcher, Model::$booted, Model::$globalScopes, Model::$traitInitializers] = $model;
        }, null, Model::class), [$this->modelResolver, $this->modelDispatcher, $this->modelBooted, $this->modelGlobalScopes, $this->modelTraitInitializers]);
        self::restorePaginatorResolvers($this->paginator, $this->cursorResolver);
        if (Carbon::getLocale() !== $this->carbonLocale) {
            Carbon::setLocale($this->carbonLocale);
        }
        if ($this->testNow !== null || Carbon::hasTestNow()) {
            Carbon::setTestNow($this->testNow);
        }
    }

    /** @return array<string, mixed> */
    public static function facadeInstances(): array
    {
        $read = \Closure::bind(fn (): array => Facade::$resolvedInstance, null, Facade::class);

        return $read === null ? [] : $read();
    }

    /** @return array<string, mixed> as restorePaginatorResolvers() takes them */
    public static function paginatorResolvers(): array
    {
        $read = \Closure::bind(fn (): array => [
            'path' => AbstractPaginator::$currentPathResolver,
            'page' => AbstractPaginator::$currentPageResolver,
            'query' => AbstractPaginator::$queryStringResolver,
            'view' => AbstractPaginator::$viewFactoryResolver,
        ], null, AbstractPaginator::class);

        return $read === null ? [] : $read();
    }

    public static function cursorResolver(): mixed
    {
        $read = \Closure::bind(fn (): mixed => AbstractCursorPaginator::$currentCursorResolver, null, AbstractCursorPaginator::class);

        return $read === null ? null : $read();
    }

    /** @param array<string, mixed> $resolvers as paginatorResolvers() returns them */
    public static function restorePaginatorResolvers(array $resolvers, mixed $cursor): void
    {
        self::call(\Closure::bind(function (array $resolvers): void {
            AbstractPaginator::$currentPathResolver = $resolvers['path'] ?? null;
            AbstractPaginator::$currentPageResolver = $resolvers['page'] ?? null;
            AbstractPaginator::$queryStringResolver = $resolvers['query'] ?? null;
            AbstractPaginator::$viewFactoryResolver = $resolvers['view'] ?? null;
        }, null, AbstractPaginator::class), $resolvers);
        self::call(\Closure::bind(function (mixed $cursor): void {
            AbstractCursorPaginator::$currentCursorResolver = $cursor;
        }, null, AbstractCursorPaginator::class), $cursor);
    }

    /** @return array{mixed, mixed, array<string, mixed>, array<string, mixed>, array<string, mixed>} */
    private static function modelStatics(): array
    {
        $read = \Closure::bind(fn (): array => [Model::$resolver, Model::$dispatcher, Model::$booted, Model::$globalScopes, Model::$traitInitializers], null, Model::class);
        \assert($read !== null);

        return $read();
    }

    private static function call(?\Closure $bound, mixed $argument): void
    {
        \assert($bound !== null);
        $bound($argument);
    }
}
