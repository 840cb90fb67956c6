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
    /** @var array{mixed, mixed, array<string, mixed>, array<string, mixed>, array<string, mixed>} */
    private array $model = [null, null, [], [], []];
    /** @var array<string, mixed> */
    private array $paginator = [];
    private mixed $cursorResolver = null;
    private string $carbonLocale = 'en';
    private mixed $testNow = null;
    /** @var array<string, mixed> Laravel 9 to 12's support statics (once() cache, Number and Str hooks, …), and packages' */
    private array $support = [];
    private readonly SupportStatics $supportStatics;

    /**
     * The accessors of the protected statics, bound to their class scopes once: a switch between
     * instances (on a fiber resume) then creates no closures.
     *
     * @var \Closure(): array<string, mixed>
     */
    private readonly \Closure $readFacades;
    /** @var \Closure(array<string, mixed>): void */
    private readonly \Closure $writeFacades;
    /** @var \Closure(): array{mixed, mixed, array<string, mixed>, array<string, mixed>, array<string, mixed>} */
    private readonly \Closure $readModel;
    /** @var \Closure(array{mixed, mixed, array<string, mixed>, array<string, mixed>, array<string, mixed>}): void */
    private readonly \Closure $writeModel;
    /** @var \Closure(): array<string, mixed> */
    private readonly \Closure $readPaginator;
    /** @var \Closure(array<string, mixed>): void */
    private readonly \Closure $writePaginator;
    /** @var \Closure(): mixed */
    private readonly \Closure $readCursor;
    /** @var \Closure(mixed): void */
    private readonly \Closure $writeCursor;

    /** Container::$instance and the facades' application, as saved (the instance's app, or a booting one's). */
    private ?Container $container;
    private mixed $facadeApplication;
    /** @var \Closure(): mixed */
    private readonly \Closure $readContainer;

    /**
     * @param Application|null $app     the instance's app; null for the statics of an instance still
     *                                  booting (ProcessGlobals::boot()), which are only saved and loaded
     * @param SupportStatics|null $statics the table of other statics swapped with the instance
     *                                     (SupportStatics::forApp()); all() when null
     */
    public function __construct(?Application $app, ?SupportStatics $statics = null)
    {
        $this->container = $app;
        $this->facadeApplication = $app;
        // Container::getInstance() would make a container when there is none (between boots).
        $this->readContainer = self::bound(\Closure::bind(static fn (): mixed => Container::$instance, null, Container::class));
        $this->supportStatics = $statics ?? SupportStatics::all();
        $this->readFacades = self::facadeReader();
        $this->writeFacades = self::bound(\Closure::bind(static function (array $facades): void {
            Facade::$resolvedInstance = $facades;
        }, null, Facade::class));
        $this->readModel = self::bound(\Closure::bind(
            static fn (): array => [Model::$resolver, Model::$dispatcher, Model::$booted, Model::$globalScopes, Model::$traitInitializers],
            null,
            Model::class,
        ));
        $this->writeModel = self::bound(\Closure::bind(static function (array $model): void {
            [Model::$resolver, Model::$dispatcher, Model::$booted, Model::$globalScopes, Model::$traitInitializers] = $model;
        }, null, Model::class));
        $this->readPaginator = self::paginatorReader();
        $this->writePaginator = self::paginatorWriter();
        $this->readCursor = self::cursorReader();
        $this->writeCursor = self::cursorWriter();
    }

    /** Reads the statics as they are now (after this instance ran). */
    public function save(): void
    {
        $container = ($this->readContainer)();
        $this->container = $container instanceof Container ? $container : null;
        $this->facadeApplication = Facade::getFacadeApplication();
        $this->facades = ($this->readFacades)();
        $this->model = ($this->readModel)();
        $this->paginator = ($this->readPaginator)();
        $this->cursorResolver = ($this->readCursor)();
        $this->carbonLocale = Carbon::getLocale();
        $this->testNow = Carbon::getTestNow();
        $this->support = $this->supportStatics->capture();
    }

    /** Writes this instance's state into the statics. */
    public function load(): void
    {
        Container::setInstance($this->container);
        Facade::setFacadeApplication($this->facadeApplication);
        ($this->writeFacades)($this->facades);
        ($this->writeModel)($this->model);
        ($this->writePaginator)($this->paginator);
        ($this->writeCursor)($this->cursorResolver);
        if (Carbon::getLocale() !== $this->carbonLocale) {
            Carbon::setLocale($this->carbonLocale);
        }
        if ($this->testNow !== null || Carbon::hasTestNow()) {
            Carbon::setTestNow($this->testNow);
        }
        $this->supportStatics->restore($this->support);
    }

    /**
     * Writes the statics as a process that never booted Laravel has them, with Carbon at
     * $carbonLocale: a new instance boots from there, whatever the running requests changed.
     */
    public static function loadPristine(string $carbonLocale): void
    {
        Container::setInstance(null);
        Facade::clearResolvedInstances();
        Model::unsetConnectionResolver();
        Model::unsetEventDispatcher();
        Model::clearBootedModels();
        (self::paginatorWriter())([]);
        (self::cursorWriter())(null);
        if (Carbon::getLocale() !== $carbonLocale) {
            Carbon::setLocale($carbonLocale);
        }
        if (Carbon::hasTestNow()) {
            Carbon::setTestNow();
        }
    }

    /** @return array<string, mixed> */
    public static function facadeInstances(): array
    {
        return (self::facadeReader())();
    }

    /** @return array<string, mixed> as paginatorWriter() takes them */
    public static function paginatorResolvers(): array
    {
        return (self::paginatorReader())();
    }

    public static function cursorResolver(): mixed
    {
        return (self::cursorReader())();
    }

    /** @return \Closure(): array<string, mixed> */
    public static function paginatorReader(): \Closure
    {
        return self::bound(\Closure::bind(static fn (): array => [
            'path' => AbstractPaginator::$currentPathResolver,
            'page' => AbstractPaginator::$currentPageResolver,
            'query' => AbstractPaginator::$queryStringResolver,
            'view' => AbstractPaginator::$viewFactoryResolver,
        ], null, AbstractPaginator::class));
    }

    /** @return \Closure(array<string, mixed>): void takes what paginatorReader() returns */
    public static function paginatorWriter(): \Closure
    {
        return self::bound(\Closure::bind(static function (array $resolvers): void {
            AbstractPaginator::$currentPathResolver = $resolvers['path'] ?? null;
            AbstractPaginator::$currentPageResolver = $resolvers['page'] ?? null;
            AbstractPaginator::$queryStringResolver = $resolvers['query'] ?? null;
            AbstractPaginator::$viewFactoryResolver = $resolvers['view'] ?? null;
        }, null, AbstractPaginator::class));
    }

    /** @return \Closure(): mixed */
    public static function cursorReader(): \Closure
    {
        return self::bound(\Closure::bind(static fn (): mixed => AbstractCursorPaginator::$currentCursorResolver, null, AbstractCursorPaginator::class));
    }

    /** @return \Closure(mixed): void */
    public static function cursorWriter(): \Closure
    {
        return self::bound(\Closure::bind(static function (mixed $cursor): void {
            AbstractCursorPaginator::$currentCursorResolver = $cursor;
        }, null, AbstractCursorPaginator::class));
    }

    /** @return \Closure(): array<string, mixed> */
    private static function facadeReader(): \Closure
    {
        return self::bound(\Closure::bind(static fn (): array => Facade::$resolvedInstance, null, Facade::class));
    }

    /**
     * The result of \\Closure::bind(), which is null only when the scope is not a class.
     *
     * @template T of \Closure
     *
     * @param T|null $bound
     *
     * @return T
     */
    private static function bound(?\Closure $bound): \Closure
    {
        \assert($bound !== null);

        return $bound;
    }
}
