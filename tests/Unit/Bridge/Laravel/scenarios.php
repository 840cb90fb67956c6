<?php

declare(strict_types=1);

// Runs one scenario against a booted instance of the Laravel fixture app and prints what it
// observed as JSON. Laravel 8 needs psr/container 1 (Debian's), which Spindle's own vendor/
// does not have, so ResetterTest runs this in a child process with the fixture's autoloader.

use Carbon\Carbon;
use Illuminate\Auth\GenericUser;
use Illuminate\Foundation\Application;
use Illuminate\Http\Request;
use Illuminate\Pagination\Paginator;
use Illuminate\Support\Facades\App;
use Illuminate\Support\Facades\Auth;
use Illuminate\Support\Facades\Cookie;
use Illuminate\Support\Facades\DB;
use Illuminate\Support\Facades\Event;
use Illuminate\Support\Facades\Facade;
use Illuminate\Support\Facades\Validator;
use Illuminate\Support\Facades\View;
use Spindle\Bridge\Laravel\InstanceFactory;
use Spindle\Bridge\Laravel\ProcessGlobals;
use Spindle\Bridge\Laravel\Reset;
use Spindle\Bridge\Laravel\StaticState;

require dirname(__DIR__, 4) . '/tests/fixtures/laravel-app/vendor/autoload.php';

final class ScenarioLogger extends Psr\Log\AbstractLogger
{
    /** @var list<string> */
    public array $lines = [];

    public function log($level, $message, array $context = []): void
    {
        $this->lines[] = $level . ': ' . $message;
    }
}

$logger = new ScenarioLogger();
$globals = new ProcessGlobals();
$factory = new InstanceFactory(dirname(__DIR__, 4) . '/tests/fixtures/laravel-app', $globals, $logger);
$instance = $factory->create();
$app = $instance->app;
$app['config']->set('database.connections.memory', ['driver' => 'sqlite', 'database' => ':memory:', 'prefix' => '']);

