<?php

declare(strict_types=1);

namespace Spindle\Tests\Replay;

use PHPUnit\Framework\Assert;

/**
 * Runs a replay script in a PHP child process (a fixture brings its own framework and autoloader)
 * and gives what it printed on stdout, decoded from JSON. Its stderr goes to a file: a child that
 * logs much would fill a pipe left unread while stdout is read, and both would wait for ever.
 */
final class ReplayProcess
{
    /**
     * @param list<string> $arguments
     *
     * @return array<mixed> the JSON the script printed
     */
    public static function run(string $script, array $arguments): array
    {
        $errors = \tmpfile();
        Assert::assertIsResource($errors);
        $process = \proc_open([\PHP_BINARY, $script, ...$arguments], [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => $errors], $pipes);
        Assert::assertIsResource($process);
        $out = (string) \stream_get_contents($pipes[1]);
        $status = \proc_close($process);
        \rewind($errors);
        $err = (string) \stream_get_contents($errors);
        Assert::assertSame(0, $status, $out . $err);
        $decoded = \json_decode($out, true);
        Assert::assertIsArray($decoded, $out . $err);

        return $decoded;
    }
}
