<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit;

use PHPUnit\Framework\TestCase;

/**
 * The shell scripts of scripts/ run with `set -o pipefail`. There, `cmd | grep -q x` fails at
 * random: grep exits at its first match, and cmd, if it still writes, dies of SIGPIPE, which
 * pipefail turns into a failure of the whole pipeline (scripts/demo said "PHP extension
 * pdo_sqlite is required" on a loaded machine that had it). Read the output whole first.
 */
final class ScriptsTest extends TestCase
{
    public function testNoEarlyExitingGrepAtTheEndOfAPipe(): void
    {
        $scripts = \glob(\dirname(__DIR__, 2) . '/scripts/*') ?: [];
        self::assertNotSame([], $scripts);
        foreach ($scripts as $script) {
            $text = (string) \file_get_contents($script);
            if (!\str_contains($text, 'pipefail')) {
                continue;
            }
            foreach (\explode("\n", $text) as $number => $line) {
                if (\str_starts_with(\ltrim($line), '#')) {
                    continue;
                }
                self::assertDoesNotMatchRegularExpression(
                    '/\|\s*grep\s+(-\w*[qm]|--quiet|--max-count)/',
                    $line,
                    \sprintf('%s:%d pipes into a grep that stops reading early', \basename($script), $number + 1),
                );
            }
        }
    }
}