/** @var array<string, Closure(Application): array<string, mixed>> $scenarios */
$scenarios = [
    'config' => function (Application $app): array {
        $resetter = new Reset\ConfigResetter($app);
        config(['app.greeting' => 'changed', 'app.extra' => 'added']);
        $during = [config('app.greeting'), config('app.extra')];
        $resetter->reset();
        return ['during' => $during, 'after' => [config('app.greeting'), config('app.extra')]];
    },
    'auth' => function (Application $app): array {
        $resetter = new Reset\AuthResetter($app);
        Auth::setUser(new GenericUser(['id' => 5, 'name' => 'five']));
        $during = Auth::id();
        $resetter->reset();
        Facade::clearResolvedInstances();
        return ['during' => $during, 'after' => Auth::id(), 'check' => Auth::check()];
    },
    'session' => function (Application $app): array {
        $resetter = new Reset\SessionResetter($app);
        $app['redirect'];
        $app['session']->driver()->put('key', 'secret');
        $during = $app['session.store']->get('key');
        $resetter->reset();
        $store = $app['session.store'];
        $redirectStore = (fn () => $this->session)->call($app['redirect']);
        return ['during' => $during, 'after' => $app['session']->driver()->get('key'), 'store' => $store->get('key'), 'redirect has new store' => $redirectStore === $store];
    },
    'session kept while untouched' => function (Application $app): array {
        $resetter = new Reset\SessionResetter($app);
        $app['redirect'];
        $resetter->reset();
        $fresh = $app['session']->driver();
        // A request that never touches the session: the store stays.
        $resetter->reset();
        $keptWhenUntouched = $app['session']->driver() === $fresh;
        // A request that writes to it without starting it (no StartSession): a new store.
        $app['session']->driver()->put('key', 'secret');
        $resetter->reset();
        $afterPut = $app['session']->driver();
        $replacedAfterPut = $afterPut !== $fresh;
        // A request that only changes the id: a new store too.
        $afterPut->setId(str_repeat('a', 40));
        $resetter->reset();
        $replacedAfterNewId = $app['session']->driver() !== $afterPut;
        $redirectStore = (fn () => $this->session)->call($app['redirect']);
        return [
            'kept when untouched' => $keptWhenUntouched,
            'replaced after put' => $replacedAfterPut,
            'replaced after new id' => $replacedAfterNewId,
            'value after' => $app['session']->driver()->get('key'),
            'redirect has the store' => $redirectStore === $app['session']->driver(),
        ];
    },
    'cookie' => function (Application $app): array {
        $resetter = new Reset\CookieResetter($app);
        Cookie::queue('flavour', 'chocolate', 10);
        $during = count($app['cookie']->getQueuedCookies());
        $resetter->reset();
        return ['during' => $during, 'after' => count($app['cookie']->getQueuedCookies())];
    },
    'locale' => function (Application $app): array {
        $config = new Reset\ConfigResetter($app);
        $resetter = new Reset\LocaleResetter($app);
        App::setLocale('fr');
        Carbon::setLocale('fr');
        $during = [App::getLocale(), Carbon::getLocale(), trans('validation.required')];
        $config->reset();
        $resetter->reset();
        return ['during' => $during, 'after' => [App::getLocale(), Carbon::getLocale(), trans('validation.required')]];
    },
    'scoped' => function (Application $app): array {
        $app->scoped('per-request', fn () => new stdClass());
        $first = $app->make('per-request');
        $same = $first === $app->make('per-request');
        (new Reset\ScopedInstancesResetter($app))->reset();
        return ['same during' => $same, 'same after' => $first === $app->make('per-request')];
    },
    'facade' => function (Application $app): array {
        App::getLocale();
        $during = array_key_exists('app', StaticState::facadeInstances());
        (new Reset\FacadeResetter())->reset();
        return ['during' => $during, 'after' => StaticState::facadeInstances()];
    },
    'querylog' => function (Application $app): array {
        $resetter = new Reset\QueryLogResetter($app);
        $db = DB::connection('memory');
        $db->enableQueryLog();
        $db->select('select 1');
        $during = count($db->getQueryLog());
        $resetter->reset();
        $db->select('select 2');
        return ['during' => $during, 'after' => count($db->getQueryLog()), 'logging' => $db->logging()];
    },
    'transaction' => function (Application $app) use ($logger): array {
        $resetter = new Reset\TransactionResetter($app, $logger);
        $db = DB::connection('memory');
        $db->statement('create table laravel_reset_t (v int)');
        $db->beginTransaction();
        $db->beginTransaction();
        $db->insert('insert into laravel_reset_t values (1)');
        $during = $db->transactionLevel();
        $resetter->reset();
        return ['during' => $during, 'after' => $db->transactionLevel(), 'rows' => $db->table('laravel_reset_t')->count(), 'log' => $logger->lines];
    },
    'events' => function (Application $app): array {
        Event::listen('boot.event', fn () => null);
        $resetter = new Reset\EventListenerResetter($app);
        Event::listen('request.event', fn () => null);
        Event::listen('request.*', fn () => null);
        Event::listen('eloquent.booted: App\\Models\\Note', fn () => null);
        DB::listen(fn () => null);
        $during = [Event::hasListeners('request.event'), Event::hasListeners(Illuminate\Database\Events\QueryExecuted::class)];
        $resetter->reset();
        return ['during' => $during, 'after' => [
            Event::hasListeners('request.event'),
            Event::hasListeners('request.other'),
            Event::hasListeners(Illuminate\Database\Events\QueryExecuted::class),
            Event::hasListeners('boot.event'),
            Event::hasListeners('eloquent.booted: App\\Models\\Note'),
        ]];
    },
    'view' => function (Application $app): array {
        $resetter = new Reset\ViewResetter($app);
        View::share('leak', 'from the request');
        View::startSection('title', 'Left over');
        View::startPush('scripts', '<script></script>');
        View::incrementRender();
        $resetter->reset();
        $view = $app['view'];
        return ['shared' => array_keys($view->getShared()), 'sections' => $view->getSections(), 'stack' => $view->yieldPushContent('scripts'), 'done rendering' => $view->doneRendering()];
    },
    'validator' => function (Application $app): array {
        Validator::extend('boot_rule', fn () => true);
        $resetter = new Reset\ValidatorResetter($app);
        Validator::extend('request_rule', fn () => false);
        $during = Validator::make(['a' => 1], ['a' => 'request_rule'])->fails();
        $resetter->reset();
        Facade::clearResolvedInstances();
        $rules = (fn () => array_keys($this->extensions))->call($app['validator']);
        return ['during' => $during, 'rules after' => $rules];
    },
    'pagination' => function (Application $app): array {
        $resetter = new Reset\PaginationResetter();
        Paginator::currentPageResolver(fn () => 42);
        $during = Paginator::resolveCurrentPage();
        $resetter->reset();
        return ['during' => $during, 'after' => Paginator::resolveCurrentPage()];
    },
    'terminating' => function (Application $app): array {
        // The container's restore drops the callbacks a request added (the app keeps them).
        $resetter = new Reset\ContainerResetter($app);
        $calls = 0;
        $app->terminating(function () use (&$calls): void {
            ++$calls;
        });
        $app->terminate();
        $resetter->reset();
        $app->terminate();
        return ['calls' => $calls];
    },
    'request' => function (Application $app): array {
        $resetter = new Reset\RequestResetter($app);
        $url = $app['url'];
        $app['router']->get('/cart', fn () => 'cart')->name('cart');
        $request = Request::create('http://shop.test/cart?item=5');
        $app->instance('request', $request);
        $app['router']->dispatch($request);
        $during = [$url->current(), request('item'), Illuminate\Support\Facades\Route::currentRouteName()];
        $resetter->reset();
        return ['during' => $during, 'after' => [
            $url->current(),
            request('item'),
            $app['request']->fullUrl(),
            Illuminate\Support\Facades\Route::currentRouteName(),
            $app['router']->getCurrentRequest()->fullUrl(),
        ]];
    },
    'finished requests' => function (Application $app) use ($globals, $logger, $instance): array {
        $finished = new Spindle\Bridge\Laravel\FinishedRequests($globals, $logger, 0.01);
        $app['router']->get('/cart', fn () => 'cart')->name('cart');
        $serve = static function (string $uri) use ($app): WeakReference {
            $request = Request::create($uri);
            $app->instance('request', $request);
            $app['router']->dispatch($request);

            return WeakReference::create($request);
        };
        $seen = static fn (): array => [url()->current(), Illuminate\Support\Facades\Route::currentRouteName()];
        $result = [];

        // Lent to the next request: nothing to do, that request replaces it.
        $serve('http://shop.test/cart?item=1');
        $finished->ended($instance);
        $result['held after a request'] = $finished->held();
        $finished->lent($instance, false);
        $result['lent to a request'] = [$finished->held(), $seen()];

        // Lent to a task: it lets go first.
        $serve('http://shop.test/cart?item=2');
        $finished->ended($instance);
        $finished->lent($instance, true);
        $result['lent to a task'] = [$finished->held(), $seen()];

        // Left idle: the sweep lets go, and the request is freed.
        $request = $serve('http://shop.test/cart?item=3');
        $finished->ended($instance);
        $result['before the sweep'] = [$seen(), $request->get() !== null];
        Revolt\EventLoop::delay(0.2, static fn () => null);
        Revolt\EventLoop::run();
        $result['after the sweep'] = [$finished->held(), $seen(), $request->get() !== null];
        $result['errors'] = $logger->lines;

        return $result;
    },
    'finished requests freed at once' => function (Application $app) use ($globals, $logger, $instance): array {
        // Requests through the kernel and the lease, as a worker serves them: with the cookie
        // driver, StartSession links the request and its store both ways (the store's handler
        // holds the request). With the cycle collector off, a finished request must still be
        // freed once the next request takes its place in the instance.
        $app['config']->set('session.driver', 'cookie');
        $pool = new Spindle\Bridge\Laravel\InstancePool(static fn () => $instance, 1);
        $finished = new Spindle\Bridge\Laravel\FinishedRequests($globals, $logger);
        $serve = static function (string $uri) use ($pool, $globals, $logger, $finished): array {
            $lease = Spindle\Bridge\Laravel\Lease::take($pool, $globals, $logger, $finished);
            $request = Request::create($uri);
            $response = $lease->instance->kernel->handle($request);
            $lease->terminateWith($request, $response);
            $lease->end();

            return [WeakReference::create($request), $response->getContent()];
        };
        gc_disable();
        try {
            [$first, $one] = $serve('/session/put/one');
            [$second, $two] = $serve('/session/put/two');
            [$third] = $serve('/hello');

            return [
                'pages' => [$one, $two],
                'first freed' => $first->get() === null,
                'second freed' => $second->get() === null,
                'the last one is held by its instance' => $third->get() !== null,
                'errors' => $logger->lines,
            ];
        } finally {
            gc_enable();
        }
    },
    'log context' => function (Application $app): array {
        $resetter = new Reset\LogContextResetter($app);
        $context = static fn (): array => (fn () => $this->context)->call(Illuminate\Support\Facades\Log::driver());
        Illuminate\Support\Facades\Log::withContext(['request' => 'r1']);
        $during = $context();
        $resetter->reset();

        return ['during' => $during, 'after' => $context()];
    },
    'boot that waits' => function (Application $app) use ($factory, $globals, $instance): array {
        putenv('FIXTURE_BOOT_WAIT=0.05');
        $runner = new Spindle\Loop\TaskRunner(Spindle\Loop\Loop::driver());
        $second = null;
        $runner->run(new Spindle\Loop\Context('boot'), static function () use ($factory, &$second): void {
            $second = $factory->create();
        });
        putenv('FIXTURE_BOOT_WAIT');
        // While the boot waits, a request on the first instance runs and waits too.
        $runner->run(new Spindle\Loop\Context('request'), static function () use ($globals, $instance): void {
            $globals->activate($instance->state);
            Spindle\delay(0.01);
        });
        Revolt\EventLoop::run();
        $routes = static fn (Application $app): int => count($app['router']->getRoutes());
        $globals->activate($second->state);

        return [
            'routes of the second' => $routes($second->app) === $routes($instance->app),
            'facade root' => Facade::getFacadeApplication() === $second->app,
            'container' => Illuminate\Container\Container::getInstance() === $second->app,
        ];
    },
    'container' => function (Application $app): array {
        $resetter = new Reset\ContainerResetter($app);
        $rebinders = static fn (): int => count((fn () => $this->reboundCallbacks['request'] ?? [])->call($app));
        $before = $rebinders();
        $app->instance('leak.instance', new stdClass());
        $app->singleton('leak.singleton', fn () => new stdClass());
        $app->make('leak.singleton');
        $app->scoped('leak.scoped', fn () => new stdClass());
        $app->make('leak.scoped');
        $app->extend('files', fn ($files) => new ArrayObject());
        $app->alias('files', 'leak.alias');
        $app->resolving('leak.singleton', fn () => null);
        $app->terminating(fn () => null);
        // What a session guard does each time it is made (once per request after AuthResetter).
        for ($i = 0; $i < 100; $i++) {
            $app->rebinding('request', fn () => null);
        }
        $during = [$app->bound('leak.instance'), $app->resolved('leak.singleton'), $app->bound('leak.scoped'), $app->make('files') instanceof ArrayObject, $app->bound('leak.alias'), $rebinders() - $before];
        $resetter->reset();

        return [
            'during' => $during,
            'after' => [$app->bound('leak.instance'), $app->bound('leak.singleton'), $app->bound('leak.scoped'), $app->make('files') instanceof ArrayObject, $app->bound('leak.alias'), $rebinders() - $before],
            'files still works' => $app->make('files') instanceof Illuminate\Filesystem\Filesystem,
        ];
    },
    'pristine boot' => function (Application $app) use ($factory): array {
        // A running request on the first instance changed Carbon's locale and the time zone; an
        // instance booted meanwhile must not take them as its own starting point.
        Carbon::setLocale('pt');
        $zone = date_default_timezone_get();
        date_default_timezone_set('Asia/Tokyo');
        $second = $factory->create();
        $inSecond = Carbon::getLocale();
        $second->reset(new ScenarioLogger());

        return ['booted with' => $inSecond, 'after its reset' => Carbon::getLocale(), 'request zone kept' => date_default_timezone_get(), 'zone' => $zone === 'Asia/Tokyo'];
    },
    'globals' => function (Application $app) use ($globals, $factory, $instance): array {
        // A second instance of the same app: its own container, facades, Eloquent resolver and Carbon locale.
        $second = $factory->create();
        Carbon::setLocale('de');
        $secondView = View::getFacadeRoot();
        $globals->activate($instance->state);
        $afterFirst = [
            'container' => Illuminate\Container\Container::getInstance() === $instance->app,
            'facade root' => Facade::getFacadeApplication() === $instance->app,
            'view' => View::getFacadeRoot() === $instance->app['view'],
            'eloquent' => Illuminate\Database\Eloquent\Model::getConnectionResolver() === $instance->app['db'],
            'carbon' => Carbon::getLocale(),
        ];
        $globals->activate($second->state);
        $afterSecond = [
            'container' => Illuminate\Container\Container::getInstance() === $second->app,
            'facade root' => Facade::getFacadeApplication() === $second->app,
            'view' => View::getFacadeRoot() === $secondView && $secondView === $second->app['view'],
            'eloquent' => Illuminate\Database\Eloquent\Model::getConnectionResolver() === $second->app['db'],
            'carbon' => Carbon::getLocale(),
        ];
        return ['first' => $afterFirst, 'second' => $afterSecond, 'different apps' => $instance->app !== $second->app];
    },
    'forgotten' => function (Application $app) use ($globals, $factory, $instance): array {
        // An instance let go while its statics are current: they go back to their defaults, and
        // nothing process-wide keeps the instance (Laravel 8 aside: HandleExceptions is handled
        // by ReleasedInstances).
        $second = $factory->create();
        $globals->activate($second->state);
        Carbon::setLocale('de');
        $globals->forget($second->state);
        $after = [
            'container' => Illuminate\Container\Container::getInstance() === null || Illuminate\Container\Container::getInstance() !== $second->app,
            'facade root' => Facade::getFacadeApplication(),
            'carbon' => Carbon::getLocale(),
            'artisan bootstrappers' => (fn () => static::$bootstrappers)->bindTo(null, Illuminate\Console\Application::class)(),
        ];
        $globals->activate($instance->state);
        $after['first again'] = Facade::getFacadeApplication() === $instance->app;

        return $after;
    },
];

$name = $argv[1] ?? '';
if (!isset($scenarios[$name])) {
    fwrite(STDERR, "Unknown scenario $name\n");
    exit(2);
}
echo json_encode($scenarios[$name]($app), JSON_THROW_ON_ERROR);
