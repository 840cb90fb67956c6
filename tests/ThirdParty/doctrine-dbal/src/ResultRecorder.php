<?php

declare(strict_types=1);

namespace Spindle\Tests\ThirdParty\DoctrineDbal;

use PHPUnit\Event\Code\Test;
use PHPUnit\Event\Event;
use PHPUnit\Event\Test as TestEvent;
use PHPUnit\Event\TestRunner\ExecutionFinished;
use PHPUnit\Event\Tracer\Tracer;
use PHPUnit\Runner\Extension\Extension;
use PHPUnit\Runner\Extension\Facade;
use PHPUnit\Runner\Extension\ParameterCollection;
use PHPUnit\TextUI\Configuration\Configuration;

/**
 * A PHPUnit extension that writes every test's outcome to the JSON file named by
 * SPINDLE_DBAL_RESULTS: {"Class::method#data": {"outcome": "passed|failed|errored|skipped|
 * incomplete", "message": "…", "issues": ["php-warning: …", …]}}. Issues are what PHPUnit reports
 * beside the outcome (PHP warnings, notices and deprecations, risky tests): a test that passes
 * with a new warning is not the same as a clean pass, which JUnit XML would not show.
 */
final class ResultRecorder implements Extension, Tracer
{
    private const ISSUES = [
        TestEvent\ConsideredRisky::class => 'risky',
        TestEvent\DeprecationTriggered::class => 'deprecation',
        TestEvent\ErrorTriggered::class => 'error',
        TestEvent\NoticeTriggered::class => 'notice',
        TestEvent\WarningTriggered::class => 'warning',
        TestEvent\PhpDeprecationTriggered::class => 'php-deprecation',
        TestEvent\PhpNoticeTriggered::class => 'php-notice',
        TestEvent\PhpWarningTriggered::class => 'php-warning',
        TestEvent\PhpunitDeprecationTriggered::class => 'phpunit-deprecation',
        TestEvent\PhpunitErrorTriggered::class => 'phpunit-error',
        TestEvent\PhpunitWarningTriggered::class => 'phpunit-warning',
    ];

    private string $file = '';

    /** @var array<string, array{outcome: string, message: string, issues: list<string>}> */
    private array $results = [];

    public function bootstrap(Configuration $configuration, Facade $facade, ParameterCollection $parameters): void
    {
        $file = getenv('SPINDLE_DBAL_RESULTS');
        if (\is_string($file) && $file !== '') {
            $this->file = $file;
            $facade->registerTracer($this);
        }
    }

    public function trace(Event $event): void
    {
        match (true) {
            $event instanceof TestEvent\Passed => $this->outcome($event->test(), 'passed', ''),
            $event instanceof TestEvent\Failed => $this->outcome($event->test(), 'failed', $event->throwable()->asString()),
            $event instanceof TestEvent\Errored => $this->outcome($event->test(), 'errored', $event->throwable()->asString()),
            $event instanceof TestEvent\Skipped => $this->outcome($event->test(), 'skipped', $event->message()),
            $event instanceof TestEvent\MarkedIncomplete => $this->outcome($event->test(), 'incomplete', $event->throwable()->asString()),
            $event instanceof ExecutionFinished => $this->write(),
            isset(self::ISSUES[$event::class]) => $this->issue($event),
            default => null,
        };
    }

    private function outcome(Test $test, string $outcome, string $message): void
    {
        $result = &$this->result($test);
        // A failure in tearDown after a pass, or an error after a failure: the worst one counts.
        if ($result['outcome'] === '' || $result['outcome'] === 'passed') {
            $result['outcome'] = $outcome;
            $result['message'] = $message;
        }
    }

    private function issue(Event $event): void
    {
        \assert(method_exists($event, 'test') && method_exists($event, 'message'));
        if (method_exists($event, 'wasSuppressed') && $event->wasSuppressed()) {
            return;
        }
        $this->result($event->test())['issues'][] = self::ISSUES[$event::class] . ': ' . $event->message();
    }

    /** @return array{outcome: string, message: string, issues: list<string>} */
    private function &result(Test $test): array
    {
        $this->results[$test->id()] ??= ['outcome' => '', 'message' => '', 'issues' => []];

        return $this->results[$test->id()];
    }

    private function write(): void
    {
        file_put_contents($this->file, json_encode($this->results, \JSON_PRETTY_PRINT | \JSON_UNESCAPED_SLASHES | \JSON_INVALID_UTF8_SUBSTITUTE | \JSON_THROW_ON_ERROR));
    }
}
