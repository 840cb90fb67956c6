<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Loop;

use PHPUnit\Framework\TestCase;
use Spindle\Loop\EventLoopKind;

/** Libc::raiseDescriptorLimit(), in a child process started with a soft limit of 100 and a hard one of 300. */
final class DescriptorLimitTest extends TestCase
{
    public function testTheSoftLimitRisesTowardTheHardLimitAndNoFurther(): void
    {
        $problem = EventLoopKind::epollProblem();
        if ($problem !== null) {
            self::markTestSkipped($problem);
        }
        if (!\is_executable('/usr/bin/prlimit')) {
            self::markTestSkipped('needs prlimit (util-linux)');
        }
        $code = 'require ' . \var_export(\dirname(__DIR__, 3) . '/vendor/autoload.php', true) . ';'
            . '$libc = Spindle\Loop\Driver\Epoll\Libc::load();'
            . 'echo $libc->raiseDescriptorLimit(50), " ", $libc->raiseDescriptorLimit(200), " ", $libc->raiseDescriptorLimit(1000), " ", trim((string) shell_exec("ulimit -n"));';
        $output = \shell_exec('/usr/bin/prlimit --nofile=100:300 ' . \escapeshellarg(\PHP_BINARY) . ' -r ' . \escapeshellarg($code) . ' 2>&1');
        // Already enough (100), raised to what was asked (200), held at the hard limit (300),
        // and a child process inherits the raised limit.
        self::assertSame('100 200 300 300', $output);
    }
}
