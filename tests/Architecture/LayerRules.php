<?php

declare(strict_types=1);

namespace Spindle\Tests\Architecture;

use PHPat\Selector\Selector;
use PHPat\Test\Builder\Rule;
use PHPat\Test\PHPat;

/**
 * The allowed dependencies between Spindle's layers (docs/architecture.md), checked by PHPStan
 * through phpat in the test command: a dependency against them fails CI.
 *
 * Loop is the lowest layer; Http stands on Loop; Database, Redis and HttpClient on Loop only;
 * Server on Http and Loop; Supervisor on Server; Bridge on Server, Http and the clients.
 * Http hands each request to an Http\RequestDispatcher, which Server\RequestRunner implements:
 * Http knows nothing above it. Bridge's artisan command and Symfony runner start the master, as
 * the framework's entry points. (Server knows no framework: the worker boots its app
 * through Server\ApplicationFactory, which bin/spindle and the runners fill with Bridge\AppFactory.)
 */
final class LayerRules
{
    private const ALL = ['Loop', 'Http', 'Server', 'Supervisor', 'Bridge', 'Database', 'Redis', 'HttpClient', 'Metrics'];

    public function testLoopDependsOnNoOtherLayer(): Rule
    {
        return self::layer('Loop')->shouldNotDependOn()->classes(...self::others('Loop'));
    }

    public function testHttpStandsOnLoopOnly(): Rule
    {
        return self::layer('Http')->shouldNotDependOn()->classes(...self::except('Http', 'Loop'));
    }

    public function testTheClientsStandOnLoopOnly(): Rule
    {
        return PHPat::rule()
            ->classes(Selector::inNamespace('Spindle\Database'), Selector::inNamespace('Spindle\Redis'), Selector::inNamespace('Spindle\HttpClient'))
            ->shouldNotDependOn()
            ->classes(...self::selectors(['Http', 'Server', 'Supervisor', 'Bridge', 'Metrics']));
    }

    public function testDatabaseRedisAndHttpClientDoNotDependOnEachOther(): Rule
    {
        return self::layer('Database')->shouldNotDependOn()->classes(...self::selectors(['Redis', 'HttpClient']));
    }

    public function testServerDependsOnNeitherSupervisorNorBridge(): Rule
    {
        return self::layer('Server')->shouldNotDependOn()->classes(...self::selectors(['Supervisor', 'Bridge']));
    }

    public function testSupervisorDoesNotDependOnBridge(): Rule
    {
        return self::layer('Supervisor')->shouldNotDependOn()->classes(...self::selectors(['Bridge']));
    }

    /**
     * The framework entry points are composition roots of their own — `artisan spindle:serve` and
     * the Symfony Runtime's runner start the master as bin/spindle does, and the service provider
     * registers the artisan commands (serve, status, stop, reload) — and nothing else in Bridge may
     * reach Supervisor.
     */
    public function testOnlyTheFrameworkEntryPointsOfBridgeStartTheSupervisor(): Rule
    {
        return self::layer('Bridge')
            ->excluding(
                Selector::classname(\Spindle\Bridge\Laravel\ServeArtisanCommand::class),
                Selector::classname(\Spindle\Bridge\Laravel\SpindleServiceProvider::class),
                Selector::classname(\Spindle\Bridge\Symfony\ServerRunner::class),
            )
            ->shouldNotDependOn()
            ->classes(...self::selectors(['Supervisor']));
    }

    public function testMetricsDependOnNoOtherLayer(): Rule
    {
        return self::layer('Metrics')->shouldNotDependOn()->classes(...self::others('Metrics'));
    }

    private static function layer(string $name): \PHPat\Test\Builder\SubjectExcludeOrConstraintStep
    {
        return PHPat::rule()->classes(Selector::inNamespace('Spindle\\' . $name));
    }

    /** @return list<\PHPat\Selector\SelectorInterface> */
    private static function others(string $layer): array
    {
        return self::except($layer);
    }

    /** @return list<\PHPat\Selector\SelectorInterface> */
    private static function except(string ...$allowed): array
    {
        return self::selectors(\array_values(\array_diff(self::ALL, $allowed)));
    }

    /**
     * @param list<string> $layers
     *
     * @return list<\PHPat\Selector\SelectorInterface>
     */
    private static function selectors(array $layers): array
    {
        return \array_map(static fn (string $layer) => Selector::inNamespace('Spindle\\' . $layer), $layers);
    }
}
