<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http\WebSocket;

use PHPUnit\Framework\TestCase;
use Spindle\Http\WebSocket\WebSocketLimits;
use Spindle\Tests\Support\WebSocket\AutobahnCases;
use Spindle\Tests\Support\WebSocket\AutobahnRunner;
use Spindle\Tests\Support\WebSocket\CaseTransport;
use Spindle\Tests\Support\WebSocket\InMemoryEchoTransport;

/**
 * Autobahn|Testsuite sections 1–10 (translated into data: tests/Support/WebSocket) against a
 * WebSocketSession with an echo app. Every case must get the suite's strict verdict, OK for the
 * events and OK for the close (the informational cases 7.1.6, 7.13.1 and 7.13.2 pass whatever
 * they see). Section 9's sizes are divided by 4 here (messages up to 4 MiB); the full sizes run
 * with tests/Support/WebSocket/autobahn-report.php.
 */
final class AutobahnSuiteTest extends TestCase
{
    /** @return array<string, array{int, int}> section, case count */
    public static function sections(): array
    {
        return AutobahnCases::SECTIONS;
    }

    /** @dataProvider sections */
    public function testEveryCaseOfTheSectionGetsTheStrictVerdict(int $section, int $count): void
    {
        $limits = new WebSocketLimits(16 << 20, 16 << 20, 65536);
        [$cases, $failures] = (new AutobahnRunner())->strictFailures($section, 4, static fn (): InMemoryEchoTransport => new InMemoryEchoTransport($limits));
        self::assertSame($count, $cases, "section {$section}'s case count");
        self::assertSame([], $failures, "section {$section}");
    }

    public function testTheRunnerFailsAServerThatDoesNotAnswer(): void
    {
        $silent = new class () implements CaseTransport {
            public function send(string $bytes): void
            {
            }

            public function receive(float $timeout): string
            {
                return '';
            }

            public function isClosed(): bool
            {
                return false;
            }

            public function close(): void
            {
            }
        };
        $runner = new AutobahnRunner(0.0);
        foreach ([1, 2, 3, 6] as $section) {
            foreach (AutobahnCases::section($section) as $case) {
                self::assertFalse($runner->run($case, clone $silent)->passed(), $case->id);
            }
        }
    }

    public function testTheRunnerFailsAServerThatEchoesWithoutChecking(): void
    {
        // Echoes every frame's payload back as a text message and closes with 1000 when told to:
        // no RSV, opcode, UTF-8 or close code checks.
        $naive = new class () implements CaseTransport {
            private string $out = '';
            private bool $closed = false;

            public function send(string $bytes): void
            {
                while (\strlen($bytes) >= 6 && !$this->closed) {
                    $length = \ord($bytes[1]) & 0x7F;
                    if ($length >= 126 || \strlen($bytes) < 6 + $length) {
                        return;
                    }
                    $payload = \substr($bytes, 6, $length) ^ \str_repeat(\substr($bytes, 2, 4), 32);
                    $opcode = \ord($bytes[0]) & 0x0F;
                    $this->out .= $opcode === 8 ? "\x88\x02\x03\xe8" : "\x81" . \chr($length) . $payload;
                    $this->closed = $opcode === 8;
                    $bytes = \substr($bytes, 6 + $length);
                }
            }

            public function receive(float $timeout): string
            {
                [$out, $this->out] = [$this->out, ''];

                return $out;
            }

            public function isClosed(): bool
            {
                return $this->closed && $this->out === '';
            }

            public function close(): void
            {
            }
        };
        $runner = new AutobahnRunner(0.0);
        $failed = [];
        foreach ([3, 4, 6, 7] as $section) {
            foreach (AutobahnCases::section($section) as $case) {
                if (!$runner->run($case, clone $naive)->passed()) {
                    $failed[] = $case->id;
                }
            }
        }
        foreach (['3.1', '4.1.1', '6.3.1', '6.5.2', '7.3.2', '7.9.1'] as $id) {
            self::assertContains($id, $failed);
        }
    }
}
