<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

/**
 * Puts the running command into the background for `spindle serve --daemon`.
 *
 * detach() returns only in the daemon. The process that called it exits with status 0 right
 * after the first fork (the shell gets its prompt back); the first child starts a new session
 * with posix_setsid() and forks again, so the daemon is not a session leader and can never
 * acquire a controlling terminal; that intermediate process then ends.
 *
 * The daemon gets /dev/null as stdin and the log file (appended to) as stdout and stderr.
 * PHP cannot dup2() a descriptor, so the streams are re-pointed by closing them and opening
 * files in order: the kernel hands out the lowest free descriptor, so with 0, 1 and 2 closed,
 * /dev/null becomes 0 and the log file 1 and 2. The STDIN, STDOUT and STDERR constants stay
 * bound to the closed streams, though (fwrite(STDERR, …) would throw a TypeError), so the
 * daemon then re-executes its own command line with pcntl_exec(): same pid, and the new
 * PHP image builds STDIN/STDOUT/STDERR on descriptors 0, 1 and 2. In that image, detach()
 * (called again on the same path through the program) returns at once. Everything the
 * program does before detach() therefore runs twice (in the foreground, then in the daemon),
 * so call it early, before opening sockets, pid files or writing anything. The command line
 * comes from /proc/self/cmdline, so php -d options are kept; where /proc is missing it is
 * PHP_BINARY plus $argv, without them.
 *
 * The working directory is kept (no chdir('/')): the application path, --static-dir and
 * similar options may be relative to it. The umask is kept as well.
 */
final class Daemon
{
    /** The pid allowed to return from detach() after the re-execution. */
    private const ENVIRONMENT = 'SPINDLE_DAEMON_PID';

    public static function detach(string $logFile): void
    {
        if (\getenv(self::ENVIRONMENT) === (string) \posix_getpid()) {
            \putenv(self::ENVIRONMENT);

            return;
        }
        // Errors found here still reach the terminal.
        $probe = @\fopen($logFile, 'ab');
        if ($probe === false) {
            throw new ControlError(\sprintf('Cannot open the log file %s: %s', $logFile, \error_get_last()['message'] ?? 'unknown error'));
        }
        \fclose($probe);
        $command = self::commandLine();
        // Output still buffered would be written by both processes after the fork.
        while (\ob_get_level() > 0 && @\ob_end_flush()) {
        }

        $pid = \pcntl_fork();
        if ($pid === -1) {
            throw new ControlError('Cannot fork to detach: ' . \pcntl_strerror(\pcntl_get_last_error()));
        }
        if ($pid > 0) {
            exit(0);
        }

        if (\posix_setsid() === -1) {
            \fwrite(\STDERR, 'Spindle: cannot start a new session: ' . \posix_strerror(\posix_get_last_error()) . "\n");
            exit(1);
        }
        $pid = \pcntl_fork();
        if ($pid === -1) {
            \fwrite(\STDERR, 'Spindle: cannot fork the daemon: ' . \pcntl_strerror(\pcntl_get_last_error()) . "\n");
            exit(1);
        }
        if ($pid > 0) {
            // Ends without PHP's shutdown, so destructors and shutdown functions of the program
            // run once (in the foreground process), not once more here.
            \posix_kill(\posix_getpid(), \SIGKILL);
            exit(0);
        }

        // The daemon. Close every stream this image has (STDIN, STDOUT and STDERR included, and
        // copies of the terminal such as php://stdout) so the next three opens get 0, 1 and 2.
        foreach (\get_resources('stream') as $stream) {
            @\fclose($stream);
        }
        $stdin = @\fopen('/dev/null', 'rb');
        $stdout = @\fopen($logFile, 'ab');
        $stderr = @\fopen($logFile, 'ab');
        if ($stdin === false || $stdout === false || $stderr === false) {
            exit(1);
        }
        \putenv(self::ENVIRONMENT . '=' . \posix_getpid());
        @\pcntl_exec($command[0], \array_slice($command, 1));
        \fwrite($stderr, \sprintf(
            "Spindle: cannot re-execute %s in the background: %s\n",
            $command[0],
            \pcntl_strerror(\pcntl_get_last_error()),
        ));
        exit(1);
    }

    /** @return non-empty-list<string> the program and its arguments, as this process was started */
    private static function commandLine(): array
    {
        $cmdline = @\file_get_contents('/proc/self/cmdline');
        if (\is_string($cmdline) && \str_ends_with($cmdline, "\0")) {
            $arguments = \explode("\0", \substr($cmdline, 0, -1));
            \array_shift($arguments);

            return [\PHP_BINARY, ...$arguments];
        }
        $argv = $_SERVER['argv'] ?? null;
        if (!\is_array($argv) || $argv === []) {
            throw new ControlError('Cannot detach: the command line of this process is unknown');
        }

        return [\PHP_BINARY, ...\array_map('strval', \array_values($argv))];
    }
}
