<?php

declare(strict_types=1);

namespace Spindle\Tests\ThirdParty\Guzzle;

use PHPUnit\Framework\AssertionFailedError;
use PHPUnit\Framework\Test;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\TestListener;
use PHPUnit\Framework\TestListenerDefaultImplementation;
use PHPUnit\Framework\Warning;

/**
 * A PHPUnit 9 listener that writes every test's outcome to the JSON file named by
 * SPINDLE_GUZZLE_RESULTS: {"Class::method with data set …": {"outcome": "passed|failed|errored|
 * skipped|incomplete|risky|warning", "message": "…"}}. The worst outcome of a test counts.
 */
final class ResultRecorder implements TestListener
{
    use TestListenerDefaultImplementation;

    private const RANK = ['passed' => 0, 'skipped' => 1, 'incomplete' => 2, 'risky' => 3, 'warning' => 4, 'failed' => 5, 'errored' => 6];

    /** @var array<string, array{outcome: string, message: string}> */
    private array $results = [];

    public function __construct(private readonly string $file = '')
    {
    }

    public function addError(Test $test, \Throwable $t, float $time): void
    {
        $this->record($test, 'errored', $t::class . ': ' . $t->getMessage());
    }

    public function addWarning(Test $test, Warning $e, float $time): void
    {
        $this->record($test, 'warning', $e->getMessage());
    }

    public function addFailure(Test $test, AssertionFailedError $e, float $time): void
    {
        $this->record($test, 'failed', $e->getMessage());
    }

    public function addIncompleteTest(Test $test, \Throwable $t, float $time): void
    {
        $this->record($test, 'incomplete', $t->getMessage());
    }

    public function addRiskyTest(Test $test, \Throwable $t, float $time): void
    {
        $this->record($test, 'risky', $t->getMessage());
    }

    public function addSkippedTest(Test $test, \Throwable $t, float $time): void
    {
        $this->record($test, 'skipped', $t->getMessage());
    }

    public function endTest(Test $test, float $time): void
    {
        $this->record($test, 'passed', '');
        $this->write();
    }

    private function record(Test $test, string $outcome, string $message): void
    {
        $name = $test instanceof TestCase ? $test::class . '::' . $test->getName(true) : $test::class;
        $known = $this->results[$name] ?? null;
        if ($known === null || self::RANK[$outcome] > self::RANK[$known['outcome']]) {
            $this->results[$name] = ['outcome' => $outcome, 'message' => $message];
        }
    }

    private function write(): void
    {
        $file = $this->file !== '' ? $this->file : (string) getenv('SPINDLE_GUZZLE_RESULTS');
        if ($file !== '') {
            file_put_contents($file, json_encode($this->results, \JSON_PRETTY_PRINT | \JSON_UNESCAPED_SLASHES | \JSON_INVALID_UTF8_SUBSTITUTE | \JSON_THROW_ON_ERROR));
        }
    }
}
