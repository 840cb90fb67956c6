<?php

declare(strict_types=1);

// Runs one scenario of ModernResetterTest against a booted instance of a Laravel fixture app
// (argv[1]: laravel12-app or laravel-app) and prints what it observed as JSON. A child process,
// since each fixture brings its own Laravel and autoloader.

use Carbon\Carbon;
use Carbon\CarbonImmutable;
use Illuminate\Foundation\Application;
use Illuminate\Support\Facades\Context;
use Illuminate\Support\Facades\Log;
use Illuminate\Support\Facades\Vite;
use Illuminate\Support\Number;
use Illuminate\Support\Str;
use Spindle\Bridge\Laravel\InstanceFactory;
use Spindle\Bridge\Laravel\ProcessGlobals;
use Spindle\Bridge\Laravel\Reset;

$fixture = dirname(__DIR__, 4) . '/tests/fixtures/' . ($argv[1] ?? '');
require $fixture . '/vendor/autoload.php';

if (($argv[2] ?? '') === 'resetters and statics') {
    // The fixture registers Livewire and declares its own state only when asked.
    putenv('FIXTURE_LIVEWIRE=1');
    putenv('FIXTURE_APP_STATE=1');
}

$globals = new ProcessGlobals();
$factory = new InstanceFactory($fixture, $globals, new Psr\Log\NullLogger());
$instance = $factory->create();

