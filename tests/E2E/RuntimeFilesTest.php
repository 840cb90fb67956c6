<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Supervisor\PidFile;
use Spindle\Tests\E2E\Support\BackgroundCommand;
use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * The pid file and control socket against another local user, with real servers: the default
 * place is a directory private to the server's user, symlinks planted where a server writes are
 * not followed (the server runs as root here), a pid file naming some other process does not
 * stop a start, and `status`/`stop` refuse a socket another user owns.
 *
 * Runs as root (scripts/test does): one test makes a local user with useradd, runs a server as
 * that user through setpriv (allowed to read any file, so the checkout's modes do not matter),
 * and removes the user again.
 */
final class RuntimeFilesTest extends E2ETestCase
{
    private const ROOT = __DIR__ . '/../..';

    private string $dir = '';
    private string|false $xdg = false;
    private ?string $user = null;
    /** @var list<string> */
    private array $cleanup = [];

    protected function setUp(): void
    {
        $this->dir = \sys_get_temp_dir() . '/spindle-runtime-' . \bin2hex(\random_bytes(4));
        \mkdir($this->dir, 0700);
        $this->xdg = \getenv('XDG_RUNTIME_DIR');
    }

    protected function tearDown(): void
    {
        \putenv($this->xdg === false ? 'XDG_RUNTIME_DIR' : 'XDG_RUNTIME_DIR=' . $this->xdg);
        foreach ([$this->dir, ...$this->cleanup] as $path) {
            if (\is_link($path) || \file_exists($path)) {
                \exec('rm -rf ' . \escapeshellarg($path));
            }
        }
        if ($this->user !== null) {
            $user = $this->user;
            $this->user = null;
            self::assertTrue(self::retried('/usr/sbin/userdel ' . \escapeshellarg($user), $output), 'userdel: ' . $output);
        }
    }

    public function testWithoutPidFileTheFilesLiveInThePrivateRuntimeDirectory(): void
    {
        \putenv('XDG_RUNTIME_DIR=' . $this->dir);
        $server = ServerProcess::start(ServerProcess::fixture('echo.php'));
        $port = $server->port();
        $pidFile = $this->dir . "/spindle/{$port}.pid";
        self::assertSame(0700, \fileperms($this->dir . '/spindle') & 0777);
        self::assertSame($server->pid(), PidFile::read($pidFile));
        self::assertSame(0644, \fileperms($pidFile) & 0777);
        self::assertSame('socket', \filetype($this->dir . "/spindle/{$port}.sock"));
        self::assertSame(['.', '..', "{$port}.pid", "{$port}.sock"], \scandir($this->dir . '/spindle'), 'no temporary file left');
        self::assertFileDoesNotExist(\sys_get_temp_dir() . "/spindle-{$port}.pid", 'the old shared location is not used');

        // The commands find it by port, with the same environment.
        $status = self::command(['status', '--json', '--port=' . $port]);
        self::assertSame(0, $status['code'], $status['err']);
        self::assertSame($server->pid(), \json_decode($status['out'], true)['pid'] ?? null);
        $stop = self::command(['stop', '--port=' . $port]);
        self::assertSame(0, $stop['code'], $stop['err']);
        self::assertSame(0, $server->waitForExit(10.0));
        self::assertSame(['.', '..'], \scandir($this->dir . '/spindle'));
    }

    /**
     * The shared cache's lock (the shm backend, SPINDLE_CACHE_BACKEND=shm) has no name on disk:
     * its file is made in the server's temporary directory and unlinked at once, each worker
     * holds it open, and a master killed with SIGKILL leaves nothing in the temporary directory,
     * nor in the runtime directory beyond its pid file and control socket. (The workers' own
     * upload directories, private and of unpredictable names, are set aside: WorkerTempDirs.)
     */
    public function testTheSharedCachesLockLeavesNoFileWhenTheMasterIsKilled(): void
    {
        $tmp = $this->dir . '/tmp';
        \mkdir($tmp, 0700);
        \putenv('XDG_RUNTIME_DIR=' . $this->dir);
        $tmpdir = \getenv('TMPDIR');
        \putenv('TMPDIR=' . $tmp);
        \putenv('SPINDLE_CACHE_BACKEND=shm');
        try {
            $server = ServerProcess::start(ServerProcess::fixture('shared-cache.php'), ['--workers=2']);
        } finally {
            \putenv($tmpdir === false ? 'TMPDIR' : 'TMPDIR=' . $tmpdir);
            \putenv('SPINDLE_CACHE_BACKEND');
        }
        $port = $server->port();
        for ($i = 1; $i <= 10; ++$i) {
            $response = self::rawRequest($server, self::get('/incr?k=n', "Connection: close\r\n"));
            self::assertSame(200, $response->status, $response->raw);
            self::assertSame(['backend' => 'shm', 'value' => $i], \array_intersect_key($response->json(), ['backend' => 0, 'value' => 0]));
        }
        self::assertSame([], self::namedIn($tmp), 'no file of the server\'s in the temporary directory while it runs');
        $workers = $server->workerPids();
        self::assertCount(2, $workers);
        foreach ($workers as $worker) {
            $held = [];
            foreach (\glob("/proc/{$worker}/fd/*") ?: [] as $fd) {
                $target = (string) @\readlink($fd);
                if (\str_starts_with($target, $tmp . '/')) {
                    $held[] = $target;
                }
            }
            self::assertNotEmpty($held, "worker {$worker} holds the lock's file open");
            foreach ($held as $target) {
                self::assertMatchesRegularExpression('~^' . \preg_quote($tmp, '~') . '/spindle-cache-\S+ \(deleted\)$~', $target);
            }
        }

        $server->signal(\SIGKILL);
        self::assertNotNull($server->waitForExit(10.0));
        foreach ($workers as $worker) {
            \posix_kill($worker, \SIGKILL);
        }
        $deadline = \microtime(true) + 10.0;
        while (\array_filter($workers, static fn (int $pid): bool => \file_exists("/proc/{$pid}")) !== [] && \microtime(true) < $deadline) {
            \usleep(10_000);
        }
        self::assertSame([], self::namedIn($tmp), 'no file of the server\'s left in the temporary directory');
        self::assertSame(['.', '..', "{$port}.pid", "{$port}.sock"], \scandir($this->dir . '/spindle'), 'nothing but the pid file and socket a killed master leaves');
    }

    /**
     * A root-run server, its pid file in a directory anyone can write (as /tmp): symlinks
     * planted at the pid file's name and at the temporary name a pid file used to be written
     * to (".app.pid.PID.tmp": a shell plants it for its own pid, then execs the server, which
     * keeps that pid) are replaced or left alone, never written through, and the file they point
     * to keeps its content and mode.
     */
    public function testARootServerDoesNotFollowSymlinksPlantedAtItsPidFile(): void
    {
        \chmod($this->dir, 01777);
        $victim = $this->dir . '/victim';
        \file_put_contents($victim, "precious\n");
        \chmod($victim, 0600);
        $pidFile = $this->dir . '/app.pid';
        \symlink($victim, $pidFile);
        $plant = ['sh', '-c', 'ln -s "$0" "$1/.app.pid.$$.tmp" && shift 2 && exec "$@"', $victim, $this->dir];
        $server = ServerProcess::startThrough($plant, ServerProcess::fixture('echo.php'), ['--pid-file=' . $pidFile]);
        self::assertSame("precious\n", \file_get_contents($victim));
        self::assertSame(0600, \fileperms($victim) & 0777);
        self::assertTrue(\is_link("{$this->dir}/.app.pid.{$server->pid()}.tmp"), 'the symlink planted for the server\'s pid is left alone');
        self::assertFalse(\is_link($pidFile));
        self::assertSame($server->pid(), PidFile::read($pidFile));
        self::assertSame(0, $server->stop());
        self::assertFileDoesNotExist($pidFile);
        self::assertSame("precious\n", \file_get_contents($victim));

        // A symlink at the control socket's name: the server refuses to start and touches nothing.
        \symlink($victim, $this->dir . '/app.sock');
        $refused = ServerProcess::launch(ServerProcess::fixture('echo.php'), ['--pid-file=' . $pidFile]);
        self::assertSame(2, $refused->waitForExit(10.0), $refused->stderr());
        self::assertStringContainsString("Cannot create the control socket {$this->dir}/app.sock: the path exists and is not a socket", $refused->stderr());
        self::assertSame("precious\n", \file_get_contents($victim));
        self::assertSame(0600, \fileperms($victim) & 0777);
    }

    /** The runtime directory itself replaced by a symlink: refused, nothing written where it points. */
    public function testASymlinkedRuntimeDirectoryIsRefused(): void
    {
        \mkdir($this->dir . '/elsewhere', 0700);
        \symlink($this->dir . '/elsewhere', $this->dir . '/spindle');
        \putenv('XDG_RUNTIME_DIR=' . $this->dir);
        $server = ServerProcess::launch(ServerProcess::fixture('echo.php'));
        self::assertSame(2, $server->waitForExit(10.0), $server->stderr());
        self::assertStringContainsString(
            "Refusing to keep the pid file and control socket in {$this->dir}/spindle: it is a symbolic link. Remove it, or give --pid-file",
            $server->stderr(),
        );
        self::assertSame(['.', '..'], \scandir($this->dir . '/elsewhere'));
    }

    /** Pid 1, a dead pid, or this test's own (live, not a Spindle server) do not stop a start. */
    public function testAPidFileNamingAnotherProcessDoesNotStopAStart(): void
    {
        $pidFile = $this->dir . '/app.pid';
        foreach (['1', '2147483000', (string) \getmypid()] as $pid) {
            \file_put_contents($pidFile, $pid . "\n");
            $server = ServerProcess::start(ServerProcess::fixture('echo.php'), ['--pid-file=' . $pidFile]);
            self::assertSame($server->pid(), PidFile::read($pidFile), "pid file naming {$pid}");
            self::assertServerAnswers($server);
            self::assertSame(0, $server->stop());
        }
        // A live Spindle server in it still does.
        $first = ServerProcess::start(ServerProcess::fixture('echo.php'), ['--pid-file=' . $pidFile]);
        $second = ServerProcess::launch(ServerProcess::fixture('echo.php'), ['--pid-file=' . $pidFile]);
        self::assertSame(2, $second->waitForExit(10.0), $second->stderr());
        self::assertStringContainsString(\sprintf('Spindle is already running with pid %d', $first->pid()), $second->stderr());
        self::assertSame($first->pid(), PidFile::read($pidFile));
        self::assertSame(0, $first->stop());
    }

    /**
     * Another local user: root plants its per-user directory in /tmp first (a symlink, then a
     * directory of root's), and the user's server refuses both; once it is gone the server makes
     * its own. Then root's `status` and `stop` refuse the socket that user's server owns.
     */
    public function testAnotherUsersDirectoryAndSocketAreRefused(): void
    {
        $this->createUser();
        \assert($this->user !== null);
        $account = \posix_getpwnam($this->user);
        self::assertIsArray($account);
        $uid = $account['uid'];
        // The user may read every file (the checkout may not be world-readable: some vendor files
        // are 0600), nothing more: files it creates are its own, it writes only where it may.
        $asUser = [
            'setpriv', '--reuid=' . $uid, '--regid=' . $account['gid'], '--clear-groups',
            '--inh-caps=+dac_read_search', '--ambient-caps=+dac_read_search',
            '--', 'env', '-u', 'XDG_RUNTIME_DIR', '-u', 'TMPDIR',
        ];
        $private = "/tmp/spindle-{$uid}";
        $this->cleanup[] = $private;
        // The uid is new, but a run that crashed may have left the name behind.
        \exec('rm -rf ' . \escapeshellarg($private));

        \mkdir($this->dir . '/planted', 0777);
        \symlink($this->dir . '/planted', $private);
        $refused = ServerProcess::launch(ServerProcess::fixture('echo.php'), [], $asUser);
        self::assertSame(2, $refused->waitForExit(10.0), $refused->stderr());
        self::assertStringContainsString("Refusing to keep the pid file and control socket in {$private}: it is a symbolic link", $refused->stderr());
        self::assertSame(['.', '..'], \scandir($this->dir . '/planted'));
        \unlink($private);

        \mkdir($private, 0700);
        $refused = ServerProcess::launch(ServerProcess::fixture('echo.php'), [], $asUser);
        self::assertSame(2, $refused->waitForExit(10.0), $refused->stderr());
        self::assertStringContainsString("Refusing to keep the pid file and control socket in {$private}: it belongs to uid 0, not to uid {$uid}", $refused->stderr());
        \rmdir($private);

        $server = ServerProcess::startThrough($asUser, ServerProcess::fixture('echo.php'));
        $stat = \lstat($private);
        self::assertIsArray($stat);
        self::assertSame($uid, $stat['uid']);
        self::assertSame(040700, $stat['mode'] & 0177777);
        $pidFile = "{$private}/{$server->port()}.pid";
        self::assertSame($server->pid(), PidFile::read($pidFile));
        $socket = PidFile::socketPath($pidFile);
        self::assertSame($uid, \fileowner($socket));

        // The user itself is answered; root is refused: not its socket, and not root's.
        $own = self::command(['status', '--json', '--pid-file=' . $pidFile], [...$asUser]);
        self::assertSame(0, $own['code'], $own['err']);
        foreach (['status', 'stop'] as $verb) {
            $result = self::command([$verb, '--pid-file=' . $pidFile]);
            self::assertSame(1, $result['code'], $result['out'] . $result['err']);
            self::assertStringContainsString(
                "Refusing the control socket {$socket}: it belongs to user {$this->user} (uid {$uid}), not to you, user root (uid 0), or to root",
                $result['err'],
            );
        }
        self::assertTrue($server->isRunning(), 'the refused stop stopped nothing');
        self::assertServerAnswers($server);
        self::assertSame(0, $server->stop());
    }

    /**
     * What $directory holds besides the workers' upload directories (spindle-worker-<random>,
     * checked to be private directories).
     *
     * @return list<string>
     */
    private static function namedIn(string $directory): array
    {
        $named = [];
        foreach (\array_diff(\scandir($directory) ?: [], ['.', '..']) as $entry) {
            $path = $directory . '/' . $entry;
            if (\preg_match('/^spindle-worker-[0-9a-f]{16}$/', $entry) === 1 && !\is_link($path) && \is_dir($path) && (\fileperms($path) & 0777) === 0700) {
                continue;
            }
            $named[] = $entry;
        }

        return $named;
    }

    private function createUser(): void
    {
        if (\posix_geteuid() !== 0 || !\is_executable('/usr/sbin/useradd') || !\is_executable('/usr/bin/setpriv')) {
            self::markTestSkipped('Needs root, useradd and setpriv to run a server as another local user');
        }
        $name = 'spindle-rt-' . \bin2hex(\random_bytes(3));
        self::assertTrue(self::retried('/usr/sbin/useradd --system --no-create-home --shell /usr/sbin/nologin ' . \escapeshellarg($name), $output), 'useradd: ' . $output);
        $this->user = $name;
    }

    /**
     * Runs a shell command until it succeeds, a few times: useradd and userdel fail while another
     * process holds the lock on /etc/passwd.
     *
     * @param-out string $output
     */
    private static function retried(string $command, ?string &$output): bool
    {
        for ($attempt = 0; $attempt < 20; ++$attempt) {
            $lines = [];
            \exec($command . ' 2>&1', $lines, $code);
            $output = \implode("\n", $lines);
            if ($code === 0) {
                return true;
            }
            \usleep(250_000);
        }

        return false;
    }

    /**
     * Runs bin/spindle with $arguments, through $wrapper, and waits for it.
     *
     * @param list<string> $arguments
     * @param list<string> $wrapper
     *
     * @return array{code: int, out: string, err: string, seconds: float}
     */
    private static function command(array $arguments, array $wrapper = []): array
    {
        $command = BackgroundCommand::start([...$wrapper, \PHP_BINARY, self::ROOT . '/bin/spindle', ...$arguments]);
        $deadline = \microtime(true) + 30.0;
        while (($result = $command->poll()) === null) {
            if (\microtime(true) > $deadline) {
                $command->kill();
                self::fail(\sprintf('bin/spindle %s did not finish within 30 s', \implode(' ', $arguments)));
            }
            \usleep(5000);
        }

        return $result;
    }
}