/** @var array<string, Closure(Application): array<string, mixed>> $scenarios */
$scenarios = [
    'context' => function (Application $app): array {
        $resetter = new Reset\ContextResetter($app);
        $repository = $app->make(Illuminate\Log\Context\Repository::class);
        Context::add('tag', 'one');
        Context::addHidden('secret', 'two');
        $during = [Context::all(), Context::allHidden()];
        $resetter->reset();
        return ['during' => $during, 'after' => [$repository->all(), $repository->allHidden()]];
    },
    'log context' => function (Application $app): array {
        $resetter = new Reset\LogContextResetter($app);
        Log::shareContext(['shared' => 1]);
        $channel = Log::channel();
        $channel->withContext(['channel' => 2]);
        $read = fn (): array => (fn (): array => $this->context)->call($channel);
        $during = [Log::sharedContext(), $read()];
        $resetter->reset();
        return ['during' => $during, 'after' => [Log::sharedContext(), $read()]];
    },
    'deferred' => function (Application $app): array {
        $resetter = new Reset\DeferredCallbacksResetter($app);
        $calls = 0;
        defer(function () use (&$calls): void {
            ++$calls;
        });
        $collection = $app->make(Illuminate\Support\Defer\DeferredCallbackCollection::class);
        $during = count($collection);
        $resetter->reset();
        $collection->invoke();
        return ['during' => $during, 'after' => count($collection), 'calls' => $calls];
    },
    'once' => function (Application $app): array {
        $resetter = new Reset\OnceResetter();
        $value = fn (): string => once(fn (): string => bin2hex(random_bytes(8)));
        $first = $value();
        $during = $first === $value();
        $resetter->reset();
        return ['same during' => $during, 'same after' => $first === $value()];
    },
    'hooks' => function (Application $app): array {
        Number::useLocale('de');
        $resetter = new Reset\SupportHooksResetter();
        Number::useLocale('fr');
        Number::useCurrency('EUR');
        Str::createUuidsUsing(fn () => Ramsey\Uuid\Uuid::fromString('00000000-0000-0000-0000-000000000000'));
        Str::createUlidsUsing(fn () => new Symfony\Component\Uid\Ulid('01ARZ3NDEKTSV4RRFFQ69G5FAV'));
        Str::createRandomStringsUsing(fn (int $length) => str_repeat('x', $length));
        $during = [Number::defaultLocale(), Number::defaultCurrency(), (string) Str::uuid(), (string) Str::ulid(), Str::random(3)];
        $resetter->reset();
        return [
            'during' => $during,
            // The locale set while booting stays.
            'after' => [Number::defaultLocale(), Number::defaultCurrency(), (string) Str::uuid() !== $during[2], (string) Str::ulid() !== $during[3], Str::random(3) !== 'xxx'],
        ];
    },
    'vite' => function (Application $app): array {
        Vite::useBuildDirectory('booted-build');
        $resetter = new Reset\ViteResetter($app);
        Vite::useCspNonce('one-request');
        Vite::useBuildDirectory('changed');
        $during = [Vite::cspNonce()];
        $resetter->reset();
        $dir = (fn () => $this->buildDirectory)->call($app->make(Illuminate\Foundation\Vite::class));
        return ['during' => $during[0], 'after' => [Vite::cspNonce(), $dir]];
    },
    'vite resolved during a request' => function (Application $app): array {
        // As if nothing had resolved Vite while the app booted.
        $vite = Illuminate\Foundation\Vite::class;
        $app->forgetInstance($vite);
        (function () use ($vite): void {
            unset($this->resolved[$vite]);
        })->call($app);
        Illuminate\Support\Facades\Facade::clearResolvedInstances();
        $resetter = new Reset\ViteResetter($app);
        Vite::useCspNonce('one-request');
        $resetter->reset();
        Illuminate\Support\Facades\Facade::clearResolvedInstances();
        $kept = (fn (): bool => isset($this->instances[$vite]))->call($app);
        return ['kept after' => $kept, 'nonce' => Vite::cspNonce()];
    },
    'carbon' => function (Application $app): array {
        $resetter = new Reset\CarbonTestNowResetter();
        Carbon::setTestNow('2001-02-03 04:05:06');
        CarbonImmutable::setTestNow('2001-02-03 04:05:06');
        $during = [Carbon::now()->year, CarbonImmutable::now()->year, now()->year];
        $resetter->reset();
        return ['during' => $during, 'after' => [Carbon::hasTestNow(), CarbonImmutable::hasTestNow(), now()->year === (int) gmdate('Y')]];
    },
    'statics' => function (Application $app) use ($globals, $factory, $instance): array {
        // Two instances, each with its own once() cache, Number locale and Str factory.
        $token = static fn (): string => once(static fn (): string => bin2hex(random_bytes(8)));
        Number::useLocale('fr');
        $firstToken = $token();
        $second = $factory->create();
        Number::useLocale('de');
        Str::createRandomStringsUsing(fn (int $length) => str_repeat('y', $length));
        $secondToken = $token();
        $globals->activate($instance->state);
        $first = [Number::defaultLocale(), Str::random(2) !== 'yy', $token() === $firstToken];
        $globals->activate($second->state);
        $back = [Number::defaultLocale(), Str::random(2), $token() === $secondToken];
        return ['first' => $first, 'second' => $back, 'different tokens' => $firstToken !== $secondToken];
    },
    'resetters and statics' => function (Application $app) use ($instance): array {
        // The instance's resetters, in order (the app's by their class), and whether the swapped
        // statics cover Livewire's and the app's.
        $resetters = (fn (): array => $this->resetters)->call($instance);
        $names = array_map(static fn (Reset\Resetter $resetter): string => $resetter instanceof Reset\AppResetter ? $resetter->class : (new ReflectionClass($resetter))->getShortName(), $resetters);
        $statics = (fn (): Spindle\Bridge\Laravel\SupportStatics => $this->statics)->call($instance->state)->names();
        return [
            'resetters' => $names,
            'livewire stack swapped' => in_array('Livewire\Mechanisms\HandleComponents\HandleComponents::$componentStack', $statics, true),
            'app static swapped' => in_array('App\PerInstance::$value', $statics, true),
            'statics' => count($statics),
        ];
    },
    'app resetter errors' => function (Application $app) use ($instance): array {
        $refused = [];
        foreach ([['NoSuchClass'], [stdClass::class], ['one' => App\Spindle\ClearTally::class]] as $entries) {
            $app['config']->set('spindle.resetters', $entries);
            try {
                Reset\AppResetter::fromConfig($app);
                $refused[] = 'accepted';
            } catch (InvalidArgumentException $e) {
                $refused[] = $e->getMessage();
            }
        }
        // A resetter that throws is logged under its class and the instance reported unclean.
        $app['config']->set('spindle.resetters', [App\Spindle\ClearTally::class]);
        $app->instance(App\Tally::class, 'not a tally');
        $logger = new class () extends Psr\Log\AbstractLogger {
            /** @var list<string> */
            public array $lines = [];
            public function log($level, string|Stringable $message, array $context = []): void
            {
                $this->lines[] = $level . ': ' . $message;
            }
        };
        $instance = new Spindle\Bridge\Laravel\AppInstance(9, $app, $instance->kernel, $instance->state, Reset\AppResetter::fromConfig($app));
        return ['refused' => $refused, 'clean' => $instance->reset($logger), 'log' => $logger->lines];
    },
    'older laravel' => function (Application $app): array {
        // On a Laravel that lacks Context, defer(), once(), Number or Vite, each resetter does nothing.
        $ran = [];
        foreach ([
            new Reset\ContextResetter($app),
            new Reset\LogContextResetter($app),
            new Reset\DeferredCallbacksResetter($app),
            new Reset\OnceResetter(),
            new Reset\SupportHooksResetter(),
            new Reset\ViteResetter($app),
            new Reset\CarbonTestNowResetter(),
        ] as $resetter) {
            $resetter->reset();
            $ran[] = (new ReflectionClass($resetter))->getShortName();
        }
        return ['version' => (int) $app->version(), 'ran' => count($ran)];
    },
];

$name = $argv[2] ?? '';
if (!isset($scenarios[$name])) {
    fwrite(STDERR, "Unknown scenario $name\n");
    exit(2);
}
echo json_encode($scenarios[$name]($instance->app), JSON_THROW_ON_ERROR);
